"""The edge cases on which the engines once disagreed (issue 9 items 9 and 10),
each decided in docs/API.md: both engines do what it says."""

from __future__ import annotations

import itertools

import pytest

import acesup.errors as errors


@pytest.mark.parametrize("run", ["simulate", "solvability", "compare"])
def test_no_games_from_the_last_index_is_an_empty_run(engine, run):
    """start + games <= 2**64 holds for start = 2**64 and no games: an empty run."""
    if run == "simulate":
        assert engine.simulate(0, start=2**64).games == 0
    elif run == "solvability":
        result = engine.solvability(0, start=2**64)
        assert (result.winnable, result.unwinnable, result.unresolved) == (0, 0, 0)
    else:
        assert engine.compare(["random"], 0, start=2**64).stats["random"].games == 0
    with pytest.raises(ValueError, match="at most 2\\*\\*64"):
        engine.simulate(1, start=2**64)


def test_playouts_may_have_leading_zeros(engine):
    padded = engine.strategy("montecarlo:playouts=00000000001")
    assert engine.simulate(2, padded) == engine.simulate(2, "montecarlo:playouts=1")
    with pytest.raises(errors.StrategyError, match="expected an int from 1 to 4294967295"):
        engine.strategy("montecarlo:playouts=0004294967296")


def test_move_indices_are_below_2_64(engine):
    message = "index must be a non-negative int below 2\\*\\*64, got 18446744073709551616"
    with pytest.raises(errors.MoveError, match=message):
        engine.Move.fill(0, 1, 2**64)
    with pytest.raises(errors.MoveError, match=message):
        engine.Move.parse("f2:18446744073709551616>0")
    assert engine.Move.fill(0, 1, 2**64 - 1).index == 2**64 - 1


def test_a_time_limit_past_the_floats_is_no_limit(engine):
    game = engine.Game.from_seed(1)
    assert engine.solve(game, time_limit=10**400) == engine.solve(game)
    assert engine.solvability(2, time_limit=10**400).unresolved == 0


def test_an_endless_histogram_is_refused(engine):
    with pytest.raises(ValueError, match="at most 49 counts"):
        engine.Stats(iter(int, 1))
    with pytest.raises(ValueError, match="at most 49 counts"):
        engine.Stats(itertools.repeat(0))
    with pytest.raises(ValueError, match="at most 49 counts"):
        engine.Stats([0] * 50)
    assert engine.Stats(iter([0] * 49)).games == 0


# --- values of one engine given to the other (item 10) ------------------------------------

def _other(engine):
    import acesup
    import acesup.reference
    return acesup.reference if engine is acesup else acesup


def test_the_other_engines_move_rules_and_cards_are_taken_by_their_text(engine):
    other = _other(engine)
    game = engine.Game.from_seed(5)
    move = game.legal_moves()[0]
    assert game.is_legal(other.Move.parse(str(move)))
    game.play(other.Move.parse(str(move)))
    assert game.history == (move,)
    rules = other.Rules(fill="any", piles=5)
    assert engine.Game.from_seed(5, rules).rules == engine.Rules(fill="any", piles=5)
    deck = [other.Card(str(card)) for card in engine.deck_from_seed(9)]
    assert engine.Game.from_deck(deck) == engine.Game.from_seed(9)


def test_the_other_engines_game_is_refused_by_name(engine):
    import acesup
    other = _other(engine)
    words = ("a reference-engine Game was given to the native engine" if engine is acesup
             else "a native-engine Game was given to the reference engine")
    with pytest.raises(TypeError, match=words):
        engine.solve(other.Game.from_seed(1))
    # A built-in strategy object asked about the other engine's game, or played by its simulate.
    with pytest.raises(TypeError, match=f"strategy: {words}"):
        engine.strategy("greedy")(other.Game.from_seed(1))
    with pytest.raises(TypeError, match=f"strategy: {words}"):
        other.simulate(2, engine.strategy("greedy"))


def test_stats_of_equal_results_are_equal_across_engines(engine):
    other = _other(engine)
    histogram = [0] * 48 + [3]
    histogram[7] = 2
    for scores in (None, bytes([7, 48, 7, 48, 48])):
        mine, theirs = engine.Stats(histogram, scores), other.Stats(histogram, scores)
        assert mine == theirs and theirs == mine and not (mine != theirs)
        assert hash(mine) == hash(theirs)
    assert engine.Stats(histogram) != other.Stats(histogram, bytes([7, 48, 7, 48, 48]))
    assert engine.simulate(20, seed=3) == other.simulate(20, seed=3)


# --- what produced a Stats (item 15) ---------------------------------------------------------

def test_simulate_stats_name_their_strategy_rules_and_seed(engine):
    import pickle
    rules = engine.Rules(fill="any")
    stats = engine.simulate(6, "greedy", rules, seed=7)
    assert (stats.strategy, stats.rules, stats.seed) == ("greedy", str(rules), 7)
    for shown in (repr(stats), stats._repr_html_()):
        assert "greedy" in shown and str(rules) in shown and "7" in shown
    assert "strategy='greedy'" in repr(stats) and repr(stats).endswith("seed=7)")
    again = pickle.loads(pickle.dumps(stats))
    assert (again.strategy, again.rules, again.seed) == ("greedy", str(rules), 7)

    def first(game):
        return game.legal_moves()[0]

    assert engine.simulate(2, first).strategy == first.__qualname__
    assert engine.simulate(2).strategy == "random"
    # A built-in's text as given, parameters and all, so that two variants stay apart.
    small = engine.Rules(suits=2, ranks=4)
    for text in ("montecarlo:playouts=2", " Greedy ", "montecarlo: playouts = 3 "):
        assert engine.simulate(1, text, small).strategy == text


def test_adding_stats_keeps_the_origin_they_agree_on(engine):
    a = engine.simulate(3, "greedy", seed=7)
    b = engine.simulate(3, "greedy", seed=7, start=3)
    assert ((a + b).strategy, (a + b).seed) == ("greedy", 7)
    c = engine.simulate(3, "random", seed=7, start=3)
    assert ((a + c).strategy, (a + c).rules, (a + c).seed) == (None, a.rules, 7)
    assert (engine.Stats.empty() + a).strategy == "greedy"
    assert sum([a, b], engine.Stats.empty()).seed == 7


def test_stats_equality_ignores_the_origin(engine):
    stats = engine.simulate(4, "greedy", seed=2)
    plain = engine.Stats(stats.histogram)
    assert plain == stats and hash(plain) == hash(stats)
    assert (plain.strategy, plain.rules, plain.seed) == (None, None, None)
    named = engine.Stats(stats.histogram, None, "greedy", str(engine.Rules()), 2)
    assert repr(named) == repr(stats)
    with pytest.raises(TypeError, match="strategy must be a str or None"):
        engine.Stats(stats.histogram, strategy=3)
    with pytest.raises(ValueError, match="seed must be"):
        engine.Stats(stats.histogram, seed=-1)
