"""PySolFC's Fortunes (#206): ``fill="stack"`` (RULES.md R2.2, R3, R6.3, R7, R8.3).

Both engines in lockstep, move by move, on random games of every layout under
``fill="stack"``; the text, undo and pickle round trips of their positions; the
examples of R2.2; the preset and PySolFC's deals of game 206.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import (family_rules, family_wellformed_moves, load_engine, paths, pick, play_in_lockstep, position,
                     random_strategy_histogram, seeds, walk)

# Every layout and option of the family, with several cards moving together.
stack_rules = family_rules.map(lambda options: {**options, "fill": "stack"})

PYSOL_FORTUNES = "fill=stack,deal=any,relocate_single=true,ace_high=true"


NATIVE, REFERENCE = load_engine("native"), load_engine("reference")


@given(seed=seeds, options=stack_rules, path=paths)
def test_the_engines_play_fortunes_in_lockstep(seed, options, path):
    games = [e.Game.from_seed(seed, e.Rules(**options)) for e in (NATIVE, REFERENCE)]
    play_in_lockstep(NATIVE, games[0], REFERENCE, games[1], path, family_wellformed_moves)


@given(seed=seeds, options=stack_rules, path=paths)
def test_fortunes_positions_round_trip_through_text_undo_and_pickle(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    texts = [game.to_str()]
    for c in path.picks():
        moves = game.legal_moves()
        if not moves:
            break
        move = pick(moves, c)
        game.play(move)
        assert engine.Game.from_str(game.to_str()).to_str() == game.to_str()
        assert pickle.loads(pickle.dumps(game)).to_str() == game.to_str()
        assert engine.Move.parse(str(move)) == move
        texts.append(game.to_str())
    while game.history:
        game.undo()
        texts.pop()
        assert game.to_str() == texts[-1]


@given(seed=seeds, options=stack_rules, path=paths)
def test_a_stack_fill_moves_the_cards_from_index_up_in_their_order(engine, seed, options, path):
    game = engine.Game.from_seed(seed, engine.Rules(**options))
    for move in walk(game, path):
        if move.kind != "fill":
            continue
        source, stock = list(game.piles[move.src]), len(game.stock)
        moving = source[len(source) - 1 - move.index:]
        # A whole pile moves only as a lone card does (R2.2 condition 2).
        assert len(moving) < len(source) or (game.rules.relocate_single and stock > 0)
        after = game.copy()
        after.play(move)
        assert list(after.piles[move.dst]) == moving
        assert list(after.piles[move.src]) == source[:len(source) - len(moving)]


def test_r2_2_stack_examples(engine):
    rules = "fill=stack,deal=free,relocate_single=false,ace_high=true"
    game = engine.Game.from_str(position([["7s"], [], ["3d", "5h"], ["Ac"]], rules=rules))
    assert [str(m) for m in game.legal_moves()] == ["f2>1", "deal"]
    after = game.copy()
    after.play(engine.Move.fill(2, 1))
    assert [str(c) for c in after.piles[2]] == ["3d"]
    with pytest.raises(engine.IllegalMoveError,
                       match="^cannot fill pile 1 from pile 2: the whole pile may not move$"):
        game.play("f2:1>1")

    fortunes = engine.Game.from_str(position([["7s"], [], ["3d", "5h"], ["Ac"]], rules=PYSOL_FORTUNES))
    assert [str(m) for m in fortunes.legal_moves()] == ["f0>1", "f2>1", "f2:1>1", "f3>1", "deal"]
    fortunes.play(engine.Move.fill(2, 1, index=1))
    assert [[str(c) for c in pile] for pile in fortunes.piles] == [["7s"], ["3d", "5h"], [], ["Ac"]]
    assert str(fortunes.undo()) == "f2:1>1"
    assert [[str(c) for c in pile] for pile in fortunes.piles] == [["7s"], [], ["3d", "5h"], ["Ac"]]

    taller = engine.Game.from_str(position([["7s"], [], ["9c", "3d", "5h"], ["Ac"]], rules=rules))
    taller.play("f2:1>1")
    assert [[str(c) for c in pile] for pile in taller.piles] == [["7s"], ["3d", "5h"], ["9c"], ["Ac"]]


def test_r7_a_whole_pile_once_the_stock_is_empty(engine):
    aces_and_kings = ["Ac", "Ad", "Ah", "As", "Kc", "Kd", "Kh", "Ks"]
    game = engine.Game.from_str(position([["7s"], [], ["3d", "5h"], aces_and_kings], rules=PYSOL_FORTUNES,
                                         stock_len=0))
    with pytest.raises(engine.IllegalMoveError,
                       match="^cannot fill pile 1 from pile 2: the whole pile may not move once the stock is empty$"):
        game.play("f2:1>1")
    with pytest.raises(engine.IllegalMoveError, match="its only card may not move once the stock is empty"):
        game.play("f0>1")


def test_the_pysol_fortunes_preset(engine):
    rules = engine.Rules.pysol_fortunes()
    assert str(rules) == PYSOL_FORTUNES
    assert rules == engine.Rules.preset("pysol_fortunes") == engine.Rules.parse("pysol_fortunes")
    assert rules == engine.Rules.pysol().replace(fill="stack")
    assert "pysol_fortunes" in engine.Rules.PRESETS and "stack" in engine.Rules.FILLS
    assert repr(rules) == "Rules(fill='stack', deal='any', relocate_single=True)"


@pytest.mark.parametrize("n", [1, 206, 31999, 32000, 123456789])
def test_pysol_game_206_deals_the_aces_up_deck(engine, n):
    # Fortunes subclasses AcesUp with no _shuffleHook (pysollib/games/acesup.py:146-149),
    # so PySolFC deals game n of Fortunes from the deck of game n of Aces Up, which
    # test_deals.py checks against pysol_cards.
    game = engine.Game.from_pysol(n, engine.Rules.pysol_fortunes())
    assert game.rules == engine.Rules.pysol_fortunes()
    dealt = [str(c) for pile in game.piles for c in pile] + [str(c) for c in game.stock]
    assert dealt == [str(c) for c in engine.deck_from_pysol(n)]
    assert game.piles == engine.Game.from_pysol(n).piles and game.stock == engine.Game.from_pysol(n).stock


@pytest.mark.parametrize("options", [{"fill": "stack"}, {"fill": "stack", "relocate_single": True, "deal": "any"},
                                     {"fill": "stack", "suits": 2, "ranks": 5, "piles": 5, "deal_to": "empty"}])
def test_random_simulate_is_the_random_strategy_written_out(options):
    # The native random play-out has a loop of its own (random_play.rs); the
    # reference plays RNG.md's random strategy move by move.
    games = 150
    expected = random_strategy_histogram(REFERENCE, games, seed=7, rules=REFERENCE.Rules(**options))
    stats = NATIVE.simulate(games, "random", rules=NATIVE.Rules(**options), seed=7, threads=1)
    assert tuple(stats.histogram) + (0,) * (49 - len(stats.histogram)) == expected


@given(seed=st.integers(min_value=0, max_value=2**64 - 1))
def test_fortunes_keeps_the_cards_of_a_game_of_the_preset(engine, seed):
    game = engine.Game.from_seed(seed, engine.Rules.pysol_fortunes())
    cards = sorted(str(c) for pile in game.piles for c in pile) + sorted(str(c) for c in game.stock)
    assert len(cards) == 52
