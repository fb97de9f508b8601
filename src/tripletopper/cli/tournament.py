"""``tripletopper tournament``: bots against bots, every bot in every seat, rated."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tripletopper.cli.common import (
    build_game,
    check_bots,
    game_options,
    split_bots,
    worker_options,
)
from tripletopper.parallel import RayUnavailable
from tripletopper.tournament import Tournament, run_tournament


@click.command("tournament", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@game_options
@click.option("--bots", "bot_list", required=True, metavar="A,B,...", help="The bots to compare.")
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=200, show_default=True)
@worker_options
@click.option("--out", type=click.Path(dir_okay=False), help="Write the full results (JSON) here.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
def tournament_command(
    game: str,
    players: int | None,
    options: Sequence[str],
    seed: int | None,
    bot_list: str,
    count: int,
    workers: int | None,
    ray: str | None,
    out: str | None,
    as_json: bool,
    progress: bool | None,
    questions: str | None,
) -> None:
    """Play GAME between bots with balanced seatings; report win rates (95% intervals),
    mean places and OpenSkill ratings."""
    the_game = build_game(game, players, options, questions)
    specs = split_bots(bot_list)
    if len(specs) < 2:
        raise click.UsageError("--bots needs at least two bots to compare")
    check_bots(specs, the_game)
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
    with bar:
        task = bar.add_task(f"{the_game.name} tournament", total=count)
        try:
            report = run_tournament(
                the_game,
                specs,
                count,
                seed or 0,
                workers=workers,
                ray=ray,
                on_game=lambda done: bar.update(task, completed=done),
            )
        except RayUnavailable as exc:
            raise click.ClickException(str(exc)) from None
    if out:
        Path(out).write_text(json.dumps(report.to_json(with_games=True), indent=1) + "\n")
    if as_json:
        sys.stdout.write(json.dumps(report.to_json()) + "\n")
    else:
        print_tournament(report, Console(highlight=False))


def print_tournament(report: Tournament, console: Console) -> None:
    data = report.to_json()
    console.print(
        f"[bold]{report.game.title}[/bold], {report.game.players} players, "
        f"{data['games_played']} games (seed {data['seed']}), {data['seconds']:.1f} s"
    )
    table = Table()
    for column in ("bot", "wins", "(95%)", "mean place", "(95%)", "rating", "p95 time"):
        if column == "bot":
            table.add_column(column, overflow="fold")
        else:
            table.add_column(column, justify="right", no_wrap=True)
    for row in data["standings"]:
        low, high = row["win_rate_95"]
        place_low, place_high = row["mean_place_95"]
        p95 = row["decision_seconds"]["p95"]
        table.add_row(
            row["bot"],
            f"{row['win_rate']:.1%}",
            f"{low:.1%}-{high:.1%}",
            f"{row['mean_place']:.2f}",
            f"{place_low:.2f}-{place_high:.2f}",
            f"{row['rating']['ordinal']:.1f}",
            "-" if p95 is None else f"{p95 * 1000:.0f} ms",
        )
    console.print(table)
    if data.get("head_to_head"):
        console.print("Head to head (row's share of the games against column):")
        for a, row in data["head_to_head"].items():
            console.print("  " + a + ": " + ", ".join(f"{b} {v:.1%}" for b, v in row.items()))
