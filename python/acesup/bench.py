"""Performance figures: ``acesup bench`` (also ``python -m acesup.bench``).

It prints ratios measured in one run, because this kind of machine is noisy
and only ratios taken side by side mean something:

- native random play-outs: nanoseconds a game and games per second on one
  thread, games per second on two threads and on every core, and on two
  processes of one thread each that start playing at the same moment (what two
  threads should match: the host's own scaling); the first three timed in
  alternated rounds, each the best of its rounds; and, with two rounds or more,
  the mean of each round's two threads over its two processes with its standard
  error (``--rounds 30`` makes it fine enough to tell 1-2% from the noise);
- montecarlo's milliseconds a game on one thread, and the size in bytes of a
  native position (which montecarlo and greedy copy per candidate);
- native games/s divided by reference games/s for the same strategy;
- all threads divided by one thread;
- the clairvoyant solver's deals per second (``solvability``), on one thread
  and on every core;
- the solver's deals per second on one thread under the standard rules,
  ``deal="stuck"`` and ``relocate_single=True`` (the rule sets of issue 13),
  divided by those of the plain search on the same deals (every legal move, a set
  of the positions seen, no other pruning: docs/SOLVER.md), with equal verdicts;
- the resident memory of the process before and after a long native run,
  which must stay flat (the play-out loop allocates nothing per game);
- the batch section (docs/BATCH.md): games/s of a NumPy random-legal policy over
  ``acesup.Batch`` divided by those of the same policy as a Python callable in
  ``simulate``, and the decisions that policy's games take (the Batch's games/s
  are at most the step's decisions/s over them); the same policy as the built-in
  ``"random"`` on every core, whose games/s no Batch policy can exceed, over the
  callable's: the ceiling of Batch / callable; the native ``step``'s decisions
  per second on every core with a trivial policy (the highest legal action), the
  policy's own time apart; and the resident memory before and after a long batch
  run.

The figures are printed, never asserted: speed is not a test.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

import acesup

if TYPE_CHECKING:  # the command line imports this module to build its parser: no NumPy then
    import numpy as np

from .arguments import U64, games_count, int_at_least, int_in_range

__all__ = ["add_arguments", "main", "measure", "measure_batch", "measure_solver", "run"]

EXAMPLES = """examples:
  acesup bench                                  the full benchmark (a few minutes)
  acesup bench --memory-games 0                 without the long memory run
  acesup bench --strategy greedy --games 200000 time another strategy
  acesup bench --batch-only                     only the batch section
