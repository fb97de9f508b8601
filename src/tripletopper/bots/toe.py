"""Triple Topper Toe players that see only their own observation.

:class:`ToeHeuristic` values a free cell by the lines through it: a line still
open for us is worth more the more of our marks it holds, a line where only the
opponent has marks is worth blocking, a line both have marked is dead.  Then:

- **Play** (after drawing): win at once if a card completes a line; else block
  a line where the opponent has three; else mark the most valuable cell, paying
  a price per wild value spent, so wild cards are kept for critical cells.  A
  card is wasted only when no card of the four can mark a free cell, and then
  the one with the fewest wilds.
- **Turn**: draw when some card of the hand fits a useful free cell, or a line
  must be completed or blocked (the drawn card may do it); otherwise discard
  the 2 or 3 least useful cards (wild cards are kept unless they fit nothing).
- **Quiz Show**: for each question the bot *knows* the answer with probability
  ``accuracy``: it looks the question (its id is in the observation) up in the
  question bank, which is public data, as a player who knows trivia would; it
  buzzes when it knows, after a human-like delay drawn for each question
  (:func:`buzz_delay`: ``buzz`` seconds for a question of typical length, longer
  for a longer one, spread as people's reaction times are), and answers right.
  When it does not know it keeps quiet, or with probability ``guess`` buzzes
  anyway and answers wrong.

:class:`ToeRandom` plays uniformly at random like ``random`` does everywhere,
but in the Quiz Show it buzzes after ``buzz`` seconds (default at once; drawn per
question as the others') and is right with probability ``accuracy`` (default: a
blind guess).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter
from typing import Any, NamedTuple

from tripletopper.bots.base import Bot, Playout, RandomBot, SampledView, SeatView
from tripletopper.bots.ismcts import SearchSpec, within_plies
from tripletopper.bots.levels import searching, sloppy
from tripletopper.cards.triple_topper import TRIPLE_TOPPER, WILDS
from tripletopper.engine import Action, Game, Rng, State
from tripletopper.games.toe import FITS, LINES, LINES_THROUGH, WASTED, Toe, ToeState
from tripletopper.games.toe.board import FITS_SET
from tripletopper.games.toe.rules import ANSWER, BUZZ, DRAW, PHASE_NAMES, PLAY, PLAYS, SYMBOLS, TURN

_parse = TRIPLE_TOPPER.parse
OWN = (1.0, 3.0, 12.0, 10_000.0)
"""Value of marking a cell of a line holding 0-3 of our marks and none of theirs."""
BLOCK = (0.0, 2.0, 9.0, 5_000.0)
"""Value of marking a cell of a line holding 0-3 of their marks and none of ours."""
CRITICAL = 5_000.0
SHORTLIST = 8
"""How many plays the search weighs (the tactician's best)."""
QUIZ_ACTIONS = ("buzz", "answer")
LINE_SLICES = [slice(line[0], line[3] + 1, line[1] - line[0]) for line in LINES]
"""Each line's cells in a board string (a line's cells are evenly spaced)."""
WORTH_THROUGH = [itemgetter(*LINES_THROUGH[cell]) for cell in range(64)]
"""The lines through each cell, picked from a list by line."""


TYPICAL_WORDS = 14
"""Words in a question of typical length, its choices included (the built-in bank's median)."""
BUZZ_SPREAD = 0.3
"""The spread of a bot's buzzing delay: the sigma of its logarithm.  People's reaction and
recall times are skewed to the slow side, as a log-normal is: 90% of the delays fall within
x0.61 to x1.64 of the median."""


def buzz_delay(buzz: float, words: int, rng: Rng) -> float:
    """A human-like delay before buzzing in on a question of ``words`` words (its choices
    included), drawn from ``rng``: log-normal around ``buzz`` seconds for a question of
    :data:`TYPICAL_WORDS` words, growing with the square root of its length (a longer
    question takes longer to read, though nobody reads every word before buzzing)."""
    u = 1.0 - rng.random()  # in (0, 1]
    z = math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * rng.random())  # Box-Muller
    return buzz * math.sqrt(max(words, 1) / TYPICAL_WORDS) * math.exp(BUZZ_SPREAD * z)


class Asked(NamedTuple):
    """The question being read, as every seat sees it (its observation's ``quiz``)."""

    buzzing: bool
    """True while seats may buzz in; False while the buzzer answers."""
    number: int
    """How many questions have been read, this one included."""
    id: int
    """Its index in the game's question bank."""


