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

To compare builds, ``--against`` times the same deals under other Python
interpreters (each with its own build of acesup installed), run by turns with
this one, and keeps the best CPU figure of ``--rounds`` runs of each:

    python scripts/bench_solver.py --all --rounds 5 --against /tmp/base/.venv/bin/python
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

import acesup

# (name, rules text, target in deals per second)
Case = tuple[str, str, "int | None"]
CASES: list[Case] = [
    ("standard", "standard", 10_000),
    ("deal=stuck", "deal=stuck", 100_000),
    ("relocate_single=True", "relocate_single=true", 1_000),
    ("easy", "easy", 60),
]
MORE: list[Case] = [
    ("strict", "strict", None),
    ("reverse", "reverse", None),
    ("strict, deal=stuck", "strict,deal=stuck", None),
    ("easy, deal=stuck", "easy,deal=stuck", None),
    ("reverse, deal=stuck", "reverse,deal=stuck", None),
]
FAMILY: list[Case] = [
    ("aces_up_5", "aces_up_5", None),
    ("russian_aces", "russian_aces", None),
    ("deal=any", "deal=any", None),
    ("suits=4, ranks=5", "suits=4,ranks=5", None),
    ("easy, suits=2, ranks=8", "easy,suits=2,ranks=8", None),
]


def measure(cases: list[Case], games: int, seed: int) -> dict[str, tuple[float, float, str]]:
    """Each case's (CPU deals/s, wall deals/s, verdicts) on one thread."""
    acesup.solvability(100, seed=seed + 1, threads=1)  # the first call pays for setting up
    figures = {}
    for name, text, _ in cases:
        rules = acesup.Rules.parse(text)
        cpu, wall = time.process_time(), time.perf_counter()
        result = acesup.solvability(games, rules, seed=seed, threads=1)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        verdicts = f"{result.winnable} winnable, {result.unwinnable} unwinnable, {result.unresolved} unresolved"
        figures[name] = (games / cpu, games / wall, verdicts)
    return figures


def compare(cases: list[Case], args: argparse.Namespace) -> None:
    """This build and those of ``args.against``, by turns, best CPU figure of each."""
    pythons = [sys.executable, *args.against]
    command = [os.path.abspath(__file__), "--json", "--games", str(args.games), "--seed", str(args.seed)]
    command += (["--all"] if args.all else []) + (["--family"] if args.family else [])
    best: dict[str, list[float]] = {name: [0.0] * len(pythons) for name, _, _ in cases}
    verdicts: dict[str, set[str]] = {name: set() for name, _, _ in cases}
    for _ in range(args.rounds):
        for i, python in enumerate(pythons):
            # From / so that each interpreter imports its installed build, not a source tree.
            run = subprocess.run([python, *command], capture_output=True, text=True, check=True, cwd="/")
            for name, (cpu, _, found) in json.loads(run.stdout).items():
                best[name][i] = max(best[name][i], cpu)
                verdicts[name].add(found)
    print(f"{'rules':24} " + " ".join(f"{f'build {i}':>12}" for i in range(len(pythons)))
          + "  " + " ".join(f"{f'0 / {i}':>7}" for i in range(1, len(pythons))) + "  verdicts")
    for name, rates in best.items():
        same = "same" if len(verdicts[name]) == 1 else "DIFFERENT"
        print(f"{name:24} " + " ".join(f"{r:12,.0f}" for r in rates) + "  "
              + " ".join(f"{rates[0] / r:7.3f}" for r in rates[1:]) + f"  {same}")
    for i, python in enumerate(pythons):
        print(f"build {i}: {python}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="deals per rule set (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--all", action="store_true", help="also the other presets")
    parser.add_argument("--family", action="store_true", help="also the family's presets and options")
    parser.add_argument("--against", nargs="+", default=[], metavar="PYTHON",
                        help="also time the builds of these Python interpreters, by turns with this one")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each build with --against (default 3)")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one run, for --against
    args = parser.parse_args()
    cases = CASES + (MORE if args.all else []) + (FAMILY if args.family else [])
    if args.against:
        compare(cases, args)
        return
    figures = measure(cases, args.games, args.seed)
    if args.json:
        print(json.dumps(figures))
        return
    print(f"{'rules':24} {'CPU deals/s':>12} {'wall deals/s':>13} {'target':>8}  verdicts")
    for name, _, target in cases:
        cpu, wall, verdicts = figures[name]
        shown = f"{target:,}" if target else "-"
        print(f"{name:24} {cpu:12,.0f} {wall:13,.0f} {shown:>8}  {verdicts}")


if __name__ == "__main__":
    main()
