"""The odds of a three-card hand after one draw (Thirty-One, Thirty-Two), exact.

Every unseen card is drawn once, each equally likely, and the best three of the four
cards are kept; taking the face-up card instead is worth the best three with it.
Pure functions of their arguments: the two games' hints (``State.hints``) and
``tripletopper odds`` (``analysis/odds.py``) use the same ones.

>>> from tripletopper.games.thirty_one import ThirtyOne
>>> game = ThirtyOne(2)
>>> hand = game.deck.parse_many("AS KS 2H")
>>> odds = draw_odds(game.value, hand, [c for c in range(52) if c not in hand])
>>> odds.now, odds.unseen, round(odds.at_least(31), 4)  # 3 tens of spades of 49 cards
(21, 49, 0.0612)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from tripletopper.cards.deck import Card

Value = Callable[[Sequence[Card]], float]
"""A three-card hand's value under a game's options (``ThirtyOne.value``, ``ThirtyTwo.score``)."""


def best_of_four(value: Value, cards: Sequence[Card]) -> float:
    """The best value of three of four cards (the one discarded is the worst to keep)."""
    return max(value(three) for three in combinations(cards, 3))


@dataclass(frozen=True)
class DrawOdds:
    """A hand now, after a draw (value -> probability), and after taking the face-up card."""

    now: float
    after_draw: dict[float, float]
    unseen: int
    take: float | None = None

    @property
    def mean(self) -> float:
        return sum(value * p for value, p in self.after_draw.items())

    @property
    def improves(self) -> float:
        """The chance that the draw makes the hand better."""
        return sum(p for value, p in self.after_draw.items() if value > self.now)

    def at_least(self, value: float) -> float:
        return sum(p for v, p in self.after_draw.items() if v >= value)


def draw_odds(
    value: Value, hand: Sequence[Card], unseen: Sequence[Card], up: Card | None = None
) -> DrawOdds:
    """Exact: each of ``unseen`` is drawn once (each equally likely), the best three kept;
    with ``up``, the value of taking that card instead."""
    if len(hand) != 3:
        raise ValueError(f"a hand is three cards (got {len(hand)})")
    if not unseen:
        raise ValueError("no unseen card is left to draw")
    counts: dict[float, int] = {}
    for card in unseen:
        after = best_of_four(value, [*hand, card])
        counts[after] = counts.get(after, 0) + 1
    after_draw = {v: counts[v] / len(unseen) for v in sorted(counts)}
    take = best_of_four(value, [*hand, up]) if up is not None else None
    return DrawOdds(value(hand), after_draw, len(unseen), take)


def draw_hints(
    value: Value,
    names: Sequence[str],
    hand: Sequence[Card],
    seen: Collection[Card],
    up: Card | None,
    stock: bool,
) -> dict[str, Any]:
    """A seat's hints before it draws or takes: ``draw`` (its hand's ``value`` now, how many
    ``unseen`` cards a draw may bring, how many of them ``improve`` it, the ``mean`` value
    after the draw) while the stock has cards, and ``take`` (the face-up ``card`` and the
    ``value`` it makes).  Only cards the seat knows count as seen: its hand, the face-up
    card and the cards known to be in other hands."""
    out: dict[str, Any] = {}
    unseen = [card for card in range(len(names)) if card not in seen]
    if stock and unseen:
        odds = draw_odds(value, hand, unseen)
        out["draw"] = {
            "value": odds.now,
            "unseen": odds.unseen,
            "improve": round(odds.improves * odds.unseen),
            "mean": round(odds.mean, 2),
        }
    if up is not None:
        out["take"] = {"card": names[up], "value": best_of_four(value, [*hand, up])}
    return out
