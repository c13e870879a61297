"""``acesup play`` with its input scripted: moves, mistakes, undo, hint, solve, the end."""

from __future__ import annotations

import io

import pytest

import acesup
from cli_helpers import LOST_SEED, WINNABLE_SEED, run
from helpers import position


def test_play_takes_moves_explains_mistakes_and_undoes(capsys, monkeypatch):
    game = acesup.Game.from_seed(WINNABLE_SEED)
    first, = game.legal_moves()
    script = f"moves\nf9>9\nd0\n{first}\nundo\nundo\n{first}\nhelp\n\nquit\n"
    status, out, err = run(capsys, monkeypatch, "play", "--seed", str(WINNABLE_SEED), stdin=script)
    assert status == 0 and err == ""
    assert f"seed {WINNABLE_SEED}" in out
    assert f"legal moves: {first}\n" in out
    assert "not a move: 'f9>9'" in out  # malformed
    assert "cannot discard" in out  # illegal, with the rules' reason
    assert f"took back {first}\n" in out
    assert "no move to undo" in out
    assert "undo" in out and "hint" in out  # the help
    assert out.rstrip().endswith("stopped with 1 of 48 cards discarded")
    assert "\033[" not in out  # no colour when not on a terminal


def test_play_hint_suggests_the_first_move_of_a_winning_line(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "play", "--seed", str(WINNABLE_SEED), stdin="hint\n")
    assert status == 0
    game = acesup.Game.from_seed(WINNABLE_SEED)
    assert f"hint: {acesup.solve(game).moves[0]}\n" in out  # the move alone, no verdict
    assert "win" not in out.split("hint: ", 1)[1]


def test_play_hint_falls_back_on_greedy_without_giving_away_that_the_deal_is_lost(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "play", "--seed", str(LOST_SEED), stdin="hint\n")
    assert status == 0
    game = acesup.Game.from_seed(LOST_SEED)
    assert f"hint: {acesup.strategy('greedy')(game)}\n" in out
    assert "won" not in out and "greedy" not in out  # the verdict is for `solve` to give


def test_play_solve_gives_the_verdict_on_request(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", str(LOST_SEED), stdin="solve\n")
    assert "this position can no longer be won: the solver proved it\n" in out
    moves = acesup.solve(acesup.Game.from_seed(WINNABLE_SEED)).moves
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", str(WINNABLE_SEED), stdin="solve\n")
    assert f"this position can be won: the solver found a win in {len(moves)} moves\n" in out


def one_move_from_a_win():
    """The game of WINNABLE_SEED with all but the last move of a winning line played, and that line."""
    game = acesup.Game.from_seed(WINNABLE_SEED)
    moves = acesup.solve(game).moves
    for move in moves[:-1]:
        game.play(move)
    return game, moves


def test_a_win_in_one_move_is_singular(capsys, monkeypatch):
    game, moves = one_move_from_a_win()
    script = "".join(f"{move}\n" for move in moves[:-1]) + "solve\n"
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", str(WINNABLE_SEED), stdin=script)
    assert "the solver found a win in 1 move\n" in out
    _, out, _ = run(capsys, monkeypatch, "solve", "--position", game.to_str())
    assert "winnable: a winning line of 1 move (" in out


def test_play_error_messages_show_cards_as_the_board_does(capsys, monkeypatch):
    game = acesup.Game.from_seed(42)
    with pytest.raises(acesup.IllegalMoveError) as error:
        game.play("d0")
    assert "Qs" in str(error.value)  # the engine's message uses the card notation
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", "42", stdin="d0\n")
    assert "Q\u2660  6\u2663  7\u2666  4\u2660" in out  # the board
    assert str(error.value).replace("Qs", "Q\u2660") + "\n" in out


def test_play_header_fits_80_columns(capsys, monkeypatch):
    _, out, _ = run(capsys, monkeypatch, "play", "--seed", str(2**64 - 1), "--rules", "easy", "--deal", "stuck",
                    "--relocate-single", "--ace-low", stdin="")
    header = out.split("\n\n", 1)[0].splitlines()
    assert all(len(line) <= 80 for line in header), header
    assert header[0] == f"Aces Up, seed {2**64 - 1} (--seed {2**64 - 1} deals it again)"
    rules = acesup.Rules(fill="any", deal="stuck", relocate_single=True, ace_high=False)
    assert acesup.Rules.parse(" ".join(header[1:-1]).removeprefix("rules ")) == rules
    assert "but the kings" in out  # what is left in a win under ace_high=False


def test_play_to_a_win(capsys, monkeypatch):
    moves = acesup.solve(acesup.Game.from_seed(WINNABLE_SEED)).moves
    status, out, _ = run(capsys, monkeypatch, "play", "--seed", str(WINNABLE_SEED),
                         stdin="".join(f"{move}\n" for move in moves))
    assert status == 0
    assert out.rstrip().endswith(f"You won: all 48 cards discarded in {len(moves)} moves.")


def test_play_to_a_loss_with_other_rules(capsys, monkeypatch):
    game = acesup.Game.from_seed(LOST_SEED, acesup.Rules.reverse())
    moves = []
    while not game.is_over:
        moves.append(str(game.legal_moves()[-1]))
        game.play(moves[-1])
    status, out, _ = run(capsys, monkeypatch, "play", "--seed", str(LOST_SEED), "--ace-low",
                         stdin="\n".join(moves) + "\n")
    assert status == 0
    assert out.rstrip().endswith(f"Game over: no move left, {game.score} of 48 cards discarded.")


def test_play_ends_at_the_end_of_input(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "play", "--seed", "5", stdin="")
    assert status == 0 and "stopped with 0 of 48" in out


def test_play_colours_hearts_and_diamonds_on_a_terminal_unless_no_color(capsys, monkeypatch):
    from acesup.cli.common import colour, tableau

    game = acesup.Game.from_str(position([["Kh"], ["Qd"], ["Js"], ["Tc"]]))
    coloured = tableau(game, True)
    assert "\033[31mK\u2665\033[0m" in coloured and "\033[31mQ\u2666\033[0m" in coloured
    assert "\033[31mJ\u2660" not in coloured
    assert tableau(game, False) == "0   1   2   3\n" + str(game)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert colour(Terminal())
    assert not colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour(Terminal())
