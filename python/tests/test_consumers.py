"""simdsv.read_csv against real consumers: pyarrow, polars, duckdb, pandas.

Values must equal pyarrow.csv.read_csv on the same files, with types
aligned: pyarrow parses each column with the type simdsv chose (so that a
type choice, e.g. "00501" kept as text, is not mistaken for a value
difference), with the same null rule (an empty unquoted field is null).
"""

from __future__ import annotations

import io
import json
import os
import pathlib
import subprocess

import duckdb
import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pyarrow.compute as pacompute
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

import simdsv

from conftest import CONFORMANCE, REAL, ROOT


def pyarrow_read(path, simdsv_schema, *, header, delimiter=",", quote='"'):
    try:
        return pyarrow_read_as(path, simdsv_schema, header=header, delimiter=delimiter, quote=quote)
    except pa.ArrowInvalid as e:
        if "expected a zone offset" not in str(e):
            raise
    # Timestamps without an offset: simdsv takes them as UTC; pyarrow parses them naive, then UTC is assumed.
    naive = pa.schema([pa.field(f.name, pa.timestamp(f.type.unit)) if pa.types.is_timestamp(f.type) else f
                       for f in simdsv_schema])
    table = pyarrow_read_as(path, naive, header=header, delimiter=delimiter, quote=quote)
    for i, f in enumerate(simdsv_schema):
        if pa.types.is_timestamp(f.type):
            table = table.set_column(i, f.name, pacompute.assume_timezone(table.column(i), "UTC"))
    return table


def unique_names(names):
    """simdsv's rule for a typed read's names: '' -> column_N, a repeat -> the first free _2, _3, ..."""
    given, taken, out = set(n for n in names if n), set(), []
    for i, name in enumerate(names):
        generated = not name
        base = f"column_{i + 1}" if generated else name
        if base in taken or (generated and base in given):
            k = 2
            while f"{base}_{k}" in given or f"{base}_{k}" in taken:
                k += 1
            base = f"{base}_{k}"
        taken.add(base)
        out.append(base)
    return out


def test_unique_names_rule() -> None:
    assert unique_names(["a", "b", "a", "", "a_2", "a"]) == ["a", "b", "a_3", "column_4", "a_2", "a_4"]
    t = simdsv.read_csv(b"a,b,a,,a_2,a\n1,2,3,4,5,6\n")
    assert t.column_names == unique_names(["a", "b", "a", "", "a_2", "a"])


def pyarrow_read_as(path, simdsv_schema, *, header, delimiter=",", quote='"'):
    parse = pacsv.ParseOptions(delimiter=delimiter, quote_char=quote if quote else False, newlines_in_values=True)
    read = pacsv.ReadOptions(autogenerate_column_names=not header, block_size=1 << 26)
    data = pathlib.Path(path).read_bytes()
    if data and data[-1:] not in (b"\n", b"\r"):
        data += b"\n"  # pyarrow cannot infer the columns of one line without a line end
    # The header's names as the file has them (simdsv makes them unique): each
    # name's type is ours when its columns agree on one, else pyarrow's, cast below.
    file_names = pacsv.open_csv(io.BytesIO(data), read_options=read, parse_options=parse).schema.names if header else []
    by_name = {}
    for name, f in zip(file_names, simdsv_schema):
        by_name.setdefault(name, set()).add(f.type)
    convert = pacsv.ConvertOptions(
        column_types={name: next(iter(types)) for name, types in by_name.items() if len(types) == 1}
        if header else {f"f{i}": f.type for i, f in enumerate(simdsv_schema)},
        null_values=[""],
        strings_can_be_null=True,
        quoted_strings_can_be_null=False,
        true_values=["true", "True", "TRUE"],
        false_values=["false", "False", "FALSE"],
    )
    table = pacsv.read_csv(io.BytesIO(data), read_options=read, parse_options=parse, convert_options=convert)
    if header:
        assert unique_names(table.schema.names) == simdsv_schema.names
    return table.rename_columns([f.name for f in simdsv_schema])


