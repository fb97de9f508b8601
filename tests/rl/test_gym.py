"""The Gymnasium environments (``tripletopper.rl.gym``)."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils import seeding
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from tripletopper.engine import Rng
from tripletopper.errors import IllegalActionError
from tripletopper.rl.gym import ENV_IDS, TripletopperGymEnv


@pytest.mark.parametrize("name", sorted(ENV_IDS))
def test_check_env(name: str) -> None:
    options = {"max_turns": 40} if name in ("memo-match", "three-up-three-down") else {}
    env = gymnasium.make(ENV_IDS[name], options=options, opponents="medium")
    check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=1)
    assert np.array_equal(obs["action_mask"], info["action_mask"]) and obs["action_mask"].any()


def play(env: TripletopperGymEnv, seed: int) -> float:
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        obs, reward, terminated, truncated, _ = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if terminated or truncated:
            return reward


def test_rewards_are_the_learners_returns() -> None:
    """Against three random bots a random learner wins about a quarter of the games, and
    its reward is 1 exactly when results() names it the winner."""
    env = TripletopperGymEnv("thirty-one", 4, opponents="random", seat=2)
    wins = 0.0
    for seed in range(40):
        reward = play(env, seed)
        results = env.state.results()
        assert results is not None and reward == results.returns()[2]
        wins += reward
    assert 4 <= wins <= 18


def test_vectorized_masks() -> None:
    """SyncVectorEnv stacks observations and masks per env; each row's mask is that env's
    own legal actions, and stepping every env with a masked index never fails.  With
    same-step autoreset a finished game's row is already the next game's, so every row
    always has a legal action."""
    envs = SyncVectorEnv(
        [lambda: TripletopperGymEnv("thirty-one", 3, opponents="random") for _ in range(4)],
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    obs, info = envs.reset(seed=7)
    assert obs["observation"].shape == (4, envs.single_observation_space["observation"].shape[0])
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(300):
        masks = obs["action_mask"]
        assert masks.shape == (4, 110) and np.array_equal(masks, info["action_mask"])
        for i, env in enumerate(envs.envs):
            assert np.array_equal(masks[i], env.encoder.mask(env.state, 0))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, _, terminated, _, info = envs.step(actions)
        finished += int(terminated.sum())
    assert finished > 0  # autoreset went on with new games


def test_illegal_index_changes_nothing() -> None:
    """By default an illegal index loses the episode (reward -1); with illegal="raise" it
    raises.  Either way the game is unchanged."""
    env = TripletopperGymEnv("thirty-two", 3, opponents="easy")
    obs, _ = env.reset(seed=3)
    before = env.state.dump()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    assert "is not allowed" in info["error"]
    with pytest.raises(IllegalActionError, match="call reset"):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    strict = TripletopperGymEnv("thirty-two", 3, opponents="easy", illegal="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError, match="is not allowed"):
        strict.step(illegal)
    with pytest.raises(ValueError, match="action space"):
        strict.step(-1)
    assert env.state.dump() == strict.state.dump() == before


def test_observation_does_not_leak() -> None:
    env = TripletopperGymEnv("three-up-three-down", 3, opponents="random", seat=1)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for step in range(40):
        if env.state.is_terminal():
            break
        world = env.state.resample(1, Rng(step))
        assert np.array_equal(env.encoder.observation(world, 1), obs["observation"])
        assert np.array_equal(env.encoder.mask(world, 1), obs["action_mask"])
        obs, *_ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert step > 10


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="opponents"):
        TripletopperGymEnv("thirty-one", 3, opponents=["random"])
    with pytest.raises(ValueError, match="seat"):
        TripletopperGymEnv("toe", seat=2)


def test_reset_always_leaves_a_move_to_the_learner() -> None:
    """Thirty-Two with one counter each: a bot's Thirty-two can end the game before seat 0
    moves; reset deals again until the learner has a move."""
    env = TripletopperGymEnv("thirty-two", 4, {"counters": 1}, opponents="random")
    redealt = 0
    for seed in range(200):
        obs, _ = env.reset(seed=seed)
        assert not env.state.is_terminal() and obs["action_mask"].any()
        assert env.state.to_act() == (0,)
        first = int(seeding.np_random(seed)[0].integers(2**62))
        redealt += env.state.origin["seed"] != first
    assert redealt > 0  # the seeds include games the bots ended at once


def test_native_vector_env() -> None:
    """make_vec's vector entry point: batches of tensors and masks, each row its own game's,
    same-step autoreset (every row always has a legal action), and the same games as one
    TripletopperGymEnv per row seeded alike."""
    envs = gymnasium.make_vec(
        "tripletopper/ThirtyOne-v0",
        num_envs=3,
        vectorization_mode="vector_entry_point",
        players=2,
    )
    single = [TripletopperGymEnv("thirty-one", 2) for _ in range(3)]
    obs, info = envs.reset(seed=10)
    for i, env in enumerate(single):
        o, _ = env.reset(seed=10 + i)
        assert np.array_equal(o["observation"], obs["observation"][i])
    rng = np.random.default_rng(1)
    ends = 0
    for _ in range(200):
        mask = obs["action_mask"]
        assert mask.shape == (3, 110) and (mask.sum(axis=1) > 0).all()
        assert np.array_equal(mask, info["action_mask"])
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        obs, rewards, terminated, _, info = envs.step(actions)
        for i, env in enumerate(single):
            o, r, t, _, _ = env.step(int(actions[i]))
            assert r == rewards[i] and t == terminated[i]
            if t:
                assert np.array_equal(o["observation"], info["final_observation"][i])
                o, _ = env.reset()
                ends += 1
            assert np.array_equal(o["observation"], obs["observation"][i])
    assert ends > 0


def test_hand_rewards_are_the_learners_lives() -> None:
    """With rewards="hand" a Thirty-One episode's rewards add up to the lives the learner
    won or lost: -4 when it lost them all, more when it won."""
    env = TripletopperGymEnv("thirty-one", 3, opponents="random", rewards="hand")
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        total, rng = 0.0, np.random.default_rng(seed)
        while True:
            obs, reward, terminated, _, _ = env.step(
                int(rng.choice(np.flatnonzero(obs["action_mask"])))
            )
            total += reward
            if terminated:
                break
        lives = env.state.public_observation()["lives"][0]
        assert total == lives - 4
