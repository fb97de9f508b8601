"""3UP 3DOWN actions: they name values, not physical copies.

Copies of a value are interchangeable, so a play says which values, and the
engine picks the physical cards (see ``rules.py``).  Compact forms are tuples,
precomputed once and shared:

| compact | text | wire |
|---|---|---|
| ``("choose", (3, 9, 11))`` | ``choose 3 9 C`` | ``{"type": "choose", "cards": ["3", "9", "C"]}`` |
| ``("play", (7, 7))`` | ``play 7 7`` (two 7s) | ``{"type": "play", "cards": ["7", "7"]}`` |
| ``("play", (12,))`` | ``play C+1`` | ``{"type": "play", "cards": ["C+1"]}`` |
| ``("flip",)`` | ``flip`` | ``{"type": "flip"}`` |
| ``("pickup",)`` | ``pickup`` | ``{"type": "pickup"}`` |
| ``("draw",)`` | ``draw`` | ``{"type": "draw"}`` |

The values of a ``choose`` are kept sorted, so each choice has one form.

>>> CODEC.from_text("choose c 10 3") == ("choose", (3, 10, 11))
True
>>> CODEC.to_text(PLAYS[7][1]), CODEC.to_wire(PLAYS[12][0])
('play 7 7', {'type': 'play', 'cards': ['C+1']})
"""

from __future__ import annotations

from typing import Any

from tripletopper.cards.three_up import RANK_NAMES, TOP_RANK, rank_of
from tripletopper.engine import Action, ActionCodec, ActionKind
from tripletopper.engine.actions import Param
from tripletopper.errors import CardError, MalformedActionError

MAX_COPIES = 7
"""Most copies of one rank in the deck (so the largest multiple)."""


class RanksParam(Param):
    """Several values by name (``7 7``, ``3 9 C``): a tuple of ranks.

    ``sort`` keeps them in rank order (a choice of cards, where order means nothing).
    """

    def __init__(self, name: str, min_count: int, max_count: int, sort: bool = False) -> None:
        self.name = name
        self.min_count = min_count
        self.max_count = max_count
        self.sort = sort

    def _read(self, items: list[Any]) -> tuple[int, ...]:
        if not self.min_count <= len(items) <= self.max_count:
            span = (
                f"{self.min_count}"
                if self.min_count == self.max_count
                else f"{self.min_count} to {self.max_count}"
            )
            raise MalformedActionError(f"{self.name} needs {span} values (got {len(items)})")
        try:
            ranks = [rank_of(item) for item in items]
        except CardError as exc:
            raise MalformedActionError(str(exc)) from None
        return tuple(sorted(ranks)) if self.sort else tuple(ranks)

    def to_wire(self, value: tuple[int, ...]) -> list[str]:
        return [RANK_NAMES[r] for r in value]

    def from_wire(self, raw: Any) -> tuple[int, ...]:
        if not isinstance(raw, list) or not all(isinstance(x, str) for x in raw):
            raise MalformedActionError(f'{self.name} must be a list of values like ["7", "C"]')
        return self._read(raw)

    def to_text(self, value: tuple[int, ...]) -> str:
        return " ".join(RANK_NAMES[r] for r in value)

    def from_text(self, tokens: list[str], at: int) -> tuple[tuple[int, ...], int]:
        return self._read(tokens[at:]), len(tokens)


CODEC = ActionCodec(
    [
        ActionKind(
            "choose",
            (RanksParam("cards", 3, 3, sort=True),),
            "lay these three of your six cards face up as your 3UP cards",
        ),
        ActionKind(
            "play",
            (RanksParam("cards", 1, MAX_COPIES),),
            "play one card, or several of one value (play 7 7); Clears one at a time",
        ),
        ActionKind("flip", (), "turn up your next 3DOWN card and play it if you can"),
        ActionKind("pickup", (), "pick up the pile (only when you cannot play)"),
        ActionKind("draw", (), "draw one card before an extra play of a Clear+1 or Clear+2"),
    ]
)

FLIP: Action = ("flip",)
PICKUP: Action = ("pickup",)
DRAW: Action = ("draw",)
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(("play", (rank,) * count) for count in range(1, MAX_COPIES + 1))
    for rank in range(TOP_RANK + 1)
)
"""``PLAYS[rank][count - 1]`` is the action playing ``count`` cards of ``rank``."""


def choose_action(ranks: tuple[int, ...] | list[int]) -> Action:
    """The ``choose`` action for these three ranks (any order)."""
    return ("choose", tuple(sorted(ranks)))
