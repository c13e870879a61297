"""``acesup`` where its input or output fails (issue "Hardening, round two", items
5 and 6): a deal-number file that is not one, a closed or full standard output,
an input that its encoding cannot read, a Ctrl-C at an awkward moment. Each ends
with a one-line message on stderr and a non-zero status, never a traceback. They
run ``python -m acesup`` (or ``main`` in a child), since they need real streams
and signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

posix = pytest.mark.skipif(os.name != "posix", reason="closes descriptors and sends signals as POSIX does")
EBADF = os.strerror(9)  # "Bad file descriptor"


def acesup_run(*argv, code=None, env=None, **kwargs):
    """``python -m acesup *argv`` (or ``python -c code`` when given) to its end,
    with SIGINT handled as a terminal's process would, even when this test run
    ignores it."""
    command = [sys.executable, "-c", code] if code is not None else [sys.executable, "-m", "acesup", *argv]
    preexec = kwargs.pop("preexec_fn", None)

    def child():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        if preexec is not None:
            preexec()

    kwargs.setdefault("stdout", subprocess.PIPE)
    kwargs.setdefault("stderr", subprocess.PIPE)
    return subprocess.run(command, timeout=120, env={**os.environ, **(env or {})}, preexec_fn=child, **kwargs)


def one_line_error(stderr: bytes, encoding: str = "utf-8") -> str:
    """stderr as text, checked to be one line with no traceback."""
    text = stderr.decode(encoding)
    assert "Traceback" not in text and text.count("\n") == 1, text
    return text


# --- item 5: a file of deal numbers is read a line at a time --------------------------------------


@posix
@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_deal_file_without_line_ends_is_refused_at_its_first_line_not_read_whole():
    """`acesup winnable --kpat @/dev/zero` was read whole: killed for its memory, or
    under a limit a MemoryError traceback. A line is read up to a bound."""
    import resource

    def limit_memory():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, 2 * 2**30))

    started = time.monotonic()
    done = acesup_run("winnable", "--kpat", "@/dev/zero", preexec_fn=limit_memory)
    assert done.returncode == 2 and done.stdout == b""
    err = one_line_error(done.stderr)
    assert "/dev/zero, line 1: expected a deal number, got a line of more than 100 characters" in err
    assert time.monotonic() - started < 60


@posix
@pytest.mark.serial
def test_ctrl_c_stops_the_reading_of_an_endless_deal_file():
    """`acesup winnable --kpat @/dev/stdin` fed deal numbers without end: Ctrl-C
    ends it as any command, status 130 and no traceback."""
    process = subprocess.Popen([sys.executable, "-m", "acesup", "winnable", "--kpat", "@/dev/stdin"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def feed():
        try:
            while True:
                process.stdin.write(b"1\n" * 1000)
        except (BrokenPipeError, ValueError, OSError):  # the reader ended
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    time.sleep(3)  # well into the reading
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert out == b"" and one_line_error(err) == "acesup: interrupted\n"


# --- item 6: output lost is reported ------------------------------------------------------------------


@posix
@pytest.mark.parametrize("argv, stdin, prog", [
    (["play", "--seed", "1"], b"moves\n", "acesup play"),  # was RuntimeError: input(): lost sys.stdout
    (["solve", "--seed", "1"], None, "acesup solve"),  # was status 0, its output lost
    (["--version"], None, "acesup"),
    (["solve", "--help"], None, "acesup"),
])
def test_a_closed_standard_output_is_reported(argv, stdin, prog):
    """`acesup ... >&-`: what the command writes is lost, so it says so (status 1)."""
    done = acesup_run(*argv, input=stdin, stdout=None, preexec_fn=lambda: os.close(1))
    assert done.returncode == 1
    assert one_line_error(done.stderr) == f"{prog}: error: cannot write the output: {EBADF}\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["simulate", "--help"]])
def test_help_and_version_that_cannot_be_written_are_reported(argv):
    """`acesup --version >/dev/full` ended with status 0, its output lost: argparse
    ignores a failed write."""
    with open("/dev/full", "w") as full:
        done = acesup_run(*argv, stdout=full)
    assert done.returncode == 1
    assert one_line_error(done.stderr) == "acesup: error: cannot write the output: No space left on device\n"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
def test_an_input_that_its_encoding_cannot_read_is_reported(encoding):
    """`PYTHONIOENCODING=utf-16 acesup play` reading moves typed without a byte-order
    mark: a UnicodeError traceback before."""
    done = acesup_run("play", "--seed", "1", input=b"moves\n", env={"PYTHONIOENCODING": encoding})
    assert done.returncode == 1
    assert one_line_error(done.stderr, encoding) == (
        f"acesup play: error: cannot read the input as {encoding}: {encoding.upper()} stream does not start with BOM\n")
    assert "Aces Up, seed 1" in done.stdout.decode(encoding)  # what was written before it stays written


# --- item 6: Ctrl-C at an awkward moment ----------------------------------------------------------------

# `main` in a child in which a Ctrl-C arrives at a chosen moment: `ctrl_c()` sends it.
IN_A_CHILD = """
import signal, sys
import acesup, acesup.cli, acesup.plot

def ctrl_c():
    signal.raise_signal(signal.SIGINT)

{patch}
raise SystemExit(acesup.cli.main({argv!r}))
"""

# What a C extension's import does with a Ctrl-C that arrives in it (numpy's import_array, in
# matplotlib's extensions): it prints it and raises ImportError in its place.
BROKEN_IMPORT = """
def broken_import(*args, **kwargs):
    try:
        ctrl_c()
    except KeyboardInterrupt:
        pass
    raise ImportError("numpy.core.multiarray failed to import")
"""


@posix
@pytest.mark.parametrize("patch, argv, prog", [
    # while the parser is made (acesup.__version__ reads the package's metadata)
    ("acesup.__dict__.pop('__version__', None)\nacesup._ON_FIRST_USE['__version__'] = ctrl_c",
     ["simulate", "--games", "10"], "acesup"),
    # after the run (which a first Ctrl-C may have stopped), one breaks the plot's import of matplotlib
    (BROKEN_IMPORT + "acesup.plot.histogram = broken_import",
     ["simulate", "--games", "10", "--plot", "{tmp}/scores.png"], "acesup simulate"),
    # the plot's check, before the run, is not told that the arguments are bad
    (BROKEN_IMPORT + "acesup.plot.check_path = broken_import",
     ["simulate", "--games", "10", "--plot", "{tmp}/scores.png"], "acesup simulate"),
])
def test_a_ctrl_c_at_an_awkward_moment_is_an_interruption(tmp_path, patch, argv, prog):
    """Two Ctrl-Cs 0.2 s apart on `acesup simulate --plot` gave a traceback about
    one run in four: a KeyboardInterrupt while the command line loaded, or an
    ImportError or RuntimeError from matplotlib's import, which the second one
    broke. A Ctrl-C while the plot is imported or drawn now waits for its end."""
    pytest.importorskip("matplotlib")
    code = IN_A_CHILD.format(patch=patch, argv=[arg.format(tmp=tmp_path) for arg in argv])
    done = acesup_run(code=code)
    assert done.returncode == 130, done.stderr
    assert done.stderr.decode().endswith(f"{prog}: interrupted\n")
    assert b"Traceback" not in done.stderr and b"ImportError" not in done.stderr
