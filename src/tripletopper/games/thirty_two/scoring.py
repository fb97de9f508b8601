"""Scoring a Thirty-Two hand of three Triple Topper cards.

With wilds (the standard game) a hand scores color points + shape points + the
sum of its numbers (``?`` counts 5):

- color points are 10 when all three colors can be made equal (at most one
  distinct non-black color), 5 when exactly two distinct non-black colors show,
  else 0; shape points likewise, blob being the wild shape;
- the score is capped at 32 unless ``cap_at_32`` is off.

Without wilds (the ``no_wilds`` variation) black, blob and ``?`` are plain values
worth 5 and the best reading counts: one variable is summed (values 1-5) and the
other two earn 5 for a pair or 10 for three alike.

A hand scoring 32 or more *is a Thirty-two*.

>>> hand_score("KC1 KB1 RC?")   # colors black/red (10), shapes circle/blob (10), 1+1+5
27
>>> hand_score("RC1 YC2 GH3")   # colors all differ (0), two circles (5), 1+2+3
11
>>> hand_score(["BS4", "BB4", "KB?"]), hand_score(["BS4", "BB4", "KB?"], cap_at_32=False)
(32, 33)
>>> hand_score("GT3 BS4 KB?", wilds=False)   # colors/shapes run 3-4-5, numbers don't match
12
>>> wild_count("KC1 KB1 RC?")   # black; black and blob; ?
4
"""

from __future__ import annotations

from collections.abc import Iterable

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER, WILD, WILDS

THIRTY_TWO = 32


def _wild_points(a: int, b: int, c: int) -> int:
    distinct = len({a, b, c} - {WILD})
    return 10 if distinct <= 1 else 5 if distinct == 2 else 0


def _plain_points(a: int, b: int, c: int) -> int:
    return (0, 10, 5, 0)[len({a, b, c})]


_KEYS = [(a, b, c) for a in range(5) for b in range(5) for c in range(5)]
WILD_POINTS: tuple[int, ...] = tuple(_wild_points(*k) for k in _KEYS)
"""Match points of three values with index 4 wild, indexed ``a*25 + b*5 + c``."""
PLAIN_POINTS: tuple[int, ...] = tuple(_plain_points(*k) for k in _KEYS)
"""Match points of three values with no wilds, indexed the same way."""

# Per-card table entries, so a score is a handful of list lookups.
C25 = tuple(COLOR[c] * 25 for c in range(125))
C5 = tuple(COLOR[c] * 5 for c in range(125))
S25 = tuple(SHAPE[c] * 25 for c in range(125))
S5 = tuple(SHAPE[c] * 5 for c in range(125))
N25 = tuple(NUMBER[c] * 25 for c in range(125))
N5 = tuple(NUMBER[c] * 5 for c in range(125))
NVALUE = tuple(NUMBER[c] + 1 for c in range(125))
"""A card's number as points: 1-4, and 5 for ``?``."""
CVALUE = tuple(COLOR[c] + 1 for c in range(125))
SVALUE = tuple(SHAPE[c] + 1 for c in range(125))


def raw_wild(x: Card, y: Card, z: Card) -> int:
    """Uncapped score of three cards in the standard (wild) game."""
    return (
        WILD_POINTS[C25[x] + C5[y] + COLOR[z]]
        + WILD_POINTS[S25[x] + S5[y] + SHAPE[z]]
        + NVALUE[x] + NVALUE[y] + NVALUE[z]
    )  # fmt: skip


def raw_plain(x: Card, y: Card, z: Card) -> int:
    """Score of three cards in the no-wilds variation: the best variable to sum."""
    colors = PLAIN_POINTS[C25[x] + C5[y] + COLOR[z]]
    shapes = PLAIN_POINTS[S25[x] + S5[y] + SHAPE[z]]
    numbers = PLAIN_POINTS[N25[x] + N5[y] + NUMBER[z]]
    return max(
        CVALUE[x] + CVALUE[y] + CVALUE[z] + shapes + numbers,
        SVALUE[x] + SVALUE[y] + SVALUE[z] + colors + numbers,
        NVALUE[x] + NVALUE[y] + NVALUE[z] + colors + shapes,
    )


def score3(x: Card, y: Card, z: Card, wilds: bool = True, cap_at_32: bool = True) -> int:
    raw = raw_wild(x, y, z) if wilds else raw_plain(x, y, z)
    return THIRTY_TWO if cap_at_32 and raw > THIRTY_TWO else raw


def _cards(cards: str | Iterable[str | Card]) -> list[Card]:
    return TRIPLE_TOPPER.parse_many(cards)


def hand_score(
    cards: str | Iterable[str | Card], *, wilds: bool = True, cap_at_32: bool = True
) -> int:
    """The score of a three-card hand, given as cards or notation (``"KC1 KB1 RC?"``)."""
    hand = _cards(cards)
    if len(hand) != 3 or len(set(hand)) != 3:
        raise ValueError(f"a Thirty-Two hand is three different cards (got {len(hand)})")
    return score3(hand[0], hand[1], hand[2], wilds, cap_at_32)


def wild_count(cards: str | Iterable[str | Card]) -> int:
    """How many wild variables (black, blob, ``?``) the cards hold together."""
    return sum(WILDS[c] for c in _cards(cards))
