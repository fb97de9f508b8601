"""Thirty-One with organs (rules/thirty-one.md): the classic three-card knock game, lives as organs.

Public helper :func:`hand_value` accepts cards or notation (``"AS 10H KD"``).
"""

from tripletopper.games.thirty_one.narration import describe_event
from tripletopper.games.thirty_one.rules import ThirtyOne, ThirtyOneState
from tripletopper.games.thirty_one.scoring import (
    ORGANS,
    THIRTY_ONE,
    hand_value,
    organs_left,
    showdown_losses,
)

__all__ = [
    "ORGANS",
    "THIRTY_ONE",
    "ThirtyOne",
    "ThirtyOneState",
    "describe_event",
    "hand_value",
    "organs_left",
    "showdown_losses",
]
