"""``tripletopper simulate``: many complete games between bots, summarized."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tripletopper.cli.common import build_game, check_bots, game_options, split_bots
from tripletopper.engine import State
from tripletopper.record import Record
from tripletopper.runner import Simulation, simulate


@click.command("simulate", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@game_options
@click.option("--games", "-n", "count", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option(
    "--bots",
    "bot_list",
    default="random",
    show_default=True,
    metavar="A,B,...",
    help="Bots by seat (the list is repeated to fill the table).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--save", type=click.Path(dir_okay=False), help="Save every game (JSON lines).")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
def simulate_command(
    game: str,
    players: int | None,
    options: Sequence[str],
    seed: int | None,
    count: int,
    bot_list: str,
    as_json: bool,
    save: str | None,
    progress: bool | None,
    questions: str | None,
) -> None:
    """Play many games of GAME between bots and report how each seat and bot did."""
    the_game = build_game(game, players, options, questions)
    specs = split_bots(bot_list)
    if not specs:
        raise click.UsageError("--bots needs at least one bot")
    check_bots(specs, the_game)
    seed = 0 if seed is None else seed
    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    out_file = Path(save).open("w", encoding="utf-8") if save else None  # noqa: SIM115
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
        transient=True,
    )
    try:
        with bar:
            task = bar.add_task(f"{the_game.name}", total=count)

            def on_game(index: int, state: State) -> None:
                if out_file is not None:
                    out_file.write(Record.from_state(state, meta={"game_index": index}).dumps())
                    out_file.write("\n")
                if show and (index % 50 == 49 or index == count - 1):
                    bar.update(task, completed=index + 1)

            report = simulate(the_game, specs, count, seed, on_game=on_game)
    finally:
        if out_file is not None:
            out_file.close()
    if as_json:
        sys.stdout.write(json.dumps(report.to_json(), sort_keys=False) + "\n")
    else:
        print_report(report, Console(highlight=False))


def print_report(report: Simulation, console: Console) -> None:
    data = report.to_json()
    console.print(
        f"[bold]{report.game.title}[/bold], {report.game.players} players, "
        f"{data['games']} games (seed {data['seed']}): {data['actions']} actions, "
        f"{data['actions_per_game']:.1f} per game, {data['seconds']:.2f} s "
        f"({data['actions_per_second'] or 0:,} actions/s)"
    )
    if data["mean"]:
        means = ", ".join(f"{key} {value:.2f}" for key, value in data["mean"].items())
        console.print(f"Mean per game: {means}")
    seats = Table(title="By seat")
    for column in ("seat", "bot", "win rate", "mean score", "mean place"):
        seats.add_column(column, justify="left" if column == "bot" else "right")
    for seat in data["seats"]:
        seats.add_row(
            str(seat["seat"]),
            seat["bot"],
            f"{seat['win_rate']:.1%}",
            f"{seat['mean_score']:.2f}",
            f"{seat['mean_rank']:.2f}",
        )
    console.print(seats)
    if len(data["by_bot"]) > 1:
        bots = Table(title="By bot")
        for column in ("bot", "seats", "win rate per seat", "mean score", "mean place"):
            bots.add_column(column, justify="left" if column == "bot" else "right")
        for name, entry in data["by_bot"].items():
            bots.add_row(
                name,
                str(entry["seats"]),
                f"{entry['win_rate_per_seat']:.1%}",
                f"{entry['mean_score']:.2f}",
                f"{entry['mean_rank']:.2f}",
            )
        console.print(bots)
