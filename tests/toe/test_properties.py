"""Properties of random Toe games of Toe's own: every card accounted for, marks and line
counts right, no hidden card (or quiz answer) shown, resamples that keep the seat's own cards
and respect reshuffles.  What every game owes the engine contract (refusals, clones, records,
events on and off, resampled views, what events show) is tests/test_contract.py's."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, Event, Rng
from tripletopper.games.toe import LINES, Toe, ToeState
from tripletopper.question_banks import builtin_bank

NAMES = TRIPLE_TOPPER.names
ALL_CARDS = list(range(125))


@st.composite
def games(draw: st.DrawFn) -> tuple[Toe, int]:
    quiz = draw(st.booleans())
    options: dict[str, Any] = {"max_turns": draw(st.sampled_from([5, 60, 150]))}
    if quiz:
        options["max_questions"] = draw(st.sampled_from([3, 50, 1000]))
    game = Toe(2, quiz=quiz, bank=builtin_bank() if quiz else None, **options)
    return game, draw(st.integers(0, 2**40))


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), *(strings(k) for k in value))
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def hidden_from(state: ToeState, seat: int | None) -> set[str]:
    """Cards this seat cannot know the place of: the stock, the other hand, the other's
    face-down discards."""
    hidden = {NAMES[c] for c in state.stock.contents()}
    for other in (0, 1):
        if other != seat:
            hidden |= {NAMES[c] for c in state.hands[other] + state.discards[other]}
    return hidden


def card_strings(obs: dict[str, Any]) -> set[str]:
    """Card names in an observation; cell names (which look like cards) are left out, and
    so is the card of the last mark: everyone saw it played, wherever it is now."""
    return strings(dict(obs, last=None, line=None, board=None))


def check_invariants(state: ToeState) -> None:
    cards = state.hands[0] + state.hands[1] + state.stock.contents() + state.played
    cards += state.discards[0] + state.discards[1]
    assert sorted(cards) == ALL_CARDS
    for seat in (0, 1):
        assert state.marks[seat] == state.board.count(seat)
        for index, line in enumerate(LINES):
            assert state.counts[seat][index] == sum(state.board[c] == seat for c in line)
    assert state.free == state.board.count(-1)
    if not state.is_terminal():
        assert max(max(state.counts[0]), max(state.counts[1])) < 4
        for seat in (0, 1):
            size = len(state.hands[seat])
            assert size == (4 if state.phase == 1 and seat == state.turn else 3)
    for seat in (None, 0, 1):
        obs = state.public_observation() if seat is None else state.observation(seat)
        leaked = card_strings(obs) & hidden_from(state, seat)
        assert not leaked, (seat, leaked)
        question = (obs.get("quiz") or {}).get("question")
        if question is not None:
            assert "answer" not in question


def check_discards(events: list[Event]) -> None:
    """Face-down discards, and the cards drawn for them, reach their owner only (the
    contract's check of event views lets the cards an action names through, and a discard
    names the cards it hides)."""
    for event in events:
        if event.type == "discarded":
            for seat in (None, 0, 1):
                view = event.view(seat)
                owner = seat == view["seat"]
                assert ("cards" in view) == ("drew" in view) == owner
                assert owner or not strings(view) & set(NAMES)


def choose(state: ToeState, rng: Rng) -> tuple[int, tuple[Any, ...]]:
    seats = list(state.to_act())
    if len(seats) > 1:  # a buzz race: a random seat, or the clock's timeout
        if rng.below(4) == 0:
            return CLOCK, ("timeout",)
        seat = seats[rng.below(2)]
    else:
        seat = seats[0]
        if state.timeout() is not None and rng.below(8) == 0:
            return CLOCK, ("timeout",)
    legal = state.legal_actions(seat)
    return seat, legal[rng.below(len(legal))]


@given(games())
def test_random_games_keep_every_invariant(case: tuple[Toe, int]) -> None:
    game, seed = case
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    for _ in range(2000):
        check_invariants(state)
        if state.is_terminal():
            break
        seat, action = choose(state, rng)
        check_discards(state.apply(action, seat))
    else:  # pragma: no cover
        raise AssertionError("the game did not end")
    results = state.results()
    assert results is not None and results.scores == (state.marks[0], state.marks[1])


@given(games(), st.integers(0, 2**32))
def test_resample_keeps_what_the_seat_knows_and_redeals_the_rest(
    case: tuple[Toe, int], sample_seed: int
) -> None:
    game, seed = case
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5A5A)
    for step in range(300):
        if state.is_terminal():
            break
        if step % 3 == 0:
            for seat in (0, 1):
                twin = state.resample(seat, Rng(sample_seed + step))
                assert twin.hands[seat] == state.hands[seat]
                assert twin.discards[seat] == state.discards[seat]
                check_invariants(twin)
        seat, action = choose(state, rng)
        state.apply(action, seat)


def test_many_complete_random_games_end() -> None:
    for seed in range(200):
        quiz = seed % 3 == 0
        game = Toe(2, quiz=quiz, bank=builtin_bank() if quiz else None)
        state = game.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat, action = choose(state, rng)
            state.apply(action, seat, events=False)
        check_invariants(state)
