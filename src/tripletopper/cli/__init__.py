"""The ``tripletopper`` command: play, simulate, tournament, match, analyze, odds, rules, replay,
review, games, bots, serve, db, bot connect."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from tripletopper import __version__
from tripletopper.bots import bot_class, bot_names
from tripletopper.cli.analyze import analyze_command
from tripletopper.cli.botconnect import bot_command
from tripletopper.cli.common import rules_page
from tripletopper.cli.db import db_command
from tripletopper.cli.match import match_command
from tripletopper.cli.odds import odds_command
from tripletopper.cli.play import play_command
from tripletopper.cli.replay import replay_command
from tripletopper.cli.review import review_command
from tripletopper.cli.serve import serve_command
from tripletopper.cli.simulate import simulate_command
from tripletopper.cli.tournament import tournament_command
from tripletopper.engine import Game
from tripletopper.errors import TripleTopperError
from tripletopper.games import GAMES, game_class

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


@click.group(context_settings=CONTEXT)
@click.version_option(__version__, prog_name="tripletopper")
def cli() -> None:
    """The Triple Topper card games: play against bots, simulate, read the rules, replay."""


@cli.command(context_settings=CONTEXT)
def games() -> None:
    """List the games, their player counts and options."""
    console = Console(highlight=False)
    for name in sorted(GAMES):
        cls = GAMES[name]
        console.print(
            f"[bold]{name}[/bold]  {cls.title}, {cls.min_players}-{cls.max_players} players"
        )
        table = Table(box=None, show_header=False, pad_edge=False)
        for option in cls.options_schema:
            default = option.default_text or str(option.default)
            table.add_row(f"  {option.name}", f"{option.allowed()}; default {default}", option.help)
        console.print(table)


@cli.command(context_settings=CONTEXT)
@click.argument("game")
def bots(game: str) -> None:
    """List the bots that play GAME."""
    cls = _game_or_exit(game)
    for name in bot_names(cls.name):
        click.echo(f"{name:12} {bot_class(name, cls.name).description}")


@cli.command(context_settings=CONTEXT)
@click.argument("game")
def rules(game: str) -> None:
    """Print the rules of GAME as this project plays them."""
    cls = _game_or_exit(game)
    Console().print(Markdown(rules_page(cls.name)))


def _game_or_exit(name: str) -> type[Game]:
    try:
        return game_class(name)
    except TripleTopperError as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None


cli.add_command(play_command)
cli.add_command(simulate_command)
cli.add_command(replay_command)
cli.add_command(review_command)
cli.add_command(tournament_command)
cli.add_command(match_command)
cli.add_command(serve_command)
cli.add_command(db_command)
cli.add_command(analyze_command)
cli.add_command(odds_command)
cli.add_command(bot_command)


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the console script."""
    cli.main(args=list(argv) if argv is not None else sys.argv[1:], prog_name="tripletopper")
