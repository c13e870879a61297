"""``evaluate``: a vectorised policy played over seeded games through a ``Batch``
(docs/BATCH.md "evaluate"), written once for both engines.

A policy is a callable ``policy(observation, action_mask) -> actions``: NumPy in
(the rows of the games still played, docs/BATCH.md "Observations"), NumPy out
(one action a row). ``evaluate`` plays it over games ``start .. start + games - 1``
of a master seed, the deals that ``simulate`` plays, in a ``Batch`` that plays the
forced discards as the Gymnasium environments do, and returns the ``Stats`` that
``simulate`` returns. Each engine binds it to its own ``Batch`` and ``simulate``
with ``evaluate_in``, as ``compare`` is bound with ``compare_in``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, Protocol, TypeVar

import numpy as np
from .arguments import U64, int_arg
from .errors import IllegalMoveError
from .progress import reporter
from .resources import check_scores_fit

__all__ = ["DEFAULT_BATCH", "Evaluate", "Policy", "evaluate_in"]

DEFAULT_BATCH = 1024
"""The slots of the Batch that ``evaluate`` plays in by default: large enough that
the policy's call and NumPy's overhead are spread over a thousand decisions, small
enough that a torch model's activations stay small."""

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""``policy(observation, action_mask) -> actions``: (k, observation_size) int8 and
(k, num_actions) bool arrays in, k integer actions out."""

S = TypeVar("S", covariant=True)  # the Stats of an engine


class Evaluate(Protocol[S]):
    """The signature of ``evaluate`` (``acesup.evaluate``, ``acesup.reference.evaluate``)."""

    def __call__(self, policy: Policy, games: int, *, rules: Any = None, seed: int = 0, start: int = 0,
                 batch: int = DEFAULT_BATCH, scores: bool = False, progress: bool = False,
                 callback: Callable[[int, int], object] | None = None) -> S: ...


def _checked_actions(returned: object, mask: np.ndarray, slots: np.ndarray | None, run: Any) -> np.ndarray:
    """The policy's ``returned`` actions for the rows of ``mask`` (the slots
    ``slots`` of ``run``, or all of them when None) as an integer array, checked:
    ``TypeError`` unless an integer array, ``ValueError`` for another shape than
    one action a row or an action outside ``[0, num_actions)``,
    ``IllegalMoveError`` naming the first row whose action is illegal, its game,
    the move and the R7 reason."""
    actions = np.asarray(returned)
    if actions.dtype.kind not in "iu":
        kind = "" if isinstance(returned, np.ndarray) else f" ({type(returned).__name__})"
        raise TypeError(f"the policy must return an array of integer actions, got dtype {actions.dtype}{kind}")
    rows = len(mask)
    if actions.shape != (rows,):
        raise ValueError(f"the policy must return one action for each of the {rows} rows of the observation, "
                         f"shape ({rows},), got shape {actions.shape}")
    count = mask.shape[1]
    if actions.min() < 0 or actions.max() >= count:
        row = int(np.flatnonzero((actions < 0) | (actions >= count))[0])
        slot = row if slots is None else int(slots[row])
        raise ValueError(f"the policy returned action {actions[row]} for row {row} "
                         f"(game {run.game_index[slot]}): actions are 0 to {count - 1}")
    legal = mask[np.arange(rows), actions]
    if not legal.all():
        row = int(np.flatnonzero(~legal)[0])
        slot = row if slots is None else int(slots[row])
        move = run.action_to_move(int(actions[row]))
        try:
            run.game(slot).play(move)
        except IllegalMoveError as err:
            raise IllegalMoveError(f"the policy chose action {actions[row]} ({move}) for row {row} "
                                   f"(game {run.game_index[slot]}): {err}") from None
        raise AssertionError(f"the mask of slot {slot} disagrees with its game on {move}")
    return actions


def evaluate_in(batch_class: Callable[..., Any], simulate: Callable[..., S]) -> Evaluate[S]:
    """The ``evaluate`` function of the engine whose ``Batch`` and ``simulate`` these are."""

    def evaluate(policy: Policy, games: int, *, rules: Any = None, seed: int = 0, start: int = 0,
                 batch: int = DEFAULT_BATCH, scores: bool = False, progress: bool = False,
                 callback: Callable[[int, int], object] | None = None) -> S:
        """Plays ``policy(observation, action_mask) -> actions`` over games ``start`` to
        ``start + games - 1`` of master seed ``seed`` under ``rules`` (the deals of
        ``simulate(games, ..., rules, seed, start=start)``) and returns their Stats,
        as ``simulate`` does: with every game's score when ``scores``, and
        ``strategy`` the policy's ``__qualname__`` (its repr when it has none), as
        ``compare`` names a callable strategy.

        The games are played in a ``Batch`` of ``min(batch, games)`` slots that plays
        the forced discards (docs/BATCH.md), so a decision is a fill or a deal. At
        each step the policy gets the rows of the games still played: an int8
        ``observation`` of shape (k, observation_size) and a bool ``action_mask`` of
        shape (k, num_actions), read-only, k at most ``batch`` (fewer only as the
        run ends), and returns k legal actions (an integer array, or what
        ``numpy.asarray`` makes one of, such as a CPU torch tensor).

        ``progress=True`` shows a tqdm bar on stderr; ``callback(done, total)``, if
        given, is called in this thread as games finish, at most every
        ``acesup.progress.INTERVAL`` seconds and once at the end, and an exception
        it raises ends the run and propagates (docs/API.md, "Progress").

        Every argument is checked before any game is dealt, in ``simulate``'s words:
        ``TypeError`` for a policy or callback that is not callable, a non-bool
        ``progress`` or ``scores``, an argument of the wrong type; ``ValueError``
        for a negative count, a ``batch`` below 1, a bad seed, ``start + games``
        beyond 2**64. What the policy returns is checked at each step, before any
        game moves: ``TypeError`` unless an integer array, ``ValueError`` for
        another shape or an action outside ``[0, num_actions)``,
        ``IllegalMoveError`` for an illegal action, naming the row and its game.
        """
        if not callable(policy):
            raise TypeError(f"policy must be a callable policy(observation, action_mask) -> actions, "
                            f"got {type(policy).__name__}")
        games = int_arg(games, "games")
        slots = int_arg(batch, "batch", 1)
        # No game played: the rules, seed, start and scores checked, and the Stats's
        # origin named as simulate names it, the policy as a callable strategy.
        origin: Any = simulate(0, policy, rules, seed, start=start, scores=scores)
        start = int_arg(start, "start")
        if start + games > U64:
            raise ValueError(f"start + games must be at most 2**64 (game indices are 64-bit), got {start + games}")
        report = reporter(games, progress, callback, "games")
        if scores:
            check_scores_fit(games)
        played = origin
        if games:
            run = batch_class(min(slots, games), rules, seed, start, games=games, scores=scores)
            last, live = start + games, None
            with report or nullcontext():
                while not run.done:
                    observation, mask = run.observation, run.action_mask
                    if run.next_index == last:  # some slots may be idle: the policy sees the others
                        live = np.flatnonzero(mask.any(axis=1))
                        observation, mask = observation[live], mask[live]
                    actions = _checked_actions(policy(observation, mask), mask, live, run)
                    if live is not None:
                        actions, chosen = np.zeros(run.n, dtype=actions.dtype), actions
                        actions[live] = chosen
                    finished = run.finished
                    run.step(actions)
                    if report is not None and run.finished != finished:
                        report.update(run.finished)
                if report is not None:
                    report.finish()
            played = run.stats()
        stats: S = type(origin)(played.histogram, played.scores, origin.strategy, origin.rules, origin.seed)
        return stats

    evaluate.__qualname__ = "evaluate"
    return evaluate
