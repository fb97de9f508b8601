"""The standard 52-card deck (no jokers), as used by Thirty-One.

A card is the int ``rank * 4 + suit`` with ranks 2..A as indices 0-12 and suits
clubs, diamonds, hearts, spades as 0-3.  Short names are rank then suit letter:
``2C``, ``10H``, ``QS``, ``AD`` (``T`` is accepted for ten).

>>> STANDARD.format(STANDARD.parse("ten of hearts")), STANDARD.format(STANDARD.parse("as"))
('10H', 'AS')
"""

from __future__ import annotations

from tripletopper.cards.deck import Card, Deck

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
RANK_WORDS = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SIZE = 52

RANK: tuple[int, ...] = tuple(c // 4 for c in range(SIZE))
SUIT: tuple[int, ...] = tuple(c % 4 for c in range(SIZE))


def make_card(rank: int, suit: int) -> Card:
    """The card of rank index ``rank`` (0 = two .. 12 = ace) and suit index ``suit``."""
    return rank * 4 + suit


def _names() -> tuple[list[str], dict[str, Card]]:
    names = []
    aliases: dict[str, Card] = {}
    for card in range(SIZE):
        rank, suit = RANK[card], SUIT[card]
        names.append(RANKS[rank] + SUIT_LETTERS[suit])
        for rank_name in {RANKS[rank].lower(), RANK_WORDS[rank]}:
            aliases[f"{rank_name} of {SUITS[suit]}"] = card
            aliases[f"{rank_name} {SUITS[suit]}"] = card
            aliases[f"{rank_name} {SUIT_SYMBOLS[suit]}"] = card
        if RANKS[rank] == "10":
            aliases["t" + SUIT_LETTERS[suit].lower()] = card
    return names, aliases


STANDARD = Deck("standard 52-card", *_names(), symbol=f"{__name__}.STANDARD")