"""


_MEAN_RATIO = "2 threads / 2 processes, mean of the rounds"
_RATIO_ERROR = "2 threads / 2 processes, its standard error"


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


_ONE_PROCESS = """
import signal, sys, time, acesup
signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C: the parent reports it; no traceback here
games, strategy, rules = int(sys.argv[1]), sys.argv[2], sys.argv[3] or None
rules = None if rules is None else acesup.Rules.parse(rules)
acesup.simulate(10_000, strategy, rules, seed=1, threads=1)
print("ready", flush=True)
sys.stdin.readline()
began = time.monotonic()
acesup.simulate(games, strategy, rules, seed=2, threads=1)
print(began, time.monotonic(), flush=True)
"""


def _two_processes(games: int, strategy: str, rules: acesup.Rules | None) -> float:
    """Games per second of two processes of one thread each, ``games`` games each:
    the total games over the span from the first one's start to the last one's end.

    Each process imports acesup and warms up, then waits for the word to go, which
    both get at once: starting them together is not enough, since one may finish
    its import while the other is still in it, and then play part of its games
    alone on the machine.
    """
    command = [sys.executable, "-c", _ONE_PROCESS, str(games), strategy, "" if rules is None else str(rules)]
    runs = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            for _ in range(2)]
    try:
        for run in runs:
            assert run.stdout is not None  # a pipe, as stdin is
            if run.stdout.readline().strip() != "ready":
                raise RuntimeError(f"a benchmark process failed to start (exit status {run.wait()})")
        for run in runs:
            assert run.stdin is not None  # a pipe
            run.stdin.write("go\n")
            run.stdin.flush()
        # time.monotonic() is one clock for every process of the machine (Linux: CLOCK_MONOTONIC).
        outputs = [run.communicate()[0] for run in runs]
        if any(run.returncode == -signal.SIGINT for run in runs):
            raise KeyboardInterrupt  # Ctrl-C reached the processes before this one saw it
        for run in runs:
            if run.returncode:
                raise RuntimeError(f"a benchmark process failed (exit status {run.returncode})")
        spans = [tuple(map(float, output.split())) for output in outputs]
    finally:
        for run in runs:
            run.kill()
    return 2 * games / (max(end for _, end in spans) - min(began for began, _ in spans))


def measure(native_games: int = 2_000_000, reference_games: int = 5_000, memory_games: int = 0,
            strategy: str = "random", rules: acesup.Rules | None = None, solver_games: int = 0,
            node_limit: int | None = None, montecarlo_games: int = 0, rounds: int = 3) -> dict[str, float]:
    """Runs the benchmark and returns its figures by name (see the module doc).

    The play-outs on one thread, on two threads and on two processes are timed
    ``rounds`` times, alternated, and each figure is the best of its rounds.
    ``memory_games`` (0 to skip) is the length of the long run whose memory
    is compared before and after; ``solver_games`` (0 to skip) the number of
    deals the solver is timed on, each searched up to ``node_limit`` positions;
    ``montecarlo_games`` (0 to skip) the games montecarlo is timed on.
    """
    import acesup.reference  # here, not at the top: it loads NumPy (see the imports)

    cores = os.cpu_count() or 1
    acesup.simulate(10_000, strategy, rules, seed=1, threads=1)  # warm up caches and the thread pool
    one = two = processes = 0.0
    ratios = []  # each round's two threads over its two processes
    for _ in range(rounds):  # alternated, the best of each: the machine's noise comes and goes
        one = max(one, _rate(lambda: acesup.simulate(native_games, strategy, rules, seed=2, threads=1),
                             native_games))
        two_now = _rate(lambda: acesup.simulate(native_games, strategy, rules, seed=2, threads=2), native_games)
        processes_now = _two_processes(native_games // 2, strategy, rules)
        two, processes = max(two, two_now), max(processes, processes_now)
        ratios.append(two_now / processes_now)
    reference_rules = None if rules is None else acesup.reference.Rules.parse(str(rules))
    reference = _rate(lambda: acesup.reference.simulate(reference_games, strategy, reference_rules, seed=2),
                      reference_games)
    figures = {
        "cores": cores,
        "native ns a game, 1 thread": 1e9 / one,
        "native games/s, 1 thread": one,
        "native games/s, 2 threads": two,
        "native games/s, 2 processes of 1 thread": processes,
        "2 threads / 2 processes": two / processes,
        **({_MEAN_RATIO: statistics.mean(ratios),
            _RATIO_ERROR: statistics.stdev(ratios) / math.sqrt(len(ratios))} if len(ratios) >= 2 else {}),
        "2 threads / 1 thread": two / one,
        "reference games/s": reference,
        "native / reference (1 thread)": one / reference,
        "bytes of a native position": acesup._core.POSITION_BYTES,
    }
    if cores != 2:
        # On two cores these are the figures of two threads above, measured once.
        every = _rate(lambda: acesup.simulate(native_games, strategy, rules, seed=2, threads=cores), native_games)
        figures[f"native games/s, {cores} threads"] = every
        figures[f"{cores} threads / 1 thread"] = every / one
    if montecarlo_games:
        acesup.simulate(1, "montecarlo", rules, seed=1, threads=1)
        rate = _rate(lambda: acesup.simulate(montecarlo_games, "montecarlo", rules, seed=2, threads=1),
                     montecarlo_games)
        figures["montecarlo ms a game, 1 thread"] = 1e3 / rate
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


#: The rule sets on which the solver is timed against the plain search.
SOLVER_RULES = ("standard", "deal=stuck", "relocate_single=true")


def measure_solver(games: int = 200) -> dict[str, float]:
    """The solver's deals per second on one thread and its ratio to the plain
    search, timed on the same ``games`` deals (seed 4) under each of
    ``SOLVER_RULES``; a verdict that differs raises AssertionError."""
    from ._core import _plain_solvability

    figures = {}
    for text in SOLVER_RULES:
        rules = acesup.Rules.parse(text)
        verdicts: list[acesup.Solvability] = []
        # Each lambda runs at once, inside its iteration.
        fast = _rate(lambda: verdicts.append(acesup.solvability(games, rules, seed=4, threads=1)), games)
        slow = _rate(lambda: verdicts.append(_plain_solvability(games, rules, 4)), games)
        assert verdicts[0] == verdicts[1], (text, verdicts)
        figures[f"solver deals/s, 1 thread, {text}"] = fast
        figures[f"solver / plain search, {text}"] = fast / slow
    return figures


def _random_legal(rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """A uniformly random legal action of each row of ``mask`` (BATCH.md's example):
    its k-th legal action for k uniform below the row's number of legal actions, one
    draw a row (action 0 in a row without any)."""
    seen = mask.cumsum(axis=1, dtype="uint8")  # the legal actions up to each action (A <= 226)
    k = (rng.random(len(mask)) * seen[:, -1]).astype("uint8")
    actions: np.ndarray = (seen > k[:, None]).argmax(axis=1)
    return actions


def _highest_legal(mask: np.ndarray) -> np.ndarray:
    """The trivial policy: the highest legal action of each row."""
    actions: np.ndarray = mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
    return actions


def measure_batch(slots: int = 65_536, steps: int = 100, callable_games: int = 10_000,
                  memory_games: int = 10_000_000) -> dict[str, float]:
    """The batch section (see the module doc) over a Batch of ``slots`` slots: the
    random-legal policy over 2 * ``slots`` games once its games end at every step,
    ``callable_games`` games of it as a callable, ``steps`` timed steps of the
    trivial policy, and a memory run of ``memory_games`` games (0 to skip)."""
    figures: dict[str, float] = {}
    choice = random.Random(1)

    def random_callable(game: acesup.Game) -> acesup.Move:
        moves = game.legal_moves()  # the forced discard first, as the Batch plays it
        return moves[0] if moves[0].kind == "discard" else choice.choice(moves)

    import numpy as np  # here, not at the top (see the imports)

    called = _rate(lambda: acesup.simulate(callable_games, random_callable, seed=5), callable_games)
    rng = np.random.default_rng(1)
    batch = acesup.Batch(slots, seed=5)
    while batch.finished < slots:  # into the steady state, where games end at every step
        batch.step(_random_legal(rng, batch.action_mask))
    finished, began, timed = batch.finished, time.perf_counter(), 0
    while batch.finished < finished + 2 * slots:
        batch.step(_random_legal(rng, batch.action_mask))
        timed += 1
    batched = (batch.finished - finished) / (time.perf_counter() - began)
    # The built-in "random" is the same policy (the forced discards, then a uniformly
    # random legal move) played with no Python and no arrays: what the Batch's games/s
    # cannot exceed on these cores, and so the ceiling of Batch / callable.
    native = _rate(lambda: acesup.simulate(20 * slots, "random", seed=5, threads=os.cpu_count()), 20 * slots)
    figures["random-legal games/s, callable in simulate"] = called
    figures[f"random-legal games/s, NumPy over Batch({slots})"] = batched
    figures["Batch / callable"] = batched / called
    figures[f"random games/s, built-in native, {os.cpu_count() or 1} cores"] = native
    figures["ceiling of Batch / callable (built-in / callable)"] = native / called
    # Every slot decides at every step (the run has 2**64 games), so a game costs this
    # many decisions: Batch's games/s are at most the step's decisions/s over it.
    figures["random-legal decisions a game"] = timed * slots / (batch.finished - finished)

    batch = acesup.Batch(slots, seed=6)  # a run of 2**64 games: every slot decides at every step
    in_policy = in_step = 0.0
    for _ in range(steps):
        began = time.perf_counter()
        actions = _highest_legal(batch.action_mask)
        middle = time.perf_counter()
        batch.step(actions)
        in_policy += middle - began
        in_step += time.perf_counter() - middle
    figures[f"native step decisions/s, {os.cpu_count() or 1} cores"] = slots * steps / in_step
    figures["trivial policy decisions/s (NumPy, apart)"] = slots * steps / in_policy
    if memory_games:
        before = _resident_mib()
        while batch.finished < memory_games:
            batch.step(_highest_legal(batch.action_mask))
        figures[f"batch resident MiB before {memory_games:.0e} games"] = before
        figures[f"batch resident MiB after {batch.finished:.0e} games"] = _resident_mib()
    return figures


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The benchmark's options, shared by ``acesup bench`` and ``python -m acesup.bench``."""
    parser.add_argument("--games", type=games_count(2), default=2_000_000,
                        help="native games per timing, at least 2: the two processes play half each (default 2e6)")
    parser.add_argument("--reference-games", type=games_count(), default=5_000,
                        help="reference games (default 5000)")
    parser.add_argument("--solver-games", type=games_count(0), default=10_000,
                        help="deals the solver is timed on, 0 to skip (default 10000)")
    parser.add_argument("--plain-games", type=games_count(0), default=200,
                        help="deals of the solver against the plain search, 0 to skip (default 200)")
    parser.add_argument("--node-limit", type=int_at_least(1), default=1_000_000,
                        help="positions the solver may search per deal in the solver timing (default 1e6)")
    parser.add_argument("--montecarlo-games", type=games_count(0), default=500,
                        help="montecarlo games timed, 0 to skip (default 500)")
    parser.add_argument("--memory-games", type=games_count(0), default=100_000_000,
                        help="games of the memory run, 0 to skip (default 1e8)")
    parser.add_argument("--strategy", default="random", help="strategy to time (default random)")
    parser.add_argument("--rounds", type=int_at_least(1), default=3,
                        help="alternated rounds of the 1-thread, 2-thread and 2-process timings (default 3)")
    parser.add_argument("--batch-slots", type=int_in_range(1, U64 - 1, "2**64 - 1"), default=65_536,
                        help="slots of the timed Batch (default 65536)")
    parser.add_argument("--batch-steps", type=int_at_least(1), default=100,
                        help="timed steps of the trivial batch policy (default 100)")
    parser.add_argument("--callable-games", type=games_count(), default=10_000,
                        help="games of the Python callable policy (default 10000)")
    parser.add_argument("--batch-memory-games", type=games_count(0), default=10_000_000,
                        help="games of the batch memory run, 0 to skip (default 1e7)")
    parser.add_argument("--batch-only", action="store_true",
                        help="only the batch section, which reads only the --batch-* and --callable-games options")


def run(args: argparse.Namespace) -> int:
    """Measures with the options parsed by ``add_arguments`` and prints the figures."""
    figures = {} if args.batch_only else measure(
        args.games, args.reference_games, args.memory_games, args.strategy,
        solver_games=args.solver_games, node_limit=args.node_limit, montecarlo_games=args.montecarlo_games,
        rounds=args.rounds)
    if not args.batch_only and args.plain_games:
        figures |= measure_solver(args.plain_games)
    figures |= measure_batch(args.batch_slots, args.batch_steps, args.callable_games, args.batch_memory_games)
    width = max(map(len, figures))
    for name, value in figures.items():
        text = str(value)  # a count, such as the cores
        if isinstance(value, float):
            # A ratio: two decimals; the mean of the rounds' ratios and its error, three.
            text = f"{value:.3f}" if name in (_MEAN_RATIO, _RATIO_ERROR) else (
                f"{value:,.2f}" if " / " in name else f"{value:,.1f}")
        print(f"{name:<{width}}  {text}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m acesup.bench", description=__doc__.split("\n\n")[0],
                                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
