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
  ``accuracy`` (its knowledge is the bank: a player who knows trivia); it buzzes
  when it knows, after ``buzz`` seconds (give or take 20%), and answers right.
  When it does not know it keeps quiet, or with probability ``guess`` buzzes
  anyway and answers wrong.

:class:`ToeRandom` plays uniformly at random like ``random`` does everywhere,
but in the Quiz Show it buzzes after ``buzz`` seconds (default at once) and is
right with probability ``accuracy`` (default: a blind guess).
"""

from __future__ import annotations

import math
from typing import Any

from tripletopper.bots.base import Bot, RandomBot, SeatView
from tripletopper.bots.ismcts import SearchSpec, within_plies
from tripletopper.bots.levels import searching, sloppy
from tripletopper.cards.triple_topper import TRIPLE_TOPPER, WILDS
from tripletopper.engine import Action, Game, State
from tripletopper.games.toe import FITS, LINES, LINES_THROUGH, WASTED, Toe, ToeState
from tripletopper.games.toe.rules import ANSWER, BUZZ, PLAY, TURN

_parse = TRIPLE_TOPPER.parse
OWN = (1.0, 3.0, 12.0, 10_000.0)
"""Value of marking a cell of a line holding 0-3 of our marks and none of theirs."""
BLOCK = (0.0, 2.0, 9.0, 5_000.0)
"""Value of marking a cell of a line holding 0-3 of their marks and none of ours."""
CRITICAL = 5_000.0


class QuizPlayer:
    """How a bot plays the questions: knows with ``accuracy``, buzzes after ``buzz`` s."""

    def __init__(self, bot: Bot, accuracy: float | None, buzz: float, guess: float = 1.0) -> None:
        if accuracy is not None and not 0 <= accuracy <= 1:
            raise ValueError("accuracy must be from 0 to 1")
        if not 0 <= guess <= 1:
            raise ValueError("guess must be from 0 to 1")
        if buzz < 0:
            raise ValueError("buzz must be 0 seconds or more")
        self.bot = bot
        self.accuracy = accuracy
        self.buzz = buzz
        self.guess = guess
        self.question = -1
        self.knows = False
        self.buzzes = False
        self.delay = 0.0
        self.choice = 0

    def _roll(self, view: SeatView) -> bool:
        """Decide once per question (choose may be asked several times); False if no
        question is up.  Reads the question's public facts (number, id, choices) from
        the seat's view without building a whole observation: simulations ask often."""
        state = view._state
        assert isinstance(state, ToeState)
        if state.phase not in (BUZZ, ANSWER):
            return False
        number = state.questions_read
        if number == self.question:
            return True
        self.question = number
        rng = self.bot.rng
        bank = state.game.bank
        assert bank is not None
        question = bank.questions[state.question]
        choices = len(question.choices)
        accuracy = 1.0 / choices if self.accuracy is None else self.accuracy
        self.knows = rng.random() < accuracy
        if self.knows:
            self.choice = question.answer
        else:
            wrong = [i for i in range(choices) if i != question.answer]
            self.choice = wrong[rng.below(len(wrong))]
        self.delay = self.buzz * (0.8 + 0.4 * rng.random())
        self.buzzes = self.knows or rng.random() < self.guess
        return True

    def choose(self, view: SeatView) -> Action | None:
        """The quiz action now (None: keep quiet); only asked in a question phase."""
        self._roll(view)
        if view._state.phase == BUZZ:  # type: ignore[attr-defined]
            return ("buzz",) if self.buzzes else None
        return ("answer", self.choice)

    def reaction_time(self, view: SeatView) -> float:
        if not self._roll(view) or view._state.phase != BUZZ:  # type: ignore[attr-defined]
            return 0.0
        return self.delay


class ToeRandom(RandomBot):
    """Random moves; in the Quiz Show buzzes after ``buzz`` s, right with ``accuracy``."""

    name = "random"
    description = "picks any legal action at random (Quiz Show: accuracy=, buzz=)"

    def __init__(
        self, game: Game, seat: int, seed: int = 0, *, accuracy: float | None = None,
        buzz: float = 0.0,
    ) -> None:  # fmt: skip
        super().__init__(game, seat, seed)
        quiz = isinstance(game, Toe) and game.quiz
        self.quiz = QuizPlayer(self, accuracy, buzz) if quiz else None
        if self.quiz is None:  # plain games: the shared random choice, without a detour
            self.choose = super().choose  # type: ignore[method-assign]

    def choose(self, view: SeatView) -> Action:
        if self.quiz is not None:
            legal = view.legal_actions()
            if legal and legal[0][0] in ("buzz", "answer"):
                action = self.quiz.choose(view)
                assert action is not None  # it always buzzes
                return action
        return super().choose(view)

    def reaction_time(self, view: SeatView) -> float:
        return 0.0 if self.quiz is None else self.quiz.reaction_time(view)


