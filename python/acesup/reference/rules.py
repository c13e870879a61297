"""The rules of RULES.md: the ``Rules`` options (R1.4, R5, R6.4) and every rule
that decides what may be played (R1.2, R2, R3, R4, R7), each stated once.

The rule functions take a position first: anything with ``rules`` (a Rules),
``piles`` (``rules.piles`` sequences of ``Card``, bottom to top) and ``stock``
(the cards not yet dealt; only their number matters to the rules). That is a
``Position``; ``Game`` holds one and asks these functions, deciding nothing itself.
The native engine has the same functions, with the same names, in
``crates/acesup/src/rules.rs`` (the options in ``rules/options.rs``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Protocol

from ..arguments import decimal_value, exact_str
from ..errors import RulesError
from .values import Frozen
from .cards import ACE, ALL_CARDS, KING, SUIT_NAMES, SUITS, Card
from .moves import Move

__all__ = [
    "Rules", "Tableau",
    "is_top_rank", "strength",
    "can_discard", "discard_mask", "fill_choices", "can_fill", "blocking_fill", "can_deal",
    "deal_targets", "legal_moves", "illegal_reason", "is_over", "is_won",
    "to_reserve_mask", "reserve_held",
]

# --- the options (R5) -----------------------------------------------------------

FILLS = ("top", "ace", "any", "stack")
DEALS = ("free", "stuck", "any")
DEAL_TOS = ("all", "empty")
_DEFAULTS: dict[str, Any] = {"fill": "top", "deal": "free", "relocate_single": False, "ace_high": True,
                             "piles": 4, "suits": 4, "ranks": 13, "deal_to": "all", "reserve": 0}
_OPTIONS = tuple(_DEFAULTS)  # in R6.4 order
_CLASSIC = _OPTIONS[:4]  # always written in the text form (R6.4)
_CHOICES = {"fill": FILLS, "deal": DEALS, "deal_to": DEAL_TOS}
_INTS = {"piles": (4, 5), "suits": (1, 4), "ranks": (2, 13), "reserve": (0, 1)}  # inclusive ranges (R1.4)
_PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "strict": {"fill": "ace"},
    "easy": {"fill": "any"},
    "reverse": {"ace_high": False},
    "aces_up_5": {"piles": 5},
    "russian_aces": {"deal_to": "empty"},
    # The programs' games as a person plays them (R8.3).
    "kpat": {"deal": "any", "relocate_single": True},
    "pysol": {"deal": "any", "relocate_single": True},
    "pysol_aces_up_5": {"deal": "any", "relocate_single": True, "piles": 5},
    "pysol_russian_aces": {"deal": "any", "relocate_single": True, "deal_to": "empty"},
    "pysol_fortunes": {"fill": "stack", "deal": "any", "relocate_single": True},
    "pysol_firing_squad": {"deal": "any", "relocate_single": True, "reserve": 1},
}
_BOOL_TEXT = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}


def _one_of(values: Iterable[str]) -> str:
    return ", ".join(repr(value) for value in values)


def _check_option(name: str, value: object) -> None:
    """``RulesError`` naming the option, the value and what it may be, unless
    ``value`` is allowed for option ``name``."""
    if name in _CHOICES:
        if not isinstance(value, str) or value not in _CHOICES[name]:
            raise RulesError(f"{name} must be one of {_one_of(_CHOICES[name])}, got {value!r}")
    elif name in _INTS:
        low, high = _INTS[name]
        if type(value) is not int or not low <= value <= high:
            raise _int_option_error(name, value)
    elif not isinstance(value, bool):
        raise RulesError(f"{name} must be True or False, got {value!r}")


def _int_option_error(name: str, value: object) -> RulesError:
    """The ``RulesError`` of a bad value of the integer option ``name``, given as
    an int or as R6.4 text."""
    low, high = _INTS[name]
    allowed = f"{low} or {high}" if high == low + 1 else f"an int from {low} to {high}"
    return RulesError(f"{name} must be {allowed}, got {value!r}")


class Rules(Frozen):
    """The rule options of R5, an immutable value, with the layout they give (R1.4).

    Raises ``RulesError`` naming the option, the value and the allowed values for
    a bad value (a non-bool for ``relocate_single`` or ``ace_high``, anything but
    an int for ``piles``, ``suits``, ``ranks`` and ``reserve``), ``RulesError`` naming both
    numbers for a layout with fewer cards than piles, and ``TypeError`` for an
    unknown keyword.
    """

    __slots__ = (*_OPTIONS, "_key", "_deck")
    _key: tuple[Any, ...]
    _deck: tuple[Card, ...]  # the layout's cards, in index order

    PRESETS: ClassVar[tuple[str, ...]] = tuple(_PRESETS)  # the preset names, in the order of R5
    FILLS: ClassVar[tuple[str, ...]] = FILLS  # the values of each option that takes a name (R5, R2.3)
    DEALS: ClassVar[tuple[str, ...]] = DEALS
    DEAL_TOS: ClassVar[tuple[str, ...]] = DEAL_TOS

    fill: str
    deal: str
    relocate_single: bool
    ace_high: bool
    piles: int
    suits: int
    ranks: int
    deal_to: str
    reserve: int

    def __init__(self, *, fill: str = "top", deal: str = "free", relocate_single: bool = False,
                 ace_high: bool = True, piles: int = 4, suits: int = 4, ranks: int = 13,
                 deal_to: str = "all", reserve: int = 0) -> None:
        # A str subclass (NumPy's str_) as the characters it holds, in the checks and the value.
        values: tuple[object, ...] = tuple(exact_str(value) if isinstance(value, str) else value for value in
                                           (fill, deal, relocate_single, ace_high, piles, suits, ranks, deal_to,
                                                                 reserve))
        for name, value in zip(_OPTIONS, values):
            _check_option(name, value)
        if suits * ranks < piles:
            raise RulesError(f"suits={suits} and ranks={ranks} make a deck of {suits * ranks} cards, "
                             f"fewer than the {piles} piles")  # each pile needs a first card (R1.4)
        for name, value in (*zip(_OPTIONS, values), ("_key", values)):
            object.__setattr__(self, name, value)
        top = _top_strength(ace_high)
        object.__setattr__(self, "_deck", tuple(
            card for card in ALL_CARDS
            if SUITS.index(card.suit) < suits and strength(card, self) > top - ranks))

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
    def aces_up_5(cls) -> Rules:
        """``piles=5``: PySolFC's "Aces Up 5", five piles, won with 48 cards discarded."""
        return cls(piles=5)

    @classmethod
    def russian_aces(cls) -> Rules:
        """``deal_to="empty"``: PySolFC's "Russian Aces", a deal fills only the empty
        piles when there are any (R2.3)."""
        return cls(deal_to="empty")

    @classmethod
    def kpat(cls) -> Rules:
        """KDE kpat's "Aces Up" as a person plays it (R8.3): ``deal="any",
        relocate_single=True``."""
        return cls(**_PRESETS["kpat"])

    @classmethod
    def pysol(cls) -> Rules:
        """PySolFC's "Aces Up" (#903), the same game as kpat's (R8.3)."""
        return cls(**_PRESETS["pysol"])

    @classmethod
    def pysol_aces_up_5(cls) -> Rules:
        """PySolFC's "Aces Up 5" (#353): its "Aces Up" with ``piles=5`` (R8.3)."""
        return cls(**_PRESETS["pysol_aces_up_5"])

    @classmethod
    def pysol_russian_aces(cls) -> Rules:
        """PySolFC's "Russian Aces" (#213): its "Aces Up" with ``deal_to="empty"`` (R8.3)."""
        return cls(**_PRESETS["pysol_russian_aces"])

    @classmethod
    def pysol_fortunes(cls) -> Rules:
        """PySolFC's "Fortunes" (#206): its "Aces Up" with ``fill="stack"``, any number
        of cards from the top of a pile moving together onto an empty pile (R8.3)."""
        return cls(**_PRESETS["pysol_fortunes"])

    @classmethod
    def pysol_firing_squad(cls) -> Rules:
        """PySolFC's "Firing Squad" (#583): its "Aces Up" with ``reserve=1`` (R2.4, R8.3)."""
        return cls(**_PRESETS["pysol_firing_squad"])

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The preset of this name (R5), ignoring surrounding white space and case.

        ``RulesError`` for an unknown name, ``TypeError`` for a non-string.
        """
        if not isinstance(name, str):
            raise TypeError(f"a preset name must be a str, got {type(name).__name__}")
        name = exact_str(name)
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
        the empty text is ``Rules()``. The integer options take decimal digits.
        ``RulesError`` for an unknown preset or option, an option given twice, an
        empty item, a preset that is not first, or a bad value; ``TypeError`` for
        a non-string.
        """
        if not isinstance(text, str):
            raise TypeError(f"Rules.parse() takes a str, got {type(text).__name__}")
        text = exact_str(text)
        items = [item.strip() for item in text.split(",")]
        if items == [""]:
            return cls()
        options: dict[str, Any] = {}
        if items[0] and "=" not in items[0] and items[0].lower() not in _DEFAULTS:
            options.update(cls.preset(items.pop(0))._as_dict())
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
            options[name] = _option_from_text(name, value)
            if name not in ("fill", "deal"):  # checked item by item; fill and deal once all are read
                _check_option(name, options[name])
        return cls(**options)

    def _as_dict(self) -> dict[str, Any]:
        """The nine options by name, in R6.4 order."""
        return dict(zip(_OPTIONS, self._key))

    def replace(self, **options: Any) -> Rules:
        """A copy with some options changed; validated like the constructor
        (``TypeError`` for an unknown option name)."""
        for name in options:
            if name not in _DEFAULTS:
                raise TypeError(f"Rules.replace() got an unexpected keyword argument {name!r}")
        return type(self)(**{**self._as_dict(), **options})

    def deck_size(self) -> int:
        """D, the number of cards of the layout: suits x ranks (R1.4)."""
        return self.suits * self.ranks

    def win_score(self) -> int:
        """The score of a won game, D - S: every card but the top-rank card of each
        suit discarded (R4.2). 48 in the standard game."""
        return self.suits * self.ranks - self.suits

    def deck(self) -> tuple[Card, ...]:
        """The cards of the layout's deck (R1.4), in index order."""
        return self._deck

    def __str__(self) -> str:
        return ",".join(f"{name}={str(value).lower()}" for name, value in self._as_dict().items()
                        if name in _CLASSIC or value != _DEFAULTS[name])

    def __repr__(self) -> str:
        changed = (f"{name}={value!r}" for name, value in self._as_dict().items()
                   if value != _DEFAULTS[name])
        return f"Rules({', '.join(changed)})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return Rules.parse, (str(self),)


