"""``tripletopper analyze``: balance statistics with 95% intervals, sweeps, plots and reports."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from contextlib import nullcontext
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tripletopper.analysis.run import Plan, parse_sweep, run_plan
from tripletopper.analysis.summary import document, metric_keys, write_csv
from tripletopper.bots import default_bot
from tripletopper.cli.common import game_options, split_bots, worker_options
from tripletopper.errors import TripleTopperError
from tripletopper.games import game_class
from tripletopper.parallel import RayUnavailable


@click.command("analyze", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@game_options
@click.option(
    "--games",
    "-n",
    "count",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Games per cell of the grid.",
)
@click.option(
    "--bots",
    "bot_list",
    default=None,
    metavar="A,B,...",
    help="Bots by seat, repeated to fill the table (default: the game's medium level).",
)
@click.option(
    "--sweep",
    "sweeps",
    multiple=True,
    metavar="NAME=V1,V2,...",
    help="Run every value of an option (or of 'players'); several sweeps make a grid.",
)
@worker_options
@click.option(
    "--report",
    "report_dir",
    type=click.Path(file_okay=False),
    default=None,
    help="Write plots (PNG and SVG) and report.html here (needs tripletopper[plots]).",
)
@click.option(
    "--json",
    "json_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Write the figures as JSON to this file ('-': standard output).",
)
@click.option(
    "--csv",
    "csv_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    default=None,
    help="Write the figures as CSV to this file ('-': standard output).",
)
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
def analyze_command(
    game: str,
    players: int | None,
    options: Sequence[str],
    seed: int | None,
    questions: str | None,
    count: int,
    bot_list: str | None,
    sweeps: Sequence[str],
    workers: int | None,
    ray: str | None,
    report_dir: str | None,
    json_file: str | None,
    csv_file: str | None,
    progress: bool | None,
) -> None:
    """Play GAME many times between bots and report its balance: win rate by seat, game
    length and the game's own figures, each with a 95% interval, for every cell of a
    sweep. The same command and seed give the same numbers on any number of workers."""
    try:
        cls = game_class(game)
        specs = split_bots(bot_list) if bot_list else [default_bot(cls.name)]
        plan = Plan(
            cls.name,
            players,
            tuple(options),
            tuple(parse_sweep(s) for s in sweeps),
            tuple(specs),
            count,
            0 if seed is None else seed,
            questions,
        )
        cells = plan.cells()
    except (TripleTopperError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if report_dir is not None:
        _check_plots()
    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
        transient=True,
    )
    started = time.perf_counter()
    with bar:
        task = bar.add_task(f"{cls.name}: {len(cells)} cell(s)", total=len(cells) * count)
        try:
            runs = run_plan(
                plan,
                workers=workers,
                ray=ray,
                on_batch=lambda games: bar.advance(task, games),
            )
        except TripleTopperError as exc:
            raise click.UsageError(str(exc)) from None
        except RayUnavailable as exc:
            raise click.ClickException(str(exc)) from None
    seconds = time.perf_counter() - started
    doc = document(plan, runs)
    if report_dir is not None:
        from tripletopper.analysis.report import write_report

        page = write_report(doc, runs, Path(report_dir))
        err.print(f"report: {page}")
    if json_file is not None:
        with _output(json_file) as out:
            out.write(json.dumps(doc, indent=1) + "\n")
    if csv_file is not None:
        with _output(csv_file) as out:
            write_csv(doc, out)
    if "-" not in (json_file, csv_file):
        print_document(doc, Console(highlight=False), seconds)


def _check_plots() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.ClickException(
            "--report needs matplotlib: pip install 'tripletopper[plots]'"
        ) from None


def _output(path: str) -> Any:
    if path == "-":
        return nullcontext(sys.stdout)
    return Path(path).open("w", encoding="utf-8", newline="")


def fmt(fig: dict[str, Any], key: str = "value") -> str:
    value = fig.get(key)
    if value is None:
        return "-"
    if fig["kind"] in ("share", "rate"):
        return f"{value:.1%}"
    return f"{value:.2f}"


def interval(fig: dict[str, Any]) -> str:
    if fig.get("low") is None:
        return "-"
    return f"{fmt(fig, 'low')} - {fmt(fig, 'high')}"


def print_document(doc: dict[str, Any], console: Console, seconds: float | None = None) -> None:
    """The figures as Rich tables: one table for one cell, else a column per cell."""
    cells = doc["cells"]
    took = f", {seconds:.1f} s" if seconds is not None else ""
    console.print(
        f"[bold]{doc['title']}[/bold]: {len(cells)} cell(s) x {doc['games_per_cell']} games, "
        f"bots {','.join(doc['bots'])}, seed {doc['seed']}{took}"
    )
    console.print(f"[dim]{doc['command']}[/dim]")
    if len(cells) == 1:
        cell = cells[0]
        table = Table(title=f"{cell['players']} players (fair share {cell['fair_share']:.1%})")
        for column in ("metric", "value", "95% interval", "median", "p90", "n"):
            table.add_column(column, justify="left" if column == "metric" else "right")
        for fig in cell["metrics"].values():
            table.add_row(
                fig["label"],
                fmt(fig),
                interval(fig),
                fmt(fig, "median"),
                fmt(fig, "p90"),
                f"{fig['n']:g}",
            )
        console.print(table)
        return
    table = Table(title="value (95% interval) per cell")
    table.add_column("metric")
    for cell in cells:
        table.add_column(_cell_label(cell), justify="right")
    keys = metric_keys(cells)
    for key in keys:
        figs = [cell["metrics"].get(key) for cell in cells]
        label = next(f["label"] for f in figs if f is not None)
        table.add_row(label, *("" if f is None else f"{fmt(f)}\n({interval(f)})" for f in figs))
    console.print(table)


def _cell_label(cell: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in cell["swept"].items())
