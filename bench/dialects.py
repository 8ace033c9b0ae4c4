#!/usr/bin/env python3
"""bench/dialects.py — count and typed read of the dialects the chunk planner
cuts at line ends (escape, comment, lenient, "||"; RFC 4180 as the reference),
on 1 and 2 threads: issue 22's "2 threads >= 1.7x one thread".

    bench/dialects.py [--build build] [--data DIR] [--mb 100] [--rounds 5]

Makes the files with bench/gen_dialects.py when DIR lacks them, then runs
ROUNDS interleaved rounds of, per file and thread count,
    simdsv count --threads T --no-sniff DIALECT FILE          (whole process)
    bench_read FILE --threads T DIALECT                       (simdsv_table_read + Arrow export)
then, per file, `bench_scan FILE --op count --threads 1,2` (the count in
process, the file preloaded into memory: no process start, no page faults),
and prints a Markdown table of the medians: wall seconds, CPU seconds (user +
system: on a loaded machine the steadier number), and the speed-up of 2
threads over 1 (wall, and CPU / wall, the threads kept busy).  The load
average before and after is printed with it: on a shared machine the wall
ratio says little when the load is above the core count.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys
import time

FILES = {  # file: (count options, bench_read and bench_scan options)
    "plain": ([], []),
    "escape": (["--escape", "\\"], ["--escape", "\\"]),
    "comment": (["--comment", "#"], ["--comment", "#"]),
    "lenient": (["--lenient"], ["--lenient", "1"]),
    "pipes": (["--delimiter", "||"], ["--delimiter", "||"]),
}


def timed(cmd):
    """(wall seconds, CPU seconds of the child, stdout)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: status {done.returncode}: {done.stderr.decode(errors='replace')}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout.decode()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--data", default="/tmp/simdsv-dialects")
    ap.add_argument("--mb", type=float, default=100.0)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--files", default=",".join(FILES))
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    names = args.files.split(",")
    if not all(os.path.exists(os.path.join(args.data, n + ".csv")) for n in names):
        subprocess.run([sys.executable, os.path.join(here, "gen_dialects.py"), args.data, str(args.mb)], check=True)
    simdsv = os.path.join(args.build, "simdsv")
    bench_read = os.path.join(args.build, "bench", "bench_read")
    jobs = []
    for name in names:
        path = os.path.join(args.data, name + ".csv")
        count_opts, read_opts = FILES[name]
        for threads in (1, 2):
            jobs.append((name, "count", threads,
                         [simdsv, "count", "--threads", str(threads), "--no-sniff", *count_opts, path]))
            jobs.append((name, "read", threads, [bench_read, path, "--threads", str(threads), *read_opts]))
    load0 = os.getloadavg()
    results = {}
    outputs = {}
    for _ in range(args.rounds):
        for name, op, threads, cmd in jobs:
            wall, cpu, out = timed(cmd)
            results.setdefault((name, op, threads), []).append((wall, cpu))
            # The answer must not depend on the threads: the count, or the rows and types.
            answer = out.split()[0] if op == "count" else " ".join(
                w for w in out.split() if w.startswith(("rows=", "cols=", "types=")))
            if outputs.setdefault((name, op), answer) != answer:
                sys.exit(f"{name} {op}: {threads} threads gave {answer!r}, not {outputs[(name, op)]!r}")
    load1 = os.getloadavg()
    size = {n: os.path.getsize(os.path.join(args.data, n + ".csv")) for n in names}
    print(f"cores {os.cpu_count()}, load average {load0[0]:.1f} before, {load1[0]:.1f} after; "
          f"{args.rounds} interleaved rounds, medians; files of {size[names[0]] / 1e6:.0f} MB")
    print()
    print("| file | op | 1 thread s (cpu) | 2 threads s (cpu) | 2 / 1 wall | 2 threads cpu / wall | GB/s at 2 |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        for op in ("count", "read"):
            one = results[(name, op, 1)]
            two = results[(name, op, 2)]
            w1, c1 = statistics.median(w for w, _ in one), statistics.median(c for _, c in one)
            w2, c2 = statistics.median(w for w, _ in two), statistics.median(c for _, c in two)
            print(f"| {name} | {op} | {w1:.3f} ({c1:.3f}) | {w2:.3f} ({c2:.3f}) | {w1 / w2:.2f}x | "
                  f"{c2 / w2:.2f} | {size[name] / w2 / 1e9:.2f} |")
    print()
    print("| file | count in memory, 1 thread GB/s | 2 threads GB/s | 2 / 1 |")
    print("|---|---|---|---|")
    bench_scan = os.path.join(args.build, "bench", "bench_scan")
    for name in names:
        _, _, out = timed([bench_scan, os.path.join(args.data, name + ".csv"), "--op", "count", "--threads", "1,2",
                           "--repeat", str(2 * args.rounds + 1), *FILES[name][1]])
        lines = [dict(kv.split("=", 1) for kv in line.split()) for line in out.splitlines() if line.startswith("op=")]
        one, two = lines[0], lines[1]
        if one["check"] != two["check"] or one["check"] != outputs[(name, "count")]:
            sys.exit(f"{name}: bench_scan counted {one['check']} / {two['check']}, simdsv count {outputs[(name, 'count')]}")
        print(f"| {name} | {one['GB/s']} | {two['GB/s']} | {float(two['speedup']):.2f}x |")
    print()
    print("answers (the same on 1 and 2 threads):", "; ".join(f"{k[0]} {k[1]}: {v}" for k, v in outputs.items()))


if __name__ == "__main__":
    main()
