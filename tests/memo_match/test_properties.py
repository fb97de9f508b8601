"""Properties of random Memo Match games of Memo Match's own: every card accounted for, no
card shown to a seat that was not entitled to see it (worked out from the actions alone),
resamples that keep every watched match and miss.  What every game owes the engine contract
(refusals, clones, records, events on and off, resampled views) is tests/test_contract.py's."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, Rng
from tripletopper.games.memo_match import MemoMatch, MemoMatchState, matching_variables
from tripletopper.games.memo_match.knowledge import holds

NAMES = TRIPLE_TOPPER.names


@st.composite
def games(draw: st.DrawFn) -> tuple[MemoMatch, int, float]:
    players = draw(st.integers(1, 6))
    game = MemoMatch(
        players,
        wilds=draw(st.booleans()),
        reveal=draw(st.sampled_from(["public", "private"])),
        swap_on_miss=draw(st.booleans()),
        max_turns=draw(st.sampled_from([2000, 60, 60])),
    )
    declare_chance = draw(st.sampled_from([0.0, 0.02, 0.3]))
    return game, draw(st.integers(0, 2**40)), declare_chance


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), *(strings(k) for k in value))
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def choose(state: MemoMatchState, rng: Rng, declare_chance: float) -> tuple[int, Any]:
    seats = state.to_act()
    if state.timeout() and rng.random() < 0.1:
        return CLOCK, ("timeout",)
    seat = seats[rng.below(len(seats))]
    legal = state.legal_actions(seat)
    if ("declare",) in legal and len(legal) > 1 and rng.random() >= declare_chance:
        legal = legal[:-1]
    return seat, legal[rng.below(len(legal))]


class Witness:
    """Which cards each seat (and a spectator) was entitled to see, worked out from the
    actions alone, independently of the engine's own bookkeeping."""

    def __init__(self, state: MemoMatchState) -> None:
        self.private = state.game.private
        self.players = state.game.players
        self.allowed: dict[int | None, set[str]] = {s: set() for s in [None, *range(self.players)]}

    def before(self, state: MemoMatchState, seat: int, action: Any) -> None:
        table = state.table
        kind = action[0]
        if kind == "flip":
            card = NAMES[table[action[1]]]
            for viewer in self.allowed:
                if viewer == seat or not self.private:
                    self.allowed[viewer].add(card)
        shown: list[int] = []
        left = [c for c in table if c >= 0]
        if kind == "declare":
            shown = left
        elif kind == "take":
            shown = [table[action[1]]]
            if len(left) - 1 <= state.bonus_left - 1:  # the rest is taken with it
                shown = left
        elif kind == "flip" and state.phase == 1:  # a triple with three cards or fewer left
            pair = (table[state.first], table[action[1]])
            if matching_variables(*pair, wilds=state.game.wilds) == 3 and len(left) - 2 <= 3:
                shown = [c for c in left if c not in pair]
        for viewer in self.allowed:
            self.allowed[viewer] |= {NAMES[c] for c in shown}

    def check(self, state: MemoMatchState, events: list[Any], observations: bool = True) -> None:
        for viewer, allowed in self.allowed.items():
            if observations:
                obs = state.public_observation() if viewer is None else state.observation(viewer)
                seen = strings(obs) & set(NAMES)
                assert seen <= allowed, (viewer, seen - allowed)
                if self.private:  # the table never shows a seat's memory (RULINGS 2026-11-29)
                    shown = {p for p, card in obs["face_up"].items() if card is not None}
                    if obs["phase"] == "second":
                        assert not shown or viewer == state.turn, (viewer, shown)
                    public = self.allowed[None]
                    for owner, pile in enumerate(obs["captured_cards"]):
                        if owner != viewer:
                            assert set(pile) <= public, (viewer, owner, set(pile) - public)
            for event in events:
                leaked = (strings(event.view(viewer)) & set(NAMES)) - allowed
                assert not leaked, (viewer, event, leaked)


def accounted(state: MemoMatchState) -> None:
    cards = [c for c in state.table if c >= 0] + state.set_aside
    cards += [c for p in state.piles for c in p] + [c for p in state.ppiles for c in p]
    assert sorted(cards) == list(range(125))


@given(games())
def test_random_games_keep_every_card_and_leak_nothing(case: tuple[MemoMatch, int, float]) -> None:
    game, seed, declare_chance = case
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    witness = Witness(state)
    witness.check(state, [])
    for step in range(700):
        accounted(state)
        if state.is_terminal():
            break
        seat, action = choose(state, rng, declare_chance)
        witness.before(state, seat, action)
        events = state.apply(action, seat)
        witness.check(state, events, observations=step % 4 == 0 or state.is_terminal())


@settings(max_examples=25)
@given(games(), st.integers(0, 2**32))
def test_resample_keeps_what_each_seat_knows(
    case: tuple[MemoMatch, int, float], sample_seed: int
) -> None:
    game, seed, declare_chance = case
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5A5A)
    for step in range(160):
        if state.is_terminal():
            break
        if step % 11 == 0:
            for seat in range(game.players):
                twin = state.resample(seat, Rng(sample_seed + step))
                accounted(twin)
                for a, b, kind in twin.constraints:  # every watched match and miss still holds
                    assert holds(kind, game.variables[a * 125 + b])
        state.apply(*reversed(choose(state, rng, declare_chance)))


def test_private_resample_moves_unseen_cards_only() -> None:
    state = MemoMatch(3, reveal="private").new_state(seed=5)
    rng = Rng(9)
    for _ in range(40):
        state.apply(*reversed(choose(state, rng, 0.0)))
    changed = False
    for k in range(20):
        twin = state.resample(0, Rng(k))
        for p, card in enumerate(state.table):
            if card >= 0 and state.knows[card] & 1:
                assert twin.table[p] == card
        changed |= twin.table != state.table
    assert changed


def test_many_complete_random_games_end() -> None:
    for seed in range(60):
        game = MemoMatch(1 + seed % 8, wilds=seed % 3 > 0)
        state = game.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat, action = choose(state, rng, 0.05)
            state.apply(action, seat, events=False)
        accounted(state)


@settings(max_examples=25)
@given(games(), st.integers(0, 2**32))
def test_a_world_built_from_a_view_is_the_resample_of_the_same_rng(
    case: tuple[MemoMatch, int, float], sample_seed: int
) -> None:
    """From a seat's observation and recall alone (as JSON), a world lays out every card
    once, keeps every watched match and miss, and deals exactly the table and the
    observations of every seat that ``resample`` deals with the same rng."""
    game, seed, declare_chance = case
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5A5A)
    for step in range(160):
        if state.is_terminal():
            break
        if step % 11 == 0:
            for seat in range(game.players):
                obs = json.loads(json.dumps(state.observation(seat)))
                recall = json.loads(json.dumps(state.recall(seat)))
                world = game.world_from_view(seat, obs, recall, Rng(sample_seed + step))
                twin = state.resample(seat, Rng(sample_seed + step))
                accounted(world)
                for a, b, kind in world.constraints:
                    assert holds(kind, game.variables[a * 125 + b])
                assert world.table == twin.table
                views = range(game.players)
                assert [world.observation(s) for s in views] == [twin.observation(s) for s in views]
                assert world.recall(seat) == state.recall(seat)
        state.apply(*reversed(choose(state, rng, declare_chance)))
