"""The command line ``acesup`` (acesup.cli): every command, its output and its
errors. Most tests call ``main`` in this process with captured output, where
standard output is not a terminal (so no colour and no progress bar); a few run
``python -m acesup`` to check what only a real process shows (the exit status
of ``-m``, Ctrl-C)."""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

import acesup
from acesup.cli import VERDICTS, main
from helpers import position

WINNABLE_SEED = 3  # Game.from_seed(3) can be won under the standard rules
LOST_SEED = 2  # and Game.from_seed(2) cannot


def run(capsys, monkeypatch, *argv, stdin=None):
    """``acesup *argv`` in this process: (exit status, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def python_m(*argv, **kwargs):
    """``python -m acesup *argv`` in a child process that reacts to Ctrl-C as a
    terminal's would, even when this test run was started with SIGINT ignored
    (as a background job of a non-interactive shell is)."""
    return subprocess.Popen([sys.executable, "-m", "acesup", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kwargs)


# --- help and errors ---------------------------------------------------------------------


def test_python_m_acesup_runs_the_command_line():
    process = python_m("--help")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    for command in ("simulate", "solve", "play", "table", "winnable", "bench"):
        assert command in out


@pytest.mark.parametrize("command", ["simulate", "solve", "play", "table", "winnable", "bench"])
def test_every_command_has_help_with_examples(capsys, monkeypatch, command):
    status, out, _ = run(capsys, monkeypatch, command, "--help")
    assert status == 0
    assert "examples:" in out and f"acesup {command}" in out


@pytest.mark.parametrize("command, default", [
    ("simulate", "(default: standard)"),
    ("solve", "(default: standard, or with --kpat or --pysol that program's rules"),
    ("play", "(default: standard, or with --kpat or --pysol that program's rules"),
    ("winnable", "(default: the program's rules, Rules.kpat() or Rules.pysol()"),
])
def test_the_help_of_rules_names_the_rules_a_command_starts_from(capsys, monkeypatch, command, default):
    status, out, _ = run(capsys, monkeypatch, command, "--help")
    assert status == 0
    assert default in " ".join(out.split())


@pytest.mark.parametrize("argv, says", [
    ([], "COMMAND"),
    (["frobnicate"], "frobnicate"),
    (["simulate", "--games", "-5"], "--games"),
    (["simulate", "--games", "lots"], "--games"),
    (["simulate", "--seed", str(2**64)], "2**64"),
    (["simulate", "--threads", "0"], "--threads"),
    (["simulate", "--threads", "257"], "at most 256 threads"),
    (["simulate", "--threads", "1e30"], "at most 256 threads"),
    (["simulate", "--games", "1e20"], "at most 2**64 games"),
    (["simulate", "--games", str(2**64 + 1)], "at most 2**64 games"),
    (["simulate", "--strategy", "clever"], "clever"),
    (["simulate", "--strategy", "montecarlo:playouts=0"], "playouts"),
    (["simulate", "--rules", "fill=sideways"], "sideways"),
    (["simulate", "--fill", "sideways"], "sideways"),
    (["simulate", "--engine", "quantum"], "quantum"),
    (["simulate", "--plot", "scores.pgn"], "pgn"),
    (["simulate", "--plot", "/no/such/folder/scores.png"], "no folder"),
    (["simulate", "--strategy", "optimal", "--engine", "reference"], "out of reach for 4 suits x 13 ranks"),
    (["solve"], "--seed"),
    (["solve", "--seed", "1", "--deck", "As"], "not allowed"),
    (["solve", "--deck", "As Kd 7h"], "52"),
    (["solve", "--deck", "As Kd 7x"], "7x"),
    (["solve", "--position", "7s/Js nonsense"], "position"),
    (["solve", "--position", acesup.Game.from_seed(1).to_str(), "--rules", "easy"], "own rules"),
    (["solve", "--seed", "1", "--time-limit", "0"], "--time-limit"),
    (["solve", "--seed", "1", "--node-limit", "0"], "--node-limit"),
    (["play", "--seed", "-1"], "--seed"),
    (["play", "--rules", "harder"], "harder"),
    (["table", "--strategy", "clever"], "clever"),
    (["table", "--games", "0"], "--games"),
    (["table", "--games", "1e20"], "at most 2**64 games"),
    (["table", "--threads", "1e30"], "at most 256 threads"),
    (["bench", "--strategy", "clever"], "clever"),
    (["bench", "--games", "1e20"], "at most 2**64 games"),
    (["bench", "--memory-games", "1e20"], "at most 2**64 games"),
    (["bench", "--games", "1"], "--games: expected an int >= 2"),
    (["bench", "--batch-slots", "1e30"], "--batch-slots: at most 2**64 - 1"),
    (["bench", "--batch-slots", str(10**14)], f"a Batch of {10**14} slots needs about"),
])
def test_a_bad_argument_is_one_line_on_stderr_and_exit_status_2(capsys, monkeypatch, argv, says):
    status, out, err = run(capsys, monkeypatch, *argv)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("acesup") and "error:" in err, err
    assert says in err
    assert "Traceback" not in err
    assert str(int(1e30)) not in err  # a number is quoted as typed, not as its 31 digits


def test_version(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "--version")
    assert status == 0
    assert out == f"acesup {acesup.__version__}\n"


def test_a_bad_argument_in_a_real_process_has_no_traceback():
    process = python_m("solve", "--deck", "As Kd 7x")
    out, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert out == "" and err.count("\n") == 1 and "7x" in err


# --- simulate ----------------------------------------------------------------------------


def test_simulate_prints_the_figures_of_one_simulate_call(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "5000", "--strategy", "greedy",
                         "--rules", "strict", "--deal", "stuck", "--seed", "9", "--threads", "2")
    assert status == 0
    stats = acesup.simulate(5000, "greedy", acesup.Rules(fill="ace", deal="stuck"), seed=9)
    low, high = stats.ci95
    assert "games       5,000\n" in out
    assert f"wins        {stats.wins:,}\n" in out
    assert f"win rate    {stats.win_rate:.5f} (95% CI {low:.5f} to {high:.5f})" in out
    assert f"mean score  {stats.mean_score:.3f}" in out
    assert "games/s" in out
    assert "rules fill=ace,deal=stuck,relocate_single=false,ace_high=true" in out
    histogram = out[out.index("score   games"):].splitlines()[1:]
    assert len(histogram) == 13  # 0-3, 4-7, ..., 44-47 and the won games
    assert sum(int(line.split()[-2].replace(",", "")) for line in histogram) == 5000
    assert histogram[-1].split()[0] == "won"


def test_simulate_json_parses_and_equals_simulate(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "3000", "--seed", "4", "--ace-low",
                         "--relocate-single", "--json")
    assert status == 0
    result = json.loads(out)
    rules = acesup.Rules(relocate_single=True, ace_high=False)
    stats = acesup.simulate(3000, "random", rules, seed=4)
    assert result["histogram"] == list(stats.histogram)
    assert (result["games"], result["wins"], result["losses"]) == (3000, stats.wins, stats.losses)
    assert result["win_rate"] == stats.win_rate and result["ci95"] == list(stats.ci95)
    assert result["mean_score"] == stats.mean_score
    assert result["rules"] == str(rules) and result["partial"] is False
    assert result["games_per_second"] > 0


def test_simulate_gives_the_same_figures_on_both_engines(capsys, monkeypatch):
    figures = {}
    for engine in ("native", "reference"):
        status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "300", "--strategy", "simple",
                             "--rules", "easy", "--engine", engine, "--json")
        assert status == 0
        result = json.loads(out)
        figures[engine] = (result["histogram"], result["ci95"], result["mean_score"])
    assert figures["native"] == figures["reference"]


def test_simulate_plot_to_a_folder_is_refused_before_playing(capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    folder = tmp_path / "scores.png"
    folder.mkdir()
    status, out, err = run(capsys, monkeypatch, "simulate", "--games", "1e9", "--plot", str(folder))
    assert status == 2 and out == ""
    assert f"cannot save a plot as {str(folder)!r}: it is a folder" in err and err.count("\n") == 1


def test_simulate_plot_writes_the_picture(capsys, monkeypatch, tmp_path):
    path = tmp_path / "scores.png"
    status, _, _ = run(capsys, monkeypatch, "simulate", "--games", "1000", "--plot", str(path))
    assert status == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_simulate_plot_without_matplotlib_names_the_extra_before_playing(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    status, out, err = run(capsys, monkeypatch, "simulate", "--plot", str(tmp_path / "scores.png"))
    assert status == 2 and out == ""
    assert "acesup[plot]" in err and err.count("\n") == 1


@pytest.mark.serial
def test_simulate_ctrl_c_prints_the_partial_result_with_status_130():
    process = python_m("simulate", "--games", "1e15", "--engine", "reference", "--json")
    time.sleep(2.0)  # past the start-up, into the shards
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "Traceback" not in err
    result = json.loads(out)
    assert result["partial"] is True
    assert 0 < result["games"] < 10**15 and sum(result["histogram"]) == result["games"]
    assert result["histogram"] == list(acesup.simulate(result["games"]).histogram)  # the shards played


@pytest.mark.serial
def test_simulate_text_marks_a_partial_result():
    process = python_m("simulate", "--games", "1e15", "--threads", "1", env={**os.environ, "NO_COLOR": "1"})
    time.sleep(2.0)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: partial result" in out and "of 1,000,000,000,000,000 games played" in out


# --- solve -------------------------------------------------------------------------------


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


# --- play --------------------------------------------------------------------------------


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


# --- no traceback, whatever the streams ------------------------------------------------------


def python_m_run(*argv, env=None, **kwargs):
    """``python -m acesup *argv`` run to its end: the CompletedProcess, output as bytes."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "acesup", *argv], timeout=120,
                          env={**os.environ, **(env or {})}, **kwargs)


