"""The rules of RULES.md: the ``Rules`` options (R5, R6.4) and every rule that
decides what may be played (R1.2, R2, R3, R7).

The rule functions read a position as ``piles`` (four sequences of ``Card``,
bottom to top) and ``stock_size`` (the number of cards not yet dealt; only the
count matters to the rules). ``Game`` holds the position and asks these
functions; it decides nothing itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..errors import RulesError
from . import game as _game  # Move; imported as a module because game.py imports this one
from ..values import Frozen
from .cards import ACE, KING, SUIT_NAMES, Card

__all__ = [
    "Rules", "rules_or_standard",
    "top_rank", "strength",
    "can_discard", "fill_indices", "can_fill", "blocking_fill", "can_deal",
    "legal_fills", "legal_moves", "is_legal", "illegal_reason",
]

Piles = Sequence[Sequence[Card]]

# --- the options (R5) -----------------------------------------------------------

FILLS = ("top", "ace", "any")
DEALS = ("free", "stuck")
_OPTIONS = ("fill", "deal", "relocate_single", "ace_high")
_DEFAULTS = {"fill": "top", "deal": "free", "relocate_single": False, "ace_high": True}
_PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "strict": {"fill": "ace"},
    "easy": {"fill": "any"},
    "reverse": {"ace_high": False},
}
_BOOL_TEXT = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _one_of(values: Iterable[str]) -> str:
    return ", ".join(repr(value) for value in values)


class Rules(Frozen):
    """The rule options of R5, an immutable value.

    Raises ``RulesError`` naming the option, the value and the allowed values for
    a bad value (including a non-bool for ``relocate_single`` or ``ace_high``), and
    ``TypeError`` for an unknown keyword.
    """

    __slots__ = (*_OPTIONS, "_key")
    _key: tuple[str, str, bool, bool]

    fill: str
    deal: str
    relocate_single: bool
    ace_high: bool

    def __init__(self, *, fill: str = "top", deal: str = "free",
                 relocate_single: bool = False, ace_high: bool = True) -> None:
        if not isinstance(fill, str) or fill not in FILLS:
            raise RulesError(f"fill must be one of {_one_of(FILLS)}, got {fill!r}")
        if not isinstance(deal, str) or deal not in DEALS:
            raise RulesError(f"deal must be one of {_one_of(DEALS)}, got {deal!r}")
        for name, value in (("relocate_single", relocate_single), ("ace_high", ace_high)):
            if not isinstance(value, bool):
                raise RulesError(f"{name} must be True or False, got {value!r}")
        values = (fill, deal, relocate_single, ace_high)
        for name, value in (*zip(_OPTIONS, values), ("_key", values)):
            object.__setattr__(self, name, value)

    @classmethod
    def standard(cls) -> Rules:
        """All defaults."""
        return cls()

    @classmethod
    def strict(cls) -> Rules:
        """``fill="ace"``: only a top-rank card may fill an empty pile."""
        return cls(fill="ace")

    @classmethod
    def easy(cls) -> Rules:
        """``fill="any"``: any card of a pile may fill an empty pile."""
        return cls(fill="any")

    @classmethod
    def reverse(cls) -> Rules:
        """``ace_high=False``: the ace is the lowest card and the king the top rank."""
        return cls(ace_high=False)

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset of this name (R5), ignoring surrounding white space and case.

        ``RulesError`` for an unknown name, ``TypeError`` for a non-string.
        """
        if not isinstance(name, str):
            raise TypeError(f"a preset name must be a str, got {type(name).__name__}")
        options = _PRESETS.get(name.strip().lower())
        if options is None:
            raise RulesError(f"unknown rules preset {name!r}: expected one of {_one_of(_PRESETS)}")
        return cls(**options)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Rules from R6.4 text: an optional leading preset name, then
        ``option=value`` items, separated by commas.

        White space around items, names and values and the case of letters are
        ignored; options not given keep the preset's (or the default) value, and
        the empty text is ``Rules()``. ``RulesError`` for an unknown preset or
        option, an option given twice, an empty item, a preset that is not first,
        or a bad value; ``TypeError`` for a non-string.
        """
        if not isinstance(text, str):
            raise TypeError(f"Rules.parse() takes a str, got {type(text).__name__}")
        items = [item.strip() for item in text.split(",")]
        if items == [""]:
            return cls()
        options: dict[str, Any] = {}
        if items[0] and "=" not in items[0] and items[0].lower() not in _DEFAULTS:
            options.update(cls.preset(items.pop(0)).as_dict())
        given = set()
        for item in items:
            name, equals, value = (part.strip().lower() for part in item.partition("="))
            if not equals:
                if item.lower() in _PRESETS:
                    raise RulesError(f"the preset {item!r} must come first in {text!r}")
                raise RulesError(f"expected option=value in {text!r}, got {item!r}")
            if name not in _DEFAULTS:
                raise RulesError(f"unknown rules option {name!r}: expected one of {_one_of(_OPTIONS)}")
            if name in given:
                raise RulesError(f"option {name!r} is given twice in {text!r}")
            given.add(name)
            if isinstance(_DEFAULTS[name], bool):
                if value not in _BOOL_TEXT:
                    raise RulesError(f"{name} must be one of {_one_of(_BOOL_TEXT)}, got {value!r}")
                options[name] = _BOOL_TEXT[value]
            else:
                options[name] = value
        return cls(**options)

    def as_dict(self) -> dict[str, Any]:
        """The four options by name, in R6.4 order."""
        return dict(zip(_OPTIONS, self._key))

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; validated like the constructor
        (``TypeError`` for an unknown option name)."""
        for name in options:
            if name not in _DEFAULTS:
                raise TypeError(f"Rules.replace() got an unexpected keyword argument {name!r}")
        return type(self)(**{**self.as_dict(), **options})

    def __str__(self) -> str:
        return ",".join(f"{name}={str(value).lower()}" for name, value in self.as_dict().items())

    def __repr__(self) -> str:
        changed = (f"{name}={value!r}" for name, value in self.as_dict().items()
                   if value != _DEFAULTS[name])
        return f"Rules({', '.join(changed)})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return Rules.parse, (str(self),)


