"""The batched engines' research tensors, masks and index translations
(``tripletopper.rl.batched``) against the scalar encoder, every step of random games; the
environments on them (``tripletopper.rl.batched_env``) against the scalar ones."""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode

from tests.test_batched import (
    RARE_KNOCKS,
    THIRTY_ONE_VARIANTS,
    TOE_VARIANTS,
    keep_the_hand,
    lockstep,
    stacked_game,
)
from tests.thirty_one.helpers import dealt_31
from tripletopper.batched import ThirtyOneBatch, ToeBatch
from tripletopper.engine import Game, State
from tripletopper.errors import IllegalActionError
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.toe import Toe
from tripletopper.rl.batched import batch_encoder
from tripletopper.rl.batched_env import BatchedAgentsEnv, BatchedVectorEnv
from tripletopper.rl.encoding import Encoder
from tripletopper.rl.gym import TripletopperVectorEnv

CASES = [(ThirtyOne, ThirtyOneBatch, p, o) for p, o in THIRTY_ONE_VARIANTS] + [
    (Toe, ToeBatch, 2, o) for o in TOE_VARIANTS
]
IDS = [f"{c[0].__name__}-{c[2]}-{'-'.join(f'{k}={v}' for k, v in c[3].items())}" for c in CASES]


def check_encoding(batch: Any, states: list[State], enc: Encoder) -> None:
    """Every seat's tensor and mask equal the scalar encoder's of the same state, and the
    index translations name the same actions both ways."""
    benc = batch_encoder(batch.game)
    players = batch.game.players
    for seat in range(players):
        tensors = benc.encode(batch, seat)
        masks = benc.mask(batch, seat)
        assert tensors.dtype == np.float32 and masks.dtype == np.int8
        for i, state in enumerate(states):
            plain = enc.tensor(state.observation(seat))
            assert np.array_equal(tensors[i], plain), (i, seat, np.flatnonzero(tensors[i] != plain))
            assert np.array_equal(masks[i], enc.mask(state, seat)), (i, seat)
        some = np.arange(0, batch.n, 2)  # a subset of the games: the same rows
        assert np.array_equal(benc.encode(batch, seat, some), tensors[some])
    batch_mask = batch.legal_mask()
    to_act = batch.to_act()
    for i, state in enumerate(states):
        seat = int(to_act[i])
        if seat < 0:
            continue
        games = np.array([i])
        for b in np.flatnonzero(batch_mask[i]):
            r = int(benc.to_rl(batch, np.array([b]), games)[0])
            assert enc.index_to_action(r, state, seat) == batch.action(i, int(b))
            assert benc.from_rl(batch, np.array([r]), games)[0] == b
        for r in np.flatnonzero(enc.mask(state, seat)):
            b = int(benc.from_rl(batch, np.array([r]), games)[0])
            assert batch.action(i, b) == enc.index_to_action(int(r), state, seat)
            assert benc.to_rl(batch, np.array([b]), games)[0] == r


def play(game: Game, batch_cls: Any, seeds: range, steps: int, seed: int) -> None:
    """Random games (the batch's uniform choice) in the batch and the scalar engine side by
    side, restarted when they end, checked before every step."""
    batch = batch_cls(game, np.array(seeds))
    states = [game.new_state(s) for s in seeds]
    enc = Encoder(game)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        check_encoding(batch, states, enc)
        actions = batch.sample(rng.integers(0, 2**32, batch.n, dtype=np.uint64))
        for i, state in enumerate(states):
            state.apply(batch.action(i, int(actions[i])), events=False)
        ended = batch.step(actions, autoreset=True)
        for i in np.flatnonzero(ended):
            states[i] = game.new_state(batch.episode_seed(i))
    check_encoding(batch, states, enc)


