"""``acesup play`` at a real terminal: a pseudo-terminal (the ``pty`` module) is
the child's stdin, stdout and stderr and its controlling terminal, so the keys
sent are what a person types: line editing through readline (Up recalls the last
line), Ctrl-D at the prompt, and Ctrl-C, which the terminal turns into SIGINT."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time

import pytest

pty = pytest.importorskip("pty")  # POSIX only
termios = pytest.importorskip("termios")
fcntl = pytest.importorskip("fcntl")
pytest.importorskip("readline")
pytestmark = pytest.mark.serial  # its reads wait on a deadline

UP = "\x1b[A"  # what the Up arrow key sends
CTRL_C, CTRL_D = "\x03", "\x04"
TIMEOUT = 20.0


class Terminal:
    """``python -m acesup *argv`` on a new pseudo-terminal."""

    def __init__(self, *argv: str) -> None:
        self.master, slave = pty.openpty()

        def controlling_terminal() -> None:  # in the child: a session of its own, the pty as its terminal
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            signal.signal(signal.SIGINT, signal.SIG_DFL)  # even when this test run ignores SIGINT

        env = {**os.environ, "TERM": "xterm", "NO_COLOR": "1", "INPUTRC": os.devnull}
        self.process = subprocess.Popen([sys.executable, "-m", "acesup", *argv], stdin=slave, stdout=slave,
                                        stderr=slave, env=env, preexec_fn=controlling_terminal)
        os.close(slave)
        self.output = ""

    def send(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def expect(self, text: str, count: int = 1) -> None:
        """Reads until ``text`` has appeared ``count`` times in the output."""
        deadline = time.monotonic() + TIMEOUT
        while self.output.count(text) < count:
            if not self._read(deadline - time.monotonic()):
                raise AssertionError(f"no {text!r} (x{count}) in {self.output!r}")

    def finish(self) -> int:
        """Reads the output to its end and returns the exit status."""
        deadline = time.monotonic() + TIMEOUT
        while self._read(deadline - time.monotonic()):
            pass
        return self.process.wait(timeout=TIMEOUT)

    def _read(self, seconds: float) -> bool:
        if seconds <= 0 or not select.select([self.master], [], [], seconds)[0]:
            return False
        try:
            chunk = os.read(self.master, 4096)
        except OSError:  # EIO: the child has gone and closed its end
            return False
        self.output += chunk.decode(errors="replace")
        return bool(chunk)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        os.close(self.master)


@pytest.fixture
def terminal():
    opened = []

    def open_(*argv):
        opened.append(Terminal(*argv))
        return opened[-1]

    yield open_
    for each in opened:
        each.close()


def after_the_last_prompt(output: str, text: str) -> str:
    """What the output shows between the last prompt and ``text``."""
    end = output.index(text)
    return output[output.rindex("move> ", 0, end) + len("move> "):end]


def test_up_recalls_the_last_line_and_ctrl_d_stops_on_a_fresh_line(terminal):
    play = terminal("play", "--seed", "42")
    play.expect("move> ")
    play.send("moves\r")
    play.expect("legal moves: ")
    play.expect("move> ", 2)
    play.send(UP + "\r")  # without line editing this is the line "\x1b[A", not a move
    play.expect("legal moves: ", 2)
    play.expect("move> ", 3)
    play.send(CTRL_D)
    play.expect("stopped with 0 of 48 cards discarded")
    assert play.finish() == 0
    assert "not a move" not in play.output
    assert "\n" in after_the_last_prompt(play.output, "stopped with")  # not written on the prompt's line
    assert "Traceback" not in play.output


def test_ctrl_c_stops_with_status_130_on_a_fresh_line(terminal):
    play = terminal("play", "--seed", "42")
    play.expect("move> ")
    play.send("d")  # a half-typed line
    play.expect("move> d")
    # readline echoes a key before it goes back to waiting for the next, and CPython's readline
    # hook notices a signal only while it waits: a Ctrl-C in between would wait for one more key.
    time.sleep(0.5)
    play.send(CTRL_C)
    play.expect("interrupted")
    assert play.finish() == 130
    assert "\n" in after_the_last_prompt(play.output, "acesup play: interrupted")
    assert "Traceback" not in play.output