def asked(view: SeatView) -> Asked | None:
    """The question being read, from the seat's observation (None if none is)."""
    obs = view.observation()
    question = obs["quiz"]["question"] if "quiz" in obs else None
    if question is None:
        return None
    return Asked(obs["phase"] == PHASE_NAMES[BUZZ], question["number"], question["id"])


def _reaction_time(quiz: QuizPlayer | None, view: SeatView) -> float:
    """A seated bot's reaction time: its quiz player's while a question is read, else 0."""
    question = None if quiz is None else asked(view)
    return 0.0 if quiz is None or question is None else quiz.reaction_time(*question)


class QuizPlayer:
    """How a bot plays the questions: knows with ``accuracy``, buzzes after ``buzz`` s.

    Its knowledge is the question bank, which is public (the game's ``bank``, the
    one ``tripletopper.question_banks`` loads): it looks the question up by its id
    and, with chance ``accuracy`` (drawn from the bot's generator, once per question
    read), knows its answer.  A blind guess when ``accuracy`` is None.
    """

    def __init__(
        self, game: Toe, rng: Rng, accuracy: float | None, buzz: float, guess: float = 1.0
    ) -> None:
        self.check(accuracy, buzz, guess)
        self.game = game  # the bank is read through the game (a bot ships without its bank)
        self.rng = rng
        self.accuracy = accuracy
        self.buzz = buzz
        self.guess = guess
        self.question = -1
        self.knows = False
        self.buzzes = False
        self.delay = 0.0
        self.choice = 0

    @staticmethod
    def check(accuracy: float | None, buzz: float, guess: float = 1.0) -> None:
        """Refuse quiz parameters out of range, in a game with the quiz or without."""
        if accuracy is not None and not 0 <= accuracy <= 1:
            raise ValueError("accuracy must be from 0 to 1")
        if not 0 <= guess <= 1:
            raise ValueError("guess must be from 0 to 1")
        if not buzz >= 0:
            raise ValueError("buzz must be 0 seconds or more")

    def _roll(self, number: int, question: int) -> None:
        """Decide about question ``number`` (bank id ``question``), once per question read."""
        self.question = number
        rng = self.rng
        bank = self.game.bank
        assert bank is not None
        entry = bank.questions[question]
        choices = len(entry.choices)
        accuracy = 1.0 / choices if self.accuracy is None else self.accuracy
        self.knows = rng.random() < accuracy
        if self.knows:
            self.choice = entry.answer
        else:
            wrong = [i for i in range(choices) if i != entry.answer]
            self.choice = wrong[rng.below(len(wrong))]
        words = len(entry.text.split()) + sum(len(c.split()) for c in entry.choices)
        self.delay = buzz_delay(self.buzz, words, rng)
        self.buzzes = self.knows or rng.random() < self.guess

    def choose(self, buzzing: bool, number: int, question: int) -> Action | None:
        """The quiz action now (None: keep quiet); the arguments are :class:`Asked`'s."""
        if number != self.question:  # choose may be asked several times per question
            self._roll(number, question)
        if buzzing:
            return ("buzz",) if self.buzzes else None
        return ("answer", self.choice)

    def reaction_time(self, buzzing: bool, number: int, question: int) -> float:
        if number != self.question:
            self._roll(number, question)
        return self.delay if buzzing else 0.0


class ToeRandom(RandomBot):
    """Random moves; in the Quiz Show buzzes after ``buzz`` s, right with ``accuracy``."""

    name = "random"
    description = "picks any legal action at random (Quiz Show: accuracy=, buzz=)"

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        accuracy: float | None = None,
        buzz: float = 0.0,
    ) -> None:
        super().__init__(game, seat, seed)
        self.quiz: QuizPlayer | None = None
        QuizPlayer.check(accuracy, buzz)
        if isinstance(game, Toe) and game.quiz:
            self.quiz = QuizPlayer(game, self.rng, accuracy, buzz)
        if self.quiz is None:  # plain games: the shared random choice, without a detour
            self.choose = super().choose  # type: ignore[method-assign]

    def choose(self, view: SeatView) -> Action:
        if self.quiz is not None:
            legal = view.legal_actions()
            question = asked(view) if legal and legal[0][0] in QUIZ_ACTIONS else None
            if question is not None:
                action = self.quiz.choose(*question)
                assert action is not None  # it always buzzes
                return action
        return super().choose(view)

    def reaction_time(self, view: SeatView) -> float:
        return _reaction_time(self.quiz, view)


