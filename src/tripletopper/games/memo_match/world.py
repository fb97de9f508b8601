"""Memo Match worlds built from one seat's view (``Game.world_from_view``, docs/engine.md).

The observation shows the cards face up; the seat's recall the face-down cards it has
seen, the cards it knows in piles and set aside, and what it worked
out about the rest (``MemoMatchState.recall``): which cards can stand in for each other
where, the matches and misses it watched blind, and who else knows which card.  From
them this lays out one state that shows the seat exactly that, then deals the cards it
cannot place as ``resample`` deals them (``knowledge.relabeling``), so a world and a
resample with the same rng are the same deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tripletopper.cards.triple_topper import TRIPLE_TOPPER
from tripletopper.engine import Results, Rng
from tripletopper.games.memo_match.layout import DECK_SIZE, parse_position
from tripletopper.games.worlds import check_view

if TYPE_CHECKING:
    from tripletopper.games.memo_match.rules import MemoMatch, MemoMatchState


def build_world(
    game: MemoMatch, seat: int, obs: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
) -> MemoMatchState:
    from tripletopper.games.memo_match.rules import (
        EMPTY,
        FLIP2,
        OVER,
        PHASE_NAMES,
        SPOT,
        MemoMatchState,
    )

    players = game.players
    check_view(game.name, players, seat, obs)
    parse = TRIPLE_TOPPER.parse
    bit = 1 << seat
    everyone = (1 << (players + 1)) - 1

    # Every card at its place: the ones the seat knows, then each unplaced group's cards
    # in the group's places (any order: the deal below relabels them).
    at: dict[str, int] = {}
    known: set[str] = set()

    def put(place: str, name: str, seen: bool) -> None:
        if place in at:
            raise ValueError(f"two cards at {place}")
        at[place] = parse(name)
        if seen:
            known.add(place)

    for place, name in recall["seen"].items():
        put(place, name, True)
    for place, name in obs["face_up"].items():
        if name is not None:
            put(place, name, True)
    for kind, piles in (("pile", recall["captured"]), ("playoff", recall["playoff_captured"])):
        for s, names in enumerate(piles):
            for k, name in enumerate(names):
                put(f"{kind}:{s}:{k}", name, True)
    for k, name in enumerate(recall["aside"]):
        put(f"aside:{k}", name, True)
    epoch = [0] * DECK_SIZE
    for number, group in enumerate(recall["unplaced"], 1):
        if len(group["cards"]) != len(group["at"]):
            raise ValueError("an unplaced group has not one card per place")
        for place, name in zip(group["at"], group["cards"], strict=True):
            put(place, name, False)
            epoch[at[place]] = number
    if sorted(at.values()) != list(range(DECK_SIZE)):
        raise ValueError("the view does not account for every card once")
    known_by = recall["known_by"]
    knows = [0] * DECK_SIZE
    for place, card in at.items():
        knows[card] = int(known_by.get(place, 0)) | (bit if place in known else 0)

    state = MemoMatchState.__new__(MemoMatchState)
    state._init_base(game, {"seed": None, "decks": None, "setup": {}, "world_of": seat})
    state.rng = Rng(0)  # reseeded by the deal below
    state.stacks = []
    state.order = [int(s) for s in obs["order"]]
    state.see = [everyone if not game.private else 1 << s for s in range(players)]
    state.knows = knows
    state.epoch = epoch
    state.epochs = len(recall["unplaced"]) + 1
    state.constraints = [(at[a], at[b], int(kind)) for a, b, kind in recall["constraints"]]
    state.piles = [_pile(at, f"pile:{s}") for s in range(players)]
    state.ppiles = [_pile(at, f"playoff:{s}") for s in range(players)]
    state.set_aside = _pile(at, "aside")
    state.playoff = bool(obs["playoff"])
    state.playoffs = int(state.playoff)
    state.phase = PHASE_NAMES.index(obs["phase"])
    state.main_counts = [int(n) for n in obs["captured"]] if state.playoff else []
    if state.phase == OVER and not state.playoff and players > 1:
        state.main_counts = [len(p) for p in state.piles]
    state.out = [s in obs["out"] for s in range(players)]
    state.barred = [s in obs["barred"] for s in range(players)]
    state.leaders = [int(s) for s in obs["leaders"]]
    state.active = (
        [s in state.leaders for s in range(players)] if state.playoff else [True] * players
    )
    state.spotters = [int(s) for s in obs["to_act"]] if state.phase == SPOT else []
    state.claims = None
    state.declarer = int(obs["declarer"]) if obs["declarer"] is not None else -1
    state.turn = int(obs["turn"]) if obs["turn"] is not None else state.order[0]
    state.first = parse_position(next(iter(obs["face_up"]))) if state.phase == FLIP2 else -1
    state.bonus_left = int(obs["bonus_left"])
    state.turns = state.total_turns = int(obs["turns"])
    state.declarations = 0
    state.result = Results.from_json(obs["result"]) if obs["result"] else None
    state.size = int(obs["size"])
    table = [EMPTY] * state.size
    for place in obs["table"]:
        table[parse_position(place)] = at[place]
    state.table = table
    state.count = len(obs["table"])
    state.acts1 = []
    state.take_list = None
    state.nxt = []
    state._seat_table()
    state._refresh()
    world = state.resample(seat, rng)
    world.history = []
    return world


def _pile(at: Mapping[str, int], name: str) -> list[int]:
    pile: list[int] = []
    while f"{name}:{len(pile)}" in at:
        pile.append(at[f"{name}:{len(pile)}"])
    return pile
