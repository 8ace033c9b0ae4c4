"""pandas and polars users' calls, unchanged, give the DataFrame pandas (engine="pyarrow") and polars give, over
../shared/datasets/real and the conformance corpus, except the differences docs/PYTHON.md lists.  The
differences are applied here, by name, and nowhere else:

- keep_default_na: pandas reads "NA", "None", "null", ... as missing by default; simdsv (like polars) only the
  empty field.  The pandas calls pass keep_default_na=True to simdsv.
- dates and timestamps: simdsv gives datetime64 for ISO dates and timestamps (pandas' pyarrow engine gives
  date objects for dates, its C engine strings; polars strings without try_parse_dates); a timestamp column is
  UTC (pandas and polars: naive).  Compared as datetime64[us] wall-clock values.
- a quoted field is never a null token (na_values, null_values): pandas and polars compare quoted text too.
- leading zeros ("00501") keep a column text; pandas and polars read it as integers.  The calls name such
  columns' type (str) for both, as they name the M/D/Y date columns, which simdsv detects and pandas leaves text.
- usecols: the columns come in file order (pandas' documented meaning; its pyarrow engine keeps the list's order).
- parameters pandas' pyarrow engine refuses (nrows, skiprows with a header, usecols by position or callable,
  thousands, comment, decimal): compared with pandas' C engine.
"""

from __future__ import annotations

import pathlib

import pandas as pd
import polars as pl
import pytest

import simdsv

from conftest import CONFORMANCE, REAL

DIAMONDS = REAL / "seaborn_diamonds.csv"
BIRDS = REAL / "vega_birdstrikes.csv"
TWEETS = REAL / "fivethirtyeight_mayweather_mcgregor_tweets.csv"
POLLS = REAL / "fivethirtyeight_pollster_ratings_2014_raw_polls.tsv"
POSTE = REAL / "laposte_hexasmal.csv"
SPECTRUM = CONFORMANCE / "csv_spectrum"

pytestmark = pytest.mark.skipif(not REAL.exists(), reason="../shared/datasets/real is not there")

POLL_DATES = {"polldate": str, "electiondate": str}  # M/D/Y: simdsv detects the order, pandas keeps text
POSTE_CODES = {"Code_postal": str, "Code_commune_INSEE": str}  # leading zeros: simdsv keeps text

# (file, keywords, engine pandas needs)
PANDAS_CALLS = [
    (DIAMONDS, {}, "pyarrow"),
    (DIAMONDS, {"usecols": ["price", "carat"]}, "pyarrow"),
    (DIAMONDS, {"usecols": [0, 6]}, "c"),
    (DIAMONDS, {"usecols": lambda c: c in ("x", "y", "z")}, "c"),
    (DIAMONDS, {"dtype": {"price": "float32"}}, "pyarrow"),
    (DIAMONDS, {"dtype": {"price": "int32", "depth": "float32"}}, "pyarrow"),
    (DIAMONDS, {"dtype": {"cut": "category"}}, "pyarrow"),
    (DIAMONDS, {"dtype": str}, "pyarrow"),
    (DIAMONDS, {"nrows": 100}, "c"),
    (DIAMONDS, {"header": 0, "names": list("abcdefghij")}, "pyarrow"),
    (DIAMONDS, {"sep": ","}, "pyarrow"),
    (DIAMONDS, {"delimiter": ","}, "pyarrow"),
    (DIAMONDS, {"quotechar": '"'}, "pyarrow"),
    (DIAMONDS, {"true_values": ["Ideal"], "false_values": ["Fair"], "usecols": ["carat"]}, "pyarrow"),
    (DIAMONDS, {"low_memory": False}, "c"),
    (DIAMONDS, {"encoding": "utf-8"}, "pyarrow"),
    (BIRDS, {}, "pyarrow"),
    (BIRDS, {"parse_dates": ["Flight Date"]}, "pyarrow"),
    (BIRDS, {"usecols": ["Airport Name", "Cost Total $"]}, "pyarrow"),
    (BIRDS, {"keep_default_na": False, "na_values": [""]}, "pyarrow"),
    (BIRDS, {"na_values": ["Small", "Medium"]}, "pyarrow"),
    (BIRDS, {"na_values": {"Wildlife Size": ["Small"], "Time of day": "Night"}}, "c"),
    (BIRDS, {"nrows": 50, "usecols": [0, 3]}, "c"),
    (BIRDS, {"dtype": {"Speed IAS in knots": "float32"}}, "pyarrow"),
    (TWEETS, {}, "pyarrow"),
    (TWEETS, {"dtype": {"id": "uint64"}}, "pyarrow"),
    (TWEETS, {"usecols": ["created_at", "retweeted"]}, "pyarrow"),
    (POLLS, {"sep": "\t", "dtype": POLL_DATES}, "pyarrow"),
    (POLLS, {"sep": "\t", "dtype": {**POLL_DATES, "samplesize": "float32"}}, "pyarrow"),
    (POLLS, {"sep": "\t", "usecols": ["race", "year", "error"]}, "pyarrow"),
    (POSTE, {"sep": ";", "dtype": POSTE_CODES}, "pyarrow"),
    (POSTE, {"sep": ";", "dtype": POSTE_CODES, "nrows": 1000}, "c"),
    (POSTE, {"sep": ";", "dtype": {"insee": str, "code": str}, "skiprows": 1, "header": None,
             "names": ["insee", "commune", "code", "ligne5", "libelle", "gps"]}, "c"),
    (SPECTRUM / "comma_in_quotes.csv", {"dtype": {"zip": str}}, "pyarrow"),
    (SPECTRUM / "escaped_quotes.csv", {}, "pyarrow"),
    (SPECTRUM / "newlines.csv", {}, "pyarrow"),
    (SPECTRUM / "quotes_and_newlines.csv", {}, "pyarrow"),
    (SPECTRUM / "simple.csv", {}, "pyarrow"),
    (SPECTRUM / "utf8.csv", {}, "pyarrow"),
]


