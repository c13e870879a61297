"""Batch runs: ``simulate`` plays a range of seeded games with one strategy."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext

from ..arguments import U64, int_arg, rules_arg
from ..progress import Callback, reporter
from ..resources import check_scores_fit
from .game import Game
from .rng import game_seed
from .rules import Rules
from .stats import Stats
from .strategies import Strategy, strategy_arg

__all__ = ["simulate", "MAX_SIMULATE_NESTING"]

MAX_SIMULATE_NESTING = 16
"""How deep calls of ``simulate`` may nest on one thread (a strategy that calls
``simulate``): the native engine's stack must not overflow, so both engines refuse
a deeper call with ``RecursionError`` (API.md)."""

_nesting = threading.local()


@contextmanager
def _nested_simulate() -> Iterator[None]:
    """One more level of ``simulate`` on this thread, for the duration of a run;
    ``RecursionError`` beyond ``MAX_SIMULATE_NESTING``."""
    depth = getattr(_nesting, "depth", 0)
    if depth >= MAX_SIMULATE_NESTING:
        raise RecursionError(f"simulate() nested more than {MAX_SIMULATE_NESTING} deep: a strategy that "
                             f"calls simulate() may do so at most {MAX_SIMULATE_NESTING} calls deep")
    _nesting.depth = depth + 1
    try:
        yield
    finally:
        _nesting.depth = depth


def simulate(games: int, strategy: str | Strategy = "random", rules: Rules | None = None, seed: int = 0,
             *, threads: int | None = None, start: int = 0, scores: bool = False, progress: bool = False,
             callback: Callback | None = None) -> Stats:
    """Plays games ``start`` to ``start + games - 1`` of master seed ``seed``, game i
    being ``Game.from_seed(game_seed(seed, i), rules)`` (RNG.md), each with
    ``strategy`` until it is over, and returns their statistics.

    ``strategy`` is a built-in's name (STRATEGIES.md) or a callable
    ``strategy(game) -> Move``. ``threads`` (None for all cores, or an int >= 1) is
    checked and otherwise ignored: this engine plays on one thread, and the
    result never depends on the thread count. With ``scores=True`` the Stats
    also hold every game's score, in game-index order (``stats.scores``).
    ``progress=True`` shows a tqdm bar of the games on stderr, and ``callback``
    is called as ``callback(done, total)`` as games are played, at most every
    0.2 s and once at the end (``acesup.progress``); an exception it raises
    stops the run and propagates. Neither changes the result.

    Raises ``ValueError`` for a negative count, a seed outside [0, 2**64), a
    thread count below 1 or a last game index beyond 2**64 - 1; ``TypeError``
    for an argument of the wrong type (bools are not ints, and ``scores`` must
    be a bool, and so ``progress``; a ``callback`` must be callable);
    ``MemoryError`` when the scores asked for cannot fit in the
    memory available (``acesup.resources``); ``StrategyError``
    for an unknown strategy or one that returns no legal move.
    """
    games = int_arg(games, "games")
    player = strategy_arg(strategy)
    rules = rules_arg(rules, Rules)
    seed = int_arg(seed, "seed", 0, U64)
    if threads is not None:
        int_arg(threads, "threads", 1)
    start = int_arg(start, "start")
    if not isinstance(scores, bool):
        raise TypeError(f"scores must be True or False, got {type(scores).__name__}")
    if start + games > U64:
        raise ValueError(f"start + games must be at most 2**64 (game indices are 64-bit), got {start + games}")
    report = reporter(games, progress, callback, "games")
    if scores:
        check_scores_fit(games)
    player.prepare(rules)
    histogram = [0] * (rules.win_score() + 1)
    played = bytearray(games if scores else 0)
    with _nested_simulate(), report or nullcontext():
        for k, index in enumerate(range(start, start + games)):
            game = Game.from_seed(game_seed(seed, index), rules)
            player.play_out(game)
            histogram[game.score] += 1
            if scores:
                played[k] = game.score
            if report is not None:
                report.update(k + 1)
        if report is not None:
            report.finish()
    return Stats(histogram, bytes(played) if scores else None, player.name, str(rules), seed)
