"""Remote storage through fsspec URLs, against real servers: versitygw (S3) and nginx (HTTP, Range requests).

The servers are started once per session on free ports over temporary folders (conftest.py, remote_servers.py).
"""

from __future__ import annotations

import itertools
import pathlib

import pyarrow as pa
import pytest

import simdsv
import remote_servers

_buckets = itertools.count()


@pytest.fixture
def bucket(s3_server):
    """A fresh bucket (name) on the S3 server and an s3fs filesystem to fill it."""
    fs = s3_server.filesystem()
    name = f"test-{next(_buckets)}"
    fs.call_s3("create_bucket", Bucket=name)
    return name, fs


def _quoted_rows(n: int) -> bytes:
    """A header and n rows whose quoted text field holds line breaks, commas and doubled quotes."""
    rows = [b"id,note,value\n"]
    for i in range(n):
        rows.append(b'%d,"line one %d\nline, two ""%d""",%d.5\n' % (i, i, i, i))
    return b"".join(rows)


def test_s3_object_reads_as_the_local_file(bucket, s3_server, tmp_path):
    name, fs = bucket
    data = _quoted_rows(3000)
    fs.pipe(f"{name}/q.csv", data)
    local = tmp_path / "q.csv"
    local.write_bytes(data)
    remote = simdsv.read_csv(f"s3://{name}/q.csv", storage_options=s3_server.storage_options).to_arrow()
    assert remote.equals(simdsv.read_csv(str(local)).to_arrow())
    assert remote.num_rows == 3000
    assert remote.column("note")[2999].as_py() == 'line one 2999\nline, two "2999"'


def test_range_reads_cross_every_block_edge(bucket, s3_server, tmp_path, monkeypatch):
    """Blocks of 7 bytes: every quoted line break and doubled quote sits across some block edge."""
    from simdsv import _remote

    monkeypatch.setattr(_remote, "BLOCK", 7)
    name, fs = bucket
    data = _quoted_rows(40)
    fs.pipe(f"{name}/small.csv", data)
    local = tmp_path / "small.csv"
    local.write_bytes(data)
    remote = simdsv.read_csv(f"s3://{name}/small.csv", storage_options=s3_server.storage_options)
    assert remote.to_arrow().equals(simdsv.read_csv(str(local)).to_arrow())
    stream = simdsv.open_csv(f"s3://{name}/small.csv", storage_options=s3_server.storage_options, batch_rows=16)
    assert stream.read_all().equals(simdsv.read_csv(str(local)).to_arrow())
    assert simdsv.count(f"s3://{name}/small.csv", storage_options=s3_server.storage_options) == 40


def test_http_object_reads_by_ranges(http_server, tmp_path):
    data = _quoted_rows(500)
    (http_server.root / "h.csv").write_bytes(data)
    local = tmp_path / "h.csv"
    local.write_bytes(data)
    table = simdsv.read_csv(f"{http_server.url}/h.csv")
    assert table.to_arrow().equals(simdsv.read_csv(str(local)).to_arrow())
    assert simdsv.count(f"{http_server.url}/h.csv") == 500


def test_memory_url():
    import fsspec

    fs = fsspec.filesystem("memory")
    fs.pipe("/simdsv-test/m.csv", b"a,b\n1,x\n2,y\n")
    table = simdsv.read_csv("memory://simdsv-test/m.csv").to_arrow()
    assert table.to_pydict() == {"a": [1, 2], "b": ["x", "y"]}


def test_file_url_is_a_local_path(tmp_path):
    path = tmp_path / "f.csv"
    path.write_bytes(b"a\n1\n")
    assert simdsv.read_csv(f"file://{path}").to_arrow().to_pydict() == {"a": [1]}


def test_storage_options_need_a_url(tmp_path):
    path = tmp_path / "f.csv"
    path.write_bytes(b"a\n1\n")
    with pytest.raises(ValueError, match="storage_options apply to URLs"):
        simdsv.read_csv(str(path), storage_options={"anon": True})


def test_error_in_remote_data_names_the_url(bucket, s3_server):
    name, fs = bucket
    fs.pipe(f"{name}/bad.csv", b'a,b\n1,2\n3,"open\n')
    with pytest.raises(simdsv.Error) as info:
        simdsv.read_csv(f"s3://{name}/bad.csv", storage_options=s3_server.storage_options, quote='"')
    assert str(info.value).startswith(f"s3://{name}/bad.csv:")
    assert info.value.line == 3


