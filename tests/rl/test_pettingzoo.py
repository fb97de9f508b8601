"""The PettingZoo AEC environments (``tripletopper.rl.pettingzoo``)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from tripletopper.engine import Rng
from tripletopper.errors import IllegalActionError
from tripletopper.games import GAMES
from tripletopper.rl.pettingzoo import env

TABLES = [
    (name, n)
    for name, cls in sorted(GAMES.items())
    for n in sorted({max(2, cls.min_players), cls.max_players})
]


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_api_and_seed(name: str, players: int) -> None:
    options = {"max_turns": 40} if name in ("memo-match", "three-up-three-down") else {}
    api_test(env(name, players, options), num_cycles=40)
    seed_test(lambda: env(name, players, options), num_cycles=40)


def random_game(name: str, players: int, seed: int, **kwargs: object) -> dict[str, float]:
    """Play a game with random legal indices; the sum of each agent's rewards."""
    aec = env(name, players, **kwargs)  # type: ignore[arg-type]
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = {agent: 0.0 for agent in aec.possible_agents}
    for agent in aec.agent_iter(10_000):
        obs, reward, term, trunc, _ = aec.last()
        totals[agent] += reward
        if term or trunc:
            aec.step(None)
        else:
            aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not aec.agents
    return totals


def test_terminal_rewards_are_the_returns() -> None:
    """A whole game's rewards are results().returns(): one winner gets 1, the rest 0."""
    for seed in range(3):
        totals = random_game("thirty-one", 3, seed)
        assert sorted(totals.values()) == [0.0, 0.0, 1.0]


def test_hand_rewards_add_up_to_the_lives_lost() -> None:
    """Per-hand rewards in Thirty-One are the lives won and lost: everyone starts with 4,
    and over a game all but the winner lose all 4 (a life in the kitty is not paid out)."""
    totals = random_game("thirty-one", 3, 5, rewards="hand")
    assert sorted(totals.values())[:2] == [-4.0, -4.0]
    assert -4.0 < max(totals.values()) <= 0.0
    with pytest.raises(ValueError, match="has no hands"):
        env("toe", 2, rewards="hand")


def test_illegal_index_is_refused_and_changes_nothing() -> None:
    aec = env("thirty-one", 3)
    aec.reset(seed=1)
    agent = aec.agent_selection
    before = aec.state.dump()
    mask = aec.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError, match="not allowed"):
        aec.step(illegal)
    with pytest.raises(ValueError, match="action space"):
        aec.step(aec.encoder.actions)
    with pytest.raises(ValueError):
        aec.step(None)
    assert aec.state.dump() == before and aec.agent_selection == agent
    aec.step(int(np.flatnonzero(mask)[0]))
    assert aec.state.version == 1


def test_several_seats_take_turns_in_aec_order() -> None:
    """3UP's choosing phase: every seat chooses, one after the other in seat order."""
    aec = env("three-up-three-down", 4)
    aec.reset(seed=2)
    order = []
    while aec.state.observation(0)["phase"] == "choose":
        agent = aec.agent_selection
        order.append(agent)
        aec.step(int(np.flatnonzero(aec.observe(agent)["action_mask"])[0]))
    assert order == [f"player_{s}" for s in range(4)]


def test_the_env_plays_the_clock() -> None:
    """Memo Match: when every spotter has passed, the env plays the clock's timeout and
    the game goes on (no agent ever sees a phase with nobody to act)."""
    aec = env("memo-match", 2)
    aec.reset(seed=3)
    passed = 0
    for _ in aec.agent_iter(5000):
        obs, _, term, _, _ = aec.last()
        if term:
            aec.step(None)
            continue
        assert aec.state.to_act()
        mask = obs["action_mask"]
        spot = aec.state.observation(0)["phase"] == "spot"
        passed += spot
        # 250: declare "no matches" whenever allowed, 251: pass when spotting
        aec.step(251 if spot else 250 if mask[250] else int(np.flatnonzero(mask)[0]))
    assert passed > 0 and not aec.agents


def test_observations_do_not_leak() -> None:
    aec = env("thirty-two", 4)
    aec.reset(seed=4)
    rng = np.random.default_rng(4)
    for step in range(60):
        agent = aec.agent_selection
        if aec.terminations[agent]:
            break
        seat = int(agent.split("_")[1])
        obs = aec.observe(agent)
        true_state = aec.state
        aec.state = true_state.resample(seat, Rng(step))
        resampled = aec.observe(agent)
        aec.state = true_state
        assert np.array_equal(obs["observation"], resampled["observation"])
        assert np.array_equal(obs["action_mask"], resampled["action_mask"])
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert step >= 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_observations_are_the_observations_tensors_at_every_step(name: str) -> None:
    """Every agent's observation (kept per state version) is, at every step, the tensor of
    its seat's observation dict (the plain path) and its mask."""
    aec = env(name, 2 if name != "thirty-two" else 3)
    aec.reset(seed=7)
    enc = aec.encoder
    rng = np.random.default_rng(7)
    for _step in range(80):
        for seat, agent in enumerate(aec.possible_agents):
            obs = aec.observe(agent)
            plain = enc.tensor(aec.state.observation(seat))
            assert np.array_equal(obs["observation"], plain)
            assert np.array_equal(obs["action_mask"], enc.mask(aec.state, seat))
        obs, _, term, _, _ = aec.last()
        if term:
            break
        aec.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_render_ansi_is_the_terminal_view() -> None:
    aec = env("thirty-one", 2, render_mode="ansi")
    aec.reset(seed=1)
    text = aec.render()
    assert isinstance(text, str) and "dealer: player_1" in text and "Discard pile: 7♠" in text
    assert "Your hand" not in text  # a spectator sees no hand
    mine = env("thirty-one", 2, render_mode="ansi", render_seat=0)
    mine.reset(seed=1)
    assert mine.state.observation(0)["hand"] == ["7D", "7C", "3S"]
    assert "Your hand: 7♦ 7♣ 3♠" in str(mine.render())
    assert env("thirty-one", 2).render() is None
