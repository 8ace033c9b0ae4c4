"""Reading with no options: detection and decompression in the library
(simdsv_input), so that Python reads every file as the simdsv command does.

The corpus test compares, file by file, the CLI's typed read (``simdsv
convert --to arrow``: detection, then the typed reader, written as Arrow IPC)
with ``simdsv.read_csv(path)``: the same rows, columns, types and values, or
both fail.  Arrow IPC round-trips every type exactly, so this compares the
records themselves, not a rendering of them.
"""

from __future__ import annotations

import datetime
import gzip
import os
import pathlib
import shutil
import subprocess

import pyarrow as pa
import pyarrow.ipc
import pytest

import simdsv
from conftest import REAL, ROOT

MESSY = REAL.parent / "messy"
PRIX = b"nom;prix;jour\n\xe9t\xe9;3,5;14/07/2024\nna\xefve;4,25;01/08/2024\n"  # the README's first example


def _cli() -> pathlib.Path | None:
    """The simdsv command built in this checkout (SIMDSV_CLI names another)."""
    named = os.environ.get("SIMDSV_CLI")
    if named:
        return pathlib.Path(named)
    built = ROOT / "build" / "simdsv"
    return built if built.exists() else None


CLI = _cli()


def test_readme_first_example(tmp_path: pathlib.Path) -> None:
    p = tmp_path / "prix.csv"
    p.write_bytes(PRIX)
    rows = simdsv.read_csv(p).to_arrow().to_pylist()
    assert rows == [
        {"nom": "été", "prix": 3.5, "jour": datetime.date(2024, 7, 14)},
        {"nom": "naïve", "prix": 4.25, "jour": datetime.date(2024, 8, 1)},
    ]
    # The same from a buffer, and records as text.
    assert simdsv.read_csv(PRIX).to_arrow().to_pylist() == rows
    it = simdsv.records(p)
    assert it.header == ["nom", "prix", "jour"]
    assert list(it) == [["été", "3,5", "14/07/2024"], ["naïve", "4,25", "01/08/2024"]]
    assert simdsv.count(p) == 2


def test_sniff_false_keeps_the_defaults() -> None:
    t = simdsv.read_csv(b"a;b\n1;2\n3;4\n", sniff=False)
    assert t.column_names == ["a;b"]
    assert t.to_arrow().column(0).to_pylist() == ["1;2", "3;4"]
    # Latin-1 is not detected: strict UTF-8 refuses it.
    with pytest.raises(simdsv.Error, match="UTF-8"):
        simdsv.read_csv(PRIX, sniff=False, delimiter=";")


def test_given_wins() -> None:
    data = b"a;b\n1;2\n3;4\n5;6\n"
    assert simdsv.read_csv(data).column_names == ["a", "b"]
    # delimiter given: one column; header given: the first line is data.
    assert simdsv.read_csv(data, delimiter=",").column_names == ["a;b"]
    t = simdsv.read_csv(data, header=False)
    assert t.column_names == ["column_1", "column_2"] and t.num_rows == 4
    assert simdsv.count(data, header=False) == 4
    assert simdsv.records(data, header=False).header is None
    # encoding given: Latin-1 bytes read as given, the rest detected.
    t = simdsv.read_csv("nom;n\nJosé;1\nAnn;2\n".encode("latin-1"), encoding="latin1")
    assert t.to_arrow().to_pylist() == [{"nom": "José", "n": 1}, {"nom": "Ann", "n": 2}]


def test_concatenated_files_leave_out_the_repeated_header(tmp_path: pathlib.Path) -> None:
    # Two files concatenated: the second header is the one line left out (issue 21's rule),
    # from a buffer, a path and gzip alike, and the columns keep their types.
    data = b"id,city,temp\n1,a,1.5\n2,b,2.5\n3,c,3.5\nid,city,temp\n4,d,4.5\n5,e,5.5\n"
    path = tmp_path / "cat.csv.gz"
    path.write_bytes(gzip.compress(data))
    for source in (data, str(path)):
        t = simdsv.read_csv(source)
        assert t.to_arrow().column(0).to_pylist() == [1, 2, 3, 4, 5]
        assert t.to_arrow().column(2).to_pylist() == [1.5, 2.5, 3.5, 4.5, 5.5]
        assert simdsv.count(source) == 5
    # Detection off: every line is a row.
    assert simdsv.read_csv(data, sniff=False).num_rows == 6


