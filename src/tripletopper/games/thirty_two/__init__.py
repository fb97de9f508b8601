"""Thirty-Two: Triple Topper's counter-paying take on Thirty-One (rules/thirty-two.md).

Public helpers :func:`hand_score` and :func:`wild_count` accept cards or notation.
"""

from tripletopper.games.thirty_two.narration import describe_event
from tripletopper.games.thirty_two.rules import ThirtyTwo, ThirtyTwoState
from tripletopper.games.thirty_two.scoring import THIRTY_TWO, hand_score, score3, wild_count

__all__ = [
    "THIRTY_TWO",
    "ThirtyTwo",
    "ThirtyTwoState",
    "describe_event",
    "hand_score",
    "score3",
    "wild_count",
]
