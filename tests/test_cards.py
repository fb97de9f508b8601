"""Deck notation, attributes and ranks (docs/engine.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripletopper.cards import STANDARD, TRIPLE_TOPPER, long_name, wild_count
from tripletopper.cards.standard import RANK, SUIT
from tripletopper.cards.three_up import THREE_UP
from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, WILDS
from tripletopper.errors import CardError


def test_triple_topper_has_125_unique_cards():
    assert TRIPLE_TOPPER.size == 125
    assert len(set(TRIPLE_TOPPER.names)) == 125
    assert {(COLOR[c], SHAPE[c], NUMBER[c]) for c in range(125)} == {
        (a, b, n) for a in range(5) for b in range(5) for n in range(5)
    }


@pytest.mark.parametrize(
    ("text", "short"),
    [
        ("RC1", "RC1"),
        ("rc1", "RC1"),
        ("gs1", "GS1"),
        ("BB4", "BB4"),
        ("kb?", "KB?"),
        ("red circle 1", "RC1"),
        ("Red Circle 1", "RC1"),
        ("black-blob-?", "KB?"),
        ("green_square_1", "GS1"),
        ("blue blob 4", "BB4"),
        ("yellow heart question", "YH?"),
        ("  green   triangle  3 ", "GT3"),
    ],
)
def test_parse_short_and_long_forms_case_insensitive(text, short):
    assert TRIPLE_TOPPER.format(TRIPLE_TOPPER.parse(text)) == short


@given(st.integers(0, 124))
def test_notation_round_trips(card):
    assert TRIPLE_TOPPER.parse(TRIPLE_TOPPER.format(card)) == card
    assert TRIPLE_TOPPER.parse(long_name(card)) == card
    assert TRIPLE_TOPPER.parse(long_name(card).replace(" ", "-").upper()) == card


@pytest.mark.parametrize(
    "bad", ["", "RC5", "XC1", "RX1", "red circle", "RC1 YH2", "purple", "RC?1"]
)
def test_bad_names_are_refused_clearly(bad):
    with pytest.raises(CardError, match="not a card of the Triple Topper deck"):
        TRIPLE_TOPPER.parse(bad)


@pytest.mark.parametrize("deck", [STANDARD, TRIPLE_TOPPER, THREE_UP], ids=lambda d: d.name)
def test_short_names_read_as_written_read_as_when_normalized(deck):
    """A short name exactly as views write it is read without normalizing (a fast path):
    it must be the card that the plain path (spaces around it, lower case) reads."""
    for card, short in enumerate(deck.names):
        assert deck.parse(short) == deck.parse(f" {short.lower()} ") == card


def test_parse_passes_ints_through_and_refuses_other_types():
    assert TRIPLE_TOPPER.parse(5) == 5
    with pytest.raises(CardError):
        TRIPLE_TOPPER.parse(125)
    with pytest.raises(CardError):
        TRIPLE_TOPPER.parse(True)
    with pytest.raises(CardError):
        TRIPLE_TOPPER.parse(1.5)  # type: ignore[arg-type]


def test_wild_counts():
    assert WILDS[TRIPLE_TOPPER.parse("KB?")] == 3
    assert WILDS[TRIPLE_TOPPER.parse("KC1")] == 1
    assert WILDS[TRIPLE_TOPPER.parse("RB1")] == 1
    assert WILDS[TRIPLE_TOPPER.parse("RC?")] == 1
    assert WILDS[TRIPLE_TOPPER.parse("RC1")] == 0
    assert wild_count(TRIPLE_TOPPER.parse_many("KC1 KB1 RC?")) == 4
    assert sum(WILDS) == 3 * 25  # each variable is wild on a fifth of the deck


def test_total_rank_is_number_then_shape_then_color():
    rank = TRIPLE_TOPPER.parse
    assert max(range(125)) == rank("KB?") and min(range(125)) == rank("RC1")
    assert rank("RC2") > rank("KB1")  # number first
    assert rank("RH1") > rank("KC1")  # then shape
    assert rank("YC1") > rank("RC1")  # then color
    assert sorted(TRIPLE_TOPPER.parse_many("KB1 RC2 YC1")) == TRIPLE_TOPPER.parse_many(
        "YC1 KB1 RC2"
    )


def test_standard_deck():
    assert STANDARD.size == 52 and len(set(STANDARD.names)) == 52
    names = [
        ("AS", "AS"),
        ("10h", "10H"),
        ("TH", "10H"),
        ("kd", "KD"),
        ("ten of hearts", "10H"),
        ("Queen of Spades", "QS"),
        ("2 clubs", "2C"),
    ]
    for text, short in names:
        assert STANDARD.format(STANDARD.parse(text)) == short
    assert RANK[STANDARD.parse("AS")] == 12 and SUIT[STANDARD.parse("AS")] == 3
    with pytest.raises(CardError, match="standard 52-card"):
        STANDARD.parse("1S")


@pytest.mark.parametrize("deck", [STANDARD, TRIPLE_TOPPER, THREE_UP], ids=lambda d: d.name)
def test_a_deck_pickles_as_its_module_constant(deck):
    import copy
    import pickle

    data = pickle.dumps(deck.parse)  # what a bot's discard memory holds
    assert len(data) < 200  # the name, not the lookup tables (8 kB)
    assert pickle.loads(data).__self__ is deck
    assert copy.deepcopy(deck) is deck
