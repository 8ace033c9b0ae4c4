#!/usr/bin/env python3
"""bench/python_read.py — the Python package side by side with what people use now.

Every measurement runs in a fresh interpreter (so each library sees exactly
the thread count asked for, set before it loads), the readers interleaved
round by round so that a slow stretch of a shared machine hits all alike;
the timer is in-process around the read only.  Prints medians and bests.

    build-py/venv/bin/python bench/python_read.py FILE...    [--repeat 5] [--sections arrow,pandas,scan,dask,ranges]
                                                             [--column NAME] [--build build]

Sections:
  arrow   simdsv.read_csv(...).to_arrow() vs the C reader (BUILD/bench/bench_read, the file mapped, as
          Python maps a path), pyarrow.csv.read_csv, polars.read_csv, duckdb read_csv(...).arrow(), at 1
          and 2 threads
  pandas  simdsv .to_pandas() vs pandas.read_csv (C engine) and engine="pyarrow", 1 and 2 threads
  scan    simdsv.scan_csv(...).select(COLUMN).collect() vs polars.scan_csv(...) for the same query,
          1 and 2 threads (COLUMN: --column, default the file's first)
  dask    simdsv.dask.read_csv vs dask.dataframe.read_csv, .compute() on a LocalCluster of
          2 worker processes (one thread each), blocksize 64 MB
  ranges  the range summary in GB/s (1 thread, CPU time), and the total work (CPU time) of a
          read in 64 MB ranges (summaries + schema + range reads, 1 thread) over one whole read
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import time


def cpu_seconds() -> float:
    """User + system CPU time of this process, all threads."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def one(lib: str, threads: int, path: str, column: str) -> tuple[float, float]:
    """One timed read in this process (the driver starts a process per call):
    (wall seconds, CPU seconds).  Modules are imported before the timer."""
    import pandas  # noqa: F401  (to_pandas and read_csv need it: not timed)
    import polars as pl
    import pyarrow  # noqa: F401

    if lib == "simdsv-scan":
        import simdsv

        c0, t = cpu_seconds(), time.perf_counter()
        simdsv.scan_csv(path).select(column).collect()
    elif lib == "polars-scan":
        c0, t = cpu_seconds(), time.perf_counter()
        pl.scan_csv(path).select(column).collect()
    elif lib == "simdsv":
        import simdsv

        c0, t = cpu_seconds(), time.perf_counter()
        simdsv.read_csv(path, threads=threads).to_arrow()
    elif lib == "pyarrow":
        import pyarrow as pa
        import pyarrow.csv as pacsv

        pa.set_cpu_count(threads)
        c0, t = cpu_seconds(), time.perf_counter()
        pacsv.read_csv(path, read_options=pacsv.ReadOptions(use_threads=threads > 1))
    elif lib == "polars":  # POLARS_MAX_THREADS was set by the driver
        c0, t = cpu_seconds(), time.perf_counter()
        pl.read_csv(path)
    elif lib == "duckdb":
        import duckdb

        con = duckdb.connect(config={"threads": threads})
        c0, t = cpu_seconds(), time.perf_counter()
        con.read_csv(path).to_arrow_table()  # (.arrow() is a lazy reader in duckdb 2)
    elif lib == "simdsv-pandas":
        import simdsv

        c0, t = cpu_seconds(), time.perf_counter()
        simdsv.read_csv(path, threads=threads).to_pandas()
    elif lib == "pandas-c":
        import pandas as pd

        c0, t = cpu_seconds(), time.perf_counter()
        pd.read_csv(path)
    elif lib == "pandas-pyarrow":
        import pandas as pd
        import pyarrow as pa

        pa.set_cpu_count(threads)
        c0, t = cpu_seconds(), time.perf_counter()
        pd.read_csv(path, engine="pyarrow")
    else:
        raise SystemExit(f"unknown reader {lib}")
    return time.perf_counter() - t, cpu_seconds() - c0


BUILD = "build"


