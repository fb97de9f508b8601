"""Toe worlds built from one seat's view (``Game.world_from_view``, docs/engine.md).

The observation carries all a seat may know: the board, its own hand and face-down
discards, the played cards, the sizes of the other hand, discards and stock, and in
the Quiz Show the question on the table and the questions read since the bank was
last used up (public by id: they decide which questions can come next).  What it
cannot place - the other hand, the other's face-down discards and the stock - is
dealt from the cards it cannot place, as ``resample`` deals it.  After a reshuffle
neither keeps a card the seat saw go into the stock out of the other's older slots:
from its view the seat cannot tell which of the other's cards are that old (a
player's face-down discards do not say which cards they were).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from tripletopper.cards.triple_topper import TRIPLE_TOPPER
from tripletopper.engine import Results, Rng, Stock
from tripletopper.games.toe.board import CELL_NAMES, CELLS, LINES, LINES_THROUGH
from tripletopper.games.worlds import check_view, unplaced

if TYPE_CHECKING:
    from tripletopper.games.toe.rules import Toe, ToeState

CELL_OF = {name: cell for cell, name in enumerate(CELL_NAMES)}


def build_world(
    game: Toe, seat: int, obs: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
) -> ToeState:
    from tripletopper.games.toe.rules import PHASE_NAMES, PLAY, SYMBOLS, ToeState, deal_unseen

    check_view(game.name, 2, seat, {**obs, "players": 2})
    parse = TRIPLE_TOPPER.parse
    state = ToeState.__new__(ToeState)
    state._init_base(game, {"seed": None, "decks": None, "setup": {}, "world_of": seat})
    state.rng = Rng(rng.bits())
    state.stacks = []
    state.x = x = int(obs["x"])
    seat_of = {SYMBOLS[x != 0]: 0, SYMBOLS[x != 1]: 1}
    text = obs["board"]
    if len(text) != CELLS:
        raise ValueError("the board has not one mark or '.' per cell")
    state.board = [seat_of.get(mark, -1) for mark in text]
    state.free = state.board.count(-1)
    state.counts = [[0] * len(LINES), [0] * len(LINES)]
    for cell, owner in enumerate(state.board):
        if owner >= 0:
            for line in LINES_THROUGH[cell]:
                state.counts[owner][line] += 1
    state.marks = [int(m) for m in obs["marks"]]
    state.phase = PHASE_NAMES.index(obs["phase"])
    state.turn = int(obs["turn"]) if obs["turn"] is not None else -1
    state.turns = int(obs["turns"])
    state.wasted = int(obs["wasted"])
    last = obs["last"]
    state.last = (CELL_OF[last["cell"]], parse(last["card"]), int(last["seat"])) if last else None
    line = obs["line"]
    state.win_line = [[CELL_NAMES[c] for c in cells] for cells in LINES].index(line) if line else -1
    result = obs["result"]
    state.result = Results.from_json(result) if result else None
    state.reason = result["reason"] if result else ""
    _quiz(state, game, obs)

    # The cards: the seat's own hand and discards and the played ones where they are,
    # -1 in every slot of the other's, the rest dealt from what is left.
    other = 1 - seat
    if "hand" in obs:
        own = [parse(c) for c in obs["hand"]]
        own_discards = [parse(c) for c in obs["my_discards"]]
    else:  # a finished game: nothing left to decide
        own, own_discards = [-1] * obs["hand_sizes"][seat], [-1] * obs["discard_counts"][seat]
    hands = [own, [-1] * int(obs["hand_sizes"][other])]
    discards = [own_discards, [-1] * int(obs["discard_counts"][other])]
    if seat:
        hands.reverse()
        discards.reverse()
    state.hands, state.discards = hands, discards
    state.played = [parse(c) for c in obs["played"]]
    slots = [
        (where, i)
        for where, cards in enumerate((hands[other], discards[other]))
        for i in range(len(cards))
    ]
    mine = [
        (where, i)
        for where, cards in enumerate((own, own_discards))
        for i, card in enumerate(cards)
        if card < 0
    ]
    seen = [*hands, *discards]
    pool = unplaced(125, state.played, seen, len(slots) + len(mine) + int(obs["stock_size"]))
    state.epoch = int(obs["reshuffles"])
    stock = deal_unseen(slots, pool, (hands[other], discards[other]), rng)
    if mine:
        stock = deal_unseen(mine, stock, (own, own_discards), rng)
    state.stock = Stock()
    state.stock.replace(stock)
    state.drawn = -1
    if state.phase == PLAY:  # the card drawn this turn: the last of the hand
        drawn = obs.get("drawn")
        state.drawn = parse(drawn) if drawn else hands[state.turn][-1]
    return state


def _quiz(state: ToeState, game: Toe, obs: Mapping[str, Any]) -> None:
    """The Quiz Show's state: the question on the table, the unread ones, the tiebreak."""
    state.qorder = []
    state.buzzer = -1
    state.question = -1
    state.answered = None
    state.tiebreak = False
    state.questions_read = 0
    state.asked = []
    state.qpool = []
    quiz = obs.get("quiz")
    if game.bank is None or quiz is None:
        return
    state.questions_read = int(quiz["questions_read"])
    state.answered = quiz["last_answer"]
    state.tiebreak = bool(quiz["tiebreak"])
    if state.tiebreak and state.result is None:
        state.reason = str(quiz["tiebreak_reason"])
    if quiz["question"] is not None:
        state.question = int(quiz["question"]["id"])
    if quiz["buzzer"] is not None:
        state.buzzer = int(quiz["buzzer"])
    pool = list(range(len(game.bank)))
    for asked in quiz["asked"]:  # the reads since the bank was last used up, as they went
        index = pool.index(int(asked))
        pool[index], pool[-1] = pool[-1], pool[index]
        pool.pop()
        state.asked.append(int(asked))
    state.qpool = pool