def test_play_with_stdin_closed_stops_at_once():
    done = subprocess.run([sys.executable, "-m", "acesup", "play", "--seed", "42"], capture_output=True,
                          timeout=60, preexec_fn=lambda: os.close(0))  # acesup play <&-
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    assert b"stopped with 0 of 48 cards discarded" in done.stdout


def test_bytes_that_are_not_text_are_a_line_that_is_not_a_move():
    """printf '\\xff\\nquit\\n' | acesup play --seed 42"""
    done = python_m_run("play", "--seed", "42", input=b"\xff\nd0\nquit\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    out = done.stdout.decode()
    assert "not a move: '\ufffd'" in out
    assert "cannot discard Q\u2660 from pile 0" in out and "stopped with 0 of 48" in out


ASCII_OUTPUTS = [
    {"PYTHONIOENCODING": "ascii"},
    {"PYTHONIOENCODING": "latin-1"},
    {"PYTHONUTF8": "0", "LC_ALL": "C", "PYTHONCOERCECLOCALE": "0", "PYTHONIOENCODING": ""},
]


@pytest.mark.parametrize("env", ASCII_OUTPUTS, ids=["ascii", "latin-1", "C-locale"])
@pytest.mark.parametrize("argv, stdin", [
    (["solve", "--seed", "1"], None),
    (["simulate", "--games", "200"], None),
    (["play", "--seed", "42"], b"d0\n\xff\nmoves\nquit\n"),
    (["table", "--games", "3", "--strategy", "greedy", "--node-limit", "100"], None),
])
def test_an_output_that_cannot_write_the_suits_gets_their_letters(env, argv, stdin):
    done = python_m_run(*argv, env=env, input=stdin)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    out = done.stdout.decode("ascii" if env.get("PYTHONIOENCODING") != "latin-1" else "latin-1")
    assert "\u2660" not in out and "\u2588" not in out
    if argv[0] == "solve":
        assert "Ts  8s  Kh  5s" in out  # Game.from_seed(1) as the board shows it, in letters
    if argv[0] == "play":
        assert "Qs  6c  7d  4s" in out and "cannot discard Qs from pile 0" in out
    if argv[0] == "simulate":
        assert "  won  " in out and "#" in out  # the histogram's bars


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["simulate", "--games", "100"], ["solve", "--seed", str(WINNABLE_SEED)]])
def test_output_that_cannot_be_written_is_one_line_on_stderr_and_status_1(argv):
    with open("/dev/full", "w") as full:  # acesup simulate > /dev/full
        done = python_m_run(*argv, stdout=full)
    assert done.returncode == 1
    err = done.stderr.decode()
    assert err == f"acesup {argv[0]}: error: cannot write the output: No space left on device\n"