def _wall_clock(column: pd.Series) -> pd.Series:
    if not str(column.dtype).startswith("datetime64"):
        column = pd.to_datetime(column)
    if getattr(column.dt, "tz", None) is not None:
        column = column.dt.tz_localize(None)
    return column.astype("datetime64[us]")


def _same(ours: pd.DataFrame, theirs: pd.DataFrame) -> None:
    assert sorted(ours.columns) == sorted(theirs.columns)
    theirs = theirs[list(ours.columns)]  # file order (documented)
    for name in ours.columns:
        if str(ours[name].dtype).startswith("datetime64"):
            ours[name], theirs[name] = _wall_clock(ours[name]), _wall_clock(theirs[name])
    pd.testing.assert_frame_equal(ours, theirs, check_dtype=True)


@pytest.mark.parametrize("path, kwargs, engine", PANDAS_CALLS,
                         ids=[f"{p.stem[:20]}-{i}" for i, (p, _, _) in enumerate(PANDAS_CALLS)])
def test_pandas_read_csv_calls(path: pathlib.Path, kwargs: dict, engine: str) -> None:
    theirs = pd.read_csv(path, engine=engine, **kwargs)
    ours_kwargs = dict(kwargs)
    ours_kwargs.setdefault("keep_default_na", True)
    ours = simdsv.read_csv(path, **ours_kwargs).to_pandas()
    _same(ours, theirs)


def test_pandas_calls_are_many() -> None:
    assert len(PANDAS_CALLS) >= 30


# (file, keywords for both, call: read_csv or scan_csv)
POLARS_CALLS = [
    (DIAMONDS, {}, "read"),
    (DIAMONDS, {}, "scan"),
    (DIAMONDS, {"columns": ["price", "carat"]}, "read"),
    (DIAMONDS, {"columns": [0, 6]}, "read"),
    (DIAMONDS, {"n_rows": 250}, "read"),
    (DIAMONDS, {"n_rows": 250}, "scan"),
    (DIAMONDS, {"schema_overrides": {"price": pl.Float32}}, "read"),
    (DIAMONDS, {"schema_overrides": {"price": pl.Int32, "depth": pl.Float32}}, "scan"),
    (DIAMONDS, {"separator": ","}, "read"),
    (DIAMONDS, {"quote_char": '"'}, "scan"),
    (DIAMONDS, {"has_header": True}, "read"),
    (DIAMONDS, {"infer_schema_length": 10000}, "read"),
    (BIRDS, {"try_parse_dates": True}, "read"),
    (BIRDS, {"columns": ["Airport Name", "Cost Total $"]}, "read"),
    (BIRDS, {"n_rows": 10}, "scan"),
    (BIRDS, {"null_values": ["Small", "None"]}, "read"),
    (BIRDS, {"null_values": {"Wildlife Size": "Small"}}, "read"),
    (TWEETS, {"columns": ["id", "retweeted", "screen_name"]}, "read"),
    (POLLS, {"separator": "\t", "schema_overrides": POLL_DATES, "infer_schema_length": None}, "read"),
    (POSTE, {"separator": ";", "schema_overrides": POSTE_CODES}, "read"),
    (POSTE, {"separator": ";", "schema_overrides": POSTE_CODES}, "scan"),
    (SPECTRUM / "quotes_and_newlines.csv", {}, "read"),
    (SPECTRUM / "utf8.csv", {}, "scan"),
]


def _polars_wall_clock(frame: pl.DataFrame, name: str) -> pl.Series:
    column = frame[name]
    if column.dtype == pl.String:
        column = column.str.to_datetime(time_unit="us")
    if column.dtype == pl.Date:
        column = column.cast(pl.Datetime("us"))
    if getattr(column.dtype, "time_zone", None):
        column = column.dt.replace_time_zone(None)
    return column.cast(pl.Datetime("us"))


def _polars_types(kwargs: dict) -> dict:
    return {k: (pl.String if v is str else v) for k, v in kwargs.items()}


@pytest.mark.parametrize("path, kwargs, call", POLARS_CALLS,
                         ids=[f"{p.stem[:20]}-{i}" for i, (p, _, _) in enumerate(POLARS_CALLS)])
def test_polars_calls(path: pathlib.Path, kwargs: dict, call: str) -> None:
    theirs_kwargs = dict(kwargs)
    if "schema_overrides" in theirs_kwargs:
        theirs_kwargs["schema_overrides"] = _polars_types(theirs_kwargs["schema_overrides"])
    if call == "read":
        theirs = pl.read_csv(path, **theirs_kwargs)
    else:
        theirs = pl.scan_csv(path, **theirs_kwargs).collect()
    ours = simdsv.read_csv(path, **kwargs).to_polars()
    assert sorted(ours.columns) == sorted(theirs.columns)
    theirs = theirs.select(ours.columns)
    for name in ours.columns:
        if ours[name].dtype in (pl.Date,) or isinstance(ours[name].dtype, pl.Datetime):
            ours = ours.with_columns(_polars_wall_clock(ours, name))
            theirs = theirs.with_columns(_polars_wall_clock(theirs, name))
    assert ours.schema == theirs.schema
    assert ours.equals(theirs)


def test_polars_calls_are_many() -> None:
    assert len(POLARS_CALLS) >= 20
