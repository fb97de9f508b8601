"""What each seat knows about the face-down cards, and redealing the rest for search.

Memo Match is a game of memory, so the engine keeps, for every card, the set of
seats that know where it is (``knows[card]``, a bitmask with one bit per seat and
one for spectators).  The bit follows the card: when a card is taken, or trades
places with ``swap_on_miss`` (a public move), whoever knew it still does.  A new
layout (after a "no matches" declaration is beaten, or for the playoff) clears
the bits of the cards laid out: their places are new to everyone.

Facts a seat learned without seeing the cards are kept too: with
``reveal=private`` every seat sees which two positions another player flipped
and whether they matched, so the engine records *constraints* between those two
cards (no match, a pair, a triple).  And each card carries an *epoch*: the
cards laid out together (or known together, like the cards of a relaid table)
share one, and only cards of one epoch can stand in for each other.

:func:`relabeling` draws, for one seat, a permutation of the cards that seat
cannot place: each card is replaced by another of its epoch, every recorded
constraint still holds, and every card the seat knows stays put.  Applying it
to every slot of the state gives a world that seat cannot tell from the real
one.  The truth is always a solution, so the backtracking search always ends.
"""

from __future__ import annotations

from collections.abc import Sequence

from tripletopper.engine import Rng
from tripletopper.games.memo_match.layout import DECK_SIZE, MATCH

MISS, PAIR, TRIPLE = 0, 1, 2
"""Constraint kinds: the two cards did not match / matched on exactly two / on three variables."""


def holds(kind: int, variables: int) -> bool:
    if kind == MISS:
        return variables < MATCH
    return variables == (3 if kind == TRIPLE else MATCH)


_COMPATIBLE: dict[bytes, tuple[tuple[int, ...], ...]] = {}


def compatible(variables: bytes) -> tuple[tuple[int, ...], ...]:
    """``compatible(variables)[kind][c]``: bitmask of the cards ``d`` that ``kind`` allows
    with ``c``."""
    table = _COMPATIBLE.get(variables)
    if table is None:
        table = tuple(
            tuple(
                sum(1 << d for d in range(DECK_SIZE) if holds(kind, variables[c * DECK_SIZE + d]))
                for c in range(DECK_SIZE)
            )
            for kind in (MISS, PAIR, TRIPLE)
        )
        _COMPATIBLE[variables] = table
    return table


def relabeling(
    movable: Sequence[bool],
    epoch: Sequence[int],
    constraints: Sequence[tuple[int, int, int]],
    variables: bytes,
    rng: Rng,
    location: Sequence[int],
) -> list[int]:
    """A permutation ``perm`` of the 125 cards: ``perm[c] == c`` unless ``movable[c]``;
    a movable card maps to a movable card of the same epoch; every constraint
    ``(a, b, kind)`` holds for ``(perm[a], perm[b])``.

    Cards are visited by ``location`` (where each lies: public), never by what
    they truly are, so two states that look the same to the seat relabel to the
    same table with the same generator.

    The constrained cards are placed first by a depth-first search with forward
    checking: domains are bitmasks of labels, and each choice narrows the
    domains of the cards it is constrained with; the card with the fewest
    options goes next.  The other movable cards then take the labels left.
    """
    group_mask: dict[int, int] = {}
    groups: dict[int, list[int]] = {}
    for card in sorted(range(DECK_SIZE), key=location.__getitem__):
        if movable[card]:
            group_mask[epoch[card]] = group_mask.get(epoch[card], 0) | 1 << card
            groups.setdefault(epoch[card], []).append(card)
    table = compatible(variables)
    neighbors: dict[int, list[tuple[int, int]]] = {}
    domain: dict[int, int] = {}
    for a, b, kind in dict.fromkeys(constraints):  # the same two cards may miss again
        for x, y in ((a, b), (b, a)):
            if not movable[x]:
                continue
            if x not in domain:
                domain[x] = group_mask[epoch[x]]
            if movable[y]:
                neighbors.setdefault(x, []).append((y, kind))
            else:  # the partner stays: a fixed narrowing of this card's options
                domain[x] &= table[kind][y]
    start = {card: domain[card] for card in sorted(domain, key=location.__getitem__)}
    while True:  # a search that backtracks too long starts over in a new random order
        solved = _search(start, neighbors, table, rng, movable)
        if solved is not None:
            value, used = solved
            break
    for cards in groups.values():
        free = sorted(c for c in cards if not used >> c & 1)  # labels: a set, in card order
        rng.shuffle(free)
        free.reverse()
        for card in cards:
            if value[card] < 0:
                value[card] = free.pop()
    return value


RESTART_AFTER = 500
"""Dead ends a search may meet before it starts over (randomized restarts)."""


def _search(
    start: dict[int, int],
    neighbors: dict[int, list[tuple[int, int]]],
    table: tuple[tuple[int, ...], ...],
    rng: Rng,
    movable: Sequence[bool],
) -> tuple[list[int], int] | None:
    domain = dict(start)
    value = [c if not movable[c] else -1 for c in range(DECK_SIZE)]
    used = 0
    unassigned = list(domain)
    rng.shuffle(unassigned)
    trail: list[tuple[int, int, list[tuple[int, int]], list[int]]] = []
    # trail entries: (card, position in unassigned, saved neighbor domains, options left)
    dead_ends = 0
    while unassigned:
        at = min(range(len(unassigned)), key=lambda i: (domain[unassigned[i]] & ~used).bit_count())
        card = unassigned[at]
        options = bits(domain[card] & ~used)
        rng.shuffle(options)
        unassigned.pop(at)
        chosen = _try(card, options, neighbors, domain, value, used, table, unassigned)
        while chosen is None:  # dead end: undo the last choice and try its next option
            dead_ends += 1
            if not trail or dead_ends > RESTART_AFTER:
                return None
            unassigned.insert(at, card)
            card, at, saved, options = trail.pop()
            used &= ~(1 << value[card])
            value[card] = -1
            for other, mask in saved:
                domain[other] = mask
            chosen = _try(card, options, neighbors, domain, value, used, table, unassigned)
        saved, options = chosen
        used |= 1 << value[card]
        trail.append((card, at, saved, options))
    return value, used


def _try(
    card: int,
    options: list[int],
    neighbors: dict[int, list[tuple[int, int]]],
    domain: dict[int, int],
    value: list[int],
    used: int,
    table: tuple[tuple[int, ...], ...],
    unassigned: list[int],
) -> tuple[list[tuple[int, int]], list[int]] | None:
    """Give ``card`` the next option that leaves every unplaced card an option.

    Returns the neighbors' saved domains and the options still untried, or None.
    """
    while options:
        label = options.pop()
        taken = used | 1 << label
        saved = []
        fine = True
        for other, kind in neighbors.get(card, ()):
            if value[other] >= 0:
                continue
            narrowed = domain[other] & table[kind][label]
            saved.append((other, domain[other]))
            domain[other] = narrowed
            if not narrowed & ~taken:
                fine = False
                break
        if fine:  # the label may have been some other card's last option
            fine = all(domain[other] & ~taken for other in unassigned)
        if fine:
            value[card] = label
            return saved, options
        for other, mask in reversed(saved):
            domain[other] = mask
    return None


def bits(mask: int) -> list[int]:
    """The cards of a bitmask, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
