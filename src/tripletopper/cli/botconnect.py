"""``tripletopper bot connect``: run a built-in bot as a bot account of a card room."""

from __future__ import annotations

import click


@click.group("bot", context_settings={"help_option_names": ["-h", "--help"]})
def bot_command() -> None:
    """Bot accounts at an online card room (docs/bots-api.md)."""


@bot_command.command("connect")
@click.option("--server", required=True, metavar="URL", help="The room, e.g. http://127.0.0.1:8032")
@click.option(
    "--token",
    required=True,
    envvar="TT_BOT_TOKEN",
    help="The bot account's API token (or TT_BOT_TOKEN).",
)
@click.option(
    "--bot",
    "spec",
    default="medium",
    show_default=True,
    help="The built-in bot that decides (medium, heuristic, random...).",
)
@click.option(
    "--decline-rematches",
    is_flag=True,
    help="Say no to rematches (by default it accepts each one).",
)
def connect(server: str, token: str, spec: str, decline_rematches: bool) -> None:
    """Connect as the token's bot account and play every table it is invited to (and
    every rematch it is offered, unless --decline-rematches)."""
    from tripletopper.server.botclient import connect_command

    connect_command(server, token, spec, rematches=not decline_rematches)
