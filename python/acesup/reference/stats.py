"""The statistics of a batch of games (API.md, Stats)."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from typing import Any, TypeVar

import numpy as np

from ..display import stats_html
from ..jsontext import STATS_FORMAT, dumps, loads, stats_document, stats_from_document
from ..arguments import U64, exact_str, int_arg, is_native
from .values import Frozen

__all__ = ["Stats"]

# The histogram lengths of the layouts (RULES.md R1.4): win_score + 1, the win score
# being S * (R - 1) for S suits and R ranks with S * R >= 4 (the fewest piles).
LENGTHS = frozenset(suits * (ranks - 1) + 1 for suits in range(1, 5) for ranks in range(2, 14)
                    if suits * ranks >= 4)
SCORES = 49  # the standard game ends with 0 to 48 cards discarded
_END = object()  # the end of an iterator, for next()
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


REPR_SCORES = 64
"""The most scores a ``repr`` of Stats writes out; more are shown as their count."""

T = TypeVar("T")


class Stats(Frozen):
    """How many games ended with each score, with the figures derived from it,
    and optionally each game's score.

    ``Stats(histogram, scores=None, strategy=None, rules=None, seed=None)``:
    ``histogram`` is ``win_score + 1``
    non-negative ints (49 for the standard game), the number of games that ended
    with score 0, 1, ..., win_score, its length one that a layout of RULES.md R1.4
    gives; the last count is the wins. ``scores``, when given,
    is the score of every game in game-index order, as bytes (or any flat buffer
    of unsigned bytes, such as a bytearray or a NumPy uint8 array), and must
    agree with the histogram. ``ValueError`` for a wrong length, a negative count
    or scores that disagree with the histogram, ``TypeError`` for a count that is
    not an int (bools included), a histogram that is not iterable or scores that
    are not unsigned bytes. Stats add up (``a + b``, ``sum(shards,
    Stats.empty())``; ``sum(shards)`` works too), scores included when every
    shard that has games has them; adding Stats of two lengths raises
    ``ValueError`` unless one of them has no games. ``strategy``, ``rules`` and
    ``seed`` say what produced the games (``simulate`` sets them, ``+`` keeps
    those the shards agree on); ``==`` and ``hash`` go by the results only.
    """

    __slots__ = ("histogram", "games", "wins", "losses", "win_rate", "ci95", "mean_score", "scores",
                 "strategy", "rules", "seed", "_scores", "_key")

    histogram: tuple[int, ...]
    games: int
    wins: int  # games won: those that ended with the win score
    losses: int
    win_rate: float  # nan when games == 0
    ci95: tuple[float, float]  # Wilson 95% interval on win_rate; (0.0, 1.0) when games == 0
    mean_score: float  # nan when games == 0
    scores: np.ndarray | None  # read-only uint8 view of _scores, or None when not recorded
    # What produced the games, when simulate did (None otherwise): the strategy's
    # text or callable's name, the rules' R6.4 text, the master seed. Not part of ==.
    strategy: str | None
    rules: str | None
    seed: int | None
    _scores: bytes | None

    def __init__(self, histogram: Iterable[int], scores: Any = None, strategy: str | None = None,
                 rules: str | None = None, seed: int | None = None) -> None:
        if isinstance(histogram, (str, bytes)) or not isinstance(histogram, Iterable):
            raise TypeError(f"histogram must be a sequence of {SCORES} ints, got {type(histogram).__name__}")
        # Read no more than the longest histogram and one past it, so that an endless
        # iterator is refused rather than read for ever.
        items = iter(histogram)
        counts = tuple(int_arg(count, f"histogram[{score}]", 0, U64)
                       for score, count in enumerate(itertools.islice(items, SCORES)))
        if next(items, _END) is not _END:
            raise ValueError(f"histogram must hold at most {SCORES} counts (win_score + 1), got more")
        if len(counts) not in LENGTHS:
            raise ValueError(f"histogram must hold a count per score from 0 to the win score of some rules "
                             f"({SCORES} counts for the standard game), got {len(counts)}")
        games, wins = sum(counts), counts[-1]
        if games:
            win_rate = wins / games
            ci95 = _wilson(wins, games)
            mean_score = sum(score * count for score, count in enumerate(counts)) / games
        else:
            win_rate, ci95, mean_score = math.nan, (0.0, 1.0), math.nan
        data = None if scores is None else _score_bytes(scores, counts)
        view = None if data is None else np.frombuffer(data, dtype=np.uint8)  # read-only: bytes are immutable
        for name, value in (("histogram", counts), ("games", games), ("wins", wins), ("losses", games - wins),
                            ("win_rate", win_rate), ("ci95", ci95), ("mean_score", mean_score),
                            ("scores", view), ("_scores", data), ("_key", (counts, data)),
                            *_origin(strategy, rules, seed)):
            object.__setattr__(self, name, value)

    @staticmethod
    def _native_key(native: Any) -> object:
        """The _key of a native Stats: equal for the same games with the same
        recorded scores, and hash(_key) is the native engine's hash."""
        return native.histogram, None if native.scores is None else native.scores.tobytes()

    @classmethod
    def empty(cls) -> Stats:
        """No games (of the standard game's length): the neutral element of ``+``."""
        return cls((0,) * SCORES)

    def __add__(self, other: Stats) -> Stats:
        """The games of both, one after the other: scores are kept when both have
        them, a Stats of no games counting as an empty record (so that
        ``Stats.empty()`` is neutral)."""
        if isinstance(other, Stats):
            if len(self.histogram) != len(other.histogram):
                if not (self.games and other.games):
                    return other if self.games == 0 else self
                raise ValueError(f"cannot add the statistics of games won with {len(self.histogram) - 1} "
                                 f"and with {len(other.histogram) - 1} cards discarded")
            histogram = [a + b for a, b in zip(self.histogram, other.histogram)]
            if max(histogram) >= U64:
                raise ValueError("a count of the sum exceeds 2**64 - 1")
            records = [stats._scores for stats in (self, other) if stats.games]
            kept = [record for record in records if record is not None]
            return Stats(histogram, b"".join(kept) if kept and len(kept) == len(records) else None,
                         *_merged_origin(self, other))
        return NotImplemented

    def __radd__(self, other: object) -> Stats:
        # sum() starts from the int 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __repr__(self) -> str:
        fields = [f"histogram={self.histogram!r}"]
        if self._scores is not None:
            # A run's scores may be billions of bytes: a repr names how many.
            shown = f"<{len(self._scores)} bytes>" if len(self._scores) > REPR_SCORES else repr(self._scores)
            fields.append(f"scores={shown}")
        fields += [f"{name}={value!r}" for name, value in self._origin_fields() if value is not None]
        return f"Stats({', '.join(fields)})"

    def _origin_fields(self) -> tuple[tuple[str, object], ...]:
        return (("strategy", self.strategy), ("rules", self.rules), ("seed", self.seed))

    def __str__(self) -> str:
        if not self.games:
            return "0 games"
        low, high = self.ci95
        return (f"{self.games} games, {self.wins} won, win rate {self.win_rate:.5f} "
                f"(95% CI {low:.5f} to {high:.5f}), mean score {self.mean_score:.3f}")

    def __reduce__(self) -> tuple[type[Stats], tuple[object, ...]]:
        return Stats, (self.histogram, self._scores, self.strategy, self.rules, self.seed)

    def _repr_html_(self) -> str:
        """A small table of the figures, for notebooks (``acesup.display.stats_html``)."""
        return stats_html(self)

    def to_json(self) -> str:
        """The JSON text of these Stats (API.md, "JSON"; ``acesup.jsontext``): the
        figures, the histogram, the scores (base64) and the origin, the same text
        in both engines. ``Stats.from_json`` reads it back, equal and with the
        same origin."""
        return dumps(stats_document(self))

    @classmethod
    def from_json(cls, text: str) -> Stats:
        """The Stats that ``to_json`` wrote as ``text`` (in either engine).
        ``ValueError`` naming the problem for text that is not JSON, not a
        document of ``"format": "acesup.stats/1"``, or whose histogram, scores,
        origin or figures are wrong; ``TypeError`` for ``text`` that is not a str."""
        return stats_from_document(cls, loads(text, STATS_FORMAT))