def test_utf16_is_detected() -> None:
    data = "name,age\nJosé,30\nAnn,25\n".encode("utf-16")
    t = simdsv.read_csv(data)
    assert t.to_arrow().to_pylist() == [{"name": "José", "age": 30}, {"name": "Ann", "age": 25}]


@pytest.mark.parametrize("codec", ["gzip", "zstd"])
def test_compressed_as_plain(tmp_path: pathlib.Path, codec: str) -> None:
    if codec == "zstd" and shutil.which("zstd") is None:
        pytest.skip("no zstd tool to make the data")
    plain = b"id;name;score\n" + b"".join(b"%d;n%d;%d.5\n" % (i, i, i) for i in range(50000))
    p = tmp_path / f"data.csv.{codec}"
    if codec == "gzip":
        p.write_bytes(gzip.compress(plain))
    else:
        subprocess.run(["zstd", "-q", "-o", str(p)], input=plain, check=True)
    expected = simdsv.read_csv(plain).to_arrow()
    assert simdsv.read_csv(p).to_arrow().equals(expected)
    assert simdsv.read_csv(p.read_bytes()).to_arrow().equals(expected)
    assert simdsv.count(p) == 50000
    assert sum(b.num_rows for b in simdsv.open_csv(p, batch_rows=4096)) == 50000
    assert simdsv.infer_schema(p).types == {"id": "int64", "name": "string", "score": "float64"}
    # compression=None reads the bytes as they are.
    with pytest.raises(simdsv.Error):
        simdsv.read_csv(p, compression=None)
    with pytest.raises(ValueError, match="compression must be"):
        simdsv.read_csv(p, compression="lzma")


def test_long_quoted_values_keep_their_quote(tmp_path: pathlib.Path) -> None:
    # A regular file is sampled at its start, middle and end; in a file of
    # long quoted values with line breaks the middle and the end start inside
    # quotes.  The quote was rejected there and 48,800 rows read instead of 800.
    value = "\n".join("line %d, with a comma" % j for j in range(61))
    data = "id,text,n\n" + "".join('%d,"%s %d",%d\n' % (i, value, i, 2 * i) for i in range(800))
    p = tmp_path / "long_quoted.csv"
    p.write_text(data)
    assert p.stat().st_size > 1 << 20  # past the 256 KiB start and both 64 KiB samples
    t = simdsv.read_csv(p).to_arrow()
    assert t.num_rows == 800
    assert t.column("text")[799].as_py() == value + " 799"
    assert t.column("n").to_pylist() == [2 * i for i in range(800)]
    assert simdsv.count(p) == 800
    assert sum(b.num_rows for b in simdsv.open_csv(p, batch_rows=100)) == 800


def _utf16_cases(tmp_path: pathlib.Path) -> list[tuple[pathlib.Path, pathlib.Path]]:
    """(UTF-16 file, the same text in UTF-8): the messy set's file, and one
    past the reader's first buffer whose third column is empty in its first
    rows (a type seen only later)."""
    cases = []
    messy = MESSY / "encodings_utf16.csv"
    if messy.exists():
        as_utf8 = tmp_path / "messy_utf8.csv"
        as_utf8.write_text(messy.read_bytes().decode("utf-16"), encoding="utf-8", newline="")
        cases.append((messy, as_utf8))
    text = "name,age,score\n" + "".join(
        "Jos\u00e9 %d,%d,%s\n" % (i, i % 90, "" if i < 50 else "%.2f" % (i / 8)) for i in range(120000)
    )
    utf16, utf8 = tmp_path / "gen_utf16.csv", tmp_path / "gen_utf8.csv"
    utf16.write_bytes(text.encode("utf-16"))
    utf8.write_text(text, encoding="utf-8")
    cases.append((utf16, utf8))
    return cases


def test_utf16_streams_as_read_csv(tmp_path: pathlib.Path) -> None:
    # open_csv (the streaming typed reader) said "value does not fit column of
    # type null" on UTF-16 input that read_csv read right.
    for utf16, utf8 in _utf16_cases(tmp_path):
        expected = simdsv.read_csv(utf8).to_arrow()
        assert simdsv.read_csv(utf16).to_arrow().equals(expected), utf16.name
        for batch_rows in (7, 65536):
            batches = list(simdsv.open_csv(utf16, batch_rows=batch_rows))
            assert pa.Table.from_batches(batches).equals(expected), (utf16.name, batch_rows)


