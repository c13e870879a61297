"""``Batch``: many seeded games stepped at once over NumPy arrays (docs/BATCH.md).

This is the readable definition that a native Batch reproduces array for array.
It plays through the public Game API only; the action numbering and the
observation encoding are those of ``acesup.encoding``, shared by every engine.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..encoding import BatchBase, Encoding
from ..errors import IllegalMoveError
from .game import Game
from .moves import Move
from .rng import game_seed
from .rules import Rules
from .stats import Stats

__all__ = ["Batch", "ChanceGame"]


def _play_forced_discards(game: Game) -> list[Move]:
    """Plays the first legal discard until none is legal (STRATEGIES.md "Forced
    discards") and returns the legal moves left."""
    moves = game.legal_moves()
    while moves and moves[0].kind == "discard":
        game.play(moves[0])
        moves = game.legal_moves()
    return moves


SLOT_BYTES = 1024
CARD_BYTES = 100
"""What this Batch takes a slot at its peak, within a few percent of the resident
memory measured over runs of first-legal play: ``SLOT_BYTES``, ``CARD_BYTES`` a
card of the layout's deck (its Game, whose history grows with the game), and the
slot's rows of the arrays (the observation four times: the array, the final one,
and their copies when read; the mask twice)."""


class Batch(BatchBase):
    """``n`` games of one run stepped together (docs/BATCH.md).

    ``Batch(n, rules=None, seed=0, start=0, auto_discard=True, *, games=None,
    scores=False)``: the run plays games ``start`` to ``start + games - 1`` of master
    seed ``seed`` (all games up to index 2**64 - 1 when ``games`` is None), game i
    being ``Game.from_seed(game_seed(seed, i), rules)``. Slot i starts with the i-th
    game; when a game ends, its slot takes the next unplayed game, the slots in
    ascending order. ``ValueError`` for n < 1, games < n, a bad seed or start, or a
    run beyond index 2**64 - 1; ``TypeError`` for an argument of the wrong type.
    """

    def __init__(self, n: int, rules: Rules | None = None, seed: int = 0, start: int = 0,
                 auto_discard: bool = True, *, games: int | None = None, scores: bool = False) -> None:
        n = self._configure(Game, Move, n, rules, seed, start, auto_discard, games, scores)
        self._next = self._start  # the next unplayed game index
        self._finished = 0
        self._histogram = [0] * (self._encoding.win_score + 1)
        self._scores = bytearray()  # by game index - start, for every game dealt (scores=True)
        self._slots: list[Game] = [None] * n  # type: ignore[list-item]  # each set by _deal_into
        self._index = [0] * n
        self._active = [False] * n
        self._legal: list[list[Move]] = [[] for _ in range(n)]
        enc = self._encoding
        self._observation = np.empty((n, enc.observation_size), dtype=np.int8)
        self._mask = np.zeros((n, enc.num_actions), dtype=bool)
        self._score = np.zeros(n, dtype=np.uint8)
        self._terminated = np.zeros(n, dtype=bool)
        self._won = np.zeros(n, dtype=bool)
        for slot in range(n):
            if not self._deal_into(slot):  # games over at their start used the run up
                self._show_last_dealt(slot)
            self._show(slot)
        self._final_observation = self._observation.copy()

    def _slot_bytes(self, scores: bool) -> int:
        enc = self._encoding
        return SLOT_BYTES + CARD_BYTES * enc.deck_size + 4 * enc.observation_size + 2 * enc.num_actions

    # --- progress ----------------------------------------------------------------------

    n = property(lambda self: len(self._slots), doc="The number of slots.")
    next_index = property(lambda self: self._next, doc="The next game index that no slot has taken yet.")
    finished = property(lambda self: self._finished, doc="The number of games of the run that are over.")

    # --- arrays ----------------------------------------------------------------------

    @property
    def observation(self) -> np.ndarray:
        """(n, observation_size) int8: each slot's current game (BATCH.md "Observations")."""
        return _copy(self._observation)

    @property
    def action_mask(self) -> np.ndarray:
        """(n, num_actions) bool: the legal actions of each slot's current game."""
        return _copy(self._mask)

    @property
    def score(self) -> np.ndarray:
        """(n,) uint8: the score of each slot's current game."""
        return _copy(self._score)

    @property
    def game_index(self) -> np.ndarray:
        """(n,) uint64: the game index of each slot's current game."""
        return np.array(self._index, dtype=np.uint64)  # a new array already

    @property
    def terminated(self) -> np.ndarray:
        """(n,) bool: the game that the last step played in the slot ended with it."""
        return _copy(self._terminated)

    @property
    def won(self) -> np.ndarray:
        """(n,) bool: the game that the last step ended in the slot was won."""
        return _copy(self._won)

    @property
    def final_observation(self) -> np.ndarray:
        """(n, observation_size) int8: the observation of the game that the last step
        played in each slot, after its move and before the slot took a new game."""
        return _copy(self._final_observation)

    def stats(self) -> Stats:
        """The Stats of the games of the run that are over: their histogram and, with
        ``scores=True``, their scores in game-index order."""
        if not self._record:
            return Stats(self._histogram)
        unfinished = {index - self._start for index, active in zip(self._index, self._active) if active}
        kept = bytes(score for offset, score in enumerate(self._scores) if offset not in unfinished)
        return Stats(self._histogram, kept)

    def game(self, slot: int) -> Game:
        """Slot ``slot``'s current game as a new Game: ``Game.from_seed(game_seed(seed,
        game_index[slot]), rules)`` with the slot's moves played (its history).
        ``IndexError`` outside ``[0, n)``, ``TypeError`` for a non-int."""
        return self._slots[self._slot_arg(slot)].copy()

    # --- stepping --------------------------------------------------------------------

    def step(self, actions: Any) -> np.ndarray:
        """Plays ``actions[i]`` in every slot i whose game is not over, then (with
        ``auto_discard``) its forced discards; refills the slots whose game ended.
        Returns the (n,) uint8 reward: the cards each slot's game discarded.

        Checked before any game changes, in this order: ``ValueError`` when the run
        is done; ``TypeError`` unless ``actions`` is an integer array (or a sequence
        NumPy makes one of); ``ValueError`` for a shape other than (n,) or an action
        outside ``[0, num_actions)``; ``IllegalMoveError`` naming the first slot
        whose action is illegal, its game, the move and the R7 reason.
        """
        actions = self._check_actions(actions).tolist()
        enc = self._encoding
        for slot, action in enumerate(actions):
            if self._active[slot] and not self._mask[slot, action]:
                move = enc.moves[action]
                try:
                    self._slots[slot].copy().play(move)
                except IllegalMoveError as err:
                    raise IllegalMoveError(f"slot {slot} (game {self._index[slot]}): action {action} "
                                           f"({move}): {err}") from None
                raise AssertionError(f"the mask of slot {slot} disagrees with the game on {move}")
        reward = np.zeros(self.n, dtype=np.uint8)
        self._terminated[:] = False
        self._won[:] = False
        for slot, action in enumerate(actions):
            if not self._active[slot]:
                continue
            game = self._slots[slot]
            before = game.score
            game.play(enc.moves[action])
            moves = _play_forced_discards(game) if self._auto_discard else game.legal_moves()
            reward[slot] = game.score - before
            self._legal[slot] = moves
            self._show(slot)
        self._final_observation = self._observation.copy()
        for slot in range(self.n):
            if self._active[slot] and not self._legal[slot]:
                self._terminated[slot] = True
                self._won[slot] = self._slots[slot].is_won
                self._end(slot)
                self._deal_into(slot)
                self._show(slot)
        return reward

    # --- pickle: every attribute, the books checked on loading -----------------------

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Loads a pickled Batch: ``ValueError`` when the state's books disagree
        (``_books_problem``, the native Batch's checks and messages) or a slot said
        to be played holds a game that is over."""
        names = ("_encoding", "_start", "_games", "_record", "_next", "_finished", "_histogram", "_scores",
                 "_slots", "_index", "_active")
        if not isinstance(state, dict) or any(name not in state for name in names):
            raise ValueError("a Batch state of another shape")
        n, dealt, finished = len(state["_slots"]), state["_next"] - state["_start"], state["_finished"]
        if len(state["_index"]) != n or len(state["_active"]) != n or not finished <= dealt <= state["_games"]:
            raise ValueError("a Batch state of another shape")
        problem = _books_problem(list(zip(state["_index"], state["_active"])), dealt, finished, state["_histogram"],
                                bytes(state["_scores"]) if state["_record"] else None, state["_start"],
                                state["_encoding"].win_score)
        if problem:
            raise ValueError(problem)
        for slot, (game, index, active) in enumerate(zip(state["_slots"], state["_index"], state["_active"])):
            if active and game.is_over:
                raise ValueError(f"a Batch state whose slot {slot} plays game {index}, which is over")
        self.__dict__.update(state)

    # --- slots -----------------------------------------------------------------------

    def _deal_into(self, slot: int) -> bool:
        """Gives ``slot`` the next unplayed game whose start is not over (a game over
        at its start is counted at once), or leaves it idle when the run has none.
        Whether it dealt any game into the slot."""
        dealt = False
        while self._next < self._start + self._games:
            dealt = True
            index = self._next
            self._next += 1
            game = Game.from_seed(game_seed(self._seed, index), self.rules)
            moves = _play_forced_discards(game) if self._auto_discard else game.legal_moves()
            self._slots[slot], self._index[slot], self._legal[slot] = game, index, moves
            self._active[slot] = True
            if self._record:
                self._scores.append(0)
            if moves:
                return True
            self._end(slot)
        return dealt

    def _show_last_dealt(self, slot: int) -> None:
        """A slot that the run left without a game at the start shows the last game
        dealt, over, idle (BATCH.md "Slots")."""
        index = self._next - 1
        game = Game.from_seed(game_seed(self._seed, index), self.rules)
        if self._auto_discard:
            _play_forced_discards(game)
        self._slots[slot], self._index[slot], self._active[slot] = game, index, False

    def _end(self, slot: int) -> None:
        """Counts the slot's game, which is over, and leaves the slot idle."""
        score = self._slots[slot].score
        self._histogram[score] += 1
        self._finished += 1
        if self._record:
            self._scores[self._index[slot] - self._start] = score
        self._active[slot] = False

    def _show(self, slot: int) -> None:
        """Writes the slot's observation, mask and score."""
        game = self._slots[slot]
        self._observation[slot] = self._encoding.observation(game)
        self._mask[slot] = self._encoding.action_mask(self._legal[slot]) if self._active[slot] else False
        self._score[slot] = game.score


def _books_problem(slots: list[tuple[int, bool]], dealt: int, finished: int, histogram: list[int],
                  scores: bytes | None, start: int, win_score: int) -> str | None:
    """Why the books of a Batch state disagree with each other (so that a step
    would count a game twice, write a score where none is kept, or never end the
    run), or None when they agree: its ``slots`` (each one's game index and whether
    it is played), the games ``dealt`` from game ``start`` and ``finished``, the
    ``histogram`` of their scores (won at ``win_score``), and the ``scores`` kept
    for every game dealt (None unless ``scores=True``). The native Batch's checks,
    in its order, with its messages."""
    counted = sum(histogram)
    if len(histogram) != win_score + 1 or counted != finished:
        return (f"a Batch state whose histogram counts {counted} games in {len(histogram)} scores, "
                f"not the {finished} finished in {win_score + 1}")
    playing: set[int] = set()
    for slot, (index, active) in enumerate(slots):
        if not 0 <= index - start < dealt:
            return f"a Batch state whose slot {slot} holds game {index}, not one of the {dealt} dealt from game {start}"
        if active and index in playing:
            return f"a Batch state whose slot {slot} plays game {index}, which another slot plays"
        if active:
            playing.add(index)
    if finished + len(playing) != dealt:
        return f"a Batch state with {finished} games finished and {len(playing)} played, not the {dealt} dealt"
    if scores is None:
        return None
    if len(scores) != dealt:
        return f"a Batch state with {len(scores)} scores, not one for each of the {dealt} games dealt"
    kept = [0] * (win_score + 1)
    for offset, score in enumerate(scores):
        if start + offset not in playing:
            if score > win_score:
                kept = []
                break
            kept[score] += 1
    if kept != list(histogram):
        return "a Batch state whose scores of the finished games disagree with its histogram"
    return None


def _copy(array: np.ndarray) -> np.ndarray:
    """A writable copy that the caller owns: it may keep or change it whatever later
    steps do, and PyTorch takes it without a warning."""
    return array.copy()


CHANCE, TERMINAL = -1, -4  # OpenSpiel's numbers for the chance player and for a terminal state's


class ChanceGame:
    """A game whose cards an outside chance player deals one at a time (BATCH.md
    "Gymnasium and OpenSpiel"): ``ChanceGame(rules=None, auto_discard=True)``, the
    engine of ``acesup.openspiel``'s state, as the native ``acesup._core.ChanceGame``.

    Chance draws the first P cards, then the cards of each deal, each among the
    codes of the cards not dealt yet; the player plays Batch's actions in between
    (a deal only asks chance for its cards), and with ``auto_discard`` the forced
    discards are played for the player. The Game's stock holds the unseen cards, a
    stand-in that no rule reads before they are dealt: when chance has drawn a
    deal's cards, the Game is made again from its position (R6.5) with those cards
    at the front of its stock, and the deal played. ``actions`` (a pickle's) are
    applied in turn.
    """

    def __init__(self, rules: Rules | None = None, auto_discard: bool = True, actions: bytes = b"") -> None:
        self._encoding = Encoding(Game, Move, rules)
        self._auto_discard = bool(auto_discard)
        self._unseen = list(range(self._encoding.deck_size))  # the codes of the cards not dealt, ascending
        self._dealt: list[int] = []  # the codes of the cards dealt, in deal order
        self._pending = self._encoding.piles  # the cards chance is still to draw
        self._drawing = 0  # the cards of the deal under way
        self._game: Game | None = None  # None until the first P cards are dealt
        self._over = False  # the game is over (a cached game.is_over)
        self._history = bytearray()  # every action applied
        for action in actions:
            self.apply(action)

    def copy(self) -> ChanceGame:
        """An independent game in the same state."""
        other = object.__new__(ChanceGame)
        other.__dict__.update(self.__dict__)
        other._unseen, other._dealt, other._history = list(self._unseen), list(self._dealt), bytearray(self._history)
        other._game = None if self._game is None else self._game.copy()
        return other

    def __copy__(self) -> ChanceGame:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, object]) -> ChanceGame:
        return self.copy()

    def __reduce__(self) -> tuple[type[ChanceGame], tuple[Rules, bool, bytes]]:
        """A pickle holds the rules and every action applied; loading replays them."""
        return ChanceGame, (self.rules, self._auto_discard, bytes(self._history))

    rules = property(lambda self: self._encoding.rules, doc="The rules of the game.")
    auto_discard = property(lambda self: self._auto_discard, doc="Whether forced discards are played for the player.")
    pending = property(lambda self: self._pending, doc="The cards chance is still to draw before the player acts again.")
    dealt = property(lambda self: list(self._dealt), doc="The codes of the cards dealt so far, in deal order.")

    @property
    def game(self) -> Game | None:
        """The position as a new Game with no history (None before the first P cards
        are dealt; during a deal, the position before it)."""
        return None if self._game is None else Game.from_str(self._game.to_str())

    def current_player(self) -> int:
        """The player to move: 0, or OpenSpiel's chance (-1) or terminal (-4) player."""
        if self._pending:
            return CHANCE
        return TERMINAL if self._over else 0

    def is_chance_node(self) -> bool:
        return self._pending > 0

    def is_terminal(self) -> bool:
        return not self._pending and self._over

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions, ascending: the unseen cards' codes at a chance node, the
        player's actions, none when the game is over or for a ``player`` other than
        the one to move."""
        current = self.current_player()
        if player is not None and player != current:
            return []
        if self._pending:
            return list(self._unseen)
        return [] if self._over else self._encoding.legal_actions(self._game.legal_moves())  # type: ignore[union-attr]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The unseen cards' codes, ascending, each with its probability (uniform):
        ``ValueError`` unless chance is to move."""
        if not self._pending:
            raise ValueError("chance_outcomes called on a state that is not a chance node")
        p = 1.0 / len(self._unseen)
        return [(code, p) for code in self._unseen]

    def apply(self, action: int) -> None:
        """Chance draws the card of code ``action``, or the player plays ``action``:
        ``ValueError`` for a card already dealt or not a card, or an action outside
        [0, A), ``IllegalMoveError`` for an illegal one; the game unchanged."""
        if self._pending:
            self._draw(action)
        else:
            self._play(action)
        self._history.append(action)

    def returns(self) -> list[float]:
        """``[score]`` once the game is over, else ``[0.0]``."""
        return [float(self._game.score) if self.is_terminal() else 0.0]  # type: ignore[union-attr]

    def observation(self) -> list[int]:
        """The observation row of BATCH.md (before the first cards are dealt: empty
        piles, no discards, a stock of D cards)."""
        encoding = self._encoding
        if self._game is not None:
            return encoding.observation(self._game)
        return [-1] * encoding.discards_offset + [0] * encoding.deck_size + [encoding.deck_size]

    def __str__(self) -> str:
        """The position drawn (R6.6), or the cards dealt before there is one, and the
        cards still to draw during a deal."""
        if self._game is None:
            return "dealing: " + " ".join(str(self._encoding.deck[code]) for code in self._dealt)
        text = str(self._game)
        return f"{text}\ndealing {self._pending} more" if self._pending else text

    def _play(self, action: int) -> None:
        game, encoding = self._game, self._encoding
        assert game is not None  # the first cards are dealt before the player acts
        move = encoding.action_to_move(action)
        if move.kind == "deal":
            trial = game.copy()
            trial.play(move)
            self._pending = self._drawing = len(game.stock) - len(trial.stock)
            return
        game.play(move)
        self._discard_forced()

    def _draw(self, action: int) -> None:
        unseen, deck = self._unseen, self._encoding.deck
        if action not in unseen:
            if not 0 <= action < len(deck):
                raise ValueError(f"chance action {action} is not a card: the card codes are 0 to {len(deck) - 1}")
            raise ValueError(f"chance action {action} is {deck[action]}, which is already dealt")
        unseen.remove(action)
        self._dealt.append(action)
        self._pending -= 1
        if not self._pending:
            self._deal()

    def _deal(self) -> None:
        """Plays the deal whose cards chance has drawn (at the start, deals the first P
        cards), then the forced discards."""
        encoding, deck = self._encoding, self._encoding.deck
        if self._game is None:
            self._game = Game.from_deck([deck[code] for code in self._dealt + self._unseen], encoding.rules)
        else:
            # The position before the deal, its stock the deal's cards then the unseen ones.
            piles, _, discards, rules = self._game.to_str().split(" ")
            stock = "".join(str(deck[code]) for code in self._dealt[-self._drawing:] + self._unseen)
            self._game = Game.from_str(f"{piles} {stock} {discards} {rules}")
            self._game.play(Move.deal())
        self._discard_forced()

    def _discard_forced(self) -> None:
        """With auto_discard, plays the forced discards; then notes whether the game is over."""
        game = self._game
        assert game is not None
        if self._auto_discard:
            _play_forced_discards(game)
        self._over = game.is_over
