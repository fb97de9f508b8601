"""``tripletopper play``: you against bots (or people at one keyboard) at a terminal table.

Everything shown to you is built from your seat's observation and from events
as your seat sees them, so the terminal never shows a card you could not see at
a real table.  With several people at one keyboard (``--humans``) each sees
only their own seat's view, on a screen cleared before the keyboard is passed;
in races (buzzing in) each person has a key and the shared screen shows the
public view only.  A timed phase (``State.timeout()``) gives the person to act
its time limit, after which the table's clock plays the timeout.  Cards that are
up only for a moment (a Memo Match miss, see the view's ``moment``) are drawn
for :data:`MOMENT_SECONDS` and then wiped, on a real terminal only: printed
elsewhere they would stay.
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
from rich.live import Live
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from tripletopper.bots import Bot, SeatView, default_bot, make_bot
from tripletopper.bots.base import first_to_act
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
from tripletopper.engine import CLOCK, Action, Event, Game, Results, State, derive_seed
from tripletopper.errors import TripleTopperError
from tripletopper.record import Record
from tripletopper.runner import choose_next

try:
    import termios
except ImportError:  # not a POSIX terminal: nothing to flush
    termios = None  # type: ignore[assignment]

HELP_TEXT = (
    "Type the number of an action, or its text form (e.g. 'draw', 'discard RC1').  "
    "'?' lists the text forms, 'rules' shows the rules, 'quit' leaves."
)


MOMENT_SECONDS = 2.0
"""How long the terminal shows cards that are up only for a moment."""


class Quit(Exception):
    """The player left the table."""


def _question(obs: dict[str, Any]) -> int | None:
    """The number of the Quiz Show question on the table (None: none is being read)."""
    quiz = obs.get("quiz")
    question = quiz.get("question") if isinstance(quiz, dict) else None
    return question["number"] if question else None


@click.command("play", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@game_options
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 = first).")
@click.option(
    "--bots",
    "bot_list",
    default=None,
    metavar="A,B,...",
    help="Bots for the other seats, in seat order (repeated to fill; default the game's "
    "medium level).",
)
@click.option("--save", type=click.Path(dir_okay=False), help="Save the game to this file.")
@click.option(
    "--name", "names", multiple=True, help="Your name at the table (repeat it with --humans)."
)
@click.option(
    "--humans",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Players at this keyboard, from --seat on (hot seat: hidden cards are shown to "
    "each in turn, with a screen to pass the keyboard).",
)
def play_command(
    game: str,
    players: int | None,
    options: Sequence[str],
    seed: int | None,
    seat: int,
    bot_list: str | None,
    save: str | None,
    names: Sequence[str],
    humans: int,
    questions: str | None,
) -> None:
    """Play GAME against bots (or other people at this keyboard) in the terminal."""
    the_game = build_game(game, players, options, questions)
    if not 0 <= seat < the_game.players:
        raise click.UsageError(f"--seat must be from 0 to {the_game.players - 1}")
    if humans > the_game.players:
        raise click.UsageError(f"--humans must be at most {the_game.players}")
    if len(names) > humans:
        raise click.UsageError("give at most one --name per human player")
    specs = split_bots(bot_list) or [default_bot(the_game.name)]
    check_bots(specs, the_game)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    console = Console(highlight=False)
    table = TerminalTable(the_game, seat, specs, seed, console, names, humans)
    try:
        table.run()
    except Quit:
        console.print("You leave the table.")
    finally:
        if save:
            meta = {"human_seat": seat}
            if humans > 1:
                meta["human_seats"] = list(table.humans)  # type: ignore[assignment]
            Record.from_state(table.state, table.names, **meta).save(save)
            console.print(f"Game saved to {save} (replay it with `tripletopper replay {save}`).")


BUZZ_KEYS = "alzm"
"""Keys the players at one keyboard type to act first in a race (buzzing in)."""


class TerminalTable:
    """A game at the terminal: bots and one or more people at this keyboard.

    ``seat`` is the person at the keyboard now.  With several people (hot seat)
    the keyboard is passed between them on a cleared screen, and each is told
    what happened since their last go, as their own seat saw it.
    """

    humans: tuple[int, ...] = ()
    """The seats played at this keyboard (empty means just ``seat``)."""
    shown_question: int | None = None
    """The Quiz Show question the last table printed (so that it is printed once)."""

    def __init__(
        self,
        game: Game,
        seat: int,
        specs: Sequence[str],
        seed: int,
        console: Console,
        name: str | Sequence[str] = "You",
        humans: int = 1,
    ) -> None:
        self.game = game
        self.seat = seat
        self.console = console
        self.view = view_for(game)
        self.humans = tuple((seat + i) % game.players for i in range(humans))
        given = [name] if isinstance(name, str) else list(name)
        default = ["You"] if humans == 1 else []
        human_names = given + default[len(given) :]
        others = [s for s in range(game.players) if s not in self.humans]
        self.specs = {s: specs[i % len(specs)] for i, s in enumerate(others)}
        self.names = []  # narration says "you" for the seat named YOU
        for s in range(game.players):
            if s in self.humans:
                index = self.humans.index(s)
                self.names.append(human_names[index] if index < len(human_names) else NAMES[s])
            else:
                self.names.append(f"{NAMES[s]} ({self.specs[s]})")
        self.state: State = game.new_state(seed)
        self.bots: list[Bot | None] = [
            make_bot(self.specs[s], game, s, derive_seed(seed, s, 1)) if s in self.specs else None
            for s in range(game.players)
        ]
        self.views = [SeatView(self.state, s) for s in range(game.players)]
        self.backlog: dict[int, list[Text]] = {s: [] for s in self.humans}

    def players_here(self) -> tuple[int, ...]:
        return self.humans or (self.seat,)

    def run(self) -> None:
        console = self.console
        seed = self.state.origin["seed"]
        console.print(f"[bold]{self.game.title}[/bold] - {self.game.players} players, seed {seed}.")
        console.print(Text(HELP_TEXT, style="dim"))
        state = self.state
        here = self.players_here()
        while not state.is_terminal():
            seats = state.to_act()
            mine = [s for s in seats if s in here]
            if not mine:
                self.bot_turn()
            elif len(seats) == 1:
                self.seat_turn(mine[0])
            else:
                self.race()
        self.show_results(state.results())

    def seat_turn(self, seat: int) -> None:
        """A person's turn; a timed phase (such as answering a question) may run out."""
        self.hand_to(seat)
        limit = self.state.timeout()
        if not self.human_turn(limit[0] if limit else None) and limit is not None:
            self.console.print("[dim]Time is up.[/dim]")
            self.apply(limit[1], CLOCK)

    def hand_to(self, seat: int) -> None:
        """Pass the keyboard to ``seat``: clear the screen first if it was someone else's."""
        if seat == self.seat or len(self.players_here()) < 2:
            self.seat = seat
            return
        self.clear_screen()
        self.ask(f"[bold]Pass the keyboard to {self.names[seat]}[/bold], then press Enter. ", None)
        self.clear_screen()
        self.seat = seat
        self.flush()

    def clear_screen(self) -> None:
        """Wipe the screen and its scrollback, so nobody can scroll up to another's cards."""
        console = self.console
        console.clear()
        if console.is_terminal:
            console.file.write("\x1b[3J")

    def bot_turn(self) -> None:
        seat, action = choose_next(self.state, self.bots, self.views)
        self.apply(action, seat)

    def race(self) -> None:
        """Several seats may act, people among them: they have until the quickest bot
        acts (or the phase's time limit) to act first."""
        state = self.state
        first = first_to_act(state, self.bots, self.views)
        deadline = None if first is None else first.delay
        racing = [s for s in state.to_act() if s in self.players_here()]
        if len(racing) > 1:
            acted = self.key_race(racing, deadline)
        else:
            self.hand_to(racing[0])
            # The prompt counts down the phase's own limit: when a bot will act is its secret.
            limit = state.timeout()
            acted = self.human_turn(deadline, race=True, shown=limit[0] if limit else None)
        if acted or first is None:
            return
        if first.seat == CLOCK:
            self.console.print("[dim]Time is up.[/dim]")
        self.apply(first.action, first.seat)

    def key_race(self, racing: list[int], deadline: float | None) -> bool:
        """People at one keyboard race: each has a key; the first to type it acts.

        The shared screen shows the public view only.  A player whose only
        action is the race's (buzzing in) acts at once; otherwise the keyboard
        is passed to them to choose, with the time that is left.
        """
        console, state = self.console, self.state
        ends = None if deadline is None else time.monotonic() + deadline
        self.clear_screen()  # the last player's own view may still be on screen
        console.print(self.view.table(state.public_observation(), self.names))
        keys = {BUZZ_KEYS[i]: seat for i, seat in enumerate(racing[: len(BUZZ_KEYS)])}
        hint = ", ".join(f"{self.names[seat]} types {key}" for key, seat in keys.items())
        console.print(f"[bold]Race![/bold] {hint} (then Enter).")
        while True:
            left = None if ends is None else ends - time.monotonic()
            answer = self.ask("[bold]Key:[/bold] ", left)
            if answer is None:
                return False
            key = answer.strip().lower()
            if key in ("q", "quit", "exit"):
                raise Quit
            seat = keys.get(key)
            if seat is None:
                console.print(f"[red]Type one of {', '.join(keys)}.[/red]")
                continue
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                self.apply(legal[0], seat)
                return True
            self.hand_to(seat)
            return self.human_turn(None if ends is None else ends - time.monotonic())

    def human_turn(
        self, deadline: float | None = None, race: bool = False, shown: float | None = None
    ) -> bool:
        """Show the table and ask for an action; False if ``deadline`` seconds passed first.

        In a race (``race``) a lone action, such as buzzing in, is also taken by Enter.
        The prompt counts down ``shown`` seconds if given (a race's own time limit), else
        ``deadline``.
        """
        state, console = self.state, self.console
        obs = state.observation(self.seat)
        console.print()
        asked = _question(obs)
        mine = asked is not None and obs["quiz"]["buzzer"] == self.seat
        if mine and asked == self.shown_question:
            console.print("You buzzed in: answer.")  # the question is on the screen already
        else:
            console.print(self.view.table(obs, self.names))
        self.shown_question = asked
        legal = state.legal_actions(self.seat)
        # A view may group or leave unnumbered some actions (a wild card that fits many
        # cells, Memo Match's hundred flips): its menu lines are (action or None, label).
        custom = getattr(self.view, "menu", None)
        lines = custom(legal, obs) if custom is not None else None
        if lines is None:
            lines = [(a, self.view.action_label(a, obs)) for a in legal]
        numbered = [action for action, _ in lines if action is not None]
        menu = Table(box=None, show_header=False, pad_edge=False)
        number = 0
        for action, label in lines:
            if action is not None:
                number += 1
            menu.add_row(f"[bold]{number}[/bold]." if action is not None else "", label)
        console.print(menu)
        if hasattr(self.view, "hint"):
            console.print(Text(self.view.hint(obs), style="dim"))
        quick = race and len(legal) == 1
        if quick:
            console.print("[dim](Enter alone does it.)[/dim]")
        ends = None if deadline is None else time.monotonic() + deadline
        counted = ends if shown is None else time.monotonic() + shown
        while True:
            prompt = "[bold]Your move:[/bold] "
            if counted is not None:
                left = max(0.0, counted - time.monotonic())
                prompt = f"[bold]Your move[/bold] ({left:.0f} s): "
            answer = self.ask(prompt, None if ends is None else ends - time.monotonic())
            if answer is None:
                return False
            if quick and not answer.strip():
                answer = "1"
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
        if termios is not None:  # what was typed before (for another question) never counts
            termios.tcflush(sys.stdin, termios.TCIFLUSH)
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
        """Apply an action; each person is told its events as their seat sees them."""
        events = self.state.apply(action, seat)
        for bot in self.bots:  # bots with a memory hear what their seat sees
            if bot is not None and bot.wants_events:
                bot.observe([event.view(bot.seat) for event in events])
        backlog = getattr(self, "backlog", None) or {self.seat: []}
        racing = self.state.to_act() if len(self.state.to_act()) > 1 else []
        for viewer, lines in backlog.items():
            for event in events:
                if event.type == "question" and viewer in racing:
                    continue  # the table asking them to buzz shows it: printed once
                text = narration(self.game.describe_event(event.view(viewer), self.names))
                if event.type in ("hand_over", "game_over", "knocked"):
                    text.stylize("bold")
                lines.append(text)
        self.backlog = backlog
        self.flush()
        self.show_moment(events)
        return events

    def show_moment(self, events: list[Event]) -> None:
        """Draw what is up only for a moment, as the person at the keyboard sees it, then
        wipe the screen (a pipe cannot wipe anything, so there it is not drawn).

        The whole screen goes, not just that line: the table drawn for the person's
        last flip may show one of the cards.  The action's narration is told again.
        """
        moment = getattr(self.view, "moment", None)
        if moment is None or not self.console.is_terminal:
            return
        seen = [event.view(self.seat) for event in events]
        shown = moment(seen)
        if shown is None:
            return
        with Live(shown, console=self.console, transient=True, auto_refresh=False):
            time.sleep(MOMENT_SECONDS)
        self.clear_screen()
        for view in seen:
            self.console.print(narration(self.game.describe_event(view, self.names)))

    def flush(self) -> None:
        """Print what the person at the keyboard has not been told yet."""
        lines = self.backlog.get(self.seat, [])
        for text in lines:
            self.console.print(text)
        lines.clear()

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
