"""Aces Up as an OpenSpiel game, ``"python_acesup"`` (docs/BATCH.md "Gymnasium and
OpenSpiel"), after open_spiel/python/games/kuhn_poker.py.

One player; every card dealt, the first P and those of each deal, is an explicit
chance node whose outcomes are the unseen cards, uniformly (a card is its code of
BATCH.md). The player's actions are Batch's actions; with ``auto_discard`` (the
default) the forced discards are played for the player, so a decision is a fill
or a deal. The return is the score, at the end. Importing this module (or
``acesup.openspiel``, loaded on first use) registers the game:
``pyspiel.load_game("python_acesup", {"rules": "easy"})``. Needs
``pip install 'acesup[openspiel]'``.

Chance deals the cards in the deck's deal order, so ``game.chance_actions(seed,
index)``, played at the chance nodes, deals game ``index`` of master seed ``seed``:
the deal that ``simulate`` and ``Batch`` play (docs/SEEDS.md).

The state is a ``ChanceGame`` of the engine (``state.chance``: the native
``acesup._core.ChanceGame``, or ``acesup.reference.batch.ChanceGame``), which keeps
the cards dealt, the unseen ones and the position, and answers each of OpenSpiel's
calls in one call: the state only forwards them.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any

import numpy as np
import pyspiel

from .encoding import Encoding, engine_module, engine_rules

__all__ = ["AcesUpGame", "AcesUpState", "AcesUpObserver"]

_DEFAULTS = {"rules": "standard", "engine": "native", "auto_discard": True}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_acesup",
    long_name="Python Aces Up",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,  # every dealt card is seen
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=1,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


@functools.lru_cache(maxsize=None)
def _encoding(engine: str, rules: str) -> Encoding:
    module = engine_module(engine)
    return Encoding.of(module, engine_rules(module, rules))


def _chance_game_class(engine: ModuleType) -> Any:
    """The ChanceGame of the engine module ``engine``."""
    if engine.__name__ == "acesup":
        from . import _core
        return _core.ChanceGame
    from .reference import batch
    return batch.ChanceGame


class AcesUpGame(pyspiel.Game):
    """The game for one set of rules: parameters ``rules`` (R6.4 text or a preset
    name), ``engine`` (``"native"`` or ``"reference"``) and ``auto_discard``.
    ``ValueError`` under ``relocate_single``, whose repetitions have no bound on a
    game's length."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        encoding = _encoding(params["engine"], params["rules"])
        if encoding.rules.relocate_single:
            raise ValueError("python_acesup does not play relocate_single: a lone card may move forever")
        self.encoding, self.auto_discard = encoding, bool(params["auto_discard"])
        self.engine = engine_module(params["engine"])
        self.start = _chance_game_class(self.engine)(encoding.rules, self.auto_discard)  # copied by each state
        self._codes = {card.index: code for code, card in enumerate(encoding.deck)}
        p, d, w = encoding.piles, encoding.deck_size, encoding.win_score
        # R4.3: at most W discards and D - P deals, and P - 1 fills after each and at the start.
        length = w + (d - p) + (p - 1) * (w + (d - p) + 1)
        info = pyspiel.GameInfo(num_distinct_actions=encoding.num_actions, max_chance_outcomes=d, num_players=1,
                                min_utility=0.0, max_utility=float(w), utility_sum=None, max_game_length=length)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> AcesUpState:
        return AcesUpState(self)

    def chance_actions(self, seed: int, index: int = 0) -> list[int]:
        """The chance actions that deal game ``index`` of master seed ``seed`` (RNG.md),
        in the order the chance nodes ask for them: the codes of
        ``deck_from_seed(game_seed(seed, index), rules)``, the first P cards for the
        piles at the start, then the cards of each deal. ``ValueError`` or
        ``TypeError`` as ``game_seed`` raises for a bad seed or index."""
        engine = self.engine
        deck = engine.deck_from_seed(engine.game_seed(seed, index), self.encoding.rules)
        return [self._codes[card.index] for card in deck]

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> AcesUpObserver:
        return AcesUpObserver(self.encoding, params)


class AcesUpState(pyspiel.State):
    """A game under way, dealt by chance (``pending`` cards still to be drawn):
    OpenSpiel's calls forwarded to ``chance``, the engine's ChanceGame, each in one
    call. The methods that a Python caller calls directly (``is_chance_node``,
    ``legal_actions``, ``chance_outcomes``, ``is_terminal``, ``returns``) skip the
    round trip through C++ that pyspiel's own would make."""

    def __init__(self, game: AcesUpGame) -> None:
        super().__init__(game)
        self.encoding: Encoding = game.encoding
        self.chance: Any = game.start.copy()

    # --- the OpenSpiel API ------------------------------------------------------------

    def current_player(self) -> int:
        return self.chance.current_player()

    def is_chance_node(self) -> bool:
        return self.chance.is_chance_node()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As pyspiel's: the chance outcomes' codes at a chance node, none for a player
        other than the one to move."""
        return self.chance.legal_actions(player)

    def _legal_actions(self, player: int) -> list[int]:
        return self.chance.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.chance.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.chance.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{self.encoding.deck[action]}"
        return str(self.encoding.action_to_move(action))

    def is_terminal(self) -> bool:
        return self.chance.is_terminal()

    def returns(self) -> list[float]:
        return self.chance.returns()

    def __str__(self) -> str:
        return str(self.chance)

    # --- the game dealt so far ----------------------------------------------------------

    @property
    def pending(self) -> int:
        """The cards chance is still to draw before the player acts again."""
        return self.chance.pending

    @property
    def dealt(self) -> list[Any]:
        """The cards dealt so far, in deal order."""
        deck = self.encoding.deck
        return [deck[code] for code in self.chance.dealt]

    @property
    def auto_discard(self) -> bool:
        """Whether the forced discards are played for the player."""
        return self.chance.auto_discard

    @property
    def game(self) -> Any:
        """The position as a new engine Game with no history: None before the first P
        cards are dealt, and during a deal the position before it."""
        return self.chance.game


class AcesUpObserver:
    """The observation of BATCH.md as a float32 tensor (``dict`` views: ``piles``
    (P, H), ``discarded`` (D,), ``stock`` (1,)), and the tableau as its string."""

    def __init__(self, encoding: Encoding, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.encoding = encoding
        self.tensor = np.zeros(encoding.observation_size, np.float32)
        grid, stock = encoding.discards_offset, encoding.stock_offset
        self.dict = {"piles": self.tensor[:grid].reshape(encoding.piles, encoding.max_height),
                     "discarded": self.tensor[grid:stock], "stock": self.tensor[stock:]}

    def set_from(self, state: AcesUpState, player: int) -> None:
        self.tensor[:] = state.chance.observation()

    def string_from(self, state: AcesUpState, player: int) -> str:
        return str(state)


pyspiel.register_game(_GAME_TYPE, AcesUpGame)
