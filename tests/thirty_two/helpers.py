"""Stacked-deck helpers for Thirty-Two scenarios."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.games.thirty_two import ThirtyTwo, ThirtyTwoState


def deck_order(
    seats: Sequence[int], hands: Mapping[int, str], face_up: str, stock: str = ""
) -> list[str]:
    """The stacked order that deals ``hands`` (seat -> "RC1 YH2 GT3") one card at a time.

    ``seats`` lists the seats in the hand from the dealer's left.
    """
    cards = {seat: hands[seat].split() for seat in seats}
    order = [cards[seat][round_] for round_ in range(3) for seat in seats]
    return [*order, face_up, *stock.split()]


def stacked(
    players: int,
    dealer: int,
    hands: Mapping[int, str],
    face_up: str,
    stock: str = "",
    more: Sequence[Sequence[str]] = (),
    seed: int = 0,
    **options: Any,
) -> ThirtyTwoState:
    """A Thirty-Two state whose first hand is dealt exactly as given."""
    game = ThirtyTwo(players, **options)
    seats = [(dealer + 1 + i) % players for i in range(players)]
    first = deck_order(seats, hands, face_up, stock)
    return game.new_state(seed, decks=[first, *more], dealer=dealer)


def hand(state: ThirtyTwoState, seat: int) -> list[str]:
    return TRIPLE_TOPPER.format_many(state.hands[seat])


def play(state: ThirtyTwoState, *texts: str) -> list[dict[str, Any]]:
    """Apply text actions for whoever is to act; return the public views of all events."""
    views = []
    for text in texts:
        for event in state.apply_text(text):
            views.append(event.view(None))
    return views