def test_truncated_gzip_says_so() -> None:
    data = gzip.compress(b"a,b\n" + b"1,2\n" * 100000)
    with pytest.raises(simdsv.Error, match="the gzip data is truncated"):
        simdsv.read_csv(data[: len(data) // 2])


def test_quoted_line_breaks_detected(tmp_path: pathlib.Path) -> None:
    """Long quoted fields with line breaks: the middle and end samples start
    inside quotes, which must not count against '"' (read without a quote,
    this file gave 48,800 rows)."""
    from test_dask import quoted_newline_file

    path = tmp_path / "quoted.csv"
    quoted_newline_file(path)
    assert simdsv.read_csv(path).num_rows == 800


def test_binary_is_refused_as_by_the_cli() -> None:
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8
    with pytest.raises(simdsv.Error, match="not a delimited text file"):
        simdsv.read_csv(png)
    with pytest.raises(simdsv.Error, match="not a delimited text file"):
        simdsv.count(png)


def test_missing_file_is_an_os_error(tmp_path: pathlib.Path) -> None:
    with pytest.raises(FileNotFoundError):
        simdsv.read_csv(tmp_path / "missing.csv")


def test_dask_detects_once(tmp_path: pathlib.Path, cluster_client) -> None:
    import simdsv.dask

    p = tmp_path / "semi.csv"
    p.write_bytes(b"id;name;score\n" + b"".join(b"%d;n%d;%d,5\n" % (i, i, i) for i in range(20000)))
    df = simdsv.dask.read_csv(p, blocksize=32 * 1024).compute()
    whole = simdsv.read_csv(p).to_pandas()
    assert list(df.columns) == ["id", "name", "score"]
    assert len(df) == 20000
    assert df["score"].tolist() == whole["score"].tolist() == [i + 0.5 for i in range(20000)]


def _corpus() -> list[pathlib.Path]:
    files: list[pathlib.Path] = []
    for folder in (REAL, MESSY):
        if folder.exists():
            files.extend(sorted(p for p in folder.iterdir() if p.is_file() and p.suffix != ".md"))
    return files


CORPUS = _corpus()


@pytest.mark.skipif(not CORPUS or CLI is None, reason="no corpus (../shared/datasets) or no built simdsv command")
def test_corpus_reads_as_the_cli(tmp_path: pathlib.Path) -> None:
    """Every file of datasets/real and datasets/messy that the CLI reads with
    no options, Python reads with no options, with the same table."""
    out = tmp_path / "cli.arrow"
    cli_read = same = 0
    differ: list[str] = []
    for path in CORPUS:
        run = subprocess.run([str(CLI), "convert", "--to", "arrow", "-o", str(out), str(path)],
                             capture_output=True, timeout=120)
        if run.returncode != 0:
            continue
        cli_read += 1
        with pa.ipc.open_file(out) as f:
            theirs = f.read_all()
        try:
            ours = simdsv.read_csv(path).to_arrow()
        except (simdsv.Error, OSError) as e:
            differ.append(f"{path.name}: Python fails ({e})")
            continue
        if ours.equals(theirs):
            same += 1
        else:
            differ.append(f"{path.name}: {ours.num_rows}x{ours.num_columns} vs the CLI's "
                          f"{theirs.num_rows}x{theirs.num_columns}")
    print(f"{len(CORPUS)} files: the CLI reads {cli_read}, Python reads {same} of them the same")
    assert not differ, "\n".join(differ[:20])
    assert cli_read > len(CORPUS) // 2


@pytest.mark.skipif(not CORPUS or CLI is None, reason="no corpus (../shared/datasets) or no built simdsv command")
def test_corpus_counts_as_the_cli() -> None:
    """The records' reader too (dialect-only detection): simdsv.count equals `simdsv count`."""
    counted = 0
    differ: list[str] = []
    for path in CORPUS:
        run = subprocess.run([str(CLI), "count", str(path)], capture_output=True, timeout=120)
        if run.returncode != 0:
            continue
        counted += 1
        try:
            ours = simdsv.count(path)
        except (simdsv.Error, OSError) as e:
            differ.append(f"{path.name}: Python fails ({e})")
            continue
        if ours != int(run.stdout):
            differ.append(f"{path.name}: {ours} vs the CLI's {int(run.stdout)}")
    assert not differ, "\n".join(differ[:20])
    assert counted > len(CORPUS) // 2
