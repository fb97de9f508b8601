"""Triple Topper Toe: the rules engine (the rules it plays: rules/toe.md).

Two players, X and O, mark cells of a 4x4x4 cube with cards: a card marks the
cell of its color (row), shape (column) and number (layer), and its wild values
let the player choose.  On a turn a player either discards 2 or 3 cards face
down and refills, or draws one card and plays one of four.  Four of one's marks
in a line win at once.  In the Quiz Show variation turns are earned by
answering questions.

Cards are ints of :mod:`tripletopper.cards.triple_topper`, cells ints of
:mod:`.board`.  Actions are tuples:

- ``("draw",)``; ``("discard", cards)`` with 2 or 3 cards, ascending;
- ``("play", card, cell)``, ``cell`` = :data:`WASTED` for a card that fits no free cell;
- Quiz Show: ``("buzz",)``, ``("answer", choice)`` and ``("timeout",)``, played only by
  the table's clock (the :data:`~tripletopper.engine.CLOCK` seat).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import TRIPLE_TOPPER, WILDS
from tripletopper.engine import (
    CLOCK_ONLY,
    TABLE,
    Action,
    ActionCodec,
    ActionKind,
    CardParam,
    CardsParam,
    Event,
    Game,
    Option,
    Results,
    Rng,
    State,
    Stock,
)
from tripletopper.engine.actions import Param
from tripletopper.engine.options import validate_options
from tripletopper.errors import InvalidOptionError, MalformedActionError
from tripletopper.games.toe.board import (
    CELL_NAMES,
    CELLS,
    FITS,
    FITS_SET,
    LINES,
    LINES_THROUGH,
    NATURAL,
)
from tripletopper.games.toe.narration import describe_event
from tripletopper.games.toe.questions import BUILTIN, LETTERS, QuestionBank
from tripletopper.games.toe.world import build_world

WASTED = CELLS
"""The ``cell`` of a wasted play: the card fits no free cell and marks nothing."""
HAND = 3
TURN, PLAY, BUZZ, ANSWER, OVER = range(5)
PHASE_NAMES = ("turn", "play", "buzz", "answer", "over")
SYMBOLS = ("X", "O")
QUIZ = {"quiz": True}
"""What the Quiz Show's own options require (forms show them only then)."""

DRAW: Action = ("draw",)
BUZZ_ACTION: Action = ("buzz",)
TIMEOUT: Action = ("timeout",)
ANSWERS: tuple[Action, ...] = tuple(("answer", i) for i in range(len(LETTERS)))
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(("play", card, cell) for cell in range(CELLS + 1)) for card in range(125)
)
"""``PLAYS[card][cell]``: every play action made once."""
_ALONE = ((0,), (1,))
_BOTH = (0, 1)
_NONE: tuple[int, ...] = ()
_fmt = TRIPLE_TOPPER.names
FULL_DECK = tuple(range(125))


def _cards(cards: Sequence[Card]) -> list[str]:
    return [_fmt[c] for c in cards]


