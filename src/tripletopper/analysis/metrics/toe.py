"""Toe's figures: X's edge, draws, wasted plays, reshuffles, the winning turn, the quiz."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripletopper.analysis.metrics.base import Collector, Metric
from tripletopper.engine import Game, State


class ToeCollector(Collector):
    columns = (
        "x_wins",
        "draw",
        "plays",
        "wasted",
        "reshuffles",
        "line",
        "line_turn",
        "questions",
        "answered",
        "correct",
    )

    @classmethod
    def metrics(cls, game: Game) -> tuple[Metric, ...]:
        out = (
            Metric("x_win", "X wins", "share", "x_wins"),
            Metric("draw", "draws", "share", "draw"),
            Metric(
                "wasted_rate",
                "plays wasted (the card fits no free cell)",
                "rate",
                "wasted",
                "plays",
            ),
            Metric("reshuffles", "reshuffles per game", "mean", "reshuffles"),
            Metric("line_turn", "turn of the winning line", "mean", "line_turn", "line"),
        )
        if not game.options["quiz"]:
            return out
        return (
            *out,
            Metric("questions", "quiz questions asked per game", "mean", "questions"),
            Metric(
                "answered", "questions answered (someone buzzed)", "rate", "answered", "questions"
            ),
            Metric("correct", "answers that were right", "rate", "correct", "answered"),
        )

    def first_player(self, public: Mapping[str, Any], to_act: tuple[int, ...]) -> int:
        return int(public["x"])  # positions are X, then O (X plays first without the quiz)

    def on(self, kind: str, data: Mapping[str, Any]) -> None:
        row = self.row
        if kind == "played":
            row["plays"] += 1
            row["wasted"] += data["cell"] is None
        elif kind == "reshuffled":
            row["reshuffles"] += 1
        elif kind == "question":
            row["questions"] += 1
        elif kind == "answered":
            row["answered"] += 1
            row["correct"] += data["correct"]
        elif kind == "game_over":
            reason = data["reason"]  # "line", "full", "max_turns, more marks", ...
            self.limit = "max_" in reason
            row["draw"] = float(not data["winners"])
            row["line"] = float(reason == "line")

    def end(self, state: State, stats: Mapping[str, float]) -> None:
        self.row["x_wins"] = stats["x_wins"]
        if self.row["line"]:  # the winning play ends its turn before the turn is counted
            self.row["line_turn"] = stats["turns"] + 1
