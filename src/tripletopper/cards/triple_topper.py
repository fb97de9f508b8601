"""The Triple Topper deck: 5 colors x 5 shapes x 5 numbers = 125 unique cards.

A card is the int ``number * 25 + shape * 5 + color`` where each variable is an
index 0-4 in rank order (index 4 is the wild value: black, blob, ``?``).  That
makes int order the deck's *total rank* (number first, then shape, then color),
so cutting for high card is just ``max``:

>>> TRIPLE_TOPPER.format(124), TRIPLE_TOPPER.format(0)
('KB?', 'RC1')
>>> TRIPLE_TOPPER.parse("black-blob-?") == 124 and TRIPLE_TOPPER.parse("rc1") == 0
True
>>> WILDS[TRIPLE_TOPPER.parse("KC1")], wild_count(TRIPLE_TOPPER.parse_many("KB? RC1"))
(1, 3)
"""

from __future__ import annotations

from collections.abc import Iterable

from tripletopper.cards.deck import Card, Deck

COLORS = ("red", "yellow", "green", "blue", "black")
SHAPES = ("circle", "heart", "triangle", "square", "blob")
NUMBERS = ("1", "2", "3", "4", "?")
COLOR_LETTERS = "RYGBK"
SHAPE_LETTERS = "CHTSB"
NUMBER_LETTERS = "1234?"
WILD = 4
"""Index of the wild value in every variable (black, blob, ``?``)."""

SIZE = 125


def make_card(color: int, shape: int, number: int) -> Card:
    """The card with these variable indices (each 0-4)."""
    return number * 25 + shape * 5 + color


COLOR: tuple[int, ...] = tuple(c % 5 for c in range(SIZE))
SHAPE: tuple[int, ...] = tuple((c // 5) % 5 for c in range(SIZE))
NUMBER: tuple[int, ...] = tuple(c // 25 for c in range(SIZE))
WILDS: tuple[int, ...] = tuple(
    (COLOR[c] == WILD) + (SHAPE[c] == WILD) + (NUMBER[c] == WILD) for c in range(SIZE)
)
"""How many of each card's three variables are wild (0-3)."""


def _names() -> tuple[list[str], dict[str, Card]]:
    names = []
    aliases: dict[str, Card] = {}
    number_words = ("1", "2", "3", "4", "?")
    for card in range(SIZE):
        co, sh, nu = COLOR[card], SHAPE[card], NUMBER[card]
        names.append(COLOR_LETTERS[co] + SHAPE_LETTERS[sh] + NUMBER_LETTERS[nu])
        long = f"{COLORS[co]} {SHAPES[sh]} {number_words[nu]}"
        aliases[long] = card
        if nu == WILD:
            aliases[f"{COLORS[co]} {SHAPES[sh]} question"] = card
    return names, aliases


TRIPLE_TOPPER = Deck("Triple Topper", *_names(), symbol=f"{__name__}.TRIPLE_TOPPER")
"""The 125-card deck; ``TRIPLE_TOPPER.parse`` / ``.format`` read and write notation."""


def wild_count(cards: Iterable[Card]) -> int:
    """Total number of wild variables over some cards."""
    return sum(WILDS[c] for c in cards)


def long_name(card: Card) -> str:
    """``'green square 1'`` for ``GS1``."""
    return f"{COLORS[COLOR[card]]} {SHAPES[SHAPE[card]]} {NUMBERS[NUMBER[card]]}"