@pytest.mark.parametrize(("game_cls", "batch_cls", "players", "options"), CASES, ids=IDS)
def test_batched_tensors_masks_and_indices_are_the_scalar_encoders(
    game_cls: Any, batch_cls: Any, players: int, options: dict[str, Any]
) -> None:
    game = game_cls(players, **options)
    play(game, batch_cls, range(4), 900 // players, seed=players)


def test_over_games_are_encoded_too() -> None:
    """A game that ended and was not restarted: the observation has no hand; the tensor
    follows (and no seat has a legal index)."""
    game = Toe(2, max_turns=6)
    batch = ToeBatch(game, [1, 2])
    states = [game.new_state(s) for s in (1, 2)]
    rng = random.Random(0)
    while not all(s.is_terminal() for s in states):
        actions = batch.sample(np.array([rng.getrandbits(32) for _ in states], dtype=np.uint64))
        for i, state in enumerate(states):
            if not state.is_terminal():
                state.apply(batch.action(i, int(actions[i])), events=False)
        batch.step(actions)
    check_encoding(batch, states, Encoder(game))
    assert not batch_encoder(batch.game).mask(batch, 0).any()


def test_thirty_one_indices_are_one_permutation() -> None:
    batch = ThirtyOneBatch(ThirtyOne(3, manual_31=True), [0])
    benc, enc = batch_encoder(batch.game), Encoder(batch.game)
    every = np.arange(110)
    rl = benc.to_rl(batch, every)
    assert sorted(rl.tolist()) == every.tolist()
    assert benc.from_rl(batch, rl).tolist() == every.tolist()
    state = batch.game.new_state(0)
    assert all(enc.index_to_action(int(rl[b]), state, 0) == batch.action(0, b) for b in every)
    assert benc.from_rl(batch, np.array([-1, 110])).tolist() == [-1, -1]


def test_toe_indices_without_a_batch_action() -> None:
    """A fourth slot's discard, a slot past a three-card hand and the Quiz Show's indices
    have no batch index; every batch index of the hand has a research one and back."""
    batch = ToeBatch(Toe(2), [3])
    benc = batch_encoder(batch.game)
    none = [3, 10, 11 + 3 * 65, 271, 272, 277, 278, -1]  # (0, 3), (1, 2, 3), slot 3, quiz
    assert benc.from_rl(batch, np.array(none), np.zeros(len(none), dtype=int)).tolist() == [
        -1
    ] * len(none)
    batch_indices = np.arange(5 + 3 * 65)  # draw, discards, and plays of the three cards
    games = np.zeros(len(batch_indices), dtype=int)
    rl = benc.to_rl(batch, batch_indices, games)
    assert len(set(rl.tolist())) == len(rl) and rl.min() >= 0
    assert benc.from_rl(batch, rl, games).tolist() == batch_indices.tolist()


def checking(policy: Any) -> Any:
    """A lockstep policy (tests/test_batched.py) that checks the encodings first."""

    def choose(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
        check_encoding(batch, states, Encoder(batch.game))
        return policy(batch, states, rng)  # type: ignore[no-any-return]

    return choose


def test_rare_paths_encode_alike() -> None:
    """Stacked decks: dealt 31s (declarable, or counting 30 when kept), 30.5 three of a
    kind, and void hands with a stock run down to empty."""
    many = ({0: "AS KS QS", 1: "AH KH QH", 2: "7H 7S 7D"}, "9S", "")
    for options in ({}, {"manual_31": True}, {"three_of_a_kind": "30.5"}):
        decks, dealer = stacked_game(3, 2, [many, dealt_31(1, 3)], **options)
        lockstep(
            ThirtyOne(3, **options),
            ThirtyOneBatch,
            [0],
            checking(RARE_KNOCKS),
            60,
            decks=[decks],
            setup={"dealer": dealer},
        )
    to_the_drain = [dealt_31(0, 2)] * 3 + [dealt_31(1, 2)] * 3
    tie = ({0: "2C 3D 4H", 1: "2D 3H 4S"}, "9S", "")
    decks, dealer = stacked_game(2, 1, [*to_the_drain, tie])
    _batch, states = lockstep(
        ThirtyOne(2),
        ThirtyOneBatch,
        [0],
        checking(keep_the_hand),
        200,
        decks=[decks],
        setup={"dealer": dealer},
    )
    assert states[0].stats()["void_hands"] >= 1


# --- the environments -----------------------------------------------------------------------

ENV_CASES = [
    ("thirty-one", 3, {}, 0, "game", True),
    ("thirty-one", 3, {}, 1, "game", False),
    ("thirty-one", 4, {"manual_31": True, "three_of_a_kind": "30.5"}, 2, "hand", True),
    ("thirty-one", 4, {"manual_31": True, "three_of_a_kind": "30.5"}, 3, "hand", False),
    ("toe", 2, {}, 1, "game", False),
]


@pytest.mark.parametrize(("name", "players", "options", "seat", "rewards", "play_out"), ENV_CASES)
def test_first_episodes_are_the_scalar_vector_envs(
    name: str, players: int, options: dict[str, Any], seat: int, rewards: str, play_out: bool
) -> None:
    """For the same seeds and actions, each game's first episode is the game that
    TripletopperVectorEnv plays against random bots: the same tensors, masks, rewards,
    ends and final tensors at every step (later episodes take other seeds).  Without
    ``play_out`` a Thirty-One learner's episode ends when it is out, at the same step with
    the same reward; its final tensor is then that moment's (it shows the learner out)."""
    kwargs = {"players": players, "options": options, "seat": seat, "rewards": rewards}
    ours = BatchedVectorEnv(3, name, play_out=play_out, **kwargs)
    scalar = TripletopperVectorEnv(3, name, opponents="random", **kwargs)
    obs, info = ours.reset(seed=[10, 11, 12])
    their_obs, their_info = scalar.reset(seed=10)
    assert data_equivalence((obs, info), (their_obs, their_info), exact=True)
    first = np.ones(3, dtype=bool)  # the games still in their first episode
    rng = np.random.default_rng(seat)
    steps = outs = 0
    out_slot = ours.encoder.at.get("out", 0)  # type: ignore[attr-defined]
    while first.any():
        assert ours.observation_space.contains(obs)
        actions = (rng.random(obs["action_mask"].shape) * obs["action_mask"]).argmax(axis=1)
        obs, reward, terminated, truncated, info = ours.step(actions)
        their_obs, their_reward, their_terminated, _, their_info = scalar.step(actions)
        for i in np.flatnonzero(first):
            assert reward[i] == their_reward[i] and terminated[i] == their_terminated[i]
            if terminated[i]:
                final, theirs = info["final_observation"][i], their_info["final_observation"][i]
                if play_out or name == "toe" or not theirs[out_slot]:  # the learner won
                    assert np.array_equal(final, theirs)
                else:
                    assert final[out_slot] == 1  # the learner is out (relative slot 0)
                    outs += 1
                first[i] = False
            else:
                for key in ("observation", "action_mask"):
                    assert np.array_equal(obs[key][i], their_obs[key][i]), (steps, i, key)
        assert not truncated.any() and np.array_equal(info["action_mask"], obs["action_mask"])
        assert (obs["action_mask"].sum(axis=1) > 0).all()  # the next games are dealt at once
        steps += 1
    assert steps > 10
    assert outs or play_out or name == "toe"


def test_make_vec_and_a_batch_of_one() -> None:
    """gymnasium.make_vec gives the batched env; a batch of one seeded like the scalar
    vector env plays its game; the same seed and actions give the same run."""
    envs = gymnasium.make_vec("tripletopper/ToeBatched-v0", num_envs=1, options={"max_turns": 40})
    assert isinstance(envs.unwrapped, BatchedVectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    twin = BatchedVectorEnv(1, "toe", options={"max_turns": 40})
    scalar = TripletopperVectorEnv(1, "toe", options={"max_turns": 40}, opponents="random")
    runs = [env.reset(seed=5) for env in (envs, twin, scalar)]
    for _ in range(200):
        assert data_equivalence(runs[0], runs[1], exact=True)
        actions = np.array([int(np.flatnonzero(runs[0][0]["action_mask"][0])[-1])])
        runs = [env.step(actions) for env in (envs, twin, scalar)]
        if runs[0][2][0]:
            break
        assert data_equivalence(runs[0], runs[2], exact=True)
    assert runs[0][2][0] and runs[0][1][0] == runs[2][1][0]


def test_illegal_indices() -> None:
    """An index outside the mask ends that game's episode with -1 and leaves the game as
    it was (its final tensor is the last one); with illegal="raise" nothing changes."""
    env = BatchedVectorEnv(4, "thirty-one", players=2)
    obs, _ = env.reset(seed=1)
    before = [env.batch.dump(i) for i in range(4)]
    actions = obs["action_mask"].argmax(axis=1)
    actions[2] = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    actions[3] = 500
    _, reward, terminated, _, info = env.step(actions)
    assert reward[2:].tolist() == [-1, -1] and terminated.tolist() == [False, False, True, True]
    assert np.array_equal(info["final_observation"][2], obs["observation"][2])
    assert env.batch.episode.tolist() == [0, 0, 1, 1]
    strict = BatchedVectorEnv(4, "thirty-one", players=2, illegal="raise")
    obs, _ = strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="game 2"):
        strict.step(actions)
    assert [strict.batch.dump(i) for i in range(4)] == before
    with pytest.raises(ValueError, match="random opponents"):
        BatchedVectorEnv(2, "toe", opponents="medium")
    with pytest.raises(ValueError, match="no batched engine"):
        BatchedVectorEnv(2, "thirty-two")


def test_agents_env() -> None:
    """Every agent's tensors and masks; the seat to act is the only one with a legal index;
    ended games pay the winner 1 and start again; an illegal index changes nothing."""
    env = BatchedAgentsEnv(5, "thirty-one", players=3)
    observations, _ = env.reset(seed=3)
    enc = Encoder(env.game)
    rng = np.random.default_rng(0)
    ends = 0
    for step in range(300):
        for seat, agent in enumerate(env.agents):
            mask = observations[agent]["action_mask"]
            assert np.array_equal(mask.any(axis=1), env.to_act == seat)
            if step % 50 == 0:
                state = env.batch.state(1)
                assert np.array_equal(
                    observations[agent]["observation"][1], enc.tensor(state.observation(seat))
                )
        masks = sum(observations[agent]["action_mask"] for agent in env.agents)
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        observations, rewards, terminations, _, _ = env.step(actions)
        ended = terminations["player_0"]
        total = sum(rewards.values())
        assert np.array_equal(total, ended.astype(float))
        ends += int(ended.sum())
    assert ends > 0
    before = [env.batch.dump(i) for i in range(5)]
    with pytest.raises(IllegalActionError):
        env.step(np.full(5, 109))
    assert [env.batch.dump(i) for i in range(5)] == before
