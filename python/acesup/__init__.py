"""acesup: the solitaire Aces Up, with a fast native engine.

The names here are the native (Rust) engine's, from ``acesup._core``; the
pure-Python reference engine, with the same API, is ``acesup.reference``. The
rules are in docs/RULES.md, the generator in docs/RNG.md and the API in
docs/API.md. The exceptions are those of ``acesup.errors``, and ``compare`` is
that of ``acesup.compare``, both shared by the two engines.

``acesup.reference``, ``acesup.plot`` and ``acesup.distributed`` are loaded on
first use (``acesup.reference.Game`` works after a bare ``import acesup``), so
that importing the package stays fast and needs neither matplotlib nor Dask.
"""

import importlib
from importlib.metadata import PackageNotFoundError, version as _version

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
    optimal,
    simulate,
    solvability,
    solve,
    solve_deals,
    strategy,
)
from .batch import Batch
from .compare import Comparison, Pair, compare_in
from . import errors
from .errors import *  # noqa: F403 - the shared exceptions, listed once in errors.__all__

compare = compare_in(simulate)

try:
    __version__ = _version("acesup")  # the version pyproject.toml gives, from the installed metadata
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"

_LAZY = ("reference", "plot", "distributed")  # submodules loaded on first access


def __getattr__(name: str) -> object:
    """Loads the submodules of ``_LAZY`` on first access as attributes."""
    if name in _LAZY:
        return importlib.import_module(f"{__name__}.{name}")  # import_module also sets the attribute
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

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
    "solve_deals",
    "optimal",
    "strategy",
    "BuiltinStrategy",
    "compare",
    "Comparison",
    "Pair",
    "Batch",
    "deck_from_seed",
    "deck_from_kpat",
    "deck_from_pysol",
    "game_seed",
] + errors.__all__
