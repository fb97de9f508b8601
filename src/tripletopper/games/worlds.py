"""Shared pieces of ``Game.world_from_view`` for the games with hands, a stock and a squared
discard pile (Thirty-One, Thirty-Two): the hands as a seat sees them, the cards left to deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from tripletopper.cards.deck import Card


class ShownSettlement(NamedTuple):
    """A past hand's settlement known only as it was shown (the observation's ``last_hand``),
    kept as JSON text: a fresh copy each time it is shown."""

    text: str

    @staticmethod
    def of(shown: Mapping[str, Any] | None) -> ShownSettlement | None:
        return ShownSettlement(json.dumps(shown)) if shown else None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.text)
        return data


def check_view(game_name: str, players: int, seat: int, obs: Mapping[str, Any]) -> None:
    if obs.get("game") != game_name or obs.get("players") != players or obs.get("seat") != seat:
        raise ValueError("the observation is not of this game and seat")


def seen_hands(
    seat: int, obs: Mapping[str, Any], parse: Callable[[str], Card]
) -> tuple[list[list[Card]], list[tuple[int, int]]]:
    """Every hand as ``seat`` sees it: its own whole, the others' known cards first (in their
    order) and then ``-1`` in each slot it cannot see; with those slots ``(seat, index)``."""
    own = [parse(c) for c in obs["hand"]] if "hand" in obs else None
    hands: list[list[Card]] = []
    slots: list[tuple[int, int]] = []
    for s, (size, known) in enumerate(zip(obs["hand_sizes"], obs["known"], strict=True)):
        if s == seat and own is not None:
            hands.append(own)
            continue
        hand = [parse(c) for c in known]
        slots.extend((s, i) for i in range(len(hand), size))
        hands.append(hand + [-1] * (size - len(hand)))
    return hands, slots


def unplaced(
    deck: Sequence[Card] | int, pile: list[Card], hands: list[list[Card]], hidden: int
) -> list[Card]:
    """The cards of ``deck`` (or ``range(deck)``) the seat cannot place, in card order,
    checking that the view holds every card once: ``pile`` and ``hands`` are what it can
    place (``-1`` in a hand: an unseen slot), ``hidden`` how many it cannot (its unseen
    slots and the stock)."""
    listed = [*pile, *(card for hand in hands for card in hand if card >= 0)]
    placed = set(listed)
    cards = range(deck) if isinstance(deck, int) else deck
    pool = [card for card in cards if card not in placed]
    if len(placed) != len(listed) or len(pool) + len(placed) != len(cards) or len(pool) != hidden:
        raise ValueError("the view does not account for every card once")
    return pool


def squared_pile(
    obs: Mapping[str, Any], recall: Mapping[str, Any], parse: Callable[[str], Card]
) -> list[Card]:
    """The discard pile, bottom to top: the recalled buried cards under the shown top."""
    pile = [parse(c) for c in recall.get("buried", [])]
    if obs["discard_top"] is not None:
        pile.append(parse(obs["discard_top"]))
    if len(pile) != obs["discard_size"]:
        raise ValueError("the recalled discard pile does not match its size")
    return pile
