"""Issue #23's defects, one test each: every one failed before the fix."""

from __future__ import annotations

import datetime
import decimal
import inspect
import io
import subprocess
import sys

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import simdsv

TITANIC = b"Name,Age,Embarked,Fare\nAnn,22,S,7.25\nBob,38,C,71.2833\nCid,,Q,8.05\n"


def test_header_0_is_pandas_row_0() -> None:
    t = simdsv.read_csv(TITANIC, header=0)
    assert t.column_names == ["Name", "Age", "Embarked", "Fare"] and t.num_rows == 3
    assert t.types == {"Name": "string", "Age": "int64", "Embarked": "string", "Fare": "float64"}
    # header=1: row 1 is the header (row 0 is dropped), as in pandas
    t = simdsv.read_csv(b"title line\n" + TITANIC, header=1)
    assert t.column_names == ["Name", "Age", "Embarked", "Fare"] and t.num_rows == 3
    t = simdsv.read_csv(TITANIC, header=None)
    assert t.column_names == ["column_1", "column_2", "column_3", "column_4"] and t.num_rows == 4
    assert simdsv.read_csv(TITANIC, header=True).num_rows == simdsv.read_csv(TITANIC, header=False).num_rows - 1


def test_names_replace_the_header() -> None:
    t = simdsv.read_csv(TITANIC, names=["n", "a", "e", "f"], header=0)
    assert t.to_arrow().to_pydict() == {"n": ["Ann", "Bob", "Cid"], "a": [22, 38, None], "e": ["S", "C", "Q"],
                                        "f": [7.25, 71.2833, 8.05]}
    # pandas' header='infer' (the default) with names: the first row is data
    t = simdsv.read_csv(TITANIC, names=["n", "a", "e", "f"])
    assert t.num_rows == 4 and t.to_arrow().column("n")[0].as_py() == "Name"
    assert pd.read_csv(io.BytesIO(TITANIC), names=["n", "a", "e", "f"]).shape[0] == 4


def test_a_string_is_one_column() -> None:
    assert simdsv.read_csv(TITANIC, columns="Name").to_arrow().to_pydict() == {"Name": ["Ann", "Bob", "Cid"]}
    assert simdsv.read_csv(TITANIC, usecols="Fare").column_names == ["Fare"]


def test_null_values_per_column_lists() -> None:
    t = simdsv.read_csv(TITANIC, null_values={"Embarked": ["S", "C"]})
    assert t.to_arrow().column("Embarked").to_pylist() == [None, None, "Q"]
    t = simdsv.read_csv(TITANIC, na_values={"Embarked": "Q", "Name": ["Bob"]})
    assert t.to_arrow().column("Embarked").to_pylist() == ["S", "C", None]
    assert t.to_arrow().column("Name").to_pylist() == ["Ann", None, "Cid"]


@pytest.mark.parametrize("given, expected", [
    (int, pa.int64()), (float, pa.float64()), ("float32", pa.float32()), ("Int64", pa.int64()),
    (pl.Int64, pa.int64()), (pl.Int16(), pa.int16()), (np.int32, pa.int32()), (np.dtype("uint8"), pa.uint8()),
    (pa.int32(), pa.int32()), (pa.float32(), pa.float32()), ("int8", pa.int8()), ("uint64", pa.uint64()),
    ("int16[pyarrow]", pa.int16()), (pd.Int32Dtype(), pa.int32()), (pd.ArrowDtype(pa.uint16()), pa.uint16()),
    (pl.Float32, pa.float32()), ("str", pa.string()),
])
def test_types_as_users_write_them(given, expected) -> None:
    t = simdsv.read_csv(TITANIC, schema={"Age": given})
    column = t.to_arrow().column("Age")
    assert column.type == expected
    assert column.to_pylist() == (["22", "38", None] if expected == pa.string() else [22, 38, None])


