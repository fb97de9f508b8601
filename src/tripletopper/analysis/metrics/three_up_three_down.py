"""3UP 3DOWN's figures: pickups, clears by kind, blind 3DOWN flips, turns per player."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripletopper.analysis.metrics.base import Collector, Metric
from tripletopper.engine import Game, State

CLEARS = {"run": "clear_run", "C": "clear_c", "C+1": "clear_c1", "C+2": "clear_c2"}


class ThreeUpCollector(Collector):
    columns = (
        "pickups",
        "clear_run",
        "clear_c",
        "clear_c1",
        "clear_c2",
        "blind",
        "blind_failed",
        "turns_per_player",
    )
    limit_events = frozenset({"turn_limit"})

    @classmethod
    def metrics(cls, game: Game) -> tuple[Metric, ...]:
        return (
            Metric("pickups", "pickups per game", "mean", "pickups"),
            Metric(
                "clear_run", "clears by three of a value in a row per game", "mean", "clear_run"
            ),
            Metric("clear_c", "clears by a Clear per game", "mean", "clear_c"),
            Metric("clear_c1", "clears by a Clear+1 per game", "mean", "clear_c1"),
            Metric("clear_c2", "clears by the Clear+2 per game", "mean", "clear_c2"),
            Metric("blind_failed", "blind 3DOWN flips that fail", "rate", "blind_failed", "blind"),
            Metric("turns_per_player", "turns per player", "mean", "turns_per_player"),
        )

    def first_player(self, public: Mapping[str, Any], to_act: tuple[int, ...]) -> int:
        # Everyone chooses 3UP cards at once; then the dealer's left plays first.
        return int(public["dealer"] + 1) % self.game.players

    def on(self, kind: str, data: Mapping[str, Any]) -> None:
        row = self.row
        if kind == "picked_up":
            row["pickups"] += 1
            if data["flipped"]:
                row["blind"] += 1
                row["blind_failed"] += 1
        elif kind == "played":
            if data["from"] == "3DOWN":
                row["blind"] += 1
        elif kind == "cleared":
            row[CLEARS[data["by"]]] += 1

    def end(self, state: State, stats: Mapping[str, float]) -> None:
        self.row["turns_per_player"] = stats["turns"] / self.game.players
