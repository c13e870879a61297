"""acesup.reference: the pure-Python reference engine of acesup.

It implements docs/RULES.md, docs/RNG.md and docs/API.md to the letter and is
the readable source of truth that the native engine (``acesup``) reproduces draw
for draw. The modules mirror the native engine's: cards, rules, rng, game,
strategies, stats, simulate, solver, optimal.
"""

from ..compare import Comparison, Pair, compare_in
from ..evaluation import evaluate_in
from .. import errors
from ..errors import *  # noqa: F403 - the shared exceptions, listed once in errors.__all__
from .batch import Batch
from .bound import UpperBound, upper_bound
from .cards import Card
from .deals import deck_from_kpat, deck_from_pysol, deck_from_seed
from .game import Game
from .moves import Move
from .optimal import optimal
from .rng import Rng, game_seed
from .rules import Rules
from .simulate import simulate
from .solver import Solution, Solvability, solvability, solve, solve_deals
from .stats import Stats
from .strategies import BuiltinStrategy, builtin_names, strategy

compare = compare_in(simulate)
evaluate = evaluate_in(Batch, simulate)

__all__ = [
    "Card",
    "Move",
    "Rules",
    "Game",
    "Batch",
    "evaluate",
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
    "deck_from_seed",
    "deck_from_kpat",
    "deck_from_pysol",
    "game_seed",
    "upper_bound",
    "UpperBound",
]
__all__ += errors.__all__  # a form mypy reads, so that the names count as exported
