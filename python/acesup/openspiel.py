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

The state plays one Game of the engine. Its stock holds the unseen cards, a
stand-in for the cards chance has not drawn yet, which no rule reads before they
are dealt; when chance has drawn a deal's cards, the Game is made again from its
position (R6.5) with those cards at the front of the stock, and the deal played.
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
        self.engine = engine_module(params["engine"])
        self.card_text = tuple(str(card) for card in encoding.deck)  # by code, for the R6.5 stock
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
    """A position, or a deal under way: ``pending`` cards still to be drawn by chance."""

    def __init__(self, game: AcesUpGame) -> None:
        super().__init__(game)
        self.encoding: Encoding = game.encoding
        self.auto_discard: bool = game.auto_discard
        self._card_text = game.card_text
        self.dealt: list[Any] = []  # the cards dealt so far, in deal order
        self._unseen = list(range(self.encoding.deck_size))  # the codes of the cards not dealt, ascending
        self.pending = self.encoding.piles  # the first card of every pile
        self._drawing = 0  # the cards of the deal under way
        self.game: Any = None  # None until the first P cards are dealt
        self._over = False  # the game is over (a cached game.is_over)

    # --- the OpenSpiel API ------------------------------------------------------------

    def current_player(self) -> int:
        if self.pending:
            return pyspiel.PlayerId.CHANCE
        if self._over:
            return pyspiel.PlayerId.TERMINAL
        return 0

    def is_chance_node(self) -> bool:
        """As pyspiel's, without the round trip through C++ for a Python caller."""
        return self.pending > 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As pyspiel's (the chance outcomes' codes at a chance node, none for a
        player other than the one to move), without the round trips through C++
        for a Python caller."""
        current = self.current_player()
        if player is not None and player != current:
            return []
        if self.pending:
            return list(self._unseen)
        return [] if self._over else self._legal_actions(current)

    def _legal_actions(self, player: int) -> list[int]:
        return self.encoding.legal_actions(self.game.legal_moves())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.pending:
            raise ValueError("chance_outcomes called on a state that is not a chance node")
        unseen = self._unseen
        p = 1.0 / len(unseen)
        return [(code, p) for code in unseen]

    def _apply_action(self, action: int) -> None:
        if self.pending:
            self._draw(action)
            return
        move = self.encoding.action_to_move(action)
        if move.kind == "deal":
            trial = self.game.copy()
            trial.play(move)
            self.pending = self._drawing = len(self.game.stock) - len(trial.stock)
            return
        self.game.play(move)
        self._forced_discards()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Deal:{self.encoding.deck[action]}"
        return str(self.encoding.action_to_move(action))

    def is_terminal(self) -> bool:
        return not self.pending and self._over

    def returns(self) -> list[float]:
        return [float(self.game.score) if self.is_terminal() else 0.0]

    def __str__(self) -> str:
        if self.game is None:
            return f"dealing: {' '.join(map(str, self.dealt))}"
        text = str(self.game)
        return f"{text}\ndealing {self.pending} more" if self.pending else text

    # --- dealing ----------------------------------------------------------------------

    def _draw(self, action: int) -> None:
        """Chance deals the card of code ``action``: ``ValueError``, before anything
        changes, unless it is a card that chance may still deal."""
        unseen, deck = self._unseen, self.encoding.deck
        if action not in unseen:
            if not 0 <= action < len(deck):
                raise ValueError(f"chance action {action} is not a card: the card codes are 0 to {len(deck) - 1}")
            raise ValueError(f"chance action {action} is {deck[action]}, which is already dealt")
        unseen.remove(action)
        self.dealt.append(deck[action])
        self.pending -= 1
        if not self.pending:
            self._deal()

    def _deal(self) -> None:
        """Plays the deal whose cards chance has drawn (or, at the start, deals the
        first P cards), then the forced discards."""
        encoding, unseen = self.encoding, self._unseen
        if self.game is None:
            deck = encoding.deck
            self.game = encoding.Game.from_deck(self.dealt + [deck[code] for code in unseen], encoding.rules)
        else:
            # The position before the deal, its stock the deal's cards then the unseen ones.
            piles, stock, discards, rules = self.game.to_str().split(" ")
            text = self._card_text
            stock = "".join(map(str, self.dealt[-self._drawing:])) + "".join(map(text.__getitem__, unseen))
            self.game = encoding.Game.from_str(f"{piles} {stock} {discards} {rules}")
            self.game.play(encoding.moves[encoding.deal_action])
        self._forced_discards()

    def _forced_discards(self) -> None:
        """With auto_discard, plays the forced discards; then notes whether the game is over."""
        game = self.game
        while self.auto_discard:
            moves = game.legal_moves()
            if not moves or moves[0].kind != "discard":
                break
            game.play(moves[0])
        self._over = game.is_over


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
