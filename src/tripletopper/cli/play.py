"""``tripletopper play``: you against bots at a terminal table.

Everything shown to you is built from your seat's observation and from events
as your seat sees them, so the terminal never shows a card you could not see at
a real table.
"""

from __future__ import annotations

import random
import select
import sys
import time
from collections.abc import Sequence
from typing import Any

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from tripletopper.bots import Bot, SeatView, bot_names, make_bot
from tripletopper.cli.cards import narration
from tripletopper.cli.common import (
    NAMES,
    build_game,
    check_bots,
    game_options,
    rules_page,
    split_bots,
)
from tripletopper.cli.views import view_for
from tripletopper.engine import TABLE, Action, Event, Game, Results, State, derive_seed
from tripletopper.errors import TripleTopperError
from tripletopper.record import Record
from tripletopper.runner import choose_next

HELP_TEXT = (
    "Type the number of an action, or its text form (e.g. 'draw', 'discard RC1').  "
    "'?' lists the text forms, 'rules' shows the rules, 'quit' leaves."
)


class Quit(Exception):
    """The player left the table."""


@click.command("play", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@game_options
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 = first).")
@click.option(
    "--bots", "bot_list", default=None, metavar="A,B,...",
    help="Bots for the other seats, in seat order (repeated to fill; default the game's "
    "heuristic bot).",
)  # fmt: skip
@click.option("--save", type=click.Path(dir_okay=False), help="Save the game to this file.")
@click.option("--name", default="You", show_default=True, help="Your name at the table.")
def play_command(
    game: str, players: int | None, options: Sequence[str], seed: int | None, seat: int,
    bot_list: str | None, save: str | None, name: str,
) -> None:  # fmt: skip
    """Play GAME against bots in the terminal."""
    the_game = build_game(game, players, options)
    if not 0 <= seat < the_game.players:
        raise click.UsageError(f"--seat must be from 0 to {the_game.players - 1}")
    specs = split_bots(bot_list) or [default_bot(the_game)]
    check_bots(specs, the_game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    console = Console(highlight=False)
    table = TerminalTable(the_game, seat, specs, seed, console, name)
    try:
        table.run()
    except Quit:
        console.print("You leave the table.")
    finally:
        if save:
            Record.from_state(table.state, table.names, human_seat=seat).save(save)
            console.print(f"Game saved to {save} (replay it with `tripletopper replay {save}`).")


def default_bot(game: Game) -> str:
    """The game's ``heuristic`` bot, else its first bot that is not ``random``."""
    names = bot_names(game.name)
    if "heuristic" in names:
        return "heuristic"
    return next((name for name in names if name != "random"), "random")


class TerminalTable:
    def __init__(
        self, game: Game, seat: int, specs: Sequence[str], seed: int, console: Console,
        name: str = "You",
    ) -> None:  # fmt: skip
        self.game = game
        self.seat = seat
        self.console = console
        self.view = view_for(game)
        others = [s for s in range(game.players) if s != seat]
        self.specs = {s: specs[i % len(specs)] for i, s in enumerate(others)}
        self.names = [
            name if s == seat else f"{NAMES[s]} ({self.specs[s]})" for s in range(game.players)
        ]  # narration says "you" for the seat named YOU
        self.state: State = game.new_state(seed)
        self.bots: list[Bot | None] = [
            make_bot(self.specs[s], game, s, derive_seed(seed, s, 1)) if s != seat else None
            for s in range(game.players)
        ]
        self.views = [SeatView(self.state, s) for s in range(game.players)]

    def run(self) -> None:
        console = self.console
        seed = self.state.origin["seed"]
        console.print(f"[bold]{self.game.title}[/bold] - {self.game.players} players, seed {seed}.")
        console.print(Text(HELP_TEXT, style="dim"))
        state = self.state
        while not state.is_terminal():
            seats = state.to_act()
            if self.seat not in seats:
                self.bot_turn()
            elif len(seats) == 1:
                self.human_turn()
            else:
                self.race()
        self.show_results(state.results())

    def bot_turn(self) -> None:
        seat, action = choose_next(self.state, self.bots, self.views)
        self.apply(action, seat)

    def race(self) -> None:
        """Several seats may act, you among them: you have until the quickest bot acts
        (or the phase's time limit) to act first."""
        state = self.state
        quickest: tuple[float, int, Action] | None = None
        for seat in state.to_act():
            bot = self.bots[seat]
            if bot is None:
                continue
            action = bot.choose(self.views[seat])
            if action is not None:
                delay = bot.reaction_time(self.views[seat])
                if quickest is None or delay < quickest[0]:
                    quickest = (delay, seat, action)
        limit = state.timeout()
        deadlines = [d for d in (quickest and quickest[0], limit and limit[0]) if d is not None]
        if self.human_turn(min(deadlines) if deadlines else None):
            return
        if quickest is not None and (limit is None or quickest[0] <= limit[0]):
            self.apply(quickest[2], quickest[1])
        elif limit is not None:
            self.console.print("[dim]Time is up.[/dim]")
            self.apply(limit[1], TABLE)

    def human_turn(self, deadline: float | None = None) -> bool:
        """Show the table and ask for an action; False if ``deadline`` seconds passed first."""
        state, console = self.state, self.console
        obs = state.observation(self.seat)
        console.print()
        console.print(self.view.table(obs, self.names))
        legal = state.legal_actions(self.seat)
        # A view may number only some actions (Memo Match: not every flip) and hint the rest.
        numbered = self.view.menu(legal, obs) if hasattr(self.view, "menu") else legal
        menu = Table(box=None, show_header=False, pad_edge=False)
        for number, action in enumerate(numbered, 1):
            menu.add_row(f"[bold]{number}[/bold].", self.view.action_label(action, obs))
        console.print(menu)
        if hasattr(self.view, "hint"):
            console.print(Text(self.view.hint(obs), style="dim"))
        ends = None if deadline is None else time.monotonic() + deadline
        while True:
            prompt = "[bold]Your move:[/bold] "
            if ends is not None:
                prompt = f"[bold]Your move[/bold] ({max(0.0, ends - time.monotonic()):.0f} s): "
            answer = self.ask(prompt, None if ends is None else ends - time.monotonic())
            if answer is None:
                return False
            chosen = self.read_action(answer.strip(), numbered, obs)
            if chosen is None:
                continue
            try:
                self.apply(chosen, self.seat)
                return True
            except TripleTopperError as exc:
                console.print(f"[red]{exc}[/red]")

    def ask(self, prompt: str, seconds: float | None) -> str | None:
        """A line from the player; None if ``seconds`` pass first (on a real terminal)."""
        if seconds is None or not sys.stdin.isatty():
            try:
                return self.console.input(prompt)
            except EOFError:
                raise Quit from None
        if seconds <= 0:
            return None
        self.console.print(prompt, end="")
        ready, _, _ = select.select([sys.stdin], [], [], seconds)
        if not ready:
            self.console.print()
            return None
        line = sys.stdin.readline()
        if not line:
            raise Quit
        return line

    def read_action(
        self, answer: str, legal: list[Action], obs: dict[str, Any] | None = None
    ) -> Action | None:
        console = self.console
        if not answer:
            return None
        low = answer.lower()
        if low in ("q", "quit", "exit"):
            raise Quit
        if low in ("?", "h", "help"):
            console.print(Text(HELP_TEXT, style="dim"))
            console.print("Text forms: " + ", ".join(self.game.action_to_text(a) for a in legal))
            return None
        if low == "rules":
            console.print(Markdown(rules_page(self.game.name)))
            return None
        if answer.isdigit():
            number = int(answer)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            console.print(f"[red]Choose a number from 1 to {len(legal)}.[/red]")
            return None
        if obs is not None and hasattr(self.view, "read"):  # a view's shortcut ("C7")
            shortcut: Action | None = self.view.read(answer, obs)
            if shortcut is not None:
                return shortcut
        try:
            return self.game.parse_action(answer)
        except TripleTopperError as exc:
            console.print(f"[red]{exc}[/red]")
            return None

    def apply(self, action: Action, seat: int) -> list[Event]:
        events = self.state.apply(action, seat)
        for bot in self.bots:  # bots with a memory hear what their seat sees
            if bot is not None and bot.wants_events:
                bot.observe([event.view(bot.seat) for event in events])
        for event in events:
            text = narration(self.game.describe_event(event.view(self.seat), self.names))
            if event.type in ("hand_over", "game_over", "knocked"):
                text.stylize("bold")
            self.console.print(text)
        return events

    def show_results(self, results: Results | None) -> None:
        if results is None:
            return
        table = Table(title="Final standings", show_lines=False)
        table.add_column("place", justify="right")
        table.add_column("player")
        table.add_column("score", justify="right")
        place = 1
        for group in results.ranking:
            for seat in group:
                winner = " (winner)" if seat in results.winners else ""
                table.add_row(str(place), self.names[seat] + winner, f"{results.scores[seat]:g}")
            place += len(group)
        self.console.print(table)
