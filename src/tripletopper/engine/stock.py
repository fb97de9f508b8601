"""A face-down stock that is shuffled lazily, one draw at a time.

Drawing a uniformly random card from the unshuffled remainder is the same, in
distribution, as shuffling first and drawing from the top, but costs one random
number per card actually drawn instead of a shuffle of the whole deck.  A
*stacked* top (a test's or tutorial's fixed deck order) is drawn in order first.

The stock is an array whose first ``size`` entries are the cards still in it; a
draw swaps the chosen card to the end of that region and shrinks it.  So the
array stays a permutation of what was filled, and :meth:`gather` puts every
drawn card back by resetting ``size`` alone (a new hand with the same deck).

>>> from tripletopper.engine.rng import Rng
>>> stock = Stock()
>>> stock.fill(range(10), stacked=[7, 3])
>>> stock.draw(Rng(0)), stock.draw(Rng(0)), len(stock)
(7, 3, 8)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tripletopper.engine.rng import _INC, _MASK64, _MULT, Rng


class Stock:
    __slots__ = ("cards", "ordered", "size")

    def __init__(self) -> None:
        self.cards: list[int] = []
        self.size = 0
        """How many cards are in the stock: ``cards[:size]``."""
        self.ordered = 0
        """How many cards at the end of ``cards[:size]`` are a stacked top (top card last)."""

    def fill(self, cards: Iterable[int], stacked: Sequence[int] | None = None) -> None:
        """Make the stock of ``cards``; the stacked ones (first listed = top) come first.

        Stacked cards that are not among ``cards`` are ignored.
        """
        pool = list(cards)
        self.ordered = 0
        if stacked:
            present = set(pool)
            top = [card for card in stacked if card in present]
            chosen = set(top)
            pool = [card for card in pool if card not in chosen]
            pool.extend(reversed(top))
            self.ordered = len(top)
        self.cards = pool
        self.size = len(pool)

    def gather(self, deck: Sequence[int], stacked: Sequence[int] | None = None) -> None:
        """Make the stock the whole ``deck`` again (cheap when it last held that deck)."""
        if stacked or len(self.cards) != len(deck):
            self.fill(deck, stacked)
        else:
            self.size = len(self.cards)
            self.ordered = 0

    def draw(self, rng: Rng) -> int:
        cards = self.cards
        n = self.size - 1
        self.size = n
        if self.ordered:
            self.ordered -= 1
            return cards[n]
        # Rng.below inlined: drawing is the hottest path of every card game (twin:
        # Rng.below; guarded by tests/test_engine.py, as deal is).
        rng.state = state = (rng.state * _MULT + _INC) & _MASK64
        i = ((state >> 32) * (n + 1)) >> 32
        card = cards[i]
        cards[i] = cards[n]
        cards[n] = card
        return card

    def deal(self, rng: Rng, hands: list[list[int]], rounds: int) -> None:
        """Deal ``rounds`` cards to each hand in turn, one at a time.

        It is :meth:`draw` for each card, inlined; tests/test_engine.py compares the two.
        """
        cards = self.cards
        n = self.size
        state = rng.state
        for _ in range(rounds):
            for hand in hands:
                n -= 1
                if self.ordered:
                    self.ordered -= 1
                    hand.append(cards[n])
                    continue
                state = (state * _MULT + _INC) & _MASK64
                i = ((state >> 32) * (n + 1)) >> 32
                card = cards[i]
                cards[i] = cards[n]
                cards[n] = card
                hand.append(card)
        rng.state = state
        self.size = n

    def contents(self) -> list[int]:
        return self.cards[: self.size]

    def replace(self, cards: list[int]) -> None:
        """Hold exactly these cards, unordered (a resampled stock)."""
        self.cards = cards
        self.size = len(cards)
        self.ordered = 0

    def unstack(self) -> None:
        """Forget the stacked order (what a resampled state must not know)."""
        self.ordered = 0

    def __len__(self) -> int:
        return self.size

    def clone(self) -> Stock:
        twin = Stock.__new__(Stock)
        twin.cards = self.cards.copy()
        twin.size = self.size
        twin.ordered = self.ordered
        return twin
