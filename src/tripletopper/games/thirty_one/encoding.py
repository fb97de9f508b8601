"""Thirty-One's fixed action space and observation layout (``engine/encoding.py``).

>>> from tripletopper.games.thirty_one import ThirtyOne
>>> enc = ThirtyOneEncoding(ThirtyOne(2))
>>> enc.actions, enc.action_to_index(("discard", 0, True), None), enc.index_to_action(4, None)
(110, 7, ('play',))
"""

from __future__ import annotations

from collections.abc import MutableSequence

from tripletopper.cards.standard import STANDARD
from tripletopper.engine import Game, State
from tripletopper.engine.encoding import Block, Features, Layout, Observation
from tripletopper.games.knock_encoding import KnockEncoding, knock_blocks
from tripletopper.games.thirty_one.rules import (
    CHECK,
    DISCARD_PHASE,
    MAX_PLAYERS,
    OVER,
    PHASE_NAMES,
    TURN,
    ThirtyOneState,
)
from tripletopper.games.thirty_one.scoring import DEAD_31, START_LIVES, THIRTY_ONE


class ThirtyOneEncoding(KnockEncoding):
    """take, draw, knock, stop, play, declare (0-5), then ``discard`` card ``c``
    (``STANDARD`` order, ``rank*4 + suit``) at ``6 + 2c``, with ``declare`` at ``7 + 2c``."""

    deck = STANDARD
    phases = PHASE_NAMES
    plain = ("take", "draw", "knock", "stop", "play", "declare")
    layout = Layout(
        [
            *knock_blocks(STANDARD, MAX_PLAYERS, PHASE_NAMES),
            Block("lives", MAX_PLAYERS, f"lives per relative seat / {START_LIVES}"),
            Block("declared", MAX_PLAYERS, "relative seats that declared a 31 this hand"),
            Block("circling", MAX_PLAYERS, "relative seats circling the drain (last life)"),
            Block("value", 2, f"own hand's value / {THIRTY_ONE}, what it counts / {THIRTY_ONE}"),
            Block("kitty", 1, f"lives in the kitty / {MAX_PLAYERS * START_LIVES}"),
            Block("options", 2, "three_of_a_kind = 30.5; manual_31"),
        ]
    )

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        options = game.options
        self._options = (options["three_of_a_kind"] == "30.5", bool(options["manual_31"]))

    def encode_into(self, state: State, seat: int, out: MutableSequence[float]) -> None:
        """:meth:`write` of ``state.observation(seat)``, from the fields it is built of."""
        assert isinstance(state, ThirtyOneState)
        players = state.game.players
        lives = state.lives
        phase = state.phase
        holds = phase != OVER and state.alive[seat]
        turn = state.turn if phase in (TURN, DISCARD_PHASE) else None
        gone = [s for s in range(players) if not lives[s]]
        self.fast_shared(out, state, seat, holds, turn, gone, state.stock.size)
        at = self._at
        base = at["lives"]
        circling = at["circling"]
        kitty = 0
        for other, left in enumerate(lives):
            rel = (other - seat) % players
            if left:
                out[base + rel] = left / START_LIVES
            if left == 1:
                out[circling + rel] = 1.0
            kitty += min(3, START_LIVES - left)
        base = at["declared"]
        for other in state.declared:
            out[base + (other - seat) % players] = 1.0
        hand = state.hands[seat]
        if holds and len(hand) == 3:
            value = state.game.value(hand)
            declarable = phase == CHECK and seat in state.pending
            counts = DEAD_31 if value == THIRTY_ONE and not declarable else value
            out[at["value"]] = value / THIRTY_ONE
            out[at["value"] + 1] = counts / THIRTY_ONE
        out[at["kitty"]] = kitty / (MAX_PLAYERS * START_LIVES)
        base = at["options"]
        out[base], out[base + 1] = self._options

    def write(self, obs: Observation, out: Features) -> None:
        self.write_shared(obs, out)
        out.per_seat("lives", obs["lives"], START_LIVES)
        out.seats("declared", obs["declared"])
        out.seats("circling", obs["circling_the_drain"])
        if "value" in obs:
            out.put("value", 0, obs["value"] / THIRTY_ONE)
            out.put("value", 1, obs["counts"] / THIRTY_ONE)
        out.put("kitty", 0, obs["kitty"] / (MAX_PLAYERS * START_LIVES))
        options = self.game.options
        out.put("options", 0, options["three_of_a_kind"] == "30.5")
        out.put("options", 1, bool(options["manual_31"]))
