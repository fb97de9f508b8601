"""Triple Topper Toe (rules/toe.md): 4x4x4 tic-tac-toe driven by cards, and the Quiz Show.

:data:`LINES` holds the 76 lines of the cube (4 cells each); cells and cards are
ints (see :mod:`.board`).
"""

from tripletopper.games.toe.board import (
    CELL_NAMES,
    CELLS,
    FITS,
    LINE_FAMILIES,
    LINES,
    LINES_THROUGH,
    NATURAL,
    cell_of,
    open_lines,
)
from tripletopper.games.toe.narration import describe_event
from tripletopper.games.toe.questions import (
    BUILTIN,
    Question,
    QuestionBank,
    QuestionBankError,
    parse_bank,
)
from tripletopper.games.toe.rules import WASTED, Toe, ToeState

__all__ = [
    "BUILTIN",
    "CELLS",
    "CELL_NAMES",
    "FITS",
    "LINES",
    "LINES_THROUGH",
    "LINE_FAMILIES",
    "NATURAL",
    "WASTED",
    "Question",
    "QuestionBank",
    "QuestionBankError",
    "Toe",
    "ToeState",
    "cell_of",
    "describe_event",
    "open_lines",
    "parse_bank",
]
