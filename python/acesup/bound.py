"""The certified upper bound on the optimum without clairvoyance (docs/BOUND.md),
the parts both engines share: the result ``UpperBound``, the checks of
``upper_bound``'s arguments, the fitted value functions W, and the native
engine's ``upper_bound``, which searches in Rust (``acesup._core``).

The bound is an information relaxation with penalties (Brown, Smith and Sun,
Operations Research 58(4), 2010): a player who sees the stock, charged at each
deal ``W(after) - E[W(after) | before]``, can win no more on average than a
player who does not see it, for any W. ``acesup.reference.bound`` writes the
search plainly.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from .arguments import U64, int_arg
from .progress import reporter

__all__ = ["UpperBound", "upper_bound", "VALUES", "FEATURE_VALUES"]

Z95 = 1.959963984540054  # the 97.5% quantile of the standard normal distribution, as Stats uses
VALUES = ("zero", "exact", "features", "strong")
"""The value functions W by name (BOUND.md, *Value functions*): ``"zero"`` (W = 0,
the clairvoyant share), ``"exact"`` (the exact optimal value of ``acesup.optimal``'s
table: small decks, the reference engine), ``"features"`` (a table of the
position's stock, cards on the piles and discardable piles, fitted on a player's
games by ``scripts/fit_bound_values.py``) and ``"strong"`` (the exact value where
no stock is left after the deal, the game being then determined, and 0 elsewhere)."""
RATIONAL = ("zero", "exact")  # the W of VALUES whose bounds are exact fractions (the others' are floats)
FEATURE_VALUES = "bound_values.json"  # the fitted feature tables, beside this module
DEFAULT_SAMPLES = 64  # deals drawn per expectation when there are more possible deals than this


@dataclass(frozen=True)
class UpperBound:
    """The result of ``upper_bound``: an upper bound on the probability that a
    player who never sees the stock wins a random deal.

    - ``mean``: the mean over the ``games`` stock orders of the clairvoyant's best
      (won − penalties): the bound, an estimate of a quantity at least the optimum;
      ``ci95`` its 95% interval (normal, over the per-game values), whose upper end
      is the certified bound at 95%.
    - ``exact``: the mean as a Fraction when every penalty was rational (``value``
      ``"zero"`` or ``"exact"``), else None.
    - ``value``: the W used, described; ``samples``: deals drawn per expectation
      (None: every expectation enumerated exactly).
    - ``values``: the per-game values, in game order (Fractions when exact); ``nodes``: the positions
      searched in all; ``seconds``: the wall time (not compared by ``==``).
    """

    games: int
    mean: float
    ci95: tuple[float, float]
    exact: Fraction | None
    value: str
    samples: int | None
    values: tuple[float | Fraction, ...] = field(repr=False)
    nodes: int
    seconds: float = field(compare=False)

    def __add__(self, other: UpperBound) -> UpperBound:
        """The bound over both runs' games (this one's first), as one run gives."""
        if not isinstance(other, UpperBound):
            return NotImplemented
        if (self.value, self.samples) != (other.value, other.samples):
            raise ValueError(f"cannot add bounds of different W or samples: {self.value!r}, {self.samples} "
                             f"and {other.value!r}, {other.samples}")
        # A run of no games has no exact mean, whatever its W: the other one says.
        rational = self.exact is not None or other.exact is not None
        return summary(self.values + other.values, rational, self.value, self.samples,
                       self.nodes + other.nodes, self.seconds + other.seconds)

    def __str__(self) -> str:
        low, high = self.ci95
        return (f"upper bound {100 * self.mean:.2f}% (95% CI {100 * low:.2f} to {100 * high:.2f}) over "
                f"{self.games} games, W {self.value}, {self.nodes} positions, {self.seconds:.1f} s")


def summary(values: Sequence[float | Fraction], rational: bool, value: str, samples: int | None, nodes: int,
            seconds: float) -> UpperBound:
    """The ``UpperBound`` of the per-game ``values`` (in game order); ``rational``
    when they are exact (ints, Fractions, or floats that hold them exactly)."""
    games = len(values)
    fractions = tuple(Fraction(v) for v in values) if rational else None
    exact = sum(fractions, Fraction(0)) / games if fractions is not None and games else None
    floats = tuple(map(float, values))
    mean = float(exact) if exact is not None else math.fsum(floats) / games if games else math.nan
    if games > 1:
        spread = math.sqrt(math.fsum((v - mean) ** 2 for v in floats) / (games - 1) / games)
        ci95 = (mean - Z95 * spread, mean + Z95 * spread)
    else:
        ci95 = (-math.inf, math.inf)
    return UpperBound(games, mean, ci95, exact, value, samples, fractions or floats, nodes, seconds)


def check_arguments(games: object, rules: Any, seed: object, value: object, samples: object,
                    start: object) -> tuple[int, int, int, int | None]:
    """``games``, ``seed``, ``start`` and ``samples`` checked (``ValueError``,
    ``TypeError``), with the rest of ``upper_bound``'s checks that do not depend
    on the engine: ``value`` one of ``VALUES``; ``relocate_single`` is refused (its lone-card moves go
    round in circles, which the search does not follow)."""
    games = int_arg(games, "games")
    seed = int_arg(seed, "seed", 0, U64)
    start = int_arg(start, "start")
    if start + games > U64:
        raise ValueError(f"start + games must be at most 2**64 (game indices are 64-bit), got {start + games}")
    if samples is not None:
        samples = int_arg(samples, "samples", 1, 2**32)
    if not isinstance(value, str) or value not in VALUES:
        raise ValueError(f"value must be one of {', '.join(map(repr, VALUES))}, got {value!r}")
    if rules.relocate_single:
        raise ValueError("upper_bound does not take relocate_single=True: its lone-card moves go round in circles")
    return games, seed, start, samples


@cache
def _fitted() -> dict[str, Any]:
    with resources.files(__package__).joinpath(FEATURE_VALUES).open(encoding="utf-8") as file:
        fitted: dict[str, Any] = json.load(file)
    return fitted


def feature_table(rules: Any) -> list[float]:
    """The fitted table of W ``"features"`` under ``rules``, dense: the value of a
    position with s cards in the stock, c on the piles and d piles that may discard
    is ``table[(s * (D + 1) + c) * (P + 1) + d]``, 0 where the fit saw no position.
    ``ValueError`` for rules that no fit covers."""
    fits = _fitted().get("features", {})
    fit = fits.get(str(rules))
    if fit is None:
        raise ValueError(f"the fitted W has no fit for the rules {str(rules)!r}: fit one with "
                         f"scripts/fit_bound_values.py (fitted: {'; '.join(sorted(fits)) or 'none'})")
    deck, piles = rules.deck_size(), rules.piles
    table = [0.0] * ((deck - piles + 1) * (deck + 1) * (piles + 1))
    for key, win in fit["cells"].items():
        s, c, d = map(int, key.split(","))
        table[(s * (deck + 1) + c) * (piles + 1) + d] = float(win)
    return table


def describe(value: str, rules: Any) -> str:
    """The W of ``value`` under ``rules`` in words, for ``UpperBound.value``."""
    if value == "zero":
        return "zero"
    if value == "exact":
        return "exact (acesup.optimal's values)"
    if value == "strong":
        return "strong: exact where no stock is left after the deal, 0 elsewhere"
    fit = _fitted()["features"][str(rules)]
    return (f"features (stock, cards on the piles, discardable piles), fitted on {fit['games']} games of "
            f"{fit['player']}, seed {fit['seed']}")


def upper_bound(games: int, *, rules: Any = None, seed: int = 0, value: str = "strong",
                samples: int | None = DEFAULT_SAMPLES, start: int = 0, threads: int | None = None,
                progress: bool = False, callback: Callable[[int, int], object] | None = None) -> UpperBound:
    """An upper bound on the probability that a player who never sees the stock
    wins a deal of ``rules`` (docs/BOUND.md): the mean over games ``start`` to
    ``start + games - 1`` of master seed ``seed`` (game i dealt as
    ``Game.from_seed(game_seed(seed, i), rules)``) of the best that a player who
    sees that stock order scores, won (1 or 0) less the penalties of W ``value``
    at its deals. Each expectation of a penalty is exact when there are at most
    ``samples`` possible deals (always when ``samples`` is None), else the mean
    over ``samples`` deals drawn from the game's strategy stream.

    ``threads``: None for all cores, or an int >= 1. ``progress``: a bar on
    standard error; ``callback(done, total)`` is called in the caller's thread as
    games are done (its exceptions propagate). ``ValueError`` for a bad count,
    seed, ``samples`` or ``value``, rules with ``relocate_single``, or
    ``value="exact"`` (the reference engine's); ``TypeError`` for an argument of
    the wrong type.
    """
    from . import _core
    from .arguments import rules_arg

    rules = rules_arg(rules, _core.Rules)
    games, seed, start, samples = check_arguments(games, rules, seed, value, samples, start)
    if threads is not None:
        int_arg(threads, "threads", 1)
    if value == "exact":
        raise ValueError("value='exact' is computed by acesup.reference.upper_bound (the exact table of small decks)")
    table = feature_table(rules) if value == "features" else []
    report = reporter(games, progress, callback, "games")
    began = time.perf_counter()

    def games_done(done: int, total: int, positions: int) -> None:
        if report is not None:
            report.update(done)

    with report or nullcontext():
        values, nodes = _core._upper_bound(games, rules, seed, start, table, value == "strong", samples, threads,
                                           games_done)
        if report is not None:
            report.finish()
    return summary(values, value in RATIONAL, describe(value, rules), samples, nodes, time.perf_counter() - began)