def _origin(strategy: object, rules: object, seed: object) -> tuple[tuple[str, object], ...]:
    """The checked origin fields: each None, or a str (strategy, rules) or a seed."""
    for name, value in (("strategy", strategy), ("rules", rules)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str or None, got {type(value).__name__}")
    seed = None if seed is None else int_arg(seed, "seed", 0, U64)
    strategy, rules = (exact_str(value) if isinstance(value, str) else None for value in (strategy, rules))
    return (("strategy", strategy), ("rules", rules), ("seed", seed))


def _merged_origin(a: Stats, b: Stats) -> tuple[str | None, str | None, int | None]:
    """The origin of ``a + b``: each field kept when the Stats that have games
    agree on it (a Stats of no games takes no part, so ``Stats.empty()`` stays
    neutral), None when they differ."""
    parts = [stats for stats in (a, b) if stats.games] or [a, b]
    return (_agreed({stats.strategy for stats in parts}), _agreed({stats.rules for stats in parts}),
            _agreed({stats.seed for stats in parts}))


def _agreed(values: set[T]) -> T | None:
    """The one value of ``values``, or None when there are several."""
    return values.pop() if len(values) == 1 else None


def _score_bytes(scores: Any, histogram: tuple[int, ...]) -> bytes:
    """``scores`` (a flat buffer of unsigned bytes) as bytes, checked against the
    histogram it comes with."""
    try:
        view = memoryview(scores)
    except TypeError:
        raise TypeError(f"scores must be bytes (or a flat buffer of unsigned bytes) or None, "
                        f"got {type(scores).__name__}") from None
    if view.format != "B" or view.ndim != 1:
        raise TypeError(f"scores must be a flat buffer of unsigned bytes, got format {view.format!r} "
                        f"with {view.ndim} dimensions")
    data = view.tobytes()
    counted = np.bincount(np.frombuffer(data, dtype=np.uint8), minlength=len(histogram))
    if len(counted) > len(histogram) or tuple(counted.tolist()) != histogram:
        raise ValueError("scores must be the scores (0 to the win score) of the games the histogram counts, "
                         "in game-index order; they do not match the histogram")
    return data


def _wilson(wins: int, games: int) -> tuple[float, float]:
    """The Wilson score interval, computed step by step exactly as API.md writes
    it, so that both engines get the same floats."""
    n = games
    p = wins / n
    z = Z95
    z2 = z * z
    denom = 1 + z2 / n
    center = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    # The exact endpoints when no game or every game is won: the formula's
    # rounding would otherwise leave the bound a hair (~1e-17) inside.
    low = 0.0 if wins == 0 else max(0.0, center - half)
    high = 1.0 if wins == games else min(1.0, center + half)
    return (low, high)
