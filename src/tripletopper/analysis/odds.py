"""Odds a player can use at the table, exact where the unseen cards can be enumerated.

The pure odds the games' hints also use live in the game modules and are used from
there: a draw's exact distribution (``games/draw_odds.py``), Memo Match's
``flip_odds`` and Toe's ``open_lines``.  This module gives them a game and cards:

- Thirty-One and Thirty-Two: :func:`draw_odds`, the exact distribution of a hand's
  value after drawing one unseen card and keeping the best three, and the value of
  taking the face-up card instead; :func:`knock_odds` and :func:`knock_table`, the
  chance that a knock with a given value holds up, by the number of players and the
  knocker's seat, estimated by sampling the opponents' hands;
- Memo Match: :func:`flip_odds`, the chance that flipping an unknown card matches
  the card face up;
- Toe: :func:`open_lines`, the lines each side can still complete.

Unseen cards are the deck less the hand and the cards named as known (seen in the
discard pile, in someone's hand, or gone).
"""

from __future__ import annotations

from collections.abc import Sequence

from tripletopper.cards.deck import Card
from tripletopper.engine import Game, Rng
from tripletopper.games import draw_odds as exact
from tripletopper.games.draw_odds import DrawOdds, Value
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.memo_match import flip_odds as flip
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_one.scoring import THIRTY_ONE
from tripletopper.games.thirty_two import ThirtyTwo
from tripletopper.games.thirty_two.scoring import THIRTY_TWO
from tripletopper.games.toe import open_lines

__all__ = ["DrawOdds", "draw_odds", "flip_odds", "knock_odds", "knock_table", "open_lines"]

KnockTable = dict[int, dict[int, dict[float, float]]]
"""``table[players][seat][value]``: the chance that a knock with ``value`` holds up."""


def hand_value(game: Game) -> Value:
    """The value of three cards under ``game``'s options (Thirty-One or Thirty-Two)."""
    if isinstance(game, ThirtyOne):
        return game.value
    if isinstance(game, ThirtyTwo):
        return game.score
    raise ValueError(
        f"{game.title} has no hand values: odds of hands are for Thirty-One and Thirty-Two"
    )


def unseen_cards(game: Game, hand: Sequence[Card], known: Sequence[Card] = ()) -> list[Card]:
    gone = set(hand) | set(known)
    return [card for card in range(len(game.deck.names)) if card not in gone]


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
    value = hand_value(game)
    if len(hand) != 3:
        raise ValueError(f"a hand is three cards (got {len(hand)})")
    pool = unseen_cards(game, hand, [*known, *([up] if up is not None else [])])
    return exact.draw_odds(value, hand, pool, up)


def knock_odds(
    game: Game,
    value: float,
    players: Sequence[int],
    hand: Sequence[Card] = (),
    known: Sequence[Card] = (),
    samples: int = 20_000,
    seed: int = 0,
) -> dict[int, dict[int, float]]:
    """The chance that a knock with ``value`` holds up, by player count and seat
    (:func:`knock_table`)."""
    table = knock_table(game, [value], players, hand, known, samples, seed)
    return {
        count: {seat: row[value] for seat, row in by_seat.items()}
        for count, by_seat in table.items()
    }


def knock_table(
    game: Game,
    values: Sequence[float],
    players: Sequence[int],
    hand: Sequence[Card] = (),
    known: Sequence[Card] = (),
    samples: int = 20_000,
    seed: int = 0,
) -> KnockTable:
    """:func:`knock_odds` for several values at once (the same deals serve them all).

    The knocker knocks on its first turn from ``seat`` (1: first to play after the
    dealer, ``players``: the dealer).  The opponents who played before it have drawn
    once already, and every opponent draws once more after the knock; each holds three
    unseen cards and keeps the best three at each draw (the simplest play; a real
    table's opponents may also take the face-up card).  Thirty-One: the knocker loses
    lives when alone lowest, or when an opponent makes 31 on the last round;
    Thirty-Two: the knocker collects only by beating every opponent, and an opponent
    who reaches 32 declares it.  ``samples`` deals per player count and seat, seeded:
    the same arguments give the same table.
    """
    three = hand_value(game)
    pool = unseen_cards(game, hand, known)
    top = THIRTY_ONE if isinstance(game, ThirtyOne) else THIRTY_TWO
    out: KnockTable = {}
    for count in players:
        out[count] = {}
        for seat in range(1, count + 1):
            before = seat - 1  # opponents who drew once before the knock
            rng = Rng(seed * 1000 + count * 10 + seat)
            deals = []
            for _ in range(samples):
                cards = rng.sample(pool, 4 * (count - 1) + before)
                finals = []
                for opponent in range(count - 1):
                    draws = 2 if opponent < before else 1
                    a, b, c = cards[:3]
                    for d in cards[3 : 3 + draws]:  # keep the best three of four
                        a, b, c = max((a, b, c), (a, b, d), (a, c, d), (b, c, d), key=three)
                    finals.append(three((a, b, c)))
                    del cards[: 3 + draws]
                deals.append((min(finals), max(finals)))
            row = {}
            for value in values:
                if top == THIRTY_ONE:  # not alone lowest, and nobody makes 31
                    held = sum(1 for low, high in deals if high < top and low <= value)
                else:  # higher than everyone, and nobody reaches 32
                    held = sum(1 for _, high in deals if high < top and value > high)
                row[value] = held / samples
            out[count][seat] = row
    return out


def flip_odds(game: MemoMatch, face_up: Card, known: Sequence[Card] = ()) -> tuple[int, int]:
    """Memo Match: ``(matching, unknown)`` cards for a second flip after ``face_up``
    (``games.memo_match.flip_odds`` under the game's ``wilds``).

    >>> from tripletopper.games.memo_match import MemoMatch
    >>> game = MemoMatch(2)
    >>> flip_odds(game, game.deck.parse("RC1"))  # 7 match all three variables, 36 two
    (43, 124)
    """
    return flip(game.variables, face_up, known)
