"""The clairvoyant solver and solvability (API.md "Solver"; SOLVER.md).

The reference solver is the oracle: a plain search over every legal move. The
native solver prunes and reorders (SOLVER.md proves each idea), so the tests
check it against the oracle on positions small enough for it, replay every
winning line of both solvers in the reference engine, and check that a limit
only ever turns a verdict into None.
"""

from __future__ import annotations

import copy
import math
import pickle
import random
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

import acesup
import acesup.reference as ref
from helpers import DATA, RULE_OPTIONS, ctrl_c_after, rules_text

Z = 1.959963984540054


def late_position(engine, rules, seed, walk_seed):
    """A position with one to three deals left: the seeded game, played at random
    (the walk drawn from ``walk_seed``) until the stock holds 12 cards or fewer."""
    game = engine.Game.from_seed(engine.game_seed(seed, 0), rules)
    rnd = random.Random(walk_seed)
    while len(game.stock) > 12 and not game.is_over:
        moves = game.legal_moves()
        game.play(moves[rnd.randrange(len(moves))])
    return game


def replays_to_a_win(position_text, moves):
    """Whether ``moves`` are legal in turn from the position and end in a won game,
    played in the reference engine."""
    game = ref.Game.from_str(position_text)
    for move in moves:
        game.play(str(move))
    return game.is_won


def wilson(wins, games):
    p = wins / games
    denom = 1 + Z * Z / games
    center = (p + Z * Z / (2 * games)) / denom
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / denom
    return max(0.0, center - half), min(1.0, center + half)


# --- Solution ---------------------------------------------------------------------------


def test_solution_is_a_value(engine):
    Move, Solution = engine.Move, engine.Solution
    won = Solution(True, [Move.fill(2, 0), "deal", Move.discard(1)], 12)
    assert won.winnable is True and won.nodes == 12
    assert won.moves == (Move.fill(2, 0), Move.deal(), Move.discard(1))
    assert won == Solution(True, ("f2>0", "deal", "d1"), 12)
    assert hash(won) == hash(Solution(True, ("f2>0", "deal", "d1"), 12))
    assert won != Solution(True, ("f2>0", "deal", "d1"), 13)
    assert won != Solution(None)
    assert Solution(None) == Solution(None, (), 0) and Solution(False, nodes=5).moves == ()
    for s in (won, Solution(False, (), 7), Solution(None), Solution(True, ["deal"], 1)):
        assert eval(repr(s), {"Solution": Solution, "Move": Move}) == s
        assert pickle.loads(pickle.dumps(s)) == s
        assert copy.copy(s) == s and copy.deepcopy(s) == s
    assert repr(Solution(True, ["deal"], 1)) == "Solution(winnable=True, moves=(Move.deal(),), nodes=1)"
    assert repr(Solution(False, (), 7)) == "Solution(winnable=False, moves=(), nodes=7)"
    assert str(won) == "winnable (12 nodes): f2>0 deal d1"
    assert str(Solution(False, nodes=7)) == "unwinnable (7 nodes)"
    assert str(Solution(None, nodes=3)) == "unresolved (3 nodes)"
    with pytest.raises(AttributeError):
        won.nodes = 3  # type: ignore[misc]


def test_solution_rejects_bad_values(engine):
    Solution = engine.Solution
    for verdict in (1, 0, "yes"):
        with pytest.raises(TypeError, match="winnable must be True, False or None"):
            Solution(verdict)
    with pytest.raises(ValueError, match="has no moves"):
        Solution(False, ["deal"])
    with pytest.raises(ValueError, match="has no moves"):
        Solution(None, ["deal"])
    with pytest.raises(TypeError, match="moves must be a sequence of Move"):
        Solution(True, "deal")
    with pytest.raises(TypeError, match="moves must be a sequence of Move"):
        Solution(True, 3)
    with pytest.raises(TypeError):
        Solution(True, [3])
    with pytest.raises(acesup.MoveError):
        Solution(True, ["f9>0"])
    with pytest.raises(ValueError, match="nodes must be a non-negative int"):
        Solution(None, (), -1)
    with pytest.raises(TypeError, match="nodes must be a non-negative int"):
        Solution(None, (), True)


# --- Solvability ------------------------------------------------------------------------


