"""Resampling in Toe knows nothing of the opponent's hand or face-down discards."""

from __future__ import annotations

from collections.abc import Iterator

from tripletopper.engine import Rng, State
from tripletopper.games.toe import Toe
from tripletopper.games.toe.rules import ToeState

from ..fairness import agreement, assert_no_information, assert_resample_sees_only_the_view


def positions(count: int) -> Iterator[tuple[State, int]]:
    rng = Rng(55)
    for index in range(count):
        state = Toe(2).new_state(seed=index)
        for _ in range(rng.below(40)):
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat, events=False)
        if not state.is_terminal():
            yield state, state.to_act()[0]


def hidden_slots(state: State, seat: int) -> list[tuple[int, int]]:
    """The other player's hand and face-down discards (after a reshuffle too: which of the
    other's cards are older than it is not the seat's to know)."""
    assert isinstance(state, ToeState)
    other = 1 - seat
    hidden = [*state.hands[other], *state.discards[other]]
    return [(card, state.stock.size + len(hidden)) for card in hidden]


def test_resampled_cards_agree_with_the_truth_only_by_chance():
    observed, expected, sd = agreement(positions(300), hidden_slots)
    assert_no_information(observed, expected, sd)


def test_samples_depend_only_on_the_seats_view():
    for index, (state, seat) in enumerate(positions(100)):
        assert_resample_sees_only_the_view(state, seat, index)