def assert_same(ours: pa.Table, theirs: pa.Table) -> None:
    assert ours.schema.names == theirs.schema.names
    for name in ours.schema.names:
        a = ours.column(name).combine_chunks()
        b = theirs.column(name).combine_chunks()
        if a.type != b.type:  # int32 vs int64 offsets: same values
            b = b.cast(a.type)
        assert a.equals(b), f"column {name}: {a.type} vs {b.type}"


def conformance_cases():
    cases = []
    for csv in sorted(CONFORMANCE.glob("*/*.csv")):
        expected = json.loads(csv.with_suffix(".json").read_text())
        dialect_file = csv.with_name(csv.stem + ".dialect.json")
        dialect = json.loads(dialect_file.read_text()) if dialect_file.exists() else {}
        if isinstance(expected, dict) or "comment" in dialect or "escape" in dialect:
            continue  # errors are checked in C; pyarrow has no comment lines, another escape rule
        widths = {len(r) for r in expected}
        if len(widths) != 1 or not expected:
            continue  # ragged or empty: pyarrow refuses ragged rows
        cases.append(pytest.param(csv, dialect, id=f"{csv.parent.name}/{csv.stem}"))
    return cases


CONFORMANCE_CASES = conformance_cases()


def test_conformance_cases_are_many():
    assert len(CONFORMANCE_CASES) >= 150


@pytest.mark.parametrize("path,dialect", CONFORMANCE_CASES)
def test_conformance_equals_pyarrow(path: pathlib.Path, dialect: dict) -> None:
    delimiter = dialect.get("delimiter", ",")
    quote = dialect.get("quote", '"')
    # The dialect is given: nothing is detected (sniff=False), as pyarrow reads it.
    ours = simdsv.read_csv(path, header=False, delimiter=delimiter, quote=quote, threads=1, sniff=False).to_arrow()
    expected = json.loads(path.with_suffix(".json").read_text())
    assert ours.num_rows == len(expected)
    # Every value read back as text equals the corpus' expectation.
    as_text = simdsv.read_csv(path, header=False, delimiter=delimiter, quote=quote, schema="*:string",
                              sniff=False).to_arrow()
    got = [[v if v is not None else "" for v in row.values()] for row in as_text.to_pylist()]
    assert got == expected
    try:
        theirs = pyarrow_read(path, ours.schema, header=False, delimiter=delimiter, quote=quote)
    except pa.ArrowInvalid as e:  # pyarrow's own limits (a lone CR in quotes, ...): ours matched the corpus
        pytest.skip(f"pyarrow cannot read it: {e}")
    assert_same(ours, theirs)


REAL_FILES = sorted(p for p in REAL.glob("*.[ct]sv")) if REAL.exists() else []


