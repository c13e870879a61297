"""Control over runs (issue 9, items 1-3): no strategy can crash the interpreter by
re-entering ``simulate``, and Ctrl-C ends any run, or any decision of a built-in
called directly, within half a second. Each case runs in a subprocess, so that a
crash or a hang fails its test instead of killing pytest."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

REENTRY = """
import sys
import {engine} as engine
sys.setrecursionlimit(3000)
depth = 0

def nests(game):
    global depth
    depth += 1
    try:
        engine.simulate(1, nests)
    finally:
        depth -= 1
    return game.legal_moves()[0]

try:
    engine.simulate(1, nests)
except RecursionError as err:
    print("RecursionError", err)
"""


def run_python(source, timeout=60):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(source)], capture_output=True, text=True,
                          timeout=timeout)


def test_reentering_simulate_is_bounded(engine):
    done = run_python(REENTRY.format(engine=engine.__name__))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("RecursionError simulate() nested more than 16 deep"), done.stdout


def test_simulate_nests_sixteen_deep(engine):
    done = run_python(f"""
        import {engine.__name__} as engine
        levels = []

        def nests(game):
            if len(levels) < 15:
                levels.append(1)
                engine.simulate(1, nests)
            return game.legal_moves()[0]

        engine.simulate(1, nests)
        print(len(levels))
        """)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "15"


# A position where montecarlo weighs several lines: each play-out costs microseconds.
MANY_LINES = ("Ts2c/-/KhKs/Qh 7c6h8dQc4d8hKc2sJc6c3h9c6sAdJd2h6d2d3cTc5c3d7h4cAs9s4h7s8c4s9d7dKd5dThAcQd3s"
              "JhQsTdJsAh5h 8s5s9h fill=top,deal=free,relocate_single=false,ace_high=true")


def test_a_long_builtin_decision_lets_other_threads_run(engine):
    """A built-in called directly does not hold the interpreter for the length of
    its decision (the native engine releases the GIL)."""
    import threading
    import time

    game = engine.Game.from_str(MANY_LINES)
    decide = engine.strategy("montecarlo:playouts=300000" if engine.__name__ == "acesup" else
                             "montecarlo:playouts=300")
    worker = threading.Thread(target=decide, args=(game,))
    began = time.perf_counter()
    worker.start()
    ticks = 0
    while worker.is_alive():
        ticks += 1
        time.sleep(0.002)
    took = time.perf_counter() - began
    assert took > 0.3, "the decision is too quick to show anything"
    assert ticks > took / 0.002 / 10, f"{ticks} ticks of the other thread in {took:.2f} s"
