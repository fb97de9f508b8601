"""The fixed action spaces, observation tensors and masks (``tripletopper.rl.encoding``)."""

from __future__ import annotations

import numpy as np
import pytest

from tripletopper.engine import Rng
from tripletopper.engine.encoding import Layout
from tripletopper.games import GAMES
from tripletopper.rl.encoding import ENCODINGS, Encoder

from .games import CONFIGS, IDS, config_game, walk

SEEDS = range(8)


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS, ids=IDS)
def test_indices_masks_and_tensors(name: str, players: int, options: dict[str, object]) -> None:
    """Over every legal action of many random games: action_to_index and index_to_action are
    exact inverses, indices are distinct and in range, the mask marks exactly them, and the
    tensor of every seat is the same for every resample of what that seat cannot see."""
    game = config_game(name, players, options)
    enc = Encoder(game)
    assert enc.actions == ENCODINGS[name].actions  # one space for every table of the game
    checked = 0
    for seed in SEEDS:
        for step, state in enumerate(walk(game, seed)):
            for seat in state.to_act():
                legal = state.legal_actions(seat)
                indices = enc.legal_indices(state, seat)
                assert len(set(indices)) == len(indices) == len(legal)
                assert all(0 <= i < enc.actions for i in indices)
                for action, index in zip(legal, indices, strict=True):
                    assert enc.action_to_index(action, state, seat) == index
                    assert enc.index_to_action(index, state, seat) == action
                mask = enc.mask(state, seat)
                assert mask.dtype == np.int8 and mask.sum() == len(legal)
                checked += len(legal)
            if step % 5 == 0:
                for seat in range(game.players):
                    tensor = enc.observation(state, seat)
                    assert tensor.shape == (enc.size,) and tensor.dtype == np.float32
                    assert np.isfinite(tensor).all() and np.abs(tensor).max() <= 1.0
                    for k in range(2):
                        world = state.resample(seat, Rng(seed * 1000 + step * 10 + k))
                        assert np.array_equal(enc.observation(world, seat), tensor)
    assert checked > 100


@pytest.mark.parametrize("name", sorted(GAMES))
def test_index_round_trip_over_the_whole_space(name: str) -> None:
    """Every index of an absolute space names an action that maps back to it."""
    enc = Encoder(config_game(name, GAMES[name].max_players, {}))
    if enc.spec.relative:
        pytest.skip("a relative space is checked against real hands above")
    for index in range(enc.actions):
        assert enc.spec.action_to_index(enc.spec.index_to_action(index, None), None) == index


def test_outside_the_space_is_a_clear_error() -> None:
    enc = Encoder(config_game("thirty-two", 4, {"end": "open"}))
    state = enc.game.new_state(1)
    with pytest.raises(ValueError, match="not in thirty-two's action space"):
        enc.action_to_index(("close",), state, 0)
    for bad in (-1, enc.actions, 2.5, True):
        with pytest.raises(ValueError):
            enc.index_to_action(bad, state, 0)  # type: ignore[arg-type]


def test_memo_match_claim_mask_without_listing() -> None:
    """A spotting seat's mask holds every claim of the face-up cards: C(n, 2) + pass."""
    game = config_game("memo-match", 2, {})
    enc = Encoder(game)
    for state in walk(game, 3, steps=3000, clock=0.0):
        if state.observation(0)["phase"] == "spot":
            seat = state.to_act()[0]
            n = len(state.observation(seat)["face_up"])
            assert enc.mask(state, seat).sum() == n * (n - 1) // 2 + 1
            break
    else:
        pytest.fail("no spotting phase reached")


def test_layouts_are_documented() -> None:
    """docs/research.md tables every block of every layout, with its slice."""
    from pathlib import Path

    text = (Path(__file__).parents[2] / "docs" / "research.md").read_text()
    for name, cls in ENCODINGS.items():
        layout: Layout = cls.layout
        assert f"{name}: {layout.size} numbers" in text
        for block, start, stop, _ in layout.rows():
            assert f"| `{block}` | {start}:{stop} |" in text, (name, block)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_encode_is_tensor_and_mask(name: str) -> None:
    game = config_game(name, 2 if name != "thirty-two" else 3, {})
    enc = Encoder(game)
    for state in walk(game, 9, steps=40):
        for seat in range(game.players):
            tensor, mask = enc.encode(state, seat)
            assert np.array_equal(tensor, enc.observation(state, seat))
            assert np.array_equal(mask, enc.mask(state, seat))
