"""Performance figures: ``python -m acesup.bench`` (also ``acesup bench``).

It prints ratios measured in one run, because this kind of machine is noisy
and only ratios taken side by side mean something:

- native random play-outs per second on one thread, and on every core;
- native games/s divided by reference games/s for the same strategy;
- all threads divided by one thread;
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

__all__ = ["main", "measure"]


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
            strategy: str = "random", rules: acesup.Rules | None = None) -> dict[str, float]:
    """Runs the benchmark and returns its figures by name (see the module doc).

    ``memory_games`` (0 to skip) is the length of the long run whose memory
    is compared before and after.
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
    if memory_games:
        before = _resident_mib()
        acesup.simulate(memory_games, strategy, rules, seed=3, threads=cores)
        figures[f"resident MiB before {memory_games:.0e} games"] = before
        figures[f"resident MiB after {memory_games:.0e} games"] = _resident_mib()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m acesup.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2_000_000, help="native games per timing (default 2e6)")
    parser.add_argument("--reference-games", type=int, default=5_000, help="reference games (default 5000)")
    parser.add_argument("--memory-games", type=float, default=1e8,
                        help="games of the memory run, 0 to skip (default 1e8)")
    parser.add_argument("--strategy", default="random", help="strategy to time (default random)")
    args = parser.parse_args(argv)
    figures = measure(args.games, args.reference_games, int(args.memory_games), args.strategy)
    width = max(map(len, figures))
    for name, value in figures.items():
        print(f"{name:<{width}}  {value:,.1f}" if isinstance(value, float) else f"{name:<{width}}  {value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
