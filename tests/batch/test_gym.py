"""acesup.gym (docs/BATCH.md "Gymnasium and OpenSpiel"): Gymnasium's own checker,
registration, rewards, masks, rendering, and the vector environment over Batch."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest

from helpers import engines_with

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402

import acesup  # noqa: E402
import acesup.encoding  # noqa: E402
import acesup.gym  # noqa: E402,F401 - registers the environments
from acesup.gym import ENV_ID, AcesUpEnv, AcesUpVectorEnv  # noqa: E402

ENGINES = ["native", "reference"]
BATCH_ENGINES = engines_with("Batch")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rules", [None, "easy", "strict,deal=stuck"])
def test_check_env_passes(engine, rules):
    """Gymnasium's checker, with every warning it gives made an error."""
    env = gymnasium.make(ENV_ID, rules=rules, engine=engine)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_episode_s_return_is_its_score(engine):
    """The rewards add up to the score, the forced discards of the deal (one in
    game 0 of seed 7) counted in the first step's reward; the mask is the
    environment's own ``action_masks()``, wrapped by ``gymnasium.make`` or not."""
    env = gymnasium.make(ENV_ID, engine=engine, render_mode="ansi")
    obs, info = env.reset(seed=7)
    assert env.unwrapped.game.score == info["score"] == 1
    assert obs.dtype == np.int8 and obs.shape == env.observation_space.shape
    assert env.observation_space.contains(obs)
    rng = np.random.default_rng(3)
    total, terminated, steps = 0.0, False, 0
    while not terminated:
        mask = info["action_mask"]
        assert np.array_equal(mask, env.action_masks()) and np.array_equal(mask, acesup.gym.action_masks(env))
        legal = np.flatnonzero(mask)
        assert legal.size and not mask[:4].any()  # forced discards are played for the agent
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert env.observation_space.contains(obs) and not truncated
        total += reward
        steps += 1
    assert total == info["score"] and info["won"] == env.unwrapped.game.is_won
    assert env.unwrapped.game.is_over and not info["action_mask"].any()
    assert "stock" in env.render()


def test_reset_deals_game_indices_of_the_seed():
    import acesup.reference as ref
    env = AcesUpEnv(engine="reference", auto_discard=False)
    env.reset(seed=11)
    assert env.game == ref.Game.from_seed(ref.game_seed(11, 0))
    env.reset()
    assert env.game == ref.Game.from_seed(ref.game_seed(11, 1))
    env.reset(options={"game_index": 40})
    assert env.game == ref.Game.from_seed(ref.game_seed(11, 40))
    with pytest.raises(ValueError, match="unknown reset options"):
        env.reset(options={"deck": "x"})


