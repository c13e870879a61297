"""Paired comparison of strategies (docs/API.md, ``compare``), shared by both
engines.

``compare`` plays every strategy on the same games (same master seed, same game
indices), so each pair of strategies is compared deal by deal: a paired test is
far more sensitive than comparing two win rates with independent intervals,
because most deals are won by both or by neither and say nothing about the
difference. Everything here is pure Python over the per-game scores that
``simulate(..., scores=True)`` records; each engine binds it to its own
``simulate`` with ``compare_in``.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from contextlib import nullcontext
from typing import TYPE_CHECKING, Any, Union

from .arguments import int_arg
from .jsontext import STATS_FORMAT, document, dumps, finite, loads, stats_document, stats_from_document
from .progress import Callback, Reporter, reporter

if TYPE_CHECKING:  # scores arrive as NumPy arrays, and only their methods are used here,
    import numpy as np  # so that importing acesup does not load NumPy

    from . import _core
    from .reference import stats as reference_stats

    StatsLike = Union[_core.Stats, reference_stats.Stats]  # the Stats of either engine

__all__ = ["Comparison", "Pair", "compare_in", "mcnemar_exact_p", "paired_diff_ci95", "mean_diff_ci95"]

COMPARISON_FORMAT = "acesup.comparison/1"  # the "format" of a Comparison's JSON document
STANDARD_WIN = 48  # the score of a won standard game (RULES.md R4.2)
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution, as Stats uses


@dataclass(frozen=True)
class Pair:
    """The paired comparison of strategy ``a`` with strategy ``b`` on the same games.

    - ``wins_a_only``, ``wins_b_only``: the games that one of them won and the
      other lost (the discordant pairs).
    - ``diff``: win rate of a minus win rate of b; ``ci95`` its 95% interval
      (Agresti-Min, ``paired_diff_ci95``).
    - ``p_value``: McNemar's exact test of "a and b win equally often", two-sided
      (``mcnemar_exact_p``).
    - ``mean_score_diff``: mean score of a minus that of b; ``mean_score_ci95`` its
      95% interval (normal, on the per-game differences: ``mean_diff_ci95``).
    """

    a: str
    b: str
    games: int
    wins_a_only: int
    wins_b_only: int
    diff: float
    ci95: tuple[float, float]
    p_value: float
    mean_score_diff: float
    mean_score_ci95: tuple[float, float]


@dataclass(frozen=True)
class Comparison:
    """What ``compare`` found: ``stats``, the Stats of each strategy by name (with
    its per-game scores), in the order given, and ``pairs``, the paired
    comparison of every two strategies (a listed before b), in that order.

    ``str()`` gives Markdown tables and ``_repr_html_`` HTML ones (for notebooks).
    """

    stats: dict[str, Any]
    pairs: tuple[Pair, ...]

    @classmethod
    def from_stats(cls, stats: Mapping[str, StatsLike]) -> Comparison:
        """The comparison of Stats already played on the same games, with their
        scores (``simulate(..., scores=True)``, shards added up in the same
        order), by strategy name: what ``compare`` returns once it has played.

        ``ValueError`` for no Stats, or when a Stats has no scores or they differ
        in number of games; ``TypeError`` for a name that is not a str.
        """
        stats = dict(stats)
        names = list(stats)
        if not names:
            raise ValueError("Comparison.from_stats() needs the Stats of at least one strategy")
        _check_names(names)
        scores: dict[str, np.ndarray] = {}
        for name, one in stats.items():
            if one.scores is None:
                raise ValueError(f"the Stats of {name!r} hold no per-game scores: "
                                 f"play them with simulate(..., scores=True)")
            scores[name] = one.scores
            if one.games != stats[names[0]].games:
                raise ValueError(f"the Stats of {names[0]!r} and {name!r} count different numbers of games "
                                 f"({stats[names[0]].games} and {one.games}), so they are not the same games")
            if one.games and len(one.histogram) != len(stats[names[0]].histogram):
                raise ValueError(f"the Stats of {names[0]!r} and {name!r} have different win scores "
                                 f"({len(stats[names[0]].histogram) - 1} and {len(one.histogram) - 1}), "
                                 f"so they are not the same games")
        win_score = len(stats[names[0]].histogram) - 1
        pairs = tuple(_pair(a, b, scores[a], scores[b], win_score)
                      for i, a in enumerate(names) for b in names[i + 1:])
        return cls(stats, pairs)

    def to_json(self) -> str:
        """The JSON text of the comparison (API.md, "JSON"): ``"format":
        "acesup.comparison/1"``, ``stats``, an object from strategy name to the
        document of its Stats (``Stats.to_json``'s, scores included), and
        ``pairs``, an array of objects with the fields of ``Pair`` (an interval as
        an array of two numbers, nan as null). ``Comparison.from_json`` reads it
        back, equal."""
        return dumps({"format": COMPARISON_FORMAT,
                      "stats": {name: stats_document(one) for name, one in self.stats.items()},
                      "pairs": [_pair_document(pair) for pair in self.pairs]})

    @classmethod
    def from_json(cls, text: str, stats_type: type | None = None) -> Comparison:
        """The comparison that ``to_json`` wrote as ``text`` (in either engine),
        with its Stats of class ``stats_type``: ``acesup.Stats`` (the default) or
        ``acesup.reference.Stats``. The pairs are computed again from the Stats,
        as ``from_stats`` does, and must be those written. ``ValueError`` naming
        the problem for text that is not JSON or not such a document (its Stats
        as ``Stats.from_json`` reads them), ``TypeError`` for ``text`` that is not
        a str."""
        if stats_type is None:
            from . import _core  # loaded by now: acesup imports it first

            stats_type = _core.Stats
        value = loads(text, COMPARISON_FORMAT)
        documents = value.get("stats")
        if not isinstance(documents, dict):
            raise ValueError("the comparison's \"stats\" must be an object from strategy name to Stats")
        found = cls.from_stats({
            name: stats_from_document(stats_type, document(one, STATS_FORMAT, f"the Stats of {name!r}"),
                                      f"the Stats of {name!r}")
            for name, one in documents.items()})
        if value.get("pairs") != [_pair_document(pair) for pair in found.pairs]:
            raise ValueError("the comparison's \"pairs\" are not those of its Stats")
        return found

    def _tables(self) -> list[tuple[list[str], list[list[str]]]]:
        """The two tables, headers and rows of text, that both renderings show."""
        strategies = (["strategy", "games", "wins", "win rate", "95% CI", "mean score"], [
            [name, str(s.games), str(s.wins), f"{s.win_rate:.5f}", _interval(s.ci95, 5), f"{s.mean_score:.3f}"]
            for name, s in self.stats.items()
        ])
        pairs = (["a", "b", "a won only", "b won only", "win rate a - b", "95% CI", "McNemar p",
                  "mean score a - b", "95% CI"], [
            [p.a, p.b, str(p.wins_a_only), str(p.wins_b_only), f"{p.diff:+.5f}", _interval(p.ci95, 5),
             _p_text(p.p_value), f"{p.mean_score_diff:+.3f}", _interval(p.mean_score_ci95, 3)]
            for p in self.pairs
        ])
        return [strategies, pairs] if self.pairs else [strategies]

    def __str__(self) -> str:
        blocks = []
        for header, rows in self._tables():
            lines = [header, ["---"] * len(header), *rows]
            blocks.append("\n".join("| " + " | ".join(cell.replace("|", "\\|") for cell in line) + " |"
                                    for line in lines))
        return "\n\n".join(blocks)

    def _repr_html_(self) -> str:
        blocks = []
        for header, rows in self._tables():
            head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
            body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>"
                           for row in rows)
            blocks.append(f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")
        return "\n".join(blocks)


def _pair_document(pair: Pair) -> dict[str, Any]:
    """The JSON object of a Pair: its fields in order, nan as None."""
    return {"a": pair.a, "b": pair.b, "games": pair.games, "wins_a_only": pair.wins_a_only,
            "wins_b_only": pair.wins_b_only, "diff": finite(pair.diff), "ci95": list(pair.ci95),
            "p_value": pair.p_value, "mean_score_diff": finite(pair.mean_score_diff),
            "mean_score_ci95": list(pair.mean_score_ci95)}


def _p_text(p: float) -> str:
    # Below the smallest float the p-value underflows to 0, which it is not.
    return f"{p:.3g}" if p > 0 else "< 1e-300"


def _interval(bounds: tuple[float, float], digits: int) -> str:
    low, high = bounds
    return f"{low:.{digits}f} to {high:.{digits}f}"


# --- the statistics ---------------------------------------------------------------------


def mcnemar_exact_p(b: int, c: int) -> float:
    """McNemar's exact test, two-sided: with ``b`` and ``c`` the discordant counts
    (games won by a only, by b only), the probability under "each discordant game
    is a's with probability 1/2" of a split at least as uneven:
    ``min(1, 2 * P(X <= min(b, c)))`` for X ~ Binomial(b + c, 1/2); 1.0 when b + c = 0.

    The binomial tail is summed in floating point from its largest term down,
    each term from the one above it, so it costs little even for millions of
    games; its relative error is around 1e-12.
    """
    n, k = b + c, min(b, c)
    if n == 0:
        return 1.0
    log_largest = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    total, term = 0.0, 1.0  # terms relative to the largest, C(n, k) / 2**n
    for i in range(k, -1, -1):
        total += term
        term *= i / (n - i + 1)  # C(n, i - 1) / C(n, i)
        if term < 1e-17 * total:
            break
    return min(1.0, 2.0 * math.exp(log_largest) * total)


def paired_diff_ci95(b: int, c: int, n: int) -> tuple[float, float]:
    """The 95% interval on the difference of two paired win rates, by Agresti and
    Min's adjusted Wald interval (2005): add 1/2 to each of the four cells of the
    2x2 table of outcomes, ``b`` and ``c`` being the discordant cells of ``n``
    games, then take the Wald interval. Plain Wald is badly off when few games
    are discordant; this one keeps close to 95% coverage. Clipped to [-1, 1]."""
    size = n + 2
    p_b, p_c = (b + 0.5) / size, (c + 0.5) / size
    centre = p_b - p_c
    half = Z95 * math.sqrt((p_b + p_c - centre * centre) / size)
    return (max(-1.0, centre - half), min(1.0, centre + half))


def mean_diff_ci95(diffs: np.ndarray, win_score: int = STANDARD_WIN) -> tuple[float, float]:
    """The 95% normal interval on the mean of the per-game score differences
    ``diffs``: mean ± z · s / √n, with s the sample standard deviation, from
    exact integer sums. Meant for the thousands of games a comparison needs (a
    t quantile would widen it for a handful); ``(-win_score, win_score)`` (48 in
    the standard game), knowing nothing, for fewer than two games."""
    n = len(diffs)
    if n < 2:
        return (-float(win_score), float(win_score))
    total, squares = int(diffs.sum()), int((diffs * diffs).sum())
    variance = (n * squares - total * total) / (n * (n - 1))
    half = Z95 * math.sqrt(variance / n)
    mean = total / n
    return (mean - half, mean + half)


def _pair(a: str, b: str, scores_a: np.ndarray, scores_b: np.ndarray, win_score: int) -> Pair:
    won_a, won_b = scores_a == win_score, scores_b == win_score
    b_count = int((won_a & ~won_b).sum())
    c_count = int((won_b & ~won_a).sum())
    n = len(scores_a)
    diffs = scores_a.astype("int64") - scores_b.astype("int64")
    return Pair(
        a=a, b=b, games=n, wins_a_only=b_count, wins_b_only=c_count,
        diff=(b_count - c_count) / n if n else math.nan,
        ci95=paired_diff_ci95(b_count, c_count, n),
        p_value=mcnemar_exact_p(b_count, c_count),
        mean_score_diff=int(diffs.sum()) / n if n else math.nan,
        mean_score_ci95=mean_diff_ci95(diffs, win_score),
    )


# --- compare, bound to an engine ---------------------------------------------------------


def _name_of(strategy: Any) -> str:
    """How ``compare`` names a strategy: its text, or a callable's ``__qualname__``
    (its repr when it has none, as a ``strategy(text)`` object)."""
    if isinstance(strategy, str):
        return strategy
    return getattr(strategy, "__qualname__", None) or repr(strategy)


def _check_names(names: list[Any]) -> None:
    """``TypeError`` for a name that is not a str, ``ValueError`` for one given twice."""
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"strategy names must be str, got {type(name).__name__}")
        if names.count(name) > 1:
            raise ValueError(f"the strategy name {name!r} is given twice: pass a mapping from name to "
                             f"strategy to tell them apart")


def _forwarded(report: Reporter | None, before: int) -> Callback | None:
    """The callback of one of ``compare``'s runs: it reports the run's games to
    the comparison's reporter, after the ``before`` games of the runs before."""
    if report is None:
        return None
    return lambda done, _total: report.update(before + done)


def compare_in(simulate: Callable[..., StatsLike]) -> Callable[..., Comparison]:
    """The ``compare`` function of the engine whose ``simulate`` this is."""

    def compare(strategies: Sequence[Any] | Mapping[str, Any], games: int, rules: Any = None, seed: int = 0,
                *, threads: int | None = None, start: int = 0, progress: bool = False,
                callback: Callback | None = None) -> Comparison:
        """Plays every strategy on the same games, ``start`` to ``start + games - 1``
        of master seed ``seed`` under ``rules``, and compares them pairwise.

        ``strategies`` is a sequence of strategies (built-in names or callables),
        named by their text or ``__qualname__``, or a mapping from name to
        strategy. Returns a ``Comparison``: each strategy's Stats (with its
        per-game scores) and, for every two of them, the paired difference in
        win rate with McNemar's exact test and the paired difference in mean
        score, each with a 95% interval.

        ``progress=True`` shows one tqdm bar on stderr for the whole comparison,
        of ``games`` times the number of strategies, and ``callback`` is called
        as ``callback(done, total)`` with the games played by all the runs so
        far out of that total (``acesup.progress``); an exception it raises
        stops the comparison and propagates.

        Every argument is checked before any game is played: ``ValueError`` for
        no strategies or a name given twice, ``TypeError`` for a ``progress``
        that is not a bool or a ``callback`` that is not callable, and whatever
        ``simulate`` raises for the others (``StrategyError``, ``ValueError``,
        ``TypeError``).
        """
        if isinstance(strategies, Mapping):
            named = list(strategies.items())
        elif isinstance(strategies, (str, bytes)) or not isinstance(strategies, Sequence):
            raise TypeError(f"strategies must be a sequence of strategies or a mapping from name to strategy, "
                            f"got {type(strategies).__name__}")
        else:
            named = [(_name_of(strategy), strategy) for strategy in strategies]
        if not named:
            raise ValueError("compare() needs at least one strategy")
        _check_names([name for name, _ in named])
        # Zero games check every argument and strategy at once, before the long runs.
        for _, strategy in named:
            simulate(0, strategy, rules, seed, threads=threads, start=start, scores=True)
        report = reporter(int_arg(games, "games") * len(named), progress, callback, "games")
        played: dict[str, StatsLike] = {}
        with report or nullcontext():
            for k, (name, strategy) in enumerate(named):
                played[name] = simulate(games, strategy, rules, seed, threads=threads, start=start, scores=True,
                                        callback=_forwarded(report, k * games))
            if report is not None:
                report.finish()
        return Comparison.from_stats(played)

    compare.__qualname__ = "compare"
    return compare
