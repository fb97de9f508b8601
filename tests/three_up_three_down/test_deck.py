"""The 84-card 3UP 3DOWN deck: counts, colors in rotation, notation.

(rules/three-up-three-down.md describes it.)
"""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripletopper.cards import THREE_UP
from tripletopper.cards.three_up import (
    BONUS,
    CLEAR_KIND,
    COLOR,
    RANK,
    VALUE,
    deck_cards,
    parse_colors,
    rank_of,
)
from tripletopper.errors import CardError


def test_84_cards_70_numbered_7_clear_6_clear_plus_1_1_clear_plus_2():
    assert THREE_UP.size == 84 and len(set(THREE_UP.names)) == 84
    ranks = Counter(RANK)
    assert all(ranks[v] == 7 for v in range(1, 11))
    assert (ranks[11], ranks[12], ranks[13]) == (7, 6, 1)
    assert Counter(CLEAR_KIND) == {0: 70, 1: 7, 2: 6, 3: 1}
    assert [BONUS[c] for c in (0, 70, 77, 83)] == [0, 0, 1, 2]
    assert sorted({VALUE[c] for c in range(84)}) == list(range(11))


def test_colors_in_rotation_and_the_green_clear_plus_2():
    for rank in range(1, 12):
        colors = Counter(COLOR[c] for c in range(84) if RANK[c] == rank)
        assert colors == {0: 3, 1: 2, 2: 2}  # red, green, blue
    assert Counter(COLOR[c] for c in range(84) if RANK[c] == 12) == {0: 2, 1: 2, 2: 2}
    assert THREE_UP.format(83) == "C+2G1" and COLOR[83] == 1
    assert [THREE_UP.format(c) for c in range(7)] == [
        "1R1",
        "1G1",
        "1B1",
        "1R2",
        "1G2",
        "1B2",
        "1R3",
    ]


@pytest.mark.parametrize(
    ("colors", "size"),
    [("RGB", 84), ("RG", 60), ("RB", 59), ("GB", 49), ("R", 35), ("G", 25), ("B", 24)],
)
def test_shortened_decks(colors, size):
    assert len(deck_cards(colors)) == size


@pytest.mark.parametrize(
    ("text", "short"),
    [
        ("7r1", "7R1"),
        ("10G2", "10G2"),
        ("c+1b2", "C+1B2"),
        ("red 7 1", "7R1"),
        ("7 red 1", "7R1"),
        ("green clear+2 1", "C+2G1"),
        ("blue-clear-2", "CB2"),
        ("Red Clear+1 2", "C+1R2"),
    ],
)
def test_card_names(text, short):
    assert THREE_UP.format(THREE_UP.parse(text)) == short


@given(st.integers(0, 83))
def test_notation_round_trips(card):
    assert THREE_UP.parse(THREE_UP.format(card)) == card
    assert THREE_UP.parse(THREE_UP.format(card).lower()) == card


@pytest.mark.parametrize("bad", ["", "11R1", "7Y1", "7R4", "C+3G1", "C+2R1", "seven"])
def test_bad_card_names(bad):
    with pytest.raises(CardError, match="not a card of the 3UP 3DOWN deck"):
        THREE_UP.parse(bad)


def test_values_and_colors_by_name():
    assert [rank_of(t) for t in ("1", "10", "c", "C+1", "clear+2", "Clear")] == [
        1,
        10,
        11,
        12,
        13,
        11,
    ]
    for bad in ("0", "11", "C+3", "ace", True):
        with pytest.raises(CardError, match="not a 3UP 3DOWN value"):
            rank_of(bad)  # type: ignore[arg-type]
    assert parse_colors("blue, red") == ("R", "B") and parse_colors(["green"]) == ("G",)
    for bad in ("purple", "RX", ""):
        with pytest.raises(CardError):
            parse_colors(bad)
