"""The exact optimum without clairvoyance (docs/OPTIMAL.md): ``optimal(rules)`` in
both engines, and the ``"optimal"`` strategy that plays from its table.

The reference engine's plain memoised expectimax (no symmetry) checks the native
one, which uses the suit and pile symmetries, on every layout it can do in CI
time; the native value of 4 suits x 3 ranks is pinned, and the strategy's
simulated win rate must agree with it.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

import acesup
import acesup.reference as ref
from helpers import ROOT, ctrl_c_after

# Small layouts whose optimum is not 1, and some that are, under each option:
# the reference does each within seconds.
LAYOUTS = [
    "suits=4,ranks=2",
    "strict,suits=4,ranks=2",
    "easy,suits=4,ranks=2,deal=any",
    "reverse,suits=4,ranks=2,deal=stuck",
    "suits=4,ranks=2,relocate_single=true",
    "suits=4,ranks=2,deal_to=empty",
    "suits=2,ranks=4,piles=5,deal_to=empty",
    "suits=3,ranks=2,piles=5,fill=any",
    "suits=2,ranks=3,relocate_single=true,deal=any",
]


@pytest.mark.parametrize("rules", LAYOUTS)
def test_the_engines_agree_on_small_layouts(rules):
    native = acesup.optimal(acesup.Rules.parse(rules))
    reference = ref.optimal(ref.Rules.parse(rules))
    assert isinstance(native, Fraction) and isinstance(reference, Fraction)
    assert native == reference
    assert 0 <= native <= 1


def test_small_values_are_pinned():
    # Four suits of two ranks: 19 deals in 35 are won by perfect play.
    assert acesup.optimal(acesup.Rules(suits=4, ranks=2)) == Fraction(19, 35)
    # With fewer than four suits perfect play always wins these small decks.
    for suits, ranks in [(2, 4), (2, 5), (3, 3), (3, 4)]:
        assert acesup.optimal(acesup.Rules(suits=suits, ranks=ranks)) == 1


def test_four_suits_of_three_ranks():
    rules = acesup.Rules(suits=4, ranks=3)
    assert acesup.optimal(rules) == Fraction(14473, 41580)
    calls = []
    assert acesup.optimal(rules, threads=1, progress=lambda *a: calls.append(a)) == Fraction(14473, 41580)
    # The positions stored, one per orbit of chance nodes met under the rank lift
    # and the suit and pile symmetries (OPTIMAL.md; the round starts are not stored
    # under deal_to="all"): fewer if the keys merged positions that are not
    # symmetric, more if they missed symmetric ones. Pinned from the key of the
    # least encoding over every renaming, as when the suits' marks did not cut the
    # renamings tried (461,142 positions before round starts went and the ranks
    # were lifted, 443,160 of them round starts; 17,982 without the lift).
    assert calls[-1][2] == 9_487


@pytest.mark.parametrize("engine", [acesup, ref], ids=["native", "reference"])
def test_progress_is_reported(engine):
    calls = []
    value = engine.optimal(engine.Rules(suits=4, ranks=2), progress=lambda *a: calls.append(a))
    assert value == Fraction(19, 35)
    done, total, states = calls[-1]
    assert done == total > 0 and states > 0
    assert all(len(call) == 3 for call in calls)


@pytest.mark.parametrize("engine", [acesup, ref], ids=["native", "reference"])
def test_bad_arguments(engine):
    message = ("the exact optimum is out of reach for 4 suits x 13 ranks (52 cards): "
               "it is computed for decks of at most 24 cards")
    with pytest.raises(ValueError) as err:
        engine.optimal(engine.Rules())
    assert str(err.value) == message
    with pytest.raises(ValueError, match="out of reach for 4 suits x 7 ranks"):
        engine.optimal(engine.Rules(ranks=7))
    with pytest.raises(TypeError, match="rules must be a Rules or None, got str"):
        engine.optimal("suits=4")
    with pytest.raises(ValueError, match="threads"):
        engine.optimal(engine.Rules(suits=4, ranks=2), threads=0)
    with pytest.raises(TypeError, match=r"progress must be None or a callable progress\(done, total, states\), "
                                        r"got int"):
        engine.optimal(engine.Rules(suits=4, ranks=2), progress=3)


def test_an_exception_in_progress_propagates():
    def fail(*_):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        acesup.optimal(acesup.Rules(suits=4, ranks=3), progress=fail)


@pytest.mark.serial
def test_ctrl_c_stops_optimal_promptly():
    with ctrl_c_after(0.3) as lasted, pytest.raises(KeyboardInterrupt):
        acesup.optimal(acesup.Rules(suits=4, ranks=5), threads=2)
    assert lasted[0] < 0.3 + 0.5 + 0.5  # the signal, half a second, slack


# --- the "optimal" strategy ----------------------------------------------------------


def test_the_strategy_plays_the_same_games_in_both_engines():
    for rules in ["suits=4,ranks=2", "strict,suits=4,ranks=2,deal=stuck", "suits=4,ranks=2,deal_to=empty",
                  "suits=4,ranks=2,relocate_single=true,deal_to=empty", "suits=4,ranks=2,deal=any,relocate_single=true",
                  "suits=3,ranks=2,piles=5,deal=any,relocate_single=true"]:
        native = acesup.simulate(150, "optimal", acesup.Rules.parse(rules), seed=5, scores=True)
        reference = ref.simulate(150, "optimal", ref.Rules.parse(rules), seed=5, scores=True)
        assert list(native.scores) == list(reference.scores)
        assert native.histogram == reference.histogram


def test_the_strategy_wins_as_often_as_the_optimum_says():
    rules = acesup.Rules(suits=4, ranks=3)
    optimum = acesup.optimal(rules)
    stats = acesup.simulate(20_000, "optimal", rules, seed=12)
    low, high = stats.ci95
    assert low <= optimum <= high
    # And better than the best fixed strategy on the same deals.
    assert stats.wins > acesup.simulate(20_000, "lookahead", rules, seed=12).wins


def test_the_strategy_plays_the_lone_card_moves_that_the_optimum_needs():
    """Under relocate_single with deals to the empty piles only, moving a lone card
    is worth 26/35 against 103/210 without: the strategy reaches the optimum, so it
    plays those moves, and ends every game (it never moves a card back and forth)."""
    rules = acesup.Rules(suits=4, ranks=2, relocate_single=True, deal_to="empty")
    assert acesup.optimal(rules) == Fraction(26, 35)
    assert acesup.optimal(rules.replace(relocate_single=False)) == Fraction(103, 210)
    stats = acesup.simulate(20_000, "optimal", rules, seed=3)
    low, high = stats.ci95
    assert low <= Fraction(26, 35) <= high


def test_the_strategy_never_reads_the_stock_order():
    """Two games whose stocks hold the same cards in different orders get the
    same move from "optimal" at every decision before the next deal."""
    rules = acesup.Rules(suits=4, ranks=3)
    play = acesup.strategy("optimal")
    for seed in range(40):
        game = acesup.Game.from_seed(seed, rules)
        while not game.is_over:
            piles, stock, discards, text = game.to_str().split(" ")
            if stock != "-":
                shuffled = acesup.Game.from_str(f"{piles} {stock[2:] + stock[:2]} {discards} {text}")
                assert play(shuffled) == play(game)
            game.play(play(game))


@pytest.mark.parametrize("engine", [acesup, ref], ids=["native", "reference"])
@pytest.mark.parametrize("games", [1, 0])
def test_the_strategy_refuses_what_it_cannot_play(engine, games):
    """At the call, before any game: a run of no games, or a comparison, is refused too."""
    message = ("strategy 'optimal': the exact optimum is out of reach for 4 suits x 13 ranks "
               "(52 cards): it is computed for decks of at most 16 cards")
    with pytest.raises(engine.StrategyError) as err:
        engine.simulate(games, "optimal", engine.Rules())
    assert str(err.value) == message
    with pytest.raises(engine.StrategyError) as err:
        engine.compare(["random", "optimal"], games)
    assert str(err.value) == message
    with pytest.raises(engine.StrategyError, match="has no parameter 'depth'"):
        engine.strategy("optimal:depth=2")
    with pytest.raises(engine.StrategyError, match="out of reach"):
        engine.strategy("optimal")(engine.Game.from_seed(1))


def test_the_frontier_script_prints_finished_and_stopped_layouts(capsys):
    """scripts/optimal_frontier.py, which regenerates RESULTS.md's frontier: a layout
    that finishes gets its exact value, one stopped at its timeout how far it got."""
    import runpy

    script = runpy.run_path(str(ROOT / "scripts" / "optimal_frontier.py"))
    assert script["main"](["suits=4,ranks=2", "--threads", "1", "--timeout", "60"]) == 0
    header, rule, finished = capsys.readouterr().out.splitlines()
    assert header.startswith("| layout | optimum |") and rule.startswith("| --- |")
    assert finished.startswith("| suits=4,ranks=2 | 19/35 = 54.29% |") and finished.endswith(" | 9 |")
    assert script["main"](["suits=4,ranks=3,deal=any", "--threads", "1", "--timeout", "0.3"]) == 0  # about 12 s
    stopped = capsys.readouterr().out.splitlines()[-1]
    assert stopped.startswith("| suits=4,ranks=3,deal=any | not reached: stopped after ")
    assert "opening deals solved" in stopped