class CellParam(Param):
    """A cell of the board, named by its natural card; ``wasted`` (wire: null) for none.

    In text the cell follows the word ``at``: ``play KB? at GS1``, ``play RC1 wasted``;
    like a card, it may be named in a long form (``at green square 1``).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._card = CardParam(name, TRIPLE_TOPPER)

    def to_wire(self, value: int) -> str | None:
        return None if value == WASTED else CELL_NAMES[value]

    def from_wire(self, raw: Any) -> int:
        if raw is None or (isinstance(raw, str) and raw.lower() == "wasted"):
            return WASTED
        if not isinstance(raw, str):
            raise MalformedActionError("cell must be a cell name like 'GS1' (or null: wasted)")
        try:
            card = TRIPLE_TOPPER.parse(raw)
        except ValueError:
            card = -1
        if card < 0 or WILDS[card]:
            raise MalformedActionError(
                f"{raw!r} is not a cell: name a cell by its natural card, like 'GS1'"
            )
        return NATURAL.index(card)

    def to_text(self, value: int) -> str:
        return "wasted" if value == WASTED else f"at {CELL_NAMES[value]}"

    def from_text(self, tokens: list[str], at: int) -> tuple[int, int]:
        if at < len(tokens) and tokens[at].lower() == "at":
            at += 1
        if at >= len(tokens):
            raise self._missing()
        if tokens[at].lower() == "wasted":
            return WASTED, at + 1
        try:
            card, end = self._card.from_text(tokens, at)
        except MalformedActionError:
            return self.from_wire(tokens[at]), at + 1  # says what a cell is
        return self.from_wire(_fmt[card]), end


class LetterParam(Param):
    """A multiple-choice answer: index 0-5 written as the letter A-F."""

    def __init__(self, name: str) -> None:
        self.name = name

    def to_wire(self, value: int) -> str:
        return LETTERS[value]

    def from_wire(self, raw: Any) -> int:
        if isinstance(raw, str) and len(raw.strip()) == 1 and raw.strip().upper() in LETTERS:
            return LETTERS.index(raw.strip().upper())
        raise MalformedActionError(f"{self.name} must be a letter from A to {LETTERS[-1]}")

    def to_text(self, value: int) -> str:
        return LETTERS[value]

    def from_text(self, tokens: list[str], at: int) -> tuple[int, int]:
        if at >= len(tokens):
            raise self._missing()
        return self.from_wire(tokens[at]), at + 1


_CARD = CardParam("card", TRIPLE_TOPPER)


def _canonical(action: Action) -> Action:
    """Discards list their cards in ascending order (the form legal actions use)."""
    if action[0] == "discard" and isinstance(action[1], tuple):
        return ("discard", tuple(sorted(action[1])))
    return action


class Toe(Game):
    """Triple Topper Toe for 2 players (options: see ``options_schema``).

    With ``quiz=True`` the game needs a question bank: ``bank=`` takes a
    :class:`~tripletopper.games.toe.questions.QuestionBank` (the ``questions``
    option then names it).  :func:`tripletopper.question_banks.make_game` loads
    the shipped bank or a registered user bank for you.
    """

    name = "toe"
    title = "Triple Topper Toe"
    min_players = 2
    max_players = 2
    deck = TRIPLE_TOPPER
    options_schema = (
        Option("quiz", "bool", False, "the Quiz Show variation: turns are earned by answering"),
        Option(
            "max_turns",
            "int",
            400,
            "the game is drawn after this many turns without a winner",
            minimum=1,
            maximum=100_000,
        ),
        Option(
            "buzz_seconds",
            "float",
            3.0,
            "Quiz Show: a question nobody buzzes for in this time is discarded",
            minimum=0.5,
            maximum=600,
            requires=QUIZ,
        ),
        Option(
            "answer_seconds",
            "float",
            10.0,
            "Quiz Show: time to answer after buzzing (no answer counts as wrong); 0 = no limit",
            minimum=0,
            maximum=600,
            requires=QUIZ,
        ),
        Option(
            "max_questions",
            "int",
            1000,
            "Quiz Show: after this many questions the game is "
            "drawn (a tiebreak that reaches it is a shared draw)",
            minimum=1,
            maximum=100_000,
            requires=QUIZ,
        ),
        Option(
            "questions",
            "text",
            BUILTIN,
            "Quiz Show: the question bank, 'builtin' or a "
            "user bank's name@digest (in the terminal, its file is given with --questions)",
            requires=QUIZ,
        ),
    )
    codec = ActionCodec(
        [
            ActionKind("draw", (), "draw a card (seen by you only), then play one of your 4"),
            ActionKind(
                "discard",
                (CardsParam("cards", TRIPLE_TOPPER, 2, 3),),
                "discard 2 or 3 cards face down and refill your hand to 3",
            ),
            ActionKind(
                "play",
                (_CARD, CellParam("cell")),
                "play a card face up and mark a cell it fits (or 'wasted' if none is free)",
            ),
            ActionKind("buzz", (), "Quiz Show: buzz in to answer the question"),
            ActionKind("answer", (LetterParam("choice"),), "Quiz Show: answer A, B, C, ..."),
            ActionKind("timeout", (), "time is up (the table clock's action, not a player's)"),
        ]
    )
    setup_keys = ("x", "question_order")
    score_units = ("mark", "marks")

    bank: QuestionBank | None

    def __init__(self, players: int = 2, *, bank: QuestionBank | None = None, **options: object):
        if bank is not None:
            given = options.get("questions")
            if given is not None and given != bank.ident:
                raise InvalidOptionError(
                    f"option 'questions' is {given!r} but the bank given is {bank.ident!r}"
                )
            options["questions"] = bank.ident
        super().__init__(players, **options)
        self.quiz = bool(self.options["quiz"])
        if self.quiz and bank is None:
            raise InvalidOptionError(
                f"the Quiz Show needs its question bank {self.options['questions']!r}: make the "
                "game with tripletopper.question_banks.make_game, or pass bank="
            )
        self.bank = bank if self.quiz else None
        self.max_turns = int(self.options["max_turns"])
        self.max_questions = int(self.options["max_questions"])
        self.buzz_seconds = float(self.options["buzz_seconds"])
        self.answer_seconds = float(self.options["answer_seconds"])

    @classmethod
    def bank_needed(cls, players: int, options: Mapping[str, object]) -> str | None:
        """The id of the question bank these options need (None without the Quiz Show)."""
        values = validate_options(cls.name, cls.options_schema, players, options)
        return str(values["questions"]) if values["quiz"] else None

    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> ToeState:
        self.check_setup(setup)
        x = setup.get("x")
        if x is not None and (not isinstance(x, int) or isinstance(x, bool) or x not in (0, 1)):
            raise InvalidOptionError("x must be the seat of X: 0 or 1")
        stacked_questions = setup.get("question_order")
        qorder: list[int] = []
        if stacked_questions is not None:
            size = len(self.bank) if self.bank is not None else 0
            if not self.quiz:
                raise InvalidOptionError("a question order needs the Quiz Show (quiz=true)")
            if not isinstance(stacked_questions, list | tuple) or not all(
                isinstance(q, int) and not isinstance(q, bool) and 0 <= q < size
                for q in stacked_questions
            ):
                raise InvalidOptionError(
                    f"question_order must be a list of question numbers 0-{size - 1}"
                )
            qorder = list(stacked_questions)
        stacks = self.parse_decks(decks)
        origin = {"seed": seed, "decks": [_cards(d) for d in stacks] or None, "setup": setup}
        return ToeState(self, seed, stacks, x, qorder, origin)

    # --- actions --------------------------------------------------------------------
    def parse_action(self, text: str) -> Action:
        """Text form; ``play GS1`` (a natural card, or ``play green square 1``) is short
        for ``play GS1 at GS1``, and a letter alone (``B``) for ``answer B``."""
        tokens = text.split() if isinstance(text, str) else []
        if len(tokens) == 1 and len(tokens[0]) == 1 and tokens[0].upper() in LETTERS:
            text = f"answer {tokens[0]}"
        if len(tokens) >= 2 and tokens[0].lower() == "play":
            card, end = _CARD.from_text(tokens, 1)
            if end == len(tokens):  # no cell named: the card's own
                if WILDS[card]:
                    raise MalformedActionError(
                        f"{_fmt[card]} is wild: say which cell, e.g. 'play {_fmt[card]} at "
                        f"{CELL_NAMES[FITS[card][0]]}'"
                    )
                text = f"play {_fmt[card]} at {_fmt[card]}"
        return _canonical(self.codec.from_text(text))

    def action_from_wire(self, raw: object) -> Action:
        return _canonical(self.codec.from_wire(raw))

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind == "play":
            card, cell = action[1], action[2]
            if cell == WASTED:
                return f"play {_fmt[card]} (it fits no free cell: the turn is wasted)"
            if WILDS[card]:
                return f"play {_fmt[card]} on {CELL_NAMES[cell]}"
            return f"play {_fmt[card]}"
        if kind == "discard":
            return f"discard {' '.join(_cards(action[1]))} face down and draw {len(action[1])}"
        if kind == "answer":
            return f"answer {LETTERS[action[1]]}"
        return {"draw": "draw a card", "buzz": "buzz in", "timeout": "time is up"}[kind]

    def describe_event(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        return describe_event(event, names)

    def world_from_view(
        self, seat: int, observation: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
    ) -> ToeState:
        return build_world(self, seat, observation, recall, rng)


class ToeState(State):
    __slots__ = (
        "answered",
        "asked",
        "board",
        "buzzer",
        "counts",
        "discards",
        "drawn",
        "epoch",
        "free",
        "hands",
        "last",
        "marks",
        "phase",
        "played",
        "qorder",
        "qpool",
        "question",
        "questions_read",
        "reason",
        "result",
        "rng",
        "stacks",
        "stock",
        "tiebreak",
        "turn",
        "turns",
        "wasted",
        "win_line",
        "x",
    )

    game: Toe

    def __init__(
        self,
        game: Toe,
        seed: int,
        stacks: list[list[Card]],
        x: int | None,
        qorder: list[int],
        origin: dict[str, Any],
    ) -> None:
        self._init_base(game, origin)
        self.rng = Rng(seed)
        self.stacks = stacks
        self.x = self.rng.below(2) if x is None else x  # the coin flip
        self.board = [-1] * CELLS
        self.free = CELLS
        self.counts = [[0] * len(LINES), [0] * len(LINES)]
        self.marks = [0, 0]
        self.hands: list[list[Card]] = [[], []]
        self.discards: list[list[Card]] = [[], []]
        self.played: list[Card] = []
        self.stock = Stock()
        self.stock.fill(FULL_DECK, self.stacks.pop(0) if self.stacks else None)
        self.stock.deal(self.rng, [self.hands[self.x], self.hands[1 - self.x]], HAND)
        self.epoch = 0
        self.drawn = -1
        self.turns = 0
        self.wasted = 0
        self.last: tuple[int, Card, int] | None = None
        self.win_line = -1
        self.result: Results | None = None
        self.reason = ""
        # Quiz Show
        self.qorder = qorder
        self.qpool: list[int] = list(range(len(game.bank))) if game.bank is not None else []
        self.asked: list[int] = []
        """The questions read since the bank was last used up, in order (public)."""
        self.question = -1
        self.questions_read = 0
        self.buzzer = -1
        self.answered: dict[str, Any] | None = None
        self.tiebreak = False
        if game.quiz:
            self.turn = -1
            self._next_question(None)
        else:
            self.turn = self.x
            self.phase = TURN

    # --- the contract -------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase <= PLAY:
            return _ALONE[self.turn]
        if phase == BUZZ:
            return _BOTH
        if phase == ANSWER:
            return _ALONE[self.buzzer]
        return _NONE

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def results(self) -> Results | None:
        return self.result

    def _legal_for(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == TURN:  # the commonest case, inlined
            # (twin: _legal_actions; tests/test_contract.py compares them)
            if seat != self.turn:
                return []
            a, b, c = sorted(self.hands[seat])
            return [
                DRAW,
                ("discard", (a, b)),
                ("discard", (a, c)),
                ("discard", (b, c)),
                ("discard", (a, b, c)),
            ]
        if phase == PLAY:
            return self._legal_actions(seat) if seat == self.turn else []
        if phase == BUZZ:
            return [BUZZ_ACTION] if seat in _BOTH else []
        if phase == ANSWER and seat == self.buzzer:
            return self._legal_actions(seat)
        return []

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            board = self.board
            acts: list[Action] = []
            for card in self.hands[seat]:
                plays = PLAYS[card]
                fits = [plays[cell] for cell in FITS[card] if board[cell] < 0]
                if fits:
                    acts.extend(fits)
                else:
                    acts.append(plays[WASTED])
            return acts
        if phase == TURN:
            a, b, c = sorted(self.hands[seat])
            return [
                DRAW,
                ("discard", (a, b)),
                ("discard", (a, c)),
                ("discard", (b, c)),
                ("discard", (a, b, c)),
            ]
        if phase == ANSWER:
            return list(ANSWERS[: len(self._bank().questions[self.question].choices)])
        return [BUZZ_ACTION]

    def timeout(self) -> tuple[float, Action] | None:
        if self.phase == BUZZ:
            return (self.game.buzz_seconds, TIMEOUT)
        if self.phase == ANSWER and self.game.answer_seconds > 0:
            return (self.game.answer_seconds, TIMEOUT)
        return None

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        kind = action[0]
        if kind == "discard":  # first: the commonest action of random playouts
            hand = self.hands[seat]
            cards = action[1]
            count = len(cards)
            if count == 3:
                hand.clear()
            else:
                hand.remove(cards[0])
                hand.remove(cards[1])
            self.discards[seat].extend(cards)
            stock = self.stock
            if stock.size >= count:  # the else branch's _draw_card()s, inlined as one deal:
                # guarded by tests/test_engine.py (deal = draws) and test_contract.py (resamples)
                stock.deal(self.rng, [hand], count)
            else:
                hand.extend([self._draw_card(events) for _ in cards])
            if events is not None:
                events.append(
                    Event(
                        "discarded",
                        {"seat": seat, "count": count},
                        {seat: {"cards": _cards(cards), "drew": _cards(hand[-count:])}},
                    )
                )
            self._end_turn(events)
        elif kind == "play":
            self._play(seat, action[1], action[2], events)
        elif kind == "draw":
            card = self._draw_card(events)
            self.hands[seat].append(card)
            self.drawn = card
            self.phase = PLAY
            if events is not None:
                events.append(Event("drew", {"seat": seat}, {seat: {"card": _fmt[card]}}))
        elif kind == "buzz":
            self.buzzer = seat
            self.phase = ANSWER
            if events is not None:
                events.append(Event("buzzed", {"seat": seat}))
        elif kind == "answer":
            self._answer(seat, action[1], events)
        else:  # the clock's timeout
            if self.phase == ANSWER:
                if events is not None:
                    events.append(Event("timed_out", {"phase": "answer", "seat": self.buzzer}))
                self._answer(self.buzzer, -1, events)
            else:
                if events is not None:
                    events.append(Event("timed_out", {"phase": "buzz"}))
                self._next_question(events)

    def _explain_illegal(self, seat: int, action: Action) -> str | None:
        kind = action[0]
        if kind == "timeout":
            return CLOCK_ONLY
        if seat == TABLE:
            return "Toe has no table actions"
        phase = self.phase
        hand = self.hands[seat]
        if phase in (BUZZ, ANSWER):
            if kind == "answer" and phase == BUZZ:
                return "buzz in first"
            if kind == "answer":
                count = len(self._bank().questions[self.question].choices)
                return f"choose one of A to {LETTERS[count - 1]}"
            return "it is question time: buzz in or answer" if phase == BUZZ else "answer now"
        if kind in ("buzz", "answer"):
            return "there is no question now (quiz=false or not question time)"
        if phase == TURN:
            if kind == "play":
                return "draw first (or discard 2 or 3 cards)"
            if kind == "discard":
                missing = [c for c in action[1] if c not in hand]
                if missing:
                    return f"{_fmt[missing[0]]} is not in your hand"
            return None
        if kind in ("draw", "discard"):
            return "you drew: play one of your 4 cards"
        card, cell = action[1], action[2]
        if card not in hand:
            return f"{_fmt[card]} is not in your hand"
        free = [c for c in FITS[card] if self.board[c] < 0]
        if cell == WASTED:
            return f"{_fmt[card]} fits a free cell ({CELL_NAMES[free[0]]}): mark one"
        if cell not in FITS_SET[card]:
            return f"{_fmt[card]} does not fit {CELL_NAMES[cell]}"
        if free:
            return f"{CELL_NAMES[cell]} is taken; {_fmt[card]} fits {len(free)} free cell(s)"
        return f"{CELL_NAMES[cell]} is taken and {_fmt[card]} fits no free cell: play it wasted"

    # --- the flow -----------------------------------------------------------------------
    def _bank(self) -> QuestionBank:
        bank = self.game.bank
        assert bank is not None
        return bank

    def _draw_card(self, events: list[Event] | None) -> Card:
        if not self.stock.size:
            self._reshuffle(events)
        return self.stock.draw(self.rng)

    def _reshuffle(self, events: list[Event] | None) -> None:
        """The stock ran out: face-down discards and played cards make a new stock."""
        discards, played = self.discards, self.played
        pool = played + discards[0] + discards[1]
        self.epoch += 1
        self.played = []
        self.discards = [[], []]
        self.stock.fill(pool, self.stacks.pop(0) if self.stacks else None)
        if events is not None:
            events.append(Event("reshuffled", {"stock_size": len(pool)}))

    def _play(self, seat: int, card: Card, cell: int, events: list[Event] | None) -> None:
        self.hands[seat].remove(card)
        self.played.append(card)
        self.drawn = -1
        won = -1
        if cell == WASTED:
            self.wasted += 1
        else:
            self.board[cell] = seat
            self.free -= 1
            self.marks[seat] += 1
            self.last = (cell, card, seat)
            counts = self.counts[seat]
            for line in LINES_THROUGH[cell]:
                counts[line] += 1
                if counts[line] == 4:
                    won = line
        if events is not None:
            data: dict[str, Any] = {"seat": seat, "card": _fmt[card]}
            data["cell"] = None if cell == WASTED else CELL_NAMES[cell]
            data["mark"] = SYMBOLS[seat != self.x]
            events.append(Event("played", data))
        if won >= 0:
            self.win_line = won
            self._end_game(seat, "line", events)
            return
        self._end_turn(events)

    def _end_turn(self, events: list[Event] | None) -> None:
        self.turns += 1
        if not self.free:
            self._drawn_game("full", events)
        elif self.turns >= self.game.max_turns:
            self._drawn_game("max_turns", events)
        elif self.game.quiz:
            self._next_question(events)
        else:
            self.turn = 1 - self.turn
            self.phase = TURN

    def _drawn_game(self, reason: str, events: list[Event] | None) -> None:
        """A draw; in the Quiz Show more marks win, and equal marks go to a tiebreaker."""
        if not self.game.quiz:
            self._end_game(-1, reason, events)
            return
        marks = self.marks
        if marks[0] != marks[1]:
            self._end_game(0 if marks[0] > marks[1] else 1, f"{reason}, more marks", events)
            return
        self.tiebreak = True
        self.reason = reason
        if events is not None:
            events.append(Event("tiebreak", {"reason": reason, "marks": marks.copy()}))
        self._next_question(events)

    def _next_question(self, events: list[Event] | None) -> None:
        """Read a new question (or end the game when the question limit is reached)."""
        self.buzzer = -1
        self.turn = -1
        if self.questions_read >= self.game.max_questions:
            if self.tiebreak:
                self._end_game(-1, f"{self.reason}, tiebreak unanswered", events)
            else:
                self._drawn_game("max_questions", events)
            return
        pool = self.qpool
        if not pool:  # every question was read: the bank is used again
            pool.extend(range(len(self._bank())))
            self.asked = []
        if self.qorder:  # a stacked order: its next question, if it is still unread
            wanted = self.qorder.pop(0)
            index = pool.index(wanted) if wanted in pool else self.rng.below(len(pool))
        else:
            index = self.rng.below(len(pool))
        pool[index], pool[-1] = pool[-1], pool[index]
        self.question = pool.pop()
        self.asked.append(self.question)
        self.questions_read += 1
        self.phase = BUZZ
        if events is not None:
            events.append(Event("question", self._question_view()))

    def _question_view(self) -> dict[str, Any]:
        question = self._bank().questions[self.question]
        return {
            "number": self.questions_read,
            "id": self.question,
            "text": question.text,
            "choices": list(question.choices),
            "category": question.category,
            "difficulty": question.difficulty,
            "tiebreak": self.tiebreak,
        }

    def _answer(self, seat: int, choice: int, events: list[Event] | None) -> None:
        question = self._bank().questions[self.question]
        correct = choice == question.answer
        earner = seat if correct else 1 - seat
        self.answered = {
            "number": self.questions_read,
            "seat": seat,
            "choice": LETTERS[choice] if choice >= 0 else None,
            "correct": correct,
            "answer": LETTERS[question.answer],
            "answer_text": question.choices[question.answer],
            "earned_by": earner,
        }
        if events is not None:
            events.append(Event("answered", dict(self.answered, tiebreak=self.tiebreak)))
        if self.tiebreak:
            self._end_game(earner, f"{self.reason}, tiebreaker", events)
            return
        self.turn = earner
        self.buzzer = -1
        self.phase = TURN

    def _end_game(self, winner: int, reason: str, events: list[Event] | None) -> None:
        self.phase = OVER
        self.turn = -1
        self.reason = reason
        scores = (float(self.marks[0]), float(self.marks[1]))
        if winner < 0:
            self.result = Results((), scores, ((0, 1),))
        else:
            self.result = Results((winner,), scores, ((winner,), (1 - winner,)))
        if events is not None:
            data = self.result.to_json()
            data["reason"] = reason
            data["marks"] = self.marks.copy()
            data["line"] = _cells(LINES[self.win_line]) if self.win_line >= 0 else None
            events.append(Event("game_over", data))

    # --- views ------------------------------------------------------------------------
    def hints(self, seat: int | None) -> dict[str, Any]:
        """Threats, from the board alone: every line holding three marks of one player and
        a free fourth cell, which that player wins by marking (X's first)."""
        if self.phase == OVER:
            return {}
        board = self.board
        threats = []
        for s in (self.x, 1 - self.x):
            counts, theirs = self.counts[s], self.counts[1 - s]
            for i, line in enumerate(LINES):
                if counts[i] == 3 and not theirs[i]:
                    free = next(cell for cell in line if board[cell] < 0)
                    threats.append(
                        {
                            "seat": s,
                            "mark": SYMBOLS[s != self.x],
                            "line": _cells(line),
                            "cell": CELL_NAMES[free],
                        }
                    )
        return {"threats": threats}

    def board_text(self) -> str:
        """The board as 64 characters, one per cell in cell order: ``X``, ``O`` or ``.``."""
        marks = (".", SYMBOLS[self.x != 0], SYMBOLS[self.x != 1])
        return "".join(marks[v + 1] for v in self.board)

    def _observe(self, seat: int | None) -> dict[str, Any]:
        phase = self.phase
        obs: dict[str, Any] = {
            "game": self.game.name,
            "seat": seat,
            "x": self.x,
            "phase": PHASE_NAMES[phase],
            "turn": self.turn if self.turn >= 0 else None,
            "to_act": list(self.to_act()),
            "turns": self.turns,
            "max_turns": self.game.max_turns,
            "board": self.board_text(),
            "marks": self.marks.copy(),
            "last": None,
            "line": _cells(LINES[self.win_line]) if self.win_line >= 0 else None,
            "hand_sizes": [len(h) for h in self.hands],
            "stock_size": self.stock.size,
            "discard_counts": [len(d) for d in self.discards],
            "played": _cards(self.played),
            "reshuffles": self.epoch,
            "wasted": self.wasted,
            "result": None,
        }
        if self.last is not None:
            cell, card, by = self.last
            obs["last"] = {"cell": CELL_NAMES[cell], "card": _fmt[card], "seat": by}
        if self.result is not None:
            obs["result"] = dict(self.result.to_json(), reason=self.reason)
        if self.game.quiz:
            obs["quiz"] = {
                "bank": self.game.options["questions"],
                "questions_read": self.questions_read,
                "max_questions": self.game.max_questions,
                "question": self._question_view() if phase in (BUZZ, ANSWER) else None,
                "buzzer": self.buzzer if phase == ANSWER else None,
                "last_answer": self.answered,
                "tiebreak": self.tiebreak,
                "tiebreak_reason": self.reason if self.tiebreak else None,
                "asked": self.asked.copy(),
            }
        if seat is not None and phase != OVER:
            hand = self.hands[seat]
            obs["hand"] = _cards(hand)
            obs["drawn"] = _fmt[self.drawn] if self.drawn >= 0 and seat == self.turn else None
            obs["my_discards"] = _cards(self.discards[seat])
        return obs

    def stats(self) -> dict[str, float]:
        out = {
            "turns": float(self.turns),
            "marks": float(self.marks[0] + self.marks[1]),
            "wasted": float(self.wasted),
            "reshuffles": float(self.epoch),
            "draws": float(self.result is not None and not self.result.winners),
            "x_wins": float(self.result is not None and self.result.winners == (self.x,)),
        }
        if self.game.quiz:
            out["questions"] = float(self.questions_read)
            out["tiebreaks"] = float(self.tiebreak)
        return out

    def dump(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "stacks": [_cards(s) for s in self.stacks],
            "x": self.x,
            "board": self.board.copy(),
            "free": self.free,
            "counts": [c.copy() for c in self.counts],
            "marks": self.marks.copy(),
            "hands": [_cards(h) for h in self.hands],
            "discards": [_cards(d) for d in self.discards],
            "played": _cards(self.played),
            "stock": _cards(self.stock.contents()),
            "stock_array": _cards(self.stock.cards),
            "stock_ordered": self.stock.ordered,
            "epoch": self.epoch,
            "drawn": self.drawn,
            "turn": self.turn,
            "turns": self.turns,
            "wasted": self.wasted,
            "phase": PHASE_NAMES[self.phase],
            "last": self.last,
            "win_line": self.win_line,
            "reason": self.reason,
            "result": self.result.to_json() if self.result else None,
            "qorder": self.qorder.copy(),
            "qpool": self.qpool.copy(),
            "asked": self.asked.copy(),
            "question": self.question,
            "questions_read": self.questions_read,
            "buzzer": self.buzzer,
            "answered": self.answered,
            "tiebreak": self.tiebreak,
            "history": [(s, list(a)) for s, a in self.history],
        }

    # --- search support ---------------------------------------------------------------
    def clone(self) -> ToeState:
        twin = ToeState.__new__(ToeState)
        twin._copy_base(self)
        twin.rng = self.rng.clone()
        twin.stacks = [s.copy() for s in self.stacks]
        twin.x = self.x
        twin.board = self.board.copy()
        twin.free = self.free
        twin.counts = [self.counts[0].copy(), self.counts[1].copy()]
        twin.marks = self.marks.copy()
        twin.hands = [self.hands[0].copy(), self.hands[1].copy()]
        twin.discards = [self.discards[0].copy(), self.discards[1].copy()]
        twin.played = self.played.copy()
        twin.stock = self.stock.clone()
        twin.epoch = self.epoch
        twin.drawn = self.drawn
        twin.turn = self.turn
        twin.turns = self.turns
        twin.wasted = self.wasted
        twin.phase = self.phase
        twin.last = self.last
        twin.win_line = self.win_line
        twin.result = self.result
        twin.reason = self.reason
        twin.qorder = self.qorder.copy()
        twin.qpool = self.qpool.copy()
        twin.asked = self.asked.copy()
        twin.question = self.question
        twin.questions_read = self.questions_read
        twin.buzzer = self.buzzer
        twin.answered = self.answered
        twin.tiebreak = self.tiebreak
        return twin

    def resample(self, seat: int, rng: Rng) -> ToeState:
        """Redeal what ``seat`` cannot see: the stock, the other hand and the other's
        face-down discards.

        The seat knows its own hand and discards and every played card.  After a
        reshuffle it cannot tell which of the other's cards were drawn before it (a
        player's face-down discards do not say which cards they were), so every
        unseen slot is dealt from every card the seat cannot place, as a world built
        from its view is (``world_from_view``): the true draw times would tell it how
        many old cards the other still holds.  Future chance (draws, questions) is
        reseeded from ``rng``.
        """
        twin = self.clone()
        twin.rng = Rng(rng.bits())
        twin.stacks = []
        twin.qorder = []
        twin.stock.unstack()
        if self.phase == OVER:
            return twin
        other = 1 - seat
        slots = [
            (where, i)
            for where, cards in enumerate((self.hands[other], self.discards[other]))
            for i in range(len(cards))
        ]
        pool: list[Card] = [*twin.stock.contents(), *self.hands[other], *self.discards[other]]
        places = (twin.hands[other], twin.discards[other])
        twin.stock.replace(deal_unseen(slots, pool, places, rng))
        if self.drawn in self.hands[other]:
            twin.drawn = places[0][self.hands[other].index(self.drawn)]
        return twin


def deal_unseen(
    slots: list[tuple[int, int]], pool: list[Card], places: tuple[list[Card], list[Card]], rng: Rng
) -> list[Card]:
    """Deal ``pool`` into the unseen ``(0 = hand / 1 = discards, index)`` slots of
    ``places``, each from every card left; returns the rest, the stock."""
    pool.sort()  # by card: nothing of the true order
    for where, i in sorted(slots):
        j = rng.below(len(pool))
        pool[j], pool[-1] = pool[-1], pool[j]
        places[where][i] = pool.pop()
    return pool


def _cells(cells: Sequence[int]) -> list[str]:
    return [CELL_NAMES[c] for c in cells]
