"""What a callable strategy may answer and may do to the game it is handed
(docs/API.md `simulate`): it returns a Move or a move text, and it may draw from
the game's stream but not change the game, not even by an undo and a play that
keep the history's length."""

from __future__ import annotations

import pytest

import acesup.errors as errors


def first_move_text(game):
    return str(game.legal_moves()[0])


def test_a_strategy_may_return_a_move_text(engine):
    def first_move(game):
        return game.legal_moves()[0]

    assert engine.simulate(20, first_move_text, seed=3) == engine.simulate(20, first_move, seed=3)


def test_a_strategy_may_return_deal(engine):
    def deal_or_first(game):
        return "deal" if game.is_legal("deal") else game.legal_moves()[0]

    assert engine.simulate(5, deal_or_first).games == 5


@pytest.mark.parametrize("text, fragment", [("d9", "d9"), ("nonsense", "nonsense")])
def test_a_bad_move_text_is_a_strategy_error(engine, text, fragment):
    def answers(game):
        return text

    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(1, answers)
    assert fragment in str(info.value) and "answers" in str(info.value)


def replays_the_last_move(game):
    if game.history:
        game.play(game.undo())
    return game.legal_moves()[0]


def replays_another_move(game):
    if game.history:
        game.undo()
        game.play(game.legal_moves()[-1])
    return game.legal_moves()[0]


@pytest.mark.parametrize("strategy", [replays_the_last_move, replays_another_move])
def test_an_undo_then_a_play_is_seen(engine, strategy):
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(3, strategy)
    message = str(info.value)
    assert strategy.__name__ in message
    assert "it played and took back moves, leaving the history as long as it was" in message


def test_a_strategy_that_plays_is_named_for_what_it_did(engine):
    def plays(game):
        game.play(game.legal_moves()[0])
        return game.legal_moves()[0]

    with pytest.raises(errors.StrategyError, match=r"it played 1 move\(s\)"):
        engine.simulate(1, plays)
