"""The certified upper bound on the optimum without clairvoyance (docs/BOUND.md):
``upper_bound`` in both engines, checked where the truth is known.

- The property: over every order of a small deck, the mean of the clairvoyant's
  best (won - penalties) is at least ``optimal(rules)`` for ANY value function W
  (here W pseudo-random, exact fractions), and equal to it, deck by deck, for the
  exact W. Over all orders there is no sampling error, so the inequality is exact.
- W = 0 gives the clairvoyant share, game by game (the solver's verdicts).
- The seeded API: with the exact W the bound equals the optimum exactly; the engines
  agree on every W they share, sampled expectations included.
"""

from __future__ import annotations

import hashlib
from functools import cache
from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import acesup
import acesup.reference as ref
from acesup.reference.bound import InnerSearch, Piles, _value_function
from acesup.reference.cards import Card

# Layouts of at most 6 cards (720 stock orders), with and without an optimum below 1.
SMALL = [
    "strict,suits=2,ranks=3",
    "strict,suits=3,ranks=2",
    "strict,suits=2,ranks=3,piles=5",
    "strict,suits=1,ranks=6,deal=any",
    "strict,suits=3,ranks=2,deal=stuck",
    "strict,suits=1,ranks=5,deal=any",
    "suits=2,ranks=3,deal_to=empty",
    "easy,suits=3,ranks=2,deal=any",
    "reverse,suits=2,ranks=3,deal=stuck",
]


def pseudo_random_w(seed: int):
    """A W with no structure: a fraction in [0, 1] from a hash of the visible
    position and ``seed`` (remembered, for the search asks it of the same
    positions again on every stock order)."""

    @cache
    def w(piles: Piles, unseen: frozenset[Card]) -> Fraction:
        text = f"{seed}|{piles}|{sorted(unseen)}".encode()
        return Fraction(int.from_bytes(hashlib.sha256(text).digest()[:4], "big") % 1001, 1000)

    return w


def mean_over_every_order(rules: ref.Rules, w) -> Fraction:
    """The exact expectation over the stock orders of the inner maximum, every
    expectation exact."""
    decks = list(permutations(rules.deck()))
    return sum((InnerSearch(rules, w, [], None).root(list(deck)) for deck in decks), Fraction(0)) / len(decks)


@settings(max_examples=12, deadline=None)
@given(layout=st.sampled_from(SMALL), w_seed=st.integers(0, 2**32))
def test_the_bound_is_at_least_the_optimum_for_any_w(layout, w_seed):
    rules = ref.Rules.parse(layout)
    assert mean_over_every_order(rules, pseudo_random_w(w_seed)) >= ref.optimal(rules)


@pytest.mark.parametrize("layout", SMALL)
def test_the_exact_w_gives_the_optimum_on_every_stock_order(layout):
    rules = ref.Rules.parse(layout)
    optimum = ref.optimal(rules)
    w = _value_function("exact", rules)
    for deck in permutations(rules.deck()):
        assert InnerSearch(rules, w, [], None).root(list(deck)) == optimum


@pytest.mark.parametrize("layout", ["suits=4,ranks=2", "strict,suits=4,ranks=2,deal=stuck",
                                    "suits=4,ranks=2,deal_to=empty", "easy,suits=4,ranks=2,deal=any"])
def test_the_seeded_bound_with_the_exact_w_is_the_optimum(layout):
    rules = ref.Rules.parse(layout)
    bound = ref.upper_bound(12, rules=rules, seed=3, value="exact", samples=None)
    assert bound.exact == ref.optimal(rules) == acesup.optimal(acesup.Rules.parse(layout))
    assert bound.ci95 == (bound.mean, bound.mean)


@pytest.mark.parametrize("layout", ["suits=4,ranks=2", "suits=4,ranks=3,deal=stuck", "suits=4,ranks=3"])
def test_w_zero_is_the_clairvoyant_share_game_by_game(engine, layout):
    rules = engine.Rules.parse(layout)
    bound = engine.upper_bound(40, rules=rules, seed=5, value="zero")
    verdicts = [engine.solve(engine.Game.from_seed(engine.game_seed(5, i), rules)).winnable for i in range(40)]
    assert bound.values == tuple(Fraction(int(v)) for v in verdicts)
    assert bound.exact == Fraction(sum(verdicts), 40)


@pytest.mark.parametrize("layout", ["suits=4,ranks=3", "suits=4,ranks=3,deal=stuck", "suits=4,ranks=3,deal_to=empty",
                                    "strict,suits=4,ranks=3", "easy,suits=4,ranks=3"])
@pytest.mark.parametrize("samples", [None, 3, 64])
def test_the_engines_agree(layout, samples):
    value = "features" if samples != 3 else "zero"
    native = acesup.upper_bound(30, rules=acesup.Rules.parse(layout), seed=2, value=value, samples=samples,
                                threads=2)
    reference = ref.upper_bound(30, rules=ref.Rules.parse(layout), seed=2, value=value, samples=samples)
    assert native == reference


def test_the_fitted_w_bounds_the_optimum_of_4x3_from_above():
    rules = acesup.Rules(suits=4, ranks=3)
    bound = acesup.upper_bound(3000, rules=rules, value="features", samples=None)
    assert bound.ci95[1] >= acesup.optimal(rules)
    assert "lookahead" in bound.value


def test_shards_add_up_to_the_whole_run(engine):
    rules = engine.Rules.parse("suits=4,ranks=3")
    whole = engine.upper_bound(20, rules=rules, value="features")
    parts = engine.upper_bound(8, rules=rules, value="features") + engine.upper_bound(12, rules=rules,
                                                                                        value="features", start=8)
    assert parts == whole


def test_progress_callback_and_its_errors(engine):
    rules = engine.Rules.parse("suits=4,ranks=3")
    seen = []
    engine.upper_bound(10, rules=rules, value="zero", callback=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (10, 10)

    def fail(done, total):
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        engine.upper_bound(10, rules=rules, value="zero", callback=fail)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"value": "nope"}, ValueError, "value must be one of"),
    ({"samples": 0}, ValueError, "samples must be"),
    ({"progress": 1}, TypeError, "progress must be True or False"),
    ({"callback": 3}, TypeError, "callback must be None or a callable"),
    ({"seed": -1}, ValueError, "seed must be"),
    ({"rules_text": "kpat"}, ValueError, "relocate_single"),
    ({"rules_text": "suits=4,ranks=2,fill=any,deal=stuck", "value": "features"}, ValueError, "has no fit"),
])
def test_bad_arguments(engine, kwargs, error, message):
    kwargs = dict(kwargs)  # the parameters are shared by both engines' runs
    rules = engine.Rules.parse(kwargs.pop("rules_text", "suits=4,ranks=3"))
    with pytest.raises(error, match=message):
        engine.upper_bound(3, rules=rules, **kwargs)


def test_the_exact_w_is_the_reference_engine_s():
    with pytest.raises(ValueError, match="acesup.reference.upper_bound"):
        acesup.upper_bound(3, rules=acesup.Rules(suits=4, ranks=2), value="exact")
    with pytest.raises(ValueError, match="out of reach"):
        ref.upper_bound(1, value="exact")
