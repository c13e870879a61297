"""Interrupting and nesting runs: no strategy can crash the interpreter by
re-entering ``simulate``; Ctrl-C ends any run, or any decision of a built-in
called directly, within half a second; a long run or decision lets other Python
threads run, and one that the native engine starts again on a thread of its own
gives what an uncut one gives; ``solve_deals``' threads stop when its iterator is
dropped or interrupted. Each case runs in a subprocess, so that a crash or a hang
fails its test instead of killing pytest."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import acesup

pytestmark = pytest.mark.serial  # its runs are timed, or stopped by Ctrl-C

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


def runs_beside(work, *args, at_least):
    """Runs ``work(*args)`` on another thread while this one wakes every 2 ms, and
    checks that it woke at least a tenth of those times: the work, which must last
    ``at_least`` seconds to show anything, let the interpreter run."""
    worker = threading.Thread(target=work, args=args)
    began = time.perf_counter()
    worker.start()
    ticks = 0
    while worker.is_alive():
        ticks += 1
        time.sleep(0.002)
    took = time.perf_counter() - began
    assert took > at_least, "the work is too quick to show anything"
    assert ticks > took / 0.002 / 10, f"{ticks} ticks of the other thread in {took:.2f} s"


def test_a_long_builtin_decision_lets_other_threads_run(engine):
    """A built-in called directly does not hold the interpreter for the length of
    its decision (the native engine releases the GIL)."""
    game = engine.Game.from_str(MANY_LINES)
    decide = engine.strategy("montecarlo:playouts=300000" if engine.__name__ == "acesup" else
                             "montecarlo:playouts=300")
    runs_beside(decide, game, at_least=0.3)


# --- Ctrl-C within half a second -------------------------------------------------------------

# A run in a child process, sent SIGINT by a timer thread once its work is under way:
# it prints how long after the signal the run ended, and then what `after` prints.
INTERRUPTED = """
import os, signal, threading, time
import {engine} as engine
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if this test run ignores SIGINT
{setup}
sent = []

def interrupt():
    sent.append(time.perf_counter())
    os.kill(os.getpid(), signal.SIGINT)

threading.Timer(1.0, interrupt).start()
try:
    {call}
    print("finished")
except KeyboardInterrupt:
    print(f"stopped {{time.perf_counter() - sent[0]:.3f}}")
{after}
"""

# A pile of 28 cards and three empty piles under fill="any": lookahead weighs an
# exponential number of lines (24 cards already take most of a minute).
TALL_PILE = """
cards = [str(c) for c in engine.Rules.standard().deck()]
tall, rest = [c for c in cards if c[0] != "A"][:28], [c for c in cards if c[0] != "A"][28:]
stock = [c for c in cards if c[0] == "A"] + rest
game = engine.Game.from_str("".join(tall) + "/-/-/- " + "".join(stock) + " - "
                            + "fill=any,deal=free,relocate_single=false,ace_high=true")
"""

ENDLESS = "montecarlo:playouts=4294967295"

LONG_RUNS = {
    "simulate": ("", f"engine.simulate(10**6, {ENDLESS!r})", ""),
    "simulate on one thread": ("", f"engine.simulate(10**6, {ENDLESS!r}, threads=1)", ""),
    "a montecarlo decision": (f"game = engine.Game.from_str({MANY_LINES!r}); before = game.copy()",
                              f"engine.strategy({ENDLESS!r})(game)",
                              "print('unchanged', game == before and game.randbelow(2**60) == before.randbelow(2**60))"),
    "a lookahead decision": (TALL_PILE, 'engine.strategy("lookahead")(game)', ""),
    "solve": ("game = engine.Game.from_kpat(1)", "engine.solve(game)", ""),
    "solvability": ("", "engine.solvability(10**9, engine.Rules.kpat())", ""),
    "solve_deals": ("", 'list(engine.solve_deals("kpat", range(1, 10**6)))', ""),
}


def stopped_within(done, seconds):
    assert done.returncode == 0, done.stderr[-2000:]
    word, took = done.stdout.split()[:2]
    assert word == "stopped", done.stdout
    assert float(took) < seconds, f"stopped {took} s after Ctrl-C"


@pytest.mark.parametrize("run", list(LONG_RUNS))
def test_ctrl_c_stops_a_run_whose_one_game_or_decision_costs_minutes(engine, run):
    setup, call, after = LONG_RUNS[run]
    done = run_python(INTERRUPTED.format(engine=engine.__name__, setup=setup, call=call, after=after))
    stopped_within(done, 0.5)
    if after:
        assert done.stdout.split("\n")[1] == "unchanged True", done.stdout


# Reads the numbers of an endless iterator of C code, which runs no Python code in
# which a signal could be seen (nor lets a timer thread in: the signal comes from outside).
ENDLESS_NUMBERS = """
import itertools, signal, sys, time
import {engine} as engine
signal.signal(signal.SIGINT, signal.default_int_handler)  # even if this test run ignores SIGINT
print("ready", flush=True)
try:
    engine.solve_deals("kpat", itertools.count(1))
    print("finished")
except KeyboardInterrupt:
    print("stopped")
