"""Strategies (STRATEGIES.md): the registry of built-ins, and turning a strategy
argument (a name or a callable) into a ``Player`` that plays games out.

A strategy is a callable ``strategy(game) -> Move`` that returns a legal move
of a game that is not over. A built-in is registered under its name with
``@builtin(name)`` on a factory that takes the parameters of its text
(``"name:key=value,key=value"``), as strings by name, and returns the strategy;
``resolve`` and ``simulate`` need no change when one is added.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import IllegalMoveError, StrategyError
from .game import Game, Move

__all__ = ["Strategy", "Player", "builtin", "resolve", "check_parameters", "play_random"]

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


def check_parameters(name: str, params: dict[str, str], allowed: tuple[str, ...] = ()) -> None:
    """``StrategyError`` if ``params`` holds a parameter that strategy ``name``
    does not take."""
    for key in params:
        if key not in allowed:
            takes = f"its parameters are {', '.join(map(repr, allowed))}" if allowed else "it takes none"
            raise StrategyError(f"strategy {name!r} has no parameter {key!r}: {takes}")


class Player:
    """A resolved strategy, with the name its errors give it."""

    __slots__ = ("name", "strategy")

    def __init__(self, name: str, strategy: Strategy) -> None:
        self.name = name
        self.strategy = strategy

    def play_turn(self, game: Game) -> None:
        """Asks the strategy for a move of ``game`` (not over) and plays it.

        ``StrategyError`` naming the strategy, what it returned and the position
        when it returns anything but a legal Move, or plays or takes back moves
        itself; the game is then as the strategy left it. An exception raised
        by the strategy itself propagates unchanged.
        """
        played = len(game.history)
        move = self.strategy(game)
        if len(game.history) != played:
            raise StrategyError(f"strategy {self.name!r} changed the game it was asked about "
                                f"(it must return a move, not play it), now at {game.to_str()!r}")
        if not isinstance(move, Move):
            raise StrategyError(f"strategy {self.name!r} returned {move!r}, not a Move, "
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


# --- the built-ins ---------------------------------------------------------------------


def play_random(game: Game) -> Move:
    """The random strategy of RNG.md: the first legal discard if there is one
    (no draw), else a uniform pick among the legal moves (one draw)."""
    moves = game.legal_moves()
    if moves[0].kind == "discard":
        return moves[0]
    return moves[game.randbelow(len(moves))]


@builtin("random")
def _random(**params: str) -> Strategy:
    check_parameters("random", params)
    return play_random