class ToeHeuristic(Bot):
    name = "heuristic"
    description = (
        "wins or blocks when it can, values cells by their open lines, keeps wilds for "
        "critical cells (Quiz Show: accuracy=0.7, buzz=2)"
    )

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        accuracy: float = 0.7,
        buzz: float = 2.0,
        guess: float = 0.0,
        wild_cost: float = 2.0,
        useful: float = 3.0,
    ) -> None:
        super().__init__(game, seat, seed)
        assert isinstance(game, Toe)
        QuizPlayer.check(accuracy, buzz, guess)
        self.quiz = QuizPlayer(game, self.rng, accuracy, buzz, guess) if game.quiz else None
        self.wild_cost = wild_cost
        self.useful = useful
        self.valued: tuple[str, str, list[float]] = ("", "", [])
        """The last board and mark valued, and the values (a turn's draw and its play
        see the same board)."""

    def reaction_time(self, view: SeatView) -> float:
        return _reaction_time(self.quiz, view)

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal_actions()
        if self.quiz is not None and legal and legal[0][0] in QUIZ_ACTIONS:
            question = asked(view)
            assert question is not None
            return self.quiz.choose(*question)
        obs = view.observation()
        phase = obs["phase"]
        values = self.cell_values(obs)
        if phase == "play":
            return max(legal, key=lambda action: self.play_value(action, values))
        hand = [_parse(c) for c in obs["hand"]]
        best = [self.card_value(card, values) for card in hand]
        if max(best) >= self.useful or max(values) >= CRITICAL:
            return ("draw",)  # a useful card, or a line to complete or block: one more card
        # No card fits a useful free cell: throw the least useful, keeping live wilds.
        ranked = sorted(
            range(3), key=lambda i: (best[i] >= 0 and WILDS[hand[i]] > 0, best[i], -hand[i])
        )
        keep_one = best[ranked[2]] >= 0 and (WILDS[hand[ranked[2]]] > 0 or best[ranked[2]] > 0)
        throw = ranked[:2] if keep_one else ranked
        return ("discard", tuple(sorted(hand[i] for i in throw)))

    # --- evaluation ------------------------------------------------------------------
    def cell_values(self, obs: dict[str, Any]) -> list[float]:
        """The value of marking each free cell now (-1 for taken cells): the sum over the
        lines through it of the line's worth (every worth is a whole number, so the sum
        is exact in any order)."""
        board = obs["board"]
        me = "X" if obs["x"] == self.seat else "O"
        if self.valued[0] == board and self.valued[1] == me:
            return self.valued[2]
        worth = []
        for marks in map(board.__getitem__, LINE_SLICES):
            m = marks.count(me)
            t = 4 - m - marks.count(".")
            worth.append((0.0 if t else OWN[m]) + (0.0 if m else BLOCK[t]))
        values = [
            -1.0 if mark != "." else sum(getter(worth), 0.0)
            for mark, getter in zip(board, WORTH_THROUGH, strict=True)
        ]
        self.valued = (board, me, values)
        return values

    def card_value(self, card: int, values: list[float]) -> float:
        """The best free cell this card can mark (-1 if it fits none)."""
        return max(values[cell] for cell in FITS[card])

    def play_value(self, action: Action, values: list[float]) -> float:
        card, cell = action[1], action[2]
        if cell == WASTED:
            return -1.0 - self.wild_cost * WILDS[card]
        value = values[cell]
        if value >= CRITICAL:
            return value - WILDS[card] * 0.01  # a critical cell: spend the tamest card
        return value - self.wild_cost * WILDS[card]


@dataclass(frozen=True)
class Weights:
    """How :func:`play_scores` weighs a play beyond the lines through its cell."""

    wild_cost: float = 6.0
    """Paid per wild value of the card played (wild cards complete lines later)."""
    keep: float = 0.6
    """Times the best free cell each card kept could mark (up to ``keep_cap``): the hand
    left for later turns."""
    keep_cap: float = 60.0
    armed: float = 400.0
    """A new cell that would complete our line, with a kept card that fits it: the
    opponent must block it on their turn or lose."""
    unarmed: float = 25.0
    """A new cell that would complete our line, no kept card fitting it yet."""
    half: float = 40.0
    """A line of ours going to two marks, a kept card fitting one of its other cells."""
    block: tuple[float, ...] = (*BLOCK[:3], 250.0)
    """``BLOCK`` but for a line of three of theirs: blocking it is worth less than an
    armed threat of ours, since they did not complete it on their last turn (their hand
    does not fit it) and only a card drawn since can."""


