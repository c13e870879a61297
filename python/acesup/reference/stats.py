"""The statistics of a batch of games (API.md, Stats)."""

from __future__ import annotations

import math
from collections.abc import Iterable

from .cards import Frozen, int_arg

__all__ = ["Stats"]

SCORES = 49  # a game ends with 0 to 48 cards discarded
Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution


class Stats(Frozen):
    """How many games ended with each score, with the figures derived from it.

    ``Stats(histogram)``: 49 non-negative ints, the number of games that ended
    with score 0, 1, ..., 48. ``ValueError`` for a wrong length or a negative
    count, ``TypeError`` for a count that is not an int (bools included) or a
    histogram that is not iterable. Stats add up (``a + b``, ``sum(shards,
    Stats.empty())``; ``sum(shards)`` works too).
    """

    __slots__ = ("histogram", "games", "wins", "losses", "win_rate", "ci95", "mean_score", "_key")

    histogram: tuple[int, ...]
    games: int
    wins: int  # games won: those that ended with 48 cards discarded
    losses: int
    win_rate: float  # nan when games == 0
    ci95: tuple[float, float]  # Wilson 95% interval on win_rate; (0.0, 1.0) when games == 0
    mean_score: float  # nan when games == 0

    def __init__(self, histogram: Iterable[int]) -> None:
        if isinstance(histogram, (str, bytes)) or not isinstance(histogram, Iterable):
            raise TypeError(f"histogram must be a sequence of {SCORES} ints, got {type(histogram).__name__}")
        counts = tuple(int_arg(count, f"histogram[{score}]") for score, count in enumerate(histogram))
        if len(counts) != SCORES:
            raise ValueError(f"histogram must hold {SCORES} counts (scores 0 to 48), got {len(counts)}")
        games, wins = sum(counts), counts[-1]
        if games:
            win_rate = wins / games
            ci95 = _wilson(wins, games)
            mean_score = sum(score * count for score, count in enumerate(counts)) / games
        else:
            win_rate, ci95, mean_score = math.nan, (0.0, 1.0), math.nan
        for name, value in (("histogram", counts), ("games", games), ("wins", wins), ("losses", games - wins),
                            ("win_rate", win_rate), ("ci95", ci95), ("mean_score", mean_score), ("_key", counts)):
            object.__setattr__(self, name, value)

    @classmethod
    def empty(cls) -> Stats:
        """No games: the neutral element of ``+``."""
        return cls((0,) * SCORES)

    def __add__(self, other: Stats) -> Stats:
        if isinstance(other, Stats):
            return Stats(a + b for a, b in zip(self.histogram, other.histogram))
        return NotImplemented

    def __radd__(self, other: object) -> Stats:
        # sum() starts from the int 0.
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:
            return self
        return NotImplemented

    def __repr__(self) -> str:
        return f"Stats(histogram={self.histogram!r})"

    def __str__(self) -> str:
        if not self.games:
            return "0 games"
        low, high = self.ci95
        return (f"{self.games} games, {self.wins} won, win rate {self.win_rate:.5f} "
                f"(95% CI {low:.5f} to {high:.5f}), mean score {self.mean_score:.3f}")

    def __reduce__(self) -> tuple[type[Stats], tuple[tuple[int, ...]]]:
        return Stats, (self.histogram,)


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
    return (max(0.0, center - half), min(1.0, center + half))
