"""Scoring a Thirty-Two hand of three Triple Topper cards, and settling up, as pure functions.

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

Who pays whom after a knock is :func:`knock_payments`, after a declared
Thirty-two :func:`declare_payments`; :func:`contenders` says who plays on when
a hand ends the game (the players' page is ``rules/thirty-two.md``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER, WILD, WILDS

THIRTY_TWO = 32
KNOCK_BASE = 3
"""Counters paid per opponent at a knock settlement, before wild adjustments."""
DECLARE_BASE = 6
"""Counters paid per opponent to a declared Thirty-two, before wild adjustments."""
DECLARE_PER_WILD = 2
"""Counters a declared Thirty-two's payer adds per wild held beyond the declarer's."""
KNOCK_PER_WILD = 1
"""Counters a knock's loser adds per wild held beyond the winner's."""

Payment = tuple[int, int, int, int]
"""``(payer, payee, due, paid)``: ``paid`` falls short of ``due`` when the payer runs out."""


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
        + NVALUE[x]
        + NVALUE[y]
        + NVALUE[z]
    )


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


def _as_given(seats: list[int]) -> list[int]:
    return seats


def knock_payments(
    opponents: Sequence[int],
    knocker: int,
    scores: Sequence[int],
    wilds: Sequence[int],
    counters: Sequence[int],
    cut: Callable[[list[int]], list[int]] = _as_given,
) -> list[Payment]:
    """The payments after a knock, in the order they are made.

    ``opponents`` are the other seats in the hand from the knocker's left;
    ``scores``, ``wilds`` (the wilds that count in payments) and ``counters``
    are indexed by seat.  A knocker who beats everyone collects
    ``3 + max(0, their wilds - his)`` from each opponent; otherwise he pays
    ``3 + max(0, his wilds - theirs)`` to each who tied or beat him.  Nobody
    pays more than they have: a knocker short of counters pays the highest
    scores first, each in full before the next, and ``cut(seats)`` puts a group
    of tied payees in order (it is called only when that order matters).

    The original rules' example, the knocker (31 points, 1 wild) beating a black
    and a blob (2 wilds) and a hand without wilds:

    >>> knock_payments([1, 2], 0, scores=[31, 14, 4], wilds=[1, 2, 0], counters=[8, 8, 8])
    [(1, 0, 4, 4), (2, 0, 3, 3)]

    A knocker with 2 wilds and 4 counters beaten by a 31 with 2 wilds and a 29
    without: the 31 is paid 3 in full, the 29 gets the last counter of its 5:

    >>> knock_payments([1, 2], 0, scores=[14, 31, 29], wilds=[2, 2, 0], counters=[4, 4, 4])
    [(0, 1, 3, 3), (0, 2, 5, 1)]

    Two payees tied at 20 and 4 counters for their 3 each: the cut decides.

    >>> knock_payments([1, 2], 0, [6, 20, 20], [0, 0, 0], [4, 9, 9], cut=lambda s: s[::-1])
    [(0, 2, 3, 3), (0, 1, 3, 1)]
    """
    top = scores[knocker]
    beaters = [o for o in opponents if scores[o] >= top]
    if not beaters:
        mine = wilds[knocker]
        payments = []
        for o in opponents:
            due = KNOCK_BASE + KNOCK_PER_WILD * max(0, wilds[o] - mine)
            payments.append((o, knocker, due, min(due, counters[o])))
        return payments
    dues = {o: KNOCK_BASE + KNOCK_PER_WILD * max(0, wilds[knocker] - wilds[o]) for o in beaters}
    left = counters[knocker]
    order = sorted(beaters, key=lambda o: -scores[o])  # stable: from the knocker's left
    if sum(dues.values()) > left:
        order = []
        rest = left
        for value in sorted({scores[o] for o in beaters}, reverse=True):
            group = [o for o in beaters if scores[o] == value]
            total = sum(dues[o] for o in group)
            if len(group) > 1 and 0 < rest < total:
                group = cut(group)
            order.extend(group)
            rest -= min(rest, total)
    payments = []
    for o in order:
        paid = min(dues[o], left)
        left -= paid
        payments.append((knocker, o, dues[o], paid))
    return payments


def declare_payments(
    opponents: Sequence[int], declarer: int, wilds: Sequence[int], counters: Sequence[int]
) -> list[Payment]:
    """The payments to a declared Thirty-two: ``6 + 2 * max(0, their wilds - the
    declarer's)`` from every opponent, or all they have.

    >>> declare_payments([1, 2], 0, wilds=[1, 3, 0], counters=[5, 8, 4])
    [(1, 0, 10, 8), (2, 0, 6, 4)]
    """
    mine = wilds[declarer]
    payments = []
    for o in opponents:
        due = DECLARE_BASE + DECLARE_PER_WILD * max(0, wilds[o] - mine)
        payments.append((o, declarer, due, min(due, counters[o])))
    return payments


def contenders(counters: Sequence[int], owed: Sequence[int]) -> tuple[list[int], list[int]]:
    """Who is still in the race when a hand ends the game: the leaders, and the
    players who trail them by no more than they were left owed in that hand.

    The game ends when there is one leader and nobody else; otherwise these
    players play on.  A 31 was paid 3 in full and a 29 got 1 of its 5 (see
    :func:`knock_payments`): the 29 trails by 2 but is owed 4, so both play on.

    >>> contenders([0, 7, 5], [0, 0, 4])
    ([1], [2])
    >>> contenders([0, 11, 7], [0, 0, 3])   # owed 3, 4 behind: the game is over
    ([1], [])
    """
    top = max(counters)
    leaders = [s for s, c in enumerate(counters) if c == top]
    chasers = [s for s, c in enumerate(counters) if 0 < c < top and c + owed[s] >= top]
    return leaders, chasers