def test_narrow_types_read_exactly() -> None:
    # float32 from the text (correctly rounded), not float64 rounded again: the value lies 1e-26 above the
    # midpoint 1 + 2**-24 of two float32 values; float64 rounds it onto the midpoint, which then rounds to even (1).
    data = b"x\n1.00000005960464477539062501\n0.1\n"
    got = simdsv.read_csv(data, dtype={"x": pa.float32()}).to_arrow().column("x")
    assert got.type == pa.float32()
    assert got.to_pylist() == pa.array(["1.00000005960464477539062501", "0.1"]).cast(pa.float32()).to_pylist()
    assert got[0].as_py() == np.nextafter(np.float32(1), np.float32(2))
    assert np.float32(np.float64("1.00000005960464477539062501")) == 1  # what a read through float64 gives
    t = simdsv.read_csv(TITANIC, dtype={"Fare": "decimal128(10, 4)", "Embarked": "category"})
    assert t.to_arrow().column("Fare").to_pylist() == [decimal.Decimal("7.2500"), decimal.Decimal("71.2833"),
                                                       decimal.Decimal("8.0500")]
    assert t.to_arrow().column("Embarked").type == pa.dictionary(pa.int32(), pa.string())
    assert t.types["Fare"] == "decimal128(10,4)" and t.types["Embarked"] == "dictionary"
    assert str(t.to_pandas()["Embarked"].dtype) == "category"
    times = simdsv.read_csv(b"t\n12:34:56\n01:02:03.25\n07:08\n", dtype={"t": datetime.time}, sep=",")
    assert times.to_arrow().column("t").to_pylist() == [datetime.time(12, 34, 56), datetime.time(1, 2, 3, 250000),
                                                        datetime.time(7, 8)]
    stamps = b"t\n2024-03-01 10:00:00\n2024-03-01T11:30:00+01:00\n"
    zoned = simdsv.read_csv(stamps, dtype={"t": pa.timestamp("ms", "Europe/Paris")}, sep=",").to_arrow().column("t")
    assert zoned.type == pa.timestamp("ms", "Europe/Paris")
    assert [v.isoformat() for v in zoned.to_pylist()] == ["2024-03-01T11:00:00+01:00", "2024-03-01T11:30:00+01:00"]
    ns = simdsv.read_csv(stamps, dtype={"t": "datetime64[ns]"}, sep=",").to_arrow().column("t")
    assert ns.type == pa.timestamp("ns")


def test_narrow_types_refuse_what_does_not_fit() -> None:
    with pytest.raises(simdsv.Error) as e:
        simdsv.read_csv(b"a\n1\n300\n", dtype={"a": "int8"})
    assert e.value.code == "SIMDSV_ERR_VALUE" and "300" in str(e.value) and "int8" in str(e.value)
    assert e.value.record == 2
    with pytest.raises(simdsv.Error) as e:
        simdsv.read_csv(b"a\nx\n", dtype={"a": "int8"})
    assert "of type int8" in str(e.value) and e.value.line == 2
    with pytest.raises(simdsv.Error, match="decimal128"):
        simdsv.read_csv(b"a\n1.2345\n", dtype={"a": pa.decimal128(5, 2)})  # would lose digits
    with pytest.raises(ValueError, match="known: bool, int8"):
        simdsv.read_csv(TITANIC, dtype={"Age": "complex128"})


def test_option_errors_name_the_option() -> None:
    with pytest.raises(ValueError, match="long_rows must be one of 'error', 'truncate', got 'pad'"):
        simdsv.read_csv(TITANIC, long_rows="pad")
    with pytest.raises(ValueError, match="infer_rows must be an integer of at least 1, or None for every row"):
        simdsv.read_csv(TITANIC, infer_rows=0)
    with pytest.raises(TypeError, match=r"read_csv\(\) got an unexpected keyword argument 'seperator'; "
                                        r"did you mean 'separator'\?"):
        simdsv.read_csv(TITANIC, seperator=";")
    with pytest.raises(TypeError, match="'sep' and 'delimiter', which mean the same option"):
        simdsv.read_csv(TITANIC, sep=";", delimiter=";")
    with pytest.raises(ValueError, match="unknown type 'decimal'"):
        simdsv.read_csv(TITANIC, schema="Age:decimal")  # the C text form: the library's own message


