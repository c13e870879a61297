"""A callable strategy may draw from the game it is asked about, nothing else
(docs/API.md, simulate): one that plays a move and takes it back, leaving the
game as it found it, is refused in both engines, and the error says what it did."""

from __future__ import annotations

import pytest

from acesup import errors


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


@pytest.mark.parametrize("strategy", [plays_and_takes_back, looks_ahead_two_moves])
def test_a_play_then_an_undo_is_refused(engine, strategy):
    with pytest.raises(errors.StrategyError) as info:
        engine.simulate(1, strategy)
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
