"""python -m simdsv FILE: the columns, their types and why, the row count, the first rows."""

from __future__ import annotations

import argparse
import sys
import time

from . import Error, count, read_csv


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m simdsv", description="Read a CSV file with simdsv and describe it.")
    p.add_argument("file")
    p.add_argument("--delimiter", default=",")
    p.add_argument("--no-header", action="store_true", help="the first row is data")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--head", type=int, default=5, help="rows to show (needs pyarrow)")
    p.add_argument("--count", action="store_true", help="only count the rows")
    a = p.parse_args(argv)
    try:
        if a.count:
            print(count(a.file, delimiter=a.delimiter, header=not a.no_header, threads=a.threads))
            return 0
        start = time.perf_counter()
        table = read_csv(a.file, delimiter=a.delimiter, header=not a.no_header, threads=a.threads)
        seconds = time.perf_counter() - start
    except Error as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{a.file}: {table.num_rows} rows, {len(table.column_names)} columns, read in {seconds:.3f} s")
    for name, typ in table.types.items():
        print(f"  {name}: {typ}  ({table.reasons[name]})" if table.reasons[name] else f"  {name}: {typ}")
    if a.head > 0:
        try:
            print(table.to_arrow().slice(0, a.head).to_pandas().to_string())
        except ImportError:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
