"""Stacked-deck helpers for Thirty-One scenarios."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.cards import STANDARD
from tripletopper.games.thirty_one import ThirtyOne, ThirtyOneState
from tripletopper.games.thirty_one.rules import CHECK

JUNK = [
    "2C 3D 4H",
    "2D 3H 4S",
    "2H 3S 4C",
    "2S 3C 4D",
    "5C 6D 7H",
    "5D 6H 7S",
    "5H 6S 7C",
    "5S 6C 7D",
    "8C 9D 8H",
]
"""Low hands (worth 4, 4, 4, 4, 7, 7, 7, 7, 9), one per seat, never a 31."""


def seats_from(dealer: int, seats: Sequence[int]) -> list[int]:
    """The seats in the game from the dealer's left, the dealer last."""
    ordered = sorted(seats)
    after = [s for s in ordered if s > dealer] + [s for s in ordered if s < dealer]
    return [*after, dealer]


def deck_order(
    order: Sequence[int], hands: Mapping[int, str], face_up: str, stock: str = ""
) -> list[str]:
    """The stacked order that deals ``hands`` (seat -> "AS KS QS") one card at a time."""
    cards = {seat: hands[seat].split() for seat in order}
    dealt = [cards[seat][round_] for round_ in range(3) for seat in order]
    return [*dealt, face_up, *stock.split()]


Deal = tuple[Mapping[int, str], str, str]
"""One hand's deal: hands by seat, the face-up card, the top of the stock."""


def dealt_31(holder: int, players: int, face_up: str = "9S") -> Deal:
    """A deal in which ``holder`` alone holds 31 (everyone else loses one life)."""
    hands = {seat: JUNK[seat] for seat in range(players)}
    hands[holder] = "AS KS QS"
    return hands, face_up, ""


def stacked(
    players: int,
    dealer: int,
    deals: Sequence[Deal],
    seed: int = 0,
    seats: Sequence[Sequence[int]] | None = None,
    **options: Any,
) -> ThirtyOneState:
    """A state whose hands are dealt as given, one deal per hand.

    The dealer passes left each hand; ``seats`` gives the seats still in for each
    deal when someone is eliminated on the way (default: everyone).
    """
    game = ThirtyOne(players, **options)
    first = dealer
    decks = []
    for number, (hands, face_up, stock) in enumerate(deals):
        in_game = seats[number] if seats else range(players)
        decks.append(deck_order(seats_from(dealer, in_game), hands, face_up, stock))
        ordered = sorted(in_game)
        nxt = [s for s in ordered if s > dealer] or ordered
        dealer = nxt[0]
    return game.new_state(seed, decks=decks, dealer=first)


def hand(state: ThirtyOneState, seat: int) -> list[str]:
    return STANDARD.format_many(state.hands[seat])


def play(state: ThirtyOneState, *texts: str) -> list[dict[str, Any]]:
    """Apply text actions for whoever is to act; return the public views of all events."""
    views = []
    for text in texts:
        for event in state.apply_text(text):
            views.append(event.view(None))
    return views


def declare_dealt(state: ThirtyOneState) -> list[dict[str, Any]]:
    """Every holder of a dealt 31 declares it (the only thing they may do)."""
    views = []
    hand_no = state.hand_no
    while state.phase == CHECK and state.hand_no == hand_no and not state.game.manual:
        seat = state.to_act()[0]
        for event in state.apply(("declare",), seat):
            views.append(event.view(None))
    return views


def settlement(events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any]:
    return next(e for e in events if e["type"] == "hand_over")
