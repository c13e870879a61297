"""The standard game's speed, this build against another, in one alternated run.

Times the workloads that issue "The house in order" holds to a ratio of at least 0.97
against old main (random, greedy and montecarlo play-outs, the solver under three rule
sets, the Batch step), each in a fresh interpreter per build, the builds by turns (their
order swapped every round), each figure the best CPU time of 3 calls in its process. It
prints, per workload, each build's best time and two ratios of the other build's time to
this one's (above 1: this build is faster): of the best times, and the median of the
rounds' paired ratios (a round's two processes run back to back, so a slow spell of the
machine touches both). Run from the repository root, with the other build installed in
its own interpreter:

    python scripts/bench_against.py /work/old-main/.venv/bin/python --rounds 8

docs/PERFORMANCE.md has its figures.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

# Each about one to three seconds of one core: long enough that a process's start and
# the timer's grain are lost in it, short enough for many rounds.
WORKLOADS = {
    "random 3M": "acesup.simulate(3_000_000, 'random', seed=2, threads=1)",
    "greedy 1.2M": "acesup.simulate(1_200_000, 'greedy', seed=2, threads=1)",
    "montecarlo 3000": "acesup.simulate(3000, 'montecarlo', seed=2, threads=1)",
    "solver standard 40k": "acesup.solvability(40_000, acesup.Rules.standard(), seed=0, threads=1)",
    "solver deal=stuck 200k": "acesup.solvability(200_000, acesup.Rules(deal='stuck'), seed=0, threads=1)",
    "solver relocate_single 4k": "acesup.solvability(4000, acesup.Rules(relocate_single=True), seed=0, threads=1)",
    "Batch 4096 x 2000 steps": (
        "b = acesup.Batch(4096, seed=1)\n"
        "for _ in range(2000):\n"
        "    m = b.action_mask\n"
        "    b.step(m.shape[1] - 1 - np.argmax(m[:, ::-1], axis=1))"
    ),
}

_ONE = r"""
import os, sys, time
os.environ["RAYON_NUM_THREADS"] = "1"
# NumPy's OpenBLAS threads spin between calls, on CPU time that is neither build's.
os.environ["OPENBLAS_NUM_THREADS"] = "1"
import numpy as np
import acesup
code = sys.stdin.read()
best = float("inf")
for _ in range(3):
    began = time.process_time()
    exec(code)
    best = min(best, time.process_time() - began)
print(best)
"""


def timed(python: str, code: str) -> float:
    """The best CPU seconds of 3 runs of ``code`` in a fresh ``python``."""
    done = subprocess.run([python, "-c", _ONE], input=code, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{python} failed:\n{done.stderr[-2000:]}")
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("other", help="the interpreter with the other build installed (e.g. old main's)")
    parser.add_argument("--this", default=sys.executable, help="the interpreter of this build (default: this one)")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--only", default="", help="only the workloads whose name contains this text")
    args = parser.parse_args()
    chosen = {name: code for name, code in WORKLOADS.items() if args.only in name}
    times: dict[str, dict[str, list[float]]] = {name: {"this": [], "other": []} for name in chosen}
    builds = [("this", args.this), ("other", args.other)]
    for r in range(args.rounds):
        for name, code in chosen.items():
            for build, python in builds if r % 2 else builds[::-1]:
                times[name][build].append(timed(python, code))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    print(f"{'workload':28s} {'other best s':>12s} {'this best s':>12s} {'ratio of bests':>15s} {'median ratio':>13s}")
    for name, t in times.items():
        paired = statistics.median(o / n for o, n in zip(t["other"], t["this"]))
        print(f"{name:28s} {min(t['other']):12.3f} {min(t['this']):12.3f} {min(t['other']) / min(t['this']):15.3f}"
              f" {paired:13.3f}")


if __name__ == "__main__":
    main()