def _option_from_text(name: str, value: str) -> Any:
    """The value of option ``name`` written as ``value`` in R6.4 text (already
    stripped and lower-cased); the constructor checks it further."""
    if isinstance(_DEFAULTS[name], bool):
        if value not in _BOOL_TEXT:
            raise RulesError(f"{name} must be one of {_one_of(_BOOL_TEXT)}, got {value!r}")
        return _BOOL_TEXT[value]
    if name in _INTS:
        # ASCII digits only (int() accepts more than R6.4 does), and a number that
        # fits in 64 bits, as the native engine reads it.
        number = decimal_value(value, 2**63)
        if number is None:
            raise _int_option_error(name, value)
        return number
    return value


# --- R1.2 rank order ---------------------------------------------------------------


def _top_strength(ace_high: bool) -> int:
    return ACE if ace_high else KING


def strength(card: Card, rules: Rules) -> int:
    """Where the card's rank stands in the order in force (R1.2): of two cards,
    the one with the greater strength ranks higher. The rank number, except that
    an ace counts 1 when ``ace_high=False``."""
    if card.rank == ACE and not rules.ace_high:
        return 1
    return card.rank


def is_top_rank(card: Card, rules: Rules) -> bool:
    """Whether the card is of the top rank (R1.2): an ace, or a king when
    ``ace_high=False``. Top-rank cards are never discarded."""
    return strength(card, rules) == _top_strength(rules.ace_high)


