"""95% intervals: Wilson for proportions, normal for means, the delta method for ratios.

>>> low, high = wilson(8, 10)
>>> round(low, 4), round(high, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson(successes: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(max(0.0, p * (1 - p)) / trials + z * z / (4 * trials * trials))
    half /= denominator
    low = 0.0 if p <= 0 else max(0.0, centre - half)
    high = 1.0 if p >= 1 else min(1.0, centre + half)
    return (low, high)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean and its normal-approximation interval ``mean +- z * s / sqrt(n)``.

    With fewer than two values the interval is the mean itself (nothing to estimate
    a spread from)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, mean, mean)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


def ratio_interval(
    numerators: Sequence[float], denominators: Sequence[float], z: float = Z95
) -> tuple[float, float, float]:
    """``sum(numerators) / sum(denominators)`` and its delta-method interval.

    Each pair is one game (a cluster of hands or turns): the variance comes from
    the games, ``var(num - R * den) / (n * mean(den)^2)``, so hands of one game
    are not taken as independent."""
    n = len(numerators)
    total = math.fsum(denominators)
    if n == 0 or total == 0:
        return (math.nan, math.nan, math.nan)
    ratio = math.fsum(numerators) / total
    if n < 2:
        return (ratio, ratio, ratio)
    mean_den = total / n
    residuals = [a - ratio * b for a, b in zip(numerators, denominators, strict=True)]
    variance = math.fsum(r * r for r in residuals) / (n - 1)
    half = z * math.sqrt(variance / n) / mean_den
    return (ratio, ratio - half, ratio + half)


def quantile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile by linear interpolation between order statistics (numpy's default).

    >>> quantile([1, 2, 3, 4], 0.5), quantile([1, 2, 3, 4], 0.9)
    (2.5, 3.7)
    """
    ordered = sorted(values)
    if not ordered:
        return math.nan
    at = (len(ordered) - 1) * q
    low = math.floor(at)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (at - low)


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval and how many observations it rests on."""

    value: float
    low: float
    high: float
    n: float

    def to_json(self) -> dict[str, float | None]:
        def clean(x: float) -> float | None:
            return None if math.isnan(x) else round(x, 6)

        return {
            "value": clean(self.value),
            "low": clean(self.low),
            "high": clean(self.high),
            "n": self.n,
        }
