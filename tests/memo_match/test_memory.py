"""Memory is the skill (rules/memo-match.md): once a missed pair is turned back, nothing that lasts
names its cards, and a seat's perfect recall is a bots-only API that resampling keeps."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.bots import SeatView, make_bot
from tripletopper.bots.memo_match import ForgetfulBot
from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, YOU, Rng
from tripletopper.games.memo_match import MemoMatch, MemoMatchState, describe_event, position_name

from .helpers import play, stacked

CARD = re.compile(r"[RYGBK][CHTSB][1-4?]")
NAMES = ["Ann", "Ben", "Cid", "Dee", "Eve", "Fay"]


def viewers(state: MemoMatchState) -> list[int | None]:
    return [None, *range(state.game.players)]


def names_for(viewer: int | None, players: int) -> list[str]:
    return [YOU if s == viewer else NAMES[s] for s in range(players)]


def test_a_miss_is_narrated_by_positions_for_every_viewer():
    for options in ({}, {"reveal": "private"}, {"swap_on_miss": True}):
        state = stacked(3, "RC1 YH2 GT3", order=[1, 2, 0], **options)
        events = state.apply_text("flip A1") + state.apply_text("flip B1")
        for viewer in viewers(state):
            told = [describe_event(e.view(viewer), names_for(viewer, 3)) for e in events]
            turned = (
                "turned back and trade places"
                if options.get("swap_on_miss")
                else "turned face down again"
            )
            who = "You flip" if viewer == 1 else "Ben flips"
            assert told == [
                f"{who} A1.",
                f"{who} B1.",
                f"No match: the cards at A1 and B1 are {turned}.",
            ]
            assert not CARD.search(" ".join(told))


def test_the_live_events_of_a_miss_show_its_faces_to_those_entitled():
    state = stacked(3, "RC1 YH2 GT3", order=[1, 2, 0], reveal="private")
    events = state.apply_text("flip A1") + state.apply_text("flip B1")
    missed = events[-1]
    assert missed.view(1)["cards"] == ["RC1", "YH2"]  # the flipper: drawn while they are up
    for viewer in (None, 0, 2):
        assert "cards" not in missed.view(viewer)
    public = stacked(2, "RC1 YH2 GT3", swap_on_miss=True)
    missed = (public.apply_text("flip A1") + public.apply_text("flip B1"))[-1]
    assert missed.view(None)["cards"] == ["RC1", "YH2"]  # as they lay before the swap


def test_a_match_names_the_cards_it_takes():
    state = stacked(2, "RC1 RC2")
    events = state.apply_text("flip A1") + state.apply_text("flip B1")
    told = describe_event(events[-1].view(1), NAMES)
    assert told == "A match at A1 and B1 (RC1 + RC2): Ann takes both and turns again."


def test_observations_hold_no_recall_and_the_recall_is_a_bots_only_api():
    state = stacked(3, "RC1 YH2 GT3 BS4", reveal="private", swap_on_miss=True)
    play(state, "A1 B1")
    for viewer in viewers(state):
        obs = state.public_observation() if viewer is None else state.observation(viewer)
        assert "recall" not in obs and not CARD.search(json.dumps(obs))
    assert state.recall(0)["seen"] == {"A1": "YH2", "B1": "RC1"}  # kept through the swap
    assert state.recall(1)["seen"] == {} == state.recall(2)["seen"]
    assert SeatView(state, 0).recall() == state.recall(0)
    play(state, "C1")  # the card face up now is in the observation, not in the recall
    assert state.observation(1)["face_up"] == {"C1": "GT3"} and "C1" not in state.recall(1)["seen"]


@st.composite
def games(draw: st.DrawFn) -> tuple[MemoMatch, int, float]:
    game = MemoMatch(
        draw(st.integers(1, 5)),
        wilds=draw(st.booleans()),
        reveal=draw(st.sampled_from(["public", "private"])),
        swap_on_miss=draw(st.booleans()),
        max_turns=draw(st.sampled_from([2000, 80])),
    )
    return game, draw(st.integers(0, 2**40)), draw(st.sampled_from([0.0, 0.02, 0.2]))


def choose(state: MemoMatchState, rng: Rng, declare_chance: float) -> tuple[int, Any]:
    if state.timeout() and rng.random() < 0.1:
        return CLOCK, ("timeout",)
    seats = state.to_act()
    seat = seats[rng.below(len(seats))]
    legal = state.legal_actions(seat)
    if ("declare",) in legal and len(legal) > 1 and rng.random() >= declare_chance:
        legal = legal[:-1]
    return seat, legal[rng.below(len(legal))]


@settings(max_examples=30, deadline=None)
@given(games())
def test_nothing_that_lasts_names_a_face_down_card(case: tuple[MemoMatch, int, float]) -> None:
    """At every step of random games: no observation (any seat, a spectator) and no line of
    narration names a card that lies face down on the table after the action; each seat's
    recall is what a witness with unlimited memory built from that seat's events, and a
    resample keeps both the observation and the recall."""
    game, seed, declare_chance = case
    state = game.new_state(seed)
    rng = Rng(seed + 3)
    players = game.players
    witnesses = [ForgetfulBot(game, s, capacity=10**6) for s in range(players)]
    for step in range(400):
        if state.is_terminal():
            break
        seat, action = choose(state, rng, declare_chance)
        events = state.apply(action, seat)
        for witness in witnesses:
            witness.observe([event.view(witness.seat) for event in events])
        # Narration may name cards turned up by a declaration (alone, a pair left then ends
        # the game), or taken cards that a new layout (a playoff) puts where nobody knows.
        fresh = any(event.type in ("declared", "relaid", "playoff") for event in events)
        for viewer in viewers(state):
            obs = state.public_observation() if viewer is None else state.observation(viewer)
            assert "recall" not in obs
            down = {
                TRIPLE_TOPPER.names[card]
                for p, card in enumerate(state.table)
                if card >= 0 and position_name(p) not in obs["face_up"]
            }
            named = set(CARD.findall(json.dumps(obs)))
            assert not named & down, (viewer, named & down)
            names = names_for(viewer, players)
            told = " ".join(describe_event(e.view(viewer), names) for e in events)
            assert fresh or not set(CARD.findall(told)) & down, (viewer, told)
        if state.is_terminal():
            break
        for witness in witnesses:
            # A face-up card its observation shows is not in the recall; one it hides
            # (another seat's private flip, RULINGS 2026-11-29) is, if remembered.
            faces = state.observation(witness.seat)["face_up"].items()
            up = {position for position, card in faces if card is not None}
            remembered = {
                position_name(p): TRIPLE_TOPPER.names[c]
                for p, c in witness.remembered.items()
                if position_name(p) not in up
            }
            assert state.recall(witness.seat)["seen"] == remembered, (step, witness.seat)
        if step % 17 == 0:
            for s in range(players):
                twin = state.resample(s, Rng(seed + step))
                assert twin.observation(s) == state.observation(s)
                assert twin.recall(s) == state.recall(s)


def test_the_perfect_bot_plays_from_the_recall_in_resampled_worlds_too():
    state = stacked(2, "RC1 YH2 RC2 GT3", wilds=False)
    play(state, "A1 B1")  # seat 0 misses, seat 1 saw both
    play(state, "C1 D1")  # seat 1 turns up RC2 but flips D1 blind: a miss
    bot = make_bot("perfect", state.game, 0, 0)
    for world in (state, state.resample(0, Rng(5))):
        view = SeatView(world, 0)
        assert view.recall()["seen"] == {"A1": "RC1", "B1": "YH2", "C1": "RC2", "D1": "GT3"}
        first = bot.choose(view)
        assert first in (("flip", 0), ("flip", 2))  # the pair it remembers: A1 and C1
