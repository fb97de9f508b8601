"""``tripletopper odds``: what a draw, a take, a knock or a flip is worth, from the rules."""

from __future__ import annotations

from collections.abc import Sequence

import click
from rich.console import Console
from rich.table import Table

from tripletopper.analysis.odds import draw_odds, knock_odds
from tripletopper.cli.common import build_game
from tripletopper.engine import Game
from tripletopper.errors import TripleTopperError
from tripletopper.games.memo_match import MemoMatch, flip_odds
from tripletopper.games.toe import open_lines


@click.command("odds", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@click.argument("hand")
@click.option(
    "--known",
    default="",
    metavar="CARDS",
    help="Cards that cannot be drawn or flipped: seen in the pile, in hands, gone.",
)
@click.option(
    "--up",
    "up",
    default=None,
    metavar="CARD",
    help="The face-up discard (Thirty-One, Thirty-Two): the value of taking it.",
)
@click.option(
    "--players",
    "-p",
    type=int,
    default=None,
    help="Players at the table (the knock table marks this row).",
)
@click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="NAME=VALUE",
    help="A game option, e.g. -o no_wilds=true.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=100),
    default=20_000,
    show_default=True,
    help="Deals sampled per player count and seat for the knock table.",
)
def odds_command(
    game: str,
    hand: str,
    known: str,
    up: str | None,
    players: int | None,
    options: Sequence[str],
    samples: int,
) -> None:
    """Odds for HAND in GAME. Thirty-One and Thirty-Two: HAND is your three cards ("AS KS
    9H"); Memo Match: the card face up; Toe: the board, 64 characters X, O or . in cell
    order."""
    the_game = build_game(game, players, options)
    console = Console(highlight=False)
    try:
        if the_game.name == "toe":
            show_lines(open_lines(hand), console)
        elif isinstance(the_game, MemoMatch):
            card = the_game.deck.parse(hand)
            gone = the_game.deck.parse_many(known)
            matching, unknown = flip_odds(the_game.variables, card, gone)
            console.print(
                f"A random unknown card pairs with {the_game.deck.format(card)}: {matching} of "
                f"{unknown} = {matching / unknown:.1%}"
            )
        else:
            show_hand(the_game, hand, known, up, players, samples, console)
    except (TripleTopperError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None


def show_hand(
    game: Game,
    hand_text: str,
    known_text: str,
    up_text: str | None,
    players: int | None,
    samples: int,
    console: Console,
) -> None:
    deck = game.deck
    hand = deck.parse_many(hand_text)
    known = deck.parse_many(known_text)
    up = deck.parse(up_text) if up_text else None
    odds = draw_odds(game, hand, known, up)
    console.print(f"[bold]{' '.join(deck.format_many(hand))}[/bold] is worth {odds.now:g}.")
    table = Table(title=f"After drawing one of {odds.unseen} unseen cards, keeping the best three")
    for column in ("value", "chance", "this or more"):
        table.add_column(column, justify="right")
    for value, chance in sorted(odds.after_draw.items(), reverse=True):
        table.add_row(f"{value:g}", f"{chance:.1%}", f"{odds.at_least(value):.1%}")
    console.print(table)
    console.print(
        f"Mean after a draw {odds.mean:.2f}; the draw improves the hand {odds.improves:.1%}."
    )
    if odds.take is not None and up is not None:
        console.print(f"Taking {deck.format(up)} makes {odds.take:g}.")
    counts = range(max(3, game.min_players), game.max_players + 1)
    if game.name == "thirty-one":
        counts = range(game.min_players, 7)
    held = knock_odds(game, odds.now, counts, hand, known, samples)
    knock = Table(
        title=f"A knock with {odds.now:g} on your first turn holds up, by your seat in the "
        f"order of play (1: first after the dealer; sampled, {samples} deals each)"
    )
    knock.add_column("players", justify="right")
    for seat in range(1, max(counts) + 1):
        knock.add_column(f"seat {seat}", justify="right")
    for count, by_seat in held.items():
        mark = " <" if count == players else ""
        knock.add_row(f"{count}{mark}", *(f"{chance:.1%}" for chance in by_seat.values()))
    console.print(knock)


def show_lines(lines: dict[str, list[int]], console: Console) -> None:
    table = Table(title="Lines still open (none of the other side's marks), by own marks")
    table.add_column("side")
    for marks in range(5):
        table.add_column(str(marks), justify="right")
    table.add_column("open", justify="right")
    for side, counts in lines.items():
        table.add_row(side, *map(str, counts), str(sum(counts)))
    console.print(table)
