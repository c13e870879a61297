"""Aces Up as an OpenSpiel game, ``"python_acesup"`` (docs/BATCH.md "Gymnasium and
OpenSpiel"), after open_spiel/python/games/kuhn_poker.py.

One player; every card dealt, the first P and those of each deal, is an explicit
chance node whose outcomes are the unseen cards, uniformly (a card is its code of
BATCH.md). The player's actions are Batch's actions; with ``auto_discard`` (the
default) the forced discards are played for the player, so a decision is a fill
or a deal. The return is the score, at the end. Importing this module registers
the game: ``pyspiel.load_game("python_acesup", {"rules": "easy"})``. Needs
``pip install 'acesup[openspiel]'``.

The state keeps the cards dealt so far and the moves; its Game is dealt from
those cards followed by the unseen ones in index order, a stand-in for a stock
that chance has not drawn yet, which no rule reads before it is dealt (and which
is rebuilt after every deal).
"""

from __future__ import annotations

import functools
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
        p, d, w = encoding.piles, encoding.deck_size, encoding.win_score
        # R4.3: at most W discards and D - P deals, and P - 1 fills after each and at the start.
        length = w + (d - p) + (p - 1) * (w + (d - p) + 1)
        info = pyspiel.GameInfo(num_distinct_actions=encoding.num_actions, max_chance_outcomes=d, num_players=1,
                                min_utility=0.0, max_utility=float(w), utility_sum=None, max_game_length=length)
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> AcesUpState:
        return AcesUpState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> AcesUpObserver:
        return AcesUpObserver(self.encoding, params)


class AcesUpState(pyspiel.State):
    """A position, or a deal under way: ``pending`` cards still to be drawn by chance."""

    def __init__(self, game: AcesUpGame) -> None:
        super().__init__(game)
        self.encoding: Encoding = game.encoding
        self.auto_discard: bool = game.auto_discard
        self.dealt: list[Any] = []  # the cards dealt so far, in deal order
        self.moves: list[Any] = []  # every move played, forced discards included
        self.pending = self.encoding.piles  # the first card of every pile
        self.game: Any = None  # None until the first P cards are dealt

    # --- the OpenSpiel API ------------------------------------------------------------

    def current_player(self) -> int:
        if self.pending:
            return pyspiel.PlayerId.CHANCE
        if self.game.is_over:
            return pyspiel.PlayerId.TERMINAL
        return 0

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoding.legal_actions(self.game.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.is_chance_node():
            raise ValueError("chance_outcomes called on a state that is not a chance node")
        unseen = self._unseen_codes()
        return [(code, 1.0 / len(unseen)) for code in unseen]

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._check_chance(action)
            self.dealt.append(self.encoding.deck[action])
            self.pending -= 1
            if not self.pending:
                self._redeal()
            return
        move = self.encoding.action_to_move(action)
        if move.kind == "deal":
            trial = self.game.copy()
            trial.play(move)
            self.pending = len(self.game.stock) - len(trial.stock)
            self.moves.append(move)
            return
        self._play(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{self.encoding.deck[action]}"
        return str(self.encoding.action_to_move(action))

    def is_terminal(self) -> bool:
        return not self.pending and self.game.is_over

    def returns(self) -> list[float]:
        return [float(self.game.score) if self.is_terminal() else 0.0]

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {' '.join(map(str, self.dealt))}"
        text = str(self.game)
        return f"{text}\ndealing {self.pending} more" if self.pending else text

    # --- dealing ----------------------------------------------------------------------

    def _unseen_codes(self) -> list[int]:
        seen = {card.index for card in self.dealt}
        return [code for code, card in enumerate(self.encoding.deck) if card.index not in seen]

    def _check_chance(self, action: int) -> None:
        """``ValueError``, before anything changes, unless ``action`` is the code of
        a card that chance may still deal."""
        deck = self.encoding.deck
        if not 0 <= action < len(deck):
            raise ValueError(f"chance action {action} is not a card: the card codes are 0 to {len(deck) - 1}")
        if action not in self._unseen_codes():
            raise ValueError(f"chance action {action} is {deck[action]}, which is already dealt")

    def _redeal(self) -> None:
        """Deals the Game anew from the cards drawn so far (the unseen ones after them
        in index order) and replays the moves, the last deal included."""
        unseen = [self.encoding.deck[code] for code in self._unseen_codes()]
        game = self.encoding.Game.from_deck(self.dealt + unseen, self.encoding.rules)
        for move in self.moves:
            game.play(move)
        self.game = game
        self._play(None)

    def _play(self, move: Any) -> None:
        """Plays ``move`` (None for none), then the forced discards with auto_discard."""
        if move is not None:
            self.game.play(move)
            self.moves.append(move)
        while self.auto_discard:
            moves = self.game.legal_moves()
            if not moves or moves[0].kind != "discard":
                return
            self.game.play(moves[0])
            self.moves.append(moves[0])


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
        if state.game is None:
            self.tensor.fill(0)
            self.dict["piles"].fill(-1)
            self.dict["stock"][0] = self.encoding.deck_size
            return
        self.tensor[:] = self.encoding.observation(state.game)

    def string_from(self, state: AcesUpState, player: int) -> str:
        return str(state)


pyspiel.register_game(_GAME_TYPE, AcesUpGame)