@pytest.mark.skipif(not REAL_FILES, reason=f"{REAL} is not there")
@pytest.mark.parametrize("path", REAL_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("threads", [1, 2])
def test_real_files_equal_pyarrow(path: pathlib.Path, threads: int) -> None:
    first_line = path.read_bytes()[:4096].split(b"\n")[0]
    delimiter = "\t" if path.suffix == ".tsv" else ";" if first_line.count(b";") > first_line.count(b",") else ","
    ours = simdsv.read_csv(path, delimiter=delimiter, threads=threads, sniff=False).to_arrow()
    theirs = pyarrow_read(path, ours.schema, header=True, delimiter=delimiter)
    assert ours.num_rows == theirs.num_rows > 1000
    assert_same(ours, theirs)


SAMPLE = b"id,name,score,day,when,ok\n1,ann,1.5,2024-02-29,2024-01-01T10:00:00+02:00,true\n2,,-0.25,,,false\n3,\"b, \"\"c\"\"\n d\",,2023-12-31,2024-01-01 08:00,\n"


def test_pyarrow_takes_it_without_a_copy() -> None:
    t = simdsv.read_csv(SAMPLE)
    first, second = pa.table(t), pa.table(t)  # consumed twice: both views of the same buffers
    assert first.equals(second)
    assert first.column("id").chunk(0).buffers()[1].address == second.column("id").chunk(0).buffers()[1].address
    assert first.schema.field("when").type == pa.timestamp("us", tz="UTC")
    assert first.column("name").to_pylist() == ["ann", None, 'b, "c"\n d']
    assert first.column("when").to_pylist()[0].isoformat() == "2024-01-01T08:00:00+00:00"
    assert pa.record_batch(t).num_rows == 3  # __arrow_c_array__
    assert pa.schema(t).names == ["id", "name", "score", "day", "when", "ok"]  # __arrow_c_schema__
    del t  # the views keep the data alive
    assert first.column("score").to_pylist() == [1.5, -0.25, None]


def test_polars_and_duckdb_take_it() -> None:
    t = simdsv.read_csv(SAMPLE)
    df = pl.DataFrame(t)
    assert df.schema["id"] == pl.Int64 and df.schema["day"] == pl.Date
    assert df["score"].to_list() == [1.5, -0.25, None]
    assert t.to_polars().equals(df)
    rows = duckdb.sql("SELECT id, name, ok FROM t ORDER BY id").fetchall()
    assert rows == [(1, "ann", True), (2, None, False), (3, 'b, "c"\n d', None)]
    assert duckdb.sql("SELECT sum(score) FROM t").fetchall() == [(1.25,)]


def test_pandas() -> None:
    df = simdsv.read_csv(SAMPLE).to_pandas()
    assert list(df["id"]) == [1, 2, 3]
    assert df["score"].isna().tolist() == [False, False, True]
    # Dates come as datetime64 (pandas' own readers give them so), not as Python date objects.
    assert str(df["day"].dtype).startswith("datetime64") and str(df["day"].iloc[0]) == "2024-02-29 00:00:00"


def test_pandas_columns_share_arrow_memory_and_copy_on_write() -> None:
    """to_pandas() hands pandas the Arrow buffers of the columns that need no conversion (no 2-D block copy); a
    write into the DataFrame, or into a frame taken from it after it is gone, copies that column: the table, and a
    second to_pandas(), keep the values read."""
    data = b"i,f,t,n,s\n1,1.5,2024-01-02 03:04:05,7,x\n2,2.5,2024-01-03 03:04:05,,y\n3,3.5,2024-01-04 03:04:05,9,z\n"
    t = simdsv.read_csv(data)
    arrow = t.to_arrow()
    df = t.to_pandas()
    assert [str(d) for d in df.dtypes] == ["int64", "float64", "datetime64[us]", "float64", "str"]
    for name in ("i", "f", "t"):
        assert np.shares_memory(df[name].to_numpy(), np.asarray(arrow[name].chunks[0].buffers()[1]))
    df.loc[0, "i"] = 10
    df.iloc[1, 1] = -1.0
    df.loc[2, "t"] = np.datetime64("2000-01-01T00:00:00", "us")
    df["f"] += 1
    df.fillna({"n": 0}, inplace=True)
    assert df["i"].tolist() == [10, 2, 3] and df["f"].tolist() == [2.5, 0.0, 4.5] and df["n"].tolist() == [7, 0, 9]
    assert str(df.loc[2, "t"]) == "2000-01-01 00:00:00"
    part = t.to_pandas()[["i", "f"]]  # the frame it came from is gone
    part.iloc[0, 0] = 100
    part.loc[2, "f"] = 0.0
    assert part["i"].tolist() == [100, 2, 3] and part["f"].tolist() == [1.5, 2.5, 0.0]
    again = t.to_pandas()
    assert again["i"].tolist() == [1, 2, 3] and again["f"].tolist() == [1.5, 2.5, 3.5]
    assert str(again.loc[2, "t"]) == "2024-01-04 03:04:05" and again["n"].isna().tolist() == [False, True, False]
    assert arrow["i"].to_pylist() == [1, 2, 3] and arrow["f"].to_pylist() == [1.5, 2.5, 3.5]
    # the arrays stay read-only: what pandas 3 hands out as views of shared data
    with pytest.raises(ValueError, match="read-only"):
        again["i"].to_numpy()[0] = 5


def test_options_and_projection() -> None:
    data = b"a;b;c\n1;NA;x\n2;3;y\n"
    t = simdsv.read_csv(data, delimiter=";", null_values=["NA"], columns=["c", "a"], schema={"a": "float64"})
    assert t.column_names == ["c", "a"] and t.types == {"c": "string", "a": "float64"}
    assert t.to_arrow().to_pydict() == {"c": ["x", "y"], "a": [1.0, 2.0]}
    t = simdsv.read_csv(data, delimiter=";", header=False, names=["x", "y", "z"], schema=pa.schema([("y", pa.string())]))
    assert t.column_names == ["x", "y", "z"] and t.num_rows == 3 and t.types["y"] == "string"


def test_duplicate_and_empty_names(tmp_path: pathlib.Path) -> None:
    # a, b, a_3, column_4, a_2 (the file's own), a_4: unique in every typed output (issue #21)
    data = b"a,b,a,,a_2,a\n1,x,2.5,true,5,6\n3,y,4,false,7,8\n"
    t = simdsv.read_csv(data)
    assert t.column_names == ["a", "b", "a_3", "column_4", "a_2", "a_4"]
    assert t.to_polars().columns == t.column_names
    assert t.to_polars()["a_3"].to_list() == [2.5, 4.0]
    assert list(t.to_pandas().columns) == t.column_names
    t = simdsv.read_csv(data, columns=["a_3", "a"], schema={"a_3": "string"})
    assert t.to_arrow().to_pydict() == {"a_3": ["2.5", "4"], "a": [1, 3]}


def test_parquet_of_duplicate_names(tmp_path: pathlib.Path) -> None:
    # the CLI's Parquet of a,b,a: pyarrow and polars read it (they refused it with two `a`)
    cli = pathlib.Path(os.environ.get("SIMDSV_CLI", ROOT / "build" / "simdsv"))
    if not cli.is_file():
        pytest.skip(f"no simdsv command at {cli} (make build, or SIMDSV_CLI=PATH)")
    src = tmp_path / "dup.csv"
    src.write_bytes(b"a,b,a\n1,x,2.5\n3,y,4\n")
    out = tmp_path / "dup.parquet"
    subprocess.run([str(cli), "convert", str(src), "-o", str(out)], check=True)
    expected = {"a": [1, 3], "b": ["x", "y"], "a_2": [2.5, 4.0]}
    assert pq.read_table(out).to_pydict() == expected
    assert pl.read_parquet(out).to_dict(as_series=False) == expected


def test_parquet_of_late_misfits(tmp_path: pathlib.Path) -> None:
    # values past the sample that do not fit their inferred types (issue #21): the CLI reads
    # the file again with the columns widened, so its Parquet and Arrow IPC files hold what
    # one read gives, types and values
    cli = pathlib.Path(os.environ.get("SIMDSV_CLI", ROOT / "build" / "simdsv"))
    if not cli.is_file():
        pytest.skip(f"no simdsv command at {cli} (make build, or SIMDSV_CLI=PATH)")
    lines = ["id,n,x,day"]
    for i in range(60000):
        n = "99999999999999999999" if i == 50000 else str(i)  # past int64: string
        x = "1e-3" if i == 40000 else str(i % 7)  # a float: float64
        day = "someday" if i == 55000 else f"2024-01-{1 + i % 28:02d}"  # not a date: string
        lines.append(f"{i},{n},{x},{day}")
    src = tmp_path / "late.csv"
    src.write_text("\n".join(lines) + "\n")
    single = simdsv.read_csv(src, threads=1, infer_rows=1000).to_arrow()
    assert [str(t) for t in single.schema.types] == ["int64", "string", "double", "string"]
    for fmt, read in (("parquet", pq.read_table), ("arrow", lambda p: pa.ipc.open_file(p).read_all())):
        out = tmp_path / f"late.{fmt}"
        subprocess.run([str(cli), "convert", "--infer-rows", "1000", str(src), "-o", str(out)], check=True)
        assert read(out).equals(single), fmt
    # from a pipe the file cannot be read again: the error says where, and how to avoid it
    with open(src, "rb") as stdin:
        run = subprocess.run([str(cli), "convert", "--infer-rows", "1000", "--to", "parquet", "-"],
                             stdin=stdin, capture_output=True, text=True)
    assert run.returncode == 1
    assert "line 40002, column " in run.stderr and "--schema 'x:float64'" in run.stderr
    assert "--infer-rows all" in run.stderr


def test_file_objects_and_paths(tmp_path: pathlib.Path) -> None:
    p = tmp_path / "f.csv"
    p.write_bytes(SAMPLE)
    for src in (p, str(p), open(p, "rb"), SAMPLE, bytearray(SAMPLE), memoryview(SAMPLE)):
        assert simdsv.read_csv(src).num_rows == 3
    assert simdsv.count(p) == 3
    with pytest.raises(FileNotFoundError):
        simdsv.read_csv(tmp_path / "missing.csv")


def test_errors_carry_positions() -> None:
    # The quote given: detected, '"' would not be the quote of this file (the CLI reads it with --no-quote).
    with pytest.raises(simdsv.Error) as e:
        simdsv.read_csv(b'a,b\n1,2\n3,x"y\n', quote='"')
    assert (e.value.line, e.value.column, e.value.byte_offset) == (3, 4, 11)
    assert e.value.code == "SIMDSV_ERR_QUOTE_IN_UNQUOTED_FIELD"
    assert isinstance(e.value, ValueError)
    with pytest.raises(simdsv.Error) as e:  # (an open quote at the end: detected, no quote reads it all)
        simdsv.read_csv(b'a,b\n1,2\n3,"open\n', threads=1, quote='"')
    assert e.value.code == "SIMDSV_ERR_UNTERMINATED_QUOTE" and e.value.line == 3


def test_stream_in_batches() -> None:
    data = b"n,s\n" + b"".join(b"%d,\"v\n%d\"\n" % (i, i) for i in range(1000))
    with simdsv.open_csv(data, batch_rows=128) as stream:
        batches = list(stream)
    assert [b.num_rows for b in batches] == [128] * 7 + [104]
    assert pa.Table.from_batches(batches).column("n").to_pylist() == list(range(1000))
    reader = pa.RecordBatchReader.from_stream(simdsv.open_csv(data, batch_rows=300))
    assert reader.read_all().num_rows == 1000
    assert pl.DataFrame(simdsv.open_csv(data)).height == 1000
    # A value outside the sampled rows (start, middle and end windows of
    # infer_rows in all) that does not fit the type they fixed:
    bad = b"n\n" + b"1\n" * 3 + b"x\n" + b"1\n" * 26
    with pytest.raises(simdsv.Error) as e:
        list(simdsv.open_csv(bad, infer_rows=5, batch_rows=4))
    assert e.value.line == 5 and e.value.column == 1


def test_records_and_count() -> None:
    it = simdsv.records(b'a,b\n1,"x ""y"""\n\n2,\xc3\xa9\n')
    assert it.header == ["a", "b"]
    assert list(it) == [["1", 'x "y"'], ["2", "é"]]
    assert simdsv.count(b'a\n"1\n2"\n3\n') == 2
    assert simdsv.count(b"a\n1\n", header=False) == 2


def test_cli(tmp_path: pathlib.Path) -> None:
    import subprocess
    import sys

    p = tmp_path / "f.csv"
    p.write_bytes(SAMPLE)
    out = subprocess.run([sys.executable, "-m", "simdsv", str(p), "--head", "0"], capture_output=True, text=True)
    assert out.returncode == 0 and "3 rows, 6 columns" in out.stdout and "when: timestamp" in out.stdout
    out = subprocess.run([sys.executable, "-m", "simdsv", str(p), "--count"], capture_output=True, text=True)
    assert out.stdout.strip() == "3"
    p.write_bytes(b'a\n"x\n')
    out = subprocess.run([sys.executable, "-m", "simdsv", str(p)], capture_output=True, text=True)
    assert out.returncode == 1 and ":2:1:" in out.stderr
