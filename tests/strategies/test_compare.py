"""Per-game scores (``simulate(..., scores=True)``, ``Stats.scores``) and the paired
comparison of strategies (``compare``, ``Comparison``, ``Pair``; API.md), in both
engines. The statistics are checked against values computed by hand.
"""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import numpy as np
import pytest

import acesup.errors as errors
from acesup.compare import mcnemar_exact_p, mean_diff_ci95, paired_diff_ci95
from helpers import load_engine

Z = 1.959963984540054


def histogram_of(scores):
    return [list(scores).count(s) for s in range(49)]


def stats_of(engine, scores):
    return engine.Stats(histogram_of(scores), scores=bytes(scores))


# --- per-game scores ------------------------------------------------------------------------


def test_simulate_records_every_score_in_game_order(engine):
    stats = engine.simulate(12, "greedy", seed=5, start=3, scores=True)
    scores = stats.scores
    assert isinstance(scores, np.ndarray) and scores.dtype == np.uint8 and scores.shape == (12,)
    assert not scores.flags.writeable
    assert tuple(np.bincount(scores, minlength=49)) == stats.histogram
    one_by_one = [int(engine.simulate(1, "greedy", seed=5, start=i, scores=True).scores[0]) for i in range(3, 15)]
    assert scores.tolist() == one_by_one
    with pytest.raises(ValueError):
        scores[0] = 1


def test_scores_view_the_stored_bytes(engine):
    stats = engine.simulate(6, seed=1, scores=True)
    assert np.shares_memory(stats.scores, stats.scores)  # each access views the same bytes
    assert stats.scores.base is not None


def test_scores_are_not_recorded_by_default(engine):
    assert engine.simulate(4, seed=1).scores is None
    assert engine.Stats([0] * 49).scores is None
    with pytest.raises(TypeError):
        engine.simulate(4, seed=1, scores=1)


def test_sum_of_shards_keeps_scores(engine):
    # test_simulate.py checks a + b; sum() without a start value goes through 0 + a.
    parts = [engine.simulate(7, seed=77, scores=True), engine.simulate(13, seed=77, start=7, scores=True)]
    assert sum(parts) == engine.simulate(20, seed=77, scores=True)


def test_stats_accept_scores_as_any_flat_unsigned_byte_buffer(engine):
    scores = [48, 3, 3, 20]
    expected = stats_of(engine, scores)
    for given in (bytearray(scores), np.array(scores, dtype=np.uint8), memoryview(bytes(scores))):
        assert engine.Stats(histogram_of(scores), scores=given) == expected
    assert expected.scores.tolist() == scores


@pytest.mark.parametrize("scores, exc", [
    (bytes([48, 3, 49, 3]), ValueError),  # not a score
    (np.array([48, 3, 3, 20], dtype=np.int64), TypeError),  # not bytes
    (np.array([[48, 3], [3, 20]], dtype=np.uint8), TypeError),  # not flat
])
def test_bad_scores(engine, scores, exc):
    with pytest.raises(exc):
        engine.Stats(histogram_of([48, 3, 3, 20]), scores=scores)


# --- the statistics, by hand ---------------------------------------------------------------


def exact_mcnemar(b, c):
    n, k = b + c, min(b, c)
    return min(Fraction(1), 2 * Fraction(sum(math.comb(n, i) for i in range(k + 1)), 2**n))


@pytest.mark.parametrize("b, c, p", [(1, 7, 18 / 256), (7, 1, 18 / 256), (0, 5, 2 / 32), (0, 1, 1.0),
                                     (3, 3, 1.0), (0, 0, 1.0), (4, 1, 12 / 32)])
def test_mcnemar_by_hand(b, c, p):
    assert mcnemar_exact_p(b, c) == pytest.approx(p, rel=1e-12)


def test_mcnemar_against_exact_fractions():
    for n in range(0, 41):
        for b in range(n + 1):
            assert mcnemar_exact_p(b, n - b) == pytest.approx(float(exact_mcnemar(b, n - b)), rel=1e-11)
    for b, c in [(1000, 1100), (450, 560), (1500, 1501), (20, 3000)]:
        assert mcnemar_exact_p(b, c) == pytest.approx(float(exact_mcnemar(b, c)), rel=1e-9, abs=1e-300)


def test_paired_intervals_by_hand():
    # Agresti-Min: add 1/2 to each cell. b=4, c=1 of n=8: pb = 4.5/10, pc = 1.5/10.
    d = 0.45 - 0.15
    half = Z * math.sqrt((0.45 + 0.15 - d * d) / 10)
    assert paired_diff_ci95(4, 1, 8) == pytest.approx((d - half, d + half), rel=1e-12)
    assert paired_diff_ci95(0, 0, 0)[0] >= -1.0 and paired_diff_ci95(1000, 0, 1000)[1] == 1.0
    diffs = np.array([0, 38, 28, -38, 0, 18, 0, 38], dtype=np.int64)
    half = Z * math.sqrt((5440 - 8 * 10.5**2) / 7 / 8)
    assert mean_diff_ci95(diffs) == pytest.approx((10.5 - half, 10.5 + half), rel=1e-12)
    assert mean_diff_ci95(diffs[:1]) == (-48.0, 48.0)


