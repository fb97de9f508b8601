"""What a game's metrics are, and the counting every game shares.

A :class:`Collector` watches one game through the engine contract only: the
public fields of its events (the runner's listener, so events are built), then
``state.stats()`` and ``state.results()`` at the end.  It turns them into one
row of numbers, the game's *columns*.  A :class:`Metric` says how the rows of
many games become one figure with a 95% interval (:mod:`..summary`).

Every game has the columns ``actions``, ``turns``, ``limit`` (the game ended at a
safety limit), ``win0``, ``win1``, ... (each seat's share of the win) and ``pos0``,
``pos1``, ... (the share of the player first to play, second, ...: where the
dealer is drawn at random, seat numbers are even by design and the order of play
is what can favour someone); games played in hands add ``hands``.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from tripletopper.engine import Action, Event, Game, State

Kind = Literal["share", "rate", "mean", "ratio"]


@dataclass(frozen=True)
class Metric:
    """One figure of a game, computed from the columns of many games.

    - ``share``: the mean of a 0-1 column over games (``num``), Wilson interval;
    - ``rate``: ``sum(num) / sum(den)`` where each unit of ``den`` is a trial that
      succeeds at most once (a hand that ended by a Thirty-two), Wilson interval;
    - ``mean``: the mean of ``num`` over the games, or over the games whose ``den``
      is positive (a condition), normal interval; median and 90th percentile too;
    - ``ratio``: ``sum(num) / sum(den)`` for counts that may exceed one per unit
      (counters paid per hand), delta-method interval over games.
    """

    key: str
    label: str
    kind: Kind
    num: str
    den: str | None = None


def length_metrics(hands: bool) -> tuple[Metric, ...]:
    """Game length: actions and turns, and hands where the game has them."""
    out = [
        Metric("actions", "actions per game", "mean", "actions"),
        Metric("turns", "turns per game", "mean", "turns"),
    ]
    if hands:
        out.append(Metric("hands", "hands per game", "mean", "hands"))
    out.append(Metric("limit", "games ended by a safety limit", "share", "limit"))
    return tuple(out)


def seat_metrics(players: int) -> tuple[Metric, ...]:
    """Each seat's and each position's win rate (compare with the fair share ``1 / players``)."""
    seats = [
        Metric(f"win_seat{s}", f"seat {s} win rate", "share", f"win{s}") for s in range(players)
    ]
    positions = [
        Metric(f"win_pos{p}", f"win rate of the player {ORDINALS[p]} to play", "share", f"pos{p}")
        for p in range(players)
    ]
    return (*seats, *positions) if players > 1 else tuple(seats)


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")


class Collector:
    """Counts one game; subclasses name their columns and handle their events."""

    columns: ClassVar[tuple[str, ...]] = ()
    """The game's own columns (besides the shared ones), all starting at 0."""
    has_hands: ClassVar[bool] = False
    limit_events: ClassVar[frozenset[str]] = frozenset()
    """Event types that mean a safety limit ended the game."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.row: dict[str, float] = dict.fromkeys(self.columns, 0.0)
        self.limit = False
        self.first = 0

    def start(self, state: State) -> None:
        """Before the first action: note who plays first (see :meth:`first_player`)."""
        self.first = self.first_player(state.public_observation(), state.to_act())

    def first_player(self, public: Mapping[str, Any], to_act: tuple[int, ...]) -> int:
        """The seat that plays first, from the public view at the start: the one to act."""
        return to_act[0] if len(to_act) == 1 else 0

    @classmethod
    def metrics(cls, game: Game) -> tuple[Metric, ...]:
        """The game's own metrics (the shared ones are added by :func:`all_metrics`)."""
        return ()

    @classmethod
    def all_columns(cls, game: Game) -> tuple[str, ...]:
        shared = ["actions", "turns", "limit"] + (["hands"] if cls.has_hands else [])
        seats = range(game.players)
        return (*shared, *(f"win{s}" for s in seats), *(f"pos{p}" for p in seats), *cls.columns)

    def listen(self, state: State, seat: int, action: Action, events: list[Event]) -> None:
        """The runner's listener: every event's public fields go to :meth:`see`."""
        for event in events:
            self.see(event.type, event.data)

    def see(self, kind: str, data: Mapping[str, Any]) -> None:
        """One event, as a spectator sees it (its type and public fields)."""
        if kind in self.limit_events:
            self.limit = True
        self.on(kind, data)

    def on(self, kind: str, data: Mapping[str, Any]) -> None:
        """A game's own counting of one event."""

    def finish(self, state: State) -> array[float]:
        """The game's row, in :meth:`all_columns` order, once it is over (8 bytes a number:
        a run keeps every game's row)."""
        results = state.results()
        assert results is not None
        stats = state.stats()
        self.end(state, stats)
        shared = [float(state.version), float(stats.get("turns", 0)), float(self.limit)]
        if self.has_hands:
            shared.append(float(stats["hands"]))
        row = self.row
        returns = results.returns()
        players = len(returns)
        by_position = [returns[(self.first + p) % players] for p in range(players)]
        return array("d", [*shared, *returns, *by_position, *(row[c] for c in self.columns)])

    def end(self, state: State, stats: Mapping[str, float]) -> None:
        """Fill the columns known only at the end (from stats and results)."""


def all_metrics(collector: type[Collector], game: Game) -> tuple[Metric, ...]:
    """Every metric of ``game``: seats, length, then the game's own."""
    return (
        *seat_metrics(game.players),
        *length_metrics(collector.has_hands),
        *collector.metrics(game),
    )
