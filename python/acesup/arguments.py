"""Checks of the arguments that the public functions of both engines and the
command line take.

Shared by the reference engine, the command line, the benchmark and the helpers
around the engines, so that a bad count, seed or limit is refused with the same
words everywhere. This module imports nothing of the package, so that any module
may use it without an import cycle.
"""

from __future__ import annotations

import argparse
import math
import operator
import re
from collections.abc import Callable, Sized
from typing import SupportsIndex, TypeVar

__all__ = ["MAX_GAMES", "U64", "deal_range", "decimal_value", "exact_str", "games_count", "int_arg",
           "int_at_least", "int_in_range", "is_native", "length", "native_game_error", "rules_arg"]

R = TypeVar("R")

U64 = 2**64  # seeds, game indices and counts are 64-bit
MAX_GAMES = U64  # so a run has at most 2**64 games (docs/API.md, simulate)


def int_arg(value: object, name: str, low: int = 0, high: int | None = None,
            error: type[Exception] = ValueError) -> int:
    """``value`` as a Python int with ``low <= value < high`` (no upper bound when
    ``high`` is None).

    Anything with ``__index__`` counts as an int (numpy integers included), except
    a bool: ``True`` is never a pile, a seed or a count. Raises ``TypeError`` for a
    bool or a non-integer and ``error`` (``ValueError`` by default) when out of
    range, both worded ``<name> must be <requirement>, got <type or value>``.
    """
    if type(value) is not int:
        if isinstance(value, bool) or not isinstance(value, SupportsIndex):
            raise TypeError(f"{name} must be {_requirement(low, high)}, got {type(value).__name__}")
        value = operator.index(value)
    if value < low or (high is not None and value >= high):
        raise error(f"{name} must be {_requirement(low, high)}, got {value}")
    return value


def length(numbers: Sized) -> int:
    """``len(numbers)``, and for a range however long (``len`` stops at
    ``sys.maxsize``, and PySolFC's deal numbers go on to 10**20)."""
    if not isinstance(numbers, range):
        return len(numbers)
    if not numbers:
        return 0
    return (numbers[-1] - numbers[0]) // numbers.step + 1


def exact_str(text: str) -> str:
    """The characters of ``text`` as a plain str, those of a str subclass (NumPy's
    ``str_``) included: what the native engine reads. ``str(text)`` would ask a
    subclass's own ``__str__``, which may say something else."""
    return str.__str__(text)


def decimal_value(text: str, high: int) -> int | None:
    """The number that ``text`` writes in ASCII decimal digits, when it is below
    ``high``, as the native engine reads one (leading zeros, however many, are
    fine: ``int()`` alone refuses more than 4,300 digits); None for any other text."""
    digits = text.lstrip("0") or "0"
    if text.isascii() and text.isdigit() and len(digits) <= len(str(high)) and int(digits) < high:
        return int(digits)
    return None


def _requirement(low: int, high: int | None) -> str:
    if high is None:
        return {0: "a non-negative int", 1: "a positive int"}.get(low, f"an int >= {low}")
    if high == U64:
        return f"an int in [{low}, 2**64)"
    return f"an int from {low} to {high - 1}"


def is_native(value: object, name: str) -> bool:
    """Whether ``value`` is the native engine's ``name`` (``Move``, ``Rules``,
    ``Card``, ``Game``, ``Stats``): a class of that name from ``acesup._core``,
    recognised without importing it. The reference engine takes such values by
    their text and refuses a native Game by name."""
    kind = type(value)
    return kind.__name__ == name and kind.__module__ == "acesup._core"


def native_game_error(value: object, place: str) -> TypeError | None:
    """The ``TypeError`` for a native-engine Game given where a reference Game is
    wanted, or None for any other value."""
    if not is_native(value, "Game"):
        return None
    return TypeError(f"{place}: a native-engine Game was given to the reference engine "
                     f"(make the game with acesup.reference.Game, or use acesup.{place})")


def rules_arg(rules: R | None, rules_type: type[R], default: R | None = None) -> R:
    """``rules`` (the native engine's by their text), or for None ``default`` (the
    standard rules ``rules_type()`` when that is None too), where ``rules_type``
    is the ``Rules`` class of the engine at hand. ``TypeError`` for
    anything else (with a hint for a text, which ``Rules.parse`` reads)."""
    if rules is None:
        return rules_type() if default is None else default
    if is_native(rules, "Rules"):
        parsed: R = rules_type.parse(str(rules))  # type: ignore[attr-defined]
        return parsed
    if not isinstance(rules, rules_type):
        hint = " (use Rules.parse() for a text)" if isinstance(rules, str) else ""
        raise TypeError(f"rules must be a Rules or None, got {type(rules).__name__}{hint}")
    return rules


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


def deal_range(text: str) -> range | list[int]:
    """An argparse type: deal numbers ``A-B`` (both included), one number ``N``, or
    ``@FILE``, the numbers in FILE one a line (as ``acesup winnable --list`` writes
    them; blank lines are skipped), in increasing order, each once."""
    if text.startswith("@"):
        return _deal_file(text[1:])
    match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
    if match is None:
        raise argparse.ArgumentTypeError(f"expected deal numbers A-B, N or @FILE, got {text!r}")
    first = int(match[1])
    last = first if match[2] is None else int(match[2])
    if last < first:
        raise argparse.ArgumentTypeError(f"expected A-B with A <= B, got {text!r}")
    return range(first, last + 1)


DEAL_LINE = 100  # the longest line of a deal-number file: a number (at most 21 digits) and its spaces


def _deal_file(path: str) -> list[int]:
    """The deal numbers of the file at ``path`` (see ``deal_range``), read a line at
    a time, each at most DEAL_LINE characters, so that a file that is not a list
    of numbers (``/dev/zero``) is refused at its first long line rather than read
    whole into memory, and Ctrl-C stops the reading of an endless one."""
    numbers = set()
    try:
        with open(path, encoding="utf-8") as file:
            for line_number, line in enumerate(iter(lambda: file.readline(DEAL_LINE + 1), ""), 1):
                text = line.rstrip("\r\n")
                if len(text) > DEAL_LINE:
                    raise argparse.ArgumentTypeError(f"{path}, line {line_number}: expected a deal number, got a "
                                                     f"line of more than {DEAL_LINE} characters")
                if text.strip():
                    if re.fullmatch(r"\s*\d+\s*", text) is None:
                        raise argparse.ArgumentTypeError(f"{path}, line {line_number}: expected a deal number, "
                                                         f"got {text[:40]!r}")
                    numbers.add(int(text))
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        raise argparse.ArgumentTypeError(f"cannot read deal numbers from {path!r}: {reason}") from None
    if not numbers:
        raise argparse.ArgumentTypeError(f"no deal numbers in {path!r}")
    return sorted(numbers)
