"""Shared fixtures: the repository's corpora and a 2-process Dask cluster."""

from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFORMANCE = ROOT / "tests" / "conformance"
REAL = ROOT.parent / "shared" / "datasets" / "real"


@pytest.fixture(scope="session")
def cluster_client():
    """A distributed.LocalCluster with 2 worker processes (one thread each)."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            yield client


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """A versitygw S3 server on a free port over a temporary folder (remote_servers.py); stopped after."""
    import remote_servers

    server = remote_servers.start_s3(tmp_path_factory.mktemp("s3"))
    yield server
    remote_servers.stop(server)


@pytest.fixture(scope="session")
def http_server(tmp_path_factory):
    """An nginx server of a temporary folder (Range requests; /private/ behind basic authentication)."""
    import remote_servers

    server = remote_servers.start_http(tmp_path_factory.mktemp("http"))
    yield server
    remote_servers.stop(server)
