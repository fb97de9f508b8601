"""A deck as a value table: cards are small ints, names are looked up in dicts.

Engines hold cards as plain ``int``s (fast to copy, hash and compare); a
:class:`Deck` turns them into the project's notation and back.  Each concrete deck
module precomputes the per-card attribute tables its games need.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tripletopper.errors import CardError

Card = int

_SEPARATORS = re.compile(r"[\s\-_,/.]+")


def normalize(text: str) -> str:
    """Lower-case a card name and fold separators to single spaces."""
    return _SEPARATORS.sub(" ", text.strip().lower()).strip()


class Deck:
    """A deck of distinct cards ``0 .. size-1`` with a short notation for each.

    ``aliases`` maps extra spellings (already normalized) to cards; the short
    names are always accepted, case-insensitively.
    """

    __slots__ = ("_exact", "_lookup", "max_words", "name", "names", "size", "symbol")

    def __init__(
        self,
        name: str,
        names: Sequence[str],
        aliases: Mapping[str, Card],
        *,
        symbol: str | None = None,
    ) -> None:
        self.name = name
        self.symbol = symbol
        """The module constant holding this deck (``package.module.NAME``): it is pickled
        as that name."""
        self.names: tuple[str, ...] = tuple(names)
        self.size = len(self.names)
        lookup: dict[str, Card] = {}
        for card, short in enumerate(self.names):
            lookup[normalize(short)] = card
        for alias, card in aliases.items():
            lookup[alias] = card
            lookup[alias.replace(" ", "")] = card
        self._lookup = lookup
        # Short names as views write them, read without normalizing (an alias wins).
        self._exact = {
            short: card for card, short in enumerate(self.names) if lookup[normalize(short)] == card
        }
        self.max_words = max(len(key.split()) for key in lookup)
        """The most words a card's name takes (``ten of hearts``: 3)."""

    def parse(self, text: str | Card) -> Card:
        """Read one card from its short or long name (or pass a card int through)."""
        if type(text) is str and text in self._exact:
            return self._exact[text]
        if isinstance(text, int) and not isinstance(text, bool):
            if 0 <= text < self.size:
                return text
            raise CardError(f"{text} is not a card of the {self.name} deck (0-{self.size - 1})")
        if not isinstance(text, str):
            raise CardError(f"a card must be given by its name, not {type(text).__name__}")
        card = self._lookup.get(normalize(text))
        if card is None:
            card = self._lookup.get(normalize(text).replace(" ", ""))
        if card is None:
            raise CardError(
                f"{text!r} is not a card of the {self.name} deck "
                f"(write it like {self.names[0]!r} or {self.names[-1]!r})"
            )
        return card

    def parse_many(self, items: str | Iterable[str | Card]) -> list[Card]:
        """Read several cards: a list of names/ints, or one string of names split by spaces.

        A string is read name by name (so only short names, or long names joined
        with '-', are possible in it).
        """
        if isinstance(items, str):
            items = [part for part in re.split(r"[\s,]+", items.strip()) if part]
        return [self.parse(item) for item in items]

    def format(self, card: Card) -> str:
        """The short name of a card."""
        return self.names[card]

    def format_many(self, cards: Iterable[Card]) -> list[str]:
        names = self.names
        return [names[c] for c in cards]

    def all_cards(self) -> list[Card]:
        return list(range(self.size))

    def __reduce__(self) -> str | tuple[Any, ...]:
        # A bot's memory holds its deck's ``parse``: by name, not 8 kB of tables.
        return (_constant, (self.symbol,)) if self.symbol else super().__reduce__()

    def __repr__(self) -> str:
        return f"<Deck {self.name}: {self.size} cards>"


def _constant(symbol: str) -> Deck:
    """The deck a module constant holds (how a deck with a ``symbol`` is unpickled)."""
    module, name = symbol.rsplit(".", 1)
    deck = getattr(importlib.import_module(module), name)
    assert isinstance(deck, Deck)
    return deck
