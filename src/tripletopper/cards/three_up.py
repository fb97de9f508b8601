"""The 84-card 3UP 3DOWN deck: numbers 1-10 (seven of each) and three kinds of Clear.

Copies of a value are interchangeable in play, but every physical card has its
own int and its own short name, so decks can be stacked, cards accounted for and
the colors used to shorten the deck (rules/three-up-three-down.md):

- 70 numbered cards, values 1-10, seven of each, colored red, green, blue in
  rotation (so each value has 3 red, 2 green, 2 blue copies);
- 7 **Clear**, 6 **Clear+1** (in the same rotation) and 1 **Clear+2** (green).

A card's *rank* orders what may be played on what: values 1-10 are ranks 1-10,
Clear is 11, Clear+1 is 12 and Clear+2 is 13.  Rank names are ``1`` .. ``10``,
``C``, ``C+1``, ``C+2``.  A card's short name is its rank name, its color letter
(``R``, ``G``, ``B``) and its copy number within that color: ``7R1``, ``7R3``,
``10G2``, ``CB1``, ``C+1R2``, ``C+2G1``.  Long forms such as ``red 7 1`` and
``green clear+2 1`` are read too.  Ints run rank by rank in the rotation order
(``0..6`` are the seven 1s: ``1R1 1G1 1B1 1R2 1G2 1B2 1R3``), so int order is
rank order.

>>> THREE_UP.format(0), THREE_UP.format(69), THREE_UP.format(83)
('1R1', '10R3', 'C+2G1')
>>> RANK[THREE_UP.parse("c+1b2")], RANK_NAMES[13], THREE_UP.parse("red 7 1") == 42
(12, 'C+2', True)
>>> len(deck_cards(("R", "G"))), len(deck_cards()), rank_of("clear+1")
(60, 84, 12)
"""

from __future__ import annotations

from collections.abc import Iterable

from tripletopper.cards.deck import Card, Deck
from tripletopper.errors import CardError

SIZE = 84
COLOR_LETTERS = "RGB"
COLOR_WORDS = ("red", "green", "blue")
CLEAR, CLEAR1, CLEAR2 = 11, 12, 13
"""Ranks of the three Clear kinds (above every number)."""
TOP_RANK = CLEAR2
RANK_NAMES = ("", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "C", "C+1", "C+2")
RANK_WORDS = {CLEAR: "Clear", CLEAR1: "Clear+1", CLEAR2: "Clear+2"}

_COPIES = {**{value: 7 for value in range(1, 11)}, CLEAR: 7, CLEAR1: 6, CLEAR2: 1}
"""How many physical cards each rank has."""


def _build() -> tuple[list[int], list[int], list[int], list[str]]:
    ranks, colors, copies, names = [], [], [], []
    for rank in range(1, TOP_RANK + 1):
        for i in range(_COPIES[rank]):
            color = 1 if rank == CLEAR2 else i % 3  # the lone Clear+2 is green
            ranks.append(rank)
            colors.append(color)
            copies.append(i // 3 + 1)
            names.append(f"{RANK_NAMES[rank]}{COLOR_LETTERS[color]}{i // 3 + 1}")
    return ranks, colors, copies, names


_ranks, _colors, _copies, _names = _build()
RANK: tuple[int, ...] = tuple(_ranks)
"""Rank of each card: 1-10 for numbers, 11 Clear, 12 Clear+1, 13 Clear+2."""
COLOR: tuple[int, ...] = tuple(_colors)
"""Color index of each card: 0 red, 1 green, 2 blue."""
COPY: tuple[int, ...] = tuple(_copies)
"""Copy number of each card within its rank and color (1-3)."""
VALUE: tuple[int, ...] = tuple(r if r <= 10 else 0 for r in RANK)
"""Face value of numbered cards; 0 for Clears."""
CLEAR_KIND: tuple[int, ...] = tuple(r - 10 if r > 10 else 0 for r in RANK)
"""0 for numbers, 1 Clear, 2 Clear+1, 3 Clear+2."""
BONUS: tuple[int, ...] = tuple(r - CLEAR if r > 10 else 0 for r in RANK)
"""Extra plays a card grants: 1 for Clear+1, 2 for Clear+2, else 0."""
RANK_COPIES: tuple[int, ...] = tuple(_COPIES.get(r, 0) for r in range(TOP_RANK + 1))
"""Physical cards of each rank in the full deck (index 0 unused)."""

_RANK_LOOKUP = {name.lower(): rank for rank, name in enumerate(RANK_NAMES) if rank}
_RANK_LOOKUP.update({"clear": CLEAR, "clear+1": CLEAR1, "clear+2": CLEAR2})


def rank_of(text: str | int) -> int:
    """A rank from its name (``7``, ``10``, ``C``, ``C+1``, ``clear+2``), case-insensitive."""
    if isinstance(text, int) and not isinstance(text, bool):
        if 1 <= text <= TOP_RANK:
            return text
    elif isinstance(text, str):
        rank = _RANK_LOOKUP.get(text.strip().lower().replace(" ", ""))
        if rank is not None:
            return rank
    raise CardError(f"{text!r} is not a 3UP 3DOWN value (values are 1 to 10, C, C+1 and C+2)")


def _aliases() -> dict[str, Card]:
    aliases: dict[str, Card] = {}
    for card, rank in enumerate(RANK):
        word = RANK_NAMES[rank].lower() if rank <= 10 else RANK_WORDS[rank].lower()
        color = COLOR_WORDS[COLOR[card]]
        for rank_word in {RANK_NAMES[rank].lower(), word}:
            aliases[f"{color} {rank_word} {COPY[card]}"] = card
            aliases[f"{rank_word} {color} {COPY[card]}"] = card
    return aliases


THREE_UP = Deck("3UP 3DOWN", _names, _aliases(), symbol=f"{__name__}.THREE_UP")
"""The 84-card deck; ``THREE_UP.parse`` / ``.format`` read and write card names."""


def parse_colors(text: str | Iterable[str]) -> tuple[str, ...]:
    """Color letters in deck order from ``"red,green"``, ``"RG"``, ``["blue"]``...

    >>> parse_colors("green, red"), parse_colors("B")
    (('R', 'G'), ('B',))
    """
    if isinstance(text, str):
        parts = [p for p in text.replace(",", " ").replace("+", " ").split() if p]
        if (
            len(parts) == 1
            and parts[0].lower() not in COLOR_WORDS
            and set(parts[0]) <= set("rgbRGB")
        ):
            parts = list(parts[0])  # "RG"
    else:
        parts = list(text)
    chosen = set()
    for part in parts:
        low = part.strip().lower()
        for letter, word in zip(COLOR_LETTERS, COLOR_WORDS, strict=True):
            if low in (letter.lower(), word):
                chosen.add(letter)
                break
        else:
            raise CardError(f"{part!r} is not a 3UP 3DOWN color (red, green or blue)")
    if not chosen:
        raise CardError("name at least one color (red, green, blue)")
    return tuple(letter for letter in COLOR_LETTERS if letter in chosen)


def deck_cards(colors: Iterable[str] = COLOR_LETTERS) -> tuple[Card, ...]:
    """The cards of a deck shortened to these colors (letters), in int order."""
    keep = {COLOR_LETTERS.index(letter) for letter in colors}
    return tuple(card for card in range(SIZE) if COLOR[card] in keep)
