"""Games: a position in play, with the moves played so far and the strategy
stream (RNG.md); playing and taking back moves; the tableau of R6.6.

What is legal is decided in rules.py and how a move changes the piles in
position.py; a Game keeps the position and its history, and asks.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Mapping, Set, Sized
from typing import Any, TypeVar

import numpy as np

from ..arguments import is_native, rules_arg
from ..display import game_svg
from ..encoding import Encoding
from ..errors import IllegalMoveError, PositionError, UndoError
from . import rules as rulebook
from .cards import ALL_CARDS, Card, check_deck, deck_too_long, parse_cards
from .deals import deck_from_kpat, deck_from_pysol, deck_from_seed_and_stream
from .moves import Move, move_arg
from .position import Position
from .rng import Rng

__all__ = ["Game"]

F = TypeVar("F", bound=Callable[..., object])


def _deck_arg(deck: str | Iterable[Card | str]) -> list[Card]:
    """The cards of a deck argument (R1.3), in deal order: R6.2 text, or a sequence
    of ``Card`` (of either engine) or card texts.

    ``CardError`` for a bad card text; ``DeckError`` past 52 cards of an iterable
    without a length (the read stops there); ``TypeError`` for an unordered collection (a set or a mapping), a
    non-iterable, or an item that is neither a Card nor a str.
    """
    if isinstance(deck, str):
        return parse_cards(deck)
    if isinstance(deck, (Set, Mapping)) or not isinstance(deck, Iterable):
        raise TypeError(f"a deck must be a str or a sequence of cards, got {type(deck).__name__}")
    # A deck with a length is read whole, to name its length; one without (an
    # iterator, which may never end) up to the card past the largest deck.
    endless = not isinstance(deck, Sized)
    cards = []
    for position, item in enumerate(deck):
        if endless and position == len(ALL_CARDS):
            raise deck_too_long()
        if isinstance(item, str) or is_native(item, "Card"):
            item = Card(item if isinstance(item, str) else str(item))  # Card reads a str's own characters
        elif not isinstance(item, Card):
            raise TypeError(f"deck[{position}] must be a Card or a card text, got {type(item).__name__}")
        cards.append(item)
    return cards


def _locked(method: F) -> F:
    """``method`` run under the game's lock, so that threads sharing one Game see
    each move whole, as the native Game's Mutex makes them (a play or an undo
    changes the piles, the history and the cache of legal moves together)."""

    @functools.wraps(method)
    def run(self: Game, *args: object, **kwargs: object) -> object:
        with self._lock:
            return method(self, *args, **kwargs)

    return run  # type: ignore[return-value]


class Game:
    """A game of Aces Up in progress: the position (piles, stock, discards and
    rules), the moves played so far and the strategy stream (RNG.md).

    Made by ``Game.from_seed``, ``Game.from_deck`` or ``Game.from_str``. ``==``
    compares positions only; a Game is mutable and unhashable. Threads may
    share one: every method takes the game's lock.
    """

    __slots__ = ("_pos", "_history", "_rng", "_legal", "_changes", "_lock")

    _pos: Position
    _history: list[tuple[Move, int]]  # each move played, with what Position.apply returned
    _rng: Rng  # the strategy stream
    _legal: list[Move] | None  # legal_moves() of this position, once asked for
    _changes: int  # moves played or taken back since the game was made (an undo then a play counts two)
    _lock: threading.RLock  # held by every method that reads or changes the above (reentrant: they call each other)

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise TypeError("make a Game with Game.from_seed(), Game.from_deck() or Game.from_str()")

    @classmethod
    def _new(cls, pos: Position, rng: Rng) -> Game:
        game = object.__new__(cls)
        game._pos = pos
        game._history = []
        game._rng = rng
        game._legal = None
        game._changes = 0
        game._lock = threading.RLock()
        return game

    @classmethod
    def from_seed(cls, seed: int, rules: rulebook.Rules | None = None) -> Game:
        """The game dealt from ``deck_from_seed(seed, rules)``, whose strategy
        stream continues the shuffle's generator (RNG.md).

        ``ValueError`` unless seed is an int in [0, 2**64); ``TypeError`` for a
        non-int seed or rules that are not a Rules or None.
        """
        deck, rng = deck_from_seed_and_stream(seed, rules)
        rules = rules_arg(rules, rulebook.Rules)
        return cls._new(Position.dealt(deck, rules), rng)

    @classmethod
    def from_kpat(cls, n: int, rules: rulebook.Rules | None = None) -> Game:
        """The game of kpat's deal number ``n`` (R8), under ``Rules.kpat()`` unless
        ``rules`` says otherwise; the strategy stream is ``Rng(0)``.

        The errors of ``deck_from_kpat`` and of ``from_deck``.
        """
        deck = deck_from_kpat(n)
        return cls.from_deck(deck, rules_arg(rules, rulebook.Rules, rulebook.Rules.kpat()))

    @classmethod
    def from_pysol(cls, n: int, rules: rulebook.Rules | None = None) -> Game:
        """The game of PySolFC's game number ``n`` (R8), under ``Rules.pysol()``
        unless ``rules`` says otherwise; the strategy stream is ``Rng(0)``.

        The errors of ``deck_from_pysol`` and of ``from_deck``.
        """
        deck = deck_from_pysol(n)
        return cls.from_deck(deck, rules_arg(rules, rulebook.Rules, rulebook.Rules.pysol()))

    @classmethod
    def from_deck(cls, deck: str | Iterable[Card | str], rules: rulebook.Rules | None = None,
                  seed: int = 0) -> Game:
        """The game dealt from ``deck`` (R1.3): R6.2 text or a sequence of Card or
        card texts, in deal order. The strategy stream is ``Rng(seed)``.

        ``CardError`` for a bad card, ``DeckError`` unless the deck is the cards of
        the layout's deck (R1.4), each once; ``ValueError`` for a bad seed,
        ``TypeError`` for arguments of the wrong type.
        """
        rules = rules_arg(rules, rulebook.Rules)
        cards = _deck_arg(deck)
        check_deck(cards, rules.deck())
        return cls._new(Position.dealt(cards, rules), Rng(seed))

    @classmethod
    def from_str(cls, text: str, seed: int = 0) -> Game:
        """The position written in R6.5 text, with no history and the strategy
        stream ``Rng(seed)``.

        ``PositionError`` when the text is malformed or the position impossible
        (``Position.from_str``); ``ValueError`` for a bad seed; ``TypeError`` for
        a non-string.
        """
        pos = Position.from_str(text)
        return cls._new(pos, Rng(seed))

    # --- the position -------------------------------------------------------------

    @property
    def rules(self) -> rulebook.Rules:
        return self._pos.rules

    @property
    @_locked
    def piles(self) -> tuple[tuple[Card, ...], ...]:
        """The piles, ``rules.piles`` of them, bottom card first."""
        return tuple(map(tuple, self._pos.piles))

    @property
    @_locked
    def stock(self) -> tuple[Card, ...]:
        """The cards not yet dealt, in deal order."""
        return tuple(self._pos.stock)

    @property
    @_locked
    def discards(self) -> tuple[Card, ...]:
        """The discarded cards, in discard order."""
        return tuple(self._pos.discards)

    @property
    @_locked
    def reserve(self) -> tuple[Card, ...]:
        """The reserve's cards (R2.4): empty, or its one card."""
        return tuple(self._pos.reserve)

    @property
    @_locked
    def score(self) -> int:
        """The number of cards discarded (R4.2)."""
        return len(self._pos.discards)

    @property
    @_locked
    def history(self) -> tuple[Move, ...]:
        """The moves played, oldest first."""
        return tuple(move for move, _ in self._history)

    @property
    @_locked
    def is_over(self) -> bool:
        """No move is legal (R4.1)."""
        return not self._legal_moves()

    @property
    @_locked
    def is_won(self) -> bool:
        """Over with ``rules.win_score()`` cards discarded (R4.2, ``rules.is_won``)."""
        return self.is_over and rulebook.is_won(self._pos)

    # --- the position as a Batch row (docs/BATCH.md) ------------------------------

    @property
    @_locked
    def observation(self) -> np.ndarray:
        """The position as an observation row of docs/BATCH.md (the pile grid, the
        discard flags, the stock count; never the stock's order): a new
        (P·H + D + 1,) int8 array, the row a ``Batch`` shows for a slot in this
        position."""
        return np.array(_encoding(self.rules).observation(self), dtype=np.int8)

    @property
    @_locked
    def action_mask(self) -> np.ndarray:
        """The legal moves as an action mask of docs/BATCH.md: a new (A,) bool array,
        True at the action of each legal move (all False when the game is over),
        the row a ``Batch`` shows for a slot in this position."""
        return _encoding(self.rules).action_mask(self._legal_moves())

    # --- moves ----------------------------------------------------------------------

    def _legal_moves(self) -> list[Move]:
        if self._legal is None:
            self._legal = rulebook.legal_moves(self._pos)
        return self._legal

    @_locked
    def legal_moves(self) -> list[Move]:
        """The legal moves in R3 order (a new list each call)."""
        return list(self._legal_moves())

    @_locked
    def is_legal(self, move: Move | str) -> bool:
        """Whether ``move`` (a Move or its text) is legal here. ``MoveError`` for
        malformed text, ``TypeError`` for another type."""
        return move_arg(move, "is_legal()") in self._legal_moves()

    @_locked
    def play(self, move: Move | str) -> None:
        """Plays ``move`` (a Move or its text).

        ``IllegalMoveError`` with the R7 reason when the rules forbid it,
        ``MoveError`` for malformed text, ``TypeError`` for another type; the game
        is then unchanged.
        """
        move = move_arg(move, "play()")
        if move not in self._legal_moves():
            raise IllegalMoveError(rulebook.illegal_reason(self._pos, move))
        self._history.append((move, self._pos.apply(move)))
        self._legal = None
        self._changes += 1

    @_locked
    def undo(self) -> Move:
        """Takes back the last move played and returns it, restoring the position
        exactly; the strategy stream is not rewound. ``UndoError`` when no move
        has been played."""
        if not self._history:
            raise UndoError("no move to undo")
        move, targets = self._history.pop()
        self._pos.unapply(move, targets)
        self._legal = None
        self._changes += 1
        return move

    @_locked
    def randbelow(self, n: int) -> int:
        """A uniform int in [0, n) from the strategy stream (RNG.md). ``ValueError``
        unless 1 <= n < 2**64, ``TypeError`` for a non-int; the stream does not
        move then."""
        return self._rng.below(n)

    # --- text forms --------------------------------------------------------------------

    @_locked
    def to_str(self) -> str:
        """The position as one line of R6.5 text (no history, no stream)."""
        return self._pos.to_str()

    @_locked
    def __str__(self) -> str:
        """The tableau of R6.6."""
        rows = []
        piles = self._pos.piles
        for height in range(max(1, *map(len, piles))):
            cells = (format(pile[height], "u") if height < len(pile) else "--" if height == 0 else "  "
                     for pile in piles)
            rows.append("  ".join(cells).rstrip())
        last = f"stock {len(self._pos.stock)}  discards {len(self._pos.discards)}"
        if self.rules.reserve:
            held = "".join(format(card, "u") for card in self._pos.reserve) or "--"
            last += f"  reserve {held}"
        rows.append(last)
        return "\n".join(rows)

    def __repr__(self) -> str:
        return f"Game.from_str({self.to_str()!r})"

    @_locked
    def _repr_svg_(self) -> str:
        """The position drawn as cards, for notebooks (``acesup.display.game_svg``)."""
        return game_svg(self)

    # --- copies, equality, pickle --------------------------------------------------------

    @_locked
    def copy(self) -> Game:
        """An independent game with the same position, history and strategy stream."""
        dup = self._new(self._pos.copy(), self._rng.copy())
        dup._history = list(self._history)
        dup._legal = self._legal  # never changed in place, so it may be shared
        return dup

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        return self.copy()  # everything a Game holds besides its lists is immutable

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Game):
            with other._lock:  # one lock at a time, so that a == b and b == a never deadlock
                theirs = other._pos.copy()
            with self._lock:
                return self._pos == theirs
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    @_locked
    def __reduce__(self) -> tuple[Callable[[str], Game], tuple[str], dict[str, Any]]:
        # A pickle holds the starting position, the moves as text and the stream's
        # state; loading replays the moves with play(), so a corrupt pickle raises
        # (PositionError, MoveError, ...) instead of making an impossible game.
        start = self.copy()
        while start._history:
            start.undo()
        state = {"history": [str(move) for move, _ in self._history], "stream": self._rng.state}
        return type(self).from_str, (start.to_str(),), state

    @_locked
    def __setstate__(self, state: dict[str, Any]) -> None:
        """Replays the pickled history on the starting position (see __reduce__)."""
        if not isinstance(state, dict) or set(state) != {"history", "stream"}:
            raise PositionError(f"not the pickled state of a Game: {state!r}")
        replayed = self.copy()  # so that a bad move or stream leaves this game as it was
        for move in state["history"]:
            replayed.play(move)
        self._rng = Rng(state["stream"])
        self._pos, self._history, self._legal = replayed._pos, replayed._history, replayed._legal


@functools.lru_cache(maxsize=None)
def _encoding(rules: rulebook.Rules) -> Encoding:
    """The action space and observation layout of ``rules`` (one for each rules in
    play: a handful)."""
    return Encoding(Game, Move, rules)
