"""acesup: the solitaire Aces Up, with a fast native engine.

The names here are the native (Rust) engine's, from ``acesup._core``; the
pure-Python reference engine, with the same API, is ``acesup.reference``. The
rules are in docs/RULES.md, the generator in docs/RNG.md and the API in
docs/API.md. The exceptions are those of ``acesup.errors``, and ``compare`` is
that of ``acesup.compare``, both shared by the two engines.
"""

from ._core import (
    BuiltinStrategy,
    Card,
    Game,
    Move,
    Rng,
    Rules,
    Solution,
    Solvability,
    Stats,
    deck_from_kpat,
    deck_from_pysol,
    deck_from_seed,
    game_seed,
    simulate,
    solvability,
    solve,
    strategy,
)
from .compare import Comparison, Pair, compare_in
from . import errors
from .errors import *  # noqa: F403 - the shared exceptions, listed once in errors.__all__

compare = compare_in(simulate)

__all__ = [
    "Card",
    "Move",
    "Rules",
    "Game",
    "Stats",
    "Rng",
    "simulate",
    "solve",
    "Solution",
    "solvability",
    "Solvability",
    "strategy",
    "BuiltinStrategy",
    "compare",
    "Comparison",
    "Pair",
    "deck_from_seed",
    "deck_from_kpat",
    "deck_from_pysol",
    "game_seed",
] + errors.__all__
