"""Differential tests: the native engine (``acesup``) against the reference engine
(``acesup.reference``). Objects of the two engines are different classes, so they are
compared by their text forms and histograms, never with ``==``.

These tests need both engines; they are not parametrized by ``engine``.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import (assert_same, load_engine, paths, play_in_lockstep, rule_options, rules_text, seeds, walk,
                     wellformed_moves)


@pytest.fixture(scope="module")
def native():
    return load_engine("native")


@pytest.fixture(scope="module")
def ref():
    return load_engine("reference")


@given(seed=seeds, options=rule_options, path=paths)
def test_lockstep_from_seed(native, ref, seed, options, path):
    a = native.Game.from_seed(seed, native.Rules(**options))
    b = ref.Game.from_seed(seed, ref.Rules(**options))
    play_in_lockstep(native, a, ref, b, path, wellformed_moves)


@given(seed=seeds, options=rule_options, path=paths)
def test_lockstep_from_text(native, ref, seed, options, path):
    """Positions written by one engine load in the other and play on identically."""
    full = ref.Game.from_seed(seed, ref.Rules(**options))
    for _ in walk(full, path):
        pass
    moves = [str(m) for m in full.history]
    half = len(moves) // 2
    b = ref.Game.from_seed(seed, ref.Rules(**options))
    for move in moves[:half]:
        b.play(move)
    a = native.Game.from_str(b.to_str(), seed=seed)
    b2 = ref.Game.from_str(a.to_str(), seed=seed)
    assert_same(a, b2)
    for move in moves[half:]:
        a.play(move)
        b2.play(move)
        assert_same(a, b2)
    assert a.to_str() == full.to_str()


@given(seed=seeds, n=st.integers(min_value=1, max_value=2**64 - 1))
def test_rng_agrees(native, ref, seed, n):
    ra, rb = native.Rng(seed), ref.Rng(seed)
    assert [ra.below(n) for _ in range(4)] == [rb.below(n) for _ in range(4)]
    assert [ra.next_u64() for _ in range(4)] == [rb.next_u64() for _ in range(4)]
    assert ra.state == rb.state
    assert native.game_seed(seed, n % 10**6) == ref.game_seed(seed, n % 10**6)
    assert [str(c) for c in native.deck_from_seed(seed)] == [str(c) for c in ref.deck_from_seed(seed)]


@pytest.mark.parametrize("options", [
    {}, {"fill": "ace"}, {"fill": "any"}, {"ace_high": False}, {"relocate_single": True},
])
def test_texts_agree(native, ref, options):
    assert str(native.Rules(**options)) == str(ref.Rules(**options))
    assert repr(native.Rules(**options)) == repr(ref.Rules(**options))
    for text in ("d2", "f2>0", "f2:3>0", "deal"):
        assert repr(native.Move.parse(text)) == repr(ref.Move.parse(text))
    for i in range(52):
        c, d = native.Card.from_index(i), ref.Card.from_index(i)
        assert (str(c), repr(c), format(c, "u")) == (str(d), repr(d), format(d, "u"))


# --- simulate: same seed, strategy and rules give the same histogram --------------------

SIM_CASES = [
    ("standard", {}, 10_000),
    ("strict", {"fill": "ace"}, 2_000),
    ("easy", {"fill": "any"}, 2_000),
    ("reverse", {"ace_high": False}, 2_000),
    ("stuck", {"deal": "stuck"}, 2_000),
    ("relocate_single", {"relocate_single": True}, 2_000),
]


@pytest.mark.parametrize("name, options, games", SIM_CASES, ids=[c[0] for c in SIM_CASES])
def test_simulate_agrees(native, ref, name, options, games):
    seed = 31337
    a = native.simulate(games, seed=seed, rules=native.Rules(**options))
    b = ref.simulate(games, seed=seed, rules=ref.Rules(**options))
    assert a.histogram == b.histogram
    assert a.games == b.games == games
    assert (a.wins, a.win_rate, a.mean_score, a.ci95) == (b.wins, b.win_rate, b.mean_score, b.ci95)
    assert repr(a) == repr(b) and str(a) == str(b)


def test_simulate_agrees_with_a_callable_strategy(native, ref):
    def last(game):
        return game.legal_moves()[-1]

    for options in ({}, {"fill": "any", "deal": "stuck"}):
        a = native.simulate(200, strategy=last, seed=4, rules=native.Rules(**options))
        b = ref.simulate(200, strategy=last, seed=4, rules=ref.Rules(**options))
        assert a.histogram == b.histogram


@pytest.mark.parametrize("options", [{}, {"fill": "any", "deal": "stuck", "relocate_single": True}],
                         ids=lambda o: rules_text(**o))
def test_native_threads_and_shards(native, options):
    rules = native.Rules(**options)
    one = native.simulate(3_000, seed=99, rules=rules, threads=1)
    assert native.simulate(3_000, seed=99, rules=rules, threads=2) == one
    assert native.simulate(3_000, seed=99, rules=rules) == one
    shards = [native.simulate(1_000, seed=99, rules=rules, start=k, threads=2) for k in (0, 1_000, 2_000)]
    assert shards[0] + shards[1] + shards[2] == one
    uneven = native.simulate(1, seed=99, rules=rules, start=0) + native.simulate(2_999, seed=99, rules=rules, start=1)
    assert uneven == one


STRATEGY_CASES = [
    ("noop", {}, 1_000),
    ("simple", {}, 1_000),
    ("greedy", {}, 500),
    ("greedy", {"fill": "ace", "ace_high": False}, 300),
    ("lookahead", {}, 200),
    ("lookahead", {"fill": "any", "deal": "stuck"}, 100),
    ("montecarlo:playouts=2,policy=simple", {}, 5),
    ("montecarlo:playouts=3", {"fill": "any"}, 3),
]


@pytest.mark.parametrize("strategy, options, games", STRATEGY_CASES,
                         ids=[f"{c[0]}-{rules_text(**c[1])}" for c in STRATEGY_CASES])
def test_builtin_strategies_agree(native, ref, strategy, options, games):
    a = native.simulate(games, strategy, native.Rules(**options), 777, scores=True)
    b = ref.simulate(games, strategy, ref.Rules(**options), 777, scores=True)
    assert a.histogram == b.histogram
    assert a.scores.tolist() == b.scores.tolist()
