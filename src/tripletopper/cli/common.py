"""Options shared by the commands: choosing a game, its options and bots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any, TypeVar

import click

from tripletopper.bots import bot_factory
from tripletopper.engine import Game, parse_option_pairs
from tripletopper.errors import TripleTopperError
from tripletopper.games import game_class

F = TypeVar("F", bound=Callable[..., Any])

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
"""Names given to the bots at a terminal table."""


def game_options(func: F) -> F:
    """--players, --option and --seed, shared by play and simulate."""
    func = click.option(
        "--seed", type=int, default=None, help="Random seed (same seed, same game)."
    )(func)
    func = click.option(
        "--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
        help="A game option, e.g. -o counters=12 (see `tripletopper games`).",
    )(func)  # fmt: skip
    func = click.option("--players", "-p", type=int, default=None, help="Number of players.")(func)
    return func


def build_game(name: str, players: int | None, options: Sequence[str]) -> Game:
    """The game from command-line words, or a usage error naming what was wrong."""
    try:
        cls = game_class(name)
        given = parse_option_pairs(options)
        return cls(players if players is not None else cls.min_players, **given)
    except TripleTopperError as exc:
        raise click.UsageError(str(exc)) from None


def rules_page(game_name: str) -> str:
    """The project's rules page of a game (Markdown shipped in the package)."""
    return resources.files("tripletopper.rules").joinpath(f"{game_name}.md").read_text("utf-8")


def split_bots(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def check_bots(specs: Sequence[str], game: Game) -> None:
    for spec in specs:
        try:
            bot_factory(spec, game)
        except TripleTopperError as exc:
            raise click.UsageError(str(exc)) from None
