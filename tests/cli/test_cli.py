"""The command line ``acesup`` (acesup.cli) as a whole: its help, its one-line
usage errors, and no traceback whatever the standard streams are. Most tests call
``main`` in this process with captured output, where standard output is not a
terminal (so no colour and no progress bar); a few run ``python -m acesup`` to
check what only a real process shows (the exit status of ``-m``, Ctrl-C)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import acesup
from cli_helpers import WINNABLE_SEED, python_m, python_m_run, run


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
