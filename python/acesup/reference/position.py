"""Positions: the piles, the stock, the discards and the rules in force, how a
move changes them, and their one-line text (RULES.md R1.3, R6.5).

A Position applies moves that rules.py has found legal; it decides nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..arguments import exact_str
from ..errors import CardError, PositionError, RulesError
from .cards import Card, card_set_problem
from .moves import Move
from .rules import Rules, deal_targets, is_top_rank

__all__ = ["Position"]


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


def _stock_length_problem(length: int, rules: Rules) -> str | None:
    """Why no deal can leave a stock of ``length`` cards under ``rules`` (R6.5),
    or None when one can: the start leaves D - P cards; under ``deal_to="all"``
    each deal takes P cards, or the rest; under ``deal_to="empty"`` any number."""
    start = rules.deck_size() - rules.piles
    if length <= start and (length == 0 or rules.deal_to == "empty" or (start - length) % rules.piles == 0):
        return None
    if length > start:
        return f"the stock holds {length} cards, more than the {start} left after the first cards of the piles"
    return (f"the stock holds {length} cards, which no deal leaves: under deal_to='all' it holds 0 or "
            f"{start} less a multiple of {rules.piles}")


class Position:
    """The state of a game that the rules read (R6.5): ``rules``, ``piles`` (one
    list of Card per pile, bottom to top), ``stock`` (in deal order),
    ``discards`` (in discard order) and ``reserve`` (the reserve's cards, R2.4).
    Mutable; ``==`` compares all five."""

    __slots__ = ("rules", "piles", "stock", "discards", "reserve")

    rules: Rules
    piles: list[list[Card]]
    stock: list[Card]
    discards: list[Card]
    reserve: list[Card]

    def __init__(self, rules: Rules, piles: list[list[Card]], stock: list[Card], discards: list[Card],
                 reserve: list[Card] | None = None) -> None:
        self.rules, self.piles, self.stock, self.discards = rules, piles, stock, discards
        self.reserve = [] if reserve is None else reserve

    @classmethod
    def dealt(cls, deck: list[Card], rules: Rules) -> Position:
        """The start of the game (R1.3): cards 1 to P of ``deck`` (already checked
        to be the layout's deck) on piles 0 to P - 1, the rest in the stock."""
        return cls(rules, [[card] for card in deck[:rules.piles]], deck[rules.piles:], [])

    @classmethod
    def from_str(cls, text: str) -> Position:
        """The position written in R6.5 text; the fields may be separated by any
        white space.

        ``PositionError`` when the text is malformed or the position impossible
        (R6.5: not the rules' number of piles, not each card of the layout's deck
        exactly once, a stock length that no deal leaves, a top-rank card among
        the discards); ``TypeError`` for a non-string.
        """
        if not isinstance(text, str):
            raise TypeError(f"a position text must be a str, got {type(text).__name__}")
        text = exact_str(text)
        fields = text.split()

        def wrong_count(reserve: bool) -> PositionError:
            count, names = (5, "piles, stock, discards, reserve, rules") if reserve else \
                (4, "piles, stock, discards, rules")
            return PositionError(f"a position {'with a reserve ' if reserve else ''}has {count} fields "
                                 f"({names}) separated by spaces, got {len(fields)} in {text!r}")

        if len(fields) not in (4, 5):
            raise wrong_count(False)
        try:
            rules = Rules.parse(fields[-1])
        except RulesError as err:
            raise PositionError(f"the rules field {fields[-1]!r}: {err}") from None
        if len(fields) != 4 + rules.reserve:
            raise wrong_count(rules.reserve > 0)
        pile_fields = fields[0].split("/")
        if len(pile_fields) != rules.piles:
            raise PositionError(f"the piles field has {rules.piles} piles separated by '/', "
                                f"got {len(pile_fields)} in {fields[0]!r}")
        piles = [_field_cards(field, f"pile {p}") for p, field in enumerate(pile_fields)]
        stock = _field_cards(fields[1], "the stock")
        discards = _field_cards(fields[2], "the discards")
        reserve = _field_cards(fields[3], "the reserve") if rules.reserve else []
        problem = (card_set_problem([card for pile in piles for card in pile] + stock + discards + reserve,
                                    rules.deck(), "the position")
                   or _stock_length_problem(len(stock), rules))
        if problem:
            raise PositionError(problem)
        for card in discards:
            if is_top_rank(card, rules):
                raise PositionError(f"the discards hold {card}, a top-rank card, which is never discarded")
        if len(reserve) > rules.reserve:
            raise PositionError(f"the reserve holds {len(reserve)} cards, more than its {rules.reserve} cells")
        return cls(rules, piles, stock, discards, reserve)

    def to_str(self) -> str:
        """The position as one line of R6.5 text."""
        piles = "/".join(map(_cards_text, self.piles))
        reserve = f" {_cards_text(self.reserve)}" if self.rules.reserve else ""  # only under rules with one
        return f"{piles} {_cards_text(self.stock)} {_cards_text(self.discards)}{reserve} {self.rules}"

    def apply(self, move: Move) -> int:
        """Plays ``move``, which must be legal here. Returns the piles a deal put a
        card on (``deal_targets`` before it, the bit mask that ``unapply`` needs),
        0 for the other moves."""
        piles = self.piles
        if move.kind == "discard":
            assert move.pile is not None  # Move sets pile for a discard only, src, dst and index for a fill only
            self.discards.append(piles[move.pile].pop())
            return 0
        if move.kind == "fill":
            assert move.src is not None and move.dst is not None and move.index is not None
            source = piles[move.src]
            if self.rules.fill == "stack":  # the card at index and those above it, in order
                piles[move.dst].extend(source[-1 - move.index:])
                del source[-1 - move.index:]
            else:
                piles[move.dst].append(source.pop(-1 - move.index))
            return 0
        if move.kind == "to_reserve":
            assert move.src is not None
            self.reserve.append(piles[move.src].pop())
            return 0
        if move.kind == "from_reserve":
            assert move.dst is not None
            piles[move.dst].append(self.reserve.pop())
            return 0
        targets = deal_targets(self)
        receiving = [p for p in range(self.rules.piles) if targets >> p & 1]
        for p, card in zip(receiving, self.stock):
            piles[p].append(card)
        del self.stock[:len(receiving)]
        return targets

    def unapply(self, move: Move, targets: int) -> None:
        """Takes back ``move``, the last move applied, which returned ``targets``."""
        piles = self.piles
        if move.kind == "discard":
            assert move.pile is not None
            piles[move.pile].append(self.discards.pop())
        elif move.kind == "fill":
            assert move.src is not None and move.dst is not None and move.index is not None
            source = piles[move.src]
            if self.rules.fill == "stack":  # the fill emptied dst onto an empty pile
                source.extend(piles[move.dst])
                piles[move.dst].clear()
            else:
                source.insert(len(source) - move.index, piles[move.dst].pop())
        elif move.kind == "to_reserve":
            assert move.src is not None
            piles[move.src].append(self.reserve.pop())
        elif move.kind == "from_reserve":
            assert move.dst is not None
            self.reserve.append(piles[move.dst].pop())
        else:
            self.stock[:0] = [piles[p].pop() for p in range(self.rules.piles) if targets >> p & 1]

    def copy(self) -> Position:
        """An independent position equal to this one."""
        return Position(self.rules, [list(pile) for pile in self.piles], list(self.stock), list(self.discards),
                        list(self.reserve))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Position):
            return (self.rules == other.rules and self.piles == other.piles
                    and self.stock == other.stock and self.discards == other.discards
                    and self.reserve == other.reserve)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Position.from_str({self.to_str()!r})"
