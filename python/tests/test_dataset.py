"""Many inputs read as one table (the library's simdsv_dataset, through simdsv.read_csv, open_csv and count):
lists, globs and folders of local files, and the same dataset on S3 (versitygw) and HTTP (nginx), read by ranges.

The dataset: hive folders, columns that differ (an extra column), a column whose type widens across files
(int64 in one, float64 in another), a gzip member, and quoted fields with line breaks."""

from __future__ import annotations

import gzip
import itertools
import pathlib

import pyarrow as pa
import pytest

import simdsv

FILES = {
    "year=2024/month=5/a.csv": b'id,price,note\n1,2,x\n2,3,"two\nlines"\n',
    "year=2024/month=6/b.csv": b"id,price,note,extra\n3,4.5,y,e1\n",
    "year=2025/month=1/c.csv.gz": gzip.compress(b'id,price,note\n4,5,"z, ""quoted"""\n', mtime=0),
    "year=2025/month=1/d.csv": b"id,price,note\n5,,w\n",
}
# union_by_name=True: the rows file after file, in byte order of the paths; the hive columns after the files'.
EXPECTED = {
    "id": [1, 2, 3, 4, 5],
    "price": [2.0, 3.0, 4.5, 5.0, None],
    "note": ["x", "two\nlines", "y", 'z, "quoted"', "w"],
    "extra": [None, None, "e1", None, None],
    "year": [2024, 2024, 2024, 2025, 2025],
    "month": [5, 5, 6, 1, 1],
}
ROWS_PER_FILE = [2, 1, 1, 1]
_buckets = itertools.count()


def write_tree(root: pathlib.Path) -> pathlib.Path:
    for name, data in FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def paths_column(prefix: str) -> list[str]:
    return [prefix + name for name, rows in zip(FILES, ROWS_PER_FILE) for _ in range(rows)]


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path / "data")


@pytest.fixture
def s3_data(s3_server):
    """The dataset in a fresh bucket under data/: (URL prefix, storage_options)."""
    fs = s3_server.filesystem()
    bucket = f"dataset-{next(_buckets)}"
    fs.call_s3("create_bucket", Bucket=bucket)
    for name, data in FILES.items():
        fs.pipe(f"{bucket}/data/{name}", data)
    return f"s3://{bucket}/data/", s3_server.storage_options


@pytest.fixture
def http_data(http_server, tmp_path):
    sub = f"set{next(_buckets)}"
    write_tree(http_server.root / sub)
    return f"{http_server.url}/{sub}/"


def test_folder_reads_as_one_table(tree):
    table = simdsv.read_csv(str(tree), union_by_name=True)
    assert table.to_arrow().to_pydict() == EXPECTED
    assert table.types == {"id": "int64", "price": "float64", "note": "string", "extra": "string",
                           "year": "int64", "month": "int64"}


def test_glob_list_and_folder_agree(tree):
    by_folder = simdsv.read_csv(str(tree), union_by_name=True).to_arrow()
    by_glob = simdsv.read_csv(str(tree / "**" / "*.csv*"), union_by_name=True).to_arrow()
    listed = [str(tree / name) for name in FILES]
    by_list = simdsv.read_csv(listed, union_by_name=True, hive_partitioning=True).to_arrow()
    assert by_glob.equals(by_folder) and by_list.equals(by_folder)


def test_equals_reading_one_by_one(tree):
    """The single read of the dataset equals each file read alone, concatenated (the columns promoted)."""
    alone = [simdsv.read_csv(str(tree / name)).to_arrow() for name in FILES]
    concatenated = pa.concat_tables(alone, promote_options="permissive").to_pydict()
    got = simdsv.read_csv(str(tree), union_by_name=True, hive_partitioning=False).to_arrow().to_pydict()
    assert got == concatenated


