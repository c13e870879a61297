"""Checks of the arguments that the public functions of both engines take.

Shared by the reference engine, the command line and the helpers around the
engines, so that a bad count, seed or limit is refused with the same words
everywhere. This module imports nothing of the package: anything may use it.
"""

from __future__ import annotations

import operator
from typing import TypeVar

__all__ = ["U64", "int_arg", "rules_arg"]

R = TypeVar("R")

U64 = 2**64  # seeds, game indices and counts are 64-bit


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
        if isinstance(value, bool) or not hasattr(type(value), "__index__"):
            raise TypeError(f"{name} must be {_requirement(low, high)}, got {type(value).__name__}")
        value = operator.index(value)
    if value < low or (high is not None and value >= high):
        raise error(f"{name} must be {_requirement(low, high)}, got {value}")
    return value


def _requirement(low: int, high: int | None) -> str:
    if high is None:
        return {0: "a non-negative int", 1: "a positive int"}.get(low, f"an int >= {low}")
    if high == U64:
        return f"an int in [{low}, 2**64)"
    return f"an int from {low} to {high - 1}"


def rules_arg(rules: R | None, rules_type: type[R], default: R | None = None) -> R:
    """``rules``, or for None ``default`` (the standard rules ``rules_type()`` when
    that is None too), where ``rules_type`` is the ``Rules`` class of the engine at
    hand. ``TypeError`` for anything else (with a hint for a text, which
    ``Rules.parse`` reads)."""
    if rules is None:
        return rules_type() if default is None else default
    if not isinstance(rules, rules_type):
        hint = " (use Rules.parse() for a text)" if isinstance(rules, str) else ""
        raise TypeError(f"rules must be a Rules or None, got {type(rules).__name__}{hint}")
    return rules
