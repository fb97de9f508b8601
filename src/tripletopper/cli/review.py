"""``tripletopper review``: the expert's view of every decision one seat made in a saved game.

Each decision of the seat is searched again from that seat's information only
(:mod:`tripletopper.review`), and listed with the move the expert prefers and
the estimated loss of the move played, the biggest mistakes first.
"""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from tripletopper.cli.common import load_questions, questions_option
from tripletopper.errors import TripleTopperError
from tripletopper.record import load_records
from tripletopper.review import FORCED, NOT_SEARCHED, RACE, Review, review

SKIPPED = {
    FORCED: "forced (one legal move)",
    RACE: "races (several seats at once)",
    NOT_SEARCHED: "quiz answers (knowledge, not searched)",
}


@click.command("review", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, default=None, help="The seat to review (default: yours).")
@click.option(
    "--iterations",
    "-i",
    type=click.IntRange(min=1),
    default=None,
    help="Search iterations per decision (default: the expert's).",
)
@click.option("--seed", type=int, default=0, show_default=True, help="The search's seed.")
@click.option(
    "--game",
    "index",
    type=int,
    default=0,
    show_default=True,
    help="Which game of a file saved by simulate.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
@questions_option
def review_command(
    path: str,
    seat: int | None,
    iterations: int | None,
    seed: int,
    index: int,
    as_json: bool,
    progress: bool | None,
    questions: str | None,
) -> None:
    """Review a saved game: for each decision of a seat, the expert's move and the loss."""
    load_questions(questions)
    try:
        records = load_records(path)
    except TripleTopperError as exc:
        raise click.UsageError(str(exc)) from None
    if not 0 <= index < len(records):
        raise click.UsageError(f"--game must be from 0 to {len(records) - 1}")
    record = records[index]
    if seat is None:
        seat = int(record.meta.get("human_seat", 0))
    if not 0 <= seat < record.players:
        raise click.UsageError(f"--seat must be from 0 to {record.players - 1}")
    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    bar = Progress(
        TextColumn("decision"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
        transient=True,
    )
    try:
        finished = record.replay().is_terminal()
        with bar:
            task = bar.add_task("review", total=None)
            result = review(
                record,
                seat,
                iterations,
                seed,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
    except TripleTopperError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps({**result.to_json(), "finished": finished}) + "\n")
    else:
        print_review(result, record.names, finished, Console(highlight=False))


def print_review(result: Review, names: list[str] | None, finished: bool, console: Console) -> None:
    who = names[result.seat] if names else f"seat {result.seat}"
    console.print(
        f"Review of [bold]{who}[/bold] (seat {result.seat}), {result.game}: "
        f"{len(result.findings)} decisions searched, {result.iterations} iterations each"
        + ("" if finished else " (an unfinished game: reviewed as far as it went)")
    )
    table = Table()
    for column in ("move", "played", "expert prefers", "loss"):
        table.add_column(column, justify="right" if column in ("move", "loss") else "left")
    for finding in result.findings:
        same = finding.preferred == finding.played
        table.add_row(
            str(finding.index + 1),
            finding.played,
            "(the same)" if same else finding.preferred,
            f"{finding.loss * 100:.1f}",
        )
    console.print(table)
    console.print(
        "Loss: the expected result (0 = last, 100 = first) the move played gave up "
        "against the expert's, as the search estimates it."
    )
    if result.skipped:
        parts = [f"{count} {SKIPPED[why]}" for why, count in sorted(result.skipped.items())]
        console.print(f"Not reviewed: {', '.join(parts)}.")
