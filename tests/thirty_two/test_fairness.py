"""Resampling in Thirty-Two knows nothing of the true hidden cards."""

from __future__ import annotations

from collections.abc import Iterator

from tripletopper.engine import Rng, State
from tripletopper.games.thirty_two import ThirtyTwo, ThirtyTwoState

from ..fairness import agreement, assert_no_information, assert_resample_sees_only_the_view


def positions(count: int) -> Iterator[tuple[State, int]]:
    rng = Rng(99)
    for index in range(count):
        state = ThirtyTwo(3 + index % 4, counters=30).new_state(seed=index)
        for _ in range(rng.below(25)):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))], events=False)
        if not state.is_terminal():
            yield state, state.current_seat()


def hidden_slots(state: State, seat: int) -> list[tuple[int, int]]:
    """Other players' unseen hand cards, slot by slot (the stock is unordered)."""
    assert isinstance(state, ThirtyTwoState)
    pool = state.stock.size + sum(
        1 for s in state.seats_in if s != seat for c in state.hands[s] if c not in state.public
    )
    return [
        (card, pool)
        for other in state.seats_in
        if other != seat
        for card in state.hands[other]
        if card not in state.public
    ]


def test_resampled_hands_agree_with_the_truth_only_by_chance():
    observed, expected, sd = agreement(positions(400), hidden_slots)
    assert_no_information(observed, expected, sd)


def test_the_check_catches_a_cheating_resample():
    """A resample that peeks is caught: keep one true unseen hand card (the first) in the
    first unseen slot (a resample puts the seen cards first)."""

    def peeking(state: State, seat: int) -> list[tuple[int, int]]:
        return hidden_slots(state, seat)

    class Cheat(ThirtyTwoState):
        def resample(self, seat, rng):  # type: ignore[no-untyped-def]
            twin = ThirtyTwoState.resample(self, seat, rng)
            for other in self.seats_in:
                unseen = [c for c in self.hands[other] if c not in self.public]
                if other != seat and unseen:
                    true = unseen[0]
                    hand = twin.hands[other]
                    slot = next(i for i, c in enumerate(hand) if c not in self.public)
                    if true in twin.stock.contents():
                        i = twin.stock.cards.index(true)
                        twin.stock.cards[i] = hand[slot]
                        hand[slot] = true
            return twin

    def cheating_positions() -> Iterator[tuple[State, int]]:
        for state, seat in positions(150):
            cheat = Cheat.__new__(Cheat)
            for name in (*ThirtyTwoState.__slots__, "game", "history", "origin"):
                if hasattr(state, name):
                    setattr(cheat, name, getattr(state, name))
            cheat._legal_version, cheat._legal_seat, cheat._legal = -1, 0, []
            yield cheat, seat

    observed, expected, sd = agreement(cheating_positions(), peeking)
    assert observed - expected > 4 * sd


def test_samples_depend_only_on_the_seats_view():
    for index, (state, seat) in enumerate(positions(120)):
        assert_resample_sees_only_the_view(state, seat, index)


def test_samples_keep_the_buried_discards_the_seat_saw():
    """Only the pile's top is observed, but every discard was public when made (an event),
    so a seat knows the whole pile: samples keep it exactly as it is."""
    rng = Rng(5)
    buried = 0
    for state, seat in positions(150):
        twin = state.resample(seat, rng)
        assert twin.pile == state.pile
        buried += len(state.pile) - 1
    assert buried > 100