def test_simulate_on_the_reference_engine_says_it_runs_on_one_thread(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--engine", "reference")
    assert status == 0
    assert out.splitlines()[0] == "strategy random, seed 0, reference engine on one thread (pure Python)"
    _, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--engine", "reference", "--threads", "4")
    assert "reference engine on one thread (pure Python; --threads is ignored)" in out
    assert "all cores" not in out
    _, out, _ = run(capsys, monkeypatch, "simulate", "--games", "20", "--engine", "reference", "--json")
    assert json.loads(out)["threads"] == 1


def test_play_colours_hearts_and_diamonds_on_a_terminal_unless_no_color(capsys, monkeypatch):
    from acesup.cli import _colour, _tableau

    game = acesup.Game.from_str(position([["Kh"], ["Qd"], ["Js"], ["Tc"]]))
    coloured = _tableau(game, True)
    assert "\033[31mK\u2665\033[0m" in coloured and "\033[31mQ\u2666\033[0m" in coloured
    assert "\033[31mJ\u2660" not in coloured
    assert _tableau(game, False) == "0   1   2   3\n" + str(game)

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert _colour(Terminal())
    assert not _colour(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not _colour(Terminal())


# --- table and bench ---------------------------------------------------------------------


def test_table_is_markdown_of_every_rules_and_deal(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--games", "40", "--seed", "3", "--strategy", "greedy",
                         "--strategy", "random", "--node-limit", "20000")
    assert status == 0
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert rows[0] == "| rules | deal | greedy | random | solvable | unresolved |"
    assert len(rows) == 2 + 8
    cells = {tuple(cell.strip() for cell in row.strip("|").split("|")[:2]): row for row in rows[2:]}
    assert set(cells) == {(preset, deal) for preset in ("standard", "strict", "easy", "reverse")
                          for deal in ("free", "stuck")}
    rules = acesup.Rules.easy().replace(deal="stuck")
    greedy = acesup.simulate(40, "greedy", rules, seed=3)
    solvable = acesup.solvability(40, rules, seed=3, node_limit=20000)
    cell = cells[("easy", "stuck")].strip("|").split("|")
    assert cell[2].strip().startswith(f"{100 * greedy.win_rate:.2f} (")
    assert cell[4].strip().startswith(f"{100 * solvable.rate:.2f} (")
    assert cell[5].strip() == f"{solvable.unresolved:,}"


def test_bench_prints_the_figures(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "bench", "--games", "2000", "--reference-games", "20",
                         "--solver-games", "4", "--node-limit", "1000", "--memory-games", "0",
                         "--montecarlo-games", "2", "--plain-games", "3", "--batch-slots", "256",
                         "--batch-steps", "3", "--callable-games", "20", "--batch-memory-games", "0",
                         "--rounds", "1")
    assert status == 0
    for figure in ("native ns a game, 1 thread", "native games/s, 1 thread", "native games/s, 2 threads",
                   "native games/s, 2 processes of 1 thread", "2 threads / 2 processes", "reference games/s",
                   "native / reference", "solver deals/s, 1 thread", "montecarlo ms a game, 1 thread",
                   "solver / plain search, standard", "solver / plain search, relocate_single=true",
                   "NumPy over Batch(256)", "Batch / callable", "ceiling of Batch / callable (built-in / callable)",
                   "native step decisions/s"):
        assert figure in out
    assert re.search(r"^bytes of a native position +240$", out, re.MULTILINE), out
    assert re.search(r"^2 threads / 2 processes +\d+\.\d\d$", out, re.MULTILINE), out


@pytest.mark.parametrize("cores", [2, 4])
def test_bench_ratios_are_those_of_the_figures_beside_them(monkeypatch, cores):
    """On two cores the every-core run once replaced the two-thread figure, so
    that "2 threads / 2 processes" was not the quotient of the figures printed.
    The mean of the rounds' ratios and its standard error are those of each
    round's own two figures, not of the best of each."""
    import acesup.bench

    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    rates = []
    real_rate, real_processes = acesup.bench._rate, acesup.bench._two_processes
    monkeypatch.setattr(acesup.bench, "_rate", lambda run, games: rates.append(real_rate(run, games)) or rates[-1])
    monkeypatch.setattr(acesup.bench, "_two_processes",
                        lambda *a: rates.append(real_processes(*a)) or rates[-1])
    f = acesup.bench.measure(native_games=2000, reference_games=20, rounds=2)
    # Each round: one thread, two threads, two processes.
    ratios = [rates[1] / rates[2], rates[4] / rates[5]]
    assert f["2 threads / 2 processes, mean of the rounds"] == pytest.approx(sum(ratios) / 2, rel=1e-12)
    assert f["2 threads / 2 processes, its standard error"] == pytest.approx(abs(ratios[0] - ratios[1]) / 2, rel=1e-9)
    assert f["2 threads / 2 processes"] == f["native games/s, 2 threads"] / f["native games/s, 2 processes of 1 thread"]
    assert f["2 threads / 1 thread"] == f["native games/s, 2 threads"] / f["native games/s, 1 thread"]
    assert f"native games/s, {cores} threads" in f and f"{cores} threads / 1 thread" in f


def test_a_reader_that_goes_away_ends_the_command_quietly(monkeypatch, capsys):
    """`acesup solve … | head`: a closed pipe ends the command with status 141, no traceback."""
    from acesup.cli import main

    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone: every write raises BrokenPipeError
    with open(write_end, "w", buffering=1) as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        status = main(["solve", "--seed", str(WINNABLE_SEED)])
    assert status == 141
    assert "Traceback" not in capsys.readouterr().err


def test_the_text_histogram_takes_the_win_score_from_its_length():
    from acesup.cli import _text_histogram

    lines = _text_histogram((1, 2, 3, 4, 5, 6, 7)).splitlines()[1:]  # win score 6: bars 0-3, 4-5 and won
    assert [line.split()[0] for line in lines] == ["0-", "4-", "won"]
    assert [int(line.split()[-2]) for line in lines] == [10, 11, 7]
    standard = _text_histogram(acesup.simulate(100).histogram).splitlines()
    assert standard[-2].startswith("44-47") and standard[-1].split()[0] == "won"


# --- the numbered deals of kpat and PySolFC (issue 10 item 3) ------------------------------

# kpat deals 1-20 under kpat's rules with deal=free, which the solver settles at once:
# the winnable ones (tests/test_solve_deals.py has their verdicts).
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
    from acesup.cli import SEARCH_POSITION_BYTES, _memory_node_limit

    memory = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    assert _memory_node_limit(2) == int(memory / 2 / (2 * SEARCH_POSITION_BYTES))
    for argv, limits in [([], (_memory_node_limit(2), None)),
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
    assert json.loads(out)["node_limit"] == _memory_node_limit(1)


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


def test_table_small_puts_the_optimum_beside_the_strategies(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--small", "--games", "30", "--layout", "suits=4,ranks=2",
                         "--node-limit", "20000")
    assert status == 0
    rows = [line for line in out.splitlines() if line.startswith("|")]
    from acesup.reference.strategies import builtin_names
    assert rows[0] == "| layout | optimum | solvable | " + " | ".join(builtin_names()) + " |"
    cells = [cell.strip() for cell in rows[2].strip("|").split("|")]
    assert cells[0] == "suits=4,ranks=2" and cells[1].startswith("54.29 = 19/35 (")
    rules = acesup.Rules(suits=4, ranks=2)
    optimal = acesup.simulate(30, "optimal", rules)
    assert cells[-1].startswith(f"{100 * optimal.win_rate:.2f} (")


@pytest.mark.parametrize("argv, words", [
    (("--layout", "suits=4,ranks=2"), "argument --layout: only with --small"),
    (("--players", "--layout", "suits=4,ranks=2"), "argument --layout: only with --small"),
    (("--rules", "easy"), "argument --rules: only with --players"),
    (("--small", "--cheap-games", "100"), "argument --cheap-games: only with --players"),
    (("--small", "--players"), "argument --players: not allowed with argument --small"),
    (("--small", "--layout", "suits=4,ranks=2", "--layout", "standard"),
     "layout 'standard' has 52 cards: the exact optimum is computed for decks of at most 24 cards"),
])
def test_table_options_of_another_kind_of_table_are_usage_errors(capsys, monkeypatch, argv, words):
    """An option that only one kind of table reads is refused with another, not
    left without effect (the table would be computed as if it were not there)."""
    status, out, err = run(capsys, monkeypatch, "table", "--games", "1", *argv)
    assert status == 2 and out == ""
    assert words in err and err.count("\n") == 1


def test_table_small_columns_are_the_strategies_that_play_every_layout():
    from acesup.cli import _registry_strategies
    from acesup.reference.strategies import builtin_names

    small, larger = acesup.Rules(suits=4, ranks=2), acesup.Rules(suits=4, ranks=5)  # 8 and 20 cards
    assert _registry_strategies(small) == list(builtin_names())
    assert _registry_strategies(small, larger) == [name for name in builtin_names() if name != "optimal"]
    assert _registry_strategies(larger, small) == _registry_strategies(small, larger)


def test_table_players_pairs_every_strategy_with_lookahead(capsys, monkeypatch):
    status, out, _ = run(capsys, monkeypatch, "table", "--players", "--games", "60", "--cheap-games", "200",
                         "--strategy", "greedy", "--strategy", "lookahead", "--node-limit", "20000")
    assert status == 0
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert rows[0] == "| player | games | win % | vs lookahead | cost per game |"
    cells = {row.strip("|").split("|")[0].strip(): [c.strip() for c in row.strip("|").split("|")] for row in rows[2:]}
    assert set(cells) == {"greedy", "lookahead", "clairvoyant (solvable, upper bound)"}
    greedy = acesup.simulate(200, "greedy")  # cheap: it plays --cheap-games
    assert cells["greedy"][1] == "200" and cells["greedy"][2].startswith(f"{100 * greedy.win_rate:.2f} (")
    pair = acesup.compare(["greedy", "lookahead"], 60).pairs[0]
    assert cells["greedy"][3].startswith(f"{100 * pair.diff:+.2f} (")
    assert cells["lookahead"][3] == "0" and cells["greedy"][4].endswith(" us")
    solvable = acesup.solvability(60, node_limit=20000)
    assert cells["clairvoyant (solvable, upper bound)"][2].startswith(f"{100 * solvable.rate:.2f} (")