@lru_cache(maxsize=8)
def line_worths(block: tuple[float, ...]) -> tuple[tuple[float, ...], ...]:
    """``[m][t]``: what a line holding ``m`` of our marks and ``t`` of theirs adds to a
    free cell in it: ``OWN[m]`` if they have none there, ``block[t]`` if we have none
    (a line through a free cell holds 3 marks at most)."""
    return tuple(
        tuple((0.0 if t else OWN[m]) + (0.0 if m else block[t]) for t in range(4)) for m in range(4)
    )


WORTH = line_worths(BLOCK)
"""The heuristic's line worths (``OWN`` and ``BLOCK``)."""


def cell_value(
    cell: int, mine: list[int], theirs: list[int], worth: tuple[tuple[float, ...], ...] = WORTH
) -> float:
    """Marking a free cell, by the lines through it: ``OWN`` by our marks in lines they
    have not marked, a block weight by their marks in lines we have not marked (``worth``
    is :func:`line_worths` of the block weights: a lookup per line)."""
    value = 0.0
    for line in LINES_THROUGH[cell]:
        value += worth[mine[line]][theirs[line]]
    return value


def threat_value(
    board: list[int], mine: list[int], theirs: list[int], cell: int, rest: list[int], w: Weights
) -> float:
    """What marking ``cell`` adds in threats, given the cards kept (``rest``)."""
    value = 0.0
    wins: set[int] = set()
    for line in LINES_THROUGH[cell]:
        if theirs[line]:
            continue
        m = mine[line]
        if m == 2:
            wins.update(o for o in LINES[line] if o != cell and board[o] < 0)
        elif (
            m == 1
            and w.half
            and any(
                o != cell and board[o] < 0 and o in FITS_SET[c] for o in LINES[line] for c in rest
            )
        ):
            value += w.half
    for win in wins:
        value += w.armed if any(win in FITS_SET[c] for c in rest) else w.unarmed
    return value


def play_scores(
    board: list[int], seat: int, mine: list[int], theirs: list[int], hand: list[int], w: Weights
) -> dict[Action, float]:
    """Every play of ``hand`` (after drawing) scored for ``seat``: the cell's lines, less
    ``wild_cost`` per wild value; plus, unless it wins, the threats it makes and the hand
    it keeps (a block is weighed against them: ``Weights.block``).  ``board`` holds a
    seat or -1 (free) per cell; ``mine`` and ``theirs`` the marks per line.  In the order
    of legal actions."""
    values: dict[int, float] = {}
    worth = line_worths(w.block)

    def value_of(cell: int) -> float:
        value = values.get(cell)
        if value is None:
            value = values[cell] = cell_value(cell, mine, theirs, worth)
        return value

    best_of: dict[int, tuple[float, int, float]] = {}  # card: (best, its cell, second best)
    if w.keep:
        for card in set(hand):
            first, at, second = -1.0, -1, -1.0
            for cell in FITS[card]:
                if board[cell] < 0:
                    value = value_of(cell)
                    if value > first:
                        first, at, second = value, cell, first
                    elif value > second:
                        second = value
            best_of[card] = (min(first, w.keep_cap), at, min(second, w.keep_cap))
    scores: dict[Action, float] = {}
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        plays = PLAYS[card]
        cells = [cell for cell in FITS[card] if board[cell] < 0] or [WASTED]
        for cell in cells:
            if cell == WASTED:
                value = -1.0 - w.wild_cost * WILDS[card]
            else:
                value = value_of(cell)
                if value >= CRITICAL:  # a win: spend the tamest card
                    scores[plays[cell]] = value - WILDS[card] * 0.01
                    continue
                value += threat_value(board, mine, theirs, cell, rest, w)
                value -= w.wild_cost * WILDS[card]
            for kept in rest:
                first, at, second = best_of.get(kept, (0.0, -1, 0.0))
                value += w.keep * (second if at == cell else first)
            scores[plays[cell]] = value
    return scores


