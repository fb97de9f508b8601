"""A statistical check that resampling carries no information about the true hidden cards.

For many random positions, compare the true card in every slot a seat cannot see
with the card a resample put there.  If resampling knew nothing of the truth,
each slot matches with probability 1 / (number of cards that slot could hold),
so the number of matches is a sum of independent Bernoulli trials with known
mean and variance.  Too many matches would mean the truth leaks into samples;
too few would mean samples avoid the truth (which leaks it just as well).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

from tripletopper.engine import Rng, State

Slots = Callable[[State, int], list[tuple[int, int]]]
"""``slots(state, seat)``: ``(card in the slot, how many cards the slot could hold)``
for every slot whose card ``seat`` cannot see, in a fixed order."""


def agreement(
    positions: Iterator[tuple[State, int]], slots: Slots, resamples: int = 4, seed: int = 7
) -> tuple[float, float, float]:
    """Observed matches, expected matches under no information, and the standard deviation."""
    rng = Rng(seed)
    observed = expected = variance = 0.0
    for state, seat in positions:
        truth = slots(state, seat)
        for _ in range(resamples):
            sample = slots(state.resample(seat, rng), seat)
            assert len(sample) == len(truth)
            for (true_card, pool), (card, _) in zip(truth, sample, strict=True):
                p = 1.0 / pool
                observed += card == true_card
                expected += p
                variance += p * (1 - p)
    return observed, expected, math.sqrt(variance)


def assert_no_information(observed: float, expected: float, sd: float, z: float = 4.0) -> None:
    assert expected > 30, "too few hidden slots to judge"
    assert abs(observed - expected) <= z * sd, (
        f"resampled hidden cards matched the truth {observed:.0f} times; "
        f"chance alone gives {expected:.1f} +- {sd:.1f}"
    )


def assert_resample_sees_only_the_view(state: State, seat: int, seed: int) -> None:
    """Two states that look the same to ``seat`` resample to the very same state.

    ``state`` and any resample of it share the seat's view; with the same
    generator they must give identical samples, so a bot's decisions depend on
    its view and seed alone.
    """
    other = state.resample(seat, Rng(seed ^ 0xBEEF))
    assert other.observation(seat) == state.observation(seat)
    assert other.recall(seat) == state.recall(seat)  # a memory game's bots-only recall too
    a = state.resample(seat, Rng(seed)).dump()
    b = other.resample(seat, Rng(seed)).dump()
    a.pop("history", None)
    b.pop("history", None)
    assert a == b
