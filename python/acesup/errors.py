"""The exceptions of acesup, shared by both engines.

The native engine raises these very classes (its bindings import this module),
so ``except acesup.IllegalMoveError`` catches an error from either engine, and
the conformance suite can demand the same exception type from both.

Every class subclasses the built-in that fits, so code that only knows about
``ValueError`` or ``IndexError`` still catches them.
"""

from __future__ import annotations

__all__ = [
    "AcesUpError",
    "CardError",
    "DeckError",
    "PositionError",
    "RulesError",
    "MoveError",
    "IllegalMoveError",
    "UndoError",
    "StrategyError",
]


class AcesUpError(Exception):
    """Base class of every error that acesup raises on purpose."""


class CardError(AcesUpError, ValueError):
    """A card's text is not a card, e.g. ``Card("1x")``."""


class DeckError(AcesUpError, ValueError):
    """A deck is not the 52 distinct cards: wrong length, a duplicate or a missing card."""


class PositionError(AcesUpError, ValueError):
    """A position's one-line text form is malformed or describes an impossible position."""


class RulesError(AcesUpError, ValueError):
    """A rule option has an unknown value, or a rules text names an unknown option or preset."""


class MoveError(AcesUpError, ValueError):
    """A move cannot exist in any position: malformed text, a pile outside 0-3, a fill onto its own pile."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid in the current position."""


class UndoError(AcesUpError, IndexError):
    """``Game.undo()`` was called with no move to take back."""


class StrategyError(AcesUpError, ValueError):
    """An unknown strategy name, bad strategy parameters, or a strategy that returned no legal move."""
