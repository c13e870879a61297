"""Paired win rates of strategies on the same deals (docs/STRATEGIES.md, issue 12).

Plays every strategy on games 0 to n-1 of one master seed (the same deals for
all), and prints for each its win rate with the 95% Wilson interval, the CPU time
per game (the process's CPU time over the games: the cost on one core, whatever
the thread count), and its paired difference in win rate against the first
strategy, with a 95% interval (normal, on the per-deal differences) and the
games that only one of the two won:

    python scripts/players.py --games 20000 --threads 2 montecarlo hindsight
"""

from __future__ import annotations

import argparse
import math
import time

import acesup

Z = 1.959963984540054  # the 97.5% point of the normal distribution


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate."""
    p = wins / games
    centre = (p + Z * Z / (2 * games)) / (1 + Z * Z / games)
    half = Z * math.sqrt(p * (1 - p) / games + Z * Z / (4 * games * games)) / (1 + Z * Z / games)
    return centre - half, centre + half


def paired(won: list[bool], base: list[bool]) -> tuple[float, float, float, int, int]:
    """The paired difference in win rate of ``won`` over ``base`` on the same deals,
    its 95% interval, and the deals that only one of them won (more, fewer)."""
    n = len(won)
    more = sum(a and not b for a, b in zip(won, base))
    fewer = sum(b and not a for a, b in zip(won, base))
    mean = (more - fewer) / n
    variance = ((more + fewer) / n - mean * mean) * n / max(n - 1, 1)
    half = Z * math.sqrt(variance / n)
    return mean, mean - half, mean + half, more, fewer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("strategies", nargs="+", help="strategy texts; the first is the base of the differences")
    parser.add_argument("--games", type=int, default=2000, help="deals (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="master seed (default 1)")
    parser.add_argument("--threads", type=int, default=1, help="threads (default 1)")
    parser.add_argument("--rules", default="standard", help="a Rules text (default standard)")
    args = parser.parse_args()
    rules = acesup.Rules.parse(args.rules)
    base: list[bool] | None = None
    for text in args.strategies:
        cpu = time.process_time()
        stats = acesup.simulate(args.games, text, rules, seed=args.seed, threads=args.threads, scores=True)
        ms = (time.process_time() - cpu) * 1000 / args.games
        assert stats.scores is not None  # recorded: scores=True
        won = [score == rules.win_score() for score in stats.scores]
        low, high = wilson(stats.wins, stats.games)
        line = (f"{text:40} {stats.wins:6}/{stats.games} = {100 * stats.win_rate:.2f}% "
                f"(95% CI {100 * low:.2f} to {100 * high:.2f})  {ms:8.3f} ms/game")
        if base is None:
            base = won
        else:
            mean, low, high, more, fewer = paired(won, base)
            line += f"  vs first: {100 * mean:+.2f} points (95% CI {100 * low:+.2f} to {100 * high:+.2f}), +{more} -{fewer}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
