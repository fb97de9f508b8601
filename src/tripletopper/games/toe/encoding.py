"""Toe's fixed action space and observation layout (``engine/encoding.py``).

Cards in actions are named by their *slot*, their place in the seat's ``hand`` as
its observation lists it (up to 4 cards: 3, and the one just drawn), so the space
stays small (278) and an index's card depends on the observation (``relative``).

>>> from tripletopper.games.toe import Toe
>>> enc = ToeEncoding(Toe(2))
>>> obs = {"hand": ["RC1", "GS2", "BT3"]}
>>> enc.index_to_action(1, obs), enc.action_to_index(("play", 42, 64), obs)
(('discard', (0, 42)), 140)
"""

from __future__ import annotations

from collections.abc import MutableSequence
from itertools import combinations

from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE, TRIPLE_TOPPER
from tripletopper.engine import State
from tripletopper.engine.actions import Action
from tripletopper.engine.encoding import (
    Block,
    Encoding,
    Features,
    Layout,
    Observation,
    card_lookup,
)
from tripletopper.games.toe.board import CELL_NAMES, CELLS, FITS
from tripletopper.games.toe.questions import LETTERS
from tripletopper.games.toe.rules import (
    ANSWER,
    BUZZ,
    OVER,
    PHASE_NAMES,
    SYMBOLS,
    WASTED,
    ToeState,
)

SLOTS = 4
DISCARDS: tuple[tuple[int, ...], ...] = (
    *combinations(range(SLOTS), 2),
    *combinations(range(SLOTS), 3),
)
"""Which slots a ``discard`` names: 10 sets of 2 or 3 slots."""
_DISCARD_INDEX = {slots: i for i, slots in enumerate(DISCARDS)}
DISCARD_AT = 1
PLAY_AT = DISCARD_AT + len(DISCARDS)
TARGETS = CELLS + 1
"""A play's cell 0-63, or 64: wasted."""
BUZZ_AT = PLAY_AT + SLOTS * TARGETS
ANSWER_AT = BUZZ_AT + 1
_CARD = card_lookup(TRIPLE_TOPPER)
_CELL = {name: cell for cell, name in enumerate(CELL_NAMES)}
_NAMES = TRIPLE_TOPPER.names
CARDS = TRIPLE_TOPPER.size


