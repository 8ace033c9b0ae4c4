#!/usr/bin/env python3
"""bench/bench_peers.py — simdsv side by side with the current peers (issue 22), written as a markdown report.

    make bench-peers                       # the full run: 3 shapes x 200 MB, 5 interleaved rounds, 1 and 2 threads
    make bench-peers-quick                 # the smoke run: 1 MB files, 1 round, 1 thread (seconds)
    python3 bench/bench_peers.py [--quick] [--data DIR] [--size-mb N] [--rounds N] [--threads 1,2]
                                 [--shapes mixed,quoted,taxi] [--jobs LIST] [--peers LIST] [--out REPORT.md]

Jobs (each one table in the report: median seconds per reader, the fastest peer, simdsv's ratio to it):
  count     `simdsv count --threads T FILE` (whole process) vs every peer's `count`
  read_c    the typed read into Arrow in C (bench/bench_read, mapped and read()) vs every peer's `read`
  read_py   simdsv.read_csv (py-simdsv through the peers' own peer.py) vs the same peer `read` runs
  read1_py  one column (0-based --col, default 0) from Python vs every peer's `read1`
  parquet   `simdsv convert FILE --to parquet --compression zstd --threads T` (whole process) vs every peer's
            `parquet` (zstd; Polars' sink_parquet, DuckDB's COPY, pyarrow and pandas write_table)
  iterate   every field in C (bench_scan --op iterate, in memory, one thread) vs simd-csv's ZeroCopyReader and
            the csv crate (RSIMD_MEM=1: also from memory)
  cli       select / search / frequency / count against xan, whole processes, output to /dev/null
            (the commands of the peers' cli-peers.sh, and frequency; the outputs are compared byte for byte)

Rounds are interleaved: round r runs every measurement of every shape once before round r+1 starts, so a slow
stretch of a shared machine hits every reader alike; the file is read once (page cache) before each shape's turn.
The peers are timed by their own in-process timers (`seconds=` of ../shared/peers/peer.sh: no interpreter start),
simdsv's CLI as a whole process, bench_read and bench_scan in process.  A peer that is not installed or fails is
named in the report with the reason; it never fails the run.  The exit status is 0 unless simdsv itself failed or a
reader's row count disagrees with `simdsv count`.  Beside the report: the raw runs as JSON lines (REPORT.jsonl).

Files (made when missing, deterministic): DATA/mixed_N.csv (../shared/peers/gen_mixed.py --mb N, 1e6 bytes),
DATA/quoted_N.csv and DATA/taxi_N.csv (../shared/datasets/gen.py quoted_text|taxi N, MiB): the same names as the
issue's files, so `--data` can point at an existing folder of them.  Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SHAPES = {  # shape -> (generator, its kind argument or None, what it is)
    "mixed": ("gen_mixed", None, "8 columns: ints, floats, a short code, one quoted note, a date, a bool"),
    "quoted": ("gen", "quoted_text", "5 columns of long quoted text: commas, line ends, \"\" and UTF-8"),
    "taxi": ("gen", "taxi", "19 columns, NYC taxi 2015: ints, datetimes, money, lon/lat, no quotes"),
}
# The peers of each op by default: the current releases (the older nodejs/R/Debian peers stay available by name).
DEFAULT_PEERS = {
    "count": ["py-polars", "py-duckdb", "pyarrow", "pandas-pyarrow", "simd-csv", "rust-csv-new"],
    "read": ["py-polars", "py-duckdb", "pyarrow", "pandas-pyarrow"],
    "read1": ["py-polars", "py-duckdb", "pyarrow", "pandas-pyarrow"],
    "parquet": ["py-polars", "py-duckdb", "pyarrow", "pandas-pyarrow"],
    "iterate": ["simd-csv", "rust-csv-new"],
}
JOB_PEER_OP = {"count": "count", "read_c": "read", "read_py": "read", "read1_py": "read1", "parquet": "parquet",
               "iterate": "iterate"}
JOBS = ["count", "read_c", "read_py", "read1_py", "parquet", "iterate", "cli"]
CLI_OPS = ["select", "search", "frequency", "count"]
# The "done when" ratios (simdsv's speed over the fastest peer's).
TARGETS = {"count": 1.5, "read_c": 2.5, "parquet": 1.5, "cli:select": 1.5, "cli:search": 1.5,
           "cli:frequency": 1.5, "cli:count": 2.0}


@dataclass
class Measure:
    """One thing timed once per round: a reader doing an op on a shape at a thread count."""

    key: str  # unique within a shape: "tool|op|threads"
    tool: str
    op: str
    threads: int
    argv: list
    how: str  # "peer": parse peer.sh's line; "process": whole-process wall; "scan": bench_scan's GB/s
    env: dict = field(default_factory=dict)
    runs: list = field(default_factory=list)  # dicts: seconds, cpu, wall, rows
    failed: str = ""  # why it was dropped (first failure)
    info: dict = field(default_factory=dict)  # version, bytes, ... from the last good run

    def median(self):
        return statistics.median(r["seconds"] for r in self.runs) if self.runs else None


def kv(line):
    """key=value pairs of one peer line (values without spaces)."""
    return dict(m.groups() for m in re.finditer(r"([^\s=]+)=(\S*)", line))


def last_line(text, width=240):
    lines = [s for s in text.strip().splitlines() if s.strip()]
    return lines[-1][:width] if lines else "(no output)"


class Bench:
    def __init__(self, args):
        self.a = args
        self.build = os.path.abspath(os.path.join(ROOT, args.build))
        self.simdsv = os.path.join(self.build, "simdsv")
        self.bench_read = os.path.join(self.build, "bench", "bench_read")
        self.bench_scan = os.path.join(self.build, "bench", "bench_scan")
        self.tmp = tempfile.mkdtemp(prefix="bench-peers-")  # parquet outputs; every run's working folder
        self.peers_dir = self.find_peers()
        self.missing = {}  # tool -> why it is not in the run at all
        self.list_ops, self.list_multi = self.peer_list()
        self.py_simdsv = self.find_py_simdsv()
        self.xan = os.path.join(self.peers_dir, "bin-rust", "bin", "xan") if self.peers_dir else ""
        if not (self.xan and os.access(self.xan, os.X_OK)):
            self.missing["xan"] = "not installed (%s)" % (self.xan or "no peers folder")
            self.xan = ""
        self.failures = []  # simdsv's own failures and row-count disagreements: the exit status

    # ---- what is installed ----
    def find_peers(self):
        given = self.a.peers_dir or os.environ.get("PEERS_DIR")  # a folder named is the only one looked at
        for d in [given] if given else [os.path.join(ROOT, "..", "shared", "peers"),
                                         os.path.join(ROOT, "shared", "peers")]:
            if d and os.access(os.path.join(d, "peer.sh"), os.X_OK):
                return os.path.realpath(d)
        return ""

    def peer_list(self):
        """ops and threading of each peer, from `peer.sh --list` (the peers' own description)."""
        if not self.peers_dir:
            return {}, set()
        try:
            out = subprocess.run([os.path.join(self.peers_dir, "peer.sh"), "--list"], capture_output=True, text=True,
                                 timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            return {}, set()
        ops, multi = {}, set()
        for line in out.splitlines():
            parts = line.split()
            if len(parts) >= 3 and parts[1].startswith("ops="):
                ops[parts[0]] = parts[1][4:].split(",")
                if parts[2] == "threads=multi":
                    multi.add(parts[0])
        return ops, multi

    def peer_installed(self, peer):
        """'' when the peer's program is there, else why not (checked without running it)."""
        if not self.peers_dir:
            return "no peers folder (no peer.sh in %s)" % (self.a.peers_dir or os.environ.get("PEERS_DIR")
                                                            or "../shared/peers; set --peers-dir or PEERS_DIR")
        if peer not in self.list_ops:
            return "not in peer.sh --list"
        d = self.peers_dir
        need = {"simd-csv": "rust-simd/target/release/rsimd", "rust-csv-new": "rust-simd/target/release/rsimd",
                "rust-csv": "rust-csv/target/release/peer-rust-csv", "libcsv": "libcsv/libcsv_count",
                "polars": "node/node_modules", "duckdb": "node/node_modules"}.get(peer)
        if peer.startswith("py-") or peer in ("pyarrow", "pandas-pyarrow"):
            need = "python/venv/bin/python"
        if need and not os.path.exists(os.path.join(d, need)):
            return "not installed (%s missing; the peers' install.sh builds it)" % need
        return ""

    def find_py_simdsv(self):
        """A Python that imports this checkout's simdsv, to run peer.py's py-simdsv with (the peers' venv holds
        only what was pip-installed into it by hand, so this tree's build-py/venv comes first)."""
        if not self.peers_dir:
            self.missing["py-simdsv"] = "no peers folder (peer.py times it)"
            return ""
        tried = [self.a.python] if self.a.python else [
            os.path.join(ROOT, "build-py", "venv", "bin", "python"),
            os.path.join(self.peers_dir, "python", "venv", "bin", "python")]
        for py in tried:
            if py and os.access(py, os.X_OK) and subprocess.run(
                    [py, "-c", "import simdsv, pyarrow"], capture_output=True, cwd=self.tmp).returncode == 0:
                return py
        self.missing["py-simdsv"] = "no Python that imports simdsv and pyarrow (tried %s; make python-test builds " \
                                    "build-py/venv)" % ", ".join(p for p in tried if p)
        return ""

    # ---- data ----
    def data_file(self, shape):
        return os.path.join(self.a.data, "%s_%s.csv" % (shape, self.a.size_mb))

    def make_data(self, shape):
        path = self.data_file(shape)
        if os.path.exists(path):
            return path
        os.makedirs(self.a.data, exist_ok=True)
        gen, kind, _ = SHAPES[shape]
        shared = os.path.join(ROOT, "..", "shared")
        part = path + ".part"
        if gen == "gen_mixed":
            cmd = [sys.executable, os.path.join(shared, "peers", "gen_mixed.py"), part, "--mb", str(self.a.size_mb)]
        else:
            cmd = [sys.executable, os.path.join(shared, "datasets", "gen.py"), kind, str(self.a.size_mb), "-o", part]
        print("making %s: %s" % (path, " ".join(cmd)), file=sys.stderr)
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        os.replace(part, path)
        return path

    # ---- the measurements of one shape ----
    def peer_measure(self, peer, op, threads, shape_path):
        env = {"PEER_COL": str(self.a.col)}
        if op == "iterate":
            env["RSIMD_MEM"] = "1"  # parse from memory, as bench_scan does
        if op == "parquet":
            env["PEER_OUT"] = os.path.join(self.tmp, "%s.%d.parquet" % (peer, threads))
        if peer == "py-simdsv":
            argv = [self.py_simdsv, os.path.join(self.peers_dir, "python", "peer.py"), peer, shape_path, op,
                    str(threads)]
        else:
            argv = [os.path.join(self.peers_dir, "peer.sh"), peer, shape_path, op, str(threads)]
        return Measure("%s|%s|%d" % (peer, op, threads), peer, op, threads, argv, "peer", env)

    def measures(self, path):
        a, out = self.a, []
        jobs = set(a.jobs)
        peers_of = {op: (a.peers if a.peers else DEFAULT_PEERS[op]) for op in DEFAULT_PEERS}
        for t in a.threads:
            if "count" in jobs or "cli" in jobs:
                out.append(Measure("simdsv|count|%d" % t, "simdsv", "count", t,
                                   [self.simdsv, "count", "--threads", str(t), path], "process"))
            if "read_c" in jobs:
                out.append(Measure("simdsv-mmap|read|%d" % t, "simdsv-mmap", "read", t,
                                   [self.bench_read, path, "--threads", str(t), "--mmap", "1"], "peer"))
                out.append(Measure("simdsv-read|read|%d" % t, "simdsv-read", "read", t,
                                   [self.bench_read, path, "--threads", str(t), "--mmap", "0"], "peer"))
            if "parquet" in jobs:
                out.append(Measure("simdsv|parquet|%d" % t, "simdsv", "parquet", t,
                                   [self.simdsv, "convert", path, "--to", "parquet", "--compression", "zstd",
                                    "--threads", str(t), "-o", os.path.join(self.tmp, "simdsv.%d.parquet" % t)],
                                   "process"))
            if self.py_simdsv:
                for job, op in (("read_py", "read"), ("read1_py", "read1")):
                    if job in jobs:
                        out.append(self.peer_measure("py-simdsv", op, t, path))
            for op, peers in peers_of.items():
                if not any(JOB_PEER_OP[j] == op for j in jobs if j in JOB_PEER_OP):
                    continue
                for peer in peers:
                    if peer in self.list_ops and op not in self.list_ops[peer]:
                        continue  # the peer has no such op
                    if t > 1 and peer in self.list_ops and peer not in self.list_multi:
                        continue  # a one-thread peer is timed once, at 1 thread
                    why = self.peer_installed(peer)
                    if why:
                        self.missing[peer] = why
                        continue
                    out.append(self.peer_measure(peer, op, t, path))
            if "cli" in jobs and self.xan:
                xt = ["-t", str(t)] if t > 1 else []
                out.append(Measure("xan|count|%d" % t, "xan", "count", t, [self.xan, "count", *xt, path], "process"))
        if "iterate" in jobs and 1 in a.threads:
            out.append(Measure("simdsv|iterate|1", "simdsv", "iterate", 1,
                               [self.bench_scan, path, "--op", "iterate", "--repeat", "1"], "scan"))
        if "cli" in jobs and 1 in a.threads:
            for op, s_args, x_args in self.cli_commands():
                out.append(Measure("simdsv|%s|1" % op, "simdsv", op, 1, [self.simdsv, *s_args, path], "process"))
                if self.xan:
                    out.append(Measure("xan|%s|1" % op, "xan", op, 1, [self.xan, *x_args, path], "process"))
        return out

    def cli_commands(self):
        """(op, simdsv args, xan args): the jobs of the issue's CLI line; xan takes 0-based column indexes."""
        return [("select", ["select", "1,2,3"], ["select", "0,1,2"]),
                ("search", ["search", "-c", "2", "--", "1"], ["search", "-s", "1", "--", "1"]),
                ("frequency", ["frequency", "--select", "2"], ["frequency", "-s", "1"])]

    # ---- running ----
    def run_once(self, m):
        env = dict(os.environ, **m.env)
        argv = (["chrt", "-f", str(self.a.rt)] if self.a.rt else []) + m.argv
        c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        try:
            # The CLI jobs write their records to /dev/null, as the report says: a pipe read back by this
            # interpreter would time the reader too (it was 7x the CPU of select on mixed).
            to_null = m.how == "process" and m.op in ("select", "search", "frequency")
            p = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL if to_null else subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, timeout=self.a.timeout, cwd=self.tmp)
        except subprocess.TimeoutExpired:
            return None, "timed out after %d s" % self.a.timeout
        except OSError as e:
            return None, str(e)
        wall = time.perf_counter() - t0
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        pcpu = (c1.ru_utime - c0.ru_utime) + (c1.ru_stime - c0.ru_stime)
        if p.returncode != 0:
            return None, "exit %d: %s" % (p.returncode, last_line(p.stderr or p.stdout or "", 120))
        if m.how == "process":
            rows = None
            if m.op == "count":
                rows = int(p.stdout.split()[0]) if p.stdout.split() else None
            run = {"seconds": wall, "cpu": pcpu, "wall": wall, "rows": rows}
            if m.op == "parquet":
                m.info["bytes"] = os.path.getsize(m.argv[-1])
            return run, ""
        line = last_line(p.stdout)
        d = kv(line)
        if m.how == "scan":  # op=iterate kernel=K bytes=N GB/s=X best=Y ...: the median of --repeat runs
            gbs = float(d.get("GB/s", "0") or 0)
            if gbs <= 0:
                return None, "no GB/s in: " + line
            m.info["version"] = "kernel " + d.get("kernel", "?")
            return {"seconds": int(d["bytes"]) / gbs / 1e9, "cpu": None, "wall": wall, "rows": None}, ""
        if "seconds" not in d:
            return None, "no seconds= in: " + line
        for k in ("version", "bytes", "types", "note"):
            if k in d:
                m.info[k] = d[k]
        rows = int(d["rows"]) if d.get("rows", "").isdigit() else None
        return {"seconds": float(d["seconds"]), "cpu": float(d["cpu"]) if d.get("cpu") else None, "wall": wall,
                "rows": rows}, ""

    def warm(self, path):
        with open(path, "rb") as f:
            while f.read(1 << 24):
                pass

    def compare_outputs(self, path, ms):
        """select, search and frequency: simdsv's output and xan's, byte for byte (one untimed run each)."""
        same = {}
        for op, s_args, x_args in self.cli_commands():
            if not self.xan:
                continue
            digests = []
            for argv in ([self.simdsv, *s_args, path], [self.xan, *x_args, path]):
                h = hashlib.md5()
                with subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=self.tmp) as p:
                    for chunk in iter(lambda: p.stdout.read(1 << 20), b""):
                        h.update(chunk)
                digests.append(h.hexdigest())
            same[op] = "identical" if digests[0] == digests[1] else "differs"
        return same

    def run(self):
        a = self.a
        shapes = {s: self.make_data(s) for s in a.shapes}
        for exe in [self.simdsv] + ([self.bench_read] if "read_c" in a.jobs else []) + (
                [self.bench_scan] if "iterate" in a.jobs else []):
            if not os.access(exe, os.X_OK):
                sys.exit("bench_peers: %s is not built (cmake --build %s --target simdsv_cli bench_read bench_scan)"
                         % (exe, a.build))
        plan = {s: self.measures(p) for s, p in shapes.items()}
        info = {s: {"bytes": os.path.getsize(p), "path": p} for s, p in shapes.items()}
        for s, p in shapes.items():
            if "cli" in a.jobs:
                info[s]["same"] = self.compare_outputs(p, plan[s])
        self.load_before = os.getloadavg()
        t_start = time.time()
        for r in range(a.rounds):
            for s, p in shapes.items():
                self.warm(p)
                for m in plan[s]:
                    if m.failed:
                        continue
                    run, why = self.run_once(m)
                    if run is None:
                        m.failed = why
                        print("  %s %s: %s" % (s, m.key, why), file=sys.stderr)
                        if m.tool.startswith("simdsv"):
                            self.failures.append("%s on %s failed: %s" % (m.key, s, why))
                        continue
                    run["round"] = r
                    m.runs.append(run)
            print("round %d of %d done (%.0f s)" % (r + 1, a.rounds, time.time() - t_start), file=sys.stderr)
        self.load_after = os.getloadavg()
        self.elapsed = time.time() - t_start
        # the row counts: every reader that reports rows against simdsv count's, per shape
        for s in shapes:
            ref = next((m.runs[0]["rows"] for m in plan[s] if m.key.startswith("simdsv|count|") and m.runs), None)
            info[s]["rows"] = ref
            for m in plan[s]:
                for run in m.runs:
                    if ref is not None and run["rows"] is not None and run["rows"] != ref:
                        self.failures.append("%s on %s: %d rows, simdsv count says %d" % (m.key, s, run["rows"], ref))
                        break
        return plan, info

    # ---- the report ----
    def report(self, plan, info):
        a = self.a
        L = []
        cmd = "python3 bench/bench_peers.py " + " ".join(a.argv)
        cpu = "unknown CPU"
        try:
            with open("/proc/cpuinfo") as f:
                cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
        except (OSError, StopIteration):
            pass
        rev = subprocess.run(["git", "-C", ROOT, "describe", "--always", "--dirty"], capture_output=True,
                             text=True).stdout.strip() or "unknown"
        L.append("# simdsv against the current peers%s" % (" (quick smoke run: tiny files, not a measurement)"
                                                           if a.quick else ""))
        L.append("")
        L.append("Made by `%s` at %s, simdsv %s (`%s`)." % (cmd.strip(), time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                                           rev, self.version()))
        L.append("Machine: %s, %d CPUs, %s; load average %.1f before, %.1f after; %d interleaved round(s), %.0f s."
                 % (cpu, os.cpu_count() or 0, platform.system(), self.load_before[0], self.load_after[0], a.rounds,
                    self.elapsed))
        if self.load_before[0] >= 3 or self.load_after[0] >= 3:
            L.append("**The machine was busy (load average 3 or more): compare within this report only.**")
        if a.rt:
            L.append("Every timed command ran under `chrt -f %d` (real-time priority over the other work)." % a.rt)
        if a.quick:
            L.append("**Quick run: files of a few MB, where process and module start dominate; it checks that every "
                     "job runs, it measures nothing.**")
        L.append("Medians of the rounds, in seconds; *ratio* = the fastest peer's median over simdsv's (above 1: "
                 "simdsv is faster). Peers are timed in process around the parse (no interpreter start); "
                 "simdsv's CLI as a whole process.")
        L.append("")
        L.append("| shape | file | bytes | rows |")
        L.append("|---|---|---|---|")
        for s in plan:
            rows = info[s]["rows"]
            L.append("| %s | `%s` | %d | %s |" % (s, info[s]["path"], info[s]["bytes"],
                                                  "–" if rows is None else rows))
        L.append("")
        versions = {}
        for s in plan:
            for m in plan[s]:
                if m.info.get("version") and not m.tool.startswith("simdsv"):
                    versions[m.tool] = m.info["version"]
        if versions:
            L.append("Peers: " + ", ".join("%s %s" % kv_ for kv_ in sorted(versions.items())) + ".")
        if self.missing:
            L.append("")
            L.append("Not in this run: " + "; ".join("**%s**: %s" % kv_ for kv_ in sorted(self.missing.items())) + ".")
        failed = {}  # (tool, reason) -> the shape/op/threads it failed on; each dropped after its first failure
        for s in plan:
            for m in plan[s]:
                if m.failed:
                    failed.setdefault((m.tool, m.failed), []).append("%s %s %d thr" % (s, m.op, m.threads))
        if failed:
            L.append("")
            L.append("Failed runs (each dropped after its first failure): " + "; ".join(
                "**%s** (%s): %s" % (tool, ", ".join(where), why) for (tool, why), where in sorted(failed.items()))
                     + ".")
        L.append("")
        targets = []
        titles = {
            "count": ("Count the records", "`simdsv count --threads T FILE`, whole process"),
            "read_c": ("Typed read into Arrow, C", "`bench_read FILE --threads T --mmap 1|0` (bench/bench_read.c: "
                       "open, typed read, Arrow export), in process; *ratio* uses the mapped read"),
            "read_py": ("Typed read, Python", "`simdsv.read_csv(FILE, threads=T)` as an Arrow table "
                        "(peer.py py-simdsv), in process"),
            "read1_py": ("One column, Python", "`simdsv.read_csv(FILE, columns=[name of column %d])` (peer.py "
                         "py-simdsv read1), in process" % a.col),
            "parquet": ("CSV to Parquet, zstd", "`simdsv convert FILE --to parquet --compression zstd --threads T "
                        "-o OUT`, whole process"),
            "iterate": ("Every field, C against the Rust parsers", "`bench_scan FILE --op iterate` (in memory, one "
                        "thread, the best kernel); the Rust peers with RSIMD_MEM=1 (from memory)"),
        }
        for job in [j for j in JOBS if j in a.jobs and j != "cli"]:
            title, how = titles[job]
            op = JOB_PEER_OP[job]
            simd_tools = {"count": ["simdsv"], "read_c": ["simdsv-mmap", "simdsv-read"], "read_py": ["py-simdsv"],
                          "read1_py": ["py-simdsv"], "parquet": ["simdsv"], "iterate": ["simdsv"]}[job]
            simd_op = "iterate" if job == "iterate" else op
            peer_tools = []
            for s in plan:
                for m in plan[s]:
                    if m.op == op and not m.tool.startswith("simdsv") and m.tool != "py-simdsv" \
                            and m.tool != "xan" and m.tool not in peer_tools:
                        peer_tools.append(m.tool)
            L.append("## %s" % title)
            L.append("")
            L.append("simdsv: %s. Peers: `peer.sh PEER FILE %s T`." % (how, op))
            L.append("")
            head = ["shape", "thr"] + simd_tools + peer_tools + ["fastest peer", "ratio"]
            if job == "read_c":
                head.append("read()/mmap")
            if job == "parquet":
                head.append("MB (simdsv / fastest)")
            L.append("| " + " | ".join(head) + " |")
            L.append("|" + "---|" * len(head))
            for s in plan:
                by = {(m.tool, m.op, m.threads): m for m in plan[s]}
                for t in a.threads:
                    if job == "iterate" and t != 1:
                        continue
                    cells = [s, str(t)]
                    meds = {}
                    for tool in simd_tools + peer_tools:
                        m = by.get((tool, simd_op if tool in simd_tools else op, t))
                        cells.append(self.cell(m, t))
                        if m and m.runs:
                            meds[tool] = m.median()
                    peers_here = {k: v for k, v in meds.items() if k in peer_tools}
                    ours = meds.get(simd_tools[0])
                    if peers_here and ours:
                        best = min(peers_here, key=peers_here.get)
                        ratio = peers_here[best] / ours
                        cells += [best, "**%.2f×**" % ratio if ratio < 1 else "%.2f×" % ratio]
                        if job in TARGETS:
                            targets.append((job, s, t, best, ratio, TARGETS[job]))
                    else:
                        cells += ["–", "–"]
                    if job == "read_c":
                        rd, mm = meds.get("simdsv-read"), meds.get("simdsv-mmap")
                        cells.append("%.2f" % (rd / mm) if rd and mm else "–")
                    if job == "parquet":
                        sm = by.get(("simdsv", "parquet", t))
                        bm = by.get((min(peers_here, key=peers_here.get), "parquet", t)) if peers_here else None
                        sb = sm.info.get("bytes") if sm else None
                        bb = bm.info.get("bytes") if bm else None
                        cells.append("%s / %s" % ("%.1f" % (int(sb) / 1e6) if sb else "–",
                                                  "%.1f" % (int(bb) / 1e6) if bb else "–"))
                    L.append("| " + " | ".join(cells) + " |")
            L.append("")
        if "cli" in a.jobs:
            L.append("## The CLI against xan")
            L.append("")
            L.append("Whole processes, output to /dev/null, one thread (count also at each thread count: "
                     "`simdsv count --threads T`, `xan count -t T`). Commands: " + "; ".join(
                         "`simdsv %s` vs `xan %s`" % (" ".join(sa), " ".join(xa)) for _, sa, xa in self.cli_commands())
                     + "; `simdsv count` vs `xan count`.")
            L.append("")
            L.append("| shape | job | thr | simdsv | xan | ratio | output |")
            L.append("|---|---|---|---|---|---|---|")
            for s in plan:
                by = {(m.tool, m.op, m.threads): m for m in plan[s]}
                for op in CLI_OPS:
                    for t in (a.threads if op == "count" else [1]):
                        if t not in a.threads:
                            continue
                        sm, xm = by.get(("simdsv", op, t)), by.get(("xan", op, t))
                        ratio = "–"
                        if sm and xm and sm.runs and xm.runs:
                            r = xm.median() / sm.median()
                            ratio = "**%.2f×**" % r if r < 1 else "%.2f×" % r
                            targets.append(("cli:" + op, s, t, "xan", r, TARGETS["cli:" + op]))
                        same = info[s].get("same", {}).get(op, "")
                        L.append("| %s | %s | %d | %s | %s | %s | %s |" % (
                            s, op, t, self.cell(sm, t), self.cell(xm, t) if self.xan else "missing", ratio, same))
            L.append("")
            L.append("*output*: simdsv's output against xan's, byte for byte. Differences by design seen with xan "
                     "0.61: xan's select passes each field through with its original quotes (simdsv writes RFC 4180 "
                     "minimal quoting), and xan's frequency adds a `<rest>` row for the values past the limit.")
            L.append("")
        if targets:
            L.append("## The issue's targets")
            L.append("")
            L.append("| job | shape | thr | against | ratio | target | |")
            L.append("|---|---|---|---|---|---|---|")
            for job, s, t, best, ratio, want in targets:
                L.append("| %s | %s | %d | %s | %.2f× | ≥ %.1f× | %s |" % (
                    job, s, t, best, ratio, want, "met" if ratio >= want else "**MISSED**"))
            L.append("")
        if self.failures:
            L.append("## Errors")
            L.append("")
            L.extend("- " + f for f in self.failures)
            L.append("")
        return "\n".join(L)

    def cell(self, m, t):
        if m is None:
            return "–"
        if m.failed and not m.runs:
            return "failed"
        return "%.3f" % m.median()

    def version(self):
        try:
            return subprocess.run([self.simdsv, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
        except (OSError, IndexError):
            return "?"


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--quick", action="store_true", help="1 MB files, 1 round, 1 thread (a smoke run)")
    p.add_argument("--data", help="folder of SHAPE_N.csv (made when missing; default bench/data)")
    p.add_argument("--size-mb", help="N of SHAPE_N.csv (default 200; quick: 1)")
    p.add_argument("--rounds", type=int, help="interleaved rounds (default 5; quick: 1)")
    p.add_argument("--threads", help="thread counts, comma-separated (default 1,2; quick: 1)")
    p.add_argument("--shapes", default="mixed,quoted,taxi")
    p.add_argument("--jobs", default=",".join(JOBS))
    p.add_argument("--peers", help="the peers of every op, comma-separated (default: the current releases)")
    p.add_argument("--col", type=int, default=0, help="0-based column of read1 (default 0)")
    p.add_argument("--build", default=os.environ.get("BUILD", "build"))
    p.add_argument("--peers-dir", help="folder of peer.sh (default: $PEERS_DIR, ../shared/peers)")
    p.add_argument("--python", help="Python that imports simdsv, for py-simdsv (default: build-py/venv)")
    p.add_argument("--timeout", type=int, default=600, help="seconds one run may take")
    p.add_argument("--rt", type=int, default=0, metavar="PRIORITY",
                   help="run every timed command under chrt -f PRIORITY (root): on a machine busy with other\n"
                        "work, the readers then get the cores as on a quiet one (the report says so)")
    p.add_argument("--out", help="report path (default bench/results/peers-UTCSTAMP.md, copied to peers-latest.md)")
    a = p.parse_args(argv)
    a.argv = argv
    a.data = os.path.abspath(a.data or os.path.join(ROOT, "bench", "data"))
    a.size_mb = a.size_mb or ("1" if a.quick else "200")
    a.rounds = a.rounds or (1 if a.quick else 5)
    a.threads = [int(x) for x in (a.threads or ("1" if a.quick else "1,2")).split(",")]
    a.shapes = [s for s in a.shapes.split(",") if s]
    a.jobs = [j for j in a.jobs.split(",") if j]
    a.peers = [x for x in a.peers.split(",") if x] if a.peers else None
    for s in a.shapes:
        if s not in SHAPES:
            p.error("unknown shape %s (known: %s)" % (s, ", ".join(SHAPES)))
    for j in a.jobs:
        if j not in JOBS:
            p.error("unknown job %s (known: %s)" % (j, ", ".join(JOBS)))
    return a


def main(argv):
    a = parse_args(argv)
    b = Bench(a)
    try:
        plan, info = b.run()
        text = b.report(plan, info)
    finally:
        shutil.rmtree(b.tmp, ignore_errors=True)
    out = a.out or os.path.join(ROOT, "bench", "results", "peers-%s.md" % time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()))
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        f.write(text + "\n")
    with open(os.path.splitext(out)[0] + ".jsonl", "w") as f:
        for s in plan:
            for m in plan[s]:
                f.write(json.dumps({"shape": s, "tool": m.tool, "op": m.op, "threads": m.threads, "argv": m.argv,
                                    "runs": m.runs, "failed": m.failed, "info": m.info}) + "\n")
    if not a.out:
        shutil.copyfile(out, os.path.join(os.path.dirname(out), "peers-latest.md"))
    print(text)
    print("report: %s" % out, file=sys.stderr)
    for f in b.failures:
        print("bench_peers: " + f, file=sys.stderr)
    return 1 if b.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
