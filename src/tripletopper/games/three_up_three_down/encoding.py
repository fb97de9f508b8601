"""3UP 3DOWN's fixed action space and observation layout (``engine/encoding.py``).

Actions name values, not copies, and so does the layout: cards are counted per value
(rank 1-10, then Clear, Clear+1, Clear+2: 13 values); colors and copies are left out,
as no rule reads them.

>>> from tripletopper.games.three_up_three_down import ThreeUpThreeDown
>>> enc = ThreeUpThreeDownEncoding(ThreeUpThreeDown(2))
>>> enc.actions, enc.action_to_index(("choose", (1, 1, 1)), None)
(549, 0)
>>> enc.index_to_action(455 + 7 * 6 + 1, None), enc.index_to_action(548, None)
(('play', (7, 7)), ('draw',))
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from itertools import combinations_with_replacement

from tripletopper.cards.three_up import RANK, RANK_NAMES, THREE_UP, TOP_RANK
from tripletopper.engine import Game, State
from tripletopper.engine.actions import Action
from tripletopper.engine.encoding import (
    Block,
    Encoding,
    Features,
    Layout,
    Observation,
    card_lookup,
)
from tripletopper.games.three_up_three_down.actions import DRAW, FLIP, MAX_COPIES, PICKUP, PLAYS
from tripletopper.games.three_up_three_down.rules import (
    CHOOSE,
    MAX_PLAYERS,
    PHASE_NAMES,
    PLAY,
    SOURCES,
    ThreeUpThreeDownState,
)

VALUES = TOP_RANK
"""13 values; value ``r`` (1-13) sits at slot ``r - 1`` of every per-value block."""
CHOICES: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, VALUES + 1), 3))
"""Every ``choose`` (three values, sorted): 455."""
_CHOICE_INDEX = {choice: i for i, choice in enumerate(CHOICES)}
PLAY_AT = len(CHOICES)
"""``play`` of ``k`` cards of value ``r`` is at ``PLAY_AT + (r - 1) * MAX_COPIES + k - 1``."""
LAST = (FLIP, PICKUP, DRAW)
LAST_AT = PLAY_AT + VALUES * MAX_COPIES
_RANK_OF = {name: RANK[card] for name, card in card_lookup(THREE_UP).items()}
_VALUE_OF = {name: rank for rank, name in enumerate(RANK_NAMES) if rank}
_VALUE_TABLE = bytes(RANK).ljust(256, b"\0")
"""``bytes.translate`` table: card int to its value."""
P = MAX_PLAYERS


class ThreeUpThreeDownEncoding(Encoding):
    """``choose`` (455 sorted triples of values), ``play`` (value x how many), flip,
    pickup, draw: 549 indices."""

    actions = LAST_AT + len(LAST)
    layout = Layout(
        [
            Block("hand", VALUES, "own hand: cards per value / 7"),
            Block("up", P * VALUES, "per relative seat: its 3UP cards per value / 3"),
            Block("known", P * VALUES, "per relative seat: cards in hand all saw it pick up"),
            Block("hidden_at_most", P * VALUES, "per relative seat: its hidden cards' bounds"),
            Block("down", P, "3DOWN cards left per relative seat / 3"),
            Block("hand_sizes", P, "cards in hand per relative seat / 20"),
            Block("chosen", P, "relative seats that chose their 3UP cards (choose phase)"),
            Block("out", P, "relative seats out of cards"),
            Block("finished", P, "relative seats in the finishing order"),
            Block("present", P, "relative seats at this table"),
            Block("pile", VALUES, "pile cards per value / 7"),
            Block("top", VALUES, "the value to beat, one-hot"),
            Block("cleared", VALUES, "cleared cards per value / 7"),
            Block("phase", len(PHASE_NAMES), "phase one-hot: " + ", ".join(PHASE_NAMES)),
            Block("turn", P, "relative seat whose turn it is"),
            Block("dealer", P, "relative seat of the dealer"),
            Block("source", len(SOURCES), "own cards played from: hand, 3UP, 3DOWN"),
            Block("scalars", 5, "stock / 84, pile / 84, run / 4, extra plays / 2, may draw"),
            Block("options", 1, "rank_all"),
        ]
    )

    def action_to_index(self, action: Action, obs: Observation | None) -> int:
        kind = action[0]
        if kind == "choose":
            index = _CHOICE_INDEX.get(action[1])
            if index is not None:
                return index
        elif kind == "play":
            cards = action[1]
            if (
                isinstance(cards, tuple)
                and 1 <= len(cards) <= MAX_COPIES
                and cards[0] in range(1, VALUES + 1)
                and len(set(cards)) == 1
            ):
                return PLAY_AT + (int(cards[0]) - 1) * MAX_COPIES + len(cards) - 1
        elif action in LAST:
            return LAST_AT + LAST.index(action)
        raise self._outside(action)

    def index_to_action(self, index: int, obs: Observation | None) -> Action:
        if 0 <= index < PLAY_AT:
            return ("choose", CHOICES[index])
        if PLAY_AT <= index < LAST_AT:
            value, count = divmod(index - PLAY_AT, MAX_COPIES)
            return PLAYS[value + 1][count]
        if LAST_AT <= index < self.actions:
            return LAST[index - LAST_AT]
        raise self._outside(index)

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._rank_all = bool(game.options["rank_all"])

    def encode_into(self, state: State, seat: int, out: MutableSequence[float]) -> None:
        """:meth:`write` of ``state.observation(seat)``, from the fields it is built of."""
        assert isinstance(state, ThreeUpThreeDownState)
        at = self.layout.offset
        players = state.game.players
        phase = state.phase
        choosing = phase == CHOOSE
        count = _count_values
        count(out, at["hand"], state.hands[seat], 7)
        up, known, bounds = at["up"], at["known"], at["hidden_at_most"]
        down, sizes, chosen = at["down"], at["hand_sizes"], at["chosen"]
        gone, present = at["out"], at["present"]
        for other in range(players):
            rel = (other - seat) % players
            base = rel * VALUES
            hand = state.hands[other]
            if not choosing or other == seat:
                count(out, up + base, state.up[other], 3)
            seen = state.known[other]
            if seen:
                count(out, known + base, [c for c in hand if c in seen], 7)
            for bound in state.bounds[other]:
                out[bounds + base + bound - 1] = 1 / 3
            out[down + rel] = len(state.down[other]) / 3
            out[sizes + rel] = len(hand) / 20
            if choosing:
                out[chosen + rel] = bool(state.up[other])
            out[gone + rel] = bool(state.out[other])
            out[present + rel] = 1.0
        base = at["finished"]
        for other in state.finished:
            out[base + (other - seat) % players] = 1.0
        pile = state.pile
        count(out, at["pile"], pile, 7)
        if state.run_rank:
            out[at["top"] + state.run_rank - 1] = 1.0
        count(out, at["cleared"], state.cleared, 7)
        out[at["phase"] + phase] = 1.0
        if phase == PLAY:
            out[at["turn"] + (state.turn - seat) % players] = 1.0
            source = state._source_name(seat)
            if source is not None:
                out[at["source"] + SOURCES.index(source)] = 1.0
        out[at["dealer"] + (state.dealer - seat) % players] = 1.0
        base = at["scalars"]
        stock = state.stock.size
        out[base] = stock / 84
        out[base + 1] = len(pile) / 84
        out[base + 2] = state.run_len / 4
        out[base + 3] = state.owed / 2
        out[base + 4] = bool(state.may_draw and stock > 0)
        out[at["options"]] = self._rank_all

    def write(self, obs: Observation, out: Features) -> None:
        self._values(out, "hand", obs.get("hand", ()), 7)
        for seat, info in enumerate(obs["seats"]):
            at = out.rel(seat) * VALUES
            self._values(out, "up", info["up"] or (), 3, at)
            self._values(out, "known", info["known"], 7, at)
            for name in info["hidden_at_most"]:
                out.put("hidden_at_most", at + _VALUE_OF[name] - 1, 1 / 3)
            rel = out.rel(seat)
            out.put("down", rel, info["down"] / 3)
            out.put("hand_sizes", rel, info["hand_size"] / 20)
            out.put("chosen", rel, bool(info.get("chosen")))
            out.put("out", rel, bool(info["out"]))
            out.put("present", rel)
        out.seats("finished", obs["finished"])
        self._values(out, "pile", obs["pile"], 7)
        if obs["top"] is not None:
            out.put("top", _VALUE_OF[obs["top"]] - 1)
        self._values(out, "cleared", obs["cleared"], 7)
        out.choice("phase", obs["phase"], PHASE_NAMES)
        out.seat("turn", obs["turn"])
        out.seat("dealer", obs["dealer"])
        out.choice("source", obs.get("playing_from"), SOURCES)
        out.put("scalars", 0, obs["stock_size"] / 84)
        out.put("scalars", 1, obs["pile_size"] / 84)
        out.put("scalars", 2, obs["run"] / 4)
        out.put("scalars", 3, obs["extra_plays"] / 2)
        out.put("scalars", 4, bool(obs["may_draw"]))
        out.put("options", 0, bool(self.game.options["rank_all"]))

    @staticmethod
    def _values(out: Features, block: str, names: Iterable[str], scale: float, at: int = 0) -> None:
        """Count cards per value (several copies add up at one index)."""
        for rank, count in _per_value(map(_RANK_OF.__getitem__, names)).items():
            out.put(block, at + rank - 1, count / scale)


def _count_values(
    out: MutableSequence[float], base: int, cards: Sequence[int], scale: float
) -> None:
    """``_values`` of the cards themselves (the fast path: cards to values, and their
    counts, in C by ``bytes.translate`` and ``bytes.count``)."""
    if cards:
        values = bytes(cards).translate(_VALUE_TABLE)
        for value in set(values):
            out[base + value - 1] = values.count(value) / scale


def _per_value(ranks: Iterable[int]) -> dict[int, int]:
    """How many of each value (a Counter is slower for a few cards)."""
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    return counts