def test_sep_is_accepted() -> None:
    t = simdsv.read_csv(TITANIC.replace(b",", b";"), sep=";")
    assert t.column_names == ["Name", "Age", "Embarked", "Fare"]
    assert simdsv.count(TITANIC.replace(b",", b"||"), sep="||") == 3


def test_open_csv_errors_as_read_csv() -> None:
    bad = b"a,b\n1,2\n3,x\"y\n"
    with pytest.raises(simdsv.Error) as single:
        simdsv.read_csv(bad, quote='"')
    with pytest.raises(simdsv.Error) as streamed:
        list(simdsv.open_csv(bad, quote='"'))
    assert str(streamed.value) == str(single.value)
    assert str(single.value).startswith("<buffer>:3:4: quote inside an unquoted field") and "(byte 11)" in str(
        single.value)
    for name in ("code", "line", "column", "byte_offset", "record", "field", "reason"):
        assert getattr(streamed.value, name) == getattr(single.value, name), name
    assert (streamed.value.record, streamed.value.field) == (2, 1)


def test_file_not_found_shows_a_str_path(tmp_path) -> None:
    missing = tmp_path / "missing.csv"
    for call in (simdsv.read_csv, simdsv.open_csv, simdsv.count):
        with pytest.raises(FileNotFoundError) as e:
            call(missing)
        assert e.value.filename == str(missing) and f"'{missing}'" in str(e.value)


