"""3UP 3DOWN worlds built from one seat's view (``Game.world_from_view``, docs/engine.md).

The observation carries all a seat may know: its own hand and 3UP cards, everyone's
3UP cards once chosen, the cards of each hand the table knows (picked up from the
pile) and the upper bounds on the others, the pile, the cleared cards and the counts.
Every card it cannot place (the stock, every 3DOWN card, the rest of the other hands,
and while the 3UP cards are chosen the others' six) is dealt as ``resample`` deals it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tripletopper.cards.three_up import RANK_NAMES, THREE_UP
from tripletopper.engine import Results, Rng, Stock
from tripletopper.games.worlds import check_view, unplaced

if TYPE_CHECKING:
    from tripletopper.games.three_up_three_down.rules import (
        ThreeUpThreeDown,
        ThreeUpThreeDownState,
    )

RANK_OF = {name: rank for rank, name in enumerate(RANK_NAMES) if name}


def build_world(
    game: ThreeUpThreeDown,
    seat: int,
    obs: Mapping[str, Any],
    recall: Mapping[str, Any],
    rng: Rng,
) -> ThreeUpThreeDownState:
    from tripletopper.games.three_up_three_down.rules import (
        PHASE_NAMES,
        UNBOUNDED,
        ThreeUpThreeDownState,
        deal_unseen,
    )

    players = game.players
    check_view(game.name, players, seat, obs)
    parse = THREE_UP.parse
    state = ThreeUpThreeDownState.__new__(ThreeUpThreeDownState)
    state._init_base(game, {"seed": None, "decks": None, "setup": {}, "world_of": seat})
    state.rng = Rng(rng.bits())
    state.stacks = []
    state.dealer = int(obs["dealer"])
    state.phase = PHASE_NAMES.index(obs["phase"])
    state.turn = int(obs["turn"]) if obs["turn"] is not None else (state.dealer + 1) % players
    state.turns = int(obs["turns"])
    state.pickups = state.clears = 0
    state.pile = [parse(c) for c in obs["pile"]]
    state.run_rank = RANK_OF[obs["top"]] if obs["top"] else 0
    state.run_len = int(obs["run"])
    state.cleared = [parse(c) for c in obs["cleared"]]
    state.owed = int(obs["extra_plays"])
    state.may_draw = bool(obs["may_draw"])
    state.finished = [int(s) for s in obs["finished"]]
    state.result = Results.from_json(obs["result"]) if obs["result"] else None
    views = obs["seats"]
    state.out = [bool(v["out"]) for v in views]
    state.nxt = [0] * players
    state._seat_table()

    # Every seen card where it is seen, -1 in each slot the seat cannot see.
    state.hands, state.up, state.down, state.known, state.bounds = [], [], [], [], []
    slots: list[tuple[int, list[int], int]] = []  # (bound, cards, index), as resample has them
    for s, view in enumerate(views):
        known = [parse(c) for c in view["known"]]
        if s == seat:
            hand = [parse(c) for c in obs["hand"]]
        else:
            hand = known + [-1] * (int(view["hand_size"]) - len(known))
        up = (
            [parse(c) for c in view["up"]]
            if view["up"] is not None
            else [-1] * 3 * bool(view.get("chosen"))
        )
        bounds = [RANK_OF[b] for b in view["hidden_at_most"]]
        if s != seat:
            if view["up"] is None:  # the choice is secret: the whole six are unseen
                slots.extend((UNBOUNDED, hand, i) for i in range(len(hand)))
                slots.extend((UNBOUNDED, up, i) for i in range(len(up)))
            else:
                for j, i in enumerate(range(len(known), len(hand))):
                    slots.append((bounds[j] if j < len(bounds) else UNBOUNDED, hand, i))
        state.hands.append(hand)
        state.up.append(up)
        state.known.append(set(known))
        state.bounds.append(bounds)
    for view in views:
        down = [-1] * int(view["down"])
        state.down.append(down)
    slots.extend((UNBOUNDED, down, i) for down in state.down for i in range(len(down)))
    seen = [*state.hands, *state.up, state.cleared]
    pool = unplaced(game.cards, state.pile, seen, len(slots) + int(obs["stock_size"]))
    deal_unseen(slots, pool, rng)
    state.stock = Stock()
    state.stock.replace(pool)
    state.recount()
    return state
