"""Thirty-Two's figures: Thirty-twos, knocks, counters changing hands, eliminations."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripletopper.analysis.metrics.base import Collector, Metric
from tripletopper.engine import Game


class ThirtyTwoCollector(Collector):
    columns = (
        "thirty_twos",
        "knocks",
        "showdowns",
        "knocker_won",
        "paid",
        "eliminated",
        "first_elimination",
        "playoff",
    )
    has_hands = True

    @classmethod
    def metrics(cls, game: Game) -> tuple[Metric, ...]:
        return (
            Metric(
                "thirty_two_rate",
                "hands ended by a declared Thirty-two",
                "rate",
                "thirty_twos",
                "hands",
            ),
            Metric("knock_rate", "hands with a knock", "rate", "knocks", "hands"),
            Metric(
                "knocker_success",
                "knocker beat everyone (of knock showdowns)",
                "rate",
                "knocker_won",
                "showdowns",
            ),
            Metric(
                "counters_per_hand", "counters changing hands per hand", "ratio", "paid", "hands"
            ),
            Metric(
                "first_elimination",
                "hands until the first elimination",
                "mean",
                "first_elimination",
                "eliminated",
            ),
            Metric("playoff", "games with a playoff", "share", "playoff"),
        )

    def on(self, kind: str, data: Mapping[str, Any]) -> None:
        row = self.row
        if kind == "knocked":
            row["knocks"] += 1
        elif kind == "hand_over":
            if data["ended_by"] == "thirty-two":
                row["thirty_twos"] += 1
            elif data["ended_by"] == "knock":
                row["showdowns"] += 1
                row["knocker_won"] += data["knocker_won"]
            row["paid"] += sum(p["paid"] for p in data["payments"])
            if data["eliminated"] and not row["eliminated"]:
                row["eliminated"] = 1
                row["first_elimination"] = data["hand"]
        elif kind == "playoff":
            row["playoff"] = 1
