"""The decks of the Triple Topper games; cards are small ints, notation via :class:`Deck`.

- :data:`TRIPLE_TOPPER`: 125 cards (Thirty-Two, Triple Topper Toe, Memo Match).
- :data:`STANDARD`: the 52-card deck (Thirty-One with organs).
- :data:`THREE_UP`: the 84-card 3UP 3DOWN deck (numbers 1-10 and Clears, in copies).
"""

from tripletopper.cards.deck import Card, Deck
from tripletopper.cards.standard import STANDARD
from tripletopper.cards.three_up import THREE_UP
from tripletopper.cards.triple_topper import TRIPLE_TOPPER, long_name, wild_count

__all__ = ["STANDARD", "THREE_UP", "TRIPLE_TOPPER", "Card", "Deck", "long_name", "wild_count"]
