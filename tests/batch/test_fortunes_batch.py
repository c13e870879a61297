"""Batch, the Gymnasium environment and the OpenSpiel game under ``fill="stack"``
(PySolFC's Fortunes; docs/BATCH.md: K = H fill indices, action index i moving the
card at index i and those above it)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import engines_with, family_rules, load_engine
from test_batch import check_slots, check_the_same_arrays_step_by_step, random_legal

ENGINES_WITH_BATCH = engines_with("Batch")
STACK_RULES = ["pysol_fortunes", "fill=stack", "fill=stack,piles=5,suits=3,ranks=6,deal_to=empty"]


@pytest.mark.parametrize("name", ENGINES_WITH_BATCH)
@pytest.mark.parametrize("rules", STACK_RULES)
def test_a_fortunes_batch_shows_its_games(name, rules):
    engine = load_engine(name)
    batch = engine.Batch(3, engine.Rules.parse(rules), seed=5, games=8, scores=True)
    rng = np.random.default_rng(5)
    steps = 0
    while not batch.done and steps < 3000:
        check_slots(engine, batch)
        batch.step(random_legal(rng, batch.action_mask))
        steps += 1
    assert batch.done


def test_the_standard_fortunes_action_space():
    import acesup
    batch = acesup.Batch(1, acesup.Rules.pysol_fortunes())
    # P + P (P - 1) K + 1 with K = H = 13, as under fill="any".
    assert batch.num_actions == 4 + 12 * 13 + 1 == 161
    assert batch.max_height == 13


@pytest.mark.skipif(len(ENGINES_WITH_BATCH) < 2, reason="only one engine has a Batch so far")
@settings(max_examples=30)
@given(options=family_rules.map(lambda o: {**o, "fill": "stack"}), n=st.integers(1, 6), extra=st.integers(0, 8),
       seed=st.integers(0, 2**64 - 1), auto=st.booleans(), record=st.booleans(), choice=st.integers(0, 2**32))
def test_the_engines_batches_agree_under_stacks(options, n, extra, seed, auto, record, choice):
    check_the_same_arrays_step_by_step(options, n, extra, seed, 0, auto, record, choice)


@pytest.mark.parametrize("engine", ["native", "reference"])
def test_gymnasium_checks_the_fortunes_env(engine):
    gymnasium = pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    import acesup.gym
    env = gymnasium.make(acesup.gym.ENV_ID, rules="pysol_fortunes", engine=engine)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


def test_openspiel_plays_stacks_and_refuses_pysol_fortunes():
    pyspiel = pytest.importorskip("pyspiel")
    import acesup.openspiel  # noqa: F401 - registers python_acesup
    game = pyspiel.load_game("python_acesup", {"rules": "fill=stack"})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    # Fortunes moves lone cards and whole piles back and forth while the stock lasts.
    with pytest.raises(Exception, match="relocate_single"):
        pyspiel.load_game("python_acesup", {"rules": "pysol_fortunes"})
