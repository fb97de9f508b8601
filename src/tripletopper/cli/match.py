"""``tripletopper match``: one bot against another on duplicate deals, stopped by an SPRT."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from tripletopper.cli.common import build_game, check_bots, game_options, worker_options
from tripletopper.errors import TripleTopperError
from tripletopper.games import game_class
from tripletopper.match import Match, Sprt, deal_seatings, elo_text, run_match, score_of
from tripletopper.parallel import RayUnavailable

ELO0, ELO1 = 0.0, 50.0
"""The default SPRT bounds (logistic Elo): is A stronger, by about 50 Elo (a 57% score)?"""


@click.command("match", context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("game")
@click.argument("bot_a")
@click.argument("bot_b")
@game_options
@click.option(
    "--games",
    "-n",
    "max_games",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="Stop here if the SPRT has not decided (whole deals, at least one).",
)
@click.option(
    "--seconds",
    "time_limit",
    type=click.FloatRange(min=0),
    default=None,
    help="Stop after the first deal that ends past this many seconds (verdict inconclusive).",
)
@click.option(
    "--elo0", type=float, default=None, help=f"H0: A is this much stronger (Elo; default {ELO0:g})."
)
@click.option(
    "--elo1", type=float, default=None, help=f"H1: A is this much stronger (Elo; default {ELO1:g})."
)
@click.option("--score0", type=float, default=None, help="H0 as A's score (instead of --elo0).")
@click.option("--score1", type=float, default=None, help="H1 as A's score (instead of --elo1).")
@click.option(
    "--fixed",
    is_flag=True,
    help="Play all --games, never stopping early: an unbiased score (the verdict is the "
    "last LLR's).  Quote scores from fixed runs; an SPRT's stop overstates the winner.",
)
@click.option("--alpha", type=float, default=0.05, show_default=True, help="False H1 rate.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="False H0 rate.")
@worker_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--progress/--no-progress", default=None, help="Progress bar (default: on a terminal)."
)
def match_command(
    game: str,
    bot_a: str,
    bot_b: str,
    players: int | None,
    options: Sequence[str],
    seed: int | None,
    questions: str | None,
    max_games: int,
    time_limit: float | None,
    elo0: float | None,
    elo1: float | None,
    score0: float | None,
    score1: float | None,
    fixed: bool,
    alpha: float,
    beta: float,
    workers: int | None,
    ray: str | None,
    as_json: bool,
    progress: bool | None,
) -> None:
    """Play BOT_A against BOT_B in GAME on duplicate deals (every deal from every seat)
    until an SPRT decides whether A is stronger; report A's score (95% interval), the Elo
    difference, the likelihood of superiority and the verdict.  Multiplayer games seat
    A, B, A, B, ... and score A's place against B's, pair by pair."""
    if players is None:
        try:
            players = max(2, game_class(game).min_players)
        except TripleTopperError as exc:
            raise click.UsageError(str(exc)) from None
    the_game = build_game(game, players, options, questions)
    if the_game.players < 2:
        raise click.UsageError(f"a match needs at least 2 players (got {the_game.players})")
    check_bots([bot_a, bot_b], the_game)
    sprt = _sprt(elo0, elo1, score0, score1, alpha, beta)
    err = Console(stderr=True)
    show = err.is_terminal if progress is None else progress
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not show,
        transient=True,
    )
    with bar:
        per_deal = len(deal_seatings(the_game.players))
        task = bar.add_task(f"{bot_a} vs {bot_b}", total=max(1, max_games // per_deal) * per_deal)
        try:
            result = run_match(
                the_game,
                bot_a,
                bot_b,
                sprt,
                max_games,
                seed or 0,
                workers=workers,
                ray=ray,
                seconds=time_limit,
                fixed=fixed,
                on_game=lambda done: bar.update(task, completed=done),
            )
        except RayUnavailable as exc:
            raise click.ClickException(str(exc)) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        print_match(result, Console(highlight=False))


def _sprt(
    elo0: float | None,
    elo1: float | None,
    score0: float | None,
    score1: float | None,
    alpha: float,
    beta: float,
) -> Sprt:
    if (elo0 is not None or elo1 is not None) and (score0 is not None or score1 is not None):
        raise click.UsageError("give the SPRT bounds as --elo0/--elo1 or as --score0/--score1")
    low = score0 if score0 is not None else score_of(ELO0 if elo0 is None else elo0)
    high = score1 if score1 is not None else score_of(ELO1 if elo1 is None else elo1)
    try:
        return Sprt(low, high, alpha, beta)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def print_match(result: Match, console: Console) -> None:
    data = result.to_json()
    a, b = data["bots"]["A"], data["bots"]["B"]
    low, high = data["score_95"]
    sprt = data["sprt"]
    console.print(
        f"[bold]{result.game.title}[/bold], {result.game.players} players: "
        f"A = {a} against B = {b}, seed {data['seed']}"
    )
    console.print(
        f"{data['deals']} deals x {len(data['seatings'])} games "
        f"(seats {', '.join(data['seatings'])}) = {data['games']} games, {data['seconds']:.1f} s"
    )
    console.print(
        f"A's score [bold]{data['score']:.1%}[/bold] (95%: {low:.1%}-{high:.1%}), "
        f"Elo {elo_text(data['score'])} ({elo_text(low)} to {elo_text(high)}), "
        f"LOS {data['los']:.1%}"
    )
    pairs = data["pairs"]
    console.print(
        f"pairs: A ahead {pairs['a_better']}, level {pairs['same']}, B ahead {pairs['b_better']}"
    )
    verdict = {
        "H1": "H1 accepted: A is stronger",
        "H0": f"H0 accepted: A is not {sprt['elo1']:g} Elo stronger",
        "inconclusive": "inconclusive (the "
        + ("time limit" if data["timed_out"] else "game cap")
        + " came first)",
    }[sprt["verdict"]]
    if data["fixed"]:
        verdict = f"{verdict.partition(' (')[0]}, after all {data['games']} games (--fixed)"
    console.print(
        f"SPRT elo0 {sprt['elo0']:g}, elo1 {sprt['elo1']:g} (scores {sprt['score0']:.3f}, "
        f"{sprt['score1']:.3f}), alpha {sprt['alpha']:g}, beta {sprt['beta']:g}"
    )
    console.print(
        f"LLR {sprt['llr']:.2f} (bounds {sprt['lower']:.2f}, {sprt['upper']:.2f}): "
        f"[bold]{verdict}[/bold]"
    )
    for name, times in data["decision_seconds"].items():
        if times["p95"] is not None:
            console.print(f"{name}: p95 decision {times['p95'] * 1000:.0f} ms")
