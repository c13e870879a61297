"""The fixed action space and the observation encoding of docs/BATCH.md, written
once for every engine.

``Encoding(Game, Move, rules)`` numbers the moves of a layout (actions) and turns
a game into its observation row. It reads only the public API of the engine
classes it is given (those of ``acesup`` or of ``acesup.reference``), so
the reference ``Batch``, the Gymnasium environments and the OpenSpiel game
share one numbering, and a native ``Batch`` has one text to reproduce.
"""

from __future__ import annotations

import importlib
import math
import operator
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["Encoding", "win_score", "index_arg", "engine_module", "engine_rules"]

OBSERVATION_DTYPE = np.int8
NO_CARD = -1  # an empty cell of the pile grid


def win_score(rules: Any) -> int:
    """R4.2's win score, D - S: the score of a won game and the last score of a
    Stats histogram. Every layout of today's engines wins at 48.

    This is the one place to switch to ``rules.win_score()`` once Rules has it.
    """
    return 48


def index_arg(value: object, name: str, size: int, low: int = 0) -> int:
    """``value`` as an int in ``[low, size)``: ``TypeError`` for a bool or a
    non-integer (NumPy integers count as ints), ``ValueError`` when out of range.
    (The shared ``acesup.arguments.int_arg`` can take its place once it exists.)"""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"{name} must be {_interval(low, size)}, got {type(value).__name__}")
    value = operator.index(value)  # type: ignore[arg-type]  # checked just above
    if not low <= value < size:
        raise ValueError(f"{name} must be {_interval(low, size)}, got {value}")
    return value


def _interval(low: int, size: int) -> str:
    return f"an int in [{low}, 2**64)" if size == 2**64 else f"an int from {low} to {size - 1}"


