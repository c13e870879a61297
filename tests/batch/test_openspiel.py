"""acesup.openspiel (docs/BATCH.md "Gymnasium and OpenSpiel"): the pyspiel game
"python_acesup" passes OpenSpiel's random simulation test, deals with explicit
uniform chance over the unseen cards, and scores as acesup's Game does."""

from __future__ import annotations

import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import acesup.openspiel  # noqa: E402,F401 - registers python_acesup
import acesup.encoding  # noqa: E402
import acesup.reference as reference  # noqa: E402

RULES = ["standard", "easy", "strict,deal=stuck", "reverse"]


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize("engine", ["native", "reference"])
def test_random_sim_test(rules, engine):
    game = pyspiel.load_game("python_acesup", {"rules": rules, "engine": engine})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def play_random(state, rnd):
    """Plays a random game to its end; returns the player's moves (as actions)."""
    actions = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            codes, probs = zip(*outcomes)
            assert len(set(codes)) == len(codes) and np.isclose(sum(probs), 1.0)
            assert len(set(probs)) == 1  # uniform
            seen = {c for p in state.game.piles for c in p} | set(state.game.discards) if state.game else set()
            assert not {state.encoding.deck[c] for c in codes} & seen
            state.apply_action(rnd.choice(codes))
        else:
            action = rnd.choice(state.legal_actions())
            actions.append(action)
            state.apply_action(action)
    return actions


@pytest.mark.parametrize("rules", RULES)
def test_same_cards_same_score_as_game(rules):
    """The cards chance dealt, as a deck, and the player's moves, played in
    acesup.reference.Game (forced discards after each), end with the same score."""
    game = pyspiel.load_game("python_acesup", {"rules": rules, "engine": "native"})
    rnd = random.Random(rules)
    for _ in range(5):
        state = game.new_initial_state()
        actions = play_random(state, rnd)
        deck = [str(card) for card in state.dealt]
        assert sorted(deck) == sorted(str(c) for c in reference.Game.from_seed(0).stock + tuple(
            c for p in reference.Game.from_seed(0).piles for c in p))
        replay = reference.Game.from_deck(deck, reference.Rules.parse(rules))
        encoding = acesup.encoding.Encoding.of(reference, replay.rules)

        def forced():
            while replay.legal_moves() and replay.legal_moves()[0].kind == "discard":
                replay.play(replay.legal_moves()[0])

        forced()
        for action in actions:
            replay.play(encoding.action_to_move(action))
            forced()
        assert replay.is_over
        assert state.returns() == [float(replay.score)]
        assert state.game.to_str() == replay.to_str()


def test_observation_tensor_is_the_batch_encoding():
    game = pyspiel.load_game("python_acesup", {"engine": "reference"})
    state = game.new_initial_state()
    rnd = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rnd.choice(state.legal_actions()))
    encoding = acesup.encoding.Encoding.of(reference, None)
    assert state.observation_tensor(0) == [float(x) for x in encoding.observation(state.game)]
    assert "stock 48" in state.observation_string(0)


def test_relocate_single_is_refused():
    with pytest.raises(Exception, match="relocate_single"):
        pyspiel.load_game("python_acesup", {"rules": "relocate_single=true"})
