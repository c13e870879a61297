"""The standard streams of ``acesup``: what they write where their encoding
cannot write a character, and what is left of standard output once writing
to it failed."""

from __future__ import annotations

import codecs
import contextlib
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


def prepare_streams() -> None:
    """Makes the standard streams safe for whatever goes through them: stdout and
    stderr write ASCII_FALLBACK's stand-ins for what their encoding cannot, and
    stdin reads bytes that are not text in its encoding (a stray ``\\xff``) as
    U+FFFD, which is then just a line that is not a move. A closed stream
    (``acesup play <&-``) is None in ``sys`` and is left alone."""
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
