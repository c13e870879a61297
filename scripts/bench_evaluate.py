"""The throughput of ``evaluate`` against a Python callable in ``simulate``, in one
run (docs/BATCH.md "evaluate"): the trivial policy "first legal action" as a NumPy
policy in ``evaluate``, and as two callables in ``simulate`` that play the same
moves, one reading ``game.legal_moves()`` (the cheapest callable there is) and one
calling the same NumPy policy on ``game.observation`` and ``game.action_mask`` (what
a learned policy's callable does). All three play the same games and must agree.

    python scripts/bench_evaluate.py [--games N] [--callable-games N] [--batch N] [--rounds N]

Prints games per second of each, and the ratios, round by round and as the median of
the rounds: per second of wall time, and per second of the process's CPU time (all its
threads), which a machine shared with other jobs distorts less.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import acesup
from acesup.evaluation import DEFAULT_BATCH


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
    """The first legal action of each row."""
    actions: np.ndarray = action_mask.argmax(axis=1)
    return actions


def first_move(game: acesup.Game) -> acesup.Move:
    """The callable twin of ``first_legal`` (its forced discards are first in R3 order)."""
    return game.legal_moves()[0]


ACTIONS: list[acesup.Move] = [acesup.Batch(1).action_to_move(a) for a in range(acesup.Batch(1).num_actions)]


def policy_move(game: acesup.Game) -> acesup.Move:
    """``first_legal`` called on the game's own rows, one game at a time."""
    return ACTIONS[int(first_legal(game.observation[None], game.action_mask[None])[0])]


def rate(games: int, run: Callable[[], Any]) -> tuple[tuple[float, float], Any]:
    """Games per second of wall time and per second of CPU time of ``run()``, and
    what it returned."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = run()
    return (games / (time.perf_counter() - wall), games / (time.process_time() - cpu)), result


def line(batched: tuple[float, float], cheap: tuple[float, float], by_rows: tuple[float, float]) -> str:
    """The three rates and the ratios of evaluate's to the callables', wall then CPU."""
    return "; ".join(f"{clock}: evaluate {batched[k]:,.0f} games/s, simulate with legal_moves()[0] {cheap[k]:,.0f} "
                     f"({batched[k] / cheap[k]:.1f}x), simulate with the policy on Game rows {by_rows[k]:,.0f} "
                     f"({batched[k] / by_rows[k]:.0f}x)" for k, clock in enumerate(("wall", "CPU")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400_000, help="games of evaluate")
    parser.add_argument("--callable-games", type=int, default=20_000, help="games of each callable in simulate")
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="evaluate's batch")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    acesup.evaluate(first_legal, 1_000)  # NumPy and the pool warmed up
    few = args.callable_games // 10  # the callable over Game rows is the slowest
    rounds = []
    for number in range(1, args.rounds + 1):
        batched, stats = rate(args.games, lambda: acesup.evaluate(first_legal, args.games, batch=args.batch))
        cheap, played = rate(args.callable_games, lambda: acesup.simulate(args.callable_games, first_move))
        by_rows, replayed = rate(few, lambda: acesup.simulate(few, policy_move))
        assert played == acesup.evaluate(first_legal, args.callable_games)
        assert replayed == acesup.simulate(few, first_move)
        assert stats.games == args.games
        rounds.append((batched, cheap, by_rows))
        print(f"round {number}: {line(batched, cheap, by_rows)}")
    medians = [tuple(statistics.median(run[k] for run in column) for k in range(2)) for column in zip(*rounds)]
    print(f"median: {line(*medians)}")

if __name__ == "__main__":
    main()