def dead_hand(board: list[int], mine: list[int], theirs: list[int], hand: list[int]) -> bool:
    """Whether to throw the whole hand instead of drawing: we have a free cell that would
    complete a line of ours, and no card of the hand fits it, nor a cell that would
    complete theirs (a block).  Three fresh cards and next turn's draw give four chances
    at the winning cells where drawing gives one a turn; a mark made meanwhile rarely
    matters as much.  ``board`` holds -1 for a free cell; ``mine`` and ``theirs`` the
    marks per line.  Called at every turn of every playout: it finds the lines of three
    by ``list.index``, without a loop over the 76 lines in Python."""
    if 3 not in mine:
        return False
    wins = free_cells_of_threes(board, mine, theirs)
    if not wins:
        return False
    targets = wins | free_cells_of_threes(board, theirs, mine)
    return not any(targets & FITS_SET[card] for card in hand)


def free_cells_of_threes(board: list[int], mine: list[int], theirs: list[int]) -> set[int]:
    """The free cells that would complete a line holding 3 of ``mine`` and none of
    ``theirs`` (marks per line; ``board`` holds -1 for a free cell)."""
    cells: set[int] = set()
    if 3 not in mine:
        return cells
    line = -1
    try:
        while True:
            line = mine.index(3, line + 1)
            if not theirs[line]:  # its one free cell
                for cell in LINES[line]:
                    if board[cell] < 0:
                        cells.add(cell)
                        break
    except ValueError:  # no more lines of three
        return cells


def seat_board(obs: dict[str, Any], seat: int) -> tuple[list[int], list[int], list[int]]:
    """The board from ``seat``'s observation, 0 for its marks, 1 for the other's and -1
    for a free cell; and the marks per line of each (``mine``, ``theirs``)."""
    mark = SYMBOLS[obs["x"] != seat]
    board = [-1 if m == "." else (0 if m == mark else 1) for m in obs["board"]]
    mine = [sum(board[c] == 0 for c in line) for line in LINES]
    theirs = [sum(board[c] == 1 for c in line) for line in LINES]
    return board, mine, theirs


class ToeTactician(ToeHeuristic):
    """The heuristic's turns, but a dead hand is thrown (:func:`dead_hand`); plays chosen
    by :func:`play_scores` (threats, the hand kept)."""

    name = "tactician"
    description = (
        "the heuristic, but plays for threats its hand can complete, keeps useful cards "
        "and throws a hand that fits none of the cells completing a line"
    )
    weights = Weights()

    def choose(self, view: SeatView) -> Action | None:
        obs = view.observation()
        phase = obs["phase"]
        if phase == PHASE_NAMES[TURN]:
            hand = [_parse(c) for c in obs["hand"]]
            if dead_hand(*seat_board(obs, self.seat), hand):
                return ("discard", tuple(sorted(hand)))
        if phase != PHASE_NAMES[PLAY]:
            return super().choose(view)
        scores = self.scores(obs)
        return max(view.legal_actions(), key=scores.__getitem__)

    def scores(self, obs: dict[str, Any]) -> dict[Action, float]:
        """:func:`play_scores` for this seat's observation."""
        board, mine, theirs = seat_board(obs, self.seat)
        hand = [_parse(c) for c in obs["hand"]]
        return play_scores(board, 0, mine, theirs, hand, self.weights)


def shortlist(view: SeatView, legal: list[Action]) -> list[Action]:
    """The plays worth searching: the tactician's best ``SHORTLIST`` (all turn choices)."""
    obs = view.observation()
    if obs["phase"] != PHASE_NAMES[PLAY]:
        return legal
    scores = ToeTactician(view.game, obs["seat"]).scores(obs)
    return sorted(legal, key=scores.__getitem__, reverse=True)[:SHORTLIST]


POTENTIAL = (0.0, 1.0, 4.0, 16.0)
"""What a line open to one player only is worth, by how many of its cells that player holds."""


