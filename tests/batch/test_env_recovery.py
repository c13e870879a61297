"""The Gymnasium environments and the OpenSpiel game after bad input (docs/BATCH.md
"Gymnasium and OpenSpiel"): a reset or a chance action that raises names the
problem and changes nothing, and an ended episode does not go on."""

from __future__ import annotations

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pyspiel = pytest.importorskip("pyspiel")

import acesup.openspiel  # noqa: E402,F401 - registers python_acesup
from acesup.gym import AcesUpEnv, AcesUpVectorEnv  # noqa: E402

ENGINES = ["native", "reference"]

BAD_RESETS = [
    (dict(seed=2**64), ValueError, r"seed must be an int in \[0, 2\*\*64\), got 18446744073709551616"),
    (dict(seed=10**30), ValueError, "seed must be an int"),
    (dict(seed=True), TypeError, "seed must be an int .* got bool"),
    (dict(options={"game_index": 2**64}), ValueError, r"options\['game_index'\] must be an int"),
    (dict(options={"game_index": "2"}), TypeError, r"options\['game_index'\] must be an int .* got str"),
    (dict(options="game_index"), TypeError, "options must be a dict or None, got str"),
    (dict(options={"seed": 1}), ValueError, "unknown reset options"),
]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kwargs, error, match", BAD_RESETS)
def test_a_failed_reset_changes_nothing(engine, kwargs, error, match):
    env = AcesUpEnv(engine=engine)
    env.reset(seed=5)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    game, index, rng = env.game, env._index, env.np_random.bit_generator.state
    with pytest.raises(error, match=match):
        env.reset(**kwargs)
    assert env.game == game and env.game.history == game.history
    assert env._index == index and env.np_random.bit_generator.state == rng
    # The episode goes on, and the next reset deals the next game of the same seed.
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert env.reset()[1]["game_index"] == index + 1
    reference = AcesUpEnv(engine=engine)
    reference.reset(seed=5)
    reference.reset()
    assert env.game == reference.game


@pytest.mark.parametrize("engine", ENGINES)
def test_a_failed_first_reset_leaves_the_env_unreset(engine):
    env = AcesUpEnv(engine=engine)
    with pytest.raises(ValueError, match="seed must be an int"):
        env.reset(seed=2**64)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        env.step(0)
    assert env.reset()[1]["game_index"] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_no_step_after_an_illegal_action_ended_the_episode(engine):
    env = AcesUpEnv(engine=engine)
    env.reset(seed=3)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (0.0, True, True)
    game = env.game
    with pytest.raises(RuntimeError, match=r"the episode ended with an illegal action: call reset\(\)"):
        env.step(legal)
    assert env.game == game and env.game.history == game.history
    env.reset()
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # a new episode plays again


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kwargs, error, match", [
    (dict(seed=2**64), ValueError, "seed must be an int"),
    (dict(seed=True), TypeError, "seed must be an int .* got bool"),
    (dict(options="game_index"), TypeError, "options must be a dict or None, got str"),
    (dict(options={"game_index": 1}), ValueError, r"unknown reset options: \['game_index'\] \(there are none\)"),
])
def test_a_failed_vector_reset_changes_nothing(engine, kwargs, error, match):
    envs = AcesUpVectorEnv(3, engine=engine)
    envs.reset(seed=9)
    envs.step(np.argmax(envs.action_masks(), axis=1))
    batch, rng = envs.batch, envs.np_random.bit_generator.state
    observation = np.array(batch.observation)
    with pytest.raises(error, match=match):
        envs.reset(**kwargs)
    assert envs.batch is batch and envs.np_random.bit_generator.state == rng
    assert (envs.batch.observation == observation).all()
    envs.reset()
    assert envs.batch.seed == 9 and envs.batch.start == batch.next_index


@pytest.mark.parametrize("engine", ENGINES)
def test_a_chance_action_must_be_a_card_still_to_deal(engine):
    state = pyspiel.load_game("python_acesup", {"engine": engine}).new_initial_state()
    state.apply_action(0)
    for action, match in [(0, "chance action 0 is 2c, which is already dealt"),
                          (52, "chance action 52 is not a card: the card codes are 0 to 51")]:
        with pytest.raises(ValueError, match=match):
            state.apply_action(action)
        assert (state.history(), state.dealt, state.pending) == ([0], [state.encoding.deck[0]], 3)
    for code in (1, 2, 3):
        state.apply_action(code)
    assert state.dealt == [state.encoding.deck[code] for code in (0, 1, 2, 3)] and not state.pending
    assert sum(map(len, state.game.piles)) + state.game.score == 4
