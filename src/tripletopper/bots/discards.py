"""A bot's own memory of a squared discard pile (Thirty-Two, Thirty-One).

The observation names only the pile's top card and its size; every discard was
public when it was made, so a bot that wants the buried cards rebuilds the pile
from the events its seat receives (``wants_events``).  What lies under the
cards it saw go there stays unknown to it until the next deal: the first
hand's face-up card (a game's first deal is no event), or a pile it found when
it was seated in the middle of a hand.

>>> from tripletopper.cards import STANDARD
>>> memory = DiscardMemory(STANDARD)
>>> memory.observe([{"type": "discarded", "seat": 0, "card": "KD"}])
>>> STANDARD.format_many(memory.pile("KD", 2))   # the face-up card under it: unknown
['KD']
>>> memory.observe([{"type": "hand_started", "face_up": "2C"},
...                 {"type": "discarded", "seat": 0, "card": "KD"},
...                 {"type": "took", "seat": 1, "card": "KD"},
...                 {"type": "discarded", "seat": 1, "card": "7H"}])
>>> STANDARD.format_many(memory.pile("7H", 2))   # seen built since the deal: all of it
['2C', '7H']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.cards.deck import Card, Deck


class DiscardMemory:
    """The top part of the discard pile, bottom to top, as a seat saw it built."""

    __slots__ = ("cards", "parse")

    def __init__(self, deck: Deck) -> None:
        self.parse = deck.parse
        self.cards: list[Card] = []

    def observe(self, events: Sequence[Mapping[str, Any]]) -> None:
        cards = self.cards
        for event in events:
            kind = event["type"]
            if kind == "discarded":
                cards.append(self.parse(event["card"]))
            elif kind == "took":
                if cards:
                    cards.pop()
            elif kind == "hand_started":
                self.cards = cards = [self.parse(event["face_up"])]
            elif kind == "reshuffled":  # all but the top card became the new stock
                del cards[:-1]

    def pile(self, top: str | None, size: int) -> list[Card]:
        """The cards of the pile this seat knows, bottom to top, given what the table
        shows (the observation's ``discard_top`` and ``discard_size``): all ``size`` of
        them when it saw the pile built, else the ones on top it saw discarded (at least
        the top card)."""
        shown = None if top is None else self.parse(top)
        cards = self.cards
        if cards and len(cards) <= size and cards[-1] == shown:
            return cards.copy()
        return [] if shown is None else [shown]  # nothing seen, or a memory gone wrong