def test_solvability_is_a_value(engine):
    Solvability = engine.Solvability
    s = Solvability(3, 5, 2)
    assert (s.games, s.winnable, s.unwinnable, s.unresolved) == (10, 3, 5, 2)
    assert s.rate == 0.3
    # Honest about the unresolved deals: they may all be winnable, or none.
    assert s.ci95 == (wilson(3, 10)[0], wilson(5, 10)[1])
    assert s.ci95 == (engine.Stats([7] + [0] * 47 + [3]).ci95[0], engine.Stats([5] + [0] * 47 + [5]).ci95[1])
    # With nothing unresolved it is the plain Wilson interval.
    assert Solvability(3, 7, 0).ci95 == engine.Stats([7] + [0] * 47 + [3]).ci95
    assert Solvability(winnable=3, unresolved=2, unwinnable=5) == s and hash(s) == hash(Solvability(3, 5, 2))
    assert s != Solvability(3, 6, 1)
    assert eval(repr(s), {"Solvability": Solvability}) == s
    assert repr(s) == "Solvability(winnable=3, unwinnable=5, unresolved=2)"
    assert str(s) == "10 games: 3 winnable, 5 unwinnable, 2 unresolved; rate 0.30000 (95% CI 0.10779 to 0.76341)"
    assert pickle.loads(pickle.dumps(s)) == s and copy.deepcopy(s) == s
    with pytest.raises(AttributeError):
        s.games = 3  # type: ignore[misc]


def test_solvability_empty_and_sums(engine):
    Solvability = engine.Solvability
    empty = Solvability.empty()
    assert empty == Solvability() == Solvability(0, 0, 0)
    assert empty.games == 0 and math.isnan(empty.rate) and empty.ci95 == (0.0, 1.0)
    assert str(empty) == "0 games"
    parts = [Solvability(1, 2, 0), Solvability(0, 3, 1), Solvability(4, 0, 0)]
    assert parts[0] + parts[1] + parts[2] == Solvability(5, 5, 1)
    assert sum(parts, Solvability.empty()) == Solvability(5, 5, 1) == sum(parts)
    with pytest.raises(TypeError):
        parts[0] + 1  # type: ignore[operator]


@pytest.mark.parametrize("bad", [-1, True, 1.5, "3", None])
def test_solvability_rejects_bad_counts(engine, bad):
    error = ValueError if bad == -1 else TypeError
    with pytest.raises(error, match="unresolved must be a non-negative int"):
        engine.Solvability(1, 2, bad)


def test_solvability_text_is_the_same_in_both_engines():
    for counts in [(0, 0, 0), (3, 5, 2), (1, 0, 0), (0, 1, 0), (123, 4567, 89)]:
        native, reference = acesup.Solvability(*counts), ref.Solvability(*counts)
        assert (str(native), repr(native)) == (str(reference), repr(reference))
        assert native.ci95 == reference.ci95
        assert native.rate == reference.rate or math.isnan(native.rate) and math.isnan(reference.rate)


# --- solve: arguments and contract ---------------------------------------------------------


def test_solve_checks_its_arguments(engine):
    game = engine.Game.from_seed(1)
    with pytest.raises(TypeError, match="solve\\(\\) takes an acesup"):
        engine.solve(game.to_str())
    other = ref if engine is acesup else acesup
    with pytest.raises(TypeError):
        engine.solve(other.Game.from_seed(1))
    for bad, error in ((0, ValueError), (-5, ValueError), (True, TypeError), (2.0, TypeError), ("9", TypeError)):
        with pytest.raises(error, match="node_limit must be a positive int"):
            engine.solve(game, node_limit=bad)
    for bad, error in ((0, ValueError), (-1.5, ValueError), (math.nan, ValueError), (False, TypeError),
                       ("1", TypeError)):
        with pytest.raises(error, match="time_limit must be None or a positive number of seconds"):
            engine.solve(game, time_limit=bad)
    assert engine.solve(game, node_limit=10**30, time_limit=math.inf) == engine.solve(game)


def test_a_time_limit_past_the_floats_is_no_limit(engine):
    game = engine.Game.from_seed(1)
    assert engine.solve(game, time_limit=10**400) == engine.solve(game)
    assert engine.solvability(2, time_limit=10**400).unresolved == 0


