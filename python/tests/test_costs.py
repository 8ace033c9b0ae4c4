"""What the package costs around the C reader: nothing a caller did not ask for."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import simdsv


def test_to_arrow_leaves_pandas_unimported() -> None:
    # pyarrow.table(obj) checks for a pandas DataFrame first and so imports
    # pandas (0.3-0.7 s: more than reading a 200 MB file on one thread).
    code = (
        "import sys, simdsv\n"
        "t = simdsv.read_csv(b'a,b\\n1,x\\n2,y\\n').to_arrow()\n"
        "assert t.to_pydict() == {'a': [1, 2], 'b': ['x', 'y']}, t.to_pydict()\n"
        "print('pandas' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="the maps are read from Linux's /proc")
def test_a_path_is_mapped_unless_use_mmap_false(tmp_path) -> None:
    # read() into a fresh buffer as large as the file cost more than the typed read itself (issue #23: Python at
    # 5x the C reader, which maps): a path is mapped while its reader is open, and unmapped after.
    path = tmp_path / "mapped.csv"
    path.write_bytes(b"a,b\n" + b"1,x\n" * 1000)

    def mapped() -> bool:
        with open("/proc/self/maps") as maps:
            return str(path) in maps.read()

    for source in (str(path), path):
        with simdsv.open_csv(source) as stream:
            assert mapped()
            assert stream.read_all().num_rows == 1000
    assert not mapped()
    with simdsv.open_csv(path, use_mmap=False) as stream:
        assert not mapped()
        assert stream.read_all().num_rows == 1000
    with simdsv.open_csv(path, memory_map=False):
        assert not mapped()


def test_scan_csv_leaves_pyarrow_unimported() -> None:
    # A polars user pays no pyarrow import (0.3-0.5 s, more than a one-column scan of 200 MB): the schema and the
    # batches go to polars through the PyCapsule interface.  Narrower types are cast by pyarrow, when asked for.
    code = (
        "import sys, polars as pl, simdsv\n"
        "lf = simdsv.scan_csv(b'a,b,t\\n1,x,2024-01-02 03:04:05\\n2,y,2024-01-03 00:00:00\\n')\n"
        "out = lf.filter(pl.col('a') > 1).select('b', 't').collect()\n"
        "assert out.to_dict(as_series=False) == {'b': ['y'], 't': [__import__('datetime').datetime(2024, 1, 3)]}\n"
        "print('pyarrow' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
