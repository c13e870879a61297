"""The exact optimum without clairvoyance (docs/OPTIMAL.md), written plainly: a
memoised expectimax over the visible positions, with exact fractions and no
symmetry, which checks the native engine's on the layouts it can do.

A visible position is the piles and the set of unseen cards (the stock, in an
order that is uniform to the player); the discards are the cards in neither. A
decision takes the best legal move; a deal averages over the ordered tuples of
unseen cards it may put on its receiving piles. Under ``relocate_single`` the
positions that moves of a lone card reach from each other share one value, the
best of their other moves (those moves can be undone and only rename piles).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import permutations

from ..arguments import int_arg, rules_arg
from ..errors import StrategyError
from ..resources import max_states_arg
from .cards import Card
from .moves import Move
from .position import Position
from .rules import Rules, deal_targets, is_won, legal_moves, refuse_reserve

__all__ = ["optimal", "ValueTable", "MAX_DECK", "STRATEGY_MAX_DECK", "strategy_table"]

MAX_DECK = 24  # the native tables' limit (5 bits a card, n! of the stock below 2**64)
STRATEGY_MAX_DECK = 16  # the largest deck the "optimal" strategy computes a table for
STATE_BYTES = 1024
"""The bytes of memory to allow a position of the memo: about twice the 470-490
that one takes (its key of tuples and a frozenset, its Fraction, its dict entry),
measured on ``suits=2,ranks=4`` and ``suits=2,ranks=5``. ``acesup.resources``
divides the memory available by it for the default ``max_states``."""

Piles = tuple[tuple[Card, ...], ...]
VisibleKey = tuple[Piles, frozenset[Card]]


def out_of_reach(rules: Rules, most: int) -> str:
    """The message of a layout whose deck holds more than ``most`` cards."""
    return (f"the exact optimum is out of reach for {rules.suits} suits x {rules.ranks} ranks "
            f"({rules.deck_size()} cards): it is computed for decks of at most {most} cards")


def over_limit(rules: Rules, most: int) -> MemoryError:
    """The ``MemoryError`` of a computation that would keep more than ``most``
    positions."""
    return MemoryError(f"the exact optimum for {rules.suits} suits x {rules.ranks} ranks on {rules.piles} piles "
                       f"needs more than max_states={most} positions in memory")


class ValueTable:
    """The memo of one layout: the value of every visible position met, as a
    Fraction (the probability that perfect play wins from there)."""

    def __init__(self, rules: Rules, max_states: int | None = None) -> None:
        self.rules = rules
        self.memo: dict[VisibleKey, Fraction] = {}
        self.max_states = max_states  # the most positions the memo may hold (None: no limit)

    def _position(self, piles: Piles, unseen: frozenset[Card]) -> Position:
        # The rules read the stock's length only: any order of the unseen cards does.
        return Position(self.rules, [list(pile) for pile in piles], sorted(unseen), [])

    def chance(self, piles: Piles, unseen: frozenset[Card]) -> Fraction:
        """The value of dealing now: the mean over the ordered tuples of unseen
        cards that the deal may put on its receiving piles."""
        targets = deal_targets(self._position(piles, unseen))
        receiving = [p for p in range(self.rules.piles) if targets >> p & 1]
        total, count = Fraction(0), 0
        for cards in permutations(sorted(unseen), len(receiving)):
            after = [list(pile) for pile in piles]
            for p, card in zip(receiving, cards):
                after[p].append(card)
            total += self.value(tuple(map(tuple, after)), unseen - frozenset(cards))
            count += 1
        return total / count

    def after(self, piles: Piles, unseen: frozenset[Card], move: Move) -> Fraction:
        """The value of playing ``move`` (legal) from the position."""
        if move.kind == "deal":
            return self.chance(piles, unseen)
        work = self._position(piles, unseen)
        work.apply(move)
        return self.value(tuple(map(tuple, work.piles)), unseen)

    def _relocated(self, piles: Piles, unseen: frozenset[Card], move: Move) -> Piles | None:
        """The piles after ``move`` (legal) when it moves a pile's only card, or
        under ``fill="stack"`` a whole pile, which only renames piles; None for any
        other move."""
        if move.src is None:  # not a fill (src is None for the others)
            return None
        work = self._position(piles, unseen)
        work.apply(move)
        return None if work.piles[move.src] else tuple(map(tuple, work.piles))

    def value(self, piles: Piles, unseen: frozenset[Card]) -> Fraction:
        """The value of the position: 1 or 0 at the end of a game, else the best
        of its moves (the lone-card moves joining their positions into one)."""
        key = (piles, unseen)
        if key in self.memo:
            return self.memo[key]
        members = [piles]
        best = Fraction(0)
        for member in members:  # grows while it is read: the positions lone-card moves reach
            position = self._position(member, unseen)
            moves = legal_moves(position)
            if not moves:
                best = max(best, Fraction(int(is_won(position))))
            for move in moves:
                reached = self._relocated(member, unseen, move)
                if reached is None:
                    best = max(best, self.after(member, unseen, move))
                elif reached not in members:
                    members.append(reached)
        for member in members:
            self.memo[(member, unseen)] = best
        if self.max_states is not None and len(self.memo) > self.max_states:
            raise over_limit(self.rules, self.max_states)
        return best

    def root(self, progress: Callable[[int, int, int], object] | None = None) -> Fraction:
        """The value of a uniformly random deal: the mean over the opening deals,
        reporting ``progress(done, total, states)`` after each."""
        deck = frozenset(self.rules.deck())
        openings = list(permutations(sorted(deck), self.rules.piles))
        total = Fraction(0)
        for done, cards in enumerate(openings, 1):
            total += self.value(tuple((card,) for card in cards), deck - frozenset(cards))
            if progress is not None:
                progress(done, len(openings), len(self.memo))
        return total / len(openings)

    def best_move(self, piles: Piles, unseen: frozenset[Card]) -> Move:
        """The first legal move in R3 order of the best value other than a lone
        card's move. Under ``relocate_single``, when the best of the position's class
        (the positions that lone-card moves reach from it, which share one value) is
        had only from other members, the first lone-card move towards the nearest of
        them: each such move brings the player one move closer, so it never moves a
        card back and forth."""
        members = [piles]  # the class, this position first
        links: list[list[tuple[Move, int]]] = []  # each member's lone-card moves and whom they reach
        direct: list[tuple[Move, Fraction] | None] = []  # each member's best other move and its value
        while len(links) < len(members):
            member = members[len(links)]
            own: list[tuple[Move, int]] = []
            best: tuple[Move, Fraction] | None = None
            for move in legal_moves(self._position(member, unseen)):
                reached = self._relocated(member, unseen, move)
                if reached is not None:
                    if reached not in members:
                        members.append(reached)
                    own.append((move, members.index(reached)))
                    continue
                value = self.after(member, unseen, move)
                if best is None or value > best[1]:
                    best = (move, value)
            links.append(own)
            direct.append(best)
        top = max(best[1] for best in direct if best is not None)
        # How many lone-card moves each member is from one where `top` is had
        # (breadth first: those moves can be undone, so the links go both ways).
        queue = [m for m, best in enumerate(direct) if best is not None and best[1] == top]
        distance = dict.fromkeys(queue, 0)
        for m in queue:  # grows while it is read
            for _, j in links[m]:
                if j not in distance:
                    distance[j] = distance[m] + 1
                    queue.append(j)
        if distance[0] == 0:
            return direct[0][0]  # type: ignore[index]
        return next(move for move, j in links[0] if distance[j] + 1 == distance[0])


def optimal(rules: Rules | None, *, threads: int | None = None,
            progress: Callable[[int, int, int], object] | None = None, max_states: int | None = None) -> Fraction:
    """The exact probability, a Fraction, that a perfect player who never sees the
    stock wins a uniformly random deal of ``rules`` (docs/OPTIMAL.md).

    ``threads`` (None or an int >= 1) is checked and otherwise ignored: this
    engine runs on one thread. ``progress``, None or a callable, is called as
    ``progress(done, total, states)`` after each opening deal. ``MemoryError``
    once the memo would hold more than ``max_states`` positions (None: as many as
    the memory available holds, ``acesup.resources.max_states_arg``).
    ``ValueError`` for a deck of more than 24 cards or a ``max_states`` below 1;
    ``TypeError`` for an argument of the wrong type.
    """
    rules = rules_arg(rules, Rules)
    if threads is not None:
        int_arg(threads, "threads", 1)
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be None or a callable progress(done, total, states), "
                        f"got {type(progress).__name__}")
    most = max_states_arg(max_states, STATE_BYTES)
    if rules.deck_size() > MAX_DECK:
        raise ValueError(out_of_reach(rules, MAX_DECK))
    refuse_reserve(rules, "the exact optimum")
    return ValueTable(rules, most).root(progress)


_TABLES: dict[Rules, ValueTable] = {}


def strategy_table(rules: Rules) -> ValueTable:
    """The table the ``"optimal"`` strategy plays from under ``rules``, filled the
    first time, then kept. ``StrategyError`` for a deck of more than 16 cards."""
    if rules.deck_size() > STRATEGY_MAX_DECK:
        raise StrategyError(f"strategy 'optimal': {out_of_reach(rules, STRATEGY_MAX_DECK)}")
    if rules not in _TABLES:
        table = ValueTable(rules)
        table.root()
        _TABLES[rules] = table
    return _TABLES[rules]
