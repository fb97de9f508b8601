"""Post-game review: the expert's search on every decision one seat made in a saved game.

For each decision of the seat, the game is rebuilt to just before it and the
expert's search (ISMCTS, the game's ``expert`` level, or the plain ``ismcts``
bot where no level searches, as in Memo Match) decides from a :class:`SeatView`,
with the memory the seat's events gave it, exactly as at a table: it never sees
a hidden card.  Its preferred move is compared with the move played by the mean
reward the search measured for each (its root statistics, 0 to 1 for the
seat's expected result); a move the search tried fewer times than its share of
the budget (iterations over legal moves) is measured again alone up to that
share (:meth:`ISMCTSBot.value_of`).  The loss is the preferred move's value
minus the played one's: 0 when they agree.

Not reviewed: forced moves (one legal action), phases where several seats may
act at once (races: Memo Match's spotting, the Quiz Show's buzzer) and what
the game's search leaves to its fallback (Toe's quiz answers: knowledge, not
planning).  Each decision's search is seeded from the review's seed and the
decision's place in the game, so a review is the same whatever order or process
its decisions are computed in (the card room computes them one at a time).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from tripletopper.bots import bot_class, bot_factory
from tripletopper.bots.base import SeatView
from tripletopper.bots.ismcts import ISMCTSBot
from tripletopper.engine import Action, Game, State, derive_seed
from tripletopper.errors import InvalidOptionError, InvalidRecordError, TripleTopperError
from tripletopper.record import Record

Progress = Callable[[int, int], None]
"""``progress(done, total)``: called after each reviewed decision (and once at the start)."""

FORCED, RACE, NOT_SEARCHED = "forced", "race", "not_searched"
"""Why a decision is not reviewed: one legal action; several seats could act at once;
the search leaves it to its fallback (Toe's quiz answers)."""


@dataclass(frozen=True)
class Finding:
    """One reviewed decision."""

    index: int
    """Its place in the record's actions (0-based); the replay's step ``index + 1``."""
    played: str
    preferred: str
    """The expert's move (text form)."""
    loss: float
    """The preferred move's value minus the played one's (expected result, 0 to 1)."""
    played_value: float
    preferred_value: float
    choices: int
    """Legal moves there were."""

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        for key in ("loss", "played_value", "preferred_value"):
            out[key] = round(out[key], 4)
        return out


@dataclass
class Review:
    game: str
    seat: int
    iterations: int
    seed: int
    findings: list[Finding]
    """Every reviewed decision, the biggest loss first (ties in game order)."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Decisions not reviewed, by why (:data:`FORCED`, :data:`RACE`, :data:`NOT_SEARCHED`)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seat": self.seat,
            "iterations": self.iterations,
            "seed": self.seed,
            "decisions": [finding.to_json() for finding in self.findings],
            "skipped": self.skipped,
        }


@dataclass(frozen=True)
class Decision:
    """A decision of the seat to review: where it is and what was played."""

    index: int
    action: Action


def expert_spec(game: Game) -> tuple[str, int]:
    """The bot a review searches with and its default budget: the game's ``expert`` level
    if it searches, else the plain ``ismcts`` bot (Memo Match's levels are memories)."""
    expert = bot_class("expert", game.name)(game, 0, 0)
    name = "expert" if isinstance(expert, ISMCTSBot) else "ismcts"
    searcher = bot_class(name, game.name)(game, 0, 0)
    assert isinstance(searcher, ISMCTSBot)
    return name, searcher.iterations


def default_iterations(record: Record) -> int:
    """The budget a review of ``record`` searches each decision with by default."""
    return expert_spec(record.make_game())[1]


def reviewer(game: Game, seat: int, seed: int, iterations: int) -> ISMCTSBot:
    """The expert's search with an iteration budget (never a clock: reviews repeat)."""
    name, _ = expert_spec(game)
    bot = bot_factory(f"{name}:iterations={iterations}:seconds=0", game)(seat, seed)
    assert isinstance(bot, ISMCTSBot)
    return bot


def check_seat(record: Record, seat: int) -> None:
    if not 0 <= seat < record.players:
        raise InvalidOptionError(f"the seat must be from 0 to {record.players - 1} (got {seat})")


def _positions(
    record: Record, seat: int
) -> Iterator[tuple[int, State, Action, list[Mapping[str, Any]]]]:
    """Each action of ``seat``: its index, the state just before it (live: read it before
    the next), the action and every event the seat had seen until then."""
    where = "at the start"
    try:
        state = record.new_state()
        game = state.game
        seen: list[Mapping[str, Any]] = []
        for index, (actor, wire) in enumerate(record.actions):
            where = f"at action {index + 1}"
            action = game.action_from_wire(wire)
            if actor == seat:
                yield index, state, action, seen
            seen.extend(event.view(seat) for event in state.apply(action, actor))
    except TripleTopperError as exc:
        raise InvalidRecordError(f"the record does not replay ({where}): {exc}") from None


def _why_not(bot: ISMCTSBot, view: SeatView) -> str | None:
    """Why this decision is not reviewed (None: it is)."""
    if len(view.to_act()) > 1:
        return RACE
    if bot.spec.searchable is not None and not bot.spec.searchable(view):
        return NOT_SEARCHED
    if len(view.legal_actions()) == 1:
        return FORCED
    return None


def assess(bot: ISMCTSBot, view: SeatView, played: Action, index: int) -> Finding:
    """The expert's move at ``view`` and its value against ``played`` (see the module)."""
    legal = view.legal_actions()
    preferred = bot.choose(view)
    assert preferred is not None
    share = max(1, bot.iterations // len(legal))
    values = {}
    for action in dict.fromkeys((preferred, played)):  # in this order: each draws from the rng
        visits, mean = bot.last.root_values.get(action, (0, 0.0))
        if visits < share:  # hardly tried: measure it alone up to its share
            extra = share - visits
            mean = (mean * visits + bot.value_of(view, action, extra) * extra) / share
        values[action] = mean
    game = view.game
    return Finding(
        index=index,
        played=game.action_to_text(played),
        preferred=game.action_to_text(preferred),
        loss=0.0 if preferred == played else values[preferred] - values[played],
        played_value=values[played],
        preferred_value=values[preferred],
        choices=len(legal),
    )


def decisions(record: Record, seat: int) -> tuple[list[int], dict[str, int]]:
    """The indices of the seat's decisions a review searches, and the others counted by why."""
    check_seat(record, seat)
    game = record.make_game()
    probe = reviewer(game, seat, 0, 1)
    todo: list[int] = []
    skipped: dict[str, int] = {}
    for index, state, _action, _seen in _positions(record, seat):
        why = _why_not(probe, SeatView(state, seat))
        if why is None:
            todo.append(index)
        else:
            skipped[why] = skipped.get(why, 0) + 1
    return todo, skipped


def review_decision(
    record: Record, seat: int, index: int, iterations: int | None = None, seed: int = 0
) -> Finding:
    """The review of the seat's decision at ``index`` alone (one of :func:`decisions`)."""
    check_seat(record, seat)
    game = record.make_game()
    budget = iterations if iterations is not None else default_iterations(record)
    for at, state, action, seen in _positions(record, seat):
        if at == index:
            bot = reviewer(game, seat, derive_seed(seed, index), budget)
            if bot.wants_events and seen:
                bot.observe(list(seen))
            return assess(bot, SeatView(state, seat), action, index)
    raise InvalidOptionError(f"action {index} is not a decision of seat {seat}")


def review(
    record: Record,
    seat: int,
    iterations: int | None = None,
    seed: int = 0,
    progress: Progress | None = None,
) -> Review:
    """Every decision of ``seat`` in ``record`` reviewed (see the module)."""
    todo, skipped = decisions(record, seat)
    budget = iterations if iterations is not None else default_iterations(record)
    findings = []
    if progress is not None:
        progress(0, len(todo))
    for done, index in enumerate(todo, 1):
        findings.append(review_decision(record, seat, index, budget, seed))
        if progress is not None:
            progress(done, len(todo))
    return Review(record.game, seat, budget, seed, ranked(findings), skipped)


def ranked(findings: list[Finding]) -> list[Finding]:
    """Biggest mistakes first; equal losses in game order."""
    return sorted(findings, key=lambda f: (-f.loss, f.index))
