"""What the tests of the command line share: running ``acesup`` in this process with
captured output, or as ``python -m acesup`` in a child, and two deals of known verdict."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys

from acesup.cli import main


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


def python_m_run(*argv, env=None, **kwargs):
    """``python -m acesup *argv`` run to its end: the CompletedProcess, output as bytes."""
    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run([sys.executable, "-m", "acesup", *argv], timeout=120,
                          env={**os.environ, **(env or {})}, **kwargs)
