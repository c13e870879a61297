"""Cards and decks (RULES.md R1.1, R1.3, R6.1, R6.2)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..arguments import exact_str, int_arg
from ..errors import CardError, DeckError
from .values import Ordered

__all__ = ["Card", "parse_cards", "check_deck", "card_set_problem", "deck_too_long", "SUIT_NAMES", "RANKS", "SUITS", "ALL_CARDS"]

RANKS = "23456789TJQKA"  # rank numbers 2..14, in this order
SUITS = "cdhs"  # suit numbers 0..3 (R1.1)
ACE, KING = 14, 13
SUIT_NAMES = {"c": "club", "d": "diamond", "h": "heart", "s": "spade"}
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

# R6.1 text, looked up character by character rather than through str.upper() /
# str.lower(), which map some non-ASCII letters onto ASCII ones.
_RANK_OF_TEXT = {**{r: RANKS.index(r) + 2 for r in RANKS},
                 **{r.lower(): RANKS.index(r) + 2 for r in "TJQKA"},
                 "10": 10}
_SUIT_OF_TEXT = {**{s: s for s in SUITS}, **{s.upper(): s for s in SUITS},
                 **{sym: s for s, sym in SUIT_SYMBOLS.items()},
                 "♧": "c", "♢": "d", "♡": "h", "♤": "s"}

class Card(Ordered):
    """A playing card (R1.1), an immutable value.

    ``Card(text)`` parses R6.1 text (``"Td"``, ``"10♦"``, ``" td "``) and raises
    ``CardError`` for anything else, ``TypeError`` for a non-string. There are only
    52 Card objects: construction returns the shared instance of that card.
    """

    __slots__ = ("index", "rank", "suit", "_text", "_key")

    index: int  # 0..51: 13 * suit number + (rank - 2)
    rank: int  # 2..14, A = 14
    suit: str  # one of "cdhs"
    _text: str  # canonical text, "Td"

    def __new__(cls, text: str) -> Card:
        if not isinstance(text, str):
            hint = " (use Card.from_index for an index)" if isinstance(text, int) else ""
            raise TypeError(f"Card() takes a card text such as 'Td', got {type(text).__name__}{hint}")
        text = exact_str(text)
        stripped = text.strip()
        rank = _RANK_OF_TEXT.get(stripped[:-1])
        suit = _SUIT_OF_TEXT.get(stripped[-1:])
        if rank is None or suit is None:
            raise CardError(
                f"not a card: {text!r} (expected a rank 2-9, T, J, Q, K, A or 10 "
                f"followed by a suit c, d, h, s or its symbol, e.g. 'Td')")
        return ALL_CARDS[13 * SUITS.index(suit) + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """The same as ``Card(text)``."""
        return cls(text)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with this index (R1.1); ``CardError`` unless 0 <= index <= 51."""
        return ALL_CARDS[int_arg(index, "a card index", 0, 52, CardError)]

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __format__(self, spec: str) -> str:
        """``format(card, "u")`` is ``T♦``; any other spec formats the canonical text
        like a str (``f"{card:>3}"``)."""
        if spec == "u":
            return self._text[0] + SUIT_SYMBOLS[self.suit]
        return format(self._text, spec)

    def __reduce__(self) -> tuple[type[Card], tuple[str]]:
        return Card, (self._text,)


def _make_card(index: int) -> Card:
    card = object.__new__(Card)
    suit, rank_offset = divmod(index, 13)
    for name, value in (("index", index), ("rank", rank_offset + 2), ("suit", SUITS[suit]),
                        ("_text", RANKS[rank_offset] + SUITS[suit]), ("_key", index)):
        object.__setattr__(card, name, value)
    return card


ALL_CARDS = tuple(_make_card(index) for index in range(52))  # in index order


def parse_cards(text: str) -> list[Card]:
    """Cards written as R6.2 text: card texts separated by white space and/or
    commas (any run of them is one separator; leading and trailing ones are
    ignored). Raises ``CardError`` naming the first bad card."""
    return [Card(word) for word in re.split(r"[\s,]+", text) if word]


def card_set_problem(cards: list[Card], deck: Sequence[Card], what: str) -> str | None:
    """Why ``cards`` are not the cards of ``deck`` (a layout's deck, RULES.md R1.4),
    each once, or None when they are.

    The message, whose subject is ``what`` (e.g. ``"the deck"``), names the first
    card that is not in ``deck`` (a stray card), else the number of cards when it
    is not ``len(deck)``, the first card found twice, and else the missing cards
    (up to four by name).
    """
    layout = set(deck)
    stray = next((card for card in cards if card not in layout), None)
    if stray is not None:
        return f"{what} holds {stray}, which is not in the deck of these rules ({len(deck)} cards)"
    seen: set[Card] = set()
    duplicate = None
    for card in cards:
        if card in seen and duplicate is None:
            duplicate = card
        seen.add(card)
    if duplicate is None and len(cards) == len(deck):
        return None
    missing = [card for card in deck if card not in seen]
    named = " ".join(map(str, missing)) if len(missing) <= 4 else f"{len(missing)} cards"
    if len(cards) != len(deck):
        detail = f"{duplicate} twice" if duplicate else f"missing {named}"
        return f"{what} holds {len(cards)} cards, not {len(deck)} ({detail})"
    return f"{what} holds {duplicate} twice and lacks {named}"


def deck_too_long() -> DeckError:
    """The ``DeckError`` of a deck read past 52 cards: longer than any layout's
    deck, so its reader stops there rather than read an endless one."""
    return DeckError(f"the deck holds more than {len(ALL_CARDS)} cards, more than any layout's deck (R1.4)")


def check_deck(cards: list[Card], deck: Sequence[Card]) -> None:
    """Returns when ``cards`` are the cards of ``deck`` (a layout's deck) in some
    order (R1.3); ``DeckError`` naming the problem otherwise (see
    ``card_set_problem``)."""
    problem = card_set_problem(cards, deck, "the deck")
    if problem:
        raise DeckError(problem)
