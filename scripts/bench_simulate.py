"""Benchmark of native play-outs on one thread, this build against others.

Times ``acesup.simulate(games, strategy, seed=2, threads=1)`` (best of 3 calls, by
the wall clock and by the CPU time of the process) under this interpreter and under
every ``--against`` one (each with its own build of acesup installed), a fresh
process each, by turns for ``--rounds`` rounds, and prints each build's best and
median nanoseconds a game with the ratios to the first ``--against``: the way the
before-and-after figures of docs/PERFORMANCE.md are taken, for the machine's noise comes and goes.

    python scripts/bench_simulate.py --rounds 6 --against /tmp/base/.venv/bin/python
    python scripts/bench_simulate.py --strategy greedy --games 200000 --against ...
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

_ONE_ROUND = r"""
import json, sys, time
import acesup
games, strategy = int(sys.argv[1]), sys.argv[2]
wall = cpu = float("inf")
for _ in range(3):
    began_wall, began_cpu = time.perf_counter(), time.process_time()
    acesup.simulate(games, strategy, seed=2, threads=1)
    wall = min(wall, time.perf_counter() - began_wall)
    cpu = min(cpu, time.process_time() - began_cpu)
print(json.dumps({"wall": wall * 1e9 / games, "cpu": cpu * 1e9 / games}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--strategy", default="random")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--against", nargs="+", default=[], metavar="PYTHON")
    args = parser.parse_args(argv)
    builds = args.against + [sys.executable]
    figures: dict[str, dict[str, list[float]]] = {b: {"wall": [], "cpu": []} for b in builds}
    for _ in range(args.rounds):
        for build in builds:
            out = subprocess.run([build, "-c", _ONE_ROUND, str(args.games), args.strategy],
                                 capture_output=True, text=True, check=True).stdout
            for clock, ns in json.loads(out).items():
                figures[build][clock].append(ns)
    base = figures[builds[0]]
    for build in builds:
        line = [build]
        for clock in ("wall", "cpu"):
            best, median = min(figures[build][clock]), statistics.median(figures[build][clock])
            line.append(f"{clock}: best {best:.1f} ns ({min(base[clock]) / best:.3f}x),"
                        f" median {median:.1f} ns ({statistics.median(base[clock]) / median:.3f}x)")
        print("  ".join(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