class ToeHeuristic(Bot):
    name = "heuristic"
    description = (
        "wins or blocks when it can, values cells by their open lines, keeps wilds for "
        "critical cells (Quiz Show: accuracy=0.7, buzz=1.5)"
    )

    def __init__(
        self, game: Game, seat: int, seed: int = 0, *, accuracy: float = 0.7, buzz: float = 1.5,
        guess: float = 0.0, wild_cost: float = 2.0, useful: float = 3.0,
    ) -> None:  # fmt: skip
        super().__init__(game, seat, seed)
        assert isinstance(game, Toe)
        self.quiz = QuizPlayer(self, accuracy, buzz, guess) if game.quiz else None
        self.wild_cost = wild_cost
        self.useful = useful

    def reaction_time(self, view: SeatView) -> float:
        return 0.0 if self.quiz is None else self.quiz.reaction_time(view)

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal_actions()
        if self.quiz is not None and legal and legal[0][0] in ("buzz", "answer"):
            return self.quiz.choose(view)
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
        """The value of marking each free cell now (-1 for taken cells)."""
        board = obs["board"]
        me = "X" if obs["x"] == self.seat else "O"
        mine = [0] * len(LINES)
        theirs = [0] * len(LINES)
        for index, line in enumerate(LINES):
            for cell in line:
                mark = board[cell]
                if mark == me:
                    mine[index] += 1
                elif mark != ".":
                    theirs[index] += 1
        values = []
        for cell, mark in enumerate(board):
            if mark != ".":
                values.append(-1.0)
                continue
            value = 0.0
            for index in LINES_THROUGH[cell]:
                m, t = mine[index], theirs[index]
                if not t:
                    value += OWN[m]
                if not m:
                    value += BLOCK[t]
            values.append(value)
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


POTENTIAL = (0.0, 1.0, 4.0, 16.0)
"""What a line open to one player only is worth, by how many of its cells that player holds."""


class ToePlayout(Bot):
    """A fast greedy policy for ISMCTS playouts in *sampled* worlds; never seated at a table.

    It reads the sampled state for speed (the board's line counts, its own hand):
    draw when a card of the hand fits a free cell, else throw all three; play the
    card and cell worth most by the lines through the cell, as the heuristic
    values them, paying for wilds.  Quiz phases go to a quiz player of average
    knowledge.
    """

    name = "toe-playout"

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        super().__init__(game, seat, seed)
        assert isinstance(game, Toe)
        self.quiz = QuizPlayer(self, 0.7, 1.5, 0.0) if game.quiz else None

    def reaction_time(self, view: SeatView) -> float:
        return 0.0 if self.quiz is None else self.quiz.reaction_time(view)

    def choose(self, view: SeatView) -> Action | None:
        state = view._state  # a sampled world (see the class docstring)
        assert isinstance(state, ToeState)
        phase = state.phase
        if phase in (BUZZ, ANSWER):
            return self.quiz.choose(view) if self.quiz is not None else None
        seat = self.seat
        board = state.board
        if phase == TURN:
            if any(board[cell] < 0 for card in state.hands[seat] for cell in FITS[card]):
                return ("draw",)
            return ("discard", tuple(sorted(state.hands[seat])))
        mine, theirs = state.counts[seat], state.counts[1 - seat]
        best: Action | None = None
        best_value = -1e9
        cell_value: dict[int, float] = {}
        for action in state.legal_actions(seat):
            card, cell = action[1], action[2]
            if cell == WASTED:
                value = -1.0 - WILDS[card]
            else:
                value = cell_value.get(cell, -1.0)
                if value < 0:
                    value = 0.0
                    for line in LINES_THROUGH[cell]:
                        if not theirs[line]:
                            value += OWN[mine[line]]
                        if not mine[line]:
                            value += BLOCK[theirs[line]]
                    cell_value[cell] = value
                value -= 2.0 * WILDS[card]
            if value > best_value:
                best, best_value = action, value
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
    for line in range(len(LINES)):
        a, b = counts[0][line], counts[1][line]
        if not b:
            potential[0] += POTENTIAL[a]
        if not a:
            potential[1] += POTENTIAL[b]
    edge = math.tanh((potential[0] - potential[1]) / 40.0)
    return [0.5 + 0.4 * edge, 0.5 - 0.4 * edge]


def board_decision(view: SeatView) -> bool:
    """Search the board (turns and plays); the quiz is knowledge, left to the fallback."""
    return view._state.phase in (TURN, PLAY)  # type: ignore[attr-defined]


SEARCH = SearchSpec(
    evaluate=board_value,
    horizon=within_plies(24),
    playout_bot=ToePlayout,
    searchable=board_decision,
)

LEVELS: dict[str, type[Bot]] = {
    "easy": sloppy(ToeHeuristic, 0.25, "the heuristic, with a wrong move one time in four"),
    "medium": ToeHeuristic,
    "hard": searching(
        SEARCH, ToeHeuristic, 1000, 0.0, "ISMCTS, 1000 determinizations per decision"
    ),
    "expert": searching(
        SEARCH, ToeHeuristic, 3000, 0.0, "ISMCTS, 3000 determinizations per decision"
    ),
}
"""The difficulty levels of Toe (see ``docs/bots.md`` for how they compare)."""
