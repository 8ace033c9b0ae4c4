"""simdsv.dask.read_csv on a distributed.LocalCluster with 2 worker processes:
identical to the single read, also where every block boundary falls inside
a quoted field with line breaks, which dask.dataframe.read_csv cannot read."""

from __future__ import annotations

import pathlib

import dask.dataframe as dd
import pandas as pd
import pytest

import simdsv
import simdsv.dask

BLOCK = 64 * 1024


def quoted_newline_file(path: pathlib.Path, rows: int = 800) -> bytes:
    """Records that are almost all quoted text with LF, CRLF and UTF-8: every
    block boundary lands inside quotes."""
    out = [b"id,text,score,day\r\n"]
    for i in range(rows):
        text = "".join(f"line {i}.{k} \u00e9\u65e5, \"\"q\"\"\r\n" if k % 2 else f"l{k}\n" for k in range(60))
        out.append(f'{i},"{text}",{i * 0.25},2024-01-{i % 28 + 1:02d}\r\n'.encode())
    data = b"".join(out)
    path.write_bytes(data)
    return data


def single_read(path, dtype_backend=None, **kwargs) -> pd.DataFrame:
    return simdsv.read_csv(path, **kwargs).to_pandas(dtype_backend=dtype_backend)


def test_quoted_newlines_at_every_boundary(tmp_path: pathlib.Path, cluster_client) -> None:
    path = tmp_path / "quoted.csv"
    data = quoted_newline_file(path)
    boundaries = range(BLOCK, len(data), BLOCK)
    assert len(boundaries) >= 8
    assert all(data[:b].count(b'"') % 2 == 1 for b in boundaries)  # inside quotes, every one
    # The quote is given: this test is about the ranges, not detection (which
    # test_detect.py checks on this file).
    ddf = simdsv.dask.read_csv(path, blocksize=BLOCK, quote='"')
    assert ddf.npartitions == len(boundaries) + 1
    got = ddf.compute().reset_index(drop=True)
    expected = single_read(path, quote='"')
    assert len(got) == 800
    pd.testing.assert_frame_equal(got, expected)
    assert got["text"].iloc[7].startswith("l0\nline 7.1 \u00e9\u65e5, \"q\"\r\n")


def test_dask_read_csv_cannot(tmp_path: pathlib.Path, cluster_client) -> None:
    """Why this exists: dask.dataframe.read_csv cuts blocks at newlines inside quotes."""
    path = tmp_path / "quoted.csv"
    quoted_newline_file(path)
    expected = single_read(path)
    try:
        theirs = dd.read_csv(path, blocksize=BLOCK, dtype=str).compute()
    except Exception as e:  # pandas' ParserError: a block starts or ends inside a quoted field
        assert "EOF inside string" in str(e) or "Error tokenizing" in str(e), e
    else:
        assert len(theirs) != len(expected) or list(theirs["id"]) != [str(i) for i in expected["id"]]


def test_plain_file_projection_and_schema(tmp_path: pathlib.Path, cluster_client) -> None:
    path = tmp_path / "plain.csv"
    lines = ["a,b,c,d"] + [f"{i},{'' if i % 7 == 0 else i * 3},x{i},{'true' if i % 2 else 'false'}" for i in range(20000)]
    path.write_text("\n".join(lines))  # no final line end
    ddf = simdsv.dask.read_csv(path, blocksize=BLOCK, columns=["c", "a", "#2"], schema={"a": "float64"})
    assert list(ddf.columns) == ["c", "a", "b"]
    got = ddf.compute().reset_index(drop=True)
    expected = single_read(path, columns=["c", "a", "#2"], schema={"a": "float64"})
    pd.testing.assert_frame_equal(got, expected)
    assert got["b"].isna().sum() == len(range(0, 20000, 7))
    assert int(ddf["a"].sum().compute()) == sum(range(20000))


def test_errors_name_the_first_bad_byte(tmp_path: pathlib.Path, cluster_client) -> None:
    path = tmp_path / "bad.csv"
    good = "".join(f'{i},"t\n{i}"\n' for i in range(30000))
    path.write_text("n,t\n" + good + 'x,y"z\n' + good)
    with pytest.raises(simdsv.Error) as single:
        simdsv.read_csv(path)
    with pytest.raises(simdsv.Error) as distributed:
        simdsv.dask.read_csv(path, blocksize=BLOCK).compute()
    assert str(distributed.value) == str(single.value)
    assert ":60002:4:" in str(single.value)


def test_refused_dialects(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "f.csv"
    path.write_text("a\n1\n")
    with pytest.raises(simdsv.Error, match="byte ranges cannot be read with skipped lines"):
        simdsv.dask.read_csv(path, skip_lines=1)


@pytest.mark.parametrize("dialect", [{"escape": "\\"}, {"comment": "#"}, {"lenient": True}, {"delimiter": "||"}])
def test_every_dialect_equals_the_single_read(tmp_path: pathlib.Path, cluster_client, dialect) -> None:
    """The dialects whose quote state is not the quote parity are cut by the record grammar (issue 22): escaped
    quotes before line breaks, comment lines with an odd quote, stray (odd) quotes read leniently, a delimiter of two
    bytes inside quoted line breaks; block boundaries fall everywhere in them."""
    sep = "||" if "delimiter" in dialect else ","
    rows = []
    for i in range(15000):
        text = {"escape": f'"a\\"\n{i}\\\\"', "comment": f'"x\n#{i}"', "lenient": f'x"{i}',
                "delimiter": f'"p||{i}\n"'}[next(iter(dialect))]
        rows.append(f"{i}{sep}{text}{sep}{i * 0.5}")
        if "comment" in dialect and i % 7 == 0:
            rows.append(f'#note "{i}')
    path = tmp_path / "dialect.csv"
    path.write_text(f"n{sep}t{sep}x\n" + "\n".join(rows) + "\n")
    ddf = simdsv.dask.read_csv(path, blocksize=BLOCK, sniff=False, **dialect)
    assert ddf.npartitions >= 3
    got = ddf.compute().reset_index(drop=True)
    expected = single_read(path, sniff=False, **dialect)
    assert len(got) == 15000
    pd.testing.assert_frame_equal(got, expected)


def test_same_dtypes_as_the_single_read(tmp_path: pathlib.Path, cluster_client) -> None:
    """One default for both readers (NumPy dtypes, dates as datetime64), and dtype_backend= on both (issue #23)."""
    path = tmp_path / "typed.csv"
    rows = [f"{i},{i * 0.5},2024-01-{i % 28 + 1:02d},{'' if i == 7 else i},s{i}" for i in range(5000)]
    path.write_text("n,x,day,gap,s\n" + "\n".join(rows) + "\n")
    got = simdsv.dask.read_csv(path, blocksize=BLOCK).compute().reset_index(drop=True)
    single = simdsv.read_csv(path).to_pandas()
    assert got.equals(single)
    assert [str(t) for t in single.dtypes] == ["int64", "float64", "datetime64[ms]", "float64", "str"]
    for backend, int_dtype in (("pyarrow", "int64[pyarrow]"), ("numpy_nullable", "Int64")):
        ddf = simdsv.dask.read_csv(path, blocksize=BLOCK, dtype_backend=backend)
        got = ddf.compute().reset_index(drop=True)
        single = simdsv.read_csv(path).to_pandas(dtype_backend=backend)
        assert got.equals(single) and str(single["n"].dtype) == int_dtype and str(ddf.dtypes["n"]) == int_dtype
