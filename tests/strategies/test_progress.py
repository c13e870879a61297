"""Progress of the long runs (docs/API.md, "Progress"): ``progress=True`` draws a
tqdm bar on stderr and ``callback(done, total)`` is called in the caller's thread
as the work completes, at most every 0.2 s and once at the end, for ``simulate``,
``compare``, ``solvability`` and ``solve_deals`` of both engines. Neither changes
a result; bad arguments are TypeErrors raised before any work; an exception of
the callback stops the run and propagates."""

from __future__ import annotations

import threading
import time

import pytest

from acesup.progress import INTERVAL

pytestmark = pytest.mark.serial  # some runs are timed


class Calls:
    """A callback that records its calls and the thread they come from."""

    def __init__(self):
        self.calls = []
        self.threads = set()

    def __call__(self, done, total):
        self.calls.append((done, total))
        self.threads.add(threading.get_ident())

    def check(self, total):
        """The calls of a finished run of ``total`` items: from this thread, the
        same total, a count that never goes back, and (total, total) last, once."""
        assert self.calls, "the callback was never called"
        assert self.threads == {threading.get_ident()}
        assert {t for _, t in self.calls} == {total}
        done = [d for d, _ in self.calls]
        assert done == sorted(done) and all(0 <= d <= total for d in done)
        assert self.calls[-1] == (total, total) and done.count(total) == 1


def slow_first_move(game):
    """A strategy that takes a millisecond to think about each game's first move."""
    if not game.history:
        time.sleep(0.001)
    return game.legal_moves()[0]


def test_simulate_reports_its_games_and_gives_the_same_stats(engine):
    games = 40 if engine.__name__ == "acesup.reference" else 5000
    plain = engine.simulate(games, "greedy", seed=3, scores=True)
    calls = Calls()
    reported = engine.simulate(games, "greedy", seed=3, scores=True, callback=calls, progress=True)
    assert reported == plain and reported.strategy == plain.strategy and reported.seed == plain.seed
    calls.check(games)


def test_a_callable_strategy_s_run_reports_its_games(engine):
    calls = Calls()
    stats = engine.simulate(60, slow_first_move, seed=1, callback=calls)
    assert stats == engine.simulate(60, slow_first_move, seed=1)
    calls.check(60)


def test_a_long_run_reports_while_it_plays_at_most_every_interval(engine):
    # About a second: a slow callable on either engine, and the native
    # engine's random play-outs on its worker thread.
    runs = [lambda calls: engine.simulate(700, slow_first_move, callback=calls)]
    if engine.__name__ == "acesup":
        runs.append(lambda calls: engine.simulate(3_000_000, threads=1, callback=calls))
    for run in runs:
        calls = Calls()
        began = time.monotonic()
        run(calls)
        elapsed = time.monotonic() - began
        assert len(calls.calls) >= 2, "no report before the end"
        assert len(calls.calls) <= elapsed / INTERVAL + 2
        calls.check(calls.calls[-1][1])


def test_solvability_reports_its_games(engine):
    games = 8 if engine.__name__ == "acesup.reference" else 400
    calls = Calls()
    found = engine.solvability(games, seed=5, node_limit=2000, callback=calls, progress=True)
    assert found == engine.solvability(games, seed=5, node_limit=2000)
    calls.check(games)


def test_solve_deals_reports_the_deals_handed_out(engine):
    calls = Calls()
    verdicts = engine.solve_deals("kpat", range(1, 9), node_limit=2000, callback=calls)
    assert list(verdicts) == list(engine.solve_deals("kpat", range(1, 9), node_limit=2000))
    calls.check(8)
    calls = Calls()
    listed = [5, 3, 7]
    found = engine.solve_deals("pysol", listed, node_limit=2000, callback=calls, progress=True)
    assert list(found) == list(engine.solve_deals("pysol", listed, node_limit=2000))
    calls.check(3)


def test_compare_reports_every_run_on_one_count(engine):
    calls = Calls()
    found = engine.compare(["random", "greedy"], 50, seed=2, callback=calls, progress=True)
    assert found == engine.compare(["random", "greedy"], 50, seed=2)
    calls.check(100)


def test_the_bar_is_drawn_on_stderr(engine, capsys):
    engine.simulate(20, "greedy", progress=True)
    captured = capsys.readouterr()
    assert captured.out == "" and "100%" in captured.err and "games" in captured.err


@pytest.mark.parametrize("bad, name", [(dict(progress=1), "progress"), (dict(progress=None), "progress"),
                                       (dict(progress="yes"), "progress"), (dict(callback=3), "callback"),
                                       (dict(callback="print"), "callback")])
def test_bad_arguments_are_type_errors_before_any_work(engine, bad, name):
    asked = []

    def strategy(game):
        asked.append(game)
        return game.legal_moves()[0]

    runs = [lambda: engine.simulate(5, strategy, **bad), lambda: engine.solvability(3, **bad),
            lambda: engine.solve_deals("kpat", range(1, 3), **bad), lambda: engine.compare([strategy], 5, **bad)]
    for run in runs:
        with pytest.raises(TypeError, match=f"^{name} must be"):
            run()
    assert asked == []


def test_the_engines_word_a_bad_argument_alike():
    import acesup
    import acesup.reference

    messages = set()
    for engine in (acesup, acesup.reference):
        for bad in (dict(progress=1), dict(callback=3)):
            with pytest.raises(TypeError) as raised:
                engine.simulate(1, **bad)
            messages.add(str(raised.value))
    assert messages == {"progress must be True or False, got int",
                        "callback must be None or a callable callback(done, total), got int"}


class Stop(Exception):
    pass


def stop_at_once(done, total):
    raise Stop(done)


def test_the_callback_s_exception_stops_simulate_and_solvability(engine):
    big = engine.__name__ == "acesup"
    runs = [lambda: engine.simulate(10**10 if big else 2000, slow_first_move if not big else "random",
                                    threads=2 if big else None, callback=stop_at_once),
            lambda: engine.solvability(10**8 if big else 50, node_limit=None if big else 2000, callback=stop_at_once),
            lambda: engine.compare(["random", slow_first_move], 10**10 if big else 2000, callback=stop_at_once)]
    for run in runs:
        began = time.monotonic()
        with pytest.raises(Stop):
            run()
        assert time.monotonic() - began < 5, "the run went on after the callback's exception"


def test_the_callback_s_exception_ends_solve_deals(engine):
    def stop_at_two(done, total):
        if done >= 2:
            raise Stop(done)

    verdicts = engine.solve_deals("kpat", range(1, 1000), node_limit=2000, callback=stop_at_two)
    handed = []
    with pytest.raises(Stop):
        for _ in range(1000):
            handed.append(next(verdicts))
            time.sleep(INTERVAL)  # so that each deal handed out is reported
    assert len(handed) == 1
    assert next(verdicts, None) is None
