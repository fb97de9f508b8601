"""Properties of random Thirty-One games of Thirty-One's own: every card accounted for, lives
only go down as the rules say, no hidden or mucked card shown, resamples that keep what the
table saw.  What every game owes the engine contract (refusals, clones, records, events on
and off, resampled views) is tests/test_contract.py's."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st

from tripletopper.cards import STANDARD
from tripletopper.engine import Rng
from tripletopper.games.thirty_one import ThirtyOne, ThirtyOneState
from tripletopper.games.thirty_one.rules import CHECK

from .helpers import hand as hand_of
from .helpers import play, stacked
from .test_scoring import naive_value

NAMES = STANDARD.names
QUOTED = re.compile(r'"([^"]*)"')


@st.composite
def games(draw: st.DrawFn) -> tuple[ThirtyOne, int, float]:
    game = ThirtyOne(
        draw(st.integers(2, 9)),
        three_of_a_kind=draw(st.sampled_from(["none", "30.5"])),
        manual_31=draw(st.booleans()),
    )
    knock_chance = draw(st.sampled_from([0.0, 0.02, 0.2, 0.6]))
    return game, draw(st.integers(0, 2**40)), knock_chance


def strings(value: Any) -> set[str]:
    """Every string inside a JSON-like value (card names among them)."""
    return set(QUOTED.findall(json.dumps(value)))


def hidden_from(state: ThirtyOneState, seat: int | None) -> set[str]:
    """Cards this seat cannot know the place of: the stock and others' unseen hand cards."""
    hidden = {NAMES[c] for c in state.stock.contents()}
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {NAMES[c] for c in hand if c not in state.public}
    return hidden


def check_invariants(
    state: ThirtyOneState, lives_before: list[int], viewers: list[int | None]
) -> None:
    players = state.game.players
    assert all(
        0 <= after <= before for after, before in zip(state.lives, lives_before, strict=True)
    )
    assert state.seats_in == [s for s in range(players) if state.lives[s] > 0]
    if not state.is_terminal():
        cards = [c for h in state.hands for c in h] + state.pile + state.stock.contents()
        assert sorted(cards) == list(range(52))  # every card accounted for
        for seat in range(players):
            size = 4 if seat == state.turn and state.phase == 2 else 3
            assert len(state.hands[seat]) == (size if seat in state.seats_in else 0)
        assert len(state.seats_in) >= 2
    else:
        assert len(state.seats_in) == 1
    for seat in viewers:
        obs = state.public_observation() if seat is None else state.observation(seat)
        current = {k: v for k, v in obs.items() if k != "last_hand"}
        leaked = strings(current) & hidden_from(state, seat)
        assert not leaked, (seat, leaked)
        assert obs["organs"] == [
            ["liver", "kidneys", "heart"][4 - lives :] if lives else [] for lives in state.lives
        ]
        assert obs["circling_the_drain"] == [s for s in range(players) if state.lives[s] == 1]
        assert obs["out"] == [s for s in range(players) if state.lives[s] == 0]


def expected_losses(values: dict[int, float], knocker: int | None) -> dict[int, int]:
    """The knock/stop loss rules, read plainly from the ruling."""
    low = min(values.values())
    lowest = {s for s, v in values.items() if v == low}
    if knocker is not None and knocker in lowest:
        return {knocker: 2} if lowest == {knocker} else {s: 1 for s in lowest - {knocker}}
    return {s: 1 for s in lowest}


