"""Hand values and the lives model (rules/thirty-one.md), checked against a plain reading."""

from itertools import combinations

import pytest

from tripletopper.cards import STANDARD
from tripletopper.games.thirty_one import ORGANS, hand_value, organs_left
from tripletopper.games.thirty_one.scoring import is_31, organs_lost, value3, value3_trips

POINTS = {"J": 10, "Q": 10, "K": 10, "A": 11}


def naive_value(names: list[str], trips: bool = False) -> float:
    """Best total of one suit, ace 11, faces 10; three of a kind 30.5 if ``trips``."""
    ranks = [name[:-1] for name in names]
    if trips and len(set(ranks)) == 1:
        return 30.5
    by_suit: dict[str, int] = {}
    for name in names:
        rank = name[:-1]
        by_suit[name[-1]] = by_suit.get(name[-1], 0) + POINTS.get(
            rank, int(rank) if rank.isdigit() else 0
        )
    return max(by_suit.values())


def test_card_values_ace_11_faces_10_others_their_pips():
    assert hand_value("AS 2H 3D") == 11
    for face in ["10", "J", "Q", "K"]:
        assert hand_value(f"{face}S 2H 3D") == 10
    for pip in range(2, 10):
        assert hand_value(f"{pip}S JH QD") == 10
        assert hand_value(f"{pip}S AH QD") == 11
        assert hand_value(f"{pip}S {pip}H {pip}D") == pip
    assert hand_value("2S 3S 4S") == 9


def test_best_suit_counts():
    assert hand_value("AS 10H KD") == 11
    assert hand_value(["AS", "KS", "2D"]) == 21
    assert hand_value("AS KS QS") == 31
    assert hand_value("9H 8H 2S") == 17
    assert hand_value("2C 3C AD") == 11  # one ace beats a pair of small clubs
    assert hand_value(["KD", "QD", "JD"]) == 30


def test_notation_forms_and_ints():
    assert hand_value(["ace of spades", "king of spades", "ten of spades"]) == 31
    assert hand_value(["AS", "KS", "TS"]) == 31
    assert hand_value([STANDARD.parse("AS"), STANDARD.parse("KS"), STANDARD.parse("QS")]) == 31
    assert isinstance(hand_value("AS KS 2D"), int)


def test_three_of_a_kind_option():
    assert hand_value("7H 7S 7D") == 7
    assert hand_value("7H 7S 7D", three_of_a_kind="none") == 7
    assert hand_value("7H 7S 7D", three_of_a_kind="30.5") == 30.5
    assert hand_value("2H 2S 2D", three_of_a_kind=30.5) == 30.5
    assert hand_value("AS KS QS", three_of_a_kind="30.5") == 31
    assert hand_value("AS KS 2D", three_of_a_kind="30.5") == 21
    with pytest.raises(ValueError, match=r"'none' or '30\.5'"):
        hand_value("7H 7S 7D", three_of_a_kind="31")


def test_bad_hands_are_refused():
    with pytest.raises(ValueError, match="three different cards"):
        hand_value("AS KS")
    with pytest.raises(ValueError, match="three different cards"):
        hand_value("AS AS KS")
    with pytest.raises(ValueError, match="not a card"):
        hand_value("AS KS 1X")


def test_every_hand_matches_the_plain_reading():
    names = STANDARD.names
    count_31 = 0
    for a, b, c in combinations(range(52), 3):
        hand = [names[a], names[b], names[c]]
        assert value3(a, b, c) == naive_value(hand)
        assert value3_trips(a, b, c) == naive_value(hand, trips=True)
        assert is_31(a, b, c) == (naive_value(hand) == 31)
        count_31 += is_31(a, b, c)
    assert count_31 == 4 * 6  # an ace and two of the four ten-cards, in each suit


def test_organs_are_lost_liver_kidneys_heart():
    assert ORGANS == ("liver", "kidneys", "heart")
    assert [organs_left(lives) for lives in (4, 3, 2, 1, 0)] == [
        ["liver", "kidneys", "heart"],
        ["kidneys", "heart"],
        ["heart"],
        [],
        [],
    ]
    assert organs_lost(4, 2) == ["liver", "kidneys"]
    assert organs_lost(2, 0) == ["heart"]
    assert organs_lost(1, 0) == []