def spawn(lib: str, threads: int, path: str, column: str = "") -> tuple[float, float]:
    if lib == "c":
        # The C reader's own timer and CPU clock around open + typed read (bench_read maps the file).
        out = subprocess.run([os.path.join(BUILD, "bench", "bench_read"), path, "--threads", str(threads)],
                             check=True, capture_output=True, text=True).stdout
        fields = dict(item.split("=", 1) for item in out.split() if "=" in item)
        return float(fields["seconds"]), float(fields["cpu"])
    env = dict(os.environ, POLARS_MAX_THREADS=str(threads), OMP_NUM_THREADS=str(threads))
    out = subprocess.run([sys.executable, __file__, "--one", lib, str(threads), path, column], env=env, check=True,
                         capture_output=True, text=True)
    wall, cpu = out.stdout.split()
    return float(wall), float(cpu)


def report(title: str, times: dict[str, list[tuple[float, float]]], size: int, reference: str) -> None:
    """Wall and CPU medians; the ratios are each reader's median over the reference's."""
    print(f"  {title}")
    print(f"    {'reader':16} {'wall_s':>8} {'best':>7} {'cpu_s':>7} {'best':>7} {'wall MB/s':>9} "
          f"{'wall/' + reference:>14} {'cpu/' + reference:>14}")
    ref_wall = statistics.median(w for w, _ in times[reference])
    ref_cpu = statistics.median(c for _, c in times[reference])
    for lib, ts in times.items():
        wall = statistics.median(w for w, _ in ts)
        cpu = statistics.median(c for _, c in ts)
        print(f"    {lib:16} {wall:8.3f} {min(w for w, _ in ts):7.3f} {cpu:7.3f} {min(c for _, c in ts):7.3f} "
              f"{size / 1e6 / wall:9.0f} {wall / ref_wall:13.2f}x {cpu / ref_cpu:13.2f}x")


def compare(path: str, libs: list[str], repeat: int, threads: int, title: str, column: str = "") -> dict:
    """Runs libs interleaved round by round; prints the table; returns {lib: (median wall, median CPU)}."""
    times: dict[str, list[tuple[float, float]]] = {lib: [] for lib in libs}
    for _ in range(repeat):
        for lib in libs:
            times[lib].append(spawn(lib, threads, path, column))
    report(f"{title}, {threads} thread{'s' if threads > 1 else ''} ({repeat} rounds)", times, os.path.getsize(path),
           libs[0])
    return {lib: (statistics.median(w for w, _ in ts), statistics.median(c for _, c in ts)) for lib, ts in times.items()}


def target(what: str, numerator: tuple[float, float], denominator: tuple[float, float], goal: str) -> None:
    """One line of issue #23's speed targets: the ratio of two medians, wall and CPU."""
    print(f"    target {what}: wall {numerator[0] / denominator[0]:.2f}x, cpu {numerator[1] / denominator[1]:.2f}x "
          f"(goal {goal})")


def dask_section(path: str, repeat: int) -> None:
    import dask.dataframe as dd
    from distributed import Client, LocalCluster

    import simdsv.dask

    times: dict[str, list[tuple[float, float]]] = {"simdsv.dask": [], "dask": []}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster):
            for _ in range(repeat):
                # Wall time only: the work is in the worker processes.
                t = time.perf_counter()
                a = simdsv.dask.read_csv(path, blocksize="64MB").compute()
                times["simdsv.dask"].append((time.perf_counter() - t,) * 2)
                t = time.perf_counter()
                # assume_missing: dask's own fix for integer columns with nulls past its sample (taxi)
                b = dd.read_csv(path, blocksize="64MB", assume_missing=True).compute()
                times["dask"].append((time.perf_counter() - t,) * 2)
                assert len(a) == len(b)
    report(f"dask .compute(), LocalCluster 2 worker processes ({repeat} rounds)", times, os.path.getsize(path),
           "simdsv.dask")