def check_settlement(
    state: ThirtyOneState, view: dict[str, Any], old: dict[str, Any], trips: bool
) -> None:
    """Lives go down exactly as the rules say, and the hands shown are the real ones."""
    seats = old["seats_in"]
    hands = old["hands"]  # as they ended: the last discard is already taken out
    for shown in view["shown"]:
        assert shown["cards"] == hands[shown["seat"]]
    if view["ended_by"] in ("knock", "stop"):
        assert {s["seat"] for s in view["shown"]} == set(seats)
        values = {}
        for seat in seats:
            value = naive_value(hands[seat], trips)
            values[seat] = 30 if value == 31 else value  # an undeclared 31 counts 30
        expected = expected_losses(values, old["knocker"] if old["knocker"] >= 0 else None)
    else:
        declarers = view["declarers"]
        for seat in declarers:
            assert naive_value(hands[seat]) == 31
        assert {s["seat"] for s in view["shown"]} == set(declarers)
        expected = {s: 1 for s in seats if s not in declarers}
    assert {loss["seat"]: loss["lives"] for loss in view["losses"]} == expected
    would = [max(0, old["lives"][s] - expected.get(s, 0)) for s in range(len(old["lives"]))]
    void = all(would[s] == 0 for s in seats)
    assert view["void"] == void
    assert view["lives"] == (old["lives"] if void else would)
    shown_cards = {c for s in view["shown"] for c in s["cards"]}
    for seat in seats:
        if seat not in {s["seat"] for s in view["shown"]}:
            assert not set(hands[seat]) & (strings(view) - shown_cards)


def check_events(
    state: ThirtyOneState, events: list[Any], old: dict[str, Any], seat: int, action: Any
) -> None:
    """A settlement shows hands and takes lives as the rules say; no unshown hand reaches
    another seat."""
    if action[0] == "discard":
        old["hands"][seat].remove(NAMES[action[1]])
    for event in events:
        if event.type != "hand_over":
            continue
        for viewer in [None, *range(state.game.players)]:
            view = event.view(viewer)
            if viewer is None:
                check_settlement(state, view, old, state.game.trips)
            hidden = {c for s, h in enumerate(old["hands"]) if s != viewer for c in h}
            shown = {c for s in view["shown"] for c in s["cards"]}
            assert not strings(view) & (hidden - shown - set(old["public"]))


def choose(state: ThirtyOneState, rng: Rng, knock_chance: float, seat: int) -> tuple[Any, ...]:
    legal = state.legal_actions(seat)
    if ("knock",) in legal and rng.random() >= knock_chance:
        legal = [a for a in legal if a != ("knock",)]
    if ("stop",) in legal and rng.random() < 0.7:
        legal = [a for a in legal if a != ("stop",)]
    return legal[rng.below(len(legal))]


def acting_seat(state: ThirtyOneState, rng: Rng) -> int:
    seats = state.to_act()
    return seats[rng.below(len(seats))]


@given(games())
def test_random_games_keep_every_invariant(case: tuple[ThirtyOne, int, float]) -> None:
    game, seed, knock_chance = case
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    lives = state.lives.copy()
    for step in range(300):
        # Every view now and then; in between the spectator's, the actor's and one more.
        players = game.players
        viewers: list[int | None] = [None, *range(players)]
        if step % 10 and not state.is_terminal():
            viewers = [None, state.to_act()[0], rng.clone().below(players)]
        check_invariants(state, lives, viewers)
        lives = state.lives.copy()
        if state.is_terminal():
            break
        seat = acting_seat(state, rng)
        old = state.dump()
        action = choose(state, rng, knock_chance, seat)
        events = state.apply(action, seat)
        check_events(state, events, old, seat, action)


