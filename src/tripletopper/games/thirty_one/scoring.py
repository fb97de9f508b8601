"""Hand values and the loss rules of Thirty-One (rules/thirty-one.md), as pure functions.

A hand of three standard cards is worth the best total of its cards of one
suit: ace 11, king, queen, jack and ten 10, the others their pips.  With the
``three_of_a_kind`` option at ``30.5`` three cards of one rank are worth 30.5
(they are of three suits, so their best suit is a single card: 30.5 always
beats it).  31 is the top: an ace with two ten-cards of its suit.

>>> hand_value("AS 10S KS"), hand_value(["AS", "10H", "KD"]), hand_value("2C 3C 9H")
(31, 11, 9)
>>> hand_value("7H 7S 7D"), hand_value("7H 7S 7D", three_of_a_kind="30.5")
(7, 30.5)

The loss rules of a showdown are :func:`showdown_losses`; the lives model
(organs liver, kidneys, heart, then circling the drain) is :func:`organs_left`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tripletopper.cards.deck import Card
from tripletopper.cards.standard import RANK, STANDARD

THIRTY_ONE = 31
TRIPS = 30.5
"""The value of three of a kind with ``three_of_a_kind=30.5``."""
DEAD_31 = 30
"""What an undeclared 31 counts in a showdown."""

THREE_OF_A_KIND_CHOICES = ("none", "30.5")

CARD_VALUE: tuple[int, ...] = tuple(min(10, r + 2) if r < 12 else 11 for r in RANK)
"""Points of each card: 2-9 their pips, ten to king 10, ace 11."""

ORGANS = ("liver", "kidneys", "heart")
"""The organs in the order they are lost."""
START_LIVES = len(ORGANS) + 1
"""Three organs, then one more loss while circling the drain puts a player out."""


def value3(a: Card, b: Card, c: Card) -> int:
    """The best-suit value of three cards (no three-of-a-kind rule)."""
    va = CARD_VALUE[a]
    vb = CARD_VALUE[b]
    vc = CARD_VALUE[c]
    sa = a & 3
    if sa == b & 3:
        if sa == c & 3:
            return va + vb + vc
        s = va + vb
        return s if s > vc else vc
    sc = c & 3
    if sa == sc:
        s = va + vc
        return s if s > vb else vb
    if b & 3 == sc:
        s = vb + vc
        return s if s > va else va
    m = va if va > vb else vb
    return m if m > vc else vc


def value3_trips(a: Card, b: Card, c: Card) -> float:
    """The value of three cards when three of a kind counts 30.5."""
    if a >> 2 == b >> 2 == c >> 2:
        return TRIPS
    return value3(a, b, c)


def is_31(a: Card, b: Card, c: Card) -> bool:
    """Whether three cards make 31 (cheap: most hands fail the first test)."""
    return CARD_VALUE[a] + CARD_VALUE[b] + CARD_VALUE[c] == THIRTY_ONE and a & 3 == b & 3 == c & 3


def trips_option(three_of_a_kind: object) -> bool:
    """Read the ``three_of_a_kind`` option (``None``/``"none"`` off, ``"30.5"``/``30.5`` on)."""
    if three_of_a_kind is None or three_of_a_kind in ("none", False):
        return False
    if three_of_a_kind in ("30.5", TRIPS, True):
        return True
    raise ValueError(f"three_of_a_kind must be 'none' or '30.5' (got {three_of_a_kind!r})")


def hand_value(cards: str | Iterable[str | Card], three_of_a_kind: object = None) -> int | float:
    """The value of a three-card hand given as cards or notation (``"AS 10H KD"``).

    An int, or 30.5 for three of a kind when ``three_of_a_kind`` is ``"30.5"``.
    """
    hand = STANDARD.parse_many(cards)
    if len(hand) != 3 or len(set(hand)) != 3:
        raise ValueError(f"a Thirty-One hand is three different cards (got {len(hand)})")
    if trips_option(three_of_a_kind):
        return value3_trips(hand[0], hand[1], hand[2])
    return value3(hand[0], hand[1], hand[2])


def organs_left(lives: int) -> list[str]:
    """The organs a player with ``lives`` lives still has (liver goes first)."""
    return list(ORGANS[START_LIVES - lives :]) if lives > 0 else []


def organs_lost(before: int, after: int) -> list[str]:
    """The organs that go into the kitty when lives drop from ``before`` to ``after``."""
    return [organ for organ in organs_left(before) if organ not in organs_left(after)]


LOWEST = "lowest"
TIED_LOWEST = "tied_lowest"
TIED_WITH_KNOCKER = "tied_with_knocker"
KNOCKER_LOWEST = "knocker_lowest"
DECLARED_31 = "31"
DEALT_31 = "dealt_31"
REASONS = (LOWEST, TIED_LOWEST, TIED_WITH_KNOCKER, KNOCKER_LOWEST, DECLARED_31, DEALT_31)
"""Why a player loses lives in a hand (the settlement's ``reason`` codes)."""


def showdown_losses(
    order: Sequence[int], values: Sequence[float], knocker: int, low: float | None = None
) -> tuple[list[tuple[int, int, str]], list[int]]:
    """Who loses how many lives when hands are compared, and which knocker is saved.

    ``order`` lists the seats in the hand, ``values`` their showdown values (by
    seat), ``knocker`` the knocker's seat or -1.  Returns ``(seat, lives, reason)``
    in ``order`` and the seats saved by the knocker's privilege (the knocker, when
    tied for lowest).

    >>> showdown_losses([0, 1, 2], [20, 12, 12], knocker=-1)
    ([(1, 1, 'tied_lowest'), (2, 1, 'tied_lowest')], [])
    >>> showdown_losses([0, 1, 2], [12, 20, 12], knocker=0)
    ([(2, 1, 'tied_with_knocker')], [0])
    >>> showdown_losses([0, 1, 2], [11, 20, 12], knocker=0)
    ([(0, 2, 'knocker_lowest')], [])
    """
    if low is None:
        low = min(values[s] for s in order)
    lowest = [s for s in order if values[s] == low]
    if knocker in lowest:
        if len(lowest) == 1:
            return [(knocker, 2, KNOCKER_LOWEST)], []
        return [(s, 1, TIED_WITH_KNOCKER) for s in lowest if s != knocker], [knocker]
    reason = LOWEST if len(lowest) == 1 else TIED_LOWEST
    return [(s, 1, reason) for s in lowest], []


def thirty_one_losses(
    order: Sequence[int], declarers: Sequence[int], reason: str
) -> list[tuple[int, int, str]]:
    """Everyone but the declarers loses one life (the knocker too, and only one)."""
    return [(s, 1, reason) for s in order if s not in declarers]


def format_value(value: float) -> str:
    """``31``, ``30.5``: values as people write them."""
    return f"{value:g}"
