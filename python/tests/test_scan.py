"""simdsv.scan_csv: a polars.LazyFrame whose queries give what polars.scan_csv gives for the same query (the
differences test_compat.py lists applied the same way), and what read_csv gives for the whole file; projection,
n_rows and predicates pushed down to the reader."""

from __future__ import annotations

import datetime
import gzip
import io
import json
import pathlib

import polars as pl
import pytest

import simdsv

from conftest import CONFORMANCE, REAL
from test_compat import BIRDS, DIAMONDS, POLL_DATES, POLLS, POSTE, POSTE_CODES, SPECTRUM, TWEETS, _polars_types, \
    _polars_wall_clock

MASCULINITY = REAL / "fivethirtyeight_masculinity_survey_raw_responses.csv"
DATES = {"try_parse_dates": True}  # polars reads dates as text without it; simdsv always infers them

# (file, keywords for both, the query)
QUERIES = [
    (DIAMONDS, {}, lambda lf: lf.select("price")),
    (DIAMONDS, {}, lambda lf: lf.filter(pl.col("price") > 10000).select("carat", "price")),
    (DIAMONDS, {}, lambda lf: lf.filter((pl.col("cut") == "Ideal") & (pl.col("carat") >= 1.5))
     .select("cut", "carat", "price")),
    (DIAMONDS, {}, lambda lf: lf.head(100)),
    (DIAMONDS, {}, lambda lf: lf.filter(pl.col("price") < 500).head(7)),
    (DIAMONDS, {}, lambda lf: lf.select(pl.len())),
    (DIAMONDS, {}, lambda lf: lf.group_by("cut").agg(pl.col("price").mean()).sort("cut")),
    (DIAMONDS, {}, lambda lf: lf.filter(pl.col("x").is_between(4, 5)).select("x", "y")),
    (DIAMONDS, {}, lambda lf: lf.filter(pl.col("depth") > 70).select("price")),
    (DIAMONDS, {"schema_overrides": {"price": pl.Int32}}, lambda lf: lf.filter(pl.col("price") > 18000)),
    (DIAMONDS, {"quote_char": '"'}, lambda lf: lf.filter(pl.col("carat") > 3).select("price", "carat")),
    (DIAMONDS, {"n_rows": 1000}, lambda lf: lf.filter(pl.col("price") > 1000).select("price")),
    (DIAMONDS, {}, lambda lf: lf.select("carat", "price").tail(3)),
    (BIRDS, DATES, lambda lf: lf.filter(pl.col("Flight Date") >= datetime.date(2005, 1, 1))
     .select("Flight Date", "Airport Name")),
    (BIRDS, DATES, lambda lf: lf.filter(pl.col("Flight Date").dt.year() == 1999).select(pl.len())),
    (BIRDS, {}, lambda lf: lf.select("Cost Total $").filter(pl.col("Cost Total $") > 0)),
    (BIRDS, {"null_values": ["Small"]}, lambda lf: lf.filter(pl.col("Wildlife Size").is_null()).select(pl.len())),
    (BIRDS, {}, lambda lf: lf.filter(pl.col("Speed IAS in knots") > 200).head(5)),
    (TWEETS, DATES, lambda lf: lf.filter(pl.col("retweeted")).select("id", "created_at")),
    (TWEETS, {}, lambda lf: lf.filter(pl.col("id") % 1000 == 0).select("id", "screen_name")),
    (POLLS, {"separator": "\t", "schema_overrides": POLL_DATES},
     lambda lf: lf.filter(pl.col("year") == 2012).select("race", "error")),
    (POLLS, {"separator": "\t", "schema_overrides": POLL_DATES},
     lambda lf: lf.filter(pl.col("error") > 10).select("pollster", "samplesize", "error")),
    (POSTE, {"separator": ";", "schema_overrides": POSTE_CODES},
     lambda lf: lf.filter(pl.col("Code_postal").str.starts_with("75")).select("Nom_commune")),
    (POSTE, {"separator": ";", "schema_overrides": POSTE_CODES}, lambda lf: lf.select("Code_commune_INSEE").head(10)),
    (MASCULINITY, {}, lambda lf: lf.filter(pl.col("q0001") == "Very masculine").select("q0001", "q0002")),
    (SPECTRUM / "quotes_and_newlines.csv", {}, lambda lf: lf),
    (SPECTRUM / "utf8.csv", {}, lambda lf: lf.filter(pl.col("a") == 1)),
]