@given(games(), st.integers(0, 2**32))
# A player holding four cards whose three seen ones (one just taken) make 31, and a seat
# that declared a dealt 31 while another still had to answer: both may hold a 31.
@example((ThirtyOne(3, manual_31=False), 32944167146, 0.2), 393776021)
@example((ThirtyOne(9, three_of_a_kind="30.5", manual_31=False), 898044377495, 0.6), 2408023289)
def test_resample_keeps_what_the_seat_knows_and_redeals_the_rest(
    case: tuple[ThirtyOne, int, float], sample_seed: int
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
                assert sorted(cards) == list(range(52))
                for other in range(game.players):  # known cards stay where everyone saw them
                    known = [c for c in state.hands[other] if c in state.public]
                    assert all(c in twin.hands[other] for c in known)
                    # As it was before a draw: the card taken, or else the one drawn
                    # (the last of a resampled hand), may make the 31 about to be declared.
                    held = [c for c in twin.hands[other] if c != state.taken][:3]
                    if (
                        not game.manual
                        and other != seat
                        and len(held) == 3
                        and other not in state.declared
                        and not (state.phase == CHECK and other in state.pending)
                    ):
                        # nobody can hold an undeclared 31 when 31 is declared automatically
                        assert naive_value(STANDARD.format_many(held)) != 31
        seat = acting_seat(state, rng)
        state.apply(choose(state, rng, knock_chance, seat), seat)


def test_many_complete_random_games_end_with_one_player_standing() -> None:
    for seed in range(200):
        game = ThirtyOne(2 + seed % 8, manual_31=seed % 3 == 0)
        state = game.new_state(seed)
        rng = Rng(seed)
        total_before = sum(state.lives)
        while not state.is_terminal():
            seats = state.to_act()
            seat = seats[rng.below(len(seats))]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat, events=False)
        results = state.results()
        assert results is not None
        assert len(results.winners) == 1 and state.lives[results.winners[0]] > 0
        assert sum(1 for lives in state.lives if lives) == 1
        assert results.ranking[0] == results.winners
        assert sum(state.lives) < total_before


@given(games(), st.integers(0, 2**32))
def test_a_world_built_from_a_view_is_the_resample_of_the_same_rng(
    case: tuple[ThirtyOne, int, float], sample_seed: int
) -> None:
    """From a seat's observation and recall alone (as JSON), a world holds every card once,
    shows the seat what the state shows it, and deals every hand and the stock exactly as
    ``resample`` does with the same rng."""
    game, seed, knock_chance = case
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5A5A)
    for step in range(250):
        if state.is_terminal():
            break
        if step % 3 == 0:
            for seat in range(game.players):
                obs = json.loads(json.dumps(state.observation(seat)))
                recall = json.loads(json.dumps(state.recall(seat)))
                world = game.world_from_view(seat, obs, recall, Rng(sample_seed + step))
                twin = state.resample(seat, Rng(sample_seed + step))
                cards = [c for h in world.hands for c in h] + world.pile + world.stock.contents()
                assert sorted(cards) == list(range(52))
                assert world.observation(seat) == state.observation(seat)
                assert world.recall(seat) == state.recall(seat)
                assert world.hands == twin.hands and world.stock.contents() == twin.stock.contents()
        seat = acting_seat(state, rng)
        state.apply(choose(state, rng, knock_chance, seat), seat)


def test_a_resample_lets_a_taken_card_make_31_and_still_rules_out_the_others_31s() -> None:
    """Seat 0 took the ace of spades to its seen king and queen (a 31 it declares by
    discarding); seat 1 shows the ace and king of hearts.  Every resample for seat 2 gives
    seat 0 that hand back, and never deals seat 1 the queen, jack or ten of hearts, which
    would have made a 31 it did not declare."""
    hands = {0: "AH KH 4H", 1: "5C 6D 7H", 2: "QS AS 8C"}
    state = stacked(3, dealer=2, deals=[(hands, "KS", "2D 3D")])
    turns = "take", "discard AH", "take", "discard 5C", "draw", "discard QS"
    play(state, *turns, "take", "discard KH", "take", "discard 6D", "draw", "discard AS", "take")
    assert hand_of(state, 0) == ["4H", "KS", "QS", "AS"] and hand_of(state, 1) == ["7H", "AH", "KH"]
    for sample in range(300):
        twin = state.resample(2, Rng(sample))
        assert sorted(STANDARD.format_many(twin.hands[0])[:3]) == ["AS", "KS", "QS"]
        assert not {"QH", "JH", "10H"} & set(STANDARD.format_many(twin.hands[1]))
