"""The certified upper bound on the optimum without clairvoyance (docs/BOUND.md),
written plainly: for each seeded stock order, a memoised search over the
positions of a player who sees the stock, whose objective is won (1 or 0) less
the penalty ``W(after) - E[W(after) | before]`` of each deal; the bound is the
mean of the best objective over the stock orders.

Values are exact where W is (ints under ``value="zero"``, Fractions under
``"exact"``), so that with the exact W the bound equals ``optimal(rules)`` to the
last digit; floats under ``"features"`` and ``"strong"``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import nullcontext
from fractions import Fraction
from itertools import permutations
from math import perm
from typing import Union

from ..arguments import int_arg, rules_arg
from ..bound import DEFAULT_SAMPLES, RATIONAL, UpperBound, check_arguments, describe, feature_table, summary
from ..progress import reporter
from .cards import Card
from .deals import deck_from_seed_and_stream
from .optimal import MAX_DECK, ValueTable, out_of_reach
from .position import Position
from .rng import Rng, game_seed, shuffle_slice
from .rules import Rules, can_discard, deal_targets, is_won, legal_moves

__all__ = ["upper_bound", "UpperBound"]

Number = Union[int, float, Fraction]
Piles = tuple[tuple[Card, ...], ...]
ValueFunction = Callable[[Piles, frozenset[Card]], Number]  # W of a visible position: piles, unseen cards


def features(rules: Rules, piles: Piles, unseen: frozenset[Card]) -> tuple[int, int, int]:
    """The features of ``value="features"``: the cards in the stock, the cards on
    the piles and the piles that may discard (R2.1)."""
    position = Position(rules, [list(pile) for pile in piles], list(unseen), [])
    discardable = sum(can_discard(position, p) for p in range(rules.piles))
    return len(unseen), sum(map(len, piles)), discardable


def _value_function(value: str, rules: Rules) -> ValueFunction:
    """W by name (``acesup.bound.VALUES``) under ``rules``: for ``"strong"``, its
    value where stock is left, which ``InnerSearch`` reads."""
    if value == "zero":
        return lambda piles, unseen: 0
    if value == "strong":  # where stock is left; InnerSearch reads the end itself
        return lambda piles, unseen: 0.0
    if value == "exact":
        if rules.deck_size() > MAX_DECK:
            raise ValueError(out_of_reach(rules, MAX_DECK))
        exact = ValueTable(rules)
        return exact.value
    table, deck, width = feature_table(rules), rules.deck_size(), rules.piles + 1

    def fitted(piles: Piles, unseen: frozenset[Card]) -> float:
        s, c, d = features(rules, piles, unseen)
        return table[(s * (deck + 1) + c) * width + d]

    return fitted


class InnerSearch:
    """The best objective of a player who sees the stock of one deck, position by
    position (memoised on the piles and the cards dealt, which fix the position:
    the discards are the cards in neither the piles nor the stock). With
    ``endgame``, W of a position with no stock is its exact value, the search's
    own there, as a float (``value="strong"``), and ``table`` elsewhere."""

    def __init__(self, rules: Rules, table: ValueFunction, orders: list[list[Card]], samples: int | None,
                 endgame: bool = False) -> None:
        self.rules, self.table, self.orders, self.samples, self.endgame = rules, table, orders, samples, endgame
        self.memo: dict[tuple[Piles, int], Number] = {}

    def w(self, piles: Piles, unseen: frozenset[Card]) -> Number:
        """W of the visible position right after a deal."""
        if self.endgame and not unseen:
            return float(self.best(Position(self.rules, [list(pile) for pile in piles], [], [])))
        return self.table(piles, unseen)

    def expected(self, piles: Piles, unseen: frozenset[Card]) -> Number:
        """E[W(after) | before] for a deal from the visible position: exact over the
        ordered tuples of unseen cards that the deal may put on its receiving piles
        (in ``permutations`` order of the sorted cards) when there are at most
        ``samples`` of them, else the mean over the deals that the drawn orders make:
        each order, restricted to the unseen cards, is a uniform order of them."""
        receiving = [p for p in range(self.rules.piles)
                     if deal_targets(Position(self.rules, [list(x) for x in piles], list(unseen), [])) >> p & 1]
        k = len(receiving)
        if self.samples is None or perm(len(unseen), k) <= self.samples:
            deals = list(permutations(sorted(unseen), k))
        else:
            deals = [tuple(card for card in order if card in unseen)[:k] for order in self.orders]
        total: Number = 0
        for cards in deals:
            after = list(piles)
            for p, card in zip(receiving, cards):
                after[p] += (card,)
            total += self.w(tuple(after), unseen.difference(cards))
        return Fraction(total, len(deals)) if isinstance(total, (int, Fraction)) else total / len(deals)

    def best(self, pos: Position) -> Number:
        """The most that won (1 or 0) less the penalties of the deals to come can be
        from ``pos``, over every line of play (the stock order is known)."""
        piles = tuple(map(tuple, pos.piles))
        key = (piles, len(pos.stock))
        if key in self.memo:
            return self.memo[key]
        moves = legal_moves(pos)
        best: Number | None = None if moves else int(is_won(pos))
        for move in moves:
            if move.kind == "deal":
                unseen = frozenset(pos.stock)
                expected = self.expected(piles, unseen)
                targets = pos.apply(move)
                gain = expected - self.w(tuple(map(tuple, pos.piles)), frozenset(pos.stock)) + self.best(pos)
            else:
                targets = pos.apply(move)
                gain = self.best(pos)
            pos.unapply(move, targets)
            if best is None or gain > best:
                best = gain
        assert best is not None
        self.memo[key] = best
        return best

    def root(self, deck: list[Card]) -> Number:
        """The objective of the whole game dealt from ``deck``: the first deal (from
        empty piles, every card unseen) is charged too."""
        empty: Piles = tuple(() for _ in range(self.rules.piles))
        start = Position.dealt(deck, self.rules)
        opening = self.w(tuple(map(tuple, start.piles)), frozenset(start.stock))
        return self.expected(empty, frozenset(deck)) - opening + self.best(start)


def sample_orders(rng: Rng, rules: Rules, samples: int | None) -> list[list[Card]]:
    """The ``samples`` orders of the layout's deck that a game's sampled
    expectations use: its deck in index order shuffled ``samples`` times in turn by
    the game's strategy stream ``rng`` (RNG.md), which continues the shuffle of its
    deck: drawn apart from the stock order that the search maximises over."""
    return [shuffle_slice(list(rules.deck()), rng.below) for _ in range(samples or 0)]


def upper_bound(games: int, *, rules: Rules | None = None, seed: int = 0, value: str = "strong",
                samples: int | None = DEFAULT_SAMPLES, start: int = 0, threads: int | None = None,
                progress: bool = False, callback: Callable[[int, int], object] | None = None) -> UpperBound:
    """``acesup.upper_bound`` (docs/BOUND.md, docs/API.md) written plainly, with the
    same values, floats included: the mean over the seeded stock orders of the best
    (won - penalties) of a player who sees the stock, W being ``value``.

    ``threads`` (None or an int >= 1) is checked and otherwise ignored: this
    engine runs on one thread, and calls ``callback(done, total)`` as games are done (docs/API.md "Progress").
    Its errors are the native one's, and ``ValueError`` for ``value="exact"`` on a
    deck of more than 24 cards (the reference is for small decks).
    """
    rules = rules_arg(rules, Rules)
    games, seed, start, samples = check_arguments(games, rules, seed, value, samples, start)
    if threads is not None:
        int_arg(threads, "threads", 1)
    w = _value_function(value, rules)
    report = reporter(games, progress, callback, "games")
    began = time.perf_counter()
    values: list[Number] = []
    nodes = 0
    with report or nullcontext():
        for index in range(start, start + games):
            deck, rng = deck_from_seed_and_stream(game_seed(seed, index), rules)
            search = InnerSearch(rules, w, sample_orders(rng, rules, samples), samples, value == "strong")
            values.append(search.root(deck))
            nodes += len(search.memo)
            if report is not None:
                report.update(len(values))
        if report is not None:
            report.finish()
    return summary(values, value in RATIONAL, describe(value, rules), samples, nodes,
                   time.perf_counter() - began)
