"""The CLI on PySolFC's Firing Squad (RULES.md R2.4, R8.3): ``solve --pysol N --rules
pysol_firing_squad`` prints a line that replays to a win, and ``play`` takes the
reserve's moves, shows the reserve and hints under its rules."""

from __future__ import annotations

import re

import acesup
import acesup.reference as ref
from cli_helpers import run


def test_solve_pysol_firing_squad_prints_a_line_that_replays(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, "solve", "--pysol", "1", "--rules", "pysol_firing_squad")
    assert status == 0 and err == ""
    assert out.startswith("position  Jd/2d/9h/Jc ") and ",reserve=1" in out.splitlines()[0]
    assert "winnable: a winning line of" in out
    line = re.findall(r"^\d+\. (\S+)$", out, flags=re.MULTILINE)
    game = ref.Game.from_pysol(1, ref.Rules.pysol_firing_squad())
    for move in line:
        game.play(move)
    assert line and game.is_won
    assert "reserve --" in out


def test_play_takes_the_reserve_s_moves(capsys, monkeypatch):
    script = "help\n0>r\nr>1\nhint\nundo\nquit\n"
    status, out, _ = run(capsys, monkeypatch, "play", "--pysol", "1", "--rules", "pysol_firing_squad", stdin=script)
    assert status == 0
    assert "2>r      put the top card of pile 2 in the reserve" in out
    assert "stock 48  discards 0  reserve J\u2666" in out
    assert "it is not empty" in out  # r>1: pile 1 holds a card
    assert "hint: " in out
    game = acesup.Game.from_pysol(1, acesup.Rules.pysol_firing_squad())
    assert "took back 0>r" in out and game.legal_moves()


def test_winnable_lists_firing_squad_s_numbered_deals(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, "winnable", "--pysol", "1-3", "--rules", "pysol_firing_squad",
                           "--node-limit", "50000", "--threads", "1")
    assert status == 0
    assert out.split() == ["1", "2", "3"]
    assert "reserve=1: 3 winnable, 0 unwinnable, 0 unresolved" in err
