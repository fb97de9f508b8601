"""Resampling in 3UP 3DOWN knows nothing of the 3DOWN cards or others' unseen hands."""

from __future__ import annotations

from collections.abc import Iterator

from tripletopper.engine import Rng, State
from tripletopper.games.three_up_three_down import ThreeUpThreeDown
from tripletopper.games.three_up_three_down.rules import CHOOSE, ThreeUpThreeDownState

from ..fairness import agreement, assert_no_information, assert_resample_sees_only_the_view


def positions(count: int) -> Iterator[tuple[State, int]]:
    rng = Rng(33)
    for index in range(count):
        state = ThreeUpThreeDown(2 + index % 5).new_state(seed=index)
        for _ in range(rng.below(30)):
            if state.is_terminal():
                break
            seat = state.to_act()[rng.below(len(state.to_act()))]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat, events=False)
        if not state.is_terminal():
            seats = state.to_act()
            yield state, seats[rng.below(len(seats))]


def hidden_slots(state: State, seat: int) -> list[tuple[int, int]]:
    """Every 3DOWN card (the seat's own too) and the others' unseen hand cards, when no
    hidden card is bounded (bounded slots draw from fewer cards) and the 3UP choice is over."""
    assert isinstance(state, ThreeUpThreeDownState)
    players = state.game.players
    if state.phase == CHOOSE or any(state.bounds[s] for s in range(players)):
        return []
    hidden = [card for s in range(players) for card in state.down[s]]
    for other in range(players):
        if other != seat:
            hidden += [c for c in state.hands[other] if c not in state.known[other]]
    return [(card, state.stock.size + len(hidden)) for card in hidden]


def test_resampled_cards_agree_with_the_truth_only_by_chance():
    observed, expected, sd = agreement(positions(300), hidden_slots)
    assert_no_information(observed, expected, sd)


def test_samples_depend_only_on_the_seats_view():
    for index, (state, seat) in enumerate(positions(100)):
        assert_resample_sees_only_the_view(state, seat, index)
