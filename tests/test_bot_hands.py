"""The bots' table lookups of three-card hands (``bots/hands.py``) give what the plain
scoring functions give: a pair's row holds the score with every third card, and a greedy
player's draws keep the same hands as the plain step (the first best of the three keeps
that beat the hand), over many seeded random hands and draws."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tripletopper.bots.hands import PairRows, greedy_scores
from tripletopper.bots.thirty_two import pair_rows
from tripletopper.engine import Rng
from tripletopper.games.thirty_two import score3

Score = Callable[[int, int, int], float]


def plain_greedy(score: Score, hand: list[int], draws: list[int]) -> list[float]:
    """A greedy player as the bots first wrote it: each keep scored afresh."""
    best = score(*hand)
    scores = [best]
    for card in draws:
        a, b, c = hand
        for keep in ((a, b, card), (a, c, card), (b, c, card)):
            points = score(*keep)
            if points > best:
                hand, best = list(keep), points
        scores.append(best)
    return scores


def check_rows(rows: PairRows, score: Score, size: int, seed: int) -> None:
    rng = Rng(seed)
    for _ in range(300):
        a, b = rng.sample(range(size), 2)
        row = rows.row(a, b)
        assert [row[u] for u in range(size) if u not in (a, b)] == [
            score(a, b, u) for u in range(size) if u not in (a, b)
        ], (a, b)
        assert rows.row(b, a) is row
    for _ in range(3000):
        cards = rng.sample(range(size), 3 + rng.below(10))
        plain = plain_greedy(score, cards[:3], cards[3:])
        assert greedy_scores(rows, cards[:3], cards[3:]) == plain, cards
        enough = plain[rng.below(len(plain))]
        stopped = greedy_scores(rows, cards[:3], cards[3:], enough)
        assert stopped == plain[: len(stopped)] and stopped[-1] == min(enough, plain[-1])


@pytest.mark.parametrize(("wilds", "cap"), [(True, True), (True, False), (False, True)])
def test_thirty_two_pair_rows_and_greedy_draws(wilds: bool, cap: bool) -> None:
    def score(a: int, b: int, c: int) -> float:
        return score3(a, b, c, wilds, cap)

    check_rows(pair_rows(wilds, cap), score, 125, seed=int(wilds) * 2 + int(cap))
