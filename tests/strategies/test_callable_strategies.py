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


def plays_and_takes_back(game):
    game.play(game.legal_moves()[0])
    game.undo()
    return game.legal_moves()[0]


def looks_ahead_two_moves(game):
    for move in game.legal_moves()[:1]:
        game.play(move)
        if not game.is_over:
            game.play(game.legal_moves()[0])
            game.undo()
        game.undo()
    return game.legal_moves()[0]


@pytest.mark.parametrize("strategy", [replays_the_last_move, replays_another_move, plays_and_takes_back,
                                      looks_ahead_two_moves])
def test_moves_played_and_taken_back_are_seen(engine, strategy):
    """An undo then a play, or a play then an undo, keeps the history's length; both
    engines see it all the same and say what the strategy did."""
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(3, strategy)
    message = str(info.value)
    assert f"strategy {strategy.__qualname__!r} changed the game it was asked about" in message
    assert "(it played and took back moves, leaving the history as long as it was; " in message
    assert "others in their place" not in message


def test_the_game_is_as_the_strategy_left_it(engine):
    """The error's position is the game as found: the strategy put it back."""
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(1, plays_and_takes_back, seed=3)
    start = engine.Game.from_seed(engine.game_seed(3, 0))
    assert str(info.value).endswith(f"now at {start.to_str()!r}")


def test_drawing_from_the_stream_is_allowed(engine):
    def draws(game):
        moves = game.legal_moves()
        return moves[game.randbelow(len(moves))]

    assert engine.simulate(2, draws).games == 2


def test_a_strategy_that_plays_is_named_for_what_it_did(engine):
    def plays(game):
        game.play(game.legal_moves()[0])
        return game.legal_moves()[0]

    with pytest.raises(errors.StrategyError, match=r"it played 1 move\(s\)"):
        engine.simulate(1, plays)
