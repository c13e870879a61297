"""Strategies (STRATEGIES.md): the registry of built-ins, and turning a strategy
argument (a name or a callable) into a ``StrategyArg`` that plays games out.

A strategy is a callable ``strategy(game) -> Move`` that returns a legal move
of a game that is not over. Every built-in is a ``Decide``, as in the native
engine (``crates/acesup/src/strategies.rs``, whose names these are): it plays the
forced discards first and its ``decide`` picks the other moves. A built-in is
registered under its name with ``@_builtin(name)`` on a factory that takes the
parameters of its text (``"name:key=value,key=value"``), as strings by name, and
returns the strategy (``@_plain_builtin(name)`` on a ``Decide`` class that takes
none); ``strategy_arg`` and ``simulate`` need no change when one is added.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from ..arguments import decimal_value, exact_str, native_game_error
from ..errors import IllegalMoveError, MoveError, StrategyError
from .cards import Card
from .game import Game
from .moves import Move
from .optimal import strategy_table
from .rng import shuffle_slice
from .rules import Rules, is_top_rank
from .solver import solve

__all__ = ["Strategy", "Decide", "StrategyArg", "BuiltinStrategy", "strategy_arg", "strategy", "Random", "Noop",
           "Simple", "Greedy", "Lookahead", "MonteCarlo", "Hindsight", "Optimal",
           "builtin_names"]

Strategy = Callable[[Game], Move]
Factory = Callable[..., Strategy]
C = TypeVar("C", bound=Callable[[], Strategy])  # a strategy class that takes no parameters

_BUILTINS: dict[str, Factory] = {}


def _builtin(name: str) -> Callable[[Factory], Factory]:
    """Registers the decorated factory as the built-in strategy ``name``.

    The factory is called with the strategy text's parameters as keyword
    arguments, each value a str, and must raise ``StrategyError`` for an unknown
    parameter or a bad value (``_check_parameters`` helps).
    """
    def register(factory: Factory) -> Factory:
        _BUILTINS[name] = factory
        return factory
    return register


def builtin_names() -> tuple[str, ...]:
    """The names of the registered built-ins, in registration order (the same in
    both engines)."""
    return tuple(_BUILTINS)


def _check_parameters(name: str, params: dict[str, str], allowed: tuple[str, ...] = ()) -> None:
    """``StrategyError`` if ``params`` holds a parameter that strategy ``name``
    does not take."""
    for key in params:
        if key not in allowed:
            takes = f"its parameters are {', '.join(map(repr, allowed))}" if allowed else "it takes none"
            raise StrategyError(f"strategy {name!r} has no parameter {key!r}: {takes}")


def _plain_builtin(name: str) -> Callable[[C], C]:
    """Registers the decorated strategy class (a ``Decide``, or ``Optimal``) as the
    built-in ``name``, which takes no parameters."""
    def register(cls: C) -> C:
        def factory(**params: str) -> Strategy:
            _check_parameters(name, params)
            return cls()
        _BUILTINS[name] = factory
        return cls
    return register


class StrategyArg:
    """A strategy argument resolved (``strategy_arg``; the native bindings'
    ``StrategyArg``): the strategy, with the name its errors give it, and the
    checks of each move it returns."""

    __slots__ = ("name", "strategy")

    def __init__(self, name: str, strategy: Strategy) -> None:
        self.name = name
        self.strategy = strategy

    def play_turn(self, game: Game) -> None:
        """Asks the strategy for a move of ``game`` (not over) and plays it.

        The strategy returns a Move or a move text (as ``game.play`` takes). It
        may draw from the game's stream, nothing else: ``StrategyError`` naming
        the strategy, what it returned and the position when it returns
        anything but a legal move, or plays or takes back moves itself (even a
        ``play()`` then an ``undo()``, or the other way round); the game is then as the strategy
        left it. An exception raised by the strategy itself propagates unchanged.
        """
        played, changes = len(game.history), game._changes
        answer = self.strategy(game)
        # The count of plays and undos sees a play then an undo (or an undo then a
        # play), which leave the history as long as it was.
        if game._changes != changes:
            raise StrategyError(f"strategy {self.name!r} changed the game it was asked about "
                                f"({_describe_change(played, len(game.history))}; it must return "
                                f"a move, not play it), now at {game.to_str()!r}")
        move = answer
        if isinstance(answer, str):
            try:
                move = Move.parse(answer)
            except MoveError as err:
                raise StrategyError(f"strategy {self.name!r} returned {answer!r}, which is not a move "
                                    f"text ({err}), in position {game.to_str()!r}") from None
        if not isinstance(move, Move):
            raise StrategyError(f"strategy {self.name!r} returned {move!r}, not a Move or a move text, "
                                f"in position {game.to_str()!r}")
        try:
            game.play(move)
        except IllegalMoveError as err:
            raise StrategyError(f"strategy {self.name!r} returned the move {move}, which is illegal "
                                f"in position {game.to_str()!r}: {err}") from None

    def prepare(self, rules: Rules) -> None:
        """Computes (or finds) the table that ``"optimal"`` plays from under
        ``rules``, so that a run refuses a layout out of its reach at the call,
        before any game (``StrategyError``), as the native engine's does. Nothing
        to do for the other strategies. Only ``"random"`` plays rules with a
        reserve (R2.4): ``StrategyError`` for another built-in under them."""
        builtin = isinstance(self.strategy, (Decide, Optimal))  # named by its text (strategy_arg)
        if rules.reserve and builtin and not isinstance(self.strategy, Random):
            raise StrategyError(f"strategy '{self.name.partition(':')[0].strip().lower()}' does not play "
                                f"rules with a reserve (reserve={rules.reserve}): only 'random' does")
        if isinstance(self.strategy, Optimal):
            strategy_table(rules)

    def play_out(self, game: Game) -> None:
        """Plays ``game`` until it is over."""
        while not game.is_over:
            self.play_turn(game)


def _describe_change(before: int, after: int) -> str:
    """What a strategy did to the history of the game it was asked about, which
    had ``before`` moves and has ``after``: the same words in both engines."""
    if after > before:
        return f"it played {after - before} move(s)"
    if after < before:
        return f"it took back {before - after} move(s)"
    return "it played and took back moves, leaving the history as long as it was"


def strategy_arg(strategy: str | Strategy) -> StrategyArg:
    """A strategy argument (of ``simulate``, say) resolved: the name of a built-in,
    with or without parameters (``"name"``, ``"name:key=value,key=value"``; white space
    around the parts and the case of the name are ignored), or a callable.

    ``StrategyError`` for an unknown name, a malformed parameter list, an
    unknown parameter or a bad value; ``TypeError`` for anything else.
    """
    if callable(strategy):
        return StrategyArg(getattr(strategy, "__qualname__", None) or repr(strategy), strategy)
    if not isinstance(strategy, str):
        raise TypeError(f"strategy must be the name of a built-in or a callable strategy(game) -> Move, "
                        f"got {type(strategy).__name__}")
    strategy = exact_str(strategy)
    head, colon, tail = strategy.partition(":")
    name = head.strip().lower()
    factory = _BUILTINS.get(name)
    if factory is None:
        raise StrategyError(f"unknown strategy {head.strip()!r}: expected one of "
                            f"{', '.join(map(repr, _BUILTINS))}, or a callable strategy(game) -> Move")
    params: dict[str, str] = {}
    for item in tail.split(",") if colon else ():
        key, equals, value = (part.strip() for part in item.partition("="))
        if not (key and equals and value):
            raise StrategyError(f"strategy parameters must be key=value, got {item!r} in {strategy!r}")
        if key in params:
            raise StrategyError(f"parameter {key!r} is given twice in {strategy!r}")
        params[key] = value
    return StrategyArg(strategy, factory(**params))  # named as given, as Stats.strategy gives it


class BuiltinStrategy:
    """A built-in strategy as a callable (API.md ``strategy``): called on a Game,
    it returns the move the built-in would play there, or None when the game is
    over, drawing from the game's stream as it would in play; it does not play
    the move. Made by ``strategy(text)``."""

    __slots__ = ("text", "_player")

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"strategy() takes the text of a built-in strategy, got {type(text).__name__}")
        self.text = exact_str(text)
        self._player = strategy_arg(self.text)

    def __call__(self, game: Game) -> Move | None:
        if not isinstance(game, Game):
            raise native_game_error(game, "strategy") or TypeError(
                f"a strategy is called on a Game, got {type(game).__name__}")
        self._player.prepare(game.rules)  # as the native engine's, before anything else
        if game.is_over:
            return None
        stream = game._rng.copy()
        try:
            return self._player.strategy(game)
        except KeyboardInterrupt:
            game._rng = stream  # an interrupted decision leaves the game as it was (API.md, Ctrl-C)
            raise

    def __repr__(self) -> str:
        return f"strategy({self.text!r})"

    def __reduce__(self) -> tuple[type[BuiltinStrategy], tuple[str]]:
        return BuiltinStrategy, (self.text,)


def strategy(text: str) -> BuiltinStrategy:
    """The built-in strategy named by ``text`` (``"greedy"``,
    ``"montecarlo:playouts=8"``), as a callable that picks a game's next move.
    ``StrategyError`` as ``strategy_arg`` raises it, ``TypeError`` for a non-string."""
    return BuiltinStrategy(text)


# --- the built-ins ---------------------------------------------------------------------
#
# Every built-in is a ``Decide``: it plays the forced discards first, and its
# ``decide`` says what it does when no discard is legal. The words of
# STRATEGIES.md are functions here, as in the native engine: ``real_fills``,
# ``lookahead_ends`` and ``deal_or_first_real_fill`` (and ``_play_forced_discards``,
# the native ``Position::discard_forced``).


class Decide:
    """A built-in that plays the forced discards first (STRATEGIES.md, "Common
    ground": the first legal discard in R3 order) and decides only the other
    moves: calling it on a game that is not over returns the move. Subclasses
    define ``decide``; they are frozen dataclasses, compared by their parameters
    (the native engine's structs that implement its ``Decide`` trait)."""

    def decide(self, game: Game) -> Move:
        """The move to play in ``game``, which is not over and has no legal discard."""
        raise NotImplementedError

    def __call__(self, game: Game) -> Move:
        first = game.legal_moves()[0]
        return first if first.kind == "discard" else self.decide(game)


def _play_forced_discards(game: Game) -> int:
    """Plays the first legal discard in R3 order until none is legal; returns how
    many cards it discarded."""
    count = 0
    while (moves := game.legal_moves()) and moves[0].kind == "discard":
        game.play(moves[0])
        count += 1
    return count


def real_fills(game: Game) -> list[Move]:
    """The legal fills that leave a card on their source pile, in R3 order: every
    fill but the lone-card relocations of ``relocate_single`` and, under
    ``fill="stack"``, the moves of a whole pile (a Move's ``src`` and ``index`` are
    set for a fill only)."""
    stack = game.rules.fill == "stack"
    return [move for move in game.legal_moves() if move.src is not None and move.index is not None
            and len(game.piles[move.src]) > (move.index + 1 if stack else 1)]


def deal_or_first_real_fill(game: Game) -> Move:
    """The last resort of every built-in but random: the deal if it is legal, else
    the first real fill in R3 order. Never a lone-card relocation, so no built-in
    can move a lone card back and forth forever.

    In a game that is not over and has no legal discard one of them is legal:
    a deal is held back only by an empty stock (and then no lone card may move)
    or by ``deal="stuck"`` and a real fill.
    """
    moves = game.legal_moves()
    return moves[-1] if moves[-1].kind == "deal" else real_fills(game)[0]


@_plain_builtin("random")
@dataclass(frozen=True)
class Random(Decide):
    """``"random"`` (RNG.md): a uniform pick among the legal moves, one draw."""

    def decide(self, game: Game) -> Move:
        moves = game.legal_moves()
        return moves[game.randbelow(len(moves))]


@_plain_builtin("noop")
@dataclass(frozen=True)
class Noop(Decide):
    """``"noop"``: deals whenever it may, fills only when it must."""

    def decide(self, game: Game) -> Move:
        return deal_or_first_real_fill(game)


@_plain_builtin("simple")
@dataclass(frozen=True)
class Simple(Decide):
    """``"simple"``: fills the leftmost empty pile from the leftmost pile that can
    fill it with its top card, as long as one can; then deals."""

    def decide(self, game: Game) -> Move:
        fills = [fill for fill in real_fills(game) if fill.index == 0]
        if fills:
            return min(fills, key=lambda fill: (fill.dst, fill.src))
        return deal_or_first_real_fill(game)


@_plain_builtin("greedy")
@dataclass(frozen=True)
class Greedy(Decide):
    """``"greedy"``: the first of its four rules that picks a move decides."""

    def decide(self, game: Game) -> Move:
        fills = real_fills(game)
        piles = game.piles

        # 1. Fill for a discard: the fill that lets the most cards go, if any does.
        best, most = None, 0
        for fill in fills:
            trial = game.copy()
            trial.play(fill)
            count = _play_forced_discards(trial)
            if count > most:
                best, most = fill, count
        if best is not None:
            return best

        # 2. Park a top-rank card, which blocks every card below it for good.
        for fill in fills:
            assert fill.src is not None and fill.index is not None
            if is_top_rank(piles[fill.src][-1 - fill.index], game.rules):
                return fill

        # 3. Unbury the tallest pile's top card, keeping an empty pile for the deal.
        empty = [p for p, pile in enumerate(piles) if not pile]
        if len(empty) >= 2:
            sources = [fill.src for fill in fills if fill.src is not None and fill.index == 0 and fill.dst == empty[0]]
            if sources:
                return Move.fill(max(sources, key=lambda src: (len(piles[src]), -src)), empty[0])

        # 4. Deal.
        return deal_or_first_real_fill(game)


def lookahead_ends(game: Game) -> Iterator[tuple[Move | None, Game]]:
    """The end positions of the lines of ``"lookahead"`` from ``game`` (in which no
    discard is legal), each once, in tie order, with the first move of the first
    line that ends there (None for the empty line).

    A line is a sequence of real fills, each followed by the forced discards; it
    may end where a deal is legal or no real fill is. The lines are visited
    depth first, fills in R3 order, a line before its extensions. A position
    reached a second time is skipped with everything after it: the lines through
    it were already seen, earlier in tie order. Positions are told apart by their
    piles, since a line deals nothing: the stock is the same throughout, and the
    discards are the cards in neither.

    The positions yielded are ``Game`` copies that the caller may keep.
    """
    seen: set[tuple[tuple[Card, ...], ...]] = set()

    def visit(position: Game, first: Move | None) -> Iterator[tuple[Move | None, Game]]:
        if position.piles in seen:
            return
        seen.add(position.piles)
        fills = real_fills(position)
        if not fills or position.legal_moves()[-1].kind == "deal":
            yield first, position
        for fill in fills:
            after = position.copy()
            after.play(fill)
            _play_forced_discards(after)
            yield from visit(after, fill if first is None else first)

    yield from visit(game.copy(), None)


def _line_value(end: Game) -> tuple[int, int]:
    """What ``"lookahead"`` maximizes: the cards discarded at a line's end, then
    the empty piles there."""
    return end.score, sum(1 for pile in end.piles if not pile)


@_plain_builtin("lookahead")
@dataclass(frozen=True)
class Lookahead(Decide):
    """``"lookahead"``: the first move of the line that discards the most cards
    before the next deal (then leaves the most empty piles; ties: the first
    line). Draws nothing."""

    def decide(self, game: Game) -> Move:
        best_first, best_value = None, (-1, -1)
        for first, end in lookahead_ends(game):
            value = _line_value(end)
            if value > best_value:
                best_first, best_value = first, value
        return best_first if best_first is not None else deal_or_first_real_fill(game)


# The policies a montecarlo play-out may use: the deterministic built-ins, so
# that a play-out draws nothing from the stream but its shuffle.
POLICIES = {"noop": Noop(), "simple": Simple(), "greedy": Greedy(), "lookahead": Lookahead()}
MAX_PLAYOUTS = 2**32 - 1


def _choose_by_samples(game: Game, samples: int, value: Callable[[Game], int]) -> Move:
    """The decision of montecarlo and hindsight (STRATEGIES.md): the candidates
    are the ends of lookahead's lines; with one, its first move. Else ``samples``
    times a guess of the stock order is drawn (its cards sorted, then shuffled
    from the game's stream), and every candidate is valued on the same guess by
    ``value``, given its end position with the guess as its stock, after the deal
    that ends the line (when one is legal). The first move of the first candidate
    with the highest total (the last resort for the empty line) is played."""
    candidates = list(lookahead_ends(game))
    first = candidates[0][0]
    if len(candidates) > 1:
        cards = sorted(game.stock)
        totals = [0] * len(candidates)
        for _ in range(samples):
            guess = shuffle_slice(list(cards), game.randbelow)
            for k, (_, end) in enumerate(candidates):
                totals[k] += value(_candidate_on(end, guess))
        first = candidates[totals.index(max(totals))][0]
    return first if first is not None else deal_or_first_real_fill(game)


def _candidate_on(end: Game, stock: list[Card]) -> Game:
    """A candidate of montecarlo and hindsight, the end position ``end`` of a
    line, with ``stock`` in place of its stock, after the deal that ends the line
    (when one is legal)."""
    piles, _, discards, rules = end.to_str().split(" ")
    game = Game.from_str(f"{piles} {''.join(map(str, stock)) or '-'} {discards} {rules}")
    if game.is_legal(Move.deal()):
        game.play(Move.deal())
    return game


@dataclass(frozen=True)
class MonteCarlo(Decide):
    """``"montecarlo"``: at each decision, plays every candidate line of lookahead
    on ``playouts`` guesses of the stock order, the same guesses for every
    candidate, with the built-in ``policy`` (a name in ``POLICIES``), and takes
    the first move of the line with the highest total score. It never reads the
    order of the real stock: the guesses shuffle its cards sorted by index."""

    playouts: int
    policy: str

    def decide(self, game: Game) -> Move:
        player = StrategyArg(self.policy, POLICIES[self.policy])

        def value(trial: Game) -> int:
            player.play_out(trial)
            return trial.score

        return _choose_by_samples(game, self.playouts, value)


@_builtin("montecarlo")
def _montecarlo(playouts: str = "64", policy: str = "noop", **params: str) -> Strategy:
    _check_parameters("montecarlo", params, ("playouts", "policy"))
    count = _count_parameter("montecarlo", "playouts", playouts, MAX_PLAYOUTS)
    if policy.lower() not in POLICIES:
        raise StrategyError(f"bad value {policy!r} for parameter 'policy' of strategy 'montecarlo': "
                            f"expected one of {', '.join(map(repr, POLICIES))}")
    return MonteCarlo(count, policy.lower())


def _count_parameter(name: str, key: str, text: str, largest: int) -> int:
    """Parameter ``key`` of strategy ``name`` as a count from 1 to ``largest``: ASCII
    digits only (leading zeros too), as the native engine reads it; else
    ``StrategyError``."""
    count = decimal_value(text, largest + 1)
    if count is None or count < 1:
        raise StrategyError(f"bad value {text!r} for parameter {key!r} of strategy {name!r}: "
                            f"expected an int from 1 to {largest}")
    return count


MAX_NODES = 2**64 - 1
# The largest ``win`` of hindsight: 2**38, more than the scores of 2**32 play-outs
# (each at most 52 < 2**6), so that at this weight wins count first.
MAX_WIN = 1 << 38


@dataclass(frozen=True)
class Hindsight(Decide):
    """``"hindsight"``: montecarlo's candidates and guesses, each candidate valued
    on each guess by the score of a noop play-out, plus ``win`` when the stock
    holds at most ``stock`` cards and the clairvoyant solver wins the guess; the
    candidate of the highest total is played (ties: the earlier one). A guess that
    the solver leaves unresolved within ``nodes`` positions counts as not won. It
    never reads the real stock's order."""

    samples: int
    nodes: int
    stock: int
    win: int

    def decide(self, game: Game) -> Move:
        noop = StrategyArg("noop", Noop())
        solves = len(game.stock) <= self.stock

        def value(trial: Game) -> int:
            won = solves and solve(trial, node_limit=self.nodes).winnable is True
            noop.play_out(trial)
            return self.win * won + trial.score

        return _choose_by_samples(game, self.samples, value)


@_builtin("hindsight")
def _hindsight(samples: str = "64", nodes: str = "20000", stock: str = "20", win: str = "16",
               **params: str) -> Strategy:
    _check_parameters("hindsight", params, ("samples", "nodes", "stock", "win"))
    return Hindsight(_count_parameter("hindsight", "samples", samples, MAX_PLAYOUTS),
                     _count_parameter("hindsight", "nodes", nodes, MAX_NODES),
                     _count_parameter("hindsight", "stock", stock, MAX_NODES),
                     _count_parameter("hindsight", "win", win, MAX_WIN))


@_plain_builtin("optimal")
@dataclass(frozen=True)
class Optimal:
    """``"optimal"`` (OPTIMAL.md): the first legal move in R3 order of the best
    value in the table of the game's rules, computed the first time. It reads
    the set of the stock's cards, never their order. Draws nothing. Not a
    ``Decide``: the table weighs the discards too."""

    def __call__(self, game: Game) -> Move:
        table = strategy_table(game.rules)
        return table.best_move(game.piles, frozenset(game.stock))
