"""acesup.distributed: runs spread over a Dask cluster equal the local runs,
whatever the number of workers and shards. The cluster is a real local one,
two worker processes of one thread each, so the tasks and their results do
travel by pickle as they would to a remote machine."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

import acesup
from acesup import distributed
from helpers import ROOT

dask_distributed = pytest.importorskip("dask.distributed")


@pytest.fixture(scope="module")
def client():
    with dask_distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None) as cluster, dask_distributed.Client(cluster) as client:
        yield client


@pytest.mark.parametrize("shards", [None, 1, 3, 7])
def test_simulate_equals_the_local_call(client, shards):
    rules = acesup.Rules(fill="any", deal="stuck")
    local = acesup.simulate(2_000, "greedy", rules, seed=11, start=50)
    assert distributed.simulate(client, 2_000, "greedy", rules, seed=11, start=50, shards=shards) == local


def test_more_shards_than_games_and_no_games(client):
    assert distributed.simulate(client, 3, seed=4, shards=10) == acesup.simulate(3, seed=4)
    assert distributed.simulate(client, 0, seed=4) == acesup.Stats.empty()


def test_solvability_equals_the_local_call(client):
    local = acesup.solvability(40, acesup.Rules.easy(), seed=2, start=7, node_limit=5_000)
    remote = distributed.solvability(client, 40, acesup.Rules.easy(), seed=2, start=7, shards=3, node_limit=5_000)
    assert remote == local
    assert (remote.winnable, remote.unwinnable, remote.unresolved) == (local.winnable, local.unwinnable,
                                                                        local.unresolved)


def test_bad_arguments_raise_before_any_task(client):
    with pytest.raises(acesup.StrategyError):
        distributed.simulate(client, 10, "clever")
    with pytest.raises(ValueError):
        distributed.simulate(client, -1)
    with pytest.raises(ValueError):
        distributed.simulate(client, 10, shards=0)
    with pytest.raises(TypeError):
        distributed.simulate(client, 10, shards=2.0)
    with pytest.raises(ValueError):
        distributed.simulate(client, 2, start=2**64 - 1)
    with pytest.raises(ValueError):
        distributed.solvability(client, 10, node_limit=0)


@pytest.mark.parametrize("games", [-1, 2.0, True])
def test_a_bad_number_of_games_is_refused_in_the_engine_s_words(client, games):
    with pytest.raises((TypeError, ValueError)) as local:
        acesup.simulate(games)
    with pytest.raises(type(local.value), match=f"^{re.escape(str(local.value))}$"):
        distributed.simulate(client, games)


def test_shards_cover_the_games_in_order():
    assert distributed._shard_ranges(10, 5, 3) == [(5, 4), (9, 3), (12, 3)]
    assert distributed._shard_ranges(2, 0, 5) == [(0, 1), (1, 1)]
    assert distributed._shard_ranges(0, 0, 5) == []


def test_the_documented_example_runs_as_a_script(tmp_path):
    """docs/DISTRIBUTED.md's first example, pasted into a file and run: a local
    cluster starts worker processes that import the script again, which only its
    ``if __name__ == "__main__":`` guard makes work."""
    doc = (ROOT / "docs" / "DISTRIBUTED.md").read_text(encoding="utf-8")
    example = re.search(r"```python\n(.*?)```", doc, flags=re.S)[1]
    assert 'if __name__ == "__main__":' in example
    script = tmp_path / "example.py"
    script.write_text(example, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert str(acesup.simulate(10**6, "greedy", acesup.Rules.strict(), seed=7)) in done.stdout


@pytest.mark.parametrize("shards", [None, 1, 3])
@pytest.mark.parametrize("value", ["zero", "strong"])
def test_upper_bound_equals_the_local_call(client, shards, value):
    rules = acesup.Rules()
    local = acesup.upper_bound(12, rules=rules, seed=4, start=30, value=value, samples=8)
    remote = distributed.upper_bound(client, 12, rules=rules, seed=4, start=30, value=value, samples=8, shards=shards)
    assert remote == local
    assert remote.values == local.values and remote.ci95 == local.ci95


def test_upper_bound_s_bad_arguments_raise_before_any_task(client):
    with pytest.raises(ValueError, match="value must be one of"):
        distributed.upper_bound(client, 10, value="clever")
    with pytest.raises(ValueError, match="shards"):
        distributed.upper_bound(client, 10, shards=0)
