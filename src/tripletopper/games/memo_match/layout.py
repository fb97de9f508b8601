"""The Memo Match table: positions and their names, and which cards match.

A layout of ``n`` cards fills positions ``0 .. n-1`` in reading order on a grid
twelve columns wide: the full deck makes the 12 x 10 grid plus a row of five.
A position is named by its column letter and row number, ``A1`` .. ``L10``, and
the extra row is ``A11`` .. ``E11``:

>>> position_name(0), position_name(11), position_name(124)
('A1', 'L1', 'E11')
>>> parse_position("c7"), parse_position("E11")
(74, 124)

Two cards match when at least two of their three variables match;
:func:`matching_variables` counts them (with wilds, a wild value matches
anything in its own variable only):

>>> matching_variables("KC1", "RH1"), matching_variables("KB1", "RH3")
(2, 2)
>>> matching_variables("KC1", "RH2"), matching_variables("KC1", "RC1", wilds=False)
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER, WILD
from tripletopper.engine.actions import Param
from tripletopper.errors import MalformedActionError

DECK_SIZE = 125
COLUMNS = "ABCDEFGHIJKL"
WIDTH = len(COLUMNS)
MATCH = 2
"""Variables two cards must share to be a pair."""

POSITION_NAMES: tuple[str, ...] = tuple(
    f"{COLUMNS[p % WIDTH]}{p // WIDTH + 1}" for p in range(DECK_SIZE)
)
_BY_NAME = {name: p for p, name in enumerate(POSITION_NAMES)}


def position_name(position: int) -> str:
    return POSITION_NAMES[position]


def parse_position(text: str) -> int:
    """A position from its name (``"C7"``, case-insensitive)."""
    if isinstance(text, str):
        found = _BY_NAME.get(text)  # as views write it
        if found is not None:
            return found
        found = _BY_NAME.get(text.strip().upper())
        if found is not None:
            return found
    raise MalformedActionError(
        f"{text!r} is not a position (columns A-L and rows 1-10, then A11-E11)"
    )


def rows_of(size: int) -> int:
    """How many grid rows a layout of ``size`` cards uses."""
    return (size + WIDTH - 1) // WIDTH


def _count(a: Card, b: Card, wilds: bool) -> int:
    count = 0
    for table in (COLOR, SHAPE, NUMBER):
        x, y = table[a], table[b]
        if x == y or (wilds and (x == WILD or y == WILD)):
            count += 1
    return count


VARIABLES: tuple[bytes, bytes] = (
    bytes(_count(a, b, False) for a in range(DECK_SIZE) for b in range(DECK_SIZE)),
    bytes(_count(a, b, True) for a in range(DECK_SIZE) for b in range(DECK_SIZE)),
)
"""``VARIABLES[wilds][a * 125 + b]``: how many variables cards ``a`` and ``b`` share."""


def matching_variables(a: Card | str, b: Card | str, wilds: bool = True) -> int:
    """How many of the three variables two cards match on (0-3); cards or notation."""
    return VARIABLES[bool(wilds)][TRIPLE_TOPPER.parse(a) * DECK_SIZE + TRIPLE_TOPPER.parse(b)]


class PositionParam(Param):
    """One table position; wire and text use its name (``"C7"``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def to_wire(self, value: int) -> str:
        return POSITION_NAMES[value]

    def from_wire(self, raw: Any) -> int:
        if not isinstance(raw, str):
            raise MalformedActionError(f"{self.name} must be a position like 'C7'")
        return parse_position(raw)

    def to_text(self, value: int) -> str:
        return POSITION_NAMES[value]

    def from_text(self, tokens: list[str], at: int) -> tuple[int, int]:
        if at >= len(tokens):
            raise self._missing()
        return self.from_wire(tokens[at]), at + 1


class PairParam(Param):
    """Two different positions, kept in increasing order (``claim C7 A1`` is ``(A1, C7)``)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def to_wire(self, value: tuple[int, ...]) -> list[str]:
        """The names of the positions (of more than two for a pattern's candidates)."""
        return [POSITION_NAMES[p] for p in value]

    def from_wire(self, raw: Any) -> tuple[int, int]:
        if not isinstance(raw, list) or len(raw) != 2:
            raise MalformedActionError(f"{self.name} must be two positions like ['A1', 'C7']")
        a, b = (PositionParam(self.name).from_wire(item) for item in raw)
        if a == b:
            raise MalformedActionError(f"{self.name} must be two different positions")
        return (a, b) if a < b else (b, a)

    def to_text(self, value: tuple[int, int]) -> str:
        return f"{POSITION_NAMES[value[0]]} {POSITION_NAMES[value[1]]}"

    def from_text(self, tokens: list[str], at: int) -> tuple[tuple[int, int], int]:
        if at + 2 > len(tokens):
            raise MalformedActionError(f"{self.name} needs two positions, like 'A1 C7'")
        return self.from_wire(tokens[at : at + 2]), at + 2


def flip_odds(variables: bytes, face_up: Card, known: Iterable[Card] = ()) -> tuple[int, int]:
    """``(matching, unknown)`` cards for a second flip after ``face_up``: ``known`` are the
    cards that cannot turn up at a random unknown position (taken, face up, or remembered
    where they lie); the chance that a random unknown card pairs with ``face_up`` is
    ``matching / unknown``.  ``variables`` is ``VARIABLES[wilds]``.

    >>> flip_odds(VARIABLES[True], TRIPLE_TOPPER.parse("RC1"))  # 7 match all three, 36 two
    (43, 124)
    """
    gone = {face_up, *known}
    base = face_up * DECK_SIZE
    unknown = [c for c in range(DECK_SIZE) if c not in gone]
    matching = sum(1 for c in unknown if variables[base + c] >= MATCH)
    return matching, len(unknown)
