"""Memo Match's fixed action space and observation layout (``engine/encoding.py``).

A spotting seat may claim any two of up to 125 positions: 7,750 claims.  They keep
one index each (a pair ``i < j`` at its place in the triangle of pairs), so the
space is 8,002 and exact; a mask of them is built from ``legal_summary``'s pattern
by table lookup, never by listing actions.  A learner that finds 8,002 outputs
too many can factor a claim into its two positions (the first 125 + 125 logits
of a two-headed policy) without changing the space.

The layout holds what the observation holds, and so only the cards face up *now*:
what a seat saw and turned back is not in it (``docs/engine.md``, memory games),
so a learner must remember (a recurrent policy, or a frame stack).

>>> from tripletopper.games.memo_match import MemoMatch
>>> enc = MemoMatchEncoding(MemoMatch(2))
>>> enc.actions, enc.action_to_index(("claim", (0, 1)), None), enc.index_to_action(8001, None)
(8002, 252, ('claim', (123, 124)))
"""

from __future__ import annotations

from collections.abc import MutableSequence
from itertools import combinations

from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER
from tripletopper.engine import Game, State
from tripletopper.engine.actions import Action, ActionPattern
from tripletopper.engine.encoding import (
    Block,
    Encoding,
    Features,
    Layout,
    Observation,
    card_lookup,
)
from tripletopper.games.memo_match.layout import DECK_SIZE, POSITION_NAMES
from tripletopper.games.memo_match.rules import (
    EMPTY,
    FLIP2,
    MAX_PLAYERS,
    OVER,
    PHASE_NAMES,
    SPOT,
    MemoMatchState,
)

N = DECK_SIZE
PAIRS: tuple[tuple[int, int], ...] = tuple(combinations(range(N), 2))
_PAIR_INDEX = [[-1] * N for _ in range(N)]
for _i, (_a, _b) in enumerate(PAIRS):
    _PAIR_INDEX[_a][_b] = _i
TAKE_AT = N
DECLARE_AT = 2 * N
PASS_AT = DECLARE_AT + 1
CLAIM_AT = PASS_AT + 1
_POSITION = {name: p for p, name in enumerate(POSITION_NAMES)}
_CARD = card_lookup(TRIPLE_TOPPER)
P = MAX_PLAYERS


