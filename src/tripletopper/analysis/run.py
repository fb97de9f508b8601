"""A balance run: a grid of cells (option and player-count values), many games per cell.

Game ``i`` of every cell is seeded ``game_seed(seed, i)``, so cells differ by
their options only, never by their luck (common random numbers make the
differences between cells sharper).  Games are played in batches on worker
processes or a Ray cluster (:mod:`tripletopper.parallel`), and each batch's rows
are put back in game order, so a run's numbers depend on its arguments alone,
not on the number of workers or machines.
"""

from __future__ import annotations

import itertools
import math
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from tripletopper.analysis.metrics import Metric, all_metrics, collector_for
from tripletopper.bots import bot_factory
from tripletopper.engine import Game, parse_option_pairs
from tripletopper.parallel import default_workers, run_ordered
from tripletopper.question_banks import load_bank, make_game
from tripletopper.runner import bot_seed, game_seed, gc_paused, play_game, seat_bots

PLAYERS = "players"
"""The sweep name of the player count."""


@dataclass(frozen=True)
class Cell:
    """One point of the grid: a player count and option values (as written)."""

    players: int | None
    options: tuple[tuple[str, str], ...]
    swept: tuple[tuple[str, str], ...]
    """The swept names and this cell's values, in the order of the sweeps."""


@dataclass(frozen=True)
class Plan:
    """What to run: the game, the base options, the sweeps, the bots, games per cell, seed."""

    game: str
    players: int | None = None
    options: tuple[str, ...] = ()
    sweeps: tuple[tuple[str, tuple[str, ...]], ...] = ()
    bots: tuple[str, ...] = ("medium",)
    games: int = 1000
    seed: int = 0
    questions: str | None = None
    """A question bank file for the Quiz Show (loaded in every worker)."""

    def cells(self) -> list[Cell]:
        names = [name for name, _ in self.sweeps]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"{', '.join(twice)} swept twice: give all its values in one --sweep")
        base = dict(parse_option_pairs(self.options))
        out = []
        for values in itertools.product(*(vals for _, vals in self.sweeps)):
            given = dict(zip(names, values, strict=True))
            players = _count(given.pop(PLAYERS)) if PLAYERS in given else self.players
            options = {**{k: str(v) for k, v in base.items()}, **given}
            out.append(
                Cell(players, tuple(options.items()), tuple(zip(names, values, strict=True)))
            )
        return out


def _count(text: str) -> int:
    if not text.isdigit():
        raise ValueError(f"players are whole numbers (got {text!r})")
    return int(text)


def parse_sweep(text: str) -> tuple[str, tuple[str, ...]]:
    """``"counters=8,12,16"`` -> ``("counters", ("8", "12", "16"))``."""
    name, sep, values = text.partition("=")
    items = tuple(v.strip() for v in values.split(",") if v.strip())
    if not sep or not name.strip() or not items:
        raise ValueError(f"a sweep is written name=v1,v2,... (got {text!r})")
    return name.strip(), items


def build(name: str, cell: Cell, questions: str | None = None) -> Game:
    """The game of a cell (options parsed as on the command line)."""
    if questions is not None:
        load_bank(questions)
    given: dict[str, object] = dict(parse_option_pairs([f"{k}={v}" for k, v in cell.options]))
    return make_game(name, cell.players, **given)


_cached_build = lru_cache(maxsize=64)(build)

Job = tuple[str, Cell, tuple[str, ...], int, int, int, str | None]
"""``(game, cell, bots, seed, first game, games, questions)``: one batch."""


def play_batch(job: Job) -> list[array[float]]:
    """The rows of one batch of games (run in a worker process or on a Ray worker)."""
    name, cell, bots, seed, first, count, questions = job
    game = _cached_build(name, cell, questions)
    collector = collector_for(game.name)
    factories = [bot_factory(spec, game) for spec in seat_bots(bots, game.players)]
    rows = []
    with gc_paused():
        for index in range(first, first + count):
            gseed = game_seed(seed, index)
            players = [factory(s, bot_seed(gseed, s)) for s, factory in enumerate(factories)]
            counting = collector(game)
            state = game.new_state(gseed)
            counting.start(state)
            play_game(game, players, gseed, listener=counting.listen, state=state)
            rows.append(counting.finish(state))
    return rows


@dataclass
class CellRun:
    """The games of one cell: ``rows[i]`` is game ``i``'s columns."""

    cell: Cell
    game: Game
    bots: list[str]
    columns: tuple[str, ...]
    metrics: tuple[Metric, ...]
    rows: list[array[float]] = field(default_factory=list)

    def column(self, name: str) -> list[float]:
        at = self.columns.index(name)
        return [row[at] for row in self.rows]


def batch_size(games: int, workers: int) -> int:
    """Games per job: about eight jobs per worker and cell, at most 200 (no effect on results)."""
    return max(1, min(200, math.ceil(games / (8 * workers))))


def run_plan(
    plan: Plan,
    *,
    workers: int | None = None,
    ray: str | None = None,
    on_batch: Callable[[int], None] | None = None,
) -> list[CellRun]:
    """Play every cell of ``plan``; ``on_batch(games)`` is told of each finished batch."""
    runs = []
    jobs: list[Job] = []
    size = batch_size(plan.games, workers or default_workers())
    for cell in plan.cells():
        game = build(plan.game, cell, plan.questions)
        for spec in set(plan.bots):
            bot_factory(spec, game)  # refuse a bad spec before starting workers
        collector = collector_for(game.name)
        runs.append(
            CellRun(
                cell,
                game,
                seat_bots(plan.bots, game.players),
                collector.all_columns(game),
                all_metrics(collector, game),
            )
        )
        for first in range(0, plan.games, size):
            count = min(size, plan.games - first)
            jobs.append((plan.game, cell, plan.bots, plan.seed, first, count, plan.questions))
    owners = [i for i, run in enumerate(runs) for _ in range(0, plan.games, size)]
    for owner, rows in zip(
        owners, run_ordered(play_batch, jobs, workers=workers, ray=ray), strict=True
    ):
        runs[owner].rows.extend(rows)
        if on_batch is not None:
            on_batch(len(rows))
    return runs
