"""Cards and decks (RULES.md R1.1, R1.3, R6.1, R6.2)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence, Set

from ..arguments import int_arg, is_native
from ..errors import CardError, DeckError
from ..values import Ordered

__all__ = ["Card", "parse_cards", "deck_cards", "card_set_problem", "SUIT_NAMES", "RANKS", "SUITS", "ALL_CARDS"]

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
        return f"{what} holds {stray}, which is not one of the {len(deck)} cards of these rules' deck"
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


def deck_cards(deck: str | Iterable[Card | str], layout: Sequence[Card]) -> list[Card]:
    """A deck (R1.3) given as R6.2 text or as a sequence of ``Card`` or card texts,
    as a list of the cards of ``layout`` (a rules' deck) in deal order.

    Raises ``CardError`` for a bad card text, ``DeckError`` unless the cards are
    those of ``layout``, each once, and ``TypeError`` for an unordered collection
    (a set or a mapping), a non-iterable, or an item that is neither a Card nor a str.
    """
    if isinstance(deck, str):
        cards = parse_cards(deck)
    elif isinstance(deck, (Set, Mapping)) or not isinstance(deck, Iterable):
        raise TypeError(f"a deck must be a str or a sequence of cards, got {type(deck).__name__}")
    else:
        cards = []
        for position, item in enumerate(deck):
            if isinstance(item, str) or is_native(item, "Card"):
                item = Card(str(item))
            elif not isinstance(item, Card):
                raise TypeError(f"deck[{position}] must be a Card or a card text, got {type(item).__name__}")
            cards.append(item)
    problem = card_set_problem(cards, layout, "the deck")
    if problem:
        raise DeckError(problem)
    return cards