def test_missing_object_is_file_not_found(bucket, s3_server, http_server):
    name, _ = bucket
    with pytest.raises(FileNotFoundError, match=f"s3://{name}/absent.csv"):
        simdsv.read_csv(f"s3://{name}/absent.csv", storage_options=s3_server.storage_options)
    with pytest.raises(FileNotFoundError, match="absent.csv"):
        simdsv.read_csv(f"{http_server.url}/absent.csv")


def test_wrong_s3_secret_never_shown(bucket, s3_server):
    name, fs = bucket
    fs.pipe(f"{name}/a.csv", b"a\n1\n")
    options = s3_server.storage_options
    wrong = "wrong-secret-0d9b44"
    options["secret"] = wrong
    with pytest.raises(PermissionError) as info:
        simdsv.read_csv(f"s3://{name}/a.csv", storage_options=options)
    shown = str(info.value)
    assert f"s3://{name}/a.csv" in shown
    assert wrong not in shown and remote_servers.SECRET_KEY not in shown
    assert info.value.__cause__ is None and info.value.__suppress_context__


def test_http_password_in_url_never_shown(http_server):
    (http_server.root / "private" / "p.csv").write_bytes(b"a\n1\n")
    host = http_server.url.removeprefix("http://")
    good = f"http://{remote_servers.HTTP_USER}:{remote_servers.HTTP_PASSWORD}@{host}/private/p.csv"
    assert simdsv.read_csv(good).to_arrow().to_pydict() == {"a": [1]}
    wrong = "not-the-password-81f2"
    with pytest.raises(OSError) as info:
        simdsv.read_csv(f"http://{remote_servers.HTTP_USER}:{wrong}@{host}/private/p.csv")
    shown = str(info.value)
    assert "401" in shown or "nauthori" in shown
    assert wrong not in shown
    assert f"{remote_servers.HTTP_USER}:***@{host}/private/p.csv" in shown


