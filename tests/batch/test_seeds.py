"""One seeding story (docs/SEEDS.md): for a master seed S, every path that acesup
controls plays games 0, 1, ..., N - 1 of S first, the deals of ``simulate(N,
seed=S)``; Gymnasium's vector envs seed sub-environment i with S + i, and
``acesup.gym.env_fns`` makes them play those same deals. Each path here plays its
first N episodes with one deterministic policy (the forced discards, then the
last legal action), and the episodes are compared with ``simulate``'s games: each
deal by its first observation, and its score."""

from __future__ import annotations

import numpy as np
import pytest

import acesup
from acesup.encoding import Encoding

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv  # noqa: E402

import acesup.gym  # noqa: E402
from acesup.gym import ENV_ID, env_fns  # noqa: E402

SEED, N = 123, 6
ENCODING = Encoding.of(acesup)


def last_legal(game):
    """The forced discard if there is one, else the last legal move (R3 order), as
    the last legal action of a mask is after the forced discards."""
    moves = game.legal_moves()
    return moves[0] if moves[0].kind == "discard" else moves[-1]


def last_action(mask):
    """The last legal action of each mask row (of a row or of a batch of rows)."""
    return mask.shape[-1] - 1 - np.argmax(mask[..., ::-1], axis=-1)


def expected(seed, games, start=0):
    """Each game's (first observation, after its forced discards, as bytes; score),
    by game index, from ``simulate`` and the deals of ``game_seed``."""
    scores = acesup.simulate(games, last_legal, seed=seed, start=start, scores=True).scores
    episodes = []
    for index, score in enumerate(scores, start):
        game = acesup.Game.from_seed(acesup.game_seed(seed, index))
        while game.legal_moves() and game.legal_moves()[0].kind == "discard":
            game.play(game.legal_moves()[0])
        episodes.append((np.array(ENCODING.observation(game), dtype=np.int8).tobytes(), int(score)))
    return episodes


def test_batch_and_the_native_vector_env_play_simulate_s_games():
    batch = acesup.Batch(N, seed=SEED, games=N, scores=True)
    first = [row.tobytes() for row in batch.observation]
    while not batch.done:
        batch.step(last_action(batch.action_mask))
    assert list(zip(first, batch.stats().scores.tolist())) == expected(SEED, N)

    envs = gymnasium.make_vec(ENV_ID, num_envs=N, vectorization_mode="vector_entry_point")
    obs, info = envs.reset(seed=SEED)
    assert info["game_index"].tolist() == list(range(N))
    assert episodes_of_vector_env(envs, obs, info) == expected(SEED, N)


def test_the_single_env_plays_game_after_game():
    env = gymnasium.make(ENV_ID)
    obs, info = env.reset(seed=SEED)
    episodes = []
    for index in range(N):
        if index:
            obs, info = env.reset()
        assert info["game_index"] == index
        first, ret, terminated = obs.tobytes(), 0.0, False
        while not terminated:
            obs, reward, terminated, _, info = env.step(int(last_action(info["action_mask"])))
            ret += reward
        assert ret == info["score"]  # the return is the score
        episodes.append((first, int(ret)))
    assert episodes == expected(SEED, N)


def episodes_of_vector_env(envs, obs, info):
    """The first episode of every sub-environment of ``envs``, just reset: (first
    observation, return) by sub-environment, whatever the autoreset mode."""
    first = [row.tobytes() for row in obs]
    returns, done = np.zeros(envs.num_envs), np.zeros(envs.num_envs, dtype=bool)
    while not done.all():
        obs, reward, terminated, truncated, info = envs.step(last_action(info["action_mask"]))
        returns += np.where(done, 0, reward)
        done |= terminated
    return [(row, int(ret)) for row, ret in zip(first, returns)]