def test_illegal_actions():
    env = AcesUpEnv(engine="reference")
    _, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(~info["action_mask"])[0])
    before = env.game
    obs, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == 0 and info["illegal_action"] and env.game == before
    strict = AcesUpEnv(engine="reference", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(acesup.IllegalMoveError):
        strict.step(illegal)


def test_svg_render():
    env = gymnasium.make(ENV_ID, engine="reference", render_mode="svg")
    env.reset(seed=2)
    assert env.render().startswith("<svg")


@pytest.mark.parametrize("rules", [None, "easy"])
def test_rgb_frames_have_one_size(rules):
    """Every frame of a game has the same shape (a video needs it), and frames
    change when the game does."""
    env = gymnasium.make(ENV_ID, rules=rules, engine="reference", render_mode="rgb_array")
    _, info = env.reset(seed=3)
    frames = [env.render()]
    terminated = False
    while not terminated:
        _, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
        frames.append(env.render())
    assert all(f.dtype == np.uint8 and f.ndim == 3 and f.shape == frames[0].shape for f in frames)
    assert not np.array_equal(frames[0], frames[-1])


def test_bad_arguments():
    with pytest.raises(ValueError, match="engine must be"):
        AcesUpEnv(engine="fast")
    with pytest.raises(ValueError, match="render_mode"):
        AcesUpEnv(render_mode="human")
    with pytest.raises(ValueError, match="illegal_action"):
        AcesUpEnv(illegal_action="ignore")
    with pytest.raises(acesup.RulesError):
        AcesUpEnv(rules="fill=sideways")


@pytest.mark.parametrize("engine", BATCH_ENGINES)
def test_make_vec_same_step_autoreset(engine):
    envs = gymnasium.make_vec(ENV_ID, num_envs=6, vectorization_mode="vector_entry_point", engine=engine)
    assert isinstance(envs.unwrapped, AcesUpVectorEnv)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, info = envs.reset(seed=5)
    assert obs.shape == (6, envs.single_observation_space.shape[0]) and envs.observation_space.contains(obs)
    batch_engine = acesup.encoding.engine_module(engine, "Batch")
    twin = batch_engine.Batch(6, seed=5)
    keys = {"action_mask", "score", "game_index", "won"}
    assert set(info) == keys | {f"_{key}" for key in keys}
    assert twin.score.any()  # a game's first reward counts the discards of its deal, these ones too
    returns = np.zeros(6)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        mask = info["action_mask"]
        index = twin.game_index
        actions = np.where(mask, rng.random(mask.shape), -1.0).argmax(axis=1)
        obs, reward, terminated, truncated, info = envs.step(actions)
        expected = twin.step(actions)
        returns += reward
        assert np.array_equal(obs, twin.observation) and np.array_equal(reward > expected, reward != expected)
        assert np.array_equal(terminated, twin.terminated) and not truncated.any()
        assert np.array_equal(info["score"], twin.score) and np.array_equal(info["game_index"], twin.game_index)
        if terminated.any():
            ended += int(terminated.sum())
            assert np.array_equal(info["_final_obs"], terminated)
            final = info["final_obs"][terminated]
            assert np.array_equal(final, twin.final_observation[terminated])
            final_info = info["final_info"]
            assert keys <= set(final_info) and np.array_equal(final_info["won"], twin.won)
            assert np.array_equal(final_info["game_index"][terminated], index[terminated])
            assert np.array_equal(returns[terminated], final_info["score"][terminated])
            returns[terminated] = 0
    assert ended > 0
    obs, _ = envs.reset()  # goes on with the next game indices
    assert envs.unwrapped.batch.game_index.tolist() == list(range(twin.next_index, twin.next_index + 6))
    envs.close()


def test_vector_env_engines():
    """The vector environment steps the Batch of the engine it is asked for; the
    default is the native one once it has a Batch."""
    import acesup.reference
    assert isinstance(AcesUpVectorEnv(2, engine="reference").batch, acesup.reference.Batch)
    if "native" not in BATCH_ENGINES:
        with pytest.raises(ValueError, match="the native engine has no Batch"):
            AcesUpVectorEnv(2, engine="native")
        return
    assert isinstance(AcesUpVectorEnv(2, engine="native").batch, acesup.Batch)
    assert isinstance(AcesUpVectorEnv(2).batch, acesup.Batch)


def fresh_python(code):
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_acesup_gym_loads_on_first_use_and_registers():
    """A bare ``import acesup`` loads neither acesup.gym nor Gymnasium; ``acesup.gym``
    loads it and registers the environment."""
    fresh_python(f"""
import sys, acesup
assert not {{'acesup.gym', 'gymnasium'}} & set(sys.modules)
import gymnasium
assert {ENV_ID!r} not in gymnasium.registry
assert acesup.gym.ENV_ID in gymnasium.registry
""")


def test_make_imports_acesup_gym_by_itself():
    """Gymnasium 1.x has no plugin discovery: the "module:id" form imports acesup.gym."""
    out = fresh_python(f"""
import gymnasium
env = gymnasium.make("acesup.gym:{ENV_ID}")
obs, info = env.reset(seed=0)
print(env.action_masks().sum(), obs.flags.writeable)
""")
    assert out.split()[1] == "True" and int(out.split()[0]) >= 1


@pytest.mark.parametrize("mode", ["vector_entry_point", "sync"])
def test_vector_observations_are_writable(mode):
    envs = gymnasium.make_vec(ENV_ID, num_envs=2, vectorization_mode=mode)
    obs, info = envs.reset(seed=1)
    assert obs.flags.writeable and info["action_mask"].flags.writeable
    obs, *_ = envs.step(info["action_mask"].argmax(axis=1))
    assert obs.flags.writeable
    assert acesup.gym.action_masks(envs).shape == (2, envs.single_action_space.n)
