"""Resampling in Thirty-One knows nothing of the true hidden cards."""

from __future__ import annotations

from collections.abc import Iterator

from tripletopper.engine import Rng, State
from tripletopper.games.thirty_one import ThirtyOne, ThirtyOneState

from ..fairness import agreement, assert_no_information, assert_resample_sees_only_the_view


def positions(count: int, manual: bool = True) -> Iterator[tuple[State, int]]:
    rng = Rng(77)
    for index in range(count):
        state = ThirtyOne(2 + index % 8, manual_31=manual).new_state(seed=index)
        for _ in range(rng.below(25)):
            if state.is_terminal():
                break
            legal = state.legal_actions(state.to_act()[0])
            state.apply(legal[rng.below(len(legal))], state.to_act()[0], events=False)
        if not state.is_terminal():
            yield state, state.to_act()[0]


def hidden_slots(state: State, seat: int) -> list[tuple[int, int]]:
    """Other players' unseen hand cards, slot by slot (the stock is unordered)."""
    assert isinstance(state, ThirtyOneState)
    unseen = [
        card
        for other in state.seats_in
        if other != seat
        for card in state.hands[other]
        if card not in state.public
    ]
    return [(card, state.stock.size + len(unseen)) for card in unseen]


def test_resampled_hands_agree_with_the_truth_only_by_chance():
    # With manual_31 every deal may hold an undeclared 31, so the sample is uniform.
    observed, expected, sd = agreement(positions(400), hidden_slots)
    assert_no_information(observed, expected, sd)


def test_samples_depend_only_on_the_seats_view():
    for manual in (True, False):
        for index, (state, seat) in enumerate(positions(100, manual)):
            assert_resample_sees_only_the_view(state, seat, index)


def test_samples_keep_the_buried_discards_the_seat_saw():
    """Only the pile's top is observed, but every discard was public when made (an event),
    so a seat knows the whole pile: samples keep it exactly as it is."""
    rng = Rng(5)
    buried = 0
    for state, seat in positions(300):
        twin = state.resample(seat, rng)
        assert twin.pile == state.pile
        buried += len(state.pile) - 1
    assert buried > 100
