"""Gymnasium environments for Aces Up (docs/BATCH.md "Gymnasium and OpenSpiel",
docs/SEEDS.md for the deals each seed plays).

Importing this module (``acesup.gym``, loaded on first use after ``import
acesup``) registers ``"acesup/AcesUp-v0"``; Gymnasium 1.x has no plugin discovery,
so ``gymnasium.make("acesup.gym:acesup/AcesUp-v0")`` imports it by itself.
``gymnasium.make`` gives ``AcesUpEnv`` (one game) and ``gymnasium.make_vec(...,
vectorization_mode="vector_entry_point")`` gives ``AcesUpVectorEnv`` (one Batch);
``env_fns`` makes the sub-environments of Gymnasium's and SB3's vector envs so
that they play the same deals. Actions and observations are those of BATCH.md;
the reward of a step is the number of cards it discarded, and an episode's return
is its score. Needs ``pip install 'acesup[gym]'``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv
from gymnasium.vector.utils import batch_space

from .arguments import U64, int_arg
from .display import game_svg
from .encoding import Encoding, engine_module, engine_rules
from .raster import game_rgb

__all__ = ["AcesUpEnv", "AcesUpVectorEnv", "ENV_ID", "action_masks", "env_fns"]

ENV_ID = "acesup/AcesUp-v0"
_ILLEGAL = ("terminate", "raise")


def _observation_space(encoding: Encoding) -> spaces.Box:
    """The Box of one observation row, with each cell's own bounds (BATCH.md)."""
    grid, deck = encoding.discards_offset, encoding.deck_size
    low = np.array([-1] * grid + [0] * deck + [0], dtype=np.int8)
    high = np.array([deck - 1] * grid + [1] * deck + [deck - encoding.piles], dtype=np.int8)
    return spaces.Box(low, high, dtype=np.int8)


def _reset_args(seed: object, options: object, names: tuple[str, ...]) -> Mapping[Any, Any]:
    """``reset``'s seed and options checked before anything changes (a reset that
    raises leaves the environment as it was): ``TypeError`` for a seed that is not
    an int (bools included) or options that are not a dict, ``ValueError`` for a
    seed outside ``[0, 2**64)`` or an option not in ``names``. Returns the options."""
    if seed is not None:
        int_arg(seed, "seed", high=U64)
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(f"options must be a dict or None, got {type(options).__name__}")
    unknown = sorted(set(options) - set(names), key=repr)
    if unknown:
        allowed = f"the only one is {names[0]!r}" if names else "there are none"
        raise ValueError(f"unknown reset options: {unknown} ({allowed})")
    return options


def _master_seed(rng: np.random.Generator) -> int:
    """A master seed drawn from the environment's generator (for reset() without a seed)."""
    return int(rng.integers(0, 2**63)) * 2 + int(rng.integers(0, 2))


