"""Thirty-Two's fixed action space and observation layout (``engine/encoding.py``).

>>> from tripletopper.games.thirty_two import ThirtyTwo
>>> enc = ThirtyTwoEncoding(ThirtyTwo(3))
>>> enc.actions, enc.action_to_index(("discard", 1, False), None), enc.index_to_action(3, None)
(254, 6, ('declare',))
"""

from __future__ import annotations

from collections.abc import MutableSequence

from tripletopper.cards.triple_topper import TRIPLE_TOPPER, WILDS
from tripletopper.engine import Game, State
from tripletopper.engine.encoding import Block, Features, Layout, Observation
from tripletopper.games.knock_encoding import KnockEncoding, knock_blocks
from tripletopper.games.thirty_two.rules import MAX_PLAYERS, OVER, PHASE_NAMES, ThirtyTwoState
from tripletopper.games.thirty_two.scoring import THIRTY_TWO


class ThirtyTwoEncoding(KnockEncoding):
    """take, draw, knock, declare (0-3), then ``discard`` card ``c`` (``TRIPLE_TOPPER``
    order) at ``4 + 2c``, with ``declare`` at ``5 + 2c``.  The table's ``close`` is not
    a seat's action and has no index."""

    deck = TRIPLE_TOPPER
    phases = PHASE_NAMES
    plain = ("take", "draw", "knock", "declare")
    layout = Layout(
        [
            *knock_blocks(TRIPLE_TOPPER, MAX_PLAYERS, PHASE_NAMES),
            Block("counters", MAX_PLAYERS, "counters per relative seat / all counters in play"),
            Block(
                "score",
                3,
                f"own score / {2 * THIRTY_TWO}, own wild attributes / 12, holds a Thirty-two",
            ),
            Block("flags", 1, "a playoff hand"),
            Block("options", 3, "no_wilds; cap_at_32; end = open"),
        ]
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        options = game.options
        self._options = (
            bool(options["no_wilds"]),
            bool(options["cap_at_32"]),
            options["end"] == "open",
        )

    def encode_into(self, state: State, seat: int, out: MutableSequence[float]) -> None:
        """:meth:`write` of ``state.observation(seat)``, from the fields it is built of."""
        assert isinstance(state, ThirtyTwoState)
        players = state.game.players
        phase = state.phase
        holds = phase != OVER and state.in_hand[seat]
        turn = None if phase == OVER else state.turn
        gone = [s for s in range(players) if state.out[s]]
        self.fast_shared(out, state, seat, holds, turn, gone, len(state.stock))
        at = self._at
        counters = state.counters
        total = max(1, sum(counters))
        base = at["counters"]
        for other, held in enumerate(counters):
            if held:
                out[base + (other - seat) % players] = held / total
        base = at["score"]
        if holds:
            hand = state.hands[seat]
            if len(hand) == 3:
                score = state.game.score(hand)
                out[base] = score / (2 * THIRTY_TWO)
                out[base + 2] = score >= THIRTY_TWO
            out[base + 1] = sum(WILDS[c] for c in hand) / 12
        out[at["flags"]] = bool(state.playoff)
        base = at["options"]
        out[base], out[base + 1], out[base + 2] = self._options

    def write(self, obs: Observation, out: Features) -> None:
        self.write_shared(obs, out)
        counters = obs["counters"]
        out.per_seat("counters", counters, max(1, sum(counters)))
        if "score" in obs:
            out.put("score", 0, obs["score"] / (2 * THIRTY_TWO))
            out.put("score", 2, bool(obs["thirty_two"]))
        out.put("score", 1, obs.get("wilds", 0) / 12)
        out.put("flags", 0, bool(obs["playoff"]))
        options = self.game.options
        out.put("options", 0, bool(options["no_wilds"]))
        out.put("options", 1, bool(options["cap_at_32"]))
        out.put("options", 2, options["end"] == "open")
