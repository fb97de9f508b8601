"""Thirty-One worlds built from one seat's view (``Game.world_from_view``, docs/engine.md).

A remote bot holds no state: it has its seat's observation and recall.  From them
this builds a whole :class:`ThirtyOneState` that shows that seat exactly the same,
with every card the seat cannot place dealt at random, as ``resample`` deals it.

What the observation carries is public (lives, who is in, the dealer, whose turn,
the known cards in hands, the top discard and the sizes); the recall adds what the
seat saw that is no longer on view: the buried discards and the hand in which each
player went out (which orders the final ranking).  Everything else is derived:
who is still to answer after a deal, the seating links, the deal order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tripletopper.cards.deck import Card
from tripletopper.cards.standard import STANDARD
from tripletopper.engine import Results, Rng, Stock
from tripletopper.games.thirty_one.scoring import is_31
from tripletopper.games.worlds import (
    ShownSettlement,
    check_view,
    seen_hands,
    squared_pile,
    unplaced,
)

if TYPE_CHECKING:
    from tripletopper.games.thirty_one.rules import ThirtyOne, ThirtyOneState


def build_world(
    game: ThirtyOne,
    seat: int,
    obs: Mapping[str, Any],
    recall: Mapping[str, Any],
    rng: Rng,
) -> ThirtyOneState:
    from tripletopper.games.thirty_one.rules import CHECK, PHASE_NAMES, ThirtyOneState

    players = game.players
    check_view(game.name, players, seat, obs)
    parse = STANDARD.parse
    state = ThirtyOneState.__new__(ThirtyOneState)
    state._init_base(game, {"seed": None, "decks": None, "setup": {}, "world_of": seat})
    state.rng = Rng(rng.bits())
    state.stacks = []
    state.manual = game.manual
    state.lives = [int(x) for x in obs["lives"]]
    state.alive = [x > 0 for x in state.lives]
    state.seats_in = seats = [int(s) for s in obs["in_hand"]]
    state.elim_hand = [int(h) for h in recall.get("out_in_hand", [0] * players)]
    state.nxt = [(s + 1) % players for s in range(players)]
    for i, s in enumerate(seats):
        state.nxt[s] = seats[(i + 1) % len(seats)]
    state.orders = {}
    state.counts = [0.0] * players
    state.dealer = int(obs["dealer"])
    state.hand_no = int(obs["hand_number"])
    state.turns = int(obs["hand_turns"])
    state.turns_before = 0
    state.phase = PHASE_NAMES.index(obs["phase"])
    state.turn = obs["turn"] if obs["turn"] is not None else 0
    state.taken = parse(obs["taken"]) if obs["taken"] else -1
    state.knocker = obs["knocker"] if obs["knocker"] is not None else -1
    state.knocks = state.stops = state.thirty_ones = state.voids = 0
    state.declared = [int(s) for s in obs["declared"]]
    state.last = ShownSettlement.of(obs["last_hand"])
    state.result = Results.from_json(obs["result"]) if obs["result"] else None

    # The cards: known ones where they are seen, the rest dealt from what is left.
    pile = squared_pile(obs, recall, parse)
    hands, slots = seen_hands(seat, obs, parse)
    known = [[parse(c) for c in cards] for cards in obs["known"]]
    state.public = {card for cards in known for card in cards}
    pool = unplaced(len(STANDARD.names), pile, hands, len(slots) + int(obs["stock_size"]))
    # Without manual_31 a dealt or made 31 is declared at once, so no hand holds an
    # undeclared one (checked as resample checks it: older hands are not).
    check = [] if game.manual else sorted({s for s, _ in slots})
    stock = deal_unseen(hands, slots, pool, check, state.taken, rng)
    state.hands = hands
    state.pile = pile
    state.stock = Stock()
    state.stock.replace(stock)
    state.pending = _pending(state, obs, known)
    if state.phase == CHECK:  # the first to play once everyone has answered
        state.turn = state._deal_order()[0]
    return state


def deal_unseen(
    hands: list[list[Card]],
    slots: list[tuple[int, int]],
    pool: list[Card],
    check: list[int],
    taken: Card,
    rng: Rng,
) -> list[Card]:
    """Deal ``pool`` (in card order) into the unseen ``(seat, index)`` slots of ``hands``,
    again while a seat of ``check`` would hold a 31 (up to 100 times); returns the rest,
    the stock.

    A hand of four is checked as it was before its draw: without ``taken`` (the card
    just taken from the pile, seen by all), or else without its last card, an unseen
    slot that stands for the card drawn from the stock.  The fourth card may well make
    a 31: its holder declares it by discarding."""
    for _attempt in range(100):
        rng.shuffle(pool)
        for (s, i), card in zip(slots, pool, strict=False):
            hands[s][i] = card
        if not any(_held_31(hands[s], taken) for s in check):
            break
    return pool[len(slots) :]


def _held_31(hand: list[Card], taken: Card) -> bool:
    """Whether ``hand`` held a 31 before its latest draw (a hand of three: now)."""
    if len(hand) == 4 and taken in hand:
        a, b, c = (card for card in hand if card != taken)
        return is_31(a, b, c)
    return is_31(hand[0], hand[1], hand[2])


def _pending(state: ThirtyOneState, obs: Mapping[str, Any], known: list[list[int]]) -> list[int]:
    """Seats still to answer after the deal, from the one to act on in deal order: everyone
    left with ``manual_31``; otherwise the dealt 31s not yet declared (shown at once)."""
    from tripletopper.games.thirty_one.rules import CHECK

    if state.phase != CHECK:
        return []
    order = state._deal_order()
    first = order.index(int(obs["to_act"][0]))
    if state.manual:
        return order[first:]
    return [
        s
        for s in order[first:]
        if s not in state.declared and len(known[s]) == 3 and is_31(*known[s])
    ]
