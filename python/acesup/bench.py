"""Performance figures: ``acesup bench`` (also ``python -m acesup.bench``).

It prints ratios measured in one run, because this kind of machine is noisy
and only ratios taken side by side mean something:

- native random play-outs per second on one thread, and on every core;
- native games/s divided by reference games/s for the same strategy;
- all threads divided by one thread;
- the clairvoyant solver's deals per second (``solvability``), on one thread
  and on every core;
- the resident memory of the process before and after a long native run,
  which must stay flat (the play-out loop allocates nothing per game).

The figures are printed, never asserted: speed is not a test.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import acesup
import acesup.reference

from .arguments import games_count, int_at_least

__all__ = ["add_arguments", "main", "measure", "run"]

EXAMPLES = """examples:
  acesup bench                                  the full benchmark (a few minutes)
  acesup bench --memory-games 0                 without the long memory run
  acesup bench --strategy greedy --games 200000 time another strategy
"""


def _rate(run: Callable[[], object], games: int) -> float:
    """Games per second of one call of ``run``, which plays ``games`` games."""
    began = time.perf_counter()
    run()
    return games / (time.perf_counter() - began)


def _resident_mib() -> float:
    """The process's resident set size in MiB, from /proc (Linux), else nan."""
    try:
        with open("/proc/self/statm") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return float("nan")
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(native_games: int = 2_000_000, reference_games: int = 5_000, memory_games: int = 0,
            strategy: str = "random", rules: acesup.Rules | None = None, solver_games: int = 0,
            node_limit: int | None = None) -> dict[str, float]:
    """Runs the benchmark and returns its figures by name (see the module doc).

    ``memory_games`` (0 to skip) is the length of the long run whose memory
    is compared before and after; ``solver_games`` (0 to skip) the number of
    deals the solver is timed on, each searched up to ``node_limit`` positions.
    """
    cores = os.cpu_count() or 1
    acesup.simulate(10_000, strategy, rules, seed=1, threads=1)  # warm up caches and the thread pool
    one = _rate(lambda: acesup.simulate(native_games, strategy, rules, seed=2, threads=1), native_games)
    every = _rate(lambda: acesup.simulate(native_games, strategy, rules, seed=2, threads=cores), native_games)
    reference_rules = None if rules is None else acesup.reference.Rules.parse(str(rules))
    reference = _rate(lambda: acesup.reference.simulate(reference_games, strategy, reference_rules, seed=2),
                      reference_games)
    figures = {
        "cores": cores,
        "native games/s, 1 thread": one,
        f"native games/s, {cores} threads": every,
        "reference games/s": reference,
        "native / reference (1 thread)": one / reference,
        f"{cores} threads / 1 thread": every / one,
    }
    if solver_games:
        def solve(threads: int) -> float:
            return _rate(lambda: acesup.solvability(solver_games, rules, seed=4, threads=threads,
                                                    node_limit=node_limit), solver_games)

        solver_one, solver_every = solve(1), solve(cores)
        figures["solver deals/s, 1 thread"] = solver_one
        figures[f"solver deals/s, {cores} threads"] = solver_every
        figures[f"solver {cores} threads / 1 thread"] = solver_every / solver_one
    if memory_games:
        before = _resident_mib()
        acesup.simulate(memory_games, strategy, rules, seed=3, threads=cores)
        figures[f"resident MiB before {memory_games:.0e} games"] = before
        figures[f"resident MiB after {memory_games:.0e} games"] = _resident_mib()
    return figures


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options, shared by ``acesup bench`` and ``python -m acesup.bench``."""
    parser.add_argument("--games", type=games_count(), default=2_000_000,
                        help="native games per timing (default 2e6)")
    parser.add_argument("--reference-games", type=games_count(), default=5_000,
                        help="reference games (default 5000)")
    parser.add_argument("--solver-games", type=games_count(0), default=10_000,
                        help="deals the solver is timed on, 0 to skip (default 10000)")
    parser.add_argument("--node-limit", type=int_at_least(1), default=1_000_000,
                        help="positions the solver may search per deal (default 1e6)")
    parser.add_argument("--memory-games", type=games_count(0), default=100_000_000,
                        help="games of the memory run, 0 to skip (default 1e8)")
    parser.add_argument("--strategy", default="random", help="strategy to time (default random)")


def run(args: argparse.Namespace) -> int:
    """Measures with the options parsed by ``add_arguments`` and prints the figures."""
    figures = measure(args.games, args.reference_games, args.memory_games, args.strategy,
                      solver_games=args.solver_games, node_limit=args.node_limit)
    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value:,.1f}" if isinstance(value, float) else f"{name:<{width}}  {value}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m acesup.bench", description=__doc__.split("\n\n")[0],
                                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
