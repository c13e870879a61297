"""Argument helpers shared by the command line, the benchmark and the engines.

They live here, in a module that imports nothing of acesup, so that any module
may use them without an import cycle (``acesup.cli`` imports ``acesup.bench``,
and both parse counts the same way).
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

__all__ = ["int_at_least"]


def int_at_least(low: int) -> Callable[[str], int]:
    """An argparse type: an int >= ``low``, written as digits (``1_000_000`` too)
    or as an integral float (``1e6``)."""

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
        return value

    return convert