class ToePlayout(Playout):
    """A fast greedy policy for ISMCTS playouts in sampled worlds.

    It reads the sampled state for speed (the board's line counts, its own hand):
    draw when a card of the hand fits a free cell, else throw all three (and throw
    a dead hand, as the tactician does: :func:`dead_hand`); play the
    card and cell worth most by the lines through the cell, as the heuristic
    values them, paying for wilds as the tactician does.  Quiz phases go to a quiz player of average
    knowledge.
    """

    wild_cost = Weights.wild_cost

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        assert isinstance(game, Toe)
        self.quiz = QuizPlayer(game, self.rng, 0.7, 2.0, 0.0) if game.quiz else None

    def reaction_time(self, view: SampledView) -> float:
        state = view.world
        assert isinstance(state, ToeState)
        if self.quiz is None or state.phase not in (BUZZ, ANSWER):
            return 0.0
        return self.quiz.reaction_time(state.phase == BUZZ, state.questions_read, state.question)

    def choose(self, view: SampledView) -> Action | None:
        state = view.world
        assert isinstance(state, ToeState)
        phase = state.phase
        if phase in (BUZZ, ANSWER):  # the question's public facts, read off the sample
            if self.quiz is None:
                return None
            return self.quiz.choose(phase == BUZZ, state.questions_read, state.question)
        seat = self.seat
        board = state.board
        hand = state.hands[seat]
        mine, theirs = state.counts[seat], state.counts[1 - seat]
        if phase == TURN:
            if not dead_hand(board, mine, theirs, hand):
                for card in hand:
                    for cell in FITS[card]:
                        if board[cell] < 0:
                            return DRAW
            return ("discard", tuple(sorted(hand)))
        cost = self.wild_cost
        best: Action | None = None
        best_value = -1e9
        values: dict[int, float] = {}
        for card in hand:  # the order of legal_actions: by card, cells ascending
            fits = False
            for cell in FITS[card]:
                if board[cell] >= 0:
                    continue
                fits = True
                value = values.get(cell)
                if value is None:
                    value = values[cell] = cell_value(cell, mine, theirs)
                value -= cost * WILDS[card]
                if value > best_value:
                    best, best_value = PLAYS[card][cell], value
            if not fits and -1.0 - cost * WILDS[card] > best_value:
                best, best_value = PLAYS[card][WASTED], -1.0 - cost * WILDS[card]
        return best


def board_value(root: State, leaf: State) -> list[float]:
    """Rewards at a playout's end: the real result once the game is over (a draw is
    worth 0.5 to each), else the balance of lines still open to each player."""
    state = leaf
    assert isinstance(state, ToeState)
    results = state.results()
    if results is not None:
        if not results.winners:
            return [0.5, 0.5]
        return results.returns()
    potential = [0.0, 0.0]
    counts = state.counts
    board = state.board
    wins: list[set[int]] = [set(), set()]
    for line in range(len(LINES)):
        a, b = counts[0][line], counts[1][line]
        if not b:
            potential[0] += POTENTIAL[a]
            if a == 3:
                wins[0].update(c for c in LINES[line] if board[c] < 0)
        if not a:
            potential[1] += POTENTIAL[b]
            if b == 3:
                wins[1].update(c for c in LINES[line] if board[c] < 0)
    mover = state.turn
    if mover >= 0 and wins[mover]:
        fits = any(cell in FITS_SET[card] for card in state.hands[mover] for cell in wins[mover])
        if fits:  # it wins on its turn: its hand completes a line
            return [0.95, 0.05] if mover == 0 else [0.05, 0.95]
    edge = math.tanh((potential[0] - potential[1]) / 40.0)
    return [0.5 + 0.4 * edge, 0.5 - 0.4 * edge]


def board_decision(view: SeatView) -> bool:
    """Search the board (turns and plays); the quiz is knowledge, left to the fallback."""
    return view.observation()["phase"] in (PHASE_NAMES[TURN], PHASE_NAMES[PLAY])


SEARCH = SearchSpec(
    evaluate=board_value,
    horizon=within_plies(24),
    playout_bot=ToePlayout,
    searchable=board_decision,
    shortlist=shortlist,
    paired=SHORTLIST + 1,
)

LEVELS: dict[str, type[Bot]] = {
    "easy": sloppy(ToeHeuristic, 0.25, "the heuristic, with a wrong move one time in four"),
    "medium": ToeHeuristic,
    "hard": searching(
        SEARCH,
        ToeTactician,
        1000,
        0.0,
        "the tactician's best plays compared on 1000 paired playouts",
    ),
    "expert": searching(
        SEARCH,
        ToeTactician,
        3000,
        0.0,
        "the tactician's best plays compared on 3000 paired playouts",
    ),
}
"""The difficulty levels of Toe (see ``docs/bots.md`` for how they compare)."""