@pytest.mark.skipif(not REAL.exists(), reason="../shared/datasets/real is not there")
@pytest.mark.parametrize("path, kwargs, query", QUERIES,
                         ids=[f"{p.stem[:20]}-{i}" for i, (p, _, _) in enumerate(QUERIES)])
def test_queries_equal_polars_scan_csv(path: pathlib.Path, kwargs: dict, query) -> None:
    theirs_kwargs = dict(kwargs)
    if "schema_overrides" in theirs_kwargs:
        theirs_kwargs["schema_overrides"] = _polars_types(theirs_kwargs["schema_overrides"])
    theirs = query(pl.scan_csv(path, **theirs_kwargs)).collect()
    ours = query(simdsv.scan_csv(path, **kwargs)).collect()
    assert ours.columns == theirs.columns
    for name in ours.columns:
        if ours[name].dtype == pl.Date or isinstance(ours[name].dtype, pl.Datetime):
            ours = ours.with_columns(_polars_wall_clock(ours, name))
            theirs = theirs.with_columns(_polars_wall_clock(theirs, name))
    assert ours.schema == theirs.schema
    assert ours.equals(theirs)


def test_queries_are_many() -> None:
    assert len(QUERIES) >= 25


FILES = sorted(REAL.glob("*.?sv")) + sorted(SPECTRUM.glob("*.csv"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_column_alone_is_read_csv_s(path: pathlib.Path) -> None:
    """The whole LazyFrame, and each column projected alone, equal read_csv's table (types and values)."""
    lf = simdsv.scan_csv(path)
    whole = simdsv.read_csv(path).to_polars()
    assert lf.collect_schema() == whole.schema
    assert lf.collect().equals(whole)
    for name in whole.columns:
        assert lf.select(name).collect().equals(whole.select(name)), name


def _conformance_cases() -> list:
    cases = []
    for csv in sorted(CONFORMANCE.glob("*/*.csv")):
        dialect_file = csv.with_name(csv.stem + ".dialect.json")
        dialect = json.loads(dialect_file.read_text()) if dialect_file.exists() else {}
        cases.append(pytest.param(csv, dialect, id=f"{csv.parent.name}/{csv.stem}"))
    return cases


@pytest.mark.parametrize("path, dialect", _conformance_cases())
def test_conformance_equals_read_csv(path: pathlib.Path, dialect: dict) -> None:
    """Every conformance file with its dialect: scan_csv's frame is read_csv's, or the same error."""
    kwargs = dict(dialect, header=False, sniff=False)
    try:
        whole = simdsv.read_csv(path, **kwargs).to_polars()
    except simdsv.Error as e:
        with pytest.raises(simdsv.Error) as got:
            simdsv.scan_csv(path, **kwargs).collect()
        assert (got.value.code, got.value.line) == (e.code, e.line)
        return
    assert simdsv.scan_csv(path, batch_rows=2, **kwargs).collect().equals(whole)


ROWS = b"a,b,d\n1,10,2024-01-01\n2,20,2024-01-02\n3,x,2024-01-03\n4,40,2024-01-04\n"


def test_projection_parses_only_the_columns_asked_for() -> None:
    # b is an int64 column with "x" at row 3: parsing it fails, leaving it out does not.
    lf = simdsv.scan_csv(ROWS, schema={"b": "int64"}, batch_rows=1)
    assert lf.select("a").collect().to_dict(as_series=False) == {"a": [1, 2, 3, 4]}
    assert lf.select("d", "a").collect()["a"].to_list() == [1, 2, 3, 4]
    with pytest.raises(simdsv.Error, match="line 4|:4:") as e:
        lf.select("b").collect()
    assert e.value.code == "SIMDSV_ERR_VALUE"


def test_n_rows_stops_the_reader() -> None:
    # The bad value is in row 3: a read of two rows never converts it.
    lf = simdsv.scan_csv(ROWS, schema={"b": "int64"}, batch_rows=1)
    assert lf.head(2).collect().to_dict(as_series=False) == {
        "a": [1, 2], "b": [10, 20], "d": [datetime.date(2024, 1, 1), datetime.date(2024, 1, 2)]}
    with pytest.raises(simdsv.Error):
        lf.collect()
    assert simdsv.scan_csv(ROWS, n_rows=2, schema={"b": "int64"}).collect()["b"].to_list() == [10, 20]
    assert simdsv.scan_csv(ROWS, nrows=0).collect().shape == (0, 3)


def test_predicates_on_int_float_date_and_columns_not_selected() -> None:
    data = b"i,f,d,s\n" + b"".join(b"%d,%d.5,2024-01-%02d,s%d\n" % (k, k, k % 28 + 1, k) for k in range(1000))
    lf = simdsv.scan_csv(data, batch_rows=64)
    assert lf.filter(pl.col("i") >= 998).select("s").collect()["s"].to_list() == ["s998", "s999"]
    assert lf.filter(pl.col("f") < 1.0).select("i").collect()["i"].to_list() == [0]
    assert lf.filter(pl.col("d") == datetime.date(2024, 1, 28)).select(pl.len()).collect().item() == 35
    # n_rows after a predicate counts the rows that passed it
    assert lf.filter(pl.col("i") % 100 == 7).head(3).select("i").collect()["i"].to_list() == [7, 107, 207]
    assert lf.filter(pl.col("i") < 0).collect().shape == (0, 4)
    assert lf.collect(engine="streaming").equals(simdsv.read_csv(data).to_polars())


def test_sources_and_options() -> None:
    expected = {"a": [1, 2], "b": ["x", "y"]}
    data = b"a;b\n1;x\n2;y\n"
    assert simdsv.scan_csv(data).collect().to_dict(as_series=False) == expected
    assert simdsv.scan_csv(io.BytesIO(data)).collect().to_dict(as_series=False) == expected
    assert simdsv.scan_csv(gzip.compress(data)).collect().to_dict(as_series=False) == expected
    # a LazyFrame may be collected again (a file object was read whole)
    lf = simdsv.scan_csv(io.BytesIO(data))
    assert lf.collect().equals(lf.collect())
    assert simdsv.scan_csv(data, usecols=["b"]).collect().to_dict(as_series=False) == {"b": ["x", "y"]}
    assert simdsv.scan_csv(data, columns=["b", "a"]).collect().columns == ["b", "a"]
    assert simdsv.scan_csv(data, dtype={"a": "float32"}).collect_schema()["a"] == pl.Float32
    assert simdsv.scan_csv(data, schema={1: "category"}).collect()["b"].dtype == pl.Categorical
    assert "simdsv" in simdsv.scan_csv(data).explain()
    with pytest.raises(TypeError, match="'sep'"):
        simdsv.scan_csv(data, sepp=";")
    with pytest.raises(simdsv.Error, match="the schema names no column `#6`"):
        simdsv.scan_csv(data, schema={5: "int32"})
    with pytest.raises(ValueError, match="batch_rows"):
        simdsv.scan_csv(data, batch_rows=0)
    with pytest.raises(FileNotFoundError):
        simdsv.scan_csv("/nonexistent/file.csv")
    for several in ([DIAMONDS, BIRDS], str(REAL), str(REAL / "*.csv"), "https://example.com/a.csv"):
        with pytest.raises(TypeError, match="scan_csv reads one local file or buffer"):
            simdsv.scan_csv(several)


def test_narrow_type_misfit_names_the_row() -> None:
    lf = simdsv.scan_csv(b"a\n1\n300\n", schema={"a": "int8"}, batch_rows=1)
    with pytest.raises(simdsv.Error, match="data row 2") as e:
        lf.collect()
    assert e.value.code == "SIMDSV_ERR_VALUE"
