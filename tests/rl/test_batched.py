"""The batched engines' research tensors, masks and index translations
(``tripletopper.rl.batched``) against the scalar encoder, every step of random games."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

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
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.toe import Toe
from tripletopper.rl.batched import batch_encoder
from tripletopper.rl.encoding import Encoder

CASES = [(ThirtyOne, ThirtyOneBatch, p, o) for p, o in THIRTY_ONE_VARIANTS] + [
    (Toe, ToeBatch, 2, o) for o in TOE_VARIANTS
]
IDS = [f"{c[0].__name__}-{c[2]}-{'-'.join(f'{k}={v}' for k, v in c[3].items())}" for c in CASES]


def check_encoding(batch: Any, states: list[State], enc: Encoder) -> None:
    """Every seat's tensor and mask equal the scalar encoder's of the same state, and the
    index translations name the same actions both ways."""
    benc = batch_encoder(batch)
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
    assert not batch_encoder(batch).mask(batch, 0).any()


def test_thirty_one_indices_are_one_permutation() -> None:
    batch = ThirtyOneBatch(ThirtyOne(3, manual_31=True), [0])
    benc, enc = batch_encoder(batch), Encoder(batch.game)
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
    benc = batch_encoder(batch)
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
        lockstep(ThirtyOne(3, **options), ThirtyOneBatch, [0], checking(RARE_KNOCKS), 60,
                 decks=[decks], setup={"dealer": dealer})  # fmt: skip
    to_the_drain = [dealt_31(0, 2)] * 3 + [dealt_31(1, 2)] * 3
    tie = ({0: "2C 3D 4H", 1: "2D 3H 4S"}, "9S", "")
    decks, dealer = stacked_game(2, 1, [*to_the_drain, tie])
    _batch, states = lockstep(ThirtyOne(2), ThirtyOneBatch, [0], checking(keep_the_hand), 200,
                              decks=[decks], setup={"dealer": dealer})  # fmt: skip
    assert states[0].stats()["void_hands"] >= 1
