"""Thirty-Two worlds built from one seat's view (``Game.world_from_view``, docs/engine.md).

From a seat's observation and recall this builds a whole :class:`ThirtyTwoState` that
shows that seat exactly the same, dealing every card it cannot place as ``resample``
deals it.  The observation carries what is public (counters, who is in, the dealer,
whose turn, the known cards in hands, the top discard and the sizes, the last
settlement, whose ``owed`` decides a playoff); the recall adds what the seat saw that is
no longer on view: the buried discards, the cards of each rebuild of the stock, and in
which rebuild's stock each other player drew each card the seat cannot see (a card face
up at a rebuild cannot be in a slot filled before it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import TRIPLE_TOPPER
from tripletopper.engine import Results, Rng, Stock
from tripletopper.games.worlds import (
    ShownSettlement,
    check_view,
    seen_hands,
    squared_pile,
    unplaced,
)

if TYPE_CHECKING:
    from tripletopper.games.thirty_two.rules import ThirtyTwo, ThirtyTwoState


def build_world(
    game: ThirtyTwo, seat: int, obs: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
) -> ThirtyTwoState:
    from tripletopper.games.thirty_two.rules import OVER, PHASE_NAMES, ThirtyTwoState

    players = game.players
    check_view(game.name, players, seat, obs)
    parse = TRIPLE_TOPPER.parse
    state = ThirtyTwoState.__new__(ThirtyTwoState)
    state._init_base(game, {"seed": None, "decks": None, "setup": {}, "world_of": seat})
    state.rng = Rng(rng.bits())
    state.stacks = []
    state.counters = [int(x) for x in obs["counters"]]
    state.out = [s in obs["out"] for s in range(players)]
    last = obs["last_hand"]
    state.owed = [int(x) for x in last["owed"]] if last else [0] * players
    state.seats_in = [int(s) for s in obs["in_hand"]]
    state.nxt = [0] * players
    state._seat_tables()
    state.dealer = int(obs["dealer"])
    state.hand_no = int(obs["hand_number"])
    state.turns = int(obs["hand_turns"])
    state.turns_before = 0
    state.phase = PHASE_NAMES.index(obs["phase"])
    state.turn = obs["turn"] if obs["turn"] is not None else 0
    state.taken = parse(obs["taken"]) if obs["taken"] else -1
    state.knocker = obs["knocker"] if obs["knocker"] is not None else -1
    state.playoff = bool(obs["playoff"])
    state.last = ShownSettlement.of(last)
    state.result = Results.from_json(obs["result"]) if obs["result"] else None

    pile = squared_pile(obs, recall, parse)
    hands, slots = seen_hands(seat, obs, parse)
    state.public = {parse(c) for cards in obs["known"] for c in cards}
    pool = unplaced(len(TRIPLE_TOPPER.names), pile, hands, len(slots) + int(obs["stock_size"]))
    state.reshuffled = [frozenset(map(parse, cards)) for cards in recall.get("reshuffled", [])]
    state.epoch = len(state.reshuffled)
    state.drawn_epoch = {}
    epochs = recall.get("unseen_drawn_in", [[] for _ in range(players)])
    slot_epochs: list[tuple[int, int, int]] = []  # (epoch the slot was filled in, seat, index)
    over = state.phase == OVER  # a finished game hides the seat's own last hand too: no matter
    for other, hand in enumerate(hands):
        filled = [i for i, card in enumerate(hand) if card < 0]
        drawn_in = [int(e) for e in epochs[other]]
        if over and len(drawn_in) != len(filled):
            drawn_in = [0] * len(filled)
        if len(drawn_in) != len(filled):
            raise ValueError("the recalled draws do not match the unseen cards")
        slot_epochs.extend(zip(drawn_in, [other] * len(filled), filled, strict=True))
    stock = deal_unseen(state, hands, sorted(slot_epochs), pool, rng)
    state.hands = hands
    state.pile = pile
    state.stock = Stock()
    state.stock.replace(stock)
    return state


def deal_unseen(
    state: ThirtyTwoState,
    hands: list[list[Card]],
    slot_epochs: list[tuple[int, int, int]],
    pool: list[Card],
    rng: Rng,
) -> list[Card]:
    """Deal ``pool`` (in card order) into the unseen ``(epoch, seat, index)`` slots of
    ``hands``, sorted; returns the rest, the stock.  After rebuilds of the stock, slots are
    filled oldest first, each from the cards that could be in it (not face up at a later
    rebuild), and ``state.drawn_epoch`` learns the new cards' epochs."""
    if not state.reshuffled:  # every unseen card could be anywhere unseen
        left = len(pool)
        for _epoch, other, i in slot_epochs:  # a partial Fisher-Yates: the rest is the stock
            j = rng.below(left)
            left -= 1
            pool[j], pool[left] = pool[left], pool[j]
            hands[other][i] = pool[left]
        del pool[left:]
        return pool
    entered: dict[Card, int] = {}
    for epoch, cards in enumerate(state.reshuffled, 1):
        for card in cards:
            entered[card] = epoch
    # By the epoch each card may be used from, then by card: nothing of the true order.
    pool.sort(key=lambda c: (entered.get(c, 0), c))
    eligible: list[Card] = []
    at = 0
    for epoch, other, i in slot_epochs:
        while at < len(pool) and entered.get(pool[at], 0) <= epoch:
            eligible.append(pool[at])
            at += 1
        j = rng.below(len(eligible))
        eligible[j], eligible[-1] = eligible[-1], eligible[j]
        card = eligible.pop()
        hands[other][i] = card
        if epoch:
            state.drawn_epoch[card] = epoch
    return eligible + pool[at:]
