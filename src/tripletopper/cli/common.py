"""Options shared by the commands: choosing a game, its options and bots."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any, TypeVar

import click

from tripletopper.bots import bot_factory
from tripletopper.engine import Game, parse_option_pairs
from tripletopper.errors import TripleTopperError
from tripletopper.question_banks import load_bank, make_game

F = TypeVar("F", bound=Callable[..., Any])

NAMES = ("Ann", "Ben", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy")
"""Names given to the bots at a terminal table."""


def questions_option(func: F) -> F:
    """--questions FILE: a user question bank (Quiz Show)."""
    return click.option(
        "--questions",
        "questions",
        type=click.Path(exists=True, dir_okay=False),
        default=None,
        help="A question bank file (JSON lines or CSV) for the Quiz Show; see docs/questions.md.",
    )(func)


def game_options(func: F) -> F:
    """--players, --option, --seed and --questions, shared by play and simulate."""
    func = questions_option(func)
    func = click.option(
        "--seed", type=int, default=None, help="Random seed (same seed, same game)."
    )(func)
    func = click.option(
        "--option",
        "-o",
        "options",
        multiple=True,
        metavar="NAME=VALUE",
        help="A game option, e.g. -o counters=12 (see `tripletopper games`).",
    )(func)
    func = click.option("--players", "-p", type=int, default=None, help="Number of players.")(func)
    return func


def worker_options(func: F) -> F:
    """--workers and --ray: where the games of a batch command are played."""
    func = click.option(
        "--ray",
        "ray",
        default=None,
        metavar="auto|local|ADDRESS",
        help="Run on a Ray cluster instead: 'auto' (the cluster this machine joined), 'local' "
        "(start one here) or the head's address. Needs tripletopper[cluster].",
    )(func)
    func = click.option(
        "--workers",
        "-w",
        type=click.IntRange(min=1),
        default=None,
        help="Worker processes (default: one per core).",
    )(func)
    return func


def build_game(
    name: str, players: int | None, options: Sequence[str], questions: str | None = None
) -> Game:
    """The game from command-line words, or a usage error naming what was wrong.

    ``questions`` is a question bank file: it is loaded and named by the game's
    ``questions`` option.
    """
    try:
        given: dict[str, object] = dict(parse_option_pairs(options))
        if questions is not None:
            given["questions"] = load_bank(questions).ident
        return make_game(name, players, **given)
    except TripleTopperError as exc:
        raise click.UsageError(str(exc)) from None


def load_questions(questions: str | None) -> None:
    """Load a question bank file so that saved games naming it can be replayed."""
    if questions is None:
        return
    try:
        load_bank(questions)
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
