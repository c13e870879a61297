"""The numbered deals of kpat and PySolFC (issue 10 item 3): ``solve`` and ``play``
with ``--kpat``/``--pysol``, and ``acesup winnable`` over a range or a file of numbers."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

import acesup
from acesup.cli.winnable import VERDICTS
from cli_helpers import python_m, run


# kpat deals 1-20 under kpat's rules with deal=free, which the solver settles at once:
# the winnable ones (tests/solver/test_solve_deals.py has their verdicts).
KPAT_WINNABLE_1_20 = [2, 4, 6, 10, 11, 13, 17, 18, 20]


def test_solve_kpat_2_prints_a_winning_line_that_replays(capsys, monkeypatch):
    import re

    import acesup.reference as reference

    status, out, _ = run(capsys, monkeypatch, "solve", "--kpat", "2")
    assert status == 0
    game = reference.Game.from_kpat(2)
    assert f"position  {game.to_str()}" in out
    length = int(re.search(r"winnable: a winning line of (\d+) moves", out)[1])
    moves = re.findall(r"^\d+\. (\S+)$", out, re.MULTILINE)
    assert len(moves) == length > 0
    for move in moves:
        game.play(move)
    assert game.is_won


def test_solve_and_play_take_a_pysol_number_and_rules_that_replace_the_preset(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "solve", "--pysol", "40000", "--rules", "standard",
                         "--node-limit", "1000")
    assert status == 0
    assert f"position  {acesup.Game.from_pysol(40000, acesup.Rules.standard()).to_str()}" in out
    status, out, _ = run(capsys, monkeypatch, "play", "--kpat", "7", stdin="quit\n")
    assert status == 0
    assert out.startswith("Aces Up, kpat deal 7 (--kpat 7 deals it again)\n")
    assert str(acesup.Game.from_kpat(7)) in out and "relocate_single=true" in out


@pytest.mark.parametrize("argv, words", [
    (("solve", "--kpat", "0"), "a kpat deal number must be an int from 1 to 2147483647, got 0"),
    (("solve", "--kpat", "x"), "expected a deal number, got 'x'"),
    (("play", "--kpat", "3", "--seed", "4"), "not allowed with argument"),
    (("winnable", "--kpat", "5-3"), "expected A-B with A <= B, got '5-3'"),
    (("winnable", "--pysol", "1-x"), "expected deal numbers A-B, N or @FILE"),
    (("winnable", "--kpat", "0-3"), "a kpat deal number must be an int from 1 to 2147483647, got 0"),
    (("winnable", "--kpat", f"1-{10**23}"), f"a kpat deal number must be an int from 1 to 2147483647, got {10**23}"),
    (("winnable", "--pysol", f"1-{10**20}"), "numbers must hold fewer than 2**64 deals"),
    (("winnable", "--kpat", "1-3", "--pysol", "1"), "not allowed with argument"),
    (("winnable",), "one of the arguments --kpat --pysol is required"),
    (("winnable", "--kpat", "1", "--list", "lost"), "argument --list: invalid choice: 'lost'"),
])
def test_bad_deal_numbers_are_usage_errors(capsys, monkeypatch, argv, words):
    status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_winnable_lists_the_winnable_deals_one_a_line(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, "winnable", "--kpat", "1-20", "--deal", "free")
    assert status == 0
    assert out.split() == [str(n) for n in KPAT_WINNABLE_1_20]
    # No progress bar, stderr not being a terminal: only the summary.
    assert err.count("\n") == 1
    assert "kpat deals 1-20 (20 solved" in err and "9 winnable, 11 unwinnable, 0 unresolved" in err


@pytest.mark.parametrize("verdict, argv, listed", [
    ("winnable", ("--kpat", "1-20", "--deal", "free"), KPAT_WINNABLE_1_20),
    ("unwinnable", ("--kpat", "1-20", "--deal", "free"), sorted(set(range(1, 21)) - set(KPAT_WINNABLE_1_20))),
    ("unresolved", ("--pysol", "31998-32001", "--node-limit", "1"), [31998, 31999, 32000, 32001]),
    ("unresolved", ("--kpat", "1-20", "--deal", "free"), []),
])
def test_winnable_list_names_the_deals_of_one_verdict(capsys, monkeypatch, verdict, argv, listed):
    status, out, err = run(capsys, monkeypatch, "winnable", *argv, "--list", verdict)
    assert status == 0
    assert [int(line) for line in out.split()] == listed
    assert err.count("\n") == 1 and " solved in " in err


def test_winnable_solves_again_the_deals_a_file_lists(capsys, monkeypatch, tmp_path):
    """--list unresolved, then @FILE with a larger limit: the second round over the
    deals left open (in order, each once, blank lines skipped) gives the verdicts
    of that limit."""
    status, out, _ = run(capsys, monkeypatch, "winnable", "--kpat", "1-60", "--node-limit", "2000",
                         "--list", "unresolved")
    assert status == 0
    left = [int(line) for line in out.split()]
    assert 5 < len(left) < 55
    listed = tmp_path / "open.txt"
    listed.write_text("\n".join(map(str, reversed(left))) + f"\n\n{left[0]}\n")
    status, out, err = run(capsys, monkeypatch, "winnable", "--kpat", f"@{listed}", "--node-limit", "50000",
                           "--json")
    assert status == 0
    again = json.loads(out)
    whole = dict(acesup.solve_deals("kpat", range(1, 61), node_limit=50_000))
    assert {k: again[k] for k in ("first", "last", "count", "winnable", "unwinnable", "unresolved")} == {
        "first": left[0], "last": left[-1], "count": len(left),
        "winnable": sum(whole[n] is True for n in left), "unwinnable": sum(whole[n] is False for n in left),
        "unresolved": sum(whole[n] is None for n in left)}
    status, out, err = run(capsys, monkeypatch, "winnable", "--kpat", f"@{listed}", "--node-limit", "50000")
    assert [int(line) for line in out.split()] == [n for n in left if whole[n]]
    assert f"{len(left)} kpat deals from {left[0]} to {left[-1]} ({len(left)} solved in " in err


@pytest.mark.parametrize("text, words", [
    ("3\nx\n", "open.txt, line 2: expected a deal number, got 'x'"),
    ("\n \n", "no deal numbers in"),
    (b"\xff\n", "cannot read deal numbers from"),
    (None, "cannot read deal numbers from"),
])
def test_a_file_of_deal_numbers_that_cannot_be_read_is_a_usage_error(capsys, monkeypatch, tmp_path, text, words):
    listed = tmp_path / "open.txt"
    if isinstance(text, str):
        listed.write_text(text)
    elif text is not None:
        listed.write_bytes(text)
    status, out, err = run(capsys, monkeypatch, "winnable", "--kpat", f"@{listed}")
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_winnable_json_gives_the_counts_the_range_and_the_rules(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "winnable", "--kpat", "1-20", "--deal", "free", "--json",
                         "--threads", "2")
    assert status == 0
    result = json.loads(out)
    assert {k: result[k] for k in ("deals", "first", "last", "count", "winnable", "unwinnable", "unresolved",
                                   "solved", "partial")} == {
        "deals": "kpat", "first": 1, "last": 20, "count": 20, "winnable": 9, "unwinnable": 11, "unresolved": 0,
        "solved": 20, "partial": False}
    assert result["rules"] == str(acesup.Rules.kpat().replace(deal="free"))


@pytest.mark.parametrize("verdict", list(VERDICTS))
def test_winnable_json_with_list_gives_the_numbers_of_that_verdict(capsys, monkeypatch, verdict):
    status, out, _ = run(capsys, monkeypatch, "winnable", "--kpat", "1-20", "--node-limit", "3000", "--json",
                         "--list", verdict)
    assert status == 0
    result = json.loads(out)
    whole = acesup.solve_deals("kpat", range(1, 21), node_limit=3000)
    assert (result["listed"], result["numbers"]) == (verdict, [n for n, v in whole if v is VERDICTS[verdict]])
    assert len(result["numbers"]) == result[verdict]
    # Without --list the JSON gives the counts alone.
    status, out, _ = run(capsys, monkeypatch, "winnable", "--kpat", "1-20", "--node-limit", "3000", "--json")
    assert not {"listed", "numbers"} & set(json.loads(out))


def test_winnable_bounds_a_deal_by_memory_unless_told_otherwise(capsys, monkeypatch):
    """By default a deal may store as many positions as let the deals solved at once
    fit in half the memory (no time limit: the same verdicts on a loaded machine);
    a limit given replaces that bound."""
    from acesup.cli.winnable import SEARCH_POSITION_BYTES, memory_node_limit

    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert memory_node_limit(2) == int(memory / 2 / (2 * SEARCH_POSITION_BYTES))
    for argv, limits in [([], (memory_node_limit(2), None)),
                         (["--time-limit", "5"], (None, 5.0)),
                         (["--node-limit", "1000"], (1000, None))]:
        status, out, _ = run(capsys, monkeypatch, "winnable", "--kpat", "1-3", "--deal", "free", "--json",
                             "--threads", "2", *argv)
        assert status == 0
        result = json.loads(out)
        assert (result["node_limit"], result["time_limit"]) == limits, argv
    # A range shorter than the threads solves fewer deals at once.
    status, out, _ = run(capsys, monkeypatch, "winnable", "--kpat", "5", "--deal", "free", "--json",
                         "--threads", "4")
    assert json.loads(out)["node_limit"] == memory_node_limit(1)


def test_winnable_limits_leave_deals_unresolved(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, "winnable", "--pysol", "31998-32001", "--node-limit", "1")
    assert status == 0 and out == ""
    assert "PySolFC games 31998-32001 (4 solved" in err and "0 winnable, 0 unwinnable, 4 unresolved" in err


@pytest.mark.serial
def test_winnable_ctrl_c_keeps_the_deals_done():
    process = python_m("winnable", "--kpat", "1-100000", "--deal", "free", "--threads", "1")
    time.sleep(3.0)  # past the start-up, into the deals
    sent = time.perf_counter()
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert time.perf_counter() - sent < 0.5
    assert process.returncode == 130, err
    assert "Traceback" not in err and "interrupted: " in err and "deals solved" in err
    found = [int(line) for line in out.split()]
    assert found[:len(KPAT_WINNABLE_1_20)] == KPAT_WINNABLE_1_20 and found == sorted(found)
