"""The CLI on PySolFC's Fortunes (#206): ``acesup solve --pysol N --rules
pysol_fortunes`` prints a winning line that replays, and ``acesup winnable`` and
``acesup play`` take the preset."""

from __future__ import annotations

import re

import acesup.reference as reference
from cli_helpers import run


def test_solve_pysol_1_under_fortunes_prints_a_line_that_replays(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "solve", "--pysol", "1", "--rules", "pysol_fortunes")
    assert status == 0
    game = reference.Game.from_pysol(1, reference.Rules.pysol_fortunes())
    assert f"position  {game.to_str()}" in out
    length = int(re.search(r"winnable: a winning line of (\d+) moves", out)[1])
    moves = re.findall(r"^\d+\. (\S+)$", out, re.MULTILINE)
    assert len(moves) == length > 0
    assert any(re.fullmatch(r"f\d:\d+>\d", move) for move in moves)  # several cards move together
    for move in moves:
        game.play(move)
    assert game.is_won


def test_winnable_and_play_take_the_fortunes_preset(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "winnable", "--pysol", "2", "--rules", "pysol_fortunes")
    assert status == 0 and "2" in out
    status, out, _ = run(capsys, monkeypatch, "play", "--pysol", "2", "--rules", "pysol_fortunes",
                         stdin="moves\nquit\n")
    assert status == 0
    assert "fill=stack" in out