def test_chunks_one_per_file_with_rows(tmp_path):
    """A dataset's table holds one record batch per file with rows, no copy into one: a file without rows adds
    none, a type widened by a later file is the earlier chunk's type too (its text read again: 1, not 1.0 cast),
    a column a file lacks is nulls in its chunk; the consumers see one table."""
    files = {"a.csv": b"x,y\n1,p\n2,q\n", "b.csv": b"x,y\n", "c.csv": b"", "d.csv": b"y,z,x\nr,2020-01-01,2.5\n"}
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    table = simdsv.read_csv(str(tmp_path), union_by_name=True, include_path_column="f")
    arrow = table.to_arrow()
    assert [len(b) for b in arrow.to_batches()] == [2, 1]
    assert arrow.schema == pa.schema([("x", pa.float64()), ("y", pa.string()), ("z", pa.date32()),
                                      ("f", pa.string())])
    assert arrow.to_pydict() == {"x": [1.0, 2.0, 2.5], "y": ["p", "q", "r"],
                                 "z": [None, None, __import__("datetime").date(2020, 1, 1)],
                                 "f": [str(tmp_path / n) for n in ("a.csv", "a.csv", "d.csv")]}
    assert table.num_rows == 3 and [c[3] for c in table._native.column_info] == [0, 0, 2, 0]
    one = pa.record_batch(table)  # __arrow_c_array__: the chunks joined (a copy) for a consumer of one array
    assert one.num_rows == 3 and one.to_pydict() == arrow.to_pydict()
    assert table.to_pandas()["x"].tolist() == [1.0, 2.0, 2.5]
    assert table.to_polars()["y"].to_list() == ["p", "q", "r"]
    # A narrower type asked for is cast over every chunk; rejects count rows from the table's first.
    cast = simdsv.read_csv(str(tmp_path), union_by_name=True, schema={"x": "float32"}).to_arrow()
    assert cast.schema.field("x").type == pa.float32() and cast["x"].to_pylist() == [1.0, 2.0, 2.5]
    nulls = simdsv.read_csv([b"id,v\n1,2\n2,x\n", b"v,id\nw,4\n"], union_by_name=True, schema={"v": "int64"},
                            on_error="null")
    assert [(line, row, column, value) for line, row, column, _, value, _ in nulls.rejects] == [
        (3, 1, 1, "x"), (2, 2, 1, "w")]
    only_headers = simdsv.read_csv([str(tmp_path / "b.csv"), str(tmp_path / "c.csv")]).to_arrow()
    assert only_headers.num_rows == 0 and only_headers.column_names == ["x", "y"]


def test_path_column_and_hive_off(tree):
    table = simdsv.read_csv(str(tree), union_by_name=True, include_path_column="file", hive_partitioning=False)
    got = table.to_arrow().to_pydict()
    assert list(got) == ["id", "price", "note", "extra", "file"]
    assert got["file"] == paths_column(f"{tree}/")
    polars_name = simdsv.read_csv(str(tree), union_by_name=True, include_file_paths="src").column_names
    assert polars_name[-1] == "src"


def test_by_position_names_both_files(tree):
    with pytest.raises(simdsv.Error) as info:
        simdsv.read_csv(str(tree))
    assert str(info.value).startswith(f"{tree}/year=2024/month=6/b.csv: column 4 `extra` of {tree}/")


def test_errors_name_long_paths_whole(tmp_path):
    """Paths longer than the library's 255-byte error message stay whole: a conflict names both files, an error
    inside the second names it with its line and byte."""
    folder = tmp_path.joinpath(*[f"a-folder-name-long-enough-to-matter-{k}" for k in range(7)])
    folder.mkdir(parents=True)
    (folder / "first.csv").write_bytes(b"id,name\n1,x\n")
    (folder / "second.csv").write_bytes(b"id,label\n2,y\n")
    (folder / "ragged.csv").write_bytes(b"id,name\n1,x\n2,y,z\n")
    first, second, ragged = (str(folder / name) for name in ("first.csv", "second.csv", "ragged.csv"))
    with pytest.raises(simdsv.Error) as info:
        simdsv.read_csv([first, second])
    assert str(info.value) == (f"{second}: column 2 is `label` in {second} but `name` in {first} (columns are "
                               "matched by position; match them by name to read both)")
    with pytest.raises(simdsv.Error) as info:
        simdsv.read_csv([first, ragged], union_by_name=True)
    assert str(info.value).startswith(f"{ragged}:3:5: row has 3 fields")
    assert (info.value.line, info.value.byte_offset) == (3, 16)


