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
