"""The difficulty ladder of every game, measured with ``tripletopper match`` (docs/bots.md).

For each game and player count, one match per rung of the ladder (medium
against easy, hard against medium, expert against hard: the stronger bot is A)
on duplicate deals, stopped by an SPRT (H0: level, H1: A 50 Elo stronger).  A
rung holds when H1 is accepted and A's score interval excludes 50%.  Then, at
two players, the head-to-head target: hard against medium with the SPRT bounds
placed 5 points either side of the target score (60%; Toe 65%), so H1 says
"about the target or better" and H0 "short of it".  Prints one table row per
match and the exact command that reproduces it.

    python benchmarks/bot_ladder.py                          # every game: hours of CPU
    python benchmarks/bot_ladder.py --only memo-match --players 2 --games 200
    python benchmarks/bot_ladder.py --rungs expert-hard --seconds 480   # capped matches
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from itertools import pairwise

from tripletopper.match import Match, Sprt, elo_text, run_match
from tripletopper.question_banks import make_game

LADDER = ("easy", "medium", "hard", "expert")
PLAYERS = {
    "thirty-two": (3, 4),  # played by 3 to 8
    "thirty-one": (2, 4),
    "three-up-three-down": (2, 4),
    "toe": (2,),
    "memo-match": (2, 4),
}
TARGET = {"toe": 0.65}
"""Hard's target score against medium at two players (default 60%)."""
ELO0, ELO1 = 0.0, 50.0
RUNGS = (*(f"{strong}-{weak}" for weak, strong in pairwise(LADDER)), "target")
"""Rung names for ``--rungs``: a ladder step (A-B), or the head-to-head target."""


@dataclass(frozen=True)
class Run:
    game: str
    players: int
    a: str
    b: str
    score0: float | None = None  # SPRT bounds as scores (else ELO0, ELO1)
    score1: float | None = None

    def sprt(self) -> Sprt:
        if self.score0 is None or self.score1 is None:
            return Sprt.from_elo(ELO0, ELO1)
        return Sprt(self.score0, self.score1)

    @property
    def rung(self) -> str:
        return f"{self.a}-{self.b}" if self.score0 is None else "target"

    def command(self, games: int, seed: int, seconds: float | None) -> str:
        bounds = (
            f"--elo0 {ELO0:g} --elo1 {ELO1:g}"
            if self.score0 is None
            else f"--score0 {self.score0:g} --score1 {self.score1:g}"
        )
        return (
            f"tripletopper match {self.game} {self.a} {self.b} -p {self.players} "
            f"--games {games} --seed {seed} {bounds}"
            + ("" if seconds is None else f" --seconds {seconds:g}")
        )


def runs(only: set[str] | None, players: int | None, rungs: set[str]) -> list[Run]:
    out = []
    for game, counts in PLAYERS.items():
        if only and game not in only:
            continue
        for count in counts:
            if players and count != players:
                continue
            out += [Run(game, count, strong, weak) for weak, strong in pairwise(LADDER)]
            if count == 2:
                target = TARGET.get(game, 0.60)
                out.append(Run(game, 2, "hard", "medium", target - 0.05, target + 0.05))
    return [run for run in out if run.rung in rungs]


def holds(run: Run, result: Match) -> str:
    """A rung holds when H1 is accepted and A's interval excludes 50%; a target, on H1."""
    met = result.verdict == "H1" and (run.score0 is not None or result.summary().low > 0.5)
    return "yes" if met else "NO"


def row(run: Run, result: Match) -> str:
    data = result.to_json()
    low, high = data["score_95"]
    p95 = data["decision_seconds"].get(run.a, {}).get("p95")
    verdict = data["sprt"]["verdict"] + (" (time)" if result.timed_out else "")
    bounds = "0/+50 Elo" if run.score0 is None else f"{run.score0:.0%}/{run.score1:.0%}"
    return (
        f"| {run.game} | {run.players} | {run.a} vs {run.b} | {bounds} | {data['games']} | "
        f"{data['score']:.1%} ({low:.1%}-{high:.1%}) | {elo_text(data['score'])} "
        f"({elo_text(low)} to {elo_text(high)}) | {data['los']:.1%} | "
        f"{data['sprt']['llr']:.2f} | {verdict} | {holds(run, result)} | "
        f"{'-' if p95 is None else f'{p95 * 1000:.0f} ms'} | {result.seconds:.0f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="these games' runs (comma-separated)")
    parser.add_argument("--players", type=int, help="one player count's runs")
    parser.add_argument("--games", type=int, default=400, help="game cap per match")
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="per match: stop after the first deal ending past S seconds (inconclusive)",
    )
    parser.add_argument(
        "--rungs", default=",".join(RUNGS), help=f"comma-separated, of {', '.join(RUNGS)}"
    )
    args = parser.parse_args()
    rungs = set(args.rungs.split(","))
    if unknown := rungs - set(RUNGS):
        parser.error(
            f"unknown rung(s) {', '.join(sorted(unknown))}; choose from {', '.join(RUNGS)}"
        )
    started = time.perf_counter()
    only = set(args.only.split(",")) if args.only else None
    chosen = runs(only, args.players, rungs)
    print(
        "| game | players | A vs B | H0/H1 | games | A's score (95%) | Elo (95%) | LOS | LLR "
        "| verdict | holds | p95 decision (A) | time |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    commands = []
    for run in chosen:
        game = make_game(run.game, run.players)
        result = run_match(
            game,
            run.a,
            run.b,
            run.sprt(),
            args.games,
            args.seed,
            workers=args.workers,
            seconds=args.seconds,
        )
        print(row(run, result), flush=True)
        commands.append(run.command(args.games, args.seed, args.seconds))
    same = "the same deals; how many fit in --seconds depends on the machine"
    print(f"\nEach row alone (add `-w 1` for one core; any number of workers gives {same}):\n")
    for command in commands:
        print(f"    {command}")
    print(f"\n(all runs: {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