def test_stream_and_count(tree):
    stream = simdsv.open_csv(str(tree), union_by_name=True, batch_rows=1)
    assert stream.read_all().to_pydict() == EXPECTED
    assert simdsv.count(str(tree)) == 5
    assert simdsv.count([str(tree / "year=2024"), str(tree / "year=2025/month=1/d.csv")]) == 4


def test_buffers_in_a_list():
    table = simdsv.read_csv([b"a,b\n1,x\n", b"a,b\n2.5,y\n"], include_path_column=True)
    assert table.to_arrow().to_pydict() == {"a": [1.0, 2.5], "b": ["x", "y"], "path": ["<buffer 0>", "<buffer 1>"]}


def test_glob_that_matches_nothing(tmp_path):
    with pytest.raises(simdsv.Error, match="no file matches"):
        simdsv.read_csv(str(tmp_path / "*.csv"))
    with pytest.raises(FileNotFoundError, match="no object matches"):
        simdsv.read_csv("memory://simdsv-empty/*.csv")


def test_records_takes_one_input(tree):
    with pytest.raises(TypeError, match="records\\(\\) reads one input"):
        simdsv.records(str(tree))


def test_s3_dataset_equals_the_local_one(tree, s3_data):
    prefix, options = s3_data
    local = simdsv.read_csv(str(tree), union_by_name=True).to_arrow()
    for url in (prefix, prefix + "**/*.csv*", prefix + "year=*/month=*/*"):
        table = simdsv.read_csv(url, union_by_name=True, storage_options=options, include_path_column=True)
        got = table.to_arrow()
        assert got.drop_columns(["path"]).equals(local), url
        assert got.column("path").to_pylist() == paths_column(prefix)
    assert simdsv.count(prefix, storage_options=options) == 5


def test_s3_dataset_ranges_of_every_size(tree, s3_data, monkeypatch):
    """Ranges of 1, 3 and 7 bytes: every quoted line break and doubled quote lies across range edges, and a gzip
    member is split anywhere."""
    from simdsv import _remote

    prefix, options = s3_data
    local = simdsv.read_csv(str(tree), union_by_name=True).to_arrow()
    for block in (1, 3, 7):
        monkeypatch.setattr(_remote, "BLOCK", block)
        got = simdsv.read_csv(prefix, union_by_name=True, storage_options=options, threads=2).to_arrow()
        assert got.equals(local), block
        stream = simdsv.open_csv(prefix, union_by_name=True, storage_options=options, batch_rows=2)
        assert stream.read_all().equals(local), block


def test_http_dataset_equals_the_local_one(tree, http_data):
    local = simdsv.read_csv(str(tree), union_by_name=True).to_arrow()
    got = simdsv.read_csv(http_data + "year=*/month=*/*", union_by_name=True, include_path_column=True)
    assert got.to_arrow().drop_columns(["path"]).equals(local)
    assert got.to_arrow().column("path").to_pylist() == paths_column(http_data)


def test_s3_file_that_disappears_mid_dataset(s3_data, monkeypatch):
    """The last object is deleted once the first has been fetched (one thread: the files are read in order): an
    error naming it, no table."""
    from simdsv import _remote

    prefix, options = s3_data
    fs = None
    original = _remote.RemoteFile.fetch

    def fetch_then_delete(self, start, end):
        nonlocal fs
        out = original(self, start, end)
        if fs is None:
            fs = self.fs
            fs.rm(self.path.replace("year=2024/month=5/a.csv", "year=2025/month=1/d.csv"))
        return out

    monkeypatch.setattr(_remote.RemoteFile, "fetch", fetch_then_delete)
    with pytest.raises(FileNotFoundError, match=f"{prefix}year=2025/month=1/d.csv"):
        simdsv.read_csv(prefix, union_by_name=True, storage_options=options, threads=1)


