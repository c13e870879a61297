"""Hypothesis properties over positions reached by random legal moves, from random
seeds under random rules (every combination of the four options)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import acesup.errors as errors
from helpers import (
    ALL_CARDS,
    MAX_MOVES_WITHOUT_RELOCATE,
    RULE_OPTIONS,
    full_paths,
    paths,
    relabel_card,
    rule_options,
    rules_text,
    seeds,
    walk,
    wellformed_moves,
)


def top_rank(game):
    return "A" if game.rules.ace_high else "K"


def card_texts(game):
    return (
        [str(c) for p in game.piles for c in p] + [str(c) for c in game.stock] + [str(c) for c in game.discards]
    )


@given(seed=seeds, options=rule_options, path=paths)
def test_cards_are_conserved_and_top_rank_never_discarded(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    discarded = []
    for move in walk(game, path):
        assert sorted(card_texts(game)) == sorted(ALL_CARDS)
        now = [str(c) for c in game.discards]
        assert now[: len(discarded)] == discarded  # discarded cards never come back
        assert len(now) - len(discarded) in (0, 1)
        discarded = now
        assert top_rank(game) not in {c[0] for c in discarded}
        assert len(game.stock) % 4 == 0
        assert game.score == len(game.discards)
    assert sorted(card_texts(game)) == sorted(ALL_CARDS)
    assert top_rank(game) not in {str(c)[0] for c in game.discards}


@given(seed=seeds, options=rule_options, path=paths)
def test_legal_moves_play_and_every_other_move_is_refused(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        check_every_move(engine, game)
    check_every_move(engine, game)  # the last position too (over, or where the path ended)


def check_every_move(engine, game):
    legal = game.legal_moves()
    assert legal == sorted(legal)
    assert len(set(legal)) == len(legal)
    assert all(a < b for a, b in zip(legal, legal[1:]))
    assert game.is_over == (legal == [])
    before, history = game.to_str(), game.history
    snapshot = game.copy()
    for move in legal:
        assert game.is_legal(move)
        trial = game.copy()
        trial.play(move)
        assert trial.history == history + (move,)
        assert trial.undo() == move
        assert trial == game and trial.to_str() == before
    wellformed = wellformed_moves(engine, game)
    assert set(legal) <= set(wellformed)
    for move in wellformed:
        if move in legal:
            continue
        assert not game.is_legal(move)
        with pytest.raises(errors.IllegalMoveError):
            game.play(move)
        assert game == snapshot and game.to_str() == before and game.history == history


@given(seed=seeds, options=rule_options, path=paths)
def test_undo_restores_every_position(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    positions, copies = [], []
    for _ in walk(game, path):
        positions.append(game.to_str())
        copies.append(game.copy())
    assert len(game.history) == len(positions)
    for k in reversed(range(len(positions))):
        move = game.history[-1]
        assert game.undo() == move
        assert game.to_str() == positions[k] and game == copies[k]
        assert game.history == copies[k].history
    assert game.history == ()
    with pytest.raises(errors.UndoError):
        game.undo()


@given(seed=seeds, options=rule_options, path=paths)
def test_undo_then_replay_is_the_same(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        pass
    if not game.history:
        return
    k = path.tail % len(game.history) + 1
    end = game.to_str()
    undone = [game.undo() for _ in range(k)]
    for move in reversed(undone):
        game.play(move)
    assert game.to_str() == end


@given(
    seed=seeds,
    options=st.fixed_dictionaries(
        {"fill": st.sampled_from(["top", "ace", "any"]), "deal": st.sampled_from(["free", "stuck"]),
         "ace_high": st.booleans()}
    ),
    path=full_paths,
)
def test_every_game_terminates_within_the_r4_3_bound(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(relocate_single=False, **options))
    fills_since = 0
    for move in walk(game, path):
        empty = sum(1 for p in game.piles if not p)
        if move.kind == "fill":
            fills_since += 1
            assert fills_since <= 4
        else:
            fills_since = 0
        after = game.copy()
        after.play(move)
        if move.kind == "fill":  # a fill takes from a pile of two or more: one fewer empty pile
            assert sum(1 for p in after.piles if not p) == empty - 1
    assert game.is_over, "1000 moves without the end: more than R4.3 allows"
    kinds = [m.kind for m in game.history]
    assert kinds.count("discard") <= 48 and kinds.count("deal") <= 12
    assert len(game.history) <= MAX_MOVES_WITHOUT_RELOCATE


@given(seed=seeds, options=rule_options, path=full_paths)
def test_over_and_won(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        assert not game.is_over and not game.is_won
    # The walk ended: the game is over, or (relocate_single) 1000 moves were not enough.
    assert game.is_over == (game.legal_moves() == [])
    assert game.is_won == (game.is_over and len(game.discards) == 48)
    if game.is_won:
        assert sorted(str(p[-1])[0] for p in game.piles) == [top_rank(game)] * 4
        assert all(len(p) == 1 for p in game.piles) and game.stock == ()


@given(
    seed=seeds,
    options=st.fixed_dictionaries(
        {"fill": st.sampled_from(["top", "ace", "any"]), "deal": st.sampled_from(["free", "stuck"]),
         "relocate_single": st.booleans()}
    ),
    path=paths,
)
def test_reverse_is_the_standard_game_relabelled(engine, seed, options, path):
    """A deck under ace_high=False plays as the deck relabelled A->2, 2->3, ..., K->A
    (suits kept) does under ace_high=True."""
    deck = [str(c) for c in engine.deck_from_seed(seed)]
    rev = engine.Game.from_deck(deck, engine.Rules(ace_high=False, **options))
    std = engine.Game.from_deck([relabel_card(c) for c in deck], engine.Rules(ace_high=True, **options))

    def relabelled(game):
        return (
            [[relabel_card(str(c)) for c in p] for p in game.piles],
            [relabel_card(str(c)) for c in game.stock],
            [relabel_card(str(c)) for c in game.discards],
        )

    def plain(game):
        return (
            [[str(c) for c in p] for p in game.piles],
            [str(c) for c in game.stock],
            [str(c) for c in game.discards],
        )

    for move in walk(rev, path):
        assert [str(m) for m in rev.legal_moves()] == [str(m) for m in std.legal_moves()]
        assert relabelled(rev) == plain(std)
        std.play(str(move))
    assert [str(m) for m in rev.legal_moves()] == [str(m) for m in std.legal_moves()]
    assert relabelled(rev) == plain(std)
    assert (rev.score, rev.is_over, rev.is_won) == (std.score, std.is_over, std.is_won)


@given(seed=seeds)
def test_a_seed_always_gives_the_same_deck(engine, seed):
    a, b = engine.deck_from_seed(seed), engine.deck_from_seed(seed)
    assert a == b and sorted(str(c) for c in a) == sorted(ALL_CARDS)
    assert engine.Game.from_seed(seed) == engine.Game.from_deck(a)


@given(seed=seeds, options=st.sampled_from(RULE_OPTIONS[::3]))
def test_a_seed_always_gives_the_same_simulation(engine, seed, options):
    rules = engine.Rules(**options)
    assert engine.simulate(3, seed=seed, rules=rules) == engine.simulate(3, seed=seed, rules=rules)


@given(seed=seeds, options=rule_options, path=paths)
def test_text_and_pickle_round_trips(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        pass
    text = game.to_str()
    again = engine.Game.from_str(text)
    assert again == game and again.to_str() == text and again.rules == game.rules
    assert again.legal_moves() == game.legal_moves()
    assert engine.Rules.parse(str(game.rules)) == game.rules
    unpickled = pickle.loads(pickle.dumps(game))
    assert unpickled == game and unpickled.to_str() == text and unpickled.history == game.history
    for move in game.history:
        assert engine.Move.parse(str(move)) == move
        assert engine.Move.parse(str(move).upper()) == move
        assert eval(repr(move), {"Move": engine.Move}) == move
        assert pickle.loads(pickle.dumps(move)) == move


moves_anywhere = st.one_of(
    st.builds(lambda p: ("discard", p), st.integers(0, 3)),
    st.builds(lambda s, d, i: ("fill", s, d, i), st.integers(0, 3), st.integers(0, 3), st.integers(0, 60)).filter(
        lambda t: t[1] != t[2]
    ),
    st.just(("deal",)),
)


@given(spec=moves_anywhere)
def test_move_text_round_trip(engine, spec):
    M = engine.Move
    move = {"discard": lambda: M.discard(spec[1]), "fill": lambda: M.fill(spec[1], spec[2], index=spec[3]),
            "deal": M.deal}[spec[0]]()
    assert M.parse(str(move)) == move
    assert M.parse(f"  {str(move).upper()}\n") == move
    assert eval(repr(move), {"Move": M}) == move
    assert pickle.loads(pickle.dumps(move)) == move and hash(copy.copy(move)) == hash(move)


@pytest.mark.parametrize("options", RULE_OPTIONS, ids=lambda o: rules_text(**o))
def test_rules_text_round_trip(engine, options):
    rules = engine.Rules(**options)
    assert engine.Rules.parse(str(rules)) == rules
    assert str(engine.Rules.parse(str(rules))) == str(rules) == rules_text(**options)
    assert pickle.loads(pickle.dumps(rules)) == rules


@given(seed=seeds, options=rule_options, path=paths, more=paths)
def test_copy_is_independent(engine, seed, options, path, more):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for _ in walk(game, path):
        pass
    text, history = game.to_str(), game.history
    dup = game.copy()
    for _ in walk(dup, more):
        pass
    while dup.history:
        dup.undo()
    assert game.to_str() == text and game.history == history
    assert dup == engine.Game.from_seed(seed, engine.Rules(**options))
    # The strategy streams are equal but separate.
    dup2 = game.copy()
    assert [dup2.randbelow(997) for _ in range(3)] == [game.randbelow(997) for _ in range(3)]
