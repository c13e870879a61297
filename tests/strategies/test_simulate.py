"""simulate() and Stats (API.md; RNG.md "Batch runs" and "How the random strategy draws")."""

from __future__ import annotations

import copy
import itertools
import math
import pickle
import re

import pytest

from acesup.resources import available_memory
from helpers import (ROOT, RULE_OPTIONS, other_engine, random_strategy_histogram, random_strategy_moves,
                     rules_text)

Z = 1.959963984540054


@pytest.mark.parametrize("options", RULE_OPTIONS[::2], ids=lambda o: rules_text(**o))
def test_simulate_is_the_random_strategy_of_rng_md(engine, options):
    """Game i of seed s is Game.from_seed(game_seed(s, i)) played by the random
    strategy exactly as RNG.md describes it."""
    rules = engine.Rules(**options)
    stats = engine.simulate(12, seed=2024, rules=rules)
    assert isinstance(stats, engine.Stats)
    assert stats.histogram == random_strategy_histogram(engine, 12, 2024, rules)
    assert stats.games == 12


def test_simulate_defaults(engine):
    assert engine.simulate(15) == engine.simulate(15, "random", None, 0)
    assert engine.simulate(15) == engine.simulate(15, strategy="random", rules=engine.Rules(), seed=0, start=0)
    assert engine.simulate(15).histogram == random_strategy_histogram(engine, 15, 0)


def test_start_plays_later_games(engine):
    for k in (0, 1, 7, 10**12):
        stats = engine.simulate(1, seed=5, start=k)
        game = engine.Game.from_seed(engine.game_seed(5, k))
        random_strategy_moves(game)
        assert stats.games == 1 and stats.histogram[game.score] == 1


def test_shards_add_up(engine):
    whole = engine.simulate(20, seed=77)
    parts = [engine.simulate(7, seed=77), engine.simulate(6, seed=77, start=7), engine.simulate(7, seed=77, start=13)]
    assert parts[0] + parts[1] + parts[2] == whole
    assert sum(parts, engine.Stats.empty()) == whole


@pytest.mark.parametrize("threads", [None, 1, 2, 3])
def test_threads_do_not_change_the_result(engine, threads):
    assert engine.simulate(16, seed=9, threads=threads) == engine.simulate(16, seed=9, threads=1)


def test_zero_games(engine):
    stats = engine.simulate(0, seed=3)
    assert stats == engine.Stats.empty()
    assert stats.games == 0 and stats.histogram == (0,) * 49


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


def test_callable_strategy(engine):
    seen = []

    def last_move(game):
        assert isinstance(game, engine.Game)
        seen.append(game.to_str())
        return game.legal_moves()[-1]

    stats = engine.simulate(4, strategy=last_move, seed=11, rules=engine.Rules.easy())
    expected = [0] * 49
    positions = []
    for i in range(4):
        game = engine.Game.from_seed(engine.game_seed(11, i), engine.Rules.easy())
        while not game.is_over:
            positions.append(game.to_str())
            game.play(game.legal_moves()[-1])
        expected[game.score] += 1
    assert stats.histogram == tuple(expected)
    assert sorted(seen) == sorted(positions)  # called once per move, on each position


def test_callable_strategy_may_use_randbelow(engine):
    def rand(game):
        moves = game.legal_moves()
        discards = [m for m in moves if m.kind == "discard"]
        return discards[0] if discards else moves[game.randbelow(len(moves))]

    assert engine.simulate(10, strategy=rand, seed=8) == engine.simulate(10, seed=8)


# --- Stats ---------------------------------------------------------------------------------


def hist(**scores):
    h = [0] * 49
    for k, v in scores.items():
        h[int(k[1:])] = v
    return h


def wilson(wins, n):
    p = wins / n
    z2 = Z * Z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = Z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (0.0 if wins == 0 else max(0.0, center - half), 1.0 if wins == n else min(1.0, center + half))


def test_stats_fields(engine):
    stats = engine.Stats(hist(s48=3, s10=5, s0=2))
    assert stats.games == 10 and stats.wins == 3 and stats.losses == 7
    assert stats.win_rate == 0.3
    assert stats.mean_score == (48 * 3 + 10 * 5) / 10
    assert stats.ci95 == wilson(3, 10)
    assert isinstance(stats.histogram, tuple) and len(stats.histogram) == 49
    assert stats.histogram == tuple(hist(s48=3, s10=5, s0=2))


