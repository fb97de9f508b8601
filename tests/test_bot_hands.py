"""The bots' fast paths for three-card hands (``bots/hands.py``) give what the plain code
gives, over many seeded random hands and draws: a pair's row holds the score with every
third card; a greedy player's draws keep the same hands as the plain step (the first best
of the three keeps that beat the hand); sampled opponents (``greedy_reach``) count what
``rng.sample`` and the plain greedy count and leave the generator where they do; a
decision sampled until settled (``sampled_decision``) is the decision on all the samples;
the mean of a draw is the plain mean."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tripletopper.bots import thirty_one, thirty_two
from tripletopper.bots.hands import (
    PairRows,
    Sampled,
    draw_mean,
    greedy_reach,
    greedy_scores,
    sampled_decision,
)
from tripletopper.engine import Rng
from tripletopper.games.thirty_one.scoring import value3, value3_trips
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


def plain_reach(
    score: Score,
    rng: Rng,
    known: list[int],
    unseen: list[int],
    draws: int,
    samples: int,
    enough: float,
) -> list[bool]:
    """Which samples reach ``enough``, as the bots first sampled them."""
    hidden = 3 - len(known)
    out = []
    for _ in range(samples):
        cards = rng.sample(unseen, hidden + draws)
        out.append(plain_greedy(score, known + cards[:hidden], cards[hidden:])[-1] >= enough)
    return out


def check_rows(rows: PairRows[Any], score: Score, size: int, seed: int) -> None:
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
    for _ in range(40):
        hand = rng.sample(range(size), 3)
        unseen = [u for u in range(size) if u not in hand and rng.below(4)]
        now = rows.score(hand) + rng.below(3) - 1
        plain_mean = sum(max(now, *(score(*p, u) for p in pairs(hand))) for u in unseen)
        assert draw_mean(rows, hand, now, unseen) == plain_mean / len(unseen)
        card = unseen[0]
        best = max(now, *(score(*p, card) for p in pairs(hand)))
        assert draw_mean(rows, hand, now, [card]) == best


def pairs(hand: list[int]) -> list[tuple[int, int]]:
    a, b, c = hand
    return [(a, b), (a, c), (b, c)]


def check_sampling(rows: PairRows[Any], score: Score, size: int, seed: int) -> None:
    choice = Rng(seed)
    for trial in range(60):
        known = choice.sample(range(size), choice.below(3))
        unseen = [u for u in range(size) if u not in known and choice.below(5)]
        draws, samples = choice.below(8), 1 + choice.below(24)
        enough = score(*choice.sample(range(size), 3)) + choice.below(5)
        plain_rng, fast_rng = Rng(trial), Rng(trial)
        reached = plain_reach(score, plain_rng, known, unseen, draws, samples, enough)
        hits, played = greedy_reach(rows, fast_rng, known, unseen, draws, samples, enough)
        assert (hits, played) == (sum(reached), samples)
        assert fast_rng.state == plain_rng.state
        settled = (choice.below(samples + 2), choice.below(samples + 2) - 1)
        fast_rng = Rng(trial)
        hits, played = greedy_reach(rows, fast_rng, known, unseen, draws, samples, enough, settled)
        assert hits == sum(reached[:played]) and fast_rng.state == plain_rng.state
        assert played == samples or hits >= settled[0] or hits + samples - played <= settled[1]


def check_decisions(rows: PairRows[Any], score: Score, size: int, seed: int) -> None:
    """Decisions that sum weighted counts against a line: monotone, as the bots' are."""
    choice = Rng(seed)
    for trial in range(150):
        deck = choice.sample(range(size), size)
        opponents: list[Sampled] = []
        for _ in range(1 + choice.below(4)):
            known = [deck.pop() for _ in range(1 + choice.below(2))]
            opponents.append((known, choice.below(6), score(*choice.sample(range(size), 3))))
        unseen = deck[: len(deck) - choice.below(20)]
        weights = [choice.random() for _ in opponents]
        line = choice.random() * 24 * sum(weights)

        def decide(counts: list[int], weights: list[float] = weights, line: float = line) -> bool:
            return sum(w * n for w, n in zip(weights, counts, strict=True)) <= line

        plain_rng, fast_rng = Rng(trial), Rng(trial)
        counts = [sum(plain_reach(score, plain_rng, k, unseen, d, 24, e)) for k, d, e in opponents]
        assert sampled_decision(rows, fast_rng, unseen, 24, opponents, decide) == decide(counts)
        assert fast_rng.state == plain_rng.state


@pytest.mark.parametrize(("wilds", "cap"), [(True, True), (True, False), (False, True)])
def test_thirty_two_pair_rows_and_greedy_draws(wilds: bool, cap: bool) -> None:
    def score(a: int, b: int, c: int) -> float:
        return score3(a, b, c, wilds, cap)

    rows = thirty_two.pair_rows(wilds, cap)
    check_rows(rows, score, 125, seed=int(wilds) * 2 + int(cap))
    check_sampling(rows, score, 125, seed=int(wilds) * 2 + int(cap))
    check_decisions(rows, score, 125, seed=int(wilds) * 2 + int(cap))


@pytest.mark.parametrize("trips", [False, True])
def test_thirty_one_pair_rows_and_greedy_draws(trips: bool) -> None:
    score = value3_trips if trips else value3
    rows = thirty_one.pair_rows(trips)
    check_rows(rows, score, 52, seed=10 + trips)
    check_sampling(rows, score, 52, seed=10 + trips)
    check_decisions(rows, score, 52, seed=10 + trips)


def test_pair_rows_travel_as_the_call_that_makes_them():
    """A bot sent to the room's workers pickles its rows as their cached constructor: the
    receiving process uses its own copy (a lambda inside could not be pickled at all)."""
    import pickle

    from tripletopper.bots import thirty_one, thirty_two

    for rows in (thirty_one.pair_rows(True), thirty_two.pair_rows(True, False)):
        rows.row(0, 1)
        data = pickle.dumps(rows)
        assert len(data) < 200 and pickle.loads(data) is rows
