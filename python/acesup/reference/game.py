"""Moves and games: the state of a game, playing and taking back moves, and the
text forms of R6.3 (moves), R6.5 (positions) and R6.6 (the tableau).

What is legal is decided in rules.py; a Game only keeps the position and asks.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..display import game_svg
from ..errors import CardError, IllegalMoveError, MoveError, PositionError, RulesError, UndoError
from . import rules as rulebook  # imported as a module because rules.py imports this one
from ..arguments import int_arg
from ..values import Ordered
from .cards import Card, card_set_problem, deck_cards
from .rng import Rng, shuffled_deck

__all__ = ["Move", "Game"]

_KINDS = ("discard", "fill", "deal")  # in R3 order


class Move(Ordered):
    """A move (R2), an immutable value, well-formed but not necessarily legal.

    Made by ``Move.discard(pile)``, ``Move.fill(src, dst, index=0)``, ``Move.deal()``
    or ``Move.parse(text)`` (``Move(text)`` is the same as the last). ``kind`` is
    ``"discard"``, ``"fill"`` or ``"deal"``; ``pile`` is set for a discard only,
    ``src``, ``dst`` and ``index`` for a fill only, the others are None. Moves
    compare and sort in R3 order.
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
        0-3, ``TypeError`` for a non-int."""
        return _move((0, _pile_arg(pile, "pile")))

    @classmethod
    def fill(cls, src: int, dst: int, index: int = 0) -> Move:
        """Move the card at ``index`` of pile src (counted from the top, 0 = top
        card) onto the empty pile dst (R2.2).

        ``MoveError`` when a pile is outside 0-3, src == dst or index < 0;
        ``TypeError`` for a non-int.
        """
        src, dst = _pile_arg(src, "src"), _pile_arg(dst, "dst")
        index = int_arg(index, "index", 0, error=MoveError)
        if src == dst:
            raise MoveError(f"a fill moves a card to another pile, got src = dst = {src}")
        return _move((1, src, dst, index))

    @classmethod
    def deal(cls) -> Move:
        """Deal four cards from the stock (R2.3)."""
        return _move((2,))

    @classmethod
    def parse(cls, text: str) -> Move:
        """A move from R6.3 text (``d2``, ``f2>0``, ``f2:3>0``, ``deal``), ignoring
        surrounding white space and case. ``MoveError`` for text that is not a
        move, a pile outside 0-3, a negative index or a fill onto its own pile;
        ``TypeError`` for a non-string."""
        if not isinstance(text, str):
            raise TypeError(f"a move text must be a str, got {type(text).__name__}")
        match = _MOVE_TEXT.fullmatch(text.strip())
        if match is None:
            raise MoveError(f"not a move: {text!r} (expected d<pile>, f<src>><dst>, "
                            f"f<src>:<index>><dst> or deal, e.g. 'd2', 'f2>0', 'f2:3>0')")
        pile, src, index, dst = (None if group is None else int(group) for group in match.groups())
        try:
            if pile is not None:
                return cls.discard(pile)
            if src is not None:
                return cls.fill(src, dst, 0 if index is None else index)
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
        return "Move.deal()"

    def __reduce__(self) -> tuple[type[Move], tuple[str]]:
        return Move, (self._text,)


# Numbers have at most 20 digits (enough for any 64-bit value), so that int()
# never meets a huge string.
_NUMBER = r"(-?[0-9]{1,20})"
_MOVE_TEXT = re.compile(rf"d{_NUMBER}|f{_NUMBER}(?::{_NUMBER})?>{_NUMBER}|deal", re.IGNORECASE | re.ASCII)


def _pile_arg(value: object, name: str) -> int:
    return int_arg(value, name, 0, 4, MoveError)


def _new_move(key: tuple[int, ...]) -> Move:
    """The move with this sort key: (0, pile), (1, src, dst, index) or (2,)."""
    kind = _KINDS[key[0]]
    pile = src = dst = index = None
    if kind == "discard":
        (pile,) = key[1:]
        text = f"d{pile}"
    elif kind == "fill":
        src, dst, index = key[1:]
        text = f"f{src}:{index}>{dst}" if index else f"f{src}>{dst}"
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
    *((0, p) for p in range(4)),
    *((1, src, dst, index) for src in range(4) for dst in range(4) if src != dst for index in range(52)),
    (2,),
]}


def _move(key: tuple[int, ...]) -> Move:
    return _MOVES.get(key) or _new_move(key)


def _as_move(move: Move | str, where: str) -> Move:
    if isinstance(move, Move):
        return move
    if isinstance(move, str):
        return Move.parse(move)
    raise TypeError(f"{where} takes a Move or a move text, got {type(move).__name__}")


def _cards_text(cards: Iterable[Card]) -> str:
    return "".join(map(str, cards)) or "-"


def _field_cards(field: str, what: str) -> list[Card]:
    """The cards of one field of a position (R6.5): '-', or two-character card
    texts (R6.1) without separators. ``PositionError`` otherwise."""
    if field == "-":
        return []
    if not field or len(field) % 2:
        raise PositionError(f"{what} {field!r} is neither '-' nor a run of two-character cards")
    try:
        return [Card(field[i:i + 2]) for i in range(0, len(field), 2)]
    except CardError as err:
        raise PositionError(f"{what}: {err}") from None


class Game:
    """A game of Aces Up in progress: the position (piles, stock, discards and
    rules), the moves played so far and the strategy stream (RNG.md).

    Made by ``Game.from_seed``, ``Game.from_deck`` or ``Game.from_str``. ``==``
    compares positions only; a Game is mutable and unhashable.
    """

    __slots__ = ("_rules", "_piles", "_stock", "_discards", "_history", "_rng", "_legal")

    _rules: rulebook.Rules
    _piles: list[list[Card]]  # four lists, bottom to top
    _stock: list[Card]  # in deal order: the next deal takes stock[:4]
    _discards: list[Card]  # in discard order
    _history: list[Move]
    _rng: Rng  # the strategy stream
    _legal: list[Move] | None  # legal_moves() of this position, once asked for

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("make a Game with Game.from_seed(), Game.from_deck() or Game.from_str()")

    @classmethod
    def _new(cls, rules: rulebook.Rules, piles: list[list[Card]], stock: list[Card],
             discards: list[Card], rng: Rng) -> Game:
        game = object.__new__(cls)
        game._rules = rules
        game._piles = piles
        game._stock = stock
        game._discards = discards
        game._history = []
        game._rng = rng
        game._legal = None
        return game

    @classmethod
    def _deal(cls, deck: list[Card], rules: rulebook.Rules, rng: Rng) -> Game:
        """The start of the game (R1.3): cards 1-4 of the deck on piles 0-3, the
        rest in the stock."""
        return cls._new(rules, [[card] for card in deck[:4]], deck[4:], [], rng)

    @classmethod
    def from_seed(cls, seed: int, rules: rulebook.Rules | None = None) -> Game:
        """The game dealt from ``deck_from_seed(seed)``, whose strategy stream
        continues the shuffle's generator (RNG.md).

        ``ValueError`` unless seed is an int in [0, 2**64); ``TypeError`` for a
        non-int seed or rules that are not a Rules or None.
        """
        rng = Rng(seed)
        rules = rulebook.rules_or_standard(rules)
        return cls._deal(shuffled_deck(rng), rules, rng)

    @classmethod
    def from_deck(cls, deck: str | Iterable[Card | str], rules: rulebook.Rules | None = None,
                  seed: int = 0) -> Game:
        """The game dealt from ``deck`` (R1.3): R6.2 text or a sequence of Card or
        card texts, in deal order. The strategy stream is ``Rng(seed)``.

        ``CardError`` for a bad card, ``DeckError`` unless the deck is the 52
        distinct cards, ``ValueError`` for a bad seed, ``TypeError`` for arguments
        of the wrong type.
        """
        cards = deck_cards(deck)
        rules = rulebook.rules_or_standard(rules)
        return cls._deal(cards, rules, Rng(seed))

    @classmethod
    def from_str(cls, text: str, seed: int = 0) -> Game:
        """The position written in R6.5 text, with no history and the strategy
        stream ``Rng(seed)``.

        The fields may be separated by any white space. ``PositionError`` when the
        text is malformed or the position impossible (R6.5: not each card exactly
        once, a stock length that is not a multiple of 4, a top-rank card among
        the discards); ``ValueError`` for a bad seed; ``TypeError`` for a non-string.
        """
        if not isinstance(text, str):
            raise TypeError(f"a position text must be a str, got {type(text).__name__}")
        fields = text.split()
        if len(fields) != 4:
            raise PositionError(f"a position has 4 fields (piles, stock, discards, rules) "
                                f"separated by spaces, got {len(fields)} in {text!r}")
        pile_fields = fields[0].split("/")
        if len(pile_fields) != 4:
            raise PositionError(f"the piles field has 4 piles separated by '/', "
                                f"got {len(pile_fields)} in {fields[0]!r}")
        piles = [_field_cards(field, f"pile {p}") for p, field in enumerate(pile_fields)]
        stock = _field_cards(fields[1], "the stock")
        discards = _field_cards(fields[2], "the discards")
        try:
            rules = rulebook.Rules.parse(fields[3])
        except RulesError as err:
            raise PositionError(f"the rules field {fields[3]!r}: {err}") from None
        problem = card_set_problem([card for pile in piles for card in pile] + stock + discards, "the position")
        if problem:
            raise PositionError(problem)
        if len(stock) % 4:
            raise PositionError(f"the stock holds {len(stock)} cards, which is not a multiple of 4")
        top_rank = rulebook.top_rank(rules)
        for card in discards:
            if card.rank == top_rank:
                raise PositionError(f"the discards hold {card}, a top-rank card, which is never discarded")
        return cls._new(rules, piles, stock, discards, Rng(seed))

    # --- the position -------------------------------------------------------------

    @property
    def rules(self) -> rulebook.Rules:
        return self._rules

    @property
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """The four piles, bottom card first."""
        return tuple(map(tuple, self._piles))

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards not yet dealt, in deal order."""
        return tuple(self._stock)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discarded cards, in discard order."""
        return tuple(self._discards)

    @property
    def score(self) -> int:
        """The number of cards discarded (R4.2)."""
        return len(self._discards)

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves played, oldest first."""
        return tuple(self._history)

    @property
    def is_over(self) -> bool:
        """No move is legal (R4.1)."""
        return not self._legal_moves()

    @property
    def is_won(self) -> bool:
        """Over with 48 cards discarded (R4.2)."""
        return len(self._discards) == 48 and self.is_over

    # --- moves ----------------------------------------------------------------------

    def _legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = rulebook.legal_moves(self._rules, self._piles, len(self._stock))
        return self._legal

    def legal_moves(self) -> list[Move]:
        """The legal moves in R3 order (a new list each call)."""
        return list(self._legal_moves())

    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a Move or its text) is legal here. ``MoveError`` for
        malformed text, ``TypeError`` for another type."""
        return _as_move(move, "is_legal()") in self._legal_moves()

    def play(self, move: Move | str) -> None:
        """Plays ``move`` (a Move or its text).

        ``IllegalMoveError`` with the R7 reason when the rules forbid it,
        ``MoveError`` for malformed text, ``TypeError`` for another type; the game
        is then unchanged.
        """
        move = _as_move(move, "play()")
        piles, stock = self._piles, self._stock
        if move not in self._legal_moves():
            raise IllegalMoveError(rulebook.illegal_reason(self._rules, piles, len(stock), move))
        if move.kind == "discard":
            self._discards.append(piles[move.pile].pop())
        elif move.kind == "fill":
            piles[move.dst].append(piles[move.src].pop(-1 - move.index))
        else:
            for pile, card in zip(piles, stock):
                pile.append(card)
            del stock[:4]
        self._history.append(move)
        self._legal = None

    def undo(self) -> Move:
        """Takes back the last move played and returns it, restoring the position
        exactly; the strategy stream is not rewound. ``UndoError`` when no move
        has been played."""
        if not self._history:
            raise UndoError("no move to undo")
        move = self._history.pop()
        piles = self._piles
        if move.kind == "discard":
            piles[move.pile].append(self._discards.pop())
        elif move.kind == "fill":
            source = piles[move.src]
            source.insert(len(source) - move.index, piles[move.dst].pop())
        else:
            self._stock[:0] = [pile.pop() for pile in piles]
        self._legal = None
        return move

    def randbelow(self, n: int) -> int:
        """A uniform int in [0, n) from the strategy stream (RNG.md). ``ValueError``
        unless 1 <= n < 2**64, ``TypeError`` for a non-int; the stream does not
        move then."""
        return self._rng.below(n)

    # --- text forms --------------------------------------------------------------------

    def to_str(self) -> str:
        """The position as one line of R6.5 text (no history, no stream)."""
        piles = "/".join(map(_cards_text, self._piles))
        return f"{piles} {_cards_text(self._stock)} {_cards_text(self._discards)} {self._rules}"

    def __str__(self) -> str:
        """The tableau of R6.6."""
        rows = []
        for height in range(max(1, *map(len, self._piles))):
            cells = (format(pile[height], "u") if height < len(pile) else "--" if height == 0 else "  "
                     for pile in self._piles)
            rows.append("  ".join(cells).rstrip())
        rows.append(f"stock {len(self._stock)}  discards {len(self._discards)}")
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Game.from_str({self.to_str()!r})"

    def _repr_svg_(self) -> str:
        """The position drawn as cards, for notebooks (``acesup.display.game_svg``)."""
        return game_svg(self)

    # --- copies, equality, pickle --------------------------------------------------------

    def copy(self) -> Game:
        """An independent game with the same position, history and strategy stream."""
        dup = self._new(self._rules, [list(pile) for pile in self._piles], list(self._stock),
                        list(self._discards), self._rng.copy())
        dup._history = list(self._history)
        dup._legal = self._legal  # never changed in place, so it may be shared
        return dup

    __copy__ = copy

    def __deepcopy__(self, memo: dict) -> Game:
        return self.copy()  # everything a Game holds besides its lists is immutable

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Game):
            return (self._rules == other._rules and self._piles == other._piles
                    and self._stock == other._stock and self._discards == other._discards)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __reduce__(self) -> tuple[object, tuple[str], dict[str, object]]:
        # A pickle holds the starting position, the moves as text and the stream's
        # state; loading replays the moves with play(), so a corrupt pickle raises
        # (PositionError, MoveError, ...) instead of making an impossible game.
        start = self.copy()
        while start._history:
            start.undo()
        state = {"history": [str(move) for move in self._history], "stream": self._rng.state}
        return type(self).from_str, (start.to_str(),), state

    def __setstate__(self, state: dict[str, object]) -> None:
        """Replays the pickled history on the starting position (see __reduce__)."""
        if not isinstance(state, dict) or set(state) != {"history", "stream"}:
            raise PositionError(f"not the pickled state of a Game: {state!r}")
        for move in state["history"]:
            self.play(move)
        self._rng = Rng(state["stream"])
