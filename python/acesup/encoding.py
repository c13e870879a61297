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

from .resources import check_batch_fits

__all__ = ["Encoding", "BatchBase", "index_arg", "engine_module", "engine_rules"]

U64 = 2**64

OBSERVATION_DTYPE = np.int8
NO_CARD = -1  # an empty cell of the pile grid


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
    indices under ``fill="any"`` and ``"stack"`` and K = 1 otherwise:

    - actions: ``P`` discards, then ``P * (P - 1) * K`` fills, then the deal, in
      R3 order, so ``num_actions = P + P * (P - 1) * K + 1``;
    - observation: ``P * H`` pile cells, ``D`` discard flags, the stock count.
    """

    def __init__(self, Game: Any, Move: Any, rules: Any = None) -> None:  # noqa: N803 - the engine classes
        game = Game.from_seed(0, rules)  # the layout is read off a dealt game
        self.Game, self.Move = Game, Move
        self.rules = game.rules
        if self.rules.reserve:  # the actions and observations know piles alone (BATCH.md)
            raise ValueError(f"the actions and observations of BATCH.md (Batch, the Gymnasium and OpenSpiel "
                             f"games) do not cover rules with a reserve (reserve={self.rules.reserve})")
        self.piles = len(game.piles)
        self.deck = tuple(self.rules.deck())  # the layout's cards in index order (R1.4)
        self.deck_size = len(self.deck)
        self.win_score = self.rules.win_score()
        self.max_height = 1 + math.ceil((self.deck_size - self.piles) / self.piles)
        self.fill_indices = self.max_height if self.rules.fill in ("any", "stack") else 1
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

    def action_mask(self, moves: list[Any]) -> np.ndarray:
        """The (num_actions,) bool mask of ``moves`` (a game's legal moves): True at
        the action of each, False elsewhere."""
        mask = np.zeros(self.num_actions, dtype=bool)
        mask[self.legal_actions(moves)] = True
        return mask

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

    def __deepcopy__(self, memo: dict[int, object]) -> Encoding:
        return self

    def __repr__(self) -> str:
        return f"Encoding({self.Game.__module__}.Game, {self.rules!r})"


class BatchBase:
    """What the Batch of every engine shares (docs/BATCH.md): the construction
    arguments' checks, the configuration attributes, the action conversions, the
    checks of ``step``'s actions and the repr. A subclass keeps the games and
    provides ``n``, ``next_index``, ``finished`` and the arrays."""

    _encoding: Encoding
    _seed: int
    _start: int
    _games: int
    _auto_discard: bool
    _record: bool

    def _configure(self, game: Any, move: Any, n: object, rules: Any, seed: object, start: object,
                   auto_discard: object, games: object, scores: object) -> int:
        """Checks the construction arguments (BATCH.md "Errors") and keeps them;
        returns n. ``ValueError`` for n < 1, games < n, a bad seed or start, or a run
        beyond index 2**64 - 1; ``TypeError`` for an argument of the wrong type;
        ``MemoryError`` for more slots than the memory available holds."""
        n = index_arg(n, "n", U64, low=1)
        seed = index_arg(seed, "seed", U64)
        start = index_arg(start, "start", U64)
        for name, flag in (("auto_discard", auto_discard), ("scores", scores)):
            if not isinstance(flag, bool):
                raise TypeError(f"{name} must be True or False, got {type(flag).__name__}")
        games = U64 - start if games is None else index_arg(games, "games", U64 + 1)
        if start + games > U64:
            raise ValueError(f"start + games must be at most 2**64 (game indices are 64-bit), got {start + games}")
        if games < n:
            raise ValueError(f"games must be at least n (every slot starts with a game), got games={games} for n={n}")
        self._encoding = Encoding(game, move, rules)
        check_batch_fits(n, self._slot_bytes(bool(scores)))
        self._seed, self._start, self._games = seed, start, games
        self._auto_discard, self._record = bool(auto_discard), bool(scores)  # checked just above
        return n

    def _slot_bytes(self, scores: bool) -> int:
        """The bytes this engine's Batch allocates a slot under the rules of
        ``self._encoding`` (with ``scores=scores``), for the memory check."""
        raise NotImplementedError

    n: int
    next_index: int
    finished: int
    rules = property(lambda self: self._encoding.rules, doc="The rules of every game.")
    seed = property(lambda self: self._seed, doc="The master seed of the run.")
    start = property(lambda self: self._start, doc="The first game index of the run.")
    games = property(lambda self: self._games, doc="The number of games of the run.")
    auto_discard = property(lambda self: self._auto_discard, doc="Whether forced discards are played for the policy.")
    piles = property(lambda self: self._encoding.piles, doc="P, the number of piles.")
    deck_size = property(lambda self: self._encoding.deck_size, doc="D, the number of cards of the layout.")
    num_actions = property(lambda self: self._encoding.num_actions, doc="A, the number of actions.")
    observation_size = property(lambda self: self._encoding.observation_size, doc="The length of an observation row.")
    max_height = property(lambda self: self._encoding.max_height, doc="H, the rows of the pile grid.")
    done = property(lambda self: self.finished == self._games, doc="Whether every game of the run is over.")

    def action_to_move(self, action: object) -> Any:
        """The Move of ``action`` (BATCH.md "Actions"); ``ValueError`` outside
        ``[0, num_actions)``, ``TypeError`` for a non-int."""
        return self._encoding.action_to_move(action)

    def move_to_action(self, move: Any) -> int:
        """The action of ``move`` (a Move or its text); ``ValueError`` for a move
        that has no action under these rules."""
        return self._encoding.move_to_action(move)

    def _slot_arg(self, slot: object) -> int:
        """``slot`` as a slot number: ``IndexError`` outside ``[0, n)``, ``TypeError``
        for a non-int."""
        try:
            return index_arg(slot, "slot", self.n)
        except ValueError as err:
            raise IndexError(str(err)) from None

    def _check_actions(self, actions: Any) -> np.ndarray:
        """``step``'s checks before any game changes, in BATCH.md's order: the run
        is done, not an integer array, another shape, an action out of range."""
        if self.done:
            raise ValueError(f"the run is done: all {self._games} games have been played")
        array = np.asarray(actions)
        if array.dtype.kind not in "iu":
            raise TypeError(f"actions must be an array of integers, got dtype {array.dtype}")
        if array.shape != (self.n,):
            raise ValueError(f"actions must have shape ({self.n},), got {array.shape}")
        if array.min() < 0 or array.max() >= self.num_actions:  # two passes, no array made
            slot = int(np.flatnonzero((array < 0) | (array >= self.num_actions))[0])
            raise ValueError(f"actions[{slot}] = {array[slot]} is not an action: "
                             f"actions are 0 to {self.num_actions - 1}")
        return array

    def __repr__(self) -> str:
        return (f"<Batch n={self.n} rules={self.rules!r} seed={self._seed} start={self._start} "
                f"games={self._games} next_index={self.next_index} finished={self.finished}>")


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