def ranges_section(path: str, repeat: int) -> None:
    from simdsv import _options
    from simdsv import _simdsv as c

    with open(path, "rb") as f:
        data = f.read()
    view = memoryview(data)
    block = 64 << 20
    bounds = list(range(0, len(data), block)) + [len(data)]
    ints, strings = _options.build(threads=1)
    # CPU time of this process (all work here is on one thread): on a shared
    # machine the wall clock also counts the time other processes held the CPU.
    clock = time.process_time
    summary_s, whole_s, split_s = [], [], []
    for _ in range(repeat):
        t = clock()
        c.read_table(view, ints, strings)
        whole_s.append(clock() - t)
        t = clock()
        summaries = [c.range_summary(view[b:e], b, data[b - 1] if b else -1, ints, strings)
                     for b, e in zip(bounds, bounds[1:])]
        summary_s.append(clock() - t)
        ranges = c.range_combine(summaries)
        # The schema once (all types), as simdsv.dask does; then every range.
        schema = c.read_table(view, ints, strings, True).column_info
        range_strings = dict(strings)
        range_strings[c.OPT_NAMES] = _options.join_list(col[0] for col in schema)
        range_strings[c.OPT_SCHEMA] = ",".join(f"#{i + 1}:{col[1]}" for i, col in enumerate(schema))
        rows = 0
        for r in ranges:
            rows += c.read_range(view[r[0]:r[1]], r, ints, range_strings, path).num_rows
        split_s.append(clock() - t)
    med_sum, med_whole, med_split = (statistics.median(x) for x in (summary_s, whole_s, split_s))
    print(f"  ranges of 64 MB, 1 thread, in memory, CPU seconds ({repeat} rounds, {len(bounds) - 1} ranges)")
    print(f"    summaries: {med_sum:.4f} s median = {len(data) / 1e9 / med_sum:.2f} GB/s "
          f"(best {len(data) / 1e9 / min(summary_s):.2f})")
    print(f"    whole read {med_whole:.3f} s; summaries + combine + schema + range reads {med_split:.3f} s: "
          f"overhead {100 * (med_split / med_whole - 1):+.1f}% ({rows} rows)")


def main() -> None:
    global BUILD
    if len(sys.argv) > 1 and sys.argv[1] == "--one":
        print("%.6f %.6f" % one(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sections", default="arrow,pandas,scan,dask,ranges")
    ap.add_argument("--column", default=None, help="the scan section's column (default: the file's first)")
    ap.add_argument("--build", default=BUILD, help="the CMake build holding bench/bench_read")
    a = ap.parse_args()
    BUILD = a.build
    sections = a.sections.split(",")
    for path in a.files:
        with open(path, "rb") as f:  # into the page cache
            while f.read(1 << 24):
                pass
        print(f"{path} ({os.path.getsize(path) / 1e6:.1f} MB)")
        with open(path, newline="") as f:
            column = a.column or next(csv.reader(f))[0]
        for threads in (1, 2):
            if "arrow" in sections:
                m = compare(path, ["simdsv", "c", "pyarrow", "polars", "duckdb"], a.repeat, threads, "into Arrow")
                target("Python / C reader", m["simdsv"], m["c"], "<= 1.05x")
                fastest = min(("pyarrow", "polars", "duckdb"), key=lambda lib: m[lib][0])
                target(f"fastest peer ({fastest}) / Python", m[fastest], m["simdsv"], ">= 2.5x")
            if "pandas" in sections:
                libs = ["simdsv-pandas", "pandas-pyarrow"] + (["pandas-c"] if threads == 1 else [])
                m = compare(path, libs, a.repeat, threads, "into pandas")
                target("pandas engine=pyarrow / to_pandas()", m["pandas-pyarrow"], m["simdsv-pandas"], ">= 3x")
            if "scan" in sections:
                m = compare(path, ["simdsv-scan", "polars-scan"], a.repeat, threads,
                            f"scan_csv(...).select({column!r}).collect()", column)
                target("polars.scan_csv / simdsv.scan_csv", m["polars-scan"], m["simdsv-scan"], ">= 2x")
        if "dask" in sections:
            dask_section(path, a.repeat)
        if "ranges" in sections:
            ranges_section(path, a.repeat)


if __name__ == "__main__":
    main()
