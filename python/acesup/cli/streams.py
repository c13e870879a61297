"""The standard streams of ``acesup``: what they write where their encoding
cannot write a character, and what is left of standard output once writing
to it failed."""

from __future__ import annotations

import codecs
import contextlib
import errno
import io
import os
import sys

# What the output writes beyond ASCII, and its stand-in where the output's encoding cannot
# write it (PYTHONIOENCODING=ascii, a C locale, latin-1): the suits become the letters of the
# card notation (RULES.md R6.1), which keeps the tableau's columns, since a card is two
# characters either way.
ASCII_FALLBACK = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c",
                  "\u2588": "#", "\u258f": "|", "\u2013": "-", "\u00b7": "."}
FALLBACK = "acesup-ascii"  # the name of the codecs error handler that writes them


def _ascii_fallback(error: UnicodeError) -> tuple[str, int]:
    """A codecs error handler: ASCII_FALLBACK's stand-in for each character that
    the encoding cannot write, and a backslash escape for any other."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(ASCII_FALLBACK.get(char, char.encode("ascii", "backslashreplace").decode("ascii"))
                   for char in error.object[error.start:error.end]), error.end


class ClosedOutput(io.TextIOBase):
    """Standard output when it was closed (``acesup solve >&-``, where Python sets
    ``sys.stdout`` to None and ``print`` writes nothing): writing to it fails as
    writing to a closed descriptor does, so that the output lost is reported."""

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF))


def prepare_streams() -> None:
    """Makes the standard streams safe for whatever goes through them: stdout and
    stderr write ASCII_FALLBACK's stand-ins for what their encoding cannot, and
    stdin reads bytes that are not text in its encoding (a stray ``\\xff``) as
    U+FFFD, which is then just a line that is not a move. A closed stdout becomes
    a ClosedOutput; a closed stdin or stderr (``acesup play <&-``) is None in
    ``sys`` and is left alone."""
    if sys.stdout is None:
        sys.stdout = ClosedOutput()
    codecs.register_error(FALLBACK, _ascii_fallback)
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors=FALLBACK)
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")


def discard_output() -> None:
    """Points standard output at nothing, so that the interpreter's last flush of
    what is left in its buffer cannot fail a second time at exit."""
    with contextlib.suppress(OSError, ValueError):  # no file descriptor: nothing is flushed at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def flush_output() -> None:
    """Flushes standard output now, so that output that cannot be written raises
    OSError here, to be reported, rather than being lost at exit."""
    if sys.stdout is not None:
        sys.stdout.flush()


def complain(message: str) -> None:
    """Writes ``message`` as a line on standard error, if there is one that takes it."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            print(message, file=sys.stderr)
