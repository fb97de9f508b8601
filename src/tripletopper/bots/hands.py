"""Three-card hands scored by table lookups, for the Thirty-Two and Thirty-One bots.

Their heuristics score many hands per decision (a stock draw against every unseen
card, opponents sampled and improved by greedy draws).  :class:`PairRows` keeps, for
each pair of cards met, the score of the pair with every third card, so that a
hand's score is a list lookup; :func:`greedy_scores` plays a greedy player's draws
on it.  The rows are a per-process cache (the scores of a scoring mode never
change), so the bots decide exactly as with the plain scoring function.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Row = Sequence[float]


class PairRows:
    """``row(a, b)[c]`` is ``score(a, b, c)``; each pair's row is made once, by
    ``make(a, b)`` with ``a < b`` (the score of a hand does not depend on its order)."""

    __slots__ = ("make", "rows", "size")

    def __init__(self, size: int, make: Callable[[int, int], Row]) -> None:
        self.size = size
        self.make = make
        self.rows: list[Row | None] = [None] * (size * size)

    def row(self, a: int, b: int) -> Row:
        row = self.rows[a * self.size + b]
        if row is None:
            row = self.make(min(a, b), max(a, b))
            self.rows[a * self.size + b] = self.rows[b * self.size + a] = row
        return row

    def score(self, hand: Sequence[int]) -> float:
        return self.row(hand[0], hand[1])[hand[2]]


def greedy_scores(
    pairs: PairRows, hand: Sequence[int], draws: Sequence[int], enough: float = 99.0
) -> list[float]:
    """A greedy player's score with ``hand``, then after each card of ``draws``: each
    time the best of ``(a, b, card)``, ``(a, c, card)`` and ``(b, c, card)`` (the first
    of equals) replaces the hand ``(a, b, c)`` when it scores more.  A score never falls,
    so the list stops early at the first score of ``enough`` or more."""
    rows, size, row = pairs.rows, pairs.size, pairs.row
    a, b, c = hand
    best = (rows[a * size + b] or row(a, b))[c]
    scores = [best]
    for card in draws:
        if best >= enough:
            break
        ab = (rows[a * size + b] or row(a, b))[card]
        ac = (rows[a * size + c] or row(a, c))[card]
        bc = (rows[b * size + c] or row(b, c))[card]
        if ab > best or ac > best or bc > best:
            if ab >= ac and ab >= bc:
                c, best = card, ab
            elif ac >= bc:
                b, c, best = c, card, ac
            else:
                a, b, c, best = b, c, card, bc
        scores.append(best)
    return scores
