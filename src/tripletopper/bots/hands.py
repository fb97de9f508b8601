"""Three-card hands scored by table lookups, for the Thirty-Two and Thirty-One bots.

Their heuristics score many hands per decision: a stock draw against every unseen
card, and opponents sampled and improved by greedy draws.  Here, exactly as the plain
code computes them, but fast:

- :class:`PairRows` keeps, for each pair of cards met, the score of the pair with every
  third card, so that a hand's score is a list lookup (a per-process cache: the scores
  of a scoring mode never change); :func:`draw_mean` is the mean of a stock draw;
- :func:`greedy_turn` plays a greedy player's draw (:func:`greedy_scores`, several),
  and :func:`greedy_reach` samples opponents as ``rng.sample`` would and counts those
  who reach a score;
- :func:`sampled_decision` samples one opponent after another only until the decision
  that rests on the counts is settled, and moves the generator on as if it had sampled
  them all (``Rng.advance``), so the next decision draws what it would have.

``tests/test_bot_hands.py`` checks each against the plain code.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from operator import itemgetter, mul
from typing import Generic, TypeVar

from tripletopper.engine import Rng
from tripletopper.engine.rng import _INC, _MASK64, _MULT

Score = TypeVar("Score", int, float)


class PairRows(Generic[Score]):
    """``row(a, b)[c]`` is ``score(a, b, c)``; each pair's row is made once, by
    ``make(a, b)`` with ``a < b`` (the score of a hand does not depend on its order).

    A bot holding one travels to the card room's bot workers: pickled, it is the call
    ``source`` names (the module's cached constructor), so a worker uses its own copy
    instead of receiving the rows."""

    __slots__ = ("bytes", "make", "rows", "size", "source")

    def __init__(
        self,
        size: int,
        make: Callable[[int, int], Sequence[Score]],
        source: tuple[Callable[..., PairRows[Score]], tuple[object, ...]],
    ) -> None:
        self.size = size
        self.make: Callable[[int, int], Sequence[Score]] = make
        self.source: tuple[Callable[..., PairRows[Score]], tuple[object, ...]] = source
        self.rows: list[Sequence[Score] | None] = [None] * (size * size)
        self.bytes: list[int] = [0] * (size * size)

    def __reduce__(self) -> tuple[Callable[..., PairRows[Score]], tuple[object, ...]]:
        return self.source

    def row(self, a: int, b: int) -> Sequence[Score]:
        row = self.rows[a * self.size + b]
        if row is None:
            row = self.make(min(a, b), max(a, b))
            self.rows[a * self.size + b] = self.rows[b * self.size + a] = row
        return row

    def score(self, hand: Sequence[int]) -> Score:
        return self.row(hand[0], hand[1])[hand[2]]

    def row_bytes(self, a: int, b: int) -> int:
        """The row as one int of a byte per card (little-endian) holding twice its score
        (the scores are halves from 0 to 63.5)."""
        packed = self.bytes[a * self.size + b]
        if not packed:
            twice = bytes(map(round, map(mul, repeat(2), self.row(a, b))))
            if max(twice) >= 128:
                raise ValueError("a score above 63.5 cannot be packed")
            packed = int.from_bytes(twice, "little")
            self.bytes[a * self.size + b] = self.bytes[b * self.size + a] = packed
        return packed


def draw_mean(
    pairs: PairRows[Score], hand: Sequence[int], now: float, candidates: Sequence[int]
) -> float:
    """The mean, over drawing each of ``candidates``, of the best of ``now`` and the hands
    the card makes with two cards of ``hand``.

    Every card's best is taken at once, on the rows packed a byte per card
    (:meth:`PairRows.row_bytes`): twice a score is below 128, so setting a byte's top bit
    and subtracting leaves it set where the first is at least the second."""
    a, b, c = hand
    packed = pairs.row_bytes
    size = pairs.size
    best = _byte_max(_byte_max(packed(a, b), packed(a, c), size), packed(b, c), size)
    best = _byte_max(best, int.from_bytes(bytes([round(2 * now)]) * size, "little"), size)
    twice = best.to_bytes(size, "little")
    picked = itemgetter(*candidates)(twice) if len(candidates) > 1 else (twice[candidates[0]],)
    return sum(picked) / 2 / len(candidates)


def _byte_max(x: int, y: int, size: int) -> int:
    """The bytewise maximum of two ints of ``size`` bytes below 128 each."""
    high = _HIGH.get(size) or _HIGH.setdefault(size, int.from_bytes(b"\x80" * size, "little"))
    first = ((((x | high) - y) & high) >> 7) * 255  # 255 where x's byte >= y's
    return y ^ ((x ^ y) & first)


_HIGH: dict[int, int] = {}


def greedy_turn(
    pairs: PairRows[Score], a: int, b: int, c: int, best: Score, card: int
) -> tuple[int, int, int, Score]:
    """A greedy player's turn with ``card``: the best of ``(a, b, card)``, ``(a, c, card)``
    and ``(b, c, card)`` (the first of equals) replaces the hand ``(a, b, c)`` scoring
    ``best`` when it scores more; the hand kept and its score."""
    rows, size = pairs.rows, pairs.size
    ab = (rows[a * size + b] or pairs.row(a, b))[card]
    ac = (rows[a * size + c] or pairs.row(a, c))[card]
    bc = (rows[b * size + c] or pairs.row(b, c))[card]
    if ab <= best and ac <= best and bc <= best:
        return a, b, c, best
    if ab >= ac and ab >= bc:
        return a, b, card, ab
    if ac >= bc:
        return a, c, card, ac
    return b, c, card, bc


def greedy_scores(pairs: PairRows[Score], hand: Sequence[int], draws: Sequence[int]) -> list[Score]:
    """A greedy player's score with ``hand``, then after each card of ``draws``."""
    a, b, c = hand
    best = pairs.row(a, b)[c]
    scores = [best]
    for card in draws:
        a, b, c, best = greedy_turn(pairs, a, b, c, best, card)
        scores.append(best)
    return scores


def greedy_reach(
    pairs: PairRows[Score],
    rng: Rng,
    known: list[int],
    unseen: list[int],
    draws: int,
    samples: int,
    enough: float,
    settled: tuple[int, int] | None = None,
) -> tuple[int, int]:
    """How many of ``samples`` greedy players reach a score of ``enough``, and how many
    were played.  Each holds ``known`` and unseen cards to make three, then draws
    ``draws`` more, all drawn as ``rng.sample(unseen, hidden + draws)`` would (the same
    cards, the generator left where it would be).  A player who reaches ``enough``
    draws no further cards (their generator steps are only skipped).  With ``settled``
    ``(hits, misses)``, play stops as soon as ``hits`` have reached it, or no more than
    ``misses`` could (the caller's decision is then known); the generator moves on as if
    every sample had been played."""
    rows, size, row = pairs.rows, pairs.size, pairs.row
    hidden = 3 - len(known)
    count = hidden + draws
    if count > len(unseen) or draws < 0:
        raise IndexError(f"a sample of {count} from {len(unseen)} cards")
    enough_hits, few_hits = settled if settled is not None else (samples + 1, -1)
    s = rng.state
    reached = played = 0
    while played < samples and reached < enough_hits and reached + samples - played > few_hits:
        played += 1
        pool = unseen.copy()
        n = len(pool)
        hand = known.copy()
        for _ in range(hidden):
            s = (s * _MULT + _INC) & _MASK64
            j = ((s >> 32) * n) >> 32
            n -= 1
            pool[j], pool[n] = pool[n], pool[j]
            hand.append(pool[n])
        a, b, c = hand
        best = (rows[a * size + b] or row(a, b))[c]
        left = draws
        while left and best < enough:
            left -= 1
            s = (s * _MULT + _INC) & _MASK64
            j = ((s >> 32) * n) >> 32
            n -= 1
            pool[j], pool[n] = pool[n], pool[j]
            a, b, c, best = greedy_turn(pairs, a, b, c, best, pool[n])
        if best >= enough:
            reached += 1
        for _ in range(left):
            s = (s * _MULT + _INC) & _MASK64
    rng.state = s
    rng.advance((samples - played) * count)
    return reached, played


Sampled = tuple[list[int], int, float]
"""A sampled opponent: the cards known in their hand, their draws, the score to reach."""


def sampled_decision(
    pairs: PairRows[Score],
    rng: Rng,
    unseen: list[int],
    samples: int,
    opponents: Sequence[Sampled],
    decide: Callable[[list[int]], bool],
) -> bool:
    """``decide(reached)``, where ``reached[i]`` counts which of ``samples`` greedy
    players like opponent ``i`` reach their score (:func:`greedy_reach`, one opponent
    after another on ``rng``).  ``decide`` must never turn from false to true as a count
    grows; so each opponent's sampling stops once no count of the samples left, nor of
    the opponents still to sample, could change the decision, and the generator moves
    on as if every sample had been played: the same decision, the same generator."""
    reached = [0] * len(opponents)
    for at, (known, draws, enough) in enumerate(opponents):
        before, after = reached[:at], len(opponents) - at - 1
        no_from = _turn(decide, before, [0] * after, samples)
        yes_to = _turn(decide, before, [samples] * after, samples) - 1
        hits, _ = greedy_reach(pairs, rng, known, unseen, draws, samples, enough, (no_from, yes_to))
        if hits >= no_from or hits <= yes_to:
            for other, more, _ in opponents[at + 1 :]:
                rng.advance(samples * (3 - len(other) + more))
            return hits <= yes_to
        reached[at] = hits
    return decide(reached)


def _turn(
    decide: Callable[[list[int]], bool], before: list[int], after: list[int], samples: int
) -> int:
    """The fewest ``n`` in ``0 .. samples`` for which ``decide([*before, n, *after])`` is
    false (``samples + 1`` if none), by halving: it never turns back to true."""
    low, high = 0, samples + 1
    while low < high:
        middle = (low + high) // 2
        if decide([*before, middle, *after]):
            low = middle + 1
        else:
            high = middle
    return low