class MemoMatchEncoding(Encoding):
    """flip position ``p`` at ``p`` (0-124, A1 = 0, B1 = 1, ...), take at ``125 + p``,
    declare (250), pass (251), claim ``(i, j)`` at ``252 +`` its place among the pairs
    in ``itertools.combinations(range(125), 2)`` order.  The clock's ``timeout`` has no
    index."""

    actions = CLAIM_AT + len(PAIRS)
    layout = Layout(
        [
            Block("on_table", N, "per position: a card lies there"),
            Block(
                "face_up",
                N * 16,
                "per position: face up, then the card's color 0-4, "
                "shape 0-4, number 0-4 if this seat may see it",
            ),
            Block("gone", TRIPLE_TOPPER.size, "cards this seat saw captured, one-hot per card"),
            Block("captured", P, "cards captured per relative seat / 125"),
            Block("phase", len(PHASE_NAMES), "phase one-hot: " + ", ".join(PHASE_NAMES)),
            Block("turn", P, "relative seat whose turn it is"),
            Block("declarer", P, "relative seat that declared no matches"),
            Block("out", P, "relative seats out of the spotting"),
            Block("barred", P, "relative seats barred from spotting"),
            Block("leaders", P, "relative seats in the playoff"),
            Block("present", P, "relative seats at this table"),
            Block(
                "scalars",
                5,
                "bonus cards left / 3, turns / max_turns, layout size / 125, "
                "set aside / 125, a playoff",
            ),
            Block("options", 3, "wilds; reveal = private; swap_on_miss"),
        ]
    )

    def action_to_index(self, action: Action, obs: Observation | None) -> int:
        kind = action[0]
        if len(action) == 2 and kind in ("flip", "take") and action[1] in range(N):
            return int(action[1]) + (TAKE_AT if kind == "take" else 0)
        if kind == "declare" and len(action) == 1:
            return DECLARE_AT
        if kind == "pass" and len(action) == 1:
            return PASS_AT
        if kind == "claim" and len(action) == 2 and isinstance(action[1], tuple):
            pair = action[1]
            if len(pair) == 2 and pair[0] in range(N) and pair[1] in range(N):
                index = _PAIR_INDEX[pair[0]][pair[1]]
                if index >= 0:
                    return CLAIM_AT + index
        raise self._outside(action)

    def index_to_action(self, index: int, obs: Observation | None) -> Action:
        if 0 <= index < DECLARE_AT:
            position = index % N
            return ("take" if index >= TAKE_AT else "flip", position)
        if index == DECLARE_AT:
            return ("declare",)
        if index == PASS_AT:
            return ("pass",)
        if CLAIM_AT <= index < self.actions:
            return ("claim", PAIRS[index - CLAIM_AT])
        raise self._outside(index)

    def pattern_indices(self, pattern: ActionPattern, obs: Observation | None) -> list[int]:
        if pattern.kind != "claim" or pattern.pick != 2:
            return super().pattern_indices(pattern, obs)
        table = _PAIR_INDEX
        return [CLAIM_AT + table[a][b] for a, b in combinations(pattern.among, 2)]

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        options = game.options
        self._options = (
            bool(options["wilds"]),
            options["reveal"] == "private",
            bool(options["swap_on_miss"]),
        )

    def encode_into(self, state: State, seat: int, out: MutableSequence[float]) -> None:
        """:meth:`write` of ``state.observation(seat)``, from the fields it is built of."""
        assert isinstance(state, MemoMatchState)
        at = self.layout.offset
        players = state.game.players
        bit = 1 << seat
        knows = state.knows
        table = state.table
        phase = state.phase
        base = at["on_table"]
        for position, card in enumerate(table):
            if card != EMPTY:
                out[base + position] = 1.0
        face_up = at["face_up"]
        if phase == FLIP2:
            card = table[state.first]
            _face_up(out, face_up + state.first * 16, card if state._shown_up(seat) else EMPTY)
        elif phase == SPOT:
            for position, card in enumerate(table):
                if card != EMPTY:
                    _face_up(out, face_up + position * 16, card)
        base = at["gone"]
        private = state.game.private
        everyone = (1 << (players + 1)) - 1
        for owner, pile in enumerate(state.piles):
            mine = owner == seat or not private  # as _shown_pile decides
            for card in pile:
                if (knows[card] & bit) if mine else knows[card] == everyone:
                    out[base + card] = 1.0
        base = at["captured"]
        counts = state.main_counts if state.playoff else [len(p) for p in state.piles]
        for other, count in enumerate(counts):
            if count:
                out[base + (other - seat) % players] = count / N
        out[at["phase"] + phase] = 1.0
        if phase != OVER:
            out[at["turn"] + (state.turn - seat) % players] = 1.0
        if state.declarer >= 0:
            out[at["declarer"] + (state.declarer - seat) % players] = 1.0
        out_at, barred, leaders, present = at["out"], at["barred"], at["leaders"], at["present"]
        for other in range(players):
            rel = (other - seat) % players
            if state.out[other]:
                out[out_at + rel] = 1.0
            if state.barred[other]:
                out[barred + rel] = 1.0
            out[present + rel] = 1.0
        for other in state.leaders:
            out[leaders + (other - seat) % players] = 1.0
        base = at["scalars"]
        out[base] = state.bonus_left / 3
        out[base + 1] = state.turns / state.game.max_turns
        out[base + 2] = state.size / N
        out[base + 3] = len(state.set_aside) / N
        out[base + 4] = bool(state.playoff)
        base = at["options"]
        out[base], out[base + 1], out[base + 2] = self._options

    def write(self, obs: Observation, out: Features) -> None:
        out.ones("on_table", [_POSITION[name] for name in obs["table"]])
        for name, card_name in obs["face_up"].items():
            at = _POSITION[name] * 16
            out.put("face_up", at)
            if card_name is not None:
                card = _CARD[card_name]
                out.put("face_up", at + 1 + COLOR[card])
                out.put("face_up", at + 6 + SHAPE[card])
                out.put("face_up", at + 11 + NUMBER[card])
        for cards in obs["captured_cards"]:
            out.cards("gone", cards, _CARD)
        out.per_seat("captured", obs["captured"], N)
        out.choice("phase", obs["phase"], PHASE_NAMES)
        out.seat("turn", obs["turn"])
        out.seat("declarer", obs["declarer"])
        out.seats("out", obs["out"])
        out.seats("barred", obs["barred"])
        out.seats("leaders", obs["leaders"])
        out.seats("present", range(obs["players"]))
        out.put("scalars", 0, obs["bonus_left"] / 3)
        out.put("scalars", 1, obs["turns"] / obs["max_turns"])
        out.put("scalars", 2, obs["size"] / N)
        out.put("scalars", 3, obs["set_aside"] / N)
        out.put("scalars", 4, bool(obs["playoff"]))
        options = self.game.options
        out.put("options", 0, bool(options["wilds"]))
        out.put("options", 1, options["reveal"] == "private")
        out.put("options", 2, bool(options["swap_on_miss"]))


def _face_up(out: MutableSequence[float], at: int, card: int) -> None:
    """A face-up position at ``at``: its card's attributes unless ``card`` is EMPTY
    (a card this seat may not see)."""
    out[at] = 1.0
    if card != EMPTY:
        out[at + 1 + COLOR[card]] = 1.0
        out[at + 6 + SHAPE[card]] = 1.0
        out[at + 11 + NUMBER[card]] = 1.0
