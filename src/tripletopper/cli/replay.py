"""``tripletopper replay``: step through a saved game from one seat's view, or all.

From a seat's view you see exactly what that seat saw during the game: events as
that seat received them and its own observation of the table.  ``--all`` is
the all-seeing analysis mode (every hidden card, every mucked hand): use it
only when the table agrees.
"""

from __future__ import annotations

from typing import Any

import click
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from tripletopper.cli.cards import narration
from tripletopper.cli.common import NAMES, load_questions, questions_option
from tripletopper.cli.views import view_for
from tripletopper.engine import CLOCK, YOU, Event
from tripletopper.errors import TripleTopperError
from tripletopper.record import Record, load_records


@click.command("replay", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--seat", type=int, default=None, help="Watch from this seat (default: yours).")
@click.option("--public", is_flag=True, help="Watch as a spectator (public view only).")
@click.option("--all", "all_seeing", is_flag=True, help="All-seeing: every hidden card shown.")
@click.option(
    "--game",
    "index",
    type=int,
    default=0,
    show_default=True,
    help="Which game of a file saved by simulate.",
)
@click.option("--table/--no-table", default=False, help="Draw the table after every action.")
@click.option("--step", is_flag=True, help="Wait for Enter after every action.")
@questions_option
def replay_command(
    path: str,
    seat: int | None,
    public: bool,
    all_seeing: bool,
    index: int,
    table: bool,
    step: bool,
    questions: str | None,
) -> None:
    """Replay a game saved with --save, from one seat's view (or --public, or --all)."""
    load_questions(questions)
    try:
        records = load_records(path)
    except TripleTopperError as exc:
        raise click.UsageError(str(exc)) from None
    if not 0 <= index < len(records):
        raise click.UsageError(f"--game must be from 0 to {len(records) - 1}")
    record = records[index]
    if sum([seat is not None, public, all_seeing]) > 1:
        raise click.UsageError("choose one of --seat, --public and --all")
    if seat is None and not public and not all_seeing:
        seat = int(record.meta.get("human_seat", 0))
    if seat is not None and not 0 <= seat < record.players:
        raise click.UsageError(f"--seat must be from 0 to {record.players - 1}")
    try:
        play_back(record, seat, all_seeing, table, step, Console(highlight=False))
    except TripleTopperError as exc:
        raise click.ClickException(str(exc)) from None


def play_back(
    record: Record, seat: int | None, all_seeing: bool, table: bool, step: bool, console: Console
) -> None:
    game = record.make_game()
    names = record.names or [f"{NAMES[s]}" for s in range(game.players)]
    # The saved names call the human "You"; from any other view that seat gets a plain name.
    names = [YOU if s == seat else (f"Player {s}" if n == YOU else n) for s, n in enumerate(names)]
    who = "all-seeing" if all_seeing else "spectator" if seat is None else f"seat {seat}"
    console.print(
        f"[bold]{game.title}[/bold], {game.players} players, seed {record.seed}: "
        f"{len(record.actions)} actions, viewed {who}."
    )
    view = view_for(game)
    start = record.new_state()
    for viewer in range(game.players) if all_seeing else [seat]:
        obs = start.public_observation() if viewer is None else start.observation(viewer)
        if viewer is not None and all_seeing:
            console.print(f"[bold]{names[viewer]}[/bold] (seat {viewer}) at the start:")
        console.print(view.table(obs, names))
    console.print(Rule(style="dim"))
    for number, (state, actor, action, events) in enumerate(record.steps(), 1):
        head = Text(f"{number:4}. ", style="dim")
        who_acted = "Clock" if actor == CLOCK else "Table" if actor < 0 else names[actor]
        head.append(f"{who_acted}: {game.action_to_text(action)}", style="dim")
        if all_seeing or seat == actor:  # others' actions are told by events as this seat saw them
            console.print(head)
        for event in events:
            console.print(narration(game.describe_event(event.view(seat), names)))
            if all_seeing and event.secret:
                for secret_seat in sorted(event.secret):
                    seen = narration(game.describe_event(event.view(secret_seat), names))
                    console.print(Text(f"     [{names[secret_seat]} saw] ").append_text(seen))
        moment = getattr(view, "moment", None)
        if all_seeing and moment is not None:  # what was up only for a moment, for analysis
            shown = moment([seen_by_all(event) for event in events])
            if shown is not None:
                console.print(shown)
        if table:
            obs = state.observation(seat) if seat is not None else state.public_observation()
            console.print(view.table(obs, names))
            console.print(Rule(style="dim"))
        if step:
            console.input("[dim](Enter)[/dim]")


def seen_by_all(event: Event) -> dict[str, Any]:
    """An event with every seat's secrets in it: the all-seeing view."""
    out = event.view(None)
    for secret in (event.secret or {}).values():
        out.update(secret)
    return out