"""


def test_ctrl_c_stops_solve_deals_reading_an_endless_iterator(engine):
    child = subprocess.Popen([sys.executable, "-c", ENDLESS_NUMBERS.format(engine=engine.__name__)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "ready\n"
        time.sleep(0.5)  # into the numbers
        sent = time.perf_counter()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert time.perf_counter() - sent < 0.5
    assert (child.returncode, out) == (0, "stopped\n"), err[-2000:]


def test_two_runs_on_two_threads_do_not_cancel_each_other():
    """Ctrl-C stops the run of the main thread; a run on another thread, which no
    signal reaches, goes on to its end with its full result."""
    done = run_python(INTERRUPTED.format(
        engine="acesup",
        setup=textwrap.dedent("""
            other = []
            worker = threading.Thread(target=lambda: other.append(
                engine.simulate(3000, "montecarlo:playouts=20", threads=1)))
            worker.start()
            """),
        call=f"engine.simulate(10**6, {ENDLESS!r}, threads=1)",
        after=textwrap.dedent("""
            worker.join()
            print("other", other[0] == engine.simulate(3000, "montecarlo:playouts=20", threads=1))
            """)))
    stopped_within(done, 0.5)
    assert done.stdout.split("\n")[1] == "other True", done.stdout


def test_the_cli_stops_an_endless_simulate_on_ctrl_c():
    import os
    import signal

    process = subprocess.Popen([sys.executable, "-m", "acesup", "simulate", "--strategy", ENDLESS],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(2.0)  # past the start-up, into the first games
    sent = time.perf_counter()
    os.kill(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=60)
    took = time.perf_counter() - sent
    assert process.returncode == 130, err
    assert "interrupted" in out + err and "Traceback" not in err
    assert took < 0.5, f"stopped {took:.2f} s after Ctrl-C"


def test_a_long_native_decision_started_again_draws_as_an_uncut_one():
    """A native decision longer than its quick try on the calling thread starts
    again on a thread of its own, with the draws of the cut try given back: one
    decision of 50000 play-outs leaves the stream where ten of 5000 do
    (each play-out draws one shuffle of the stock)."""
    long, short = acesup.Game.from_str(MANY_LINES), acesup.Game.from_str(MANY_LINES)
    began = time.perf_counter()
    acesup.strategy("montecarlo:playouts=50000")(long)
    assert time.perf_counter() - began > 0.03, "the decision is too quick to be started again"
    for _ in range(10):
        acesup.strategy("montecarlo:playouts=5000")(short)
    assert long.randbelow(2**60) == short.randbelow(2**60)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_native_run_started_again_gives_what_its_games_give_one_by_one(threads):
    """A run longer than its quick try on the calling thread goes on where Ctrl-C
    can stop it, the chunk under way when the try ended played again: the same
    scores as its games played one at a time."""
    strategy = "montecarlo:playouts=2000"  # about 0.1 s on two threads of this host: well past 0.03
    began = time.perf_counter()
    whole = acesup.simulate(16, strategy, threads=threads, scores=True)
    assert time.perf_counter() - began > 0.03, "the run is too quick to be started again"
    one_by_one = [acesup.simulate(1, strategy, start=i, scores=True) for i in range(16)]
    assert whole == sum(one_by_one, acesup.Stats.empty())
    assert bytes(whole.scores) == b"".join(bytes(s.scores) for s in one_by_one)


# --- solve_deals' threads (a stream of deals) -------------------------------------------

# A child process that counts its stream threads (their names, in /proc) while kpat deals
# from 2 on are solved under the preset with no limit: deal 2 is quick, and many after it
# take minutes.
THREADS_OF_A_RUN = """
import os, time
import acesup

def workers():
    tasks = os.listdir("/proc/self/task")
    return sum(open(f"/proc/self/task/{t}/comm").read().startswith("acesup-stream") for t in tasks)

def first_three():
    found = []
    for number, _ in acesup.solve_deals("kpat", range(2, 10**6), threads=2):
        found.append(number)
        if len(found) == 3:
            break
    return found

it = acesup.solve_deals("kpat", range(2, 10**6), threads=2)
print("before", workers())
print("first", next(it))
time.sleep(0.3)  # into the deals that take minutes
print("working", workers())
began = time.perf_counter()
del it
print("dropped", f"{time.perf_counter() - began:.3f}", workers())
print("broken", first_three(), workers())
left = acesup.solve_deals("kpat", range(2, 10**6), threads=2)
next(left)
print("exit")
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="counts threads in /proc")
def test_dropping_the_iterator_stops_and_joins_its_threads():
    """Nothing is solved before the first next(); an iterator dropped part-way (del,
    or a loop left with break) stops and joins its threads at once, and one still
    alive at interpreter exit does not hold it up."""
    began = time.perf_counter()
    done = run_python(THREADS_OF_A_RUN, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [line.split(" ", 1) for line in done.stdout.splitlines()]
    assert lines[:3] == [["before", "0"], ["first", "(2, True)"], ["working", "2"]], done.stdout
    word, took, workers = lines[3][0], *lines[3][1].split()
    assert word == "dropped" and float(took) < 0.5 and workers == "0", done.stdout
    assert lines[4:] == [["broken", "[2, 3, 4] 0"], ["exit"]], done.stdout
    assert time.perf_counter() - began < 20


@pytest.mark.parametrize("numbers", ["range(1, 10**6)", "list(range(1, 10**5))"])
def test_ctrl_c_keeps_the_verdicts_handed_out_and_next_goes_on(numbers):
    """A range's numbers or a list's (each kind of run of the native engine)."""
    done = run_python(INTERRUPTED.format(
        engine="acesup",
        setup=textwrap.dedent(f"""
            found = []
            it = engine.solve_deals("kpat", {numbers}, threads=2, node_limit=200_000)
            """),
        call="found.extend(n for n, _ in it)",
        after=textwrap.dedent("""
            print("kept", found == list(range(1, len(found) + 1)), len(found) > 0)
            print("next", next(it)[0] == len(found) + 1)
            """)))
    stopped_within(done, 0.5)
    assert done.stdout.split("\n")[1:3] == ["kept True True", "next True"], done.stdout


def test_other_python_threads_run_while_next_waits():
    deal_1 = acesup.solve_deals("kpat", range(1, 2), threads=1, node_limit=5 * 10**6)  # about a second
    runs_beside(next, deal_1, at_least=0.2)
