"""acesup.distributed: runs spread over a Dask cluster equal the local runs,
whatever the number of workers and shards. The cluster is a real local one,
two worker processes of one thread each, so the tasks and their results do
travel by pickle as they would to a remote machine."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
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


def first_legal(observation, action_mask):
    return action_mask.argmax(axis=1)


@pytest.mark.parametrize("shards", [None, 1, 5])
def test_evaluate_equals_the_local_call(client, shards):
    rules = acesup.Rules(fill="ace", deal="stuck")
    local = acesup.evaluate(first_legal, 3_000, rules=rules, seed=9, start=20, batch=256, scores=True)
    remote = distributed.evaluate(client, first_legal, 3_000, rules=rules, seed=9, start=20, batch=256, scores=True,
                                  shards=shards)
    assert remote == local and np.array_equal(remote.scores, local.scores)
    assert (remote.strategy, remote.rules, remote.seed) == (local.strategy, local.rules, local.seed)


def test_evaluate_takes_a_policy_by_value_and_raises_what_it_raises(client):
    """A lambda travels by value; a policy's bad actions raise on the client, in
    the local call's words; a bad argument raises before any task."""
    local = acesup.evaluate(lambda o, m: m.argmax(axis=1), 200, seed=1)
    assert distributed.evaluate(client, lambda o, m: m.argmax(axis=1), 200, seed=1, shards=3) == local
    assert distributed.evaluate(client, first_legal, 0, seed=1) == acesup.evaluate(first_legal, 0, seed=1)
    with pytest.raises(acesup.IllegalMoveError, match=r"^the policy chose action 4 \(f0>1\) for row 0 \(game 0\)"):
        distributed.evaluate(client, lambda o, m: np.full(len(m), 4), 50, shards=2)
    with pytest.raises(TypeError, match="^policy must be a callable"):
        distributed.evaluate(client, None, 50)
    with pytest.raises(ValueError, match="^batch must be a positive int"):
        distributed.evaluate(client, first_legal, 50, batch=0)


@pytest.mark.parametrize("numbers", [range(1, 41), [17, 3, 3, 40_000, 12], range(60, 20, -3), []])
def test_solve_deals_equals_the_local_call(client, numbers):
    local = list(acesup.solve_deals("kpat", numbers, node_limit=20_000))
    remote = distributed.solve_deals(client, "kpat", iter(numbers) if isinstance(numbers, list) else numbers,
                                     node_limit=20_000, shards=3)
    assert list(remote) == local


def test_solve_deals_checks_every_argument_before_any_task(client):
    with pytest.raises(ValueError):
        distributed.solve_deals(client, "freecell", range(1, 5))
    with pytest.raises(ValueError):
        distributed.solve_deals(client, "kpat", [1, 0])
    with pytest.raises(TypeError):
        distributed.solve_deals(client, "kpat", [1, 2.0])
    with pytest.raises(ValueError):
        distributed.solve_deals(client, "pysol", range(1, 5), node_limit=0)
    with pytest.raises(ValueError):
        distributed.solve_deals(client, "kpat", range(1, 5), shards=0)


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
