"""Stacked layouts for Memo Match scenarios."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.games.memo_match import MemoMatch, MemoMatchState, parse_position


def stacked(
    players: int,
    cards: str,
    order: Sequence[int] | None = None,
    more: Sequence[str] = (),
    seed: int = 0,
    **options: Any,
) -> MemoMatchState:
    """A game whose layout starts A1, B1, ... with ``cards`` (the rest at random).

    ``more`` stacks the next layouts (after a beaten declaration, or the playoff).
    """
    game = MemoMatch(players, **options)
    decks = [cards.split(), *(m.split() for m in more)]
    setup = {"order": list(order if order is not None else range(players))}
    return game.new_state(seed, decks=decks, **setup)


def at(state: MemoMatchState, position: str) -> str | None:
    card = state.table[parse_position(position)]
    return None if card < 0 else TRIPLE_TOPPER.format(card)


def play(state: MemoMatchState, *texts: str, seat: int | None = None) -> list[dict[str, Any]]:
    """Apply text actions (``"flip A1"``, ``"A1 B1"`` = two flips); public event views."""
    views = []
    for text in texts:
        words = text.split()
        actions = [f"flip {w}" for w in words] if words[0][0].isupper() else [text]
        for action in actions:
            for event in state.apply_text(action, seat):
                views.append(event.view(None))
    return views


def pile(state: MemoMatchState, seat: int) -> list[str]:
    return TRIPLE_TOPPER.format_many(state.piles[seat])