class ToeEncoding(Encoding):
    """draw (0), ``discard`` slots (1-10), ``play`` slot ``s`` at cell ``c`` (64 =
    wasted) at ``11 + 65 s + c``, buzz (271), answer A-F (272-277)."""

    actions = ANSWER_AT + len(LETTERS)
    relative = True
    layout = Layout(
        [
            Block("board", CELLS * 3, "per cell: free, own mark, opponent's mark"),
            Block("hand", SLOTS * 16, "per hand slot: held, color 0-4, shape 0-4, number 0-4"),
            Block("fits", SLOTS * CELLS, "per hand slot: the cells its card fits"),
            Block("played", CARDS, "cards played face up, one-hot per card"),
            Block("my_discards", CARDS, "own face-down discards, one-hot per card"),
            Block("last", CELLS, "the cell marked last"),
            Block("phase", len(PHASE_NAMES), "phase one-hot: " + ", ".join(PHASE_NAMES)),
            Block("turn", 2, "relative seat whose turn it is"),
            Block("is_x", 1, "this seat plays X (moved first)"),
            Block("marks", 2, "marks per relative seat / 32"),
            Block("sizes", 4, "hand sizes / 4 and discards / 125 per relative seat"),
            Block("scalars", 4, "stock / 125, turns / max_turns, wasted / 10, reshuffles / 4"),
            Block(
                "quiz",
                4 + len(LETTERS),
                "quiz on, a question up, this seat buzzed, "
                "questions read / max, then the answer letters offered",
            ),
        ]
    )

    def action_to_index(self, action: Action, obs: Observation | None) -> int:
        kind = action[0]
        if kind == "draw" and len(action) == 1:
            return 0
        if kind == "buzz" and len(action) == 1:
            return BUZZ_AT
        if kind == "answer" and len(action) == 2 and action[1] in range(len(LETTERS)):
            return ANSWER_AT + int(action[1])
        assert obs is not None
        hand = [_CARD[name] for name in obs.get("hand") or ()]
        try:
            if kind == "discard":
                slots = tuple(sorted(hand.index(card) for card in action[1]))
                return DISCARD_AT + _DISCARD_INDEX[slots]
            if kind == "play" and action[2] in range(TARGETS):
                return PLAY_AT + hand.index(action[1]) * TARGETS + int(action[2])
        except (KeyError, TypeError, ValueError):
            pass
        raise self._outside(action)

    def index_to_action(self, index: int, obs: Observation | None) -> Action:
        if index == 0:
            return ("draw",)
        if index == BUZZ_AT:
            return ("buzz",)
        if ANSWER_AT <= index < self.actions:
            return ("answer", index - ANSWER_AT)
        assert obs is not None
        hand = [_CARD[name] for name in obs.get("hand") or ()]
        if DISCARD_AT <= index < PLAY_AT:
            slots = DISCARDS[index - DISCARD_AT]
            if slots[-1] < len(hand):
                return ("discard", tuple(sorted(hand[s] for s in slots)))
        elif PLAY_AT <= index < BUZZ_AT:
            slot, cell = divmod(index - PLAY_AT, TARGETS)
            if slot < len(hand):
                return ("play", hand[slot], cell)
        raise ValueError(f"index {index} names no action of this hand ({obs.get('hand')})")

    def context(self, state: State, seat: int) -> Observation:
        """The part of the observation the index methods read: the seat's ``hand``."""
        assert isinstance(state, ToeState)
        return {} if state.phase == OVER else {"hand": [_NAMES[c] for c in state.hands[seat]]}

    def encode_into(self, state: State, seat: int, out: MutableSequence[float]) -> None:
        """:meth:`write` of ``state.observation(seat)``, from the fields it is built of."""
        assert isinstance(state, ToeState)
        at = self.layout.offset
        phase = state.phase
        base = at["board"]
        for cell, mark in enumerate(state.board):
            out[base + cell * 3 + (0 if mark < 0 else 1 if mark == seat else 2)] = 1.0
        if phase != OVER:
            hand, fits = at["hand"], at["fits"]
            for slot, card in enumerate(state.hands[seat]):
                first = hand + slot * 16
                out[first] = 1.0
                out[first + 1 + COLOR[card]] = 1.0
                out[first + 6 + SHAPE[card]] = 1.0
                out[first + 11 + NUMBER[card]] = 1.0
                first = fits + slot * CELLS
                for cell in FITS[card]:
                    out[first + cell] = 1.0
            base = at["my_discards"]
            for card in state.discards[seat]:
                out[base + card] = 1.0
        base = at["played"]
        for card in state.played:
            out[base + card] = 1.0
        if state.last is not None:
            out[at["last"] + state.last[0]] = 1.0
        out[at["phase"] + phase] = 1.0
        if state.turn >= 0:
            out[at["turn"] + (state.turn - seat) % 2] = 1.0
        out[at["is_x"]] = state.x == seat
        base, sizes = at["marks"], at["sizes"]
        for other in range(2):
            rel = (other - seat) % 2
            out[base + rel] = state.marks[other] / 32
            out[sizes + rel] = len(state.hands[other]) / 4
            out[sizes + 2 + rel] = len(state.discards[other]) / CARDS
        base = at["scalars"]
        out[base] = state.stock.size / CARDS
        out[base + 1] = state.turns / state.game.max_turns
        out[base + 2] = state.wasted / 10
        out[base + 3] = state.epoch / 4
        game = state.game
        if game.quiz:
            base = at["quiz"]
            out[base] = 1.0
            asked = phase in (BUZZ, ANSWER)
            out[base + 1] = asked
            out[base + 2] = phase == ANSWER and state.buzzer == seat
            out[base + 3] = state.questions_read / game.max_questions
            if asked:
                for letter in range(len(state._bank().questions[state.question].choices)):
                    out[base + 4 + letter] = 1.0

    def write(self, obs: Observation, out: Features) -> None:
        me = obs["seat"]
        mine = SYMBOLS[obs["x"] != me]
        kinds = {".": 0, mine: 1, SYMBOLS[obs["x"] == me]: 2}
        out.ones("board", [cell * 3 + kinds[mark] for cell, mark in enumerate(obs["board"])])
        for slot, name in enumerate(obs.get("hand") or ()):
            card = _CARD[name]
            at = slot * 16
            out.put("hand", at)
            out.put("hand", at + 1 + COLOR[card])
            out.put("hand", at + 6 + SHAPE[card])
            out.put("hand", at + 11 + NUMBER[card])
            out.ones("fits", [slot * CELLS + cell for cell in FITS[card]])
        out.cards("played", obs["played"], _CARD)
        out.cards("my_discards", obs.get("my_discards") or (), _CARD)
        if obs["last"] is not None:
            out.put("last", _CELL[obs["last"]["cell"]])
        out.choice("phase", obs["phase"], PHASE_NAMES)
        out.seat("turn", obs["turn"])
        out.put("is_x", 0, obs["x"] == me)
        out.per_seat("marks", obs["marks"], 32)
        for seat in range(2):
            rel = out.rel(seat)
            out.put("sizes", rel, obs["hand_sizes"][seat] / 4)
            out.put("sizes", 2 + rel, obs["discard_counts"][seat] / CARDS)
        out.put("scalars", 0, obs["stock_size"] / CARDS)
        out.put("scalars", 1, obs["turns"] / obs["max_turns"])
        out.put("scalars", 2, obs["wasted"] / 10)
        out.put("scalars", 3, obs["reshuffles"] / 4)
        quiz = obs.get("quiz")
        if quiz:
            out.put("quiz", 0)
            question = quiz["question"]
            out.put("quiz", 1, question is not None)
            out.put("quiz", 2, quiz["buzzer"] == me)
            out.put("quiz", 3, quiz["questions_read"] / quiz["max_questions"])
            for letter in range(len(question["choices"]) if question else 0):
                out.put("quiz", 4 + letter)


assert WASTED == CELLS  # a wasted play is target 64