class AcesUpEnv(gymnasium.Env):
    """One game of Aces Up as a Gymnasium environment.

    ``AcesUpEnv(rules=None, engine=None, auto_discard=True, render_mode=None,
    illegal_action="terminate", *, rank=0, num_envs=1)``: ``rules`` a Rules, rules
    text or None; ``engine`` ``"native"``, ``"reference"`` or None (native when it
    has a Batch); ``render_mode`` ``"ansi"`` (the tableau), ``"rgb_array"``, ``"svg"``
    or None. ``reset(seed=s)`` deals game ``rank`` of master seed ``s - rank`` and each
    later ``reset()`` the game ``num_envs`` further on; ``options={"game_index": i}``
    deals game i. With the defaults that is game 0 of s, then 1, 2, ...; as
    sub-environment ``rank`` of ``num_envs`` that a vector env seeds ``S + rank``
    (``env_fns``), the sub-environments deal games 0 to num_envs - 1 of S first, as
    ``simulate`` and the native vector env do (docs/SEEDS.md).

    The reward of a step is the cards it discarded, and the first step of an
    episode also counts the forced discards played at its deal, so that an
    episode's return is its score. An illegal action ends the episode with
    ``info["illegal_action"] = True`` and reward 0 (``illegal_action="raise"``
    raises ``IllegalMoveError`` instead). ``info`` holds ``action_mask``, ``score``,
    ``game_index`` and ``won``; the mask is also ``action_masks()``. After the
    episode ends, ``step`` raises ``RuntimeError`` until ``reset``; a ``reset`` with a
    bad seed or option raises and changes nothing.
    """

    metadata = {"render_modes": ["ansi", "rgb_array", "svg"], "render_fps": 4}

    def __init__(self, rules: Any = None, engine: str | None = None, auto_discard: bool = True,
                 render_mode: str | None = None, illegal_action: str = "terminate", *,
                 rank: int = 0, num_envs: int = 1) -> None:
        self._num_envs = int_arg(num_envs, "num_envs", low=1, high=U64)
        self._rank = int_arg(rank, "rank", high=self._num_envs)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}")
        if illegal_action not in _ILLEGAL:
            raise ValueError(f"illegal_action must be one of {_ILLEGAL}, got {illegal_action!r}")
        if not isinstance(auto_discard, bool):
            raise TypeError(f"auto_discard must be True or False, got {type(auto_discard).__name__}")
        self._engine = engine_module(engine, "Batch" if engine is None else "Game")
        self._encoding = Encoding.of(self._engine, engine_rules(self._engine, rules))
        self.render_mode = render_mode
        self.auto_discard = auto_discard
        self.illegal_action = illegal_action
        self.action_space = spaces.Discrete(self._encoding.num_actions)
        self.observation_space = _observation_space(self._encoding)
        self._master: int | None = None
        self._index = 0
        self._game: Any = None
        self._rewarded = 0  # the score that the episode's rewards have counted so far
        self._legal: list[Any] = []
        self._ended = False  # the episode ended with an illegal action (the game itself goes on)

    @property
    def rules(self) -> Any:
        return self._encoding.rules

    @property
    def game(self) -> Any:
        """A copy of the game in play (None before the first reset)."""
        return None if self._game is None else self._game.copy()

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        index = _reset_args(seed, options, ("game_index",)).get("game_index")
        if index is not None:
            index = int_arg(index, "options['game_index']", high=U64)
        if seed is not None and seed < self._rank:
            raise ValueError(f"seed must be at least rank ({self._rank}): a vector env seeds sub-environment "
                             f"rank with its seed + rank, got {seed}")
        super().reset(seed=seed)
        self._ended = False
        if seed is not None or self._master is None:
            self._master = seed - self._rank if seed is not None else _master_seed(self.np_random)
            self._index = self._rank
        else:
            self._index = (self._index + self._num_envs) % U64
        if index is not None:
            self._index = index
        engine = self._engine
        self._game = engine.Game.from_seed(engine.game_seed(self._master, self._index), self.rules)
        self._legal = self._forced_discards()
        self._rewarded = 0
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._game is None:
            raise RuntimeError("call reset() before step()")
        if not self._legal:
            raise RuntimeError("the game is over: call reset() to deal the next one")
        if self._ended:
            raise RuntimeError("the episode ended with an illegal action: call reset() to deal the next game")
        move = self._encoding.action_to_move(action)
        if move not in self._legal:
            if self.illegal_action == "raise":
                self._game.play(move)  # raises IllegalMoveError with the R7 reason
            self._ended = True
            return self._observation(), 0.0, True, False, self._info(illegal_action=True)
        self._game.play(move)
        self._legal = self._forced_discards()
        reward = float(self._game.score - self._rewarded)  # the deal's forced discards too, on the first step
        self._rewarded = self._game.score
        return self._observation(), reward, not self._legal, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions as a bool array (sb3-contrib's MaskablePPO asks for this)."""
        mask = np.zeros(self._encoding.num_actions, dtype=bool)
        mask[self._encoding.legal_actions(self._legal)] = True
        return mask

    def render(self) -> str | np.ndarray | None:
        """The game in play: the R6.6 tableau (``"ansi"``), an RGB image of a fixed
        size for the rules (``"rgb_array"``), or the notebook picture (``"svg"``)."""
        if self._game is None or self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            return str(self._game)
        if self.render_mode == "rgb_array":
            return game_rgb(self._game, self._encoding.max_height)
        return game_svg(self._game)

    def _forced_discards(self) -> list[Any]:
        moves: list[Any] = self._game.legal_moves()  # the Moves of the engine at hand
        while self.auto_discard and moves and moves[0].kind == "discard":
            self._game.play(moves[0])
            moves = self._game.legal_moves()
        return moves

    def _observation(self) -> np.ndarray:
        return np.array(self._encoding.observation(self._game), dtype=np.int8)

    def _info(self, illegal_action: bool = False) -> dict[str, Any]:
        game = self._game
        info = {"action_mask": self.action_masks(), "score": game.score, "game_index": self._index,
                "won": game.is_won}
        if illegal_action:
            info["illegal_action"] = True
        return info


class AcesUpVectorEnv(VectorEnv):
    """``num_envs`` games stepped together by one Batch, with same-step autoreset:
    a step that ends a game returns the next game's observation, the ended one in
    ``info["final_obs"]`` and its info (``action_mask``, ``score``, ``game_index``,
    ``won``) in ``info["final_info"]``.

    ``AcesUpVectorEnv(num_envs, rules=None, engine=None, auto_discard=True)``;
    ``engine`` None picks the native Batch when there is one. Illegal actions raise
    ``IllegalMoveError`` (Batch.step). ``info`` holds, for each slot's current game,
    ``action_mask`` (also ``action_masks()``), ``score``, ``game_index`` and ``won``,
    the keys of ``AcesUpEnv``. As there, a game's first step also counts the forced
    discards of its deal, so that a game's rewards add up to its score.
    ``reset(seed=s)`` starts at game 0 of master seed s; a later ``reset()`` goes on
    with the next game indices.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int, rules: Any = None, engine: str | None = None, auto_discard: bool = True,
                 **ignored: Any) -> None:
        # make_vec passes the spec's max_episode_steps and render_mode; neither applies here.
        unknown = set(ignored) - {"max_episode_steps", "render_mode"}
        if unknown:
            raise TypeError(f"AcesUpVectorEnv got unexpected arguments: {sorted(unknown)}")
        self._engine = engine_module(engine, "Batch")
        self._rules = engine_rules(self._engine, rules)
        self._auto_discard = auto_discard
        self._batch = self._engine.Batch(num_envs, self._rules, auto_discard=auto_discard)
        self._encoding = encoding = Encoding.of(self._engine, self._rules)
        self.num_envs = num_envs
        self.single_action_space = spaces.Discrete(encoding.num_actions)
        self.single_observation_space = _observation_space(encoding)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._master: int | None = None
        self._unrewarded = np.zeros(num_envs, dtype=np.float64)  # each slot's deal discards, for its first step
        self._index = np.zeros(num_envs, dtype=np.uint64)  # each slot's game index, before the step

    @property
    def batch(self) -> Any:
        """The Batch that plays the games."""
        return self._batch

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        _reset_args(seed, options, ())
        super().reset(seed=seed)
        start = 0
        if seed is not None or self._master is None:
            self._master = seed if seed is not None else _master_seed(self.np_random)
        else:
            start = self._batch.next_index
        self._batch = batch = self._engine.Batch(self.num_envs, self._rules, self._master, start, self._auto_discard)
        score = batch.score
        self._unrewarded = score.astype(np.float64)
        return batch.observation, self._info(score)

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        batch = self._batch
        ended_index = self._index
        reward = batch.step(actions) + self._unrewarded
        terminated, score = batch.terminated, batch.score
        self._unrewarded = np.where(terminated, score, 0.0)  # the new games' deal discards
        info = self._info(score)
        if terminated.any():
            final = batch.final_observation
            enc = self._encoding
            final_info = {"action_mask": np.zeros_like(info["action_mask"]),
                          "score": final[:, enc.discards_offset:enc.stock_offset].sum(axis=1),  # the discard flags
                          "game_index": ended_index, "won": batch.won}
            info["final_obs"], info["_final_obs"] = final, terminated
            info["final_info"] = {**final_info, **{f"_{key}": terminated for key in final_info}}
            info["_final_info"] = terminated
        return batch.observation, reward, terminated, np.zeros(self.num_envs, dtype=bool), info

    def action_masks(self) -> np.ndarray:
        """(num_envs, A) bool: the legal actions of each slot's current game."""
        mask: np.ndarray = self._batch.action_mask
        return mask

    def _info(self, score: np.ndarray) -> dict[str, Any]:
        """The slots' current games: the keys of ``AcesUpEnv``'s info, each with its
        ``_key`` array of Gymnasium's vector infos (every slot has every key)."""
        self._index = self._batch.game_index
        info = {"action_mask": self.action_masks(), "score": score, "game_index": self._index,
                "won": score == self._encoding.win_score}
        every = np.ones(self.num_envs, dtype=bool)
        return {**info, **{f"_{key}": every for key in info}}


def action_masks(env: gymnasium.Env[Any, Any] | VectorEnv[Any, Any, Any]) -> np.ndarray:
    """The legal-action mask of ``env``, however it was made: (A,) bool for one
    environment (wrapped or not), (n, A) for a vector env: the native one, or
    Gymnasium's ``SyncVectorEnv``/``AsyncVectorEnv`` over ``AcesUpEnv`` (whose
    sub-environments it asks), wrapped or not. ``TypeError`` for another vector env."""
    if isinstance(env, VectorEnv):
        inner = env.unwrapped
        if isinstance(inner, AcesUpVectorEnv):
            return inner.action_masks()
        if isinstance(inner, (SyncVectorEnv, AsyncVectorEnv)):
            return np.stack(inner.call("action_masks"))
        raise TypeError(f"action_masks() takes an environment of acesup.gym, got a {type(inner).__name__}")
    return np.asarray(env.get_wrapper_attr("action_masks")())


def env_fns(num_envs: int, **kwargs: Any) -> list[Callable[[], gymnasium.Env[np.ndarray, np.int64]]]:
    """The makers of ``num_envs`` sub-environments for a vector env that seeds
    sub-environment i with S + i (Gymnasium's ``SyncVectorEnv`` and
    ``AsyncVectorEnv``, SB3's ``DummyVecEnv`` and ``SubprocVecEnv``): maker i is
    ``gymnasium.make(ENV_ID, rank=i, num_envs=num_envs, **kwargs)``, so that seed S
    deals games 0 to num_envs - 1 of master seed S first, sub-environment i then
    games i + num_envs, i + 2 num_envs, ... (docs/SEEDS.md). The makers pickle, for
    the vector envs that run each in a process of its own."""
    count = int_arg(num_envs, "num_envs", low=1, high=U64)
    return [functools.partial(gymnasium.make, ENV_ID, rank=rank, num_envs=count, **kwargs) for rank in range(count)]


if ENV_ID not in gymnasium.registry:
    # Neither OrderEnforcing (AcesUpEnv raises on a step before reset itself) nor the
    # passive checker (tests/batch/test_gym.py runs the full check_env): Gymnasium 1.x
    # wrappers forward no method, and gymnasium.make(ENV_ID).action_masks() must work.
    gymnasium.register(id=ENV_ID, entry_point="acesup.gym:AcesUpEnv", vector_entry_point="acesup.gym:AcesUpVectorEnv",
                       order_enforce=False, disable_env_checker=True)
