"""Odds a player can use at the table, exact where the unseen cards can be enumerated.

- Thirty-One and Thirty-Two: :func:`draw_odds`, the exact distribution of a hand's
  value after drawing one unseen card and keeping the best three (every unseen card
  enumerated), and the value of taking the face-up card instead; :func:`knock_odds`,
  the chance that a knock with a given value holds up, by the number of players,
  estimated by sampling the opponents' hands (each holds three unseen cards, draws
  once and keeps the best three);
- Memo Match: :func:`flip_odds`, the chance that flipping an unknown card matches
  the card face up;
- Toe: :func:`open_lines`, the lines each side can still complete.

Unseen cards are the deck less the hand and the cards named as known (seen in the
discard pile, in someone's hand, or gone).  Pure functions of their arguments:
the card room's hints and ``tripletopper odds`` use the same ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations

from tripletopper.cards.deck import Card
from tripletopper.engine import Game, Rng
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.memo_match.layout import DECK_SIZE, MATCH
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_one.scoring import THIRTY_ONE
from tripletopper.games.thirty_two import ThirtyTwo
from tripletopper.games.thirty_two.scoring import THIRTY_TWO
from tripletopper.games.toe import LINES

Value = Callable[[Sequence[Card]], float]


def hand_value(game: Game) -> Value:
    """The value of three cards under ``game``'s options (Thirty-One or Thirty-Two)."""
    if isinstance(game, ThirtyOne):
        return game.value
    if isinstance(game, ThirtyTwo):
        return game.score
    raise ValueError(f"{game.title} has no hand values: odds of hands are for Thirty-One and "
                     "Thirty-Two")  # fmt: skip


def best_of_four(value: Value, cards: Sequence[Card]) -> float:
    """The best value of three of four cards (the one discarded is the worst to keep)."""
    return max(value(three) for three in combinations(cards, 3))


def unseen_cards(game: Game, hand: Sequence[Card], known: Sequence[Card] = ()) -> list[Card]:
    gone = set(hand) | set(known)
    return [card for card in range(len(game.deck.names)) if card not in gone]


@dataclass(frozen=True)
class DrawOdds:
    """A hand now, after a draw (value -> probability), and after taking the face-up card."""

    now: float
    after_draw: dict[float, float]
    unseen: int
    take: float | None = None

    @property
    def mean(self) -> float:
        return sum(value * p for value, p in self.after_draw.items())

    @property
    def improves(self) -> float:
        """The chance that the draw makes the hand better."""
        return sum(p for value, p in self.after_draw.items() if value > self.now)

    def at_least(self, value: float) -> float:
        return sum(p for v, p in self.after_draw.items() if v >= value)


def draw_odds(
    game: Game, hand: Sequence[Card], known: Sequence[Card] = (), up: Card | None = None
) -> DrawOdds:
    """Exact: every unseen card is drawn once (each equally likely), the best three kept.

    >>> from tripletopper.games.thirty_one import ThirtyOne
    >>> game = ThirtyOne(2)
    >>> odds = draw_odds(game, game.deck.parse_many("AS KS 2H"))
    >>> odds.now, odds.unseen, round(odds.at_least(31), 4)  # 3 tens of spades of 49 cards
    (21, 49, 0.0612)
    """
    if len(hand) != 3:
        raise ValueError(f"a hand is three cards (got {len(hand)})")
    value = hand_value(game)
    pool = unseen_cards(game, hand, [*known, *([up] if up is not None else [])])
    if not pool:
        raise ValueError("no unseen card is left to draw")
    counts: dict[float, int] = {}
    for card in pool:
        after = best_of_four(value, [*hand, card])
        counts[after] = counts.get(after, 0) + 1
    after_draw = {v: counts[v] / len(pool) for v in sorted(counts)}
    take = best_of_four(value, [*hand, up]) if up is not None else None
    return DrawOdds(value(hand), after_draw, len(pool), take)


def knock_odds(
    game: Game, value: float, players: Sequence[int], hand: Sequence[Card] = (),
    known: Sequence[Card] = (), samples: int = 20_000, seed: int = 0,
) -> dict[int, float]:  # fmt: skip
    """The chance that a knock with ``value`` holds up, for each player count.

    Thirty-One: the knocker loses lives when alone lowest, or when an opponent makes
    31 on the last round; Thirty-Two: the knocker collects only by beating every
    opponent, and an opponent who reaches 32 declares it.  Each opponent holds three
    unseen cards, draws one and keeps the best three (the simplest play; a real
    table's opponents may also take the face-up card).  ``samples`` deals per count,
    seeded: the same arguments give the same table.
    """
    table = knock_table(game, [value], players, hand, known, samples, seed)
    return {count: row[value] for count, row in table.items()}


def knock_table(
    game: Game, values: Sequence[float], players: Sequence[int], hand: Sequence[Card] = (),
    known: Sequence[Card] = (), samples: int = 20_000, seed: int = 0,
) -> dict[int, dict[float, float]]:  # fmt: skip
    """:func:`knock_odds` for several values at once (the same deals serve them all)."""
    three = hand_value(game)
    pool = unseen_cards(game, hand, known)
    top = THIRTY_ONE if isinstance(game, ThirtyOne) else THIRTY_TWO
    out = {}
    for count in players:
        opponents = count - 1
        rng = Rng(seed * 1000 + count)
        deals = []
        for _ in range(samples):
            cards = rng.sample(pool, 4 * opponents)
            finals = [best_of_four(three, cards[4 * i : 4 * i + 4]) for i in range(opponents)]
            deals.append((min(finals), max(finals)))
        row = {}
        for value in values:
            if top == THIRTY_ONE:  # not alone lowest, and nobody makes 31
                held = sum(1 for low, high in deals if high < top and low <= value)
            else:  # higher than everyone, and nobody reaches 32
                held = sum(1 for _, high in deals if high < top and value > high)
            row[value] = held / samples
        out[count] = row
    return out


def flip_odds(game: MemoMatch, face_up: Card, known: Sequence[Card] = ()) -> tuple[int, int]:
    """Memo Match: ``(matching, unknown)`` cards for a second flip after ``face_up``.

    ``known`` are the cards that cannot turn up at a random unknown position (taken,
    face up, or remembered where they lie).  The chance that a random unknown card
    pairs with ``face_up`` is ``matching / unknown``.

    >>> from tripletopper.games.memo_match import MemoMatch
    >>> game = MemoMatch(2)
    >>> flip_odds(game, game.deck.parse("RC1"))  # 7 match all three variables, 36 two
    (43, 124)
    """
    variables = game.variables
    gone = {face_up, *known}
    base = face_up * DECK_SIZE
    unknown = [c for c in range(DECK_SIZE) if c not in gone]
    matching = sum(1 for c in unknown if variables[base + c] >= MATCH)
    return matching, len(unknown)


def open_lines(board: str) -> dict[str, list[int]]:
    """Toe: for ``X`` and ``O``, how many lines hold none of the other's marks, by how
    many of their own marks they hold (0-4); ``board`` is 64 characters ``X``, ``O``
    or ``.`` in cell order (``ToeState.board_text()``).

    >>> open_lines("." * 64)["X"]
    [76, 0, 0, 0, 0]
    """
    text = board.strip().upper()
    if len(text) != 64 or set(text) - set("XO."):
        raise ValueError("a Toe board is 64 characters X, O or . in cell order")
    out = {"X": [0] * 5, "O": [0] * 5}
    for line in LINES:
        marks = [text[cell] for cell in line]
        for side, other in (("X", "O"), ("O", "X")):
            if other not in marks:
                out[side][marks.count(side)] += 1
    return out
