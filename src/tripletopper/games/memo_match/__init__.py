"""Memo Match (rules/memo-match.md): three-variable Concentration with the 125 Triple Topper cards.

The public helper :func:`matching_variables` counts the variables two cards
share (cards or notation); positions are named by :func:`position_name`.
"""

from tripletopper.games.memo_match.layout import (
    flip_odds,
    matching_variables,
    parse_position,
    position_name,
)
from tripletopper.games.memo_match.narration import describe_event
from tripletopper.games.memo_match.rules import MemoMatch, MemoMatchState

__all__ = [
    "MemoMatch",
    "MemoMatchState",
    "describe_event",
    "flip_odds",
    "matching_variables",
    "parse_position",
    "position_name",
]
