"""Moves (RULES.md R2) as values, and their text form (R6.3).

A Move is well formed but not necessarily legal: what is legal is decided in
rules.py. Pile numbers go up to ``MAX_PILES - 1``, the most piles of any layout
(R1.4); a pile that the rules in force do not have is an illegal move (R7 check 0).
"""

from __future__ import annotations

import re

from ..arguments import U64, exact_str, int_arg, is_native
from ..errors import MoveError
from .values import Ordered

__all__ = ["Move", "MAX_PILES", "move_arg"]

MAX_PILES = 5  # the most piles of any layout (R1.4)
_KINDS = ("discard", "fill", "to_reserve", "from_reserve", "deal")  # in R3 order


class Move(Ordered):
    """A move (R2), an immutable value, well-formed but not necessarily legal.

    Made by ``Move.discard(pile)``, ``Move.fill(src, dst, index=0)``,
    ``Move.to_reserve(src)``, ``Move.from_reserve(dst)``, ``Move.deal()`` or
    ``Move.parse(text)`` (``Move(text)`` is the same as the last). ``kind`` is
    ``"discard"``, ``"fill"``, ``"to_reserve"``, ``"from_reserve"`` or ``"deal"``;
    ``pile`` is set for a discard only, ``src``, ``dst`` and ``index`` for a fill,
    ``src`` for a move to the reserve and ``dst`` for one from it; the others are
    None. Moves compare and sort in R3 order.
    """

    __slots__ = ("kind", "pile", "src", "dst", "index", "_key", "_text")

    kind: str
    pile: int | None
    src: int | None
    dst: int | None
    index: int | None
    _text: str  # the R6.3 text

    def __new__(cls, text: str) -> Move:
        return cls.parse(text)

    @classmethod
    def discard(cls, pile: int) -> Move:
        """Discard the top card of ``pile`` (R2.1). ``MoveError`` unless pile is in
        0-4, ``TypeError`` for a non-int."""
        return _move((0, _pile_arg(pile, "pile")))

    @classmethod
    def fill(cls, src: int, dst: int, index: int = 0) -> Move:
        """Move the card at ``index`` of pile src (counted from the top, 0 = top
        card) onto the empty pile dst (R2.2).

        ``MoveError`` when a pile is outside 0-4, src == dst or index is not in
        [0, 2**64);
        ``TypeError`` for a non-int.
        """
        src, dst = _pile_arg(src, "src"), _pile_arg(dst, "dst")
        index = int_arg(index, "index", 0, error=MoveError)
        if index >= U64:  # moves hold 64-bit indices, as the native engine's do (no pile is that high)
            raise MoveError(f"index must be a non-negative int below 2**64, got {index}")
        if src == dst:
            raise MoveError(f"a fill moves a card to another pile, got src = dst = {src}")
        return _move((1, src, dst, index))

    @classmethod
    def to_reserve(cls, src: int) -> Move:
        """Move the top card of pile ``src`` to the empty reserve (R2.4). ``MoveError``
        unless src is in 0-4, ``TypeError`` for a non-int."""
        return _move((2, _pile_arg(src, "src")))

    @classmethod
    def from_reserve(cls, dst: int) -> Move:
        """Move the reserve's card to the empty pile ``dst`` (R2.4). ``MoveError``
        unless dst is in 0-4, ``TypeError`` for a non-int."""
        return _move((3, _pile_arg(dst, "dst")))

    @classmethod
    def deal(cls) -> Move:
        """Deal cards from the stock onto the piles (R2.3)."""
        return _move((4,))

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from R6.3 text (``d2``, ``f2>0``, ``f2:3>0``, ``2>r``, ``r>0``, ``deal``), ignoring
        surrounding white space and case. ``MoveError`` for text that is not a
        move, a pile outside 0-4, a negative index or a fill onto its own pile;
        ``TypeError`` for a non-string."""
        if not isinstance(text, str):
            raise TypeError(f"a move text must be a str, got {type(text).__name__}")
        text = exact_str(text)
        match = _MOVE_TEXT.fullmatch(text.strip())
        if match is None:
            raise MoveError(f"not a move: {text!r} (expected d<pile>, f<src>><dst>, "
                            f"f<src>:<index>><dst>, <src>>r, r><dst> or deal, "
                            f"e.g. 'd2', 'f2>0', 'f2:3>0', '2>r', 'r>0')")
        pile, src, index, dst, stored, restored = (None if group is None else int(group)
                                                   for group in match.groups())
        try:
            if pile is not None:
                return cls.discard(pile)
            if src is not None and dst is not None:  # the pattern has both or neither
                return cls.fill(src, dst, 0 if index is None else index)
            if stored is not None:
                return cls.to_reserve(stored)
            if restored is not None:
                return cls.from_reserve(restored)
            return cls.deal()
        except MoveError as err:
            raise MoveError(f"not a move: {text!r} ({err})") from None

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        if self.kind == "discard":
            return f"Move.discard({self.pile})"
        if self.kind == "fill":
            index = f", index={self.index}" if self.index else ""
            return f"Move.fill({self.src}, {self.dst}{index})"
        if self.kind == "to_reserve":
            return f"Move.to_reserve({self.src})"
        if self.kind == "from_reserve":
            return f"Move.from_reserve({self.dst})"
        return "Move.deal()"

    def __reduce__(self) -> tuple[type[Move], tuple[str]]:
        return Move, (self._text,)


# Numbers have at most 20 digits (enough for any 64-bit value), so that int()
# never meets a huge string.
_NUMBER = r"(-?[0-9]{1,20})"
_MOVE_TEXT = re.compile(rf"d{_NUMBER}|f{_NUMBER}(?::{_NUMBER})?>{_NUMBER}|{_NUMBER}>r|r>{_NUMBER}|deal",
                        re.IGNORECASE | re.ASCII)


def _pile_arg(value: object, name: str) -> int:
    return int_arg(value, name, 0, MAX_PILES, MoveError)


def _new_move(key: tuple[int, ...]) -> Move:
    """The move with this sort key: (0, pile), (1, src, dst, index), (2, src),
    (3, dst) or (4,)."""
    kind = _KINDS[key[0]]
    pile = src = dst = index = None
    if kind == "discard":
        (pile,) = key[1:]
        text = f"d{pile}"
    elif kind == "fill":
        src, dst, index = key[1:]
        text = f"f{src}:{index}>{dst}" if index else f"f{src}>{dst}"
    elif kind == "to_reserve":
        (src,) = key[1:]
        text = f"{src}>r"
    elif kind == "from_reserve":
        (dst,) = key[1:]
        text = f"r>{dst}"
    else:
        text = "deal"
    move = object.__new__(Move)
    for name, value in (("kind", kind), ("pile", pile), ("src", src), ("dst", dst), ("index", index),
                        ("_key", key), ("_text", text)):
        object.__setattr__(move, name, value)
    return move


# Every move that can be legal in some position (a fill's index is below 52)
# exists once; the constructors hand out these instances.
_MOVES = {key: _new_move(key) for key in [
    *((0, p) for p in range(MAX_PILES)),
    *((1, src, dst, index) for src in range(MAX_PILES) for dst in range(MAX_PILES) if src != dst
      for index in range(52)),
    *((2, p) for p in range(MAX_PILES)),
    *((3, p) for p in range(MAX_PILES)),
    (4,),
]}


def _move(key: tuple[int, ...]) -> Move:
    return _MOVES.get(key) or _new_move(key)


def move_arg(move: Move | str, where: str) -> Move:
    """``move`` itself, or the move its text (or the native engine's Move) names; ``MoveError`` for bad text,
    ``TypeError`` (worded after ``where``) for another type."""
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    if is_native(move, "Move"):
        return Move.parse(str(move))
    raise TypeError(f"{where} takes a Move or a move text, got {type(move).__name__}")
