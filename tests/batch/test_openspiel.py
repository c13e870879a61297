"""acesup.openspiel (docs/BATCH.md "Gymnasium and OpenSpiel"): the pyspiel game
"python_acesup" passes OpenSpiel's random simulation test, deals with explicit
uniform chance over the unseen cards, and scores as acesup's Game does."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

import acesup  # noqa: E402
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


def test_chance_actions_deal_the_seeded_game():
    """game.chance_actions(seed, index) are the codes of the seeded deck in deal
    order; played at the chance nodes they deal Game.from_seed(game_seed(seed, index))."""
    for rules in ("standard", "easy"):
        game = pyspiel.load_game("python_acesup", {"rules": rules})
        actions = game.chance_actions(9, 4)
        deck = acesup.deck_from_seed(acesup.game_seed(9, 4), acesup.Rules.parse(rules))
        assert [game.encoding.deck[code] for code in actions] == deck
        state = game.new_initial_state()
        for code in actions[:game.encoding.piles]:
            state.apply_action(code)
        assert state.dealt == deck[:game.encoding.piles] and not state.is_chance_node()


def test_a_chance_action_already_dealt_or_out_of_range_changes_nothing():
    state = pyspiel.load_game("python_acesup").new_initial_state()
    state.apply_action(5)
    for bad, message in ((5, "already dealt"), (52, "not a card")):
        with pytest.raises(Exception, match=message):
            state.apply_action(bad)
        assert [code for code, _ in state.chance_outcomes()] == [c for c in range(52) if c != 5]
        assert state.dealt == [state.encoding.deck[5]] and state.pending == 3


def test_acesup_openspiel_loads_on_first_use():
    code = ("import sys, acesup; assert 'acesup.openspiel' not in sys.modules; "
            "import pyspiel; acesup.openspiel; print(pyspiel.load_game('python_acesup'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "python_acesup" in done.stdout


def test_both_engines_chance_games_have_the_same_public_attributes():
    from acesup._core import ChanceGame as Native
    from acesup.reference.batch import ChanceGame as Reference

    def public(cls):
        return {name for name in dir(cls) if not name.startswith("_")}

    assert public(Native) == public(Reference)


@pytest.mark.parametrize("rules", RULES)
def test_both_engines_answer_alike_at_every_node(rules):
    """The same random actions played in a native and a reference state: the same
    player, legal actions, chance outcomes, text, observation and returns at every
    node, and the same errors, changing nothing, for a bad action."""
    native, ref = (pyspiel.load_game("python_acesup", {"rules": rules, "engine": e}).new_initial_state()
                   for e in ("native", "reference"))
    rnd = random.Random(rules)
    while True:
        assert native.current_player() == ref.current_player()
        assert native.legal_actions() == ref.legal_actions()
        assert [native.legal_actions(p) for p in (0, -1)] == [ref.legal_actions(p) for p in (0, -1)]
        assert str(native) == str(ref) and native.returns() == ref.returns()
        assert native.observation_tensor(0) == ref.observation_tensor(0)
        assert native.is_terminal() == ref.is_terminal() and native.pending == ref.pending
        if native.is_terminal():
            break
        if native.is_chance_node():
            assert native.chance_outcomes() == ref.chance_outcomes()
        else:
            last = native.num_distinct_actions() - 1
            for bad in (-2, last + 1):  # -1 is pyspiel's kInvalidAction, which it refuses itself
                for state in (native, ref):
                    with pytest.raises(ValueError, match=f"action must be an int from 0 to {last}, got {bad}"):
                        state.apply_action(bad)
            illegal = [a for a in range(native.num_distinct_actions()) if a not in native.legal_actions()]
            for state in (native, ref):
                with pytest.raises(acesup.IllegalMoveError):
                    state.apply_action(illegal[0])
            with pytest.raises(ValueError, match="not a chance node"):
                native.chance_outcomes()
        action = rnd.choice(native.legal_actions())
        native.apply_action(action)
        ref.apply_action(action)
    assert native.returns()[0] > 0 and native.history() == ref.history()
    assert native.game.to_str() == ref.game.to_str() and list(map(str, native.dealt)) == list(map(str, ref.dealt))


@pytest.mark.parametrize("engine", ["native", "reference"])
def test_states_clone_serialize_and_pickle(engine):
    import pickle

    game = pyspiel.load_game("python_acesup", {"rules": "easy", "engine": engine})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = game.new_initial_state()
    actions = game.chance_actions(3, 1)
    for code in actions[:4]:
        state.apply_action(code)
    state.apply_action(state.legal_actions()[-1])
    state.apply_action(actions[4])
    for other in (state.clone(), game.deserialize_state(state.serialize())):
        assert (str(other), other.history(), other.dealt, other.pending) == (
            str(state), state.history(), state.dealt, state.pending)
        other.apply_action(other.legal_actions()[0])  # the copy is its own
        assert other.pending == state.pending - 1
    chance = pickle.loads(pickle.dumps(state.chance))
    assert type(chance) is type(state.chance) and str(chance) == str(state.chance)
    assert chance.legal_actions() == state.legal_actions() and chance.dealt == state.chance.dealt
