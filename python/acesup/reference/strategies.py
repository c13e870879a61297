"""Strategies (STRATEGIES.md): the registry of built-ins, and turning a strategy
argument (a name or a callable) into a ``Player`` that plays games out.

A strategy is a callable ``strategy(game) -> Move`` that returns a legal move
of a game that is not over. A built-in is registered under its name with
``@builtin(name)`` on a factory that takes the parameters of its text
(``"name:key=value,key=value"``), as strings by name, and returns the strategy
(``@plain_builtin(name)`` on a strategy that takes none); ``resolve`` and
``simulate`` need no change when one is added.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from ..errors import IllegalMoveError, MoveError, StrategyError
from .cards import Card
from .game import Game
from .moves import Move
from .optimal import strategy_table
from .rng import shuffle
from .rules import is_top_rank

__all__ = ["Strategy", "Player", "BuiltinStrategy", "builtin", "plain_builtin", "resolve", "strategy",
           "check_parameters", "builtin_names"]

Strategy = Callable[[Game], Move]
Factory = Callable[..., Strategy]

_BUILTINS: dict[str, Factory] = {}


def builtin(name: str) -> Callable[[Factory], Factory]:
    """Registers the decorated factory as the built-in strategy ``name``.

    The factory is called with the strategy text's parameters as keyword
    arguments, each value a str, and must raise ``StrategyError`` for an unknown
    parameter or a bad value (``check_parameters`` helps).
    """
    def register(factory: Factory) -> Factory:
        _BUILTINS[name] = factory
        return factory
    return register


def builtin_names() -> tuple[str, ...]:
    """The names of the registered built-ins, in registration order (the same in
    both engines)."""
    return tuple(_BUILTINS)


def check_parameters(name: str, params: dict[str, str], allowed: tuple[str, ...] = ()) -> None:
    """``StrategyError`` if ``params`` holds a parameter that strategy ``name``
    does not take."""
    for key in params:
        if key not in allowed:
            takes = f"its parameters are {', '.join(map(repr, allowed))}" if allowed else "it takes none"
            raise StrategyError(f"strategy {name!r} has no parameter {key!r}: {takes}")


def plain_builtin(name: str) -> Callable[[Strategy], Strategy]:
    """Registers the decorated strategy as the built-in ``name``, which takes no
    parameters."""
    def register(strategy: Strategy) -> Strategy:
        def factory(**params: str) -> Strategy:
            check_parameters(name, params)
            return strategy
        _BUILTINS[name] = factory
        return strategy
    return register


class Player:
    """A resolved strategy, with the name its errors give it."""

    __slots__ = ("name", "strategy")

    def __init__(self, name: str, strategy: Strategy) -> None:
        self.name = name
        self.strategy = strategy

    def play_turn(self, game: Game) -> None:
        """Asks the strategy for a move of ``game`` (not over) and plays it.

        The strategy returns a Move or a move text (as ``game.play`` takes). It
        may draw from the game's stream, nothing else: ``StrategyError`` naming
        the strategy, what it returned and the position when it returns
        anything but a legal move, or plays or takes back moves itself (even an
        ``undo()`` followed by a ``play()``); the game is then as the strategy
        left it. An exception raised by the strategy itself propagates unchanged.
        """
        played = len(game.history)
        # Every play makes a new history entry, so the last entry's identity
        # tells an undo-and-replay from an untouched game, in constant time.
        last = game._history[-1] if game._history else None
        answer = self.strategy(game)
        now_last = game._history[-1] if game._history else None
        if len(game.history) != played or now_last is not last:
            raise StrategyError(f"strategy {self.name!r} changed the game it was asked about "
                                f"({describe_change(played, len(game.history))}; it must return "
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

    def play_out(self, game: Game) -> None:
        """Plays ``game`` until it is over."""
        while not game.is_over:
            self.play_turn(game)


def describe_change(before: int, after: int) -> str:
    """What a strategy did to the history of the game it was asked about, which
    had ``before`` moves and has ``after``: the same words in both engines."""
    if after > before:
        return f"it played {after - before} move(s)"
    if after < before:
        return f"it took back {before - after} move(s)"
    return "it took back moves and played others in their place"


def resolve(strategy: str | Strategy) -> Player:
    """The player for a strategy argument: the name of a built-in, with or
    without parameters (``"name"``, ``"name:key=value,key=value"``; white space
    around the parts and the case of the name are ignored), or a callable.

    ``StrategyError`` for an unknown name, a malformed parameter list, an
    unknown parameter or a bad value; ``TypeError`` for anything else.
    """
    if callable(strategy):
        return Player(getattr(strategy, "__qualname__", None) or repr(strategy), strategy)
    if not isinstance(strategy, str):
        raise TypeError(f"strategy must be the name of a built-in or a callable strategy(game) -> Move, "
                        f"got {type(strategy).__name__}")
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
    return Player(name, factory(**params))


class BuiltinStrategy:
    """A built-in strategy as a callable (API.md ``strategy``): called on a Game,
    it returns the move the built-in would play there, or None when the game is
    over, drawing from the game's stream as it would in play; it does not play
    the move. Made by ``strategy(text)``."""

    __slots__ = ("text", "_player")

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise TypeError(f"strategy() takes the text of a built-in strategy, got {type(text).__name__}")
        self.text = text
        self._player = resolve(text)

    def __call__(self, game: Game) -> Move | None:
        if not isinstance(game, Game):
            raise TypeError(f"a strategy is called on a Game, got {type(game).__name__}")
        return None if game.is_over else self._player.strategy(game)

    def __repr__(self) -> str:
        return f"strategy({self.text!r})"

    def __reduce__(self) -> tuple[type[BuiltinStrategy], tuple[str]]:
        return BuiltinStrategy, (self.text,)


def strategy(text: str) -> BuiltinStrategy:
    """The built-in strategy named by ``text`` (``"greedy"``,
    ``"montecarlo:playouts=8"``), as a callable that picks a game's next move.
    ``StrategyError`` as ``resolve`` raises it, ``TypeError`` for a non-string."""
    return BuiltinStrategy(text)


# --- the built-ins ---------------------------------------------------------------------
#
# Every built-in plays the forced discards first (``discards_first``); the
# functions below say what each does when no discard is legal. The words of
# STRATEGIES.md are functions here: ``real_fills``, ``play_forced_discards``,
# ``lookahead_ends`` and ``deal_or_first_real_fill``.


def discards_first(decide: Strategy) -> Strategy:
    """The strategy that plays the first legal discard in R3 order when there is
    one ("Forced discards", STRATEGIES.md) and otherwise what ``decide`` picks."""
    @functools.wraps(decide)
    def strategy(game: Game) -> Move:
        first = game.legal_moves()[0]
        return first if first.kind == "discard" else decide(game)
    return strategy


def play_forced_discards(game: Game) -> int:
    """Plays the first legal discard in R3 order until none is legal; returns how
    many cards it discarded."""
    count = 0
    while (moves := game.legal_moves()) and moves[0].kind == "discard":
        game.play(moves[0])
        count += 1
    return count


def real_fills(game: Game) -> list[Move]:
    """The legal fills from a pile of two or more cards, in R3 order: every fill
    but the lone-card relocations of ``relocate_single``."""
    return [move for move in game.legal_moves() if move.kind == "fill" and len(game.piles[move.src]) >= 2]


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


@plain_builtin("random")
@discards_first
def play_random(game: Game) -> Move:
    """``"random"`` (RNG.md): a uniform pick among the legal moves, one draw."""
    moves = game.legal_moves()
    return moves[game.randbelow(len(moves))]



@plain_builtin("noop")
@discards_first
def play_noop(game: Game) -> Move:
    """``"noop"``: deals whenever it may, fills only when it must."""
    return deal_or_first_real_fill(game)



@plain_builtin("simple")
@discards_first
def play_simple(game: Game) -> Move:
    """``"simple"``: fills the leftmost empty pile from the leftmost pile that can
    fill it with its top card, as long as one can; then deals."""
    fills = [fill for fill in real_fills(game) if fill.index == 0]
    if fills:
        return min(fills, key=lambda fill: (fill.dst, fill.src))
    return deal_or_first_real_fill(game)



@plain_builtin("greedy")
@discards_first
def play_greedy(game: Game) -> Move:
    """``"greedy"``: the first of its four rules that picks a move decides."""
    fills = real_fills(game)
    piles = game.piles

    # 1. Fill for a discard: the fill that lets the most cards go, if any does.
    best, most = None, 0
    for fill in fills:
        trial = game.copy()
        trial.play(fill)
        count = play_forced_discards(trial)
        if count > most:
            best, most = fill, count
    if best is not None:
        return best

    # 2. Park a top-rank card, which blocks every card below it for good.
    for fill in fills:
        if is_top_rank(piles[fill.src][-1 - fill.index], game.rules):
            return fill

    # 3. Unbury the tallest pile's top card, keeping an empty pile for the deal.
    empty = [p for p, pile in enumerate(piles) if not pile]
    if len(empty) >= 2:
        unbury = [fill for fill in fills if fill.index == 0 and fill.dst == empty[0]]
        if unbury:
            return max(unbury, key=lambda fill: (len(piles[fill.src]), -fill.src))

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
            play_forced_discards(after)
            yield from visit(after, fill if first is None else first)

    yield from visit(game.copy(), None)


def line_value(end: Game) -> tuple[int, int]:
    """What ``"lookahead"`` maximizes: the cards discarded at a line's end, then
    the empty piles there."""
    return end.score, sum(1 for pile in end.piles if not pile)


@plain_builtin("lookahead")
@discards_first
def play_lookahead(game: Game) -> Move:
    """``"lookahead"``: the first move of the line that discards the most cards
    before the next deal (then leaves the most empty piles; ties: the first
    line). Draws nothing."""
    best_first, best_value = None, (-1, -1)
    for first, end in lookahead_ends(game):
        value = line_value(end)
        if value > best_value:
            best_first, best_value = first, value
    return best_first if best_first is not None else deal_or_first_real_fill(game)



# The policies a montecarlo play-out may use: the deterministic built-ins, so
# that a play-out draws nothing from the stream but its shuffle.
POLICIES = {"noop": play_noop, "simple": play_simple, "greedy": play_greedy, "lookahead": play_lookahead}
MAX_PLAYOUTS = 2**32 - 1


def montecarlo(playouts: int, policy: str) -> Strategy:
    """``"montecarlo"``: at each decision, plays every candidate line of lookahead
    on ``playouts`` guesses of the stock order, the same guesses for every
    candidate, with the built-in ``policy``, and takes the first move of the
    line with the highest total score. It never reads the order of the real
    stock: the guesses shuffle its cards sorted by index."""
    player = Player(policy, POLICIES[policy])

    @discards_first
    def play_montecarlo(game: Game) -> Move:
        candidates = list(lookahead_ends(game))
        first = candidates[0][0]
        if len(candidates) > 1:
            cards = sorted(game.stock)
            totals = [0] * len(candidates)
            for _ in range(playouts):
                guess = shuffle(list(cards), game.randbelow)
                for k, (_, end) in enumerate(candidates):
                    totals[k] += play_candidate(end, guess, player)
            first = candidates[totals.index(max(totals))][0]
        return first if first is not None else deal_or_first_real_fill(game)

    return play_montecarlo


def play_candidate(end: Game, stock: list[Card], player: Player) -> int:
    """The score of a candidate of montecarlo, the end position ``end`` of a line,
    played to the end with ``stock`` in place of its stock: first the deal that
    ends the line (when one is legal), then the moves of ``player``."""
    piles, _, discards, rules = end.to_str().split(" ")
    game = Game.from_str(f"{piles} {''.join(map(str, stock)) or '-'} {discards} {rules}")
    if game.is_legal(Move.deal()):
        game.play(Move.deal())
    player.play_out(game)
    return game.score


@builtin("montecarlo")
def _montecarlo(playouts: str = "64", policy: str = "noop", **params: str) -> Strategy:
    check_parameters("montecarlo", params, ("playouts", "policy"))
    # ASCII digits only (leading zeros too), and few enough for int(): the native engine reads the same.
    if not (playouts.isascii() and playouts.isdigit() and len(playouts.lstrip("0")) <= 10
            and 1 <= int(playouts) <= MAX_PLAYOUTS):
        raise StrategyError(f"bad value {playouts!r} for parameter 'playouts' of strategy 'montecarlo': "
                            f"expected an int from 1 to {MAX_PLAYOUTS}")
    if policy.lower() not in POLICIES:
        raise StrategyError(f"bad value {policy!r} for parameter 'policy' of strategy 'montecarlo': "
                            f"expected one of {', '.join(map(repr, POLICIES))}")
    return montecarlo(int(playouts), policy.lower())


@plain_builtin("optimal")
def play_optimal(game: Game) -> Move:
    """``"optimal"`` (OPTIMAL.md): the first legal move in R3 order of the best
    value in the table of the game's rules, computed the first time. It reads
    the set of the stock's cards, never their order. Draws nothing."""
    table = strategy_table(game.rules)
    return table.best_move(game.piles, frozenset(game.stock))
