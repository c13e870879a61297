"""acesup: the solitaire Aces Up, with a fast native engine.

The names here are the native (Rust) engine's, from ``acesup._core``; the
pure-Python reference engine, with the same API, is ``acesup.reference``. The
rules are in docs/RULES.md, the generator in docs/RNG.md and the API in
docs/API.md. The exceptions are those of ``acesup.errors``, and ``compare`` is
that of ``acesup.compare``, both shared by the two engines.

``acesup.reference``, ``acesup.plot``, ``acesup.distributed``, ``acesup.gym`` and
``acesup.openspiel`` are loaded on first use (``acesup.reference.Game`` works after
a bare ``import acesup``, and ``acesup.gym`` registers the Gymnasium environment), and so
are ``acesup.Batch``, ``acesup.evaluate`` and ``__version__``, so that importing the
package stays fast and loads neither matplotlib nor Dask nor NumPy: NumPy's import takes about a
tenth of a second, and its BLAS threads then spin for about as long, on cores
that a run started right after the import would use.
"""

import importlib
from typing import TYPE_CHECKING

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
    builtin_names,
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
from .bound import UpperBound, upper_bound
from .compare import Comparison, Pair, compare_in
from . import errors
from .errors import *  # noqa: F403 - the shared exceptions, listed once in errors.__all__

compare = compare_in(simulate)

_LAZY = ("reference", "plot", "distributed", "gym", "openspiel")  # submodules loaded on first access


def _version() -> str:
    """The version pyproject.toml gives, from the installed metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("acesup")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def _evaluate() -> object:
    """``evaluate`` over the native Batch and ``simulate`` (acesup/evaluation.py)."""
    from .batch import Batch
    from .evaluation import evaluate_in

    return evaluate_in(Batch, simulate)


if TYPE_CHECKING:  # what the names made on first use are, for a type checker (which ignores __getattr__)
    from . import distributed, plot, reference
    from . import gym, openspiel
    from .batch import Batch
    from .evaluation import Evaluate

    evaluate: Evaluate[Stats]

    __version__: str

# Attributes made on first access, by name: how each is made.
_ON_FIRST_USE = {
    "Batch": lambda: importlib.import_module(f"{__name__}.batch").Batch,
    "__version__": _version,
    "evaluate": _evaluate,
}


def __getattr__(name: str) -> object:
    """Loads the submodules of ``_LAZY`` and makes the attributes of
    ``_ON_FIRST_USE`` on first access, and keeps them as the module's own."""
    if name in _LAZY:
        return importlib.import_module(f"{__name__}.{name}")  # import_module also sets the attribute
    if name not in _ON_FIRST_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = globals()[name] = _ON_FIRST_USE[name]()
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_ON_FIRST_USE))

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
    "builtin_names",
    "BuiltinStrategy",
    "compare",
    "Comparison",
    "Pair",
    "Batch",
    "evaluate",
    "deck_from_seed",
    "deck_from_kpat",
    "deck_from_pysol",
    "game_seed",
    "upper_bound",
    "UpperBound",
]
__all__ += errors.__all__  # a form mypy reads, so that the names count as exported