class Encoding:
    """The action space and the observation layout of one set of rules, for games
    of one engine (docs/BATCH.md "Actions" and "Observations").

    With P piles, a deck of D cards and H = 1 + ceil((D - P) / P) (the tallest a
    pile can grow: its first card and one card from each deal), K = H fill
    indices under ``fill="any"`` and K = 1 otherwise:

    - actions: ``P`` discards, then ``P * (P - 1) * K`` fills, then the deal, in
      R3 order, so ``num_actions = P + P * (P - 1) * K + 1``;
    - observation: ``P * H`` pile cells, ``D`` discard flags, the stock count.
    """

    def __init__(self, Game: Any, Move: Any, rules: Any = None) -> None:  # noqa: N803 - the engine classes
        game = Game.from_seed(0, rules)  # the layout is read off a dealt game
        self.Game, self.Move = Game, Move
        self.rules = game.rules
        self.piles = len(game.piles)
        # The layout's cards in index order (R1.4): rules.deck() once Rules has it.
        self.deck = tuple(sorted([*(card for pile in game.piles for card in pile), *game.stock, *game.discards]))
        self.deck_size = len(self.deck)
        self.win_score = win_score(self.rules)
        self.max_height = 1 + math.ceil((self.deck_size - self.piles) / self.piles)
        self.fill_indices = self.max_height if self.rules.fill == "any" else 1
        p, k = self.piles, self.fill_indices
        self.num_actions = p + p * (p - 1) * k + 1
        self.deal_action = self.num_actions - 1
        self.discards_offset = p * self.max_height
        self.stock_offset = self.discards_offset + self.deck_size
        self.observation_size = self.stock_offset + 1
        self._code = {card.index: code for code, card in enumerate(self.deck)}
        moves = [Move.discard(pile) for pile in range(p)]
        moves += [Move.fill(src, dst, index) for src in range(p) for dst in range(p) if dst != src
                  for index in range(k)]
        moves.append(Move.deal())
        self.moves = tuple(moves)  # action -> Move
        self._actions = {move: action for action, move in enumerate(moves)}

    # --- actions ---------------------------------------------------------------------

    def action_to_move(self, action: object) -> Any:
        """The Move that ``action`` stands for. ``ValueError`` outside
        ``[0, num_actions)``, ``TypeError`` for a non-int (bools included)."""
        return self.moves[index_arg(action, "action", self.num_actions)]

    def move_to_action(self, move: object) -> int:
        """The action of ``move`` (a Move of this engine or its R6.3 text).

        ``ValueError`` for a move these rules cannot name (a pile >= P, or a fill
        index the action space has no number for), ``MoveError`` for bad text,
        ``TypeError`` for another type.
        """
        if isinstance(move, str):
            move = self.Move.parse(move)
        elif not isinstance(move, self.Move):
            raise TypeError(f"move_to_action() takes a Move or a move text, got {type(move).__name__}")
        action = self._actions.get(move)
        if action is None:
            raise ValueError(f"{move} has no action under these rules ({self.piles} piles, "
                             f"fill index below {self.fill_indices})")
        return action

    def legal_actions(self, moves: list[Any]) -> list[int]:
        """The actions of ``moves`` (a game's legal moves), ascending."""
        return [self._actions[move] for move in moves]

    # --- observations ----------------------------------------------------------------

    def observation(self, game: Any) -> list[int]:
        """The observation row of ``game``: the pile grid (cell ``p * H + h`` holds the
        code of the card at height h of pile p, bottom = 0, or -1), a 1 at
        ``discards_offset + code`` for each discarded card, and the number of stock
        cards left. The stock's order is not in it."""
        code = self._code
        row = [NO_CARD] * self.discards_offset + [0] * self.deck_size + [len(game.stock)]
        for p, pile in enumerate(game.piles):
            base = p * self.max_height
            for height, card in enumerate(pile):
                row[base + height] = code[card.index]
        base = self.discards_offset
        for card in game.discards:
            row[base + code[card.index]] = 1
        return row

    @classmethod
    def of(cls, engine: ModuleType, rules: Any = None) -> Encoding:
        """The encoding of ``rules`` for the games of the engine module ``engine``."""
        return cls(engine.Game, engine.Move, rules)

    def __reduce__(self) -> tuple[type[Encoding], tuple[Any, Any, Any]]:
        return Encoding, (self.Game, self.Move, self.rules)

    def __copy__(self) -> Encoding:
        return self  # never changed after __init__

    def __deepcopy__(self, memo: dict) -> Encoding:
        return self

    def __repr__(self) -> str:
        return f"Encoding({self.Game.__module__}.Game, {self.rules!r})"


def engine_module(name: str | None, need: str = "Game") -> ModuleType:
    """The engine module named ``name``: ``"native"`` (``acesup``) or ``"reference"``
    (``acesup.reference``); None picks the native engine when it has ``need``
    (``"Batch"`` for the batch-based wrappers), else the reference.
    ``ValueError`` for another name or a named engine that lacks ``need``."""
    if name is None:
        import acesup
        name = "native" if hasattr(acesup, need) else "reference"
    if name not in ("native", "reference"):
        raise ValueError(f"engine must be 'native' or 'reference', got {name!r}")
    module = importlib.import_module("acesup" if name == "native" else "acesup.reference")
    if not hasattr(module, need):
        raise ValueError(f"the {name} engine has no {need}")
    return module


def engine_rules(engine: ModuleType, rules: Any) -> Any:
    """``rules`` as a Rules of ``engine``: None (the standard rules), a Rules of
    either engine, or an R6.4 text or preset name. ``RulesError`` for bad text,
    ``TypeError`` for another type."""
    if rules is None or isinstance(rules, engine.Rules):
        return rules
    if isinstance(rules, str):
        return engine.Rules.parse(rules)
    if type(rules).__name__ == "Rules":  # the other engine's: the same options
        return engine.Rules.parse(str(rules))
    raise TypeError(f"rules must be a Rules, a rules text or None, got {type(rules).__name__}")
