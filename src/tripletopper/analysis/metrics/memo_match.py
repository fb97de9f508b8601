"""Memo Match's figures: pairs and triples per turn, "no matches" and how it ends, playoffs."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tripletopper.analysis.metrics.base import Collector, Metric
from tripletopper.engine import Game, State


class MemoMatchCollector(Collector):
    columns = (
        "pairs",
        "triples",
        "declarations",
        "spotted",
        "took_all",
        "wrong_claims",
        "main_turns",
        "cleared",
        "playoff",
    )
    limit_events = frozenset({"turn_limit"})

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.flips = 0
        self.in_playoff = False
        self.failed = False

    @classmethod
    def metrics(cls, game: Game) -> tuple[Metric, ...]:
        return (
            Metric(
                "pairs_per_turn", "pairs (two variables) taken per turn", "ratio", "pairs", "turns"
            ),
            Metric(
                "triples_per_turn",
                "triples (all three) taken per turn",
                "ratio",
                "triples",
                "turns",
            ),
            Metric("declarations", '"no matches" declarations per game', "mean", "declarations"),
            Metric(
                "declaration_spotted",
                "declarations answered by a spotted pair (declarer out)",
                "rate",
                "spotted",
                "declarations",
            ),
            Metric(
                "declaration_took_all",
                "declarations that took the table",
                "rate",
                "took_all",
                "declarations",
            ),
            Metric(
                "wrong_claims",
                "wrong claims per declaration",
                "ratio",
                "wrong_claims",
                "declarations",
            ),
            Metric(
                "turns_to_clear",
                "turns to clear the table (main round, when cleared)",
                "mean",
                "main_turns",
                "cleared",
            ),
            Metric("playoff", "games with a playoff", "share", "playoff"),
        )

    def on(self, kind: str, data: Mapping[str, Any]) -> None:
        row = self.row
        if kind == "flipped":
            self.flips += 1
        elif kind == "matched":
            row["triples" if data["triple"] else "pairs"] += 1
        elif kind == "declared":
            row["declarations"] += 1
        elif kind == "spotted":
            row["spotted"] += 1
        elif kind == "took_all":
            row["took_all"] += 1
        elif kind == "wrong_claim":
            row["wrong_claims"] += 1
        elif kind == "pair_left":  # solitaire: a declaration with a pair still on the table
            self.failed = True
        elif kind == "playoff":
            self._main_round_over()
            row["playoff"] = 1
            self.in_playoff = True

    def _main_round_over(self) -> None:
        # A turn is two flips or one declaration.
        row = self.row
        row["main_turns"] = self.flips // 2 + row["declarations"]
        row["cleared"] = float(not self.limit and not self.failed)

    def end(self, state: State, stats: Mapping[str, float]) -> None:
        if not self.in_playoff:
            self._main_round_over()
