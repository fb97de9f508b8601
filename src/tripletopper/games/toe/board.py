"""The 4x4x4 board of Triple Topper Toe and its 76 lines, as precomputed int tables.

A cell is the int ``layer * 16 + column * 4 + row`` (0-63): rows are the colors
red, yellow, green, blue; columns the shapes circle, heart, triangle, square;
layers the numbers 1-4.  It is named by the notation of its *natural* card:
``GS1`` is row 3 (green), column 4 (square), layer 1.

A card *fits* the cells that agree with it on every variable that is not wild:
a natural card fits one cell, a card with one wild a line of 4, with two wilds
a plane of 16, and ``KB?`` all 64.

>>> CELL_NAMES[cell_of("GS1")], len(LINES), len(FITS[TRIPLE_TOPPER.parse("KB1")])
('GS1', 76, 16)
>>> sorted(len(family) for family in LINE_FAMILIES.values())
[4, 24, 48]
"""

from __future__ import annotations

from itertools import product

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER, WILD, make_card

CELLS = 64
SIDE = 4


def cell_at(row: int, column: int, layer: int) -> int:
    """The cell in ``row`` (color), ``column`` (shape) and ``layer`` (number), each 0-3."""
    return layer * 16 + column * 4 + row


ROW: tuple[int, ...] = tuple(c % 4 for c in range(CELLS))
COLUMN: tuple[int, ...] = tuple((c // 4) % 4 for c in range(CELLS))
LAYER: tuple[int, ...] = tuple(c // 16 for c in range(CELLS))
NATURAL: tuple[Card, ...] = tuple(make_card(ROW[c], COLUMN[c], LAYER[c]) for c in range(CELLS))
"""The natural card of each cell (``NATURAL[cell_of("GS1")]`` is the card GS1)."""
CELL_NAMES: tuple[str, ...] = tuple(TRIPLE_TOPPER.names[card] for card in NATURAL)
_CELL_BY_NAME = {name: cell for cell, name in enumerate(CELL_NAMES)}


def cell_of(name: str) -> int:
    """The cell named by a natural card (``"GS1"``, ``"green square 1"``); KeyError if wild."""
    card = TRIPLE_TOPPER.parse(name)
    return _CELL_BY_NAME[TRIPLE_TOPPER.names[card]]


def _fits(card: Card) -> tuple[int, ...]:
    rows = range(SIDE) if COLOR[card] == WILD else (COLOR[card],)
    columns = range(SIDE) if SHAPE[card] == WILD else (SHAPE[card],)
    layers = range(SIDE) if NUMBER[card] == WILD else (NUMBER[card],)
    return tuple(sorted(cell_at(r, c, n) for r, c, n in product(rows, columns, layers)))


FITS: tuple[tuple[int, ...], ...] = tuple(_fits(card) for card in range(TRIPLE_TOPPER.size))
"""The cells each card may mark (ascending)."""
FITS_SET: tuple[frozenset[int], ...] = tuple(frozenset(cells) for cells in FITS)


def _lines() -> tuple[tuple[int, int, int, int], ...]:
    """Every line of 4 cells: a start and a direction, each direction taken once."""
    out: set[tuple[int, int, int, int]] = set()
    for d in product((-1, 0, 1), repeat=3):
        if d == (0, 0, 0):
            continue
        for start in product(range(SIDE), repeat=3):
            points = [tuple(start[k] + i * d[k] for k in range(3)) for i in range(SIDE)]
            if all(0 <= v < SIDE for p in points for v in p):
                cells = sorted(cell_at(*p) for p in points)
                out.add((cells[0], cells[1], cells[2], cells[3]))
    return tuple(sorted(out))


LINES: tuple[tuple[int, int, int, int], ...] = _lines()
"""The 76 lines of the cube, each 4 cells in ascending order."""


def _family(line: tuple[int, int, int, int]) -> str:
    a, b = line[0], line[1]
    moving = (ROW[a] != ROW[b]) + (COLUMN[a] != COLUMN[b]) + (LAYER[a] != LAYER[b])
    return ("straight", "face diagonal", "space diagonal")[moving - 1]


LINE_FAMILIES: dict[str, tuple[int, ...]] = {
    name: tuple(i for i, line in enumerate(LINES) if _family(line) == name)
    for name in ("straight", "face diagonal", "space diagonal")
}
"""Line indices by family: 48 straight, 24 diagonals of a face or slice, 4 through the cube."""

LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, line in enumerate(LINES) if cell in line) for cell in range(CELLS)
)
"""For each cell, the indices of the lines through it (7 for a corner or a centre cell, 4 else)."""


def open_lines(board: str) -> dict[str, list[int]]:
    """For ``X`` and ``O``, how many lines hold none of the other's marks, by how many of
    their own marks they hold (0-4); ``board`` is 64 characters ``X``, ``O`` or ``.`` in
    cell order (``ToeState.board_text()``).

    >>> open_lines("." * 64)["X"]
    [76, 0, 0, 0, 0]
    """
    text = board.strip().upper()
    if len(text) != CELLS or set(text) - set("XO."):
        raise ValueError("a Toe board is 64 characters X, O or . in cell order")
    out = {"X": [0] * 5, "O": [0] * 5}
    for line in LINES:
        marks = [text[cell] for cell in line]
        for side, other in (("X", "O"), ("O", "X")):
            if other not in marks:
                out[side][marks.count(side)] += 1
    return out
