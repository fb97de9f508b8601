"""Interval code against values computed by hand or published."""

import math

import pytest

from tripletopper.analysis.intervals import mean_interval, quantile, ratio_interval, wilson


def close(pair, expected, digits=4):
    return [round(x, digits) for x in pair] == list(expected)


def test_wilson_against_published_values():
    # Newcombe (1998), Statistics in Medicine 17, table I: 81/263 -> 0.2553-0.3662,
    # 15/148 -> 0.0624-0.1605, 0/20 -> 0-0.1611, 1/29 -> 0.0061-0.1718.
    assert close(wilson(81, 263), (0.2553, 0.3662))
    assert close(wilson(15, 148), (0.0624, 0.1605))
    assert close(wilson(0, 20), (0.0, 0.1611))
    assert close(wilson(1, 29), (0.0061, 0.1718))
    assert close(wilson(8, 10), (0.4902, 0.9433))
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)


def test_wilson_takes_shared_wins():
    # Half wins count half: 2.5 of 5 is an even share, symmetric around a half.
    low, high = wilson(2.5, 5)
    assert math.isclose(low + high, 1.0)


def test_mean_interval_by_hand():
    # 1..5: mean 3, s = sqrt(2.5), s / sqrt(5) = sqrt(0.5); 1.96 * 0.70711 = 1.38590
    mean, low, high = mean_interval([1, 2, 3, 4, 5])
    assert (mean, round(low, 4), round(high, 4)) == (3.0, 1.6141, 4.3859)
    assert mean_interval([7.0]) == (7.0, 7.0, 7.0)
    assert all(math.isnan(x) for x in mean_interval([]))


def test_ratio_interval_by_hand():
    # R = (2 + 4) / (1 + 3) = 1.5; residuals 2 - 1.5 = 0.5 and 4 - 4.5 = -0.5, variance 0.5;
    # standard error sqrt(0.5 / 2) / mean(1, 3) = 0.25; 1.96 * 0.25 = 0.48999
    ratio, low, high = ratio_interval([2, 4], [1, 3])
    assert (ratio, round(low, 4), round(high, 4)) == (1.5, 1.01, 1.99)
    # The same ratio from games twice as many (less spread) is tighter.
    _, low4, high4 = ratio_interval([2, 4, 2, 4], [1, 3, 1, 3])
    assert high4 - low4 < high - low


@pytest.mark.parametrize(
    ("values", "q", "expected"),
    [
        ([1, 2, 3, 4], 0.5, 2.5),
        ([4, 1, 3, 2], 0.0, 1),
        ([1, 2, 3, 4], 1.0, 4),
        ([10, 20], 0.9, 19.0),
        ([5], 0.9, 5),
    ],
)
def test_quantile_interpolates_like_numpy(values, q, expected):
    assert quantile(values, q) == pytest.approx(expected)