@pytest.mark.parametrize("wins, n", [(0, 1), (1, 1), (0, 50), (50, 50), (7, 1000), (35, 10_000)])
def test_stats_ci95_is_wilson_bit_for_bit(engine, wins, n):
    stats = engine.Stats(hist(s48=wins, s20=n - wins))
    assert stats.ci95 == wilson(wins, n)
    lo, hi = stats.ci95
    assert 0.0 <= lo <= stats.win_rate <= hi <= 1.0
    assert (lo == 0.0) == (wins == 0) and (hi == 1.0) == (wins == n)


def test_empty_stats(engine):
    empty = engine.Stats.empty()
    assert empty.games == 0 and empty.wins == 0 and empty.losses == 0
    assert math.isnan(empty.win_rate) and math.isnan(empty.mean_score)
    assert empty.ci95 == (0.0, 1.0)
    assert empty == engine.Stats([0] * 49)


def test_stats_merge_and_values(engine):
    a, b = engine.Stats(hist(s1=2, s48=1)), engine.Stats(hist(s1=1, s30=4))
    assert (a + b).histogram == tuple(hist(s1=3, s48=1, s30=4))
    assert a + engine.Stats.empty() == a
    assert a + b == b + a
    assert hash(a) == hash(engine.Stats(hist(s1=2, s48=1)))
    assert a != b
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a
    assert repr(a) == f"Stats(histogram={tuple(hist(s1=2, s48=1))!r})"
    assert eval(repr(a), {"Stats": engine.Stats}) == a
    assert str(a)
    with pytest.raises((AttributeError, TypeError)):
        a.histogram = (0,) * 49


def test_stats_accepts_any_sequence(engine):
    assert engine.Stats(tuple(hist(s3=1))) == engine.Stats(hist(s3=1))
    assert engine.Stats(histogram=hist(s3=1)) == engine.Stats(hist(s3=1))


def test_an_endless_histogram_is_refused(engine):
    with pytest.raises(ValueError, match="at most 49 counts"):
        engine.Stats(iter(int, 1))
    with pytest.raises(ValueError, match="at most 49 counts"):
        engine.Stats(itertools.repeat(0))
    with pytest.raises(ValueError, match="at most 49 counts"):
        engine.Stats([0] * 50)
    assert engine.Stats(iter([0] * 49)).games == 0


def test_stats_of_equal_results_are_equal_across_engines(engine):
    other = other_engine(engine)
    histogram = [0] * 48 + [3]
    histogram[7] = 2
    for scores in (None, bytes([7, 48, 7, 48, 48])):
        mine, theirs = engine.Stats(histogram, scores), other.Stats(histogram, scores)
        assert mine == theirs and theirs == mine and not (mine != theirs)
        assert hash(mine) == hash(theirs)
    assert engine.Stats(histogram) != other.Stats(histogram, bytes([7, 48, 7, 48, 48]))
    assert engine.simulate(20, seed=3) == other.simulate(20, seed=3)


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


# --- per-game scores (simulate(..., scores=True), Stats.scores) --------------------------


def doc_scores(engine, games, seed, rules=None, start=0):
    out = []
    for i in range(start, start + games):
        game = engine.Game.from_seed(engine.game_seed(seed, i), rules)
        random_strategy_moves(game)
        out.append(game.score)
    return out


def test_scores_are_recorded_in_game_order(engine):
    np = pytest.importorskip("numpy")
    stats = engine.simulate(25, seed=12, scores=True)
    assert isinstance(stats.scores, np.ndarray) and stats.scores.dtype == np.uint8
    assert stats.scores.tolist() == doc_scores(engine, 25, 12)
    assert not stats.scores.flags.writeable
    with pytest.raises((ValueError, TypeError)):
        stats.scores[0] = 1
    hist = [0] * 49
    for s in stats.scores.tolist():
        hist[s] += 1
    assert stats.histogram == tuple(hist)
    assert engine.simulate(25, seed=12).scores is None


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_scores_do_not_depend_on_threads(engine, threads):
    one = engine.simulate(40, seed=13, scores=True, threads=1)
    other = engine.simulate(40, seed=13, scores=True, threads=threads)
    assert other == one and other.scores.tolist() == one.scores.tolist()