@pytest.mark.parametrize("vector", [SyncVectorEnv, AsyncVectorEnv])
@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
def test_gymnasium_s_vector_envs_play_the_same_deals_through_env_fns(vector, mode):
    """Gymnasium seeds sub-environment i with S + i; made by env_fns, they play games
    0 to N - 1 of S, and the info keys and the masks are those of the native
    vector env."""
    envs = vector(env_fns(N), autoreset_mode=mode)
    try:
        obs, info = envs.reset(seed=SEED)
        assert info["game_index"].tolist() == list(range(N))
        assert set(info) == {"action_mask", "score", "game_index", "won",
                             "_action_mask", "_score", "_game_index", "_won"}
        assert np.array_equal(acesup.gym.action_masks(envs), info["action_mask"])
        assert episodes_of_vector_env(envs, obs, info) == expected(SEED, N)
    finally:
        envs.close()


def test_sub_environments_go_on_with_game_indices_n_apart():
    """After its first game, sub-environment i of N plays games i + N, i + 2N, ...:
    the N sub-environments together play games 0 to kN - 1 of S after k episodes each."""
    envs = SyncVectorEnv(env_fns(3))
    _, info = envs.reset(seed=SEED)
    seen = [info["game_index"].tolist()]
    for _ in range(2):
        _, info = envs.reset()
        seen.append(info["game_index"].tolist())
    assert seen == [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    with pytest.raises(ValueError, match="seed must be at least rank"):
        acesup.gym.AcesUpEnv(rank=2, num_envs=3).reset(seed=1)
    with pytest.raises(ValueError, match="rank must be"):
        acesup.gym.AcesUpEnv(rank=3, num_envs=3)


def test_make_vec_sync_without_env_fns_plays_seed_plus_i():
    """Gymnasium's own convention, documented: make_vec's sync mode makes every
    sub-environment alike, and sub-environment i plays games 0, 1, ... of S + i."""
    envs = gymnasium.make_vec(ENV_ID, num_envs=3, vectorization_mode="sync")
    obs, info = envs.reset(seed=SEED)
    assert info["game_index"].tolist() == [0, 0, 0]
    assert [row.tobytes() for row in obs] == [expected(SEED + i, 1)[0][0] for i in range(3)]


def test_openspiel_plays_the_seeded_deals_through_chance_actions():
    pyspiel = pytest.importorskip("pyspiel")
    import acesup.openspiel  # noqa: F401 - registers python_acesup

    game = pyspiel.load_game("python_acesup")
    episodes = []
    for index in range(N):
        state, cards, first = game.new_initial_state(), iter(game.chance_actions(SEED, index)), None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(next(cards))
                continue
            if first is None:
                first = np.array(state.observation_tensor(0), dtype=np.int8).tobytes()
            state.apply_action(state.legal_actions()[-1])
        assert next(cards, None) is None  # every card dealt
        episodes.append((first, int(state.returns()[0])))
    assert episodes == expected(SEED, N)


def sb3_policy(envs):
    """An object with SB3's ``predict`` that plays the last legal action of each
    sub-environment of the SB3 VecEnv ``envs``."""
    class LastLegal:
        def predict(self, observation, state=None, episode_start=None, deterministic=False):
            return last_action(np.stack(envs.env_method("action_masks"))), None
    return LastLegal()


def test_stable_baselines3_paths():
    """SB3 (not a test dependency: run when importable): a DummyVecEnv over env_fns
    seeded with ``seed(S)`` plays games 0 to N - 1 of S, in training and in
    ``evaluate_policy`` (which resets the env itself; with n_eval_episodes = N, one
    episode each), its mean reward the mean score; make_vec_env(seed=S) plays
    game 0 of S + i in sub-environment i."""
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.evaluation import evaluate_policy
    from stable_baselines3.common.vec_env import DummyVecEnv

    envs = DummyVecEnv(env_fns(N))
    envs.seed(SEED)
    obs = envs.reset()
    assert [row.tobytes() for row in obs.astype(np.int8)] == [first for first, _ in expected(SEED, N)]
    envs.seed(SEED)
    rewards, _ = evaluate_policy(sb3_policy(envs), envs, n_eval_episodes=N, return_episode_rewards=True)
    assert sorted(rewards) == sorted(float(score) for _, score in expected(SEED, N))

    plain = make_vec_env(ENV_ID, n_envs=3, seed=SEED)
    obs = plain.reset()
    assert [row.tobytes() for row in obs.astype(np.int8)] == [expected(SEED + i, 1)[0][0] for i in range(3)]