def test_solve_does_not_change_the_game(engine):
    game = engine.Game.from_seed(engine.game_seed(3, 1), engine.Rules.easy())
    game.play(game.legal_moves()[0])
    before = (game.to_str(), game.history, pickle.dumps(game))
    solution = engine.solve(game)
    assert (game.to_str(), game.history, pickle.dumps(game)) == before
    assert solution.winnable is not None


def test_solve_a_finished_game(engine):
    rules = "fill=top,deal=free,relocate_single=false,ace_high=true"
    won = engine.Game.from_str(f"As/Ac/Ad/Ah - {''.join(r + s for s in 'cdhs' for r in '23456789TJQK')} {rules}")
    assert won.is_won
    assert engine.solve(won).winnable is True and engine.solve(won).moves == ()
    others = "".join(r + s for s in "cdhs" for r in "3456789TJQK")
    lost = engine.Game.from_str(f"Ac2c/Ad2d/Ah2h/As2s - {others} {rules}")
    assert lost.is_over and not lost.is_won
    assert engine.solve(lost) == engine.Solution(False, (), 1)


def test_forty_eight_discards_finish_the_game(engine):
    """With 48 cards discarded the game may still need fills; the line has them."""
    discards = "".join(r + s for s in "cdhs" for r in "23456789TJQK")
    for piles, stock in (("AsAc/Ad/Ah/-", "-"), ("-/-/-/-", "AcAdAhAs"), ("AsAcAdAh/-/-/-", "-")):
        game = engine.Game.from_str(f"{piles} {stock} {discards} fill=top,deal=free,relocate_single=false,ace_high=true")
        solution = engine.solve(game)
        assert solution.winnable is True and replays_to_a_win(game.to_str(), solution.moves)


# --- both solvers: winning lines, agreement, limits -----------------------------------------


# Positions that the native solver once called lost, each won (SOLVER.md), shared with
# the solver's cargo tests: a name and the position's text a line.
ONCE_WRONG = [line.split(" ", 1) for line in (DATA / "solver_once_wrong.txt").read_text(encoding="utf-8").splitlines()
              if line and not line.startswith("#")]


@pytest.mark.parametrize("name, text", ONCE_WRONG, ids=[name for name, _ in ONCE_WRONG])
def test_positions_once_called_lost_are_won(engine, name, text):
    solution = engine.solve(engine.Game.from_str(text))
    assert solution.winnable is True
    assert replays_to_a_win(text, solution.moves)


@pytest.mark.parametrize("options", RULE_OPTIONS, ids=lambda o: rules_text(**o))
def test_native_winning_lines_replay(options):
    """Every winning line the native solver finds, on 100 seeded deals of each rule
    set (2400 deals), is legal and wins in the reference engine."""
    rules = acesup.Rules(**options)
    won = 0
    for i in range(100):
        game = acesup.Game.from_seed(acesup.game_seed(11, i), rules)
        solution = acesup.solve(game, node_limit=300_000)
        if solution.winnable:
            won += 1
            assert replays_to_a_win(game.to_str(), solution.moves), (game.to_str(), solution)
        else:
            assert solution.moves == ()
    if options["fill"] != "ace":
        assert won > 0


@pytest.mark.parametrize("rules", ["strict", "deal=stuck", "strict,relocate_single=true"])
def test_reference_winning_lines_replay(rules):
    rules = ref.Rules.parse(rules)
    for i in range(40):
        game = ref.Game.from_seed(ref.game_seed(5, i), rules)
        solution = ref.solve(game)
        assert solution.winnable is not None
        if solution.winnable:
            assert replays_to_a_win(game.to_str(), solution.moves)
        native = acesup.solve(acesup.Game.from_str(game.to_str()))
        assert native.winnable == solution.winnable


@given(options=st.sampled_from(RULE_OPTIONS), seed=st.integers(0, 2**64 - 1), walk=st.integers(0, 2**32))
def test_native_agrees_with_the_reference(options, seed, walk):
    """On positions with one to three deals left, under any rules, the two solvers
    give the same verdict, and both winning lines replay to a win."""
    game = late_position(ref, ref.Rules(**options), seed, walk)
    expected = ref.solve(game, node_limit=200_000)
    native = acesup.solve(acesup.Game.from_str(game.to_str()))
    assert native.winnable is not None
    if expected.winnable is not None:
        assert native.winnable == expected.winnable, game.to_str()
    for solution in (expected, native):
        if solution.winnable:
            assert replays_to_a_win(game.to_str(), solution.moves), (game.to_str(), solution)


