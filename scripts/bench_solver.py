"""Benchmark of the native solver: deals solved per second on one core.

For each rule set, solves the first 1000 deals of seed 0 with
``acesup.solvability(1000, rules, seed=0, threads=1)`` (no node or time limit,
so every deal is resolved unless noted) and prints the deals per second, by the
CPU time of the process (the figure that does not depend on what else the
machine is doing) and by the wall clock, next to the target of the issue, with
the verdicts. Run from the repository root after building the extension:

    python scripts/bench_solver.py            # the four rule sets of the issue
    python scripts/bench_solver.py --all      # the other presets too
    python scripts/bench_solver.py --family   # the family's presets and options
"""

from __future__ import annotations

import argparse
import time

import acesup

# (name, rules text, target in deals per second)
CASES = [
    ("standard", "standard", 10_000),
    ("deal=stuck", "deal=stuck", 100_000),
    ("relocate_single=True", "relocate_single=true", 1_000),
    ("easy", "easy", 60),
]
MORE = [
    ("strict", "strict", None),
    ("reverse", "reverse", None),
    ("strict, deal=stuck", "strict,deal=stuck", None),
    ("easy, deal=stuck", "easy,deal=stuck", None),
    ("reverse, deal=stuck", "reverse,deal=stuck", None),
]
FAMILY = [
    ("aces_up_5", "aces_up_5", None),
    ("russian_aces", "russian_aces", None),
    ("deal=any", "deal=any", None),
    ("suits=4, ranks=5", "suits=4,ranks=5", None),
    ("easy, suits=2, ranks=8", "easy,suits=2,ranks=8", None),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="deals per rule set (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all", action="store_true", help="also the other presets")
    parser.add_argument("--family", action="store_true", help="also the family's presets and options")
    args = parser.parse_args()
    acesup.solvability(100, seed=args.seed + 1, threads=1)  # the first call pays for setting up
    print(f"{'rules':24} {'CPU deals/s':>12} {'wall deals/s':>13} {'target':>8}  verdicts")
    for name, text, target in CASES + (MORE if args.all else []) + (FAMILY if args.family else []):
        rules = acesup.Rules.parse(text)
        cpu, wall = time.process_time(), time.perf_counter()
        result = acesup.solvability(args.games, rules, seed=args.seed, threads=1)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        verdicts = f"{result.winnable} winnable, {result.unwinnable} unwinnable, {result.unresolved} unresolved"
        shown = f"{target:,}" if target else "-"
        print(f"{name:24} {args.games / cpu:12,.0f} {args.games / wall:13,.0f} {shown:>8}  {verdicts}")


if __name__ == "__main__":
    main()
