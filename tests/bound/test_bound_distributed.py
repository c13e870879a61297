"""acesup.distributed.upper_bound: the bound sharded over a Dask cluster (two
worker processes) equals the local run, per-game values included."""

from __future__ import annotations

import pytest

import acesup
from acesup import distributed

dask_distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    with dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None) as cluster, dask_distributed.Client(cluster) as client:
        yield client


@pytest.mark.parametrize("shards", [None, 1, 3])
@pytest.mark.parametrize("value", ["zero", "strong"])
def test_upper_bound_equals_the_local_call(client, shards, value):
    rules = acesup.Rules()
    local = acesup.upper_bound(12, rules=rules, seed=4, start=30, value=value, samples=8)
    remote = distributed.upper_bound(client, 12, rules=rules, seed=4, start=30, value=value, samples=8, shards=shards)
    assert remote == local
    assert remote.values == local.values and remote.ci95 == local.ci95


def test_bad_arguments_raise_before_any_task(client):
    with pytest.raises(ValueError, match="value must be one of"):
        distributed.upper_bound(client, 10, value="clever")
    with pytest.raises(ValueError, match="shards"):
        distributed.upper_bound(client, 10, shards=0)
