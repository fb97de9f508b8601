"""Resampling in Memo Match knows nothing of the face-down cards the seat has not seen."""

from __future__ import annotations

from collections.abc import Iterator

from tripletopper.engine import Rng, State
from tripletopper.games.memo_match import MemoMatch

from ..fairness import agreement, assert_no_information, assert_resample_sees_only_the_view


def positions(count: int, reveal: str) -> Iterator[tuple[State, int]]:
    rng = Rng(21)
    for index in range(count):
        state = MemoMatch(1 + index % 4, reveal=reveal).new_state(seed=index)
        for _ in range(rng.below(40)):
            if state.is_terminal():
                break
            seats = state.to_act()
            seat = seats[rng.below(len(seats))]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat, events=False)
        if not state.is_terminal():
            seats = state.to_act()
            yield state, seats[rng.below(len(seats))]


def test_samples_depend_only_on_the_seats_view():
    for reveal in ("public", "private"):
        for index, (state, seat) in enumerate(positions(60, reveal)):
            assert_resample_sees_only_the_view(state, seat, index)


def hidden_slots(state: State, seat: int) -> list[tuple[int, int]]:
    """Face-down cards the seat has not seen, position by position (public reveal: no
    watched-but-unseen matches constrain them); each could be any unseen card of its
    layout (epoch)."""
    knows, epoch, table = state.knows, state.epoch, state.table  # type: ignore[attr-defined]
    bit = 1 << seat
    unseen = [c for c in range(125) if not knows[c] & bit]
    size = {e: sum(1 for c in unseen if epoch[c] == e) for e in {epoch[c] for c in unseen}}
    return [(card, size[epoch[card]]) for card in table if card >= 0 and not knows[card] & bit]


def test_resampled_cards_agree_with_the_truth_only_by_chance():
    observed, expected, sd = agreement(positions(150, "public"), hidden_slots)
    assert_no_information(observed, expected, sd)
