"""``acesup simulate --strategy module:function`` and ``--strategy
path/to/file.py:function``: the user's own strategy plays as ``simulate`` plays a
callable, and what cannot be loaded or fails while it plays is a one-line error;
``--json`` prints the Stats' own document, which ``Stats.from_json`` reads back."""

from __future__ import annotations

import json
import textwrap

import pytest

import acesup
import acesup.reference
from cli_helpers import python_m_run, run

STRATEGIES = textwrap.dedent("""
    def first(game):
        return game.legal_moves()[0]

    class Player:
        @staticmethod
        def last(game):
            return game.legal_moves()[-1]

    not_callable = 3

    def broken(game):
        raise ZeroDivisionError("no move today")

    def illegal(game):
        return "d9"
""")


def first(game):
    return game.legal_moves()[0]


def last(game):
    return game.legal_moves()[-1]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder holding ``mine.py``, the current one (so that ``mine`` imports)."""
    (tmp_path / "mine.py").write_text(STRATEGIES)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


@pytest.mark.parametrize("given, played", [("mine.py:first", first), ("mine:first", first),
                                           ("mine:Player.last", last)])
@pytest.mark.parametrize("engine", ["native", "reference"])
def test_a_user_strategy_plays_as_simulate_plays_it(capsys, monkeypatch, folder, given, played, engine):
    status, out, err = run(capsys, monkeypatch, "simulate", "--games", "200", "--seed", "3", "--strategy", given,
                           "--engine", engine, "--json")
    assert status == 0, err
    result = json.loads(out)
    stats = acesup.simulate(200, played, seed=3)
    assert result["histogram"] == list(stats.histogram) and result["strategy"] == given
    assert acesup.Stats.from_json(out) == stats == acesup.reference.Stats.from_json(out)


def test_a_path_from_elsewhere_works_as_python_m(tmp_path):
    path = tmp_path / "deep" / "mine.py"
    path.parent.mkdir()
    path.write_text(STRATEGIES)
    done = python_m_run("simulate", "--games", "50", "--strategy", f"{path}:first")
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "games       50\n" in out and f"strategy {path}:first" in out


@pytest.mark.parametrize("given, problem", [
    ("nosuchmodule:play", "cannot load the strategy 'nosuchmodule:play': ModuleNotFoundError"),
    ("nosuch.py:play", "cannot load the strategy 'nosuch.py:play': FileNotFoundError: no file nosuch.py"),
    ("mine:nothing", "the strategy 'mine:nothing' names no 'nothing' in mine"),
    ("mine.py:Player.none", "names no 'Player.none' in mine.py"),
    ("mine:not_callable", "the strategy 'mine:not_callable' is a int, not a callable"),
    ("syntax.py:play", "cannot load the strategy 'syntax.py:play': SyntaxError"),
    ("montecrlo:playouts=3", "unknown strategy"),  # not a function name: the engine's own words
])
def test_what_cannot_be_loaded_is_a_one_line_usage_error(capsys, monkeypatch, folder, given, problem):
    (folder / "syntax.py").write_text("def play(game:\n")
    status, out, err = run(capsys, monkeypatch, "simulate", "--games", "10", "--strategy", given)
    assert status == 2 and out == ""
    assert err.startswith("acesup simulate: error: ") and problem in err and err.count("\n") == 1


@pytest.mark.parametrize("given, problem", [
    ("mine:broken", "the strategy mine:broken failed: ZeroDivisionError: no move today"),
    ("mine:illegal", "the strategy mine:illegal failed: StrategyError: strategy 'illegal' returned 'd9'"),
])
@pytest.mark.parametrize("engine", ["native", "reference"])
def test_a_strategy_that_fails_while_it_plays_is_a_one_line_error(capsys, monkeypatch, folder, given, problem,
                                                                  engine):
    status, out, err = run(capsys, monkeypatch, "simulate", "--games", "10", "--strategy", given,
                           "--engine", engine)
    assert status == 1 and out == ""
    assert err.startswith("acesup simulate: error: ") and problem in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_built_in_with_parameters_is_still_a_built_in(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--strategy",
                         "montecarlo:playouts=2,policy=simple", "--json")
    assert status == 0
    assert json.loads(out)["histogram"] == list(acesup.simulate(20, "montecarlo:playouts=2,policy=simple").histogram)


def test_table_takes_user_strategies_as_columns(capsys, monkeypatch, folder):
    status, out, err = run(capsys, monkeypatch, "table", "--games", "60", "--strategy", "greedy",
                           "--strategy", "mine:first", "--node-limit", "2000")
    assert status == 0, err
    assert "| greedy | mine:first | solvable |" in out
    rules = acesup.Rules.preset("standard").replace(deal="free")
    stats = acesup.simulate(60, first, rules)
    low, high = stats.ci95
    row = next(line for line in out.splitlines() if line.startswith("| standard | free |"))
    assert f"{100 * stats.win_rate:.2f} ({100 * low:.2f}\u2013{100 * high:.2f})" == row.split(" | ")[3]


@pytest.mark.parametrize("argv", [[], ["--players"]])
def test_table_ends_with_one_line_when_a_user_strategy_fails(capsys, monkeypatch, folder, argv):
    status, out, err = run(capsys, monkeypatch, "table", "--games", "10", "--strategy", "mine:broken", *argv)
    assert status == 1 and out == ""
    assert err == "acesup table: error: the strategy mine:broken failed: ZeroDivisionError: no move today\n"
    status, _, err = run(capsys, monkeypatch, "table", "--games", "10", "--strategy", "mine:nothing", *argv)
    assert status == 2 and "names no 'nothing' in mine" in err
