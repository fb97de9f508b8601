"""Stacked decks, small question banks and board set-ups for Toe scenarios."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.games.toe import LINES_THROUGH, QuestionBank, Toe, ToeState, cell_of, parse_bank

DRAWN_BOARD = "XXOOXOXXOOXOXOXXXOXXXXOOXXOOOXOOOOXOOXOOOXOXXXOOOXOXOXOOOXXXXOXX"
"""A full board, 32 marks each, with no line of four (found by a local search)."""

MINI_BANK_TEXT = "\n".join(
    json.dumps(
        {
            "question": f"Question {i}?",
            "choices": [f"right {i}", f"wrong {i}", f"other {i}"],
            "answer": f"right {i}",
            "category": "Test",
            "difficulty": "easy",
        }
    )
    for i in range(6)
)
MINI_BANK: QuestionBank = parse_bank(MINI_BANK_TEXT, "mini")
"""Six questions whose right answer is always A."""


def deal(x: int, hands: dict[int, str], stock: str = "") -> list[str]:
    """The stacked order dealing ``hands`` (seat -> "RC1 YH2 GT3"), X first, then ``stock``."""
    first, second = hands[x].split(), hands[1 - x].split()
    order = [card for pair in zip(first, second, strict=True) for card in pair]
    return [*order, *stock.split()]


def stacked(
    hands: dict[int, str],
    stock: str = "",
    x: int = 0,
    more: Sequence[Sequence[str]] = (),
    questions: Sequence[int] | None = None,
    seed: int = 0,
    **options: Any,
) -> ToeState:
    """A Toe game dealt exactly as given (with the mini bank for the Quiz Show)."""
    bank = MINI_BANK if options.get("quiz") else None
    game = Toe(2, bank=bank, **options)
    setup: dict[str, Any] = {"x": x}
    if questions is not None:
        setup["question_order"] = list(questions)
    return game.new_state(seed, decks=[deal(x, hands, stock), *more], **setup)


def hand(state: ToeState, seat: int) -> list[str]:
    return TRIPLE_TOPPER.format_many(state.hands[seat])


def act(state: ToeState, *texts: str, seat: int | None = None) -> list[dict[str, Any]]:
    """Apply text actions for whoever is to act; return the public views of their events."""
    views = []
    for text in texts:
        for event in state.apply_text(text, seat):
            views.append(event.view(None))
    return views


def preset(state: ToeState, marks: dict[str, int]) -> None:
    """Put marks on the board directly (cell name -> seat), keeping line counts right.

    For scenarios that need a crowded board; every other rule still runs as usual.
    """
    for name, seat in marks.items():
        cell = cell_of(name)
        assert state.board[cell] < 0
        state.board[cell] = seat
        state.free -= 1
        state.marks[seat] += 1
        for line in LINES_THROUGH[cell]:
            state.counts[seat][line] += 1