class CountingReader(io.RawIOBase):
    """A file object that serves n rows of CSV as read(), generated as asked: never whole in memory."""

    def __init__(self, rows: int) -> None:
        self.rows, self.next_row, self.pending, self.served = rows, 0, b"n,s\n", 0

    def readable(self) -> bool:
        return True

    def read(self, size: int = -1) -> bytes:
        if len(self.pending) < size and self.next_row < self.rows:
            more = min(self.rows - self.next_row, size // 40 + 1)
            rows = range(self.next_row, self.next_row + more)
            self.pending += b"".join(b"%d,%s\n" % (i, b"x" * 40) for i in rows)
            self.next_row += more
        out, self.pending = self.pending[:size], self.pending[size:]
        self.served += len(out)
        return out


def test_open_csv_file_object_streams() -> None:
    source = CountingReader(400_000)  # about 19 MB
    stream = simdsv.open_csv(source, batch_rows=10_000)
    first = next(iter(stream))
    assert first.num_rows == 10_000 and first.column("n")[0].as_py() == 0
    assert source.served < 12 << 20  # the schema's 8 MiB window and a buffer, not the whole file
    assert sum(b.num_rows for b in stream) == 400_000 - 10_000
    text = simdsv.open_csv(io.StringIO("a,b\n1,\u00e9\n2,x\n")).read_all()
    assert text.to_pydict() == {"a": [1, 2], "b": ["\u00e9", "x"]}


def _peak_rss_kib(rows: int) -> int:
    """Peak RSS of a process that streams rows of CountingReader through open_csv."""
    script = (
        "import io, resource, simdsv\n" + inspect.getsource(CountingReader) +
        f"total = sum(b.num_rows for b in simdsv.open_csv(CountingReader({rows}), batch_rows=65536))\n"
        f"assert total == {rows}, total\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return int(out.stdout)


def test_open_csv_file_object_bounded_memory() -> None:
    """The file object is never read whole: 5x the data (47 MB -> 235 MB) costs next to no memory more."""
    small, large = _peak_rss_kib(1_000_000), _peak_rss_kib(5_000_000)
    assert large - small < 40 * 1024, (small, large)


def test_file_object_errors_propagate() -> None:
    class Broken(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def read(self, size: int = -1) -> bytes:
            raise PermissionError("no access")

    with pytest.raises(PermissionError, match="no access"):
        simdsv.open_csv(Broken())


def test_dates_as_datetime64_in_pandas() -> None:
    df = simdsv.read_csv(b"d,t\n2024-01-02,2024-01-02 03:04:05\n").to_pandas()
    assert str(df["d"].dtype).startswith("datetime64") and df["d"].iloc[0] == pd.Timestamp("2024-01-02")
    assert str(df["t"].dtype).startswith("datetime64")


def test_nrows_zero_gives_the_columns() -> None:
    t = simdsv.read_csv(TITANIC, nrows=0)
    assert t.num_rows == 0 and t.column_names == ["Name", "Age", "Embarked", "Fare"]
    assert pd.read_csv(io.BytesIO(TITANIC), nrows=0).columns.tolist() == t.column_names


def test_file_objects_are_detected_as_paths_are() -> None:
    """A file object streamed by open_csv / records / count: detection on its first bytes (read again), gzip."""
    import gzip

    semicolons = TITANIC.replace(b",", b";")
    for data in (semicolons, gzip.compress(semicolons)):
        assert simdsv.open_csv(io.BytesIO(data)).read_all().to_pydict() == simdsv.read_csv(semicolons).to_arrow() \
            .to_pydict()
        assert simdsv.count(io.BytesIO(data)) == 3
        assert simdsv.records(io.BytesIO(data)).header == ["Name", "Age", "Embarked", "Fare"]


def test_pandas_and_polars_parameters_map_onto_the_options(tmp_path) -> None:
    """Build 1: each pandas / polars name means its simdsv option."""
    import csv
    import gzip

    rows = b"n;x;d\n1;1.234,5;31/12/2024\n2;2,5;01/02/2025\n"
    t = simdsv.read_csv(rows, sep=";", decimal=",", thousands=".", date_format="%d/%m/%Y", sniff=False)
    assert t.to_arrow().to_pydict() == {"n": [1, 2], "x": [1234.5, 2.5],
                                        "d": [datetime.date(2024, 12, 31), datetime.date(2025, 2, 1)]}
    t = simdsv.read_csv(b"a,b\n#note\n1,x\n", comment="#", sniff=False)
    assert t.to_arrow().to_pydict() == {"a": [1], "b": ["x"]}
    t = simdsv.read_csv(b"a,b\n1,'x,y'\n", quotechar="'", sniff=False)
    assert t.to_arrow().column("b").to_pylist() == ["x,y"]
    t = simdsv.read_csv(b'a,b\n1,"x\n', quoting=csv.QUOTE_NONE, sniff=False)
    assert t.to_arrow().column("b").to_pylist() == ['"x']
    t = simdsv.read_csv(b'a\n"x\\"y"\n', escapechar="\\", sniff=False)
    assert t.to_arrow().column("a").to_pylist() == ['x"y']
    assert simdsv.read_csv(b"junk\na\n1\n", skiprows=1).column_names == ["a"]
    assert simdsv.read_csv(b"a,b\n1,2,3\n", truncate_ragged_lines=True).to_arrow().to_pydict() == {"a": [1], "b": [2]}
    assert simdsv.read_csv(b"a\n1\n2\n", n_rows=1, infer_schema_length=None).num_rows == 1
    path = tmp_path / "t.csv.gz"
    path.write_bytes(gzip.compress(TITANIC))
    assert simdsv.read_csv(path, compression="infer").num_rows == 3
    assert simdsv.read_csv(path, compression="gzip", memory_map=False).num_rows == 3
    latin = "nom\n\u00e9t\u00e9\n".encode("latin-1")
    assert simdsv.read_csv(latin, encoding="latin-1").to_arrow().column("nom").to_pylist() == ["\u00e9t\u00e9"]
    t = simdsv.read_csv(TITANIC, parse_dates=["Name"], on_error="null")
    assert t.types["Name"] == "timestamp" and t.to_arrow().column("Name").null_count == 3
    assert simdsv.read_csv(TITANIC, low_memory=False, engine="pyarrow").num_rows == 3
    with pytest.raises(TypeError, match="'index_col'"):
        simdsv.read_csv(TITANIC, index_col=0)


def test_naive_timestamps_stay_naive() -> None:
    """Text without an offset is a wall-clock timestamp (Arrow timestamp[us] without a zone, as DuckDB, Polars and
    pyarrow read it); a column with offsets holds UTC instants."""
    naive = simdsv.read_csv(b"t\n2024-01-02 03:04:05\n2024-01-03T00:00:00\n", sep=",").to_arrow().column("t")
    assert naive.type == pa.timestamp("us")
    assert naive.to_pylist() == [datetime.datetime(2024, 1, 2, 3, 4, 5), datetime.datetime(2024, 1, 3)]
    df = simdsv.read_csv(b"t\n2024-01-02 03:04:05\n", sep=",").to_pandas()
    assert str(df["t"].dtype) == "datetime64[us]" and (df["t"] < pd.Timestamp("2025-01-01")).all()
    zoned = simdsv.read_csv(b"t\n2024-01-02T03:04:05+01:00\n2024-01-02 03:04:05Z\n", sep=",").to_arrow().column("t")
    assert zoned.type == pa.timestamp("us", "UTC")
    assert [v.isoformat() for v in zoned.to_pylist()] == ["2024-01-02T02:04:05+00:00", "2024-01-02T03:04:05+00:00"]
    streamed = simdsv.open_csv(b"t\n2024-01-02 03:04:05\n", sep=",").read_all().column("t")
    assert streamed.type == pa.timestamp("us")


def test_comment_marker_of_several_bytes() -> None:
    """comment= takes the marker whole, as the CLI's --comment does: under "//" a line starting with one '/' is data
    (it took one character only, so "//" was refused and "/" dropped "/usr,2")."""
    data = b"id,path\n// note\n1,a\n/usr,2\n// more\n3,4\n"
    expected = {"id": ["1", "/usr", "3"], "path": ["a", "2", "4"]}
    assert simdsv.read_csv(data, comment="//", sniff=False).to_arrow().to_pydict() == expected
    assert simdsv.read_csv(data, comment_prefix="//", sniff=False).to_arrow().to_pydict() == expected
    assert simdsv.open_csv(io.BytesIO(data), comment="//", sniff=False).read_all().to_pydict() == expected
    assert simdsv.count(data, comment="//", sniff=False) == 3
    assert list(simdsv.records(data, comment="//", sniff=False)) == [["1", "a"], ["/usr", "2"], ["3", "4"]]
    # one '/' drops every line starting with it
    assert simdsv.read_csv(data, comment="/", sniff=False).to_arrow().to_pydict() == {"id": [1, 3], "path": ["a", "4"]}
    # a non-ASCII marker is its UTF-8 bytes
    assert simdsv.read_csv("a\n\u00a7 x\n1\n".encode(), comment="\u00a7", sniff=False).to_arrow().to_pydict() == \
        {"a": [1]}
    for bad in ("", "#####", 5):
        with pytest.raises(ValueError, match="comment must be a str of 1 to 4 bytes"):
            simdsv.read_csv(data, comment=bad)
    with pytest.raises(ValueError, match="comment marker"):
        simdsv.read_csv(data, comment="\n")


@pytest.mark.parametrize("data, kwargs, where", [
    (b'"x"y,2\n3,4\n', {"header": False}, (1, 3, 0, 0)),           # the first record: no columns were inferred
    (b'1,"2\n3,4\n', {"header": False}, (1, 2, 0, 1)),
    (b'a,b\n"x"y,2\n3,4\n', {}, (2, 7, 1, 0)),                    # the first data row: every column was null
])
def test_infer_schema_raises_on_a_bad_first_record(tmp_path, data, kwargs, where) -> None:
    """infer_schema(sniff=False) on a file whose first record is bad raised nothing and gave zero columns (or
    null columns): it raises read_csv's error, with the file, line and byte."""
    path = tmp_path / "bad.csv"
    path.write_bytes(data)
    errors = []
    for read in (simdsv.infer_schema, simdsv.read_csv):
        with pytest.raises(simdsv.Error) as e:
            read(str(path), sniff=False, **kwargs)
        errors.append((str(e.value), e.value.code, e.value.line, e.value.byte_offset, e.value.record, e.value.field))
    line, byte, record, field = where
    assert errors[0] == errors[1]
    assert errors[0][0].startswith(f"{path}:{line}:") and errors[0][0].endswith(f"(byte {byte})")
    assert errors[0][2:] == (line, byte, record, field)
    # detected (the default), the stray quotes are text and both read the file
    assert simdsv.infer_schema(str(path), **kwargs).types == simdsv.read_csv(str(path), **kwargs).types