def test_s3_dataset_wrong_secret_never_shown(s3_data):
    prefix, options = s3_data
    wrong = dict(options, secret="not-the-secret-2a77")
    with pytest.raises(PermissionError) as info:
        simdsv.read_csv(prefix + "**/*.csv", storage_options=wrong)
    assert "not-the-secret-2a77" not in str(info.value) and prefix in str(info.value)


def test_dask_over_the_s3_dataset_equals_the_single_read(s3_data, cluster_client):
    """2 worker processes, no shared disk: blocks of 26 bytes put a block edge inside the quoted line break (the
    header rows must end in the first block); the gzip member is one partition; columns joined by name, hive
    folders and the file name as in read_csv."""
    import pandas as pd

    import simdsv.dask

    prefix, options = s3_data
    assert FILES["year=2024/month=5/a.csv"][:26].count(b'"') == 1
    keywords = dict(union_by_name=True, include_path_column=True, storage_options=options)
    ddf = simdsv.dask.read_csv(prefix + "**/*.csv*", blocksize=26, **keywords)
    got = ddf.compute().reset_index(drop=True)
    single = simdsv.read_csv(prefix, **keywords).to_pandas()
    pd.testing.assert_frame_equal(got, single)
    assert list(got.columns) == list(EXPECTED) + ["path"]
    assert got["note"].tolist() == EXPECTED["note"]
    assert ddf.npartitions > len(FILES)


def test_dask_over_local_files_by_position(tmp_path, cluster_client):
    import pandas as pd

    import simdsv.dask

    rows = [f'{i},"t {i}\nsecond line",{i * 0.5}\n' for i in range(300)]
    for k in range(3):
        (tmp_path / f"part-{k}.csv").write_text("n,text,x\n" + "".join(rows[k * 100:(k + 1) * 100]))
    ddf = simdsv.dask.read_csv(str(tmp_path / "part-*.csv"), blocksize=200, include_path_column="file")
    got = ddf.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, simdsv.read_csv(str(tmp_path), include_path_column="file").to_pandas())
    assert got["n"].tolist() == list(range(300))
    assert got["file"].iloc[150] == str(tmp_path / "part-1.csv")


def test_dask_dataframe_read_csv_differs_on_s3(s3_data, tmp_path, cluster_client):
    """Why simdsv.dask exists, on object storage too: dask.dataframe.read_csv cuts blocks at line breaks inside
    quotes, where simdsv.dask gives the single read."""
    import dask.dataframe as dd
    import pandas as pd

    import simdsv.dask
    from test_dask import BLOCK, quoted_newline_file

    prefix, options = s3_data
    data = quoted_newline_file(tmp_path / "quoted.csv")
    options_fs = remote_fs(options)
    options_fs.pipe(prefix[5:] + "quoted/q.csv", data)
    url = prefix + "quoted/q.csv"
    ours = simdsv.dask.read_csv(url, blocksize=BLOCK, quote='"', storage_options=options).compute()
    pd.testing.assert_frame_equal(ours.reset_index(drop=True),
                                  simdsv.read_csv(str(tmp_path / "quoted.csv"), quote='"').to_pandas())
    try:
        theirs = dd.read_csv(url, blocksize=BLOCK, dtype=str, storage_options=options).compute()
    except Exception as e:  # pandas' ParserError: a block starts or ends inside a quoted field
        assert "EOF inside string" in str(e) or "Error tokenizing" in str(e), e
    else:
        assert len(theirs) != 800 or list(theirs["id"]) != [str(i) for i in range(800)]


