"""Argument helpers shared by the command line, the benchmark and the engines.

They live here, in a module that imports nothing of acesup, so that any module
may use them without an import cycle (``acesup.cli`` imports ``acesup.bench``,
and both parse counts the same way).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["MAX_GAMES", "games_count", "int_at_least", "int_in_range"]

MAX_GAMES = 2**64  # game indices are 64-bit, so a run has at most 2**64 games (docs/API.md, simulate)


def int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an int >= ``low``, written as digits (``1_000_000`` too)
    or as an integral float (``1e6``)."""
    return int_in_range(low, None)


def int_in_range(low: int, high: int | None, high_text: str | None = None) -> Callable[[str], int]:
    """An argparse type: an int from ``low`` to ``high`` (no upper bound when
    None), written as ``int_at_least`` reads it. ``high_text`` is how a message
    writes the bound (``"2**64"``, rather than 20 digits). The message quotes the
    text as typed, so ``1e30`` is never shown as its 31 digits."""

    def convert(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                number = math.nan
            if not number.is_integer():
                raise argparse.ArgumentTypeError(f"expected an int >= {low}, got {text!r}") from None
            value = int(number)
        if value < low:
            raise argparse.ArgumentTypeError(f"expected an int >= {low}, got {text!r}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"at most {high_text or high}, got {text!r}")
        return value

    return convert


def games_count(low: int = 1) -> Callable[[str], int]:
    """An argparse type: a number of games, from ``low`` to ``MAX_GAMES``."""
    return int_in_range(low, MAX_GAMES, "2**64 games (the game indices of a seed are 64-bit)")