def test_comparison_of_hand_made_stats(engine):
    a = [48, 48, 48, 10, 20, 48, 30, 48]
    b = [48, 10, 20, 48, 20, 30, 30, 10]
    comparison = engine.Comparison.from_stats({"a": stats_of(engine, a), "b": stats_of(engine, b)})
    (pair,) = comparison.pairs
    assert (pair.a, pair.b, pair.games, pair.wins_a_only, pair.wins_b_only) == ("a", "b", 8, 4, 1)
    assert pair.diff == 3 / 8
    assert pair.p_value == pytest.approx(12 / 32, rel=1e-12)  # 2 * P(X <= 1), X ~ Bin(5, 1/2)
    assert pair.ci95 == paired_diff_ci95(4, 1, 8)
    assert pair.mean_score_diff == 10.5
    assert pair.mean_score_ci95 == mean_diff_ci95(np.array(a) - np.array(b))
    assert list(comparison.stats) == ["a", "b"]


def test_comparison_needs_scores_of_the_same_games(engine):
    with pytest.raises(ValueError):
        engine.Comparison.from_stats({"a": engine.simulate(3, seed=1), "b": engine.simulate(3, seed=1, scores=True)})
    with pytest.raises(ValueError):
        engine.Comparison.from_stats({"a": engine.simulate(3, seed=1, scores=True),
                                      "b": engine.simulate(4, seed=1, scores=True)})


# --- compare ---------------------------------------------------------------------------------


def test_compare_plays_every_strategy_on_the_same_games(engine):
    comparison = engine.compare(["noop", "greedy", "simple"], 30, seed=3, start=10)
    assert list(comparison.stats) == ["noop", "greedy", "simple"]
    for name, stats in comparison.stats.items():
        assert stats == engine.simulate(30, name, seed=3, start=10, scores=True)
    assert [(p.a, p.b) for p in comparison.pairs] == [("noop", "greedy"), ("noop", "simple"), ("greedy", "simple")]
    pair = comparison.pairs[1]
    noop, simple = comparison.stats["noop"], comparison.stats["simple"]
    assert pair.diff == pytest.approx(noop.win_rate - simple.win_rate, abs=1e-15)
    assert pair.mean_score_diff == pytest.approx(noop.mean_score - simple.mean_score, abs=1e-12)


def test_a_strategy_against_itself(engine):
    pair, = engine.compare({"x": "greedy", "y": "greedy"}, 25, seed=8).pairs
    assert (pair.wins_a_only, pair.wins_b_only, pair.diff, pair.p_value, pair.mean_score_diff) == (0, 0, 0, 1.0, 0)
    assert pair.mean_score_ci95 == (0.0, 0.0)


def test_compare_names(engine):
    def deal_last(game):
        return game.legal_moves()[-1]

    comparison = engine.compare([deal_last, "simple"], 5, seed=1, rules=engine.Rules.easy())
    assert list(comparison.stats) == ["test_compare_names.<locals>.deal_last", "simple"]
    with pytest.raises(ValueError):
        engine.compare(["greedy", "greedy"], 5)
    with pytest.raises(ValueError):
        engine.compare([], 5)
    with pytest.raises(TypeError):
        engine.compare("greedy", 5)


def test_compare_checks_everything_before_playing(engine):
    calls = []

    def counting(game):
        calls.append(1)
        return game.legal_moves()[0]

    with pytest.raises(errors.StrategyError):
        engine.compare([counting, "clever"], 5)
    with pytest.raises(ValueError):
        engine.compare([counting, "noop"], 5, seed=-1)
    assert calls == []


def test_comparison_text_forms(engine):
    comparison = engine.compare(["noop", "greedy"], 10, seed=4)
    text = str(comparison)
    assert text.startswith("| strategy | games | wins | win rate | 95% CI | mean score |")
    assert "| noop | greedy |" in text and "McNemar p" in text
    assert comparison._repr_html_().count("<table>") == 2
    assert pickle.loads(pickle.dumps(comparison)) == comparison


def test_compare_is_the_same_in_both_engines():
    native, ref = load_engine("native"), load_engine("reference")
    strategies = ["random", "noop", "greedy", "montecarlo:playouts=2,policy=noop"]
    a = native.compare(strategies, 8, native.Rules.strict(), seed=12, start=4)
    b = ref.compare(strategies, 8, ref.Rules.strict(), seed=12, start=4)
    assert a.pairs == b.pairs
    for name in strategies:
        assert a.stats[name].histogram == b.stats[name].histogram
        assert bytes(a.stats[name].scores) == bytes(b.stats[name].scores)
    assert str(a) == str(b)
