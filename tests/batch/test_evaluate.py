"""``evaluate(policy, games, ...)`` (docs/BATCH.md "evaluate"): a NumPy policy played
over the deals that ``simulate`` plays, with the Stats that ``simulate`` returns, its
checks of the policy's output, progress and callbacks, in both engines."""

from __future__ import annotations

import re

import numpy as np
import pytest

import acesup.progress

from helpers import load_engine


def first_legal(observation, action_mask):
    """The first legal action of each row: with the forced discards played for it,
    what the callable ``first_move`` plays in simulate."""
    return action_mask.argmax(axis=1)


def first_move(game):
    return game.legal_moves()[0]


def simple_policy(engine, rules=None):
    """The built-in "simple" as a NumPy policy (BATCH.md's example "simple"), from the
    observation and the mask alone."""
    batch = engine.Batch(1, rules)
    moves = [batch.action_to_move(a) for a in range(batch.num_actions)]
    fill = np.array([m.kind == "fill" for m in moves])
    src, dst, index = (np.array([getattr(m, name) if m.kind == "fill" else -1 for m in moves])
                       for name in ("src", "dst", "index"))
    p, h, deal = batch.piles, batch.max_height, batch.num_actions - 1

    def simple(observation, action_mask):
        heights = (observation[:, :p * h].reshape(-1, p, h) >= 0).sum(axis=2)
        real = action_mask & fill & (heights[:, np.maximum(src, 0)] >= 2)
        top = real & (index == 0)
        key = np.where(top, dst * p + src, np.iinfo(np.int64).max)
        last = np.where(action_mask[:, -1], deal, real.argmax(axis=1))
        return np.where(top.any(axis=1), key.argmin(axis=1), last)

    return simple


def games_for(engine, native):
    return native if engine.__name__ == "acesup" else native // 10


@pytest.mark.parametrize("batch", [1, 7, 64, 100_000])
def test_a_policy_that_plays_as_simple_scores_as_simple_deal_by_deal(engine, batch):
    """The deals are simulate's: the built-in "simple" written as a NumPy policy gets
    every game's score that simulate's "simple" gets, whatever the batch size, and the
    Stats name the policy, the rules and the seed as simulate's do."""
    games = games_for(engine, 3_000)
    rules = engine.Rules(fill="ace", deal="stuck")
    policy = simple_policy(engine, rules)
    stats = engine.evaluate(policy, games, rules=rules, seed=11, start=40, batch=batch, scores=True)
    played = engine.simulate(games, "simple", rules, 11, start=40, scores=True)
    assert stats == played and np.array_equal(stats.scores, played.scores)
    assert (stats.strategy, stats.rules, stats.seed) == ("simple_policy.<locals>.simple", played.rules, 11)


def test_first_legal_is_the_callable_s_first_move(engine):
    games = games_for(engine, 2_000)
    stats = engine.evaluate(first_legal, games, seed=3)
    assert stats == engine.simulate(games, first_move, seed=3)
    assert stats.scores is None and stats.strategy == "first_legal"


def test_a_policy_may_return_what_numpy_makes_an_integer_array_of(engine):
    """A list, or another integer dtype (a torch tensor's ``.numpy()`` is int64)."""
    games = games_for(engine, 500)
    expected = engine.evaluate(first_legal, games, seed=6)
    for policy in (lambda o, m: m.argmax(axis=1).tolist(), lambda o, m: m.argmax(axis=1).astype(np.uint8)):
        assert engine.evaluate(policy, games, seed=6) == expected


def test_compare_pairs_a_policy_with_the_built_ins_on_the_same_deals(engine):
    games = games_for(engine, 2_000)
    policy = simple_policy(engine)
    stats = {"numpy simple": engine.evaluate(policy, games, seed=5, scores=True)}
    stats |= engine.compare(["simple", "greedy"], games, seed=5).stats
    comparison = engine.Comparison.from_stats(stats)
    same = comparison.pairs[0]
    assert (same.a, same.b, same.games, same.wins_a_only, same.wins_b_only) == ("numpy simple", "simple", games,
                                                                                0, 0)
    assert same.mean_score_diff == 0


def test_the_policy_sees_only_the_games_still_played(engine):
    """As the run ends its slots go idle; the policy gets the rows of the others
    only, never a row without a legal action, and always arrays of its own that it
    may write (torch warns on read-only ones), as the Batch's are."""
    sizes = []

    def policy(observation, action_mask):
        assert action_mask.any(axis=1).all()
        assert len(observation) == len(action_mask)
        assert observation.flags.writeable and action_mask.flags.writeable
        sizes.append(len(action_mask))
        return first_legal(observation, action_mask)

    stats = engine.evaluate(policy, 40, seed=2, batch=16, scores=True)
    assert stats == engine.simulate(40, first_move, seed=2, scores=True)
    assert sizes[0] == 16 and sizes[-1] < 16 and all(a >= b for a, b in zip(sizes, sizes[1:]))