# --- R2 moves ---------------------------------------------------------------------


class Tableau(Protocol):
    """What the rule functions read of a position (``Position`` is one)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def piles(self) -> Sequence[Sequence[Card]]: ...
    @property
    def stock(self) -> Sequence[Card]: ...
    @property
    def reserve(self) -> Sequence[Card]: ...


def can_discard(pos: Tableau, p: int) -> bool:
    """R2.1: pile p is not empty and its top card has the same suit as the top
    card of another pile and ranks lower."""
    piles, rules = pos.piles, pos.rules
    if not 0 <= p < rules.piles or not piles[p]:
        return False
    card = piles[p][-1]
    for q, other in enumerate(piles):
        if q != p and other and other[-1].suit == card.suit and strength(other[-1], rules) > strength(card, rules):
            return True
    return False


def discard_mask(pos: Tableau) -> int:
    """The piles that may be discarded (R2.1): bit p set when pile p may."""
    return sum(1 << p for p in range(pos.rules.piles) if can_discard(pos, p))


def fill_choices(pos: Tableau, src: int) -> int:
    """R2.2 conditions 2 and 3, who may fill an empty pile: how many cards of
    pile ``src``, counted from the top, may fill an empty pile (the cards at
    indices 0 to the result - 1: alone, or under ``fill="stack"`` with the cards
    above them). 0 when none may."""
    rules, source = pos.rules, pos.piles[src]
    # Condition 2: two or more cards, or a lone card that relocate_single lets
    # move while the stock lasts (once it is empty, moving it changes nothing).
    relocate = rules.relocate_single and bool(pos.stock)
    if not (len(source) >= 2 or (len(source) == 1 and relocate)):
        return 0
    # Condition 3: the fill option.
    if rules.fill == "any":
        return len(source)
    if rules.fill == "stack":  # the whole pile moves only as a lone card does
        return len(source) if relocate else len(source) - 1
    if rules.fill == "ace" and not is_top_rank(source[-1], rules):
        return 0
    return 1


def can_fill(pos: Tableau, src: int, dst: int, index: int) -> bool:
    """R2.2: piles src and dst exist, pile dst is empty, src != dst, and the card
    at ``index`` of pile src (from the top) may fill it."""
    count = pos.rules.piles
    return (0 <= src < count and 0 <= dst < count and src != dst and not pos.piles[dst]
            and 0 <= index < fill_choices(pos, src))


def _fills(pos: Tableau) -> list[Move]:
    """The legal fills in R3 order: by source pile, then destination pile, then
    index (top card first)."""
    piles = pos.piles
    fills: list[Move] = []
    for src in range(pos.rules.piles):
        choices = fill_choices(pos, src)
        if choices:
            for dst, target in enumerate(piles):
                if not target and dst != src:
                    fills.extend(Move.fill(src, dst, index) for index in range(choices))
    return fills


def blocking_fill(pos: Tableau) -> Move | None:
    """The first legal fill in R3 order from a pile of two or more cards, which
    holds back a deal under ``deal="stuck"`` (R2.3); None if there is none."""
    return next((move for move in _fills(pos) if move.src is not None and len(pos.piles[move.src]) >= 2), None)


def can_deal(pos: Tableau) -> bool:
    """R2.3: the stock is not empty and, unless ``deal="any"``, no discard is legal
    (discards are compulsory) and, under ``deal="stuck"``, no fill from a pile of
    two or more cards is legal."""
    deal = pos.rules.deal
    if not pos.stock:
        return False
    if deal == "any":
        return True
    if discard_mask(pos):
        return False
    return deal == "free" or blocking_fill(pos) is None


def deal_targets(pos: Tableau) -> int:
    """The piles the next deal puts a card on (R2.3), as a bit mask: every pile,
    or under ``deal_to="empty"`` only the empty piles when there are any, the
    first ones in pile order while the stock lasts. 0 when the stock is empty."""
    piles = pos.piles
    receiving = list(range(pos.rules.piles))
    if pos.rules.deal_to == "empty" and any(not pile for pile in piles):
        receiving = [p for p in receiving if not piles[p]]
    return sum(1 << p for p in receiving[:len(pos.stock)])


# --- R2.4 the reserve --------------------------------------------------------------------


def _left(pos: Tableau) -> int:
    """The cards not discarded: on the piles, in the stock and in the reserve."""
    return sum(len(pile) for pile in pos.piles) + len(pos.stock) + len(pos.reserve)


def to_reserve_mask(pos: Tableau) -> int:
    """R2.4: the piles whose top card may move to the reserve, as a bit mask: the
    rules have a reserve, it is empty, the pile is not, and fewer than D - S cards
    are discarded (once they are, the reserve has no use)."""
    rules = pos.rules
    if not rules.reserve or pos.reserve or _left(pos) == rules.suits:
        return 0
    return sum(1 << p for p in range(rules.piles) if pos.piles[p])


def reserve_held(pos: Tableau) -> bool:
    """R2.4: the reserve holds a card, which may move to any empty pile."""
    return bool(pos.reserve)


def refuse_reserve(rules: Rules, what: str) -> None:
    """``ValueError`` when the rules have a reserve (R2.4), which ``what``, a
    feature built for piles alone, does not cover."""
    if rules.reserve:
        raise ValueError(f"{what} does not cover rules with a reserve (reserve={rules.reserve})")


# --- R3 legal moves, R4 the end -------------------------------------------------------


def legal_moves(pos: Tableau) -> list[Move]:
    """Every legal move, once each, in R3 order: discards by pile, then fills by
    source, destination and index, moves to the reserve by pile, moves from it by
    destination, then the deal."""
    moves = [Move.discard(p) for p in range(pos.rules.piles) if can_discard(pos, p)]
    moves += _fills(pos)
    mask = to_reserve_mask(pos)
    moves += [Move.to_reserve(p) for p in range(pos.rules.piles) if mask >> p & 1]
    if reserve_held(pos):
        moves += [Move.from_reserve(p) for p in range(pos.rules.piles) if not pos.piles[p]]
    if can_deal(pos):
        moves.append(Move.deal())
    return moves


def is_over(pos: Tableau) -> bool:
    """R4.1: no move is legal (a won game with a reserve included: R2.4)."""
    return not legal_moves(pos)


def is_won(pos: Tableau) -> bool:
    """R4.2: over with D - S cards discarded, so that only the S top-rank cards are
    left, each alone in its pile."""
    return _left(pos) == pos.rules.suits and is_over(pos)


# --- R7 why a move is illegal --------------------------------------------------------


def _is_legal(pos: Tableau, move: Move) -> bool:
    if move.kind == "discard":
        assert move.pile is not None  # Move sets pile for a discard only, src, dst and index for a fill only
        return can_discard(pos, move.pile)
    if move.kind == "fill":
        assert move.src is not None and move.dst is not None and move.index is not None
        return can_fill(pos, move.src, move.dst, move.index)
    if move.kind == "to_reserve":
        assert move.src is not None
        return 0 <= move.src < pos.rules.piles and bool(to_reserve_mask(pos) >> move.src & 1)
    if move.kind == "from_reserve":
        assert move.dst is not None
        return 0 <= move.dst < pos.rules.piles and reserve_held(pos) and not pos.piles[move.dst]
    return can_deal(pos)


def illegal_reason(pos: Tableau, move: Move) -> str | None:
    """The R7 message saying why ``move`` is illegal, or None when it is legal.

    The reasons are tried in R7 order and the first that applies is returned.
    R7 lists every way each kind of move can fail R2, so for an illegal move the
    last reason of its kind applies when no earlier one does.
    """
    if _is_legal(pos, move):
        return None
    rules, piles = pos.rules, pos.piles
    named = [p for p in (move.pile, move.src, move.dst) if p is not None]  # the piles the move names
    missing = next((p for p in named if p >= rules.piles), None)
    if missing is not None:
        return f"there is no pile {missing}: these rules have {rules.piles} piles"
    if move.kind == "discard":
        p = move.pile
        assert p is not None
        if not piles[p]:
            return f"cannot discard from pile {p}: it is empty"
        card = piles[p][-1]
        return (f"cannot discard {card} from pile {p}: "
                f"no higher {SUIT_NAMES[card.suit]} is on top of another pile")
    if move.kind == "fill":
        src, dst, index = move.src, move.dst, move.index
        assert src is not None and dst is not None and index is not None
        source = piles[src]
        if piles[dst]:
            return f"cannot fill pile {dst}: it is not empty"
        if not source:
            return f"cannot fill pile {dst} from pile {src}: pile {src} is empty"
        if index >= len(source):
            return f"cannot fill pile {dst} from pile {src}: it has no card at index {index}"
        if index > 0 and rules.fill in ("top", "ace"):
            return f"cannot fill pile {dst} with a buried card: fill='{rules.fill}' moves only the top card"
        if len(source) == 1 and not rules.relocate_single:
            return f"cannot fill pile {dst} from pile {src}: its only card may not move"
        if len(source) == 1 and not pos.stock:
            return f"cannot fill pile {dst} from pile {src}: its only card may not move once the stock is empty"
        if index == len(source) - 1 and rules.fill == "stack":
            when = " once the stock is empty" if rules.relocate_single else ""
            return f"cannot fill pile {dst} from pile {src}: the whole pile may not move{when}"
        top_name = "an ace" if rules.ace_high else "a king"
        return (f"cannot fill pile {dst} with {source[-1 - index]}: "
                f"fill='ace' lets only {top_name} fill an empty pile")
    if move.kind == "to_reserve":
        src = move.src
        assert src is not None
        if not rules.reserve:
            return "cannot move to the reserve: these rules have no reserve"
        if not piles[src]:
            return f"cannot move pile {src} to the reserve: it is empty"
        if pos.reserve:
            return f"cannot move {piles[src][-1]} from pile {src} to the reserve: it holds {pos.reserve[0]}"
        return f"cannot move pile {src} to the reserve: the {rules.win_score()} cards that may be discarded are"
    if move.kind == "from_reserve":
        dst = move.dst
        assert dst is not None
        if not rules.reserve:
            return "cannot move from the reserve: these rules have no reserve"
        if not pos.reserve:
            return f"cannot move from the reserve to pile {dst}: the reserve is empty"
        return f"cannot move {pos.reserve[0]} from the reserve to pile {dst}: it is not empty"
    if not pos.stock:
        return "cannot deal: the stock is empty"
    mask = discard_mask(pos)
    if mask:
        return f"cannot deal: pile {(mask & -mask).bit_length() - 1} must be discarded first"
    return f"cannot deal: deal='stuck' and a fill is still possible ({blocking_fill(pos)})"