def remote_fs(options):
    import s3fs

    return s3fs.S3FileSystem(key=options["key"], secret=options["secret"], client_kwargs=options["client_kwargs"],
                             skip_instance_cache=True)


def _two_hundred_files(root: pathlib.Path) -> list[str]:
    """200 small files of three shapes (one with an extra column, one whose price is float), two gzipped, with
    quoted line breaks: the issue's dataset, small."""
    names = []
    for i in range(200):
        shape = i % 3
        header = "id,price,note" + (",extra" if i == 77 else "")
        rows = []
        for r in range(20):
            price = f"{r}.25" if shape == 1 else str(r)
            note = f'"n{i}.{r}\nsecond, ""line"""' if shape == 2 else f"n{i}.{r}"
            rows.append(f"{i * 100 + r},{price},{note}" + (f",x{r}" if i == 77 else ""))
        data = (header + "\n" + "\n".join(rows) + "\n").encode()
        name = f"part-{i:03d}.csv" + (".gz" if i in (13, 144) else "")
        (root / name).write_bytes(gzip.compress(data, mtime=0) if name.endswith(".gz") else data)
        names.append(name)
    return names


def test_two_hundred_files_local_s3_http_equal_one_by_one(tmp_path, s3_server, http_server):
    import pandas as pd

    local = tmp_path / "many"
    local.mkdir()
    names = _two_hundred_files(local)
    one_by_one = pa.concat_tables([simdsv.read_csv(str(local / n)).to_arrow() for n in names],
                                  promote_options="permissive")
    got = simdsv.read_csv(str(local), union_by_name=True).to_arrow()
    assert got.num_rows == 4000 and got.equals(one_by_one)
    assert got.column("extra").null_count == 3980 and str(got.schema.field("price").type) == "double"

    fs = s3_server.filesystem()
    bucket = f"many-{next(_buckets)}"
    fs.call_s3("create_bucket", Bucket=bucket)
    fs.put(str(local) + "/", f"{bucket}/many/", recursive=True)
    s3 = simdsv.read_csv(f"s3://{bucket}/many/", union_by_name=True, storage_options=s3_server.storage_options)
    assert s3.to_arrow().equals(one_by_one)

    import shutil

    shutil.copytree(local, http_server.root / bucket)
    http = simdsv.read_csv(f"{http_server.url}/{bucket}/part-*", union_by_name=True)
    assert http.to_arrow().equals(one_by_one)
    assert simdsv.count(f"{http_server.url}/{bucket}/part-*") == 4000
    pd.testing.assert_frame_equal(http.to_pandas(), one_by_one.to_pandas())


@pytest.mark.parametrize("block", [1, 5])
def test_http_dataset_ranges_of_every_size(tree, http_data, monkeypatch, block):
    from simdsv import _remote

    monkeypatch.setattr(_remote, "BLOCK", block)
    local = simdsv.read_csv(str(tree), union_by_name=True).to_arrow()
    got = simdsv.read_csv(http_data, union_by_name=True, threads=2)
    assert got.to_arrow().equals(local)


def test_http_basic_auth_in_storage_options_never_shown(http_server):
    import base64

    import remote_servers

    def basic(user: str, password: str) -> dict:
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        return {"headers": {"Authorization": f"Basic {token}"}}

    (http_server.root / "private" / "q.csv").write_bytes(b"a\n1\n")
    url = f"{http_server.url}/private/q.csv"
    good = basic(remote_servers.HTTP_USER, remote_servers.HTTP_PASSWORD)
    assert simdsv.read_csv(url, storage_options=good).to_arrow().to_pydict() == {"a": [1]}
    wrong = basic(remote_servers.HTTP_USER, "wrong-pass-e41c")
    with pytest.raises(OSError) as info:
        simdsv.read_csv(url, storage_options=wrong)
    shown = str(info.value)
    assert "401" in shown and url in shown
    assert "wrong-pass-e41c" not in shown and wrong["headers"]["Authorization"].split()[1] not in shown
