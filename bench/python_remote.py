#!/usr/bin/env python3
"""bench/python_remote.py — one CSV file cut into N files, read as one table locally, through S3 and through HTTP.

The servers are the tests' (python/tests/remote_servers.py: versitygw and nginx, started on free ports over a
temporary folder and stopped after; tests/remote/install.sh builds them).  The file is cut at line ends (a file
without quoted line breaks: taxi_200.csv), every part with the header.  Prints whether each read equals the local
one and the single read of the whole file, and the median seconds of each, interleaved round by round.

    build-py/venv/bin/python bench/python_remote.py FILE [--files 20] [--repeat 3]
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python" / "tests"))

import remote_servers  # noqa: E402

import simdsv  # noqa: E402


def cut(data: bytes, files: int, folder: pathlib.Path) -> None:
    header, body = data.split(b"\n", 1)
    bounds = [0] + [body.index(b"\n", len(body) * k // files) + 1 for k in range(1, files)] + [len(body)]
    for k in range(files):
        (folder / f"part-{k:03d}.csv").write_bytes(header + b"\n" + body[bounds[k]:bounds[k + 1]])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("file")
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    data = pathlib.Path(args.file).read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        local = work / "local"
        local.mkdir()
        cut(data, args.files, local)
        for sub in ("s3", "http"):
            (work / sub).mkdir()
        s3, http = remote_servers.start_s3(work / "s3"), remote_servers.start_http(work / "http")
        try:
            fs = s3.filesystem()
            fs.call_s3("create_bucket", Bucket="bench")
            fs.put(str(local) + "/", "bench/data/", recursive=True)
            shutil.copytree(local, http.root / "data")
            cases = {"local": (str(local), {}),
                     "s3": ("s3://bench/data/", {"storage_options": s3.storage_options}),
                     "http": (http.url + "/data/part-*.csv", {})}
            whole = simdsv.read_csv(args.file).to_arrow()
            for threads in (1, 2):
                times: dict[str, list[float]] = {name: [] for name in cases}
                equal = {}
                for _ in range(args.repeat):
                    for name, (url, keywords) in cases.items():
                        start = time.perf_counter()
                        table = simdsv.read_csv(url, threads=threads, **keywords).to_arrow()
                        times[name].append(time.perf_counter() - start)
                        equal[name] = table.equals(whole)
                for name, seconds in times.items():
                    median = statistics.median(seconds)
                    print(f"{name:5s} threads={threads} files={args.files} equal_to_single_read={equal[name]} "
                          f"median={median:.2f}s ({len(data) / median / 1e6:.0f} MB/s)", flush=True)
        finally:
            remote_servers.stop(s3)
            remote_servers.stop(http)


if __name__ == "__main__":
    main()
