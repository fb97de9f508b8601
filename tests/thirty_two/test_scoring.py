"""Hand scores against an independent brute-force reading of rules/thirty-two.md."""

from collections import Counter
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER, WILD
from tripletopper.games.thirty_two import hand_score, wild_count


def best_match_points(values: list[int], wild_allowed: bool) -> int:
    """Try every value a wild could stand for; 10 for three alike, 5 for a pair."""
    options = [range(4) if (wild_allowed and v == WILD) else [v] for v in values]
    best = 0
    for choice in product(*options):
        top = max(Counter(choice).values())
        best = max(best, {3: 10, 2: 5}.get(top, 0))
    return best


def brute_score(cards: list[int], wilds: bool = True, cap: bool = True) -> int:
    colors = [COLOR[c] for c in cards]
    shapes = [SHAPE[c] for c in cards]
    numbers = [NUMBER[c] for c in cards]
    if wilds:
        raw = (
            best_match_points(colors, True)
            + best_match_points(shapes, True)
            + sum(n + 1 for n in numbers)
        )
    else:
        variables = [colors, shapes, numbers]
        raw = max(
            sum(v + 1 for v in variables[i])
            + sum(best_match_points(variables[j], False) for j in range(3) if j != i)
            for i in range(3)
        )
    return min(raw, 32) if cap else raw


hands = st.lists(st.integers(0, 124), min_size=3, max_size=3, unique=True)


@given(hands, st.booleans(), st.booleans())
def test_score_matches_brute_force(cards, wilds, cap):
    assert hand_score(cards, wilds=wilds, cap_at_32=cap) == brute_score(cards, wilds, cap)


def test_every_color_and_shape_pattern():
    # Scoring splits by variable, so all 125 x 125 color/shape patterns with the
    # numbers fixed cover every match case.
    for c1, c2, c3, s1, s2, s3 in product(range(5), repeat=6):
        cards = [c1 + 5 * s1, c2 + 5 * s2 + 25, c3 + 5 * s3 + 50]  # numbers 1, 2, 3: distinct cards
        for wilds in (True, False):
            assert hand_score(cards, wilds=wilds) == brute_score(cards, wilds)


@pytest.mark.parametrize(
    ("hand", "score"),
    [
        ("KC1 KB1 RC?", 27),  # black+black+red: 10; circle+blob+circle: 10; 1+1+5
        ("RC1 YC2 GH3", 11),  # no color match; a circle pair: 5; 1+2+3
        ("RC1 YH2 GT3", 6),  # nothing matches
        ("RC1 RH2 YT3", 11),  # a natural color pair
        ("RC1 YH2 KT3", 11),  # black pairs with one of two colors: 5, not 10
        ("RC1 KH2 KT3", 16),  # one distinct non-black color: 10
        ("KB? KB4 KB3", 32),  # raw 10 + 10 + 12 = 32
        ("RC4 RH4 RT4", 22),  # three reds, shapes all differ
        ("GS1 GS2 GS3", 26),
        ("BS4 BB4 KB?", 32),  # raw 33, capped
    ],
)
def test_examples(hand, score):
    assert hand_score(hand) == score


def test_cap_and_raw_maximum():
    assert hand_score("RB? RC? KC?", cap_at_32=False) == 35  # the raw maximum: 10 + 10 + 15
    assert hand_score("RB? RC? KC?") == 32
    assert hand_score("KB? RB? YB?", cap_at_32=False) == 30  # black pairs with only one color
    assert hand_score("BS4 BB4 KB?", cap_at_32=False) == 33


def test_no_wilds_best_reading():
    # Summing colors (3+4+5) with two full matches is the top hand.
    assert hand_score("GT2 BT2 KT2", wilds=False) == 32
    # Black, blob and ? are plain values: KB? with RB? and YB? is a blob triple
    # and a ? triple (20) plus colors 5+1+2.
    assert hand_score("KB? RB? YB?", wilds=False) == 28
    # Here numbers should be summed: colors and shapes both triple.
    assert hand_score("RC1 RC2 RC4", wilds=False) == 27
    # Without wilds a black pairs with nothing: the best reading sums colors, 5+1+2.
    assert hand_score("KC1 RH2 YT3", wilds=False) == 8
    assert hand_score("KC1 RH2 YT3", wilds=True) == 11  # with wilds the black pairs: 5 + 6


def test_wild_count():
    assert wild_count("RC1") == 0
    assert wild_count("KC1") == 1
    assert wild_count("KB?") == 3
    assert wild_count("KC1 KB1 RC?") == 4
    assert wild_count([TRIPLE_TOPPER.parse("KB1")]) == 2


def test_helpers_accept_cards_or_notation_and_refuse_bad_hands():
    cards = TRIPLE_TOPPER.parse_many("KC1 KB1 RC?")
    assert hand_score(cards) == hand_score(["kc1", "black-blob-1", "red circle ?"])
    with pytest.raises(ValueError, match="three different cards"):
        hand_score("RC1 YC2")
    with pytest.raises(ValueError, match="three different cards"):
        hand_score("RC1 RC1 YC2")
    with pytest.raises(ValueError, match="not a card"):
        hand_score("RC1 YC2 XX9")