def test_scores_of_shards_concatenate(engine):
    whole = engine.simulate(30, seed=14, scores=True)
    a = engine.simulate(11, seed=14, scores=True)
    b = engine.simulate(19, seed=14, start=11, scores=True)
    assert (a + b).scores.tolist() == whole.scores.tolist()
    assert a + b == whole
    # A Stats of no games counts as an empty record, so sum() keeps the scores.
    assert sum([a, b], engine.Stats.empty()) == whole
    assert (a + engine.Stats.empty()).scores.tolist() == a.scores.tolist()
    assert (engine.Stats.empty() + a).scores.tolist() == a.scores.tolist()
    assert (a + engine.simulate(0, seed=1, scores=True)).scores.tolist() == a.scores.tolist()
    assert (a + engine.simulate(5, seed=1)).scores is None


@pytest.mark.parametrize("value", ["yes", 1, None, 0])
def test_scores_must_be_a_bool(engine, value):
    with pytest.raises(TypeError):
        engine.simulate(1, scores=value)


def test_stats_with_scores(engine):
    histogram = [0] * 49
    histogram[3], histogram[48] = 2, 1
    raw = bytes([3, 48, 3])
    stats = engine.Stats(histogram, scores=raw)
    assert stats.scores.tolist() == [3, 48, 3]
    assert engine.Stats(histogram, scores=bytearray(raw)) == stats
    assert stats != engine.Stats(histogram)  # == compares the scores too
    assert stats != engine.Stats(histogram, scores=bytes([48, 3, 3]))
    assert hash(stats) == hash(engine.Stats(histogram, scores=raw))
    assert repr(stats) == f"Stats(histogram={tuple(histogram)!r}, scores={raw!r})"
    assert eval(repr(stats), {"Stats": engine.Stats}) == stats
    assert pickle.loads(pickle.dumps(stats)) == stats
    assert pickle.loads(pickle.dumps(stats)).scores.tolist() == [3, 48, 3]


def test_stats_scores_from_numpy(engine):
    np = pytest.importorskip("numpy")
    histogram = [0] * 49
    histogram[7] = 2
    assert engine.Stats(histogram, scores=np.array([7, 7], dtype=np.uint8)).scores.tolist() == [7, 7]


@pytest.mark.parametrize("scores, exc", [
    ([3, 48, 3], TypeError),
    ("abc", TypeError),
    (bytes([3, 48]), ValueError),
    (bytes([3, 47, 3]), ValueError),
    (bytes([3, 48, 3, 0]), ValueError),
])
def test_stats_scores_must_match(engine, scores, exc):
    histogram = [0] * 49
    histogram[3], histogram[48] = 2, 1
    with pytest.raises(exc):
        engine.Stats(histogram, scores=scores)


@pytest.mark.skipif(available_memory() is None, reason="the system does not say how much memory is available")
def test_scores_that_cannot_fit_are_refused_up_front(engine):
    games = 10**15
    with pytest.raises(MemoryError) as info:
        engine.simulate(games, scores=True)
    message = str(info.value)
    assert f"{2 * games} bytes" in message
    assert "available" in message and str(available_memory())[:3] in message


def test_many_games_without_scores_are_not_refused(engine):
    assert engine.simulate(3, scores=False).games == 3


def test_the_repr_of_many_scores_is_short(engine):
    stats = engine.simulate(1000, scores=True)
    assert len(repr(stats)) < 400
    assert "<1000 bytes>" in repr(stats)


def test_the_repr_of_a_few_scores_shows_them(engine):
    stats = engine.simulate(3, scores=True)
    # The scores in full, followed by the next field (simulate's origin) or the end.
    assert re.search(re.escape(f"scores={bytes(stats.scores)!r}") + r"[,)]", repr(stats))


def test_the_before_and_after_script_times_each_build_by_turns(capsys):
    """scripts/bench_simulate.py, which takes the before-and-after figures of docs/PERFORMANCE.md:
    a line per build, the first the yardstick of the ratios."""
    import runpy
    import sys

    script = runpy.run_path(str(ROOT / "scripts" / "bench_simulate.py"))
    assert script["main"](["--games", "2000", "--rounds", "2", "--against", sys.executable]) == 0
    first, second = capsys.readouterr().out.splitlines()
    assert first.startswith(f"{sys.executable}  wall: best ") and second.startswith(f"{sys.executable}  wall: ")
    assert first.count("(1.000x)") == 4 and " cpu: best " in second