def rules_or_standard(rules: Rules | None) -> Rules:
    """``rules``, or ``Rules.standard()`` for None; ``TypeError`` for anything else."""
    if rules is None:
        return Rules()
    if not isinstance(rules, Rules):
        hint = " (use Rules.parse() for a text)" if isinstance(rules, str) else ""
        raise TypeError(f"rules must be a Rules or None, got {type(rules).__name__}{hint}")
    return rules


# --- R1.2 rank order ---------------------------------------------------------------


def top_rank(rules: Rules) -> int:
    """The rank number of the highest rank in force: the ace, or the king when
    ``ace_high=False`` (R1.2)."""
    return ACE if rules.ace_high else KING


def strength(card: Card, rules: Rules) -> int:
    """Where the card's rank stands in the order in force (R1.2): of two cards,
    the one with the greater strength ranks higher. The rank number, except that
    an ace counts 1 when ``ace_high=False``."""
    if card.rank == ACE and not rules.ace_high:
        return 1
    return card.rank


# --- R2 moves ---------------------------------------------------------------------


def can_discard(rules: Rules, piles: Piles, p: int) -> bool:
    """R2.1: pile p is not empty and its top card has the same suit as the top
    card of another pile and ranks lower."""
    if not piles[p]:
        return False
    card = piles[p][-1]
    for q, other in enumerate(piles):
        if q != p and other and other[-1].suit == card.suit and strength(other[-1], rules) > strength(card, rules):
            return True
    return False


def fill_indices(rules: Rules, source: Sequence[Card], stock_size: int) -> range:
    """R2.2 conditions 2 and 3, who may fill an empty pile: the indices (counted
    from the top, 0 = top card) of the cards of pile ``source`` that may move
    alone onto an empty pile. Empty when none may."""
    # Condition 2: two or more cards, or a lone card that relocate_single lets
    # move while the stock lasts (once it is empty, moving it changes nothing).
    if not (len(source) >= 2 or (len(source) == 1 and rules.relocate_single and stock_size > 0)):
        return range(0)
    # Condition 3: the fill option.
    if rules.fill == "any":
        return range(len(source))
    if rules.fill == "ace" and source[-1].rank != top_rank(rules):
        return range(0)
    return range(1)


def can_fill(rules: Rules, piles: Piles, stock_size: int, src: int, dst: int, index: int) -> bool:
    """R2.2: pile dst is empty, src != dst, and the card at ``index`` of pile src
    (from the top) may fill it."""
    return not piles[dst] and src != dst and index in fill_indices(rules, piles[src], stock_size)


