"""3UP 3DOWN: the shedding game with Clear, Clear+1 and Clear+2 cards.

The rules it plays are on rules/three-up-three-down.md.
"""

from tripletopper.games.three_up_three_down.actions import CODEC, PLAYS, choose_action
from tripletopper.games.three_up_three_down.narration import describe_event, values
from tripletopper.games.three_up_three_down.rules import ThreeUpThreeDown, ThreeUpThreeDownState

__all__ = [
    "CODEC",
    "PLAYS",
    "ThreeUpThreeDown",
    "ThreeUpThreeDownState",
    "choose_action",
    "describe_event",
    "values",
]
