"""Thirty-One's figures: 31s dealt and made, knocks and who pays for them, lives lost."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripletopper.analysis.metrics.base import Collector, Metric
from tripletopper.engine import Game, State


class ThirtyOneCollector(Collector):
    columns = (
        "dealt_31",
        "made_31",
        "knocks",
        "showdowns",
        "knocker_lost",
        "knocker_saved",
        "others_lost",
        "voids",
        "lives_lost",
        "comeback",
    )
    has_hands = True

    @classmethod
    def metrics(cls, game: Game) -> tuple[Metric, ...]:
        return (
            Metric("dealt_31_rate", "hands ended by a dealt 31", "rate", "dealt_31", "hands"),
            Metric("made_31_rate", "hands ended by a 31 made in play", "rate", "made_31", "hands"),
            Metric("knock_rate", "hands with a knock", "rate", "knocks", "hands"),
            Metric(
                "knocker_lost",
                "knocker alone lowest, loses 2 (of knock showdowns)",
                "rate",
                "knocker_lost",
                "showdowns",
            ),
            Metric(
                "knocker_saved",
                "knocker tied lowest, saved (of knock showdowns)",
                "rate",
                "knocker_saved",
                "showdowns",
            ),
            Metric(
                "others_lost",
                "lives lost by others per knock showdown",
                "ratio",
                "others_lost",
                "showdowns",
            ),
            Metric("void_rate", "void hands", "rate", "voids", "hands"),
            Metric("lives_per_hand", "lives lost per hand", "ratio", "lives_lost", "hands"),
            Metric("comeback", "games won by a player circling the drain", "share", "comeback"),
        )

    def first_player(self, public: Mapping[str, Any], to_act: tuple[int, ...]) -> int:
        # Not the one to act: a dealt 31 is declared before the dealer's left plays.
        return int(public["dealer"] + 1) % self.game.players

    def on(self, kind: str, data: Mapping[str, Any]) -> None:
        row = self.row
        if kind == "knocked":
            row["knocks"] += 1
        elif kind == "hand_over":
            ended_by = data["ended_by"]
            if ended_by == "dealt_31":
                row["dealt_31"] += 1
            elif ended_by == "31":
                row["made_31"] += 1
            knocker = data["knocker"]
            if data["void"]:
                row["voids"] += 1
                return
            lost = data["losses"]
            row["lives_lost"] += sum(loss["lives"] for loss in lost)
            if knocker is not None and ended_by in ("knock", "stop"):
                row["showdowns"] += 1
                row["knocker_lost"] += any(loss["seat"] == knocker for loss in lost)
                row["knocker_saved"] += knocker in data["saved"]
                row["others_lost"] += sum(loss["lives"] for loss in lost if loss["seat"] != knocker)

    def end(self, state: State, stats: Mapping[str, float]) -> None:
        results = state.results()
        assert results is not None
        self.row["comeback"] = float(results.scores[results.winners[0]] == 1)
