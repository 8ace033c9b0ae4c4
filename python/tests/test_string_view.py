"""string_view=True: string columns as Arrow string views (SIMDSV_OPT_STRINGS).

Every consumer (pyarrow, Polars, pandas with each dtype backend, DuckDB,
Dask, the stream of batches, narrower types) reads the same values as from
the utf8 read; long strings of a file point into the input, which the
arrays keep alive after the table and the reader are gone.
"""

from __future__ import annotations

import gc

import pyarrow as pa
import pytest

import simdsv

CSV = (
    "short,long,note\n"
    'abc,"a long plain string of 40 bytes......",x\n'
    ',"","he said ""hello there, friend"""\n'
    '"twelve bytes","thirteen byte","café crème brûlée"\n'
    '"q""",unquoted long text here,""\n'
)
EXPECTED = {
    "short": ["abc", None, "twelve bytes", 'q"'],
    "long": ["a long plain string of 40 bytes......", "", "thirteen byte", "unquoted long text here"],
    "note": ["x", 'he said "hello there, friend"', "café crème brûlée", ""],
}


@pytest.fixture
def csv_path(tmp_path):
    path = tmp_path / "views.csv"
    path.write_text(CSV, encoding="utf-8")
    return str(path)


def _mixed(rows: int) -> str:
    kinds = ["", '""', "s{k}", "twelve-{k:05d}", "thirteen-{k:04d}", "a longer plain text number {k} unquoted",
             '"quoted, with a comma and {k} more"', '"say ""{k}"""', '"a long one with ""quotes"" inside {k}"',
             "日本語 {k} été", '"two\nlines {k} long enough"']
    lines = ["a,b,c"]
    for r in range(rows):
        lines.append(",".join(kinds[(r * 7 + j * 3) % len(kinds)].format(k=r % 50) for j in range(3)))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("use_mmap", [True, False])
def test_exact_values(csv_path, use_mmap):
    table = simdsv.read_csv(csv_path, string_view=True, use_mmap=use_mmap, schema="*:string").to_arrow()
    assert [f.type for f in table.schema] == [pa.string_view()] * 3
    table.validate(full=True)
    assert table.to_pydict() == EXPECTED


def test_buffer_input(csv_path):
    # a caller's buffer cannot be kept alive by the library: the long strings are copied
    table = simdsv.read_csv(CSV.encode(), string_view=True, schema="*:string").to_arrow()
    assert table.to_pydict() == EXPECTED


def test_input_outlives_the_table(csv_path):
    arrow = simdsv.read_csv(csv_path, string_view=True, schema="*:string").to_arrow()
    gc.collect()  # the simdsv.Table and its reader are gone: the arrays hold the input
    assert arrow.column("long").to_pylist() == EXPECTED["long"]


def test_default_is_utf8(csv_path):
    assert simdsv.read_csv(csv_path, schema="*:string").to_arrow().schema.types == [pa.string()] * 3
    assert simdsv.read_csv(csv_path, string_view=False, schema="*:string").to_arrow().schema.types == [pa.string()] * 3


@pytest.mark.parametrize("threads", [1, 4])
def test_consumers_equal_utf8(tmp_path, threads):
    import duckdb
    import polars

    path = tmp_path / "mixed.csv"
    path.write_text(_mixed(60000), encoding="utf-8")
    utf8 = simdsv.read_csv(str(path), threads=threads)
    views = simdsv.read_csv(str(path), threads=threads, string_view=True)
    a, b = utf8.to_arrow(), views.to_arrow()
    assert b.schema.types == [pa.string_view()] * 3
    b.validate(full=True)
    assert a.equals(b.cast(a.schema))
    assert utf8.to_polars().equals(views.to_polars())
    assert views.to_polars().schema == polars.Schema({"a": polars.String, "b": polars.String, "c": polars.String})
    for backend in (None, "numpy_nullable", "pyarrow"):
        left = utf8.to_pandas(dtype_backend=backend)
        right = views.to_pandas(dtype_backend=backend)
        assert left.astype(str).equals(right.astype(str))
        assert left.isna().equals(right.isna())
    query = "select count(*), count(a), sum(length(b)), min(c), max(c) from t"
    t = utf8  # noqa: F841 (DuckDB finds it by name)
    left = duckdb.sql(query).fetchall()
    t = views  # noqa: F841
    assert duckdb.sql(query).fetchall() == left


def test_narrower_types_and_stream(tmp_path):
    path = tmp_path / "mixed.csv"
    path.write_text(_mixed(3000), encoding="utf-8")
    utf8 = simdsv.read_csv(str(path), dtype={"a": "category"}).to_arrow()
    views = simdsv.read_csv(str(path), dtype={"a": "category"}, string_view=True).to_arrow()
    assert views.schema.field("a").type == utf8.schema.field("a").type
    assert views.column("a").to_pylist() == utf8.column("a").to_pylist()
    with simdsv.open_csv(str(path), string_view=True, batch_rows=700) as stream:
        batches = list(stream)
    assert batches[0].schema.types == [pa.string_view()] * 3
    assert pa.Table.from_batches(batches).to_pydict() == utf8.cast(
        pa.schema([("a", pa.string()), ("b", pa.string()), ("c", pa.string())])).to_pydict()


def test_dask(tmp_path):
    import simdsv.dask

    path = tmp_path / "mixed.csv"
    path.write_text(_mixed(20000), encoding="utf-8")
    left = simdsv.dask.read_csv(str(path), blocksize=64 << 10).compute()
    right = simdsv.dask.read_csv(str(path), blocksize=64 << 10, string_view=True).compute()
    assert left.astype(str).equals(right.astype(str))