@pytest.mark.parametrize("options", RULE_OPTIONS[::3], ids=lambda o: rules_text(**o))
def test_limits_never_give_a_wrong_verdict(engine, options):
    """A search stopped by a limit says None, never False; what it does say is
    right, and it expands no more nodes than allowed."""
    rules = engine.Rules(**options)
    for i in range(6):
        game = late_position(engine, rules, 40 + i, i)
        full = engine.solve(game)
        assert full.winnable is not None
        for limit in (1, 2, 5, 20, 100):
            limited = engine.solve(game, node_limit=limit)
            assert limited.winnable in (None, full.winnable)
            assert limited.nodes <= limit
            if limited.winnable is None:
                assert limited.moves == () and limit < full.nodes
        timed = engine.solve(game, time_limit=1e-9)
        assert timed.winnable in (None, full.winnable)


@pytest.mark.serial
def test_a_time_limit_stops_a_long_search():
    game = acesup.Game.from_seed(acesup.game_seed(0, 566), acesup.Rules.easy())
    start = time.monotonic()
    assert acesup.solve(game, time_limit=0.05).winnable is None
    assert time.monotonic() - start < 1.0


# --- solvability -----------------------------------------------------------------------------


def test_solvability_checks_its_arguments(engine):
    for kwargs, error in (({"games": -1}, ValueError), ({"games": 1.0}, TypeError), ({"games": 2, "seed": -1}, ValueError),
                          ({"games": 2, "threads": 0}, ValueError), ({"games": 2, "start": -3}, ValueError),
                          ({"games": 2, "node_limit": 0}, ValueError), ({"games": 2, "time_limit": -1}, ValueError),
                          ({"games": 2, "rules": "easy"}, TypeError), ({"games": 2**63, "start": 2**63 + 1}, ValueError)):
        with pytest.raises(error):
            engine.solvability(**kwargs)
    assert engine.solvability(0) == engine.Solvability.empty()


@pytest.mark.parametrize("rules", ["standard", "easy", "strict,deal=stuck", "relocate_single=true,ace_high=false"])
def test_solvability_is_the_same_at_any_thread_count_and_in_shards(rules):
    rules = acesup.Rules.parse(rules)
    one = acesup.solvability(120, rules, seed=8, threads=1, node_limit=100_000)
    assert one.games == 120
    assert acesup.solvability(120, rules, seed=8, threads=2, node_limit=100_000) == one
    assert acesup.solvability(120, rules, seed=8, node_limit=100_000) == one
    shards = [acesup.solvability(50, rules, seed=8, start=0, node_limit=100_000),
              acesup.solvability(70, rules, seed=8, start=50, threads=2, node_limit=100_000)]
    assert sum(shards, acesup.Solvability.empty()) == one


def test_solvability_counts_the_verdicts_of_solve():
    rules = acesup.Rules.reverse()
    verdicts = [acesup.solve(acesup.Game.from_seed(acesup.game_seed(4, i), rules), node_limit=500).winnable
                for i in range(10, 40)]
    expected = acesup.Solvability(verdicts.count(True), verdicts.count(False), verdicts.count(None))
    assert acesup.solvability(30, rules, seed=4, start=10, node_limit=500) == expected
    assert expected.unresolved > 0


@pytest.mark.parametrize("rules", ["strict", "deal=stuck", "strict,deal=stuck,relocate_single=true"])
def test_native_solvability_equals_the_reference(rules):
    native = acesup.solvability(12, acesup.Rules.parse(rules), seed=21)
    reference = ref.solvability(12, ref.Rules.parse(rules), seed=21)
    assert (native.winnable, native.unwinnable, native.unresolved) == (
        reference.winnable, reference.unwinnable, reference.unresolved)
    assert str(native) == str(reference)


@pytest.mark.serial
def test_ctrl_c_stops_solvability_promptly():
    """Ctrl-C raises KeyboardInterrupt while the native solvability runs."""
    with ctrl_c_after(0.3) as lasted, pytest.raises(KeyboardInterrupt):
        acesup.solvability(10**9, acesup.Rules.easy(), threads=2)
    assert lasted[0] < 3.0
