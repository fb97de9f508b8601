"""The rows of a cell's games turned into figures with 95% intervals (see ``Metric``)."""

from __future__ import annotations

import csv
import math
import shlex
from dataclasses import dataclass
from typing import Any, TextIO

from tripletopper import __version__
from tripletopper.analysis.intervals import (
    Estimate,
    mean_interval,
    quantile,
    ratio_interval,
    wilson,
)
from tripletopper.analysis.metrics import Metric
from tripletopper.analysis.run import CellRun, Plan


@dataclass(frozen=True)
class Figure:
    """A metric's value with its interval; ``median`` and ``p90`` for means."""

    metric: Metric
    estimate: Estimate
    median: float | None = None
    p90: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.metric.label, "kind": self.metric.kind}
        out.update(self.estimate.to_json())
        if self.median is not None and self.p90 is not None:
            out["median"] = round(self.median, 6)
            out["p90"] = round(self.p90, 6)
        return out


def figure(metric: Metric, run: CellRun) -> Figure:
    """One metric of one cell."""
    values = run.column(metric.num)
    den = run.column(metric.den) if metric.den is not None else None
    if metric.kind == "share":
        n = len(values)
        successes = math.fsum(values)
        low, high = wilson(successes, n)
        return Figure(metric, Estimate(successes / n if n else math.nan, low, high, n))
    if metric.kind == "mean":
        if den is not None:
            values = [v for v, d in zip(values, den, strict=True) if d > 0]
        mean, low, high = mean_interval(values)
        if not values:
            return Figure(metric, Estimate(mean, low, high, 0))
        return Figure(
            metric,
            Estimate(mean, low, high, len(values)),
            quantile(values, 0.5),
            quantile(values, 0.9),
        )
    assert den is not None
    if metric.kind == "rate":
        successes, trials = math.fsum(values), math.fsum(den)
        low, high = wilson(successes, trials)
        value = successes / trials if trials else math.nan
        return Figure(metric, Estimate(value, low, high, trials))
    value, low, high = ratio_interval(values, den)
    return Figure(metric, Estimate(value, low, high, math.fsum(den)))


def summarize(run: CellRun) -> dict[str, Figure]:
    """Every metric of a cell, by key."""
    return {metric.key: figure(metric, run) for metric in run.metrics}


def cell_json(run: CellRun) -> dict[str, Any]:
    """A cell's figures as JSON (``fair_share`` is the win rate of an even seat)."""
    return {
        "players": run.game.players,
        "options": dict(run.game.options),
        "swept": dict(run.cell.swept),
        "bots": run.bots,
        "games": len(run.rows),
        "fair_share": round(1 / run.game.players, 6),
        "metrics": {key: fig.to_json() for key, fig in summarize(run).items()},
    }


def metric_keys(cells: list[dict[str, Any]]) -> list[str]:
    """The metric keys of JSON cells in one order: the order of the cell that has most
    (cells of more players have more seats)."""
    ordered = sorted(cells, key=lambda cell: -len(cell["metrics"]))
    return list(dict.fromkeys(key for cell in ordered for key in cell["metrics"]))


def command_line(plan: Plan) -> str:
    """The command that reproduces ``plan`` (the number of workers changes nothing)."""
    words = ["tripletopper", "analyze", plan.game]
    if plan.players is not None:
        words += ["-p", str(plan.players)]
    for option in plan.options:
        words += ["-o", option]
    for name, values in plan.sweeps:
        words += ["--sweep", f"{name}={','.join(values)}"]
    words += ["--bots", ",".join(plan.bots), "--games", str(plan.games), "--seed", str(plan.seed)]
    if plan.questions is not None:
        words += ["--questions", plan.questions]
    return shlex.join(words)


def document(plan: Plan, runs: list[CellRun]) -> dict[str, Any]:
    """Everything a run found, as JSON: the same plan always gives the same document."""
    return {
        "command": command_line(plan),
        "version": __version__,
        "game": plan.game,
        "title": runs[0].game.title if runs else plan.game,
        "seed": plan.seed,
        "games_per_cell": plan.games,
        "bots": list(plan.bots),
        "sweeps": {name: list(values) for name, values in plan.sweeps},
        "cells": [cell_json(run) for run in runs],
    }


CSV_FIELDS = (
    "cell",
    "players",
    "metric",
    "label",
    "kind",
    "value",
    "low",
    "high",
    "n",
    "median",
    "p90",
)


def write_csv(doc: dict[str, Any], out: TextIO) -> None:
    """One line per cell and metric; the swept values come first, one column each."""
    swept = list(doc["sweeps"])
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*swept, *CSV_FIELDS])
    for index, cell in enumerate(doc["cells"]):
        for key, fig in cell["metrics"].items():
            writer.writerow(
                [
                    *(cell["swept"][name] for name in swept),
                    index,
                    cell["players"],
                    key,
                    fig["label"],
                    fig["kind"],
                    *(
                        "" if fig.get(f) is None else fig[f]
                        for f in ("value", "low", "high", "n", "median", "p90")
                    ),
                ]
            )