def legal_fills(rules: Rules, piles: Piles, stock_size: int) -> list[_game.Move]:
    """The legal fills in R3 order: by source pile, then destination pile, then
    index (top card first)."""
    Move = _game.Move
    fills: list[_game.Move] = []
    for src, source in enumerate(piles):
        indices = fill_indices(rules, source, stock_size)
        if indices:
            for dst, target in enumerate(piles):
                if not target and dst != src:
                    fills.extend(Move.fill(src, dst, index) for index in indices)
    return fills


def blocking_fill(rules: Rules, piles: Piles, stock_size: int) -> _game.Move | None:
    """The first legal fill in R3 order from a pile of two or more cards, which
    holds back a deal under ``deal="stuck"`` (R2.3); None if there is none."""
    return next((move for move in legal_fills(rules, piles, stock_size) if len(piles[move.src]) >= 2),
                None)


def can_deal(rules: Rules, piles: Piles, stock_size: int) -> bool:
    """R2.3: the stock is not empty, no discard is legal (discards are compulsory)
    and, under ``deal="stuck"``, no fill from a pile of two or more cards is legal."""
    if stock_size == 0 or any(can_discard(rules, piles, p) for p in range(4)):
        return False
    return rules.deal == "free" or blocking_fill(rules, piles, stock_size) is None


# --- R3 legal moves -------------------------------------------------------------------


def legal_moves(rules: Rules, piles: Piles, stock_size: int) -> list[_game.Move]:
    """Every legal move, once each, in R3 order: discards by pile, then fills
    (``legal_fills``), then the deal."""
    Move = _game.Move
    moves = [Move.discard(p) for p in range(4) if can_discard(rules, piles, p)]
    moves += legal_fills(rules, piles, stock_size)
    if can_deal(rules, piles, stock_size):
        moves.append(Move.deal())
    return moves


def is_legal(rules: Rules, piles: Piles, stock_size: int, move: _game.Move) -> bool:
    """Whether ``move`` is legal in this position (R2)."""
    if move.kind == "discard":
        return can_discard(rules, piles, move.pile)
    if move.kind == "fill":
        return can_fill(rules, piles, stock_size, move.src, move.dst, move.index)
    return can_deal(rules, piles, stock_size)


# --- R7 why a move is illegal --------------------------------------------------------


def illegal_reason(rules: Rules, piles: Piles, stock_size: int, move: _game.Move) -> str | None:
    """The R7 message saying why ``move`` is illegal, or None when it is legal.

    The reasons are tried in R7 order and the first that applies is returned.
    R7 lists every way each kind of move can fail R2, so for an illegal move the
    last reason of its kind applies when no earlier one does.
    """
    if is_legal(rules, piles, stock_size, move):
        return None
    if move.kind == "discard":
        p = move.pile
        if not piles[p]:
            return f"cannot discard from pile {p}: it is empty"
        card = piles[p][-1]
        return (f"cannot discard {card} from pile {p}: "
                f"no higher {SUIT_NAMES[card.suit]} is on top of another pile")
    if move.kind == "fill":
        src, dst, index = move.src, move.dst, move.index
        source = piles[src]
        if piles[dst]:
            return f"cannot fill pile {dst}: it is not empty"
        if not source:
            return f"cannot fill pile {dst} from pile {src}: pile {src} is empty"
        if index >= len(source):
            return f"cannot fill pile {dst} from pile {src}: it has no card at index {index}"
        if index > 0 and rules.fill != "any":
            return f"cannot fill pile {dst} with a buried card: fill='{rules.fill}' moves only the top card"
        if len(source) == 1 and not rules.relocate_single:
            return f"cannot fill pile {dst} from pile {src}: its only card may not move"
        if len(source) == 1 and stock_size == 0:
            return f"cannot fill pile {dst} from pile {src}: its only card may not move once the stock is empty"
        top_name = "an ace" if top_rank(rules) == ACE else "a king"
        return (f"cannot fill pile {dst} with {source[-1 - index]}: "
                f"fill='ace' lets only {top_name} fill an empty pile")
    if stock_size == 0:
        return "cannot deal: the stock is empty"
    first_discard = next((p for p in range(4) if can_discard(rules, piles, p)), None)
    if first_discard is not None:
        return f"cannot deal: pile {first_discard} must be discarded first"
    return f"cannot deal: deal='stuck' and a fill is still possible ({blocking_fill(rules, piles, stock_size)})"
