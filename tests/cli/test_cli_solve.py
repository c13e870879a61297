"""``acesup solve``: the verdict on a deal given by seed, deck or position."""

from __future__ import annotations

import acesup
from cli_helpers import LOST_SEED, WINNABLE_SEED, run
from helpers import position


def test_solve_prints_a_winning_line_that_wins(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "solve", "--seed", str(WINNABLE_SEED))
    assert status == 0
    assert out.splitlines()[1].startswith("winnable: a winning line of")
    game = acesup.Game.from_seed(WINNABLE_SEED)
    solution = acesup.solve(game)
    steps = [line.split(". ", 1)[1] for line in out.splitlines() if line[:1].isdigit() and ". " in line]
    assert steps == [str(move) for move in solution.moves]
    for move in solution.moves:
        game.play(move)
    assert game.is_won
    assert out.rstrip().endswith(str(game))  # the tableau after the last move


def test_solve_says_a_lost_deal_is_proved_lost(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "solve", "--seed", str(LOST_SEED))
    assert status == 0
    assert "lost: no sequence of moves wins this deal (proved exhaustively, " in out
    assert out.rstrip().endswith(str(acesup.Game.from_seed(LOST_SEED)))


def test_solve_reports_an_unresolved_search(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "solve", "--seed", "8", "--node-limit", "1")
    assert status == 0
    assert "unresolved" in out and "--node-limit" in out


def test_solve_takes_a_deck_or_a_position(capsys, monkeypatch):
    deck = " ".join(map(str, acesup.deck_from_seed(WINNABLE_SEED)))
    _, by_deck, _ = run(capsys, monkeypatch, "solve", "--deck", deck)
    position = acesup.Game.from_seed(WINNABLE_SEED).to_str()
    _, by_position, _ = run(capsys, monkeypatch, "solve", "--position", position)
    _, by_seed, _ = run(capsys, monkeypatch, "solve", "--seed", str(WINNABLE_SEED))
    assert by_deck == by_position == by_seed


def test_solve_uses_the_rules_options(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, "solve", "--seed", "1", "--rules", "easy", "--deal", "stuck")
    assert f"position  {acesup.Game.from_seed(1, acesup.Rules(fill='any', deal='stuck')).to_str()}" in out
