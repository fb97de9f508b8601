"""The decks of the Triple Topper games; cards are small ints, notation via :class:`Deck`.

- :data:`TRIPLE_TOPPER`: 125 cards (Thirty-Two, Triple Topper Toe, Memo Match).
- :data:`STANDARD`: the 52-card deck (Thirty-One with organs).

A game's deck is any :class:`Deck`; 3UP 3DOWN brings its own 84-card one.
"""

from tripletopper.cards.deck import Card, Deck
from tripletopper.cards.standard import STANDARD
from tripletopper.cards.triple_topper import TRIPLE_TOPPER, long_name, wild_count

__all__ = ["STANDARD", "TRIPLE_TOPPER", "Card", "Deck", "long_name", "wild_count"]
