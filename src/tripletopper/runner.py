"""Playing whole games with bots: one game (:func:`play_game`) or many (:func:`simulate`).

The runner drives a game only through the engine contract.  Where several
seats may act at once it asks each bot, and the quickest (by its simulated
reaction time) acts first; a timed phase nobody acts in ends with the game's
timeout action, played by the table's clock (the ``CLOCK`` seat).
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tripletopper.bots import Bot, SeatView, bot_factory
from tripletopper.bots.base import first_to_act
from tripletopper.engine import Action, Event, Game, State, derive_seed
from tripletopper.errors import IllegalActionError

Listener = Callable[[State, int, Action, list[Event]], None]
"""Called after every applied action with the state, seat, action and its events."""


class BotError(RuntimeError):
    """A bot returned something that is not a legal action."""


def choose_next(
    state: State, bots: Sequence[Bot | None], views: Sequence[SeatView]
) -> tuple[int, Action]:
    """Whose action comes next, and what it is, when only bots are to act
    (:func:`~tripletopper.bots.base.first_to_act`)."""
    for seat in state.to_act():
        if bots[seat] is None:
            raise BotError(f"seat {seat} must act but has no bot")
    acting = first_to_act(state, bots, views)
    if acting is None:
        raise BotError("no bot acted, and this phase has no time limit")
    return acting.seat, acting.action


def play_game(
    game: Game,
    bots: Sequence[Bot],
    seed: int = 0,
    *,
    listener: Listener | None = None,
    state: State | None = None,
    timings: dict[int, list[float]] | None = None,
) -> State:
    """Play one game to its end (from ``state`` if given) and return the final state.

    Bots that keep their own memory (``wants_events``) are told every action's
    events as their seat sees them.  With ``timings``, each seat's lone decisions
    are timed (seconds, appended per seat)."""
    if state is None:
        state = game.new_state(seed)
    views = [SeatView(state, seat) for seat in range(game.players)]
    watchers = [bot for bot in bots if bot.wants_events]
    want_events = listener is not None or bool(watchers)
    while True:
        seats = state.to_act()
        if not seats:
            break
        seat = seats[0]
        started = time.perf_counter() if timings is not None else 0.0
        action = bots[seat].choose(views[seat]) if len(seats) == 1 else None
        if action is None:  # several may act, or the one to act waits: see who goes first
            seat, action = choose_next(state, bots, views)
        elif timings is not None:
            timings.setdefault(seat, []).append(time.perf_counter() - started)
        try:
            events = state.apply(action, seat, events=want_events)
        except (IllegalActionError, ValueError) as exc:
            raise BotError(f"bot at seat {seat} chose {action!r}: {exc}") from exc
        if want_events:
            for bot in watchers:
                bot.observe([event.view(bot.seat) for event in events])
            if listener is not None:
                listener(state, seat, action, events)
    return state


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (engines make no reference cycles)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass
class SeatSummary:
    seat: int
    bot: str
    wins: float = 0.0
    score_total: float = 0.0
    rank_total: float = 0.0

    def to_json(self, games: int) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "bot": self.bot,
            "wins": round(self.wins, 6),
            "win_rate": round(self.wins / games, 6) if games else 0.0,
            "mean_score": round(self.score_total / games, 6) if games else 0.0,
            "mean_rank": round(self.rank_total / games, 6) if games else 0.0,
        }


@dataclass
class Simulation:
    """What :func:`simulate` measured; ``to_json`` is the ``--json`` output."""

    game: Game
    bots: list[str]
    seed: int
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    seats: list[SeatSummary] = field(default_factory=list)
    stats: dict[str, float] = field(default_factory=dict)

    def by_bot(self) -> dict[str, dict[str, float]]:
        out: dict[str, dict[str, float]] = {}
        for seat in self.seats:
            entry = out.setdefault(seat.bot, {"seats": 0, "wins": 0.0, "score": 0.0, "rank": 0.0})
            entry["seats"] += 1
            entry["wins"] += seat.wins
            entry["score"] += seat.score_total
            entry["rank"] += seat.rank_total
        games = max(1, self.games)
        return {
            bot: {
                "seats": e["seats"],
                "win_rate_per_seat": round(e["wins"] / (games * e["seats"]), 6),
                "mean_score": round(e["score"] / (games * e["seats"]), 6),
                "mean_rank": round(e["rank"] / (games * e["seats"]), 6),
            }
            for bot, e in out.items()
        }

    def to_json(self) -> dict[str, Any]:
        games = max(1, self.games)
        return {
            **self.game.config(),
            "bots": self.bots,
            "seed": self.seed,
            "games": self.games,
            "actions": self.actions,
            "actions_per_game": round(self.actions / games, 6),
            "seconds": round(self.seconds, 3),
            "actions_per_second": round(self.actions / self.seconds) if self.seconds else None,
            "mean": {k: round(v / games, 6) for k, v in sorted(self.stats.items())},
            "seats": [s.to_json(self.games) for s in self.seats],
            "by_bot": self.by_bot(),
        }


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return derive_seed(seed, index)


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a game seeded ``game_seed`` (``Rng`` mixes it)."""
    return game_seed + 1 + seat


def seat_bots(specs: Sequence[str], players: int) -> list[str]:
    """Bot specs per seat: the list is repeated to fill the table."""
    if not specs:
        raise ValueError("name at least one bot")
    return [specs[seat % len(specs)] for seat in range(players)]


def simulate(
    game: Game,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    on_game: Callable[[int, State], None] | None = None,
) -> Simulation:
    """Play ``games`` games with bots; the same arguments always give the same results."""
    per_seat = seat_bots(specs, game.players)
    report = Simulation(game, per_seat, seed)
    report.seats = [SeatSummary(seat, spec) for seat, spec in enumerate(per_seat)]
    factories = [bot_factory(spec, game) for spec in per_seat]
    started = time.perf_counter()
    with gc_paused():
        for index in range(games):
            gseed = game_seed(seed, index)
            bots = [factory(seat, bot_seed(gseed, seat)) for seat, factory in enumerate(factories)]
            state = play_game(game, bots, gseed)
            results = state.results()
            assert results is not None
            report.games += 1
            report.actions += state.version
            returns = results.returns()
            for seat, summary in enumerate(report.seats):
                summary.wins += returns[seat]
                summary.score_total += results.scores[seat]
                summary.rank_total += results.rank_of(seat)
            for key, value in state.stats().items():
                report.stats[key] = report.stats.get(key, 0.0) + value
            if on_game is not None:
                on_game(index, state)
            if index % 256 == 255:
                gc.collect(0)
    report.seconds = time.perf_counter() - started
    return report
