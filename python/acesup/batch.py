"""``Batch``: the native engine's many games stepped at once (docs/BATCH.md).

The games live in the engine (``acesup._core.BatchEngine``, over the Rust
``acesup::batch``), which steps them with the GIL released, on all cores for a
large batch. This wrapper checks the arguments with the code the reference Batch
uses (``acesup.encoding.BatchBase``, so that the errors are the same) and turns
the engine's buffers into NumPy arrays, each a fresh writable array that the
caller owns (PyTorch's ``torch.as_tensor`` takes it without a warning or a copy).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._core import BatchEngine, Game, Move, Rules, Stats
from .encoding import BatchBase

__all__ = ["Batch"]


class Batch(BatchBase):
    """``n`` games of one run stepped together (docs/BATCH.md), played by the native
    engine: ``Batch(n, rules=None, seed=0, start=0, auto_discard=True, *, games=None,
    scores=False)``, with the API and the arrays of ``acesup.reference.Batch``."""

    def __init__(self, n: int, rules: Rules | None = None, seed: int = 0, start: int = 0,
                 auto_discard: bool = True, *, games: int | None = None, scores: bool = False) -> None:
        self._n = self._configure(Game, Move, n, rules, seed, start, auto_discard, games, scores)
        self._engine = BatchEngine(self._n, self.rules, self._seed, self._start, self._games, auto_discard, scores)

    def _slot_bytes(self, scores: bool) -> int:
        return BatchEngine.slot_bytes(self.rules, scores)

    n = property(lambda self: self._n, doc="The number of slots.")
    next_index = property(lambda self: self._engine.next_index, doc="The next game index that no slot has taken yet.")
    finished = property(lambda self: self._engine.finished, doc="The number of games of the run that are over.")

    # --- arrays (fresh writable arrays over the bytearrays the engine copies its buffers into)

    def _rows(self, data: bytearray, dtype: Any, width: int | None = None) -> np.ndarray:
        array = np.frombuffer(data, dtype=dtype)
        return array if width is None else array.reshape(self._n, width)

    @property
    def observation(self) -> np.ndarray:
        """(n, observation_size) int8: each slot's current game (BATCH.md "Observations")."""
        return self._rows(self._engine.observation(), np.int8, self.observation_size)

    @property
    def action_mask(self) -> np.ndarray:
        """(n, num_actions) bool: the legal actions of each slot's current game."""
        return self._rows(self._engine.action_mask(), np.bool_, self.num_actions)

    @property
    def score(self) -> np.ndarray:
        """(n,) uint8: the score of each slot's current game."""
        return self._rows(self._engine.score(), np.uint8)

    @property
    def game_index(self) -> np.ndarray:
        """(n,) uint64: the game index of each slot's current game."""
        return self._rows(self._engine.game_index(), np.uint64)

    @property
    def terminated(self) -> np.ndarray:
        """(n,) bool: the game that the last step played in the slot ended with it."""
        return self._rows(self._engine.terminated(), np.bool_)

    @property
    def won(self) -> np.ndarray:
        """(n,) bool: the game that the last step ended in the slot was won."""
        return self._rows(self._engine.won(), np.bool_)

    @property
    def final_observation(self) -> np.ndarray:
        """(n, observation_size) int8: the observation of the game that the last step
        played in each slot, after its move and before the slot took a new game."""
        return self._rows(self._engine.final_observation(), np.int8, self.observation_size)

    def stats(self) -> Stats:
        """The Stats of the games of the run that are over: their histogram and, with
        ``scores=True``, their scores in game-index order."""
        return self._engine.stats()

    def game(self, slot: int) -> Game:
        """Slot ``slot``'s current game as a new Game, its moves as its history.
        ``IndexError`` outside ``[0, n)``, ``TypeError`` for a non-int."""
        return self._engine.game(self._slot_arg(slot))

    # --- stepping --------------------------------------------------------------------

    def step(self, actions: Any) -> np.ndarray:
        """Plays ``actions[i]`` in every slot i whose game is not over, then (with
        ``auto_discard``) its forced discards; refills the slots whose game ended.
        Returns the (n,) uint8 reward: the cards each slot's game discarded.

        Checked before any game changes, as the reference Batch checks: ``ValueError``
        when the run is done, for a shape other than (n,) or an action outside
        ``[0, num_actions)``; ``TypeError`` unless ``actions`` is an integer array;
        ``IllegalMoveError`` naming the first slot whose action is illegal.
        """
        actions = self._check_actions(actions).astype(np.uint8, copy=False)  # A <= 226: every action fits
        return np.frombuffer(self._engine.step(actions.tobytes()), dtype=np.uint8)

    # --- pickle: the configuration and the engine's state, whose games are replayed ---

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_engine"] = self._engine.state()
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Loads a pickled Batch, this one unchanged on an error: ``ValueError`` when
        the state's books disagree (acesup.reference.batch._books_problem) or a
        slot's actions do not replay."""
        engine = BatchEngine.restore(state["_encoding"].rules, state["_seed"], state["_start"], state["_games"],
                                     state["_auto_discard"], state["_engine"])
        self.__dict__.update(state)
        self._engine = engine
