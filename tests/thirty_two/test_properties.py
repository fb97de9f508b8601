"""Properties of random Thirty-Two games of Thirty-Two's own: every card and counter accounted
for, no hidden or mucked card shown, resamples that keep what the table saw and respect
reshuffles.  What every game owes the engine contract (refusals, clones, records, events on
and off, resampled views) is tests/test_contract.py's."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import Event, Rng
from tripletopper.games.thirty_two import ThirtyTwo, ThirtyTwoState

NAMES = TRIPLE_TOPPER.names


@st.composite
def games(draw: st.DrawFn) -> tuple[ThirtyTwo, int, float]:
    players = draw(st.integers(3, 6))
    game = ThirtyTwo(
        players,
        counters=draw(st.integers(1, 3 * players)),
        no_wilds=draw(st.booleans()),
        cap_at_32=draw(st.booleans()),
        end=draw(st.sampled_from(["first_elimination", "open"])),
    )
    knock_chance = draw(st.sampled_from([0.0, 0.01, 0.1, 0.5]))
    return game, draw(st.integers(0, 2**40)), knock_chance


def strings(value: Any) -> set[str]:
    """Every string inside a JSON-like value (card names among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), *(strings(k) for k in value))
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def hidden_from(state: ThirtyTwoState, seat: int | None) -> set[str]:
    """Cards this seat cannot know the place of: the stock and others' unseen hand cards."""
    hidden = {NAMES[c] for c in state.stock.contents()}
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {NAMES[c] for c in hand if c not in state.public}
    return hidden


def check_invariants(state: ThirtyTwoState, total: int) -> None:
    assert sum(state.counters) == total
    assert all(c >= 0 for c in state.counters)
    if not state.is_terminal():
        cards = [c for h in state.hands for c in h] + state.pile + state.stock.contents()
        assert sorted(cards) == list(range(125))
        for seat in state.seats_in:
            assert len(state.hands[seat]) in (3, 4)
        assert all(not state.hands[s] for s in range(state.game.players) if s not in state.seats_in)
    seats: list[int | None] = [None, *range(state.game.players)]
    for seat in seats:
        obs = state.public_observation() if seat is None else state.observation(seat)
        current = {k: v for k, v in obs.items() if k != "last_hand"}
        leaked = strings(current) & hidden_from(state, seat)
        assert not leaked, (seat, leaked)


def check_events(state: ThirtyTwoState, events: list[Event], old_hands: list[list[int]]) -> None:
    """Mucked hands reach their owner only."""
    for event in events:
        if event.type != "hand_over":
            continue
        for seat in [None, *range(state.game.players)]:
            view = event.view(seat)
            text = strings(view)
            shown = {s["seat"] for s in view["shown"]}
            for owner, cards in enumerate(old_hands):
                if owner != seat and owner not in shown:
                    assert not text & {NAMES[c] for c in cards}, (seat, owner)


def choose(state: ThirtyTwoState, rng: Rng, knock_chance: float) -> tuple[Any, ...]:
    legal = state.legal_actions()
    if ("knock",) in legal and rng.random() >= knock_chance:
        legal = [a for a in legal if a != ("knock",)]
    return legal[rng.below(len(legal))]


@given(games())
def test_random_games_keep_every_invariant(case: tuple[ThirtyTwo, int, float]) -> None:
    game, seed, knock_chance = case
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    total = sum(state.counters)
    for _ in range(400):
        check_invariants(state, total)
        if state.is_terminal():
            break
        old_hands = state.hands
        events = state.apply(choose(state, rng, knock_chance))
        check_events(state, events, old_hands)


@given(games(), st.integers(0, 2**32))
def test_resample_keeps_what_the_seat_knows_and_redeals_the_rest(
    case: tuple[ThirtyTwo, int, float], sample_seed: int
) -> None:
    game, seed, knock_chance = case
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5A5A)
    for step in range(250):
        if state.is_terminal():
            break
        if step % 3 == 0:
            for seat in range(game.players):
                twin = state.resample(seat, Rng(sample_seed + step))
                assert twin.hands[seat] == state.hands[seat]
                cards = [c for h in twin.hands for c in h] + twin.pile + twin.stock.contents()
                assert sorted(cards) == list(range(125))
                for other in range(game.players):  # known cards stay where everyone saw them
                    known = [c for c in state.hands[other] if c in state.public]
                    assert all(c in twin.hands[other] for c in known)
        state.apply(choose(state, rng, knock_chance))


def test_resample_respects_reshuffles() -> None:
    """A card face up at a reshuffle cannot be in a hand slot filled before it."""
    state = ThirtyTwo(3, counters=50).new_state(seed=11)
    rng = Rng(3)
    while state.epoch == 0:  # draw and throw the drawn card until the stock is rebuilt
        seat = state.current_seat()
        state.apply(("draw",))
        state.apply(("discard", state.hands[seat][-1], False))
    old = {
        seat: [c for c in state.hands[seat] if state.drawn_epoch.get(c, 0) == 0]
        for seat in range(3)
    }
    reshuffled = state.reshuffled[0]
    for k in range(200):
        seat = k % 3
        twin = state.resample(seat, rng)
        for other in range(3):
            if other == seat:
                continue
            slots_before = [i for i, c in enumerate(state.hands[other]) if c in old[other]]
            assert not {twin.hands[other][i] for i in slots_before} & reshuffled


def test_many_complete_random_games_conserve_cards_and_counters() -> None:
    for seed in range(300):
        game = ThirtyTwo(3 + seed % 4, end="open" if seed % 5 == 0 else "first_elimination")
        state = game.new_state(seed)
        rng = Rng(seed)
        total = sum(state.counters)
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))], events=False)
            assert sum(state.counters) == total
        results = state.results()
        assert results is not None and results.winners


def test_a_world_built_from_a_view_respects_reshuffles_as_resample_does() -> None:
    """After two rebuilds of the stock, a world built from a seat's observation and recall
    alone deals every hand and the stock exactly as a resample with the same rng."""
    state = ThirtyTwo(3, counters=50).new_state(seed=11)
    k = 0
    while state.epoch < 2:  # draw, and throw the drawn card (now and then an old one)
        seat = state.current_seat()
        state.apply(("draw",))
        state.apply(("discard", state.hands[seat][k % 3 if k % 5 == 0 else -1], False))
        k += 1
    assert any(e for seat in range(3) for e in state.recall(seat)["unseen_drawn_in"][seat - 1])
    for seat in range(3):
        obs = json.loads(json.dumps(state.observation(seat)))
        recall = json.loads(json.dumps(state.recall(seat)))
        for r in range(20):
            world = state.game.world_from_view(seat, obs, recall, Rng(r))
            twin = state.resample(seat, Rng(r))
            assert world.hands == twin.hands
            assert world.stock.contents() == twin.stock.contents()
            assert world.observation(seat) == state.observation(seat)
            assert world.recall(seat) == state.recall(seat)
