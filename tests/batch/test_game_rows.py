"""``Game.observation`` and ``Game.action_mask`` (docs/BATCH.md "Observations", API.md
Game): a game's own row is the row a Batch shows for a slot holding that game, in
both engines, and the engines give equal rows for equal games."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import family_rules, full_paths, load_engine, walk


@settings(max_examples=40)
@given(options=family_rules, n=st.integers(1, 4), extra=st.integers(0, 6), seed=st.integers(0, 2**64 - 1),
       auto=st.booleans(), choice=st.integers(0, 2**32))
def test_a_game_s_rows_are_its_slot_s_rows(engine, options, n, extra, seed, auto, choice):
    """Random legal actions in a Batch of every layout and option of the family, with
    and without forced discards: after every step, each slot's game (``batch.game``)
    has the slot's observation and mask, dtype and shape included, idle slots too
    (a game over has no legal action)."""
    batch = engine.Batch(n, engine.Rules(**options), seed, 0, auto, games=n + extra)
    rng = np.random.default_rng(choice)
    steps = 0
    while True:
        observation, mask = batch.observation, batch.action_mask
        for slot in range(n):
            game = batch.game(slot)
            for mine, theirs in ((game.observation, observation[slot]), (game.action_mask, mask[slot])):
                assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
                assert np.array_equal(mine, theirs)
        if batch.done or steps == 400:
            break
        batch.step(np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1))
        steps += 1


@settings(max_examples=40)
@given(options=family_rules, seed=st.integers(0, 2**64 - 1), path=full_paths)
def test_the_engines_give_equal_rows_for_equal_games(options, seed, path):
    """A random walk through a game of the family, in both engines at once: equal
    rows at every position, the last one over (an all-False mask)."""
    native, reference = load_engine("native"), load_engine("reference")
    games = [e.Game.from_seed(seed, e.Rules(**options)) for e in (native, reference)]
    for move in walk(games[0], path):
        assert np.array_equal(games[0].observation, games[1].observation)
        assert np.array_equal(games[0].action_mask, games[1].action_mask)
        games[1].play(str(move))
    assert np.array_equal(games[0].observation, games[1].observation)
    assert np.array_equal(games[0].action_mask, games[1].action_mask)
    assert games[0].action_mask.any() != games[0].is_over


def test_rows_are_new_writable_arrays_that_never_show_the_stock(engine):
    """Each read is a new array that the caller may change; two games that differ only
    in the order of their stocks have equal observations until the next deal."""
    game = engine.Game.from_seed(5)
    row, mask = game.observation, game.action_mask
    assert (row.dtype, row.shape, mask.dtype, mask.shape) == (np.int8, (105,), np.bool_, (17,))
    row[:] = 0
    mask[:] = True
    assert game.observation.any() and not game.action_mask.all()
    assert mask.flags.writeable and row.flags.writeable
    layout = [pile[0] for pile in game.piles]
    stock = list(game.stock)
    other = engine.Game.from_deck(layout + stock[::-1])
    assert np.array_equal(game.observation, other.observation)
    assert np.array_equal(game.action_mask, other.action_mask)
    assert np.flatnonzero(game.action_mask).tolist() == [engine.Batch(1).move_to_action(m)
                                                         for m in game.legal_moves()]
