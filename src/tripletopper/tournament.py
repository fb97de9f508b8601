"""Tournaments between bots: balanced seatings, win rates with intervals, ratings.

Every bot sits in every seat equally often: game ``g`` seats the lineup of block
``g // players`` (the bot list, starting one bot further each block, repeated to
fill the table) rotated by ``g % players``.  After ``bots x players`` games each
bot has held each seat the same number of times.

Games run in worker processes (one per core by default) or on a Ray cluster
(:mod:`tripletopper.parallel`); each game's seed comes
from the tournament seed and its index, and results are gathered in game order,
so the same arguments give the same report whatever the number of workers
(decision times aside).

Ratings are OpenSkill's Plackett-Luce model (multiplayer rankings), updated
game by game in order; a bot holding several seats of one table is ranked by
its best-placed seat.  Online updates weigh later games more, so ratings carry
noise from the order of the games (about one point of mu in a hundred games);
standings are ordered by mean place, whose interval is the measure of strength.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tripletopper.analysis.intervals import Z95, wilson
from tripletopper.bots import bot_factory
from tripletopper.engine import Game
from tripletopper.parallel import run_ordered
from tripletopper.question_banks import make_game
from tripletopper.runner import bot_seed, game_seed, play_game


def seating(bots: Sequence[str], players: int, index: int) -> list[str]:
    """The bots of game ``index``, by seat."""
    block, turn = divmod(index, players)
    lineup = [bots[(block + i) % len(bots)] for i in range(players)]
    return [lineup[(seat + turn) % players] for seat in range(players)]


@dataclass
class GameOutcome:
    index: int
    seats: list[str]
    returns: list[float]
    places: list[float]
    scores: list[float]
    actions: int
    decision_times: dict[str, list[float]]


def play_seated(args: tuple[str, int, dict[str, Any], list[str], int, int]) -> GameOutcome:
    """One game of the bots ``seats`` on game seed ``game_seed(seed, index)`` (run in a worker
    process; :mod:`tripletopper.match` plays its deals with it too)."""
    name, players, options, seats, seed, index = args
    game = make_game(name, players, **options)
    gseed = game_seed(seed, index)
    bots = [bot_factory(spec, game)(s, bot_seed(gseed, s)) for s, spec in enumerate(seats)]
    by_seat: dict[int, list[float]] = {}
    state = play_game(game, bots, gseed, timings=by_seat)
    times: dict[str, list[float]] = {}
    for seat, seconds in by_seat.items():
        times.setdefault(seats[seat], []).extend(seconds)
    results = state.results()
    assert results is not None
    return GameOutcome(
        index,
        seats,
        results.returns(),
        [results.rank_of(s) for s in range(players)],
        list(results.scores),
        state.version,
        times,
    )


@dataclass
class BotRecord:
    name: str
    seat_games: int = 0
    games: int = 0
    wins: float = 0.0
    places: list[float] = field(default_factory=list)
    decision_times: list[float] = field(default_factory=list)
    mu: float = 0.0
    sigma: float = 0.0

    def to_json(self, players: int) -> dict[str, Any]:
        low, high = wilson(self.wins, self.seat_games)
        mean_place = statistics.fmean(self.places) if self.places else 0.0
        spread = (
            Z95 * statistics.stdev(self.places) / math.sqrt(len(self.places))
            if len(self.places) > 1
            else 0.0
        )
        return {
            "bot": self.name,
            "games": self.games,
            "seat_games": self.seat_games,
            "wins": round(self.wins, 4),
            "win_rate": round(self.wins / self.seat_games, 4) if self.seat_games else 0.0,
            "win_rate_95": [round(low, 4), round(high, 4)],
            "mean_place": round(mean_place, 4),
            "mean_place_95": [round(mean_place - spread, 4), round(mean_place + spread, 4)],
            "rating": {
                "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3),
                "ordinal": round(self.mu - 3 * self.sigma, 3),
            },
            "decision_seconds": time_summary(self.decision_times),
        }


def time_summary(seconds: Sequence[float]) -> dict[str, Any]:
    """How many decisions were timed, and their median, 95th percentile and longest."""
    times = sorted(seconds)
    if not times:
        return {"decisions": 0, "p50": None, "p95": None, "max": None}
    return {
        "decisions": len(times),
        "p50": round(times[len(times) // 2], 5),
        "p95": round(times[min(len(times) - 1, int(len(times) * 0.95))], 5),
        "max": round(times[-1], 5),
    }


@dataclass
class Tournament:
    game: Game
    bots: list[str]
    seed: int
    games: int = 0
    actions: int = 0
    seconds: float = 0.0
    records: dict[str, BotRecord] = field(default_factory=dict)
    outcomes: list[GameOutcome] = field(default_factory=list)
    head_to_head: dict[str, dict[str, float]] = field(default_factory=dict)

    def ranked(self) -> list[BotRecord]:
        """Best first, by mean finishing place, then win rate.  Not by rating: an online
        rating is updated game by game and so moves with the order of the games."""

        def key(record: BotRecord) -> tuple[float, float]:
            place = statistics.fmean(record.places) if record.places else math.inf
            return (place, -record.wins / max(1, record.seat_games))

        return sorted(self.records.values(), key=key)

    def to_json(self, with_games: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            **self.game.config(),
            "bots": self.bots,
            "seed": self.seed,
            "games_played": self.games,
            "actions": self.actions,
            "seconds": round(self.seconds, 2),
            "standings": [r.to_json(self.game.players) for r in self.ranked()],
        }
        if self.game.players == 2:
            out["head_to_head"] = self.head_to_head
        if with_games:
            out["games"] = [
                {"index": o.index, "seats": o.seats, "places": o.places, "scores": o.scores}
                for o in self.outcomes
            ]
        return out


def run_tournament(
    game: Game,
    bots: Sequence[str],
    games: int,
    seed: int = 0,
    *,
    workers: int | None = None,
    on_game: Callable[[int], None] | None = None,
    ray: str | None = None,
) -> Tournament:
    """Play ``games`` games between ``bots`` with balanced seatings; see the module doc.

    ``ray`` runs the games on a Ray cluster instead (:mod:`tripletopper.parallel`)."""
    from openskill.models import PlackettLuce

    for spec in set(bots):
        bot_factory(spec, game)  # refuse bad specs before starting workers
    jobs = [
        (game.name, game.players, dict(game.options), seating(bots, game.players, i), seed, i)
        for i in range(games)
    ]
    report = Tournament(game, list(bots), seed)
    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in dict.fromkeys(bots)}
    report.records = {name: BotRecord(name) for name in ratings}
    wins_vs: dict[str, dict[str, list[float]]] = {}
    started = time.perf_counter()
    for outcome in run_ordered(play_seated, jobs, workers=workers, ray=ray):
        report.outcomes.append(outcome)
        report.games += 1
        report.actions += outcome.actions
        best_place: dict[str, float] = {}
        for seat, name in enumerate(outcome.seats):
            record = report.records[name]
            record.seat_games += 1
            record.wins += outcome.returns[seat]
            record.places.append(outcome.places[seat])
            best_place[name] = min(best_place.get(name, 99.0), outcome.places[seat])
        for name in best_place:
            report.records[name].games += 1
        for name, times in outcome.decision_times.items():
            report.records[name].decision_times.extend(times)
        if len(best_place) > 1:
            names = list(best_place)
            rated = model.rate([[ratings[n]] for n in names], ranks=[best_place[n] for n in names])
            for name, (rating,) in zip(names, rated, strict=True):
                ratings[name] = rating
        if game.players == 2 and outcome.seats[0] != outcome.seats[1]:
            a, b = outcome.seats
            wins_vs.setdefault(a, {}).setdefault(b, []).append(outcome.returns[0])
            wins_vs.setdefault(b, {}).setdefault(a, []).append(outcome.returns[1])
        if on_game is not None:
            on_game(report.games)
    report.seconds = time.perf_counter() - started
    for name, rating in ratings.items():
        report.records[name].mu = rating.mu
        report.records[name].sigma = rating.sigma
    report.head_to_head = {
        a: {b: round(statistics.fmean(v), 4) for b, v in row.items()} for a, row in wins_vs.items()
    }
    return report