def test_object_that_shrinks_mid_read_is_an_error(bucket, s3_server, monkeypatch):
    """The object is replaced by a shorter one after the first block was read: an error naming it, no table."""
    from simdsv import _remote

    monkeypatch.setattr(_remote, "BLOCK", 1 << 10)
    monkeypatch.setattr(_remote, "AHEAD", 1)
    name, fs = bucket
    data = _quoted_rows(400)
    fs.pipe(f"{name}/shrinks.csv", data)
    original = _remote.RemoteFile.fetch

    def fetch_then_replace(self, start, end):
        out = original(self, start, end)
        if start == 0:
            fs.pipe(f"{name}/shrinks.csv", data[: len(data) // 2])
        return out

    monkeypatch.setattr(_remote.RemoteFile, "fetch", fetch_then_replace)
    with pytest.raises(OSError, match=f"s3://{name}/shrinks.csv: the object changed while it was read"):
        simdsv.read_csv(f"s3://{name}/shrinks.csv", storage_options=s3_server.storage_options)


def test_object_replaced_by_same_size_other_version_is_an_error(http_server, monkeypatch):
    """Same size, new content (a new modification time): the check at the end refuses the read."""
    from simdsv import _remote

    monkeypatch.setattr(_remote, "BLOCK", 64)
    path = http_server.root / "swap.csv"
    path.write_bytes(_quoted_rows(50))
    seen = []
    original = _remote.RemoteFile.fetch

    def fetch_then_touch(self, start, end):
        out = original(self, start, end)
        if not seen:
            seen.append(start)
            import os

            os.utime(path, (1, 1))  # the object's Last-Modified moves
        return out

    monkeypatch.setattr(_remote.RemoteFile, "fetch", fetch_then_touch)
    with pytest.raises(OSError, match="swap.csv: the object changed while it was read"):
        simdsv.read_csv(f"{http_server.url}/swap.csv")


def test_object_that_disappears_is_an_error(bucket, s3_server, monkeypatch):
    from simdsv import _remote

    monkeypatch.setattr(_remote, "BLOCK", 1 << 10)
    monkeypatch.setattr(_remote, "AHEAD", 1)
    name, fs = bucket
    fs.pipe(f"{name}/gone.csv", _quoted_rows(400))
    original = _remote.RemoteFile.fetch

    def fetch_then_delete(self, start, end):
        out = original(self, start, end)
        if start == 0:
            fs.rm(f"{name}/gone.csv")
        return out

    monkeypatch.setattr(_remote.RemoteFile, "fetch", fetch_then_delete)
    with pytest.raises(FileNotFoundError, match=f"s3://{name}/gone.csv"):
        simdsv.read_csv(f"s3://{name}/gone.csv", storage_options=s3_server.storage_options)


def test_servers_honour_ranges(bucket, http_server):
    """The fixtures' servers are what the tests above rely on: partial content."""
    import urllib.request

    name, fs = bucket
    fs.pipe(f"{name}/r.csv", b"0123456789")
    assert fs.cat_file(f"{name}/r.csv", start=3, end=6) == b"345"
    (http_server.root / "r.csv").write_bytes(b"0123456789")
    request = urllib.request.Request(f"{http_server.url}/r.csv", headers={"Range": "bytes=3-5"})
    with urllib.request.urlopen(request) as response:
        assert response.status == 206 and response.read() == b"345"


def test_core_package_needs_no_fsspec_for_local_reads(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "f.csv"
    path.write_bytes(b"a\n1\n")
    code = ("import sys; sys.modules['fsspec'] = None; import simdsv; "
            f"print(simdsv.read_csv({str(path)!r}).num_rows); "
            "\ntry:\n    simdsv.read_csv('s3://b/k.csv')\nexcept ImportError as e:\n    print(e)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[0] == "1"
    assert "needs the fsspec package" in out.splitlines()[1]


def test_dask_over_s3_equals_the_single_read(bucket, s3_server, tmp_path, cluster_client):
    """2 worker processes without the file: each task reads its own ranges from the S3 server.  Every block
    boundary falls inside a quoted field with line breaks."""
    import pandas as pd

    import simdsv.dask
    from test_dask import BLOCK, quoted_newline_file

    name, fs = bucket
    local = tmp_path / "quoted.csv"
    data = quoted_newline_file(local, rows=400)
    assert len(range(BLOCK, len(data), BLOCK)) >= 4
    assert all(data[:b].count(b'"') % 2 == 1 for b in range(BLOCK, len(data), BLOCK))
    fs.pipe(f"{name}/quoted.csv", data)
    ddf = simdsv.dask.read_csv(f"s3://{name}/quoted.csv", blocksize=BLOCK, quote='"',
                               storage_options=s3_server.storage_options)
    assert ddf.npartitions == len(range(BLOCK, len(data), BLOCK)) + 1
    got = ddf.compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, simdsv.read_csv(str(local), quote='"').to_pandas())
    assert len(got) == 400


def test_dask_over_http_detects_once(http_server, tmp_path, cluster_client):
    import pandas as pd

    import simdsv.dask

    rows = "".join(f"{i};{i * 0.5};2024-01-{i % 28 + 1:02d};s{i}\n" for i in range(20000))
    data = ("n;x;day;s\n" + rows).encode()
    (http_server.root / "semi.csv").write_bytes(data)
    (tmp_path / "semi.csv").write_bytes(data)
    got = simdsv.dask.read_csv(f"{http_server.url}/semi.csv", blocksize=64 << 10).compute().reset_index(drop=True)
    pd.testing.assert_frame_equal(got, simdsv.read_csv(str(tmp_path / "semi.csv")).to_pandas())
    assert list(got.columns) == ["n", "x", "day", "s"]


def test_dask_over_s3_object_that_shrinks(bucket, s3_server, cluster_client):
    import simdsv.dask

    name, fs = bucket
    data = _quoted_rows(4000)
    fs.pipe(f"{name}/shrinking.csv", data)
    ddf = simdsv.dask.read_csv(f"s3://{name}/shrinking.csv", blocksize=32 << 10,
                               storage_options=s3_server.storage_options)
    fs.pipe(f"{name}/shrinking.csv", data[: len(data) // 3])
    with pytest.raises(OSError, match=f"s3://{name}/shrinking.csv: the object changed while it was read"):
        ddf.compute()