def test_no_games(engine):
    stats = engine.evaluate(first_legal, 0, seed=4, start=2**64, scores=True)
    assert stats.games == 0 and len(stats.scores) == 0
    assert (stats.strategy, stats.seed) == ("first_legal", 4)


@pytest.fixture
def every_step_reported(monkeypatch):
    """No least time between two reports: each step that finishes games is reported."""
    monkeypatch.setattr(acesup.progress, "INTERVAL", 0.0)


def test_callback_and_progress(engine, capsys, every_step_reported):
    """``callback(done, total)`` as games finish, ``done`` rising to ``total``;
    ``progress=True`` draws a bar on stderr."""
    calls = []
    engine.evaluate(first_legal, 60, batch=8, callback=lambda done, total: calls.append((done, total)),
                    progress=True)
    assert calls[-1] == (60, 60) and all(total == 60 for _, total in calls)
    done = [d for d, _ in calls]
    assert done == sorted(set(done)) and len(done) > 5
    assert "100%" in capsys.readouterr().err


def test_a_callback_s_exception_stops_the_run(engine, every_step_reported):
    calls = []

    def stop(done, total):
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        engine.evaluate(first_legal, 500, batch=4, callback=stop)
    assert len(calls) == 2


@pytest.mark.parametrize("returns, error, text", [
    (lambda o, m: m.argmax(axis=1).astype(float), TypeError,
     "the policy must return an array of integer actions, got dtype float64"),
    (lambda o, m: None, TypeError, "the policy must return an array of integer actions, got dtype object (NoneType)"),
    (lambda o, m: m.argmax(axis=1) > 0, TypeError, "got dtype bool"),
    (lambda o, m: m.argmax(axis=1)[:, None], ValueError,
     "the policy must return one action for each of the 4 rows of the observation, shape (4,), got shape (4, 1)"),
    (lambda o, m: m.argmax(axis=1)[:3], ValueError, "got shape (3,)"),
    (lambda o, m: np.full(len(m), 17), ValueError,
     "the policy returned action 17 for row 0 (game 9): actions are 0 to 16"),
    (lambda o, m: np.arange(len(m)) - 1, ValueError,
     "the policy returned action -1 for row 0 (game 9): actions are 0 to 16"),
    (lambda o, m: np.full(len(m), 4), "IllegalMoveError", "the policy chose action 4 (f0>1) for row 0 (game 9): "),
])
def test_what_the_policy_returns_is_checked(engine, returns, error, text):
    error = getattr(engine, error) if isinstance(error, str) else error
    with pytest.raises(error) as info:
        engine.evaluate(returns, 8, seed=1, start=9, batch=4)
    assert text in str(info.value)


@pytest.mark.parametrize("kwargs, error, text", [
    (dict(policy=3), TypeError, "policy must be a callable policy(observation, action_mask) -> actions, got int"),
    (dict(games=-1), ValueError, "games must be a non-negative int, got -1"),
    (dict(games=2.0), TypeError, "games must be a non-negative int, got float"),
    (dict(batch=0), ValueError, "batch must be a positive int, got 0"),
    (dict(seed=2**64), ValueError, "seed must be an int in [0, 2**64), got 18446744073709551616"),
    (dict(start=2**64 - 1), ValueError, "start + games must be at most 2**64"),
    (dict(scores=1), TypeError, "scores must be True or False, got int"),
    (dict(progress="yes"), TypeError, "progress must be True or False, got str"),
    (dict(callback=5), TypeError, "callback must be None or a callable callback(done, total), got int"),
])
def test_arguments_are_checked_before_any_game(engine, kwargs, error, text):
    calls = []

    def policy(observation, action_mask):
        calls.append(1)
        return first_legal(observation, action_mask)

    arguments = dict(policy=policy, games=10) | kwargs
    with pytest.raises(error) as info:
        engine.evaluate(arguments.pop("policy"), arguments.pop("games"), **arguments)
    assert str(info.value).startswith(text) and not calls


def test_the_engines_agree_on_results_and_errors():
    native, reference = load_engine("native"), load_engine("reference")
    rules = dict(fill="any", piles=5)
    results = [e.evaluate(simple_policy(e, e.Rules(**rules)), 150, rules=e.Rules(**rules), seed=8, batch=32,
                          scores=True) for e in (native, reference)]
    assert results[0] == results[1] and str(results[0]) == str(results[1])
    for policy in (lambda o, m: np.full(len(m), 4), lambda o, m: np.ones((len(m), 2), int)):
        errors = []
        for e in (native, reference):
            with pytest.raises((ValueError, TypeError)) as info:
                e.evaluate(policy, 5, seed=1, batch=5)
            errors.append((type(info.value), str(info.value)))
        assert errors[0] == errors[1]
