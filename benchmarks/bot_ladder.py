"""The difficulty ladder of every game, measured by tournaments (docs/bots.md).

For each game, one tournament between ``random,easy,medium,hard`` with balanced
seatings, then (for the games playable by two) a head-to-head tournament of
``hard`` against the heuristic bot.  Prints, per bot, the win rate and the mean
finishing place with 95% intervals, the OpenSkill ordinal and the p95 decision
time, and says whether each rung of the ladder is separated from the next
(non-overlapping intervals of the mean place).

    python benchmarks/bot_ladder.py                    # every game: about 2 hours of CPU
    python benchmarks/bot_ladder.py --only toe --games 200 --workers 2

The same numbers come from ``tripletopper tournament`` with the arguments printed
above each table.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from itertools import pairwise

from tripletopper.question_banks import make_game
from tripletopper.tournament import Tournament, run_tournament, wilson

LADDER = ["random", "easy", "medium", "hard"]


@dataclass(frozen=True)
class Run:
    game: str
    players: int
    bots: tuple[str, ...]
    games: int  # at the default scale


RUNS = [
    Run("thirty-two", 4, tuple(LADDER), 400),
    Run("thirty-one", 4, tuple(LADDER), 200),
    Run("three-up-three-down", 4, tuple(LADDER), 300),
    Run("memo-match", 4, tuple(LADDER), 1000),
    Run("toe", 2, tuple(LADDER), 400),
    Run("thirty-one", 2, ("hard", "medium"), 200),
    Run("three-up-three-down", 2, ("hard", "medium"), 100),
]


def report(run: Run, result: Tournament, games: int, seed: int) -> None:
    print(
        f"\n### {run.game}, {run.players} players: {', '.join(run.bots)}\n\n"
        f"`tripletopper tournament {run.game} -p {run.players} --bots {','.join(run.bots)} "
        f"-n {games} --seed {seed}` ({result.seconds:.0f} s)\n"
    )
    print("| bot | win rate (95%) | mean place (95%) | rating | p95 decision |")
    print("|---|---|---|---|---|")
    rows = {r["bot"]: r for r in (record.to_json(run.players) for record in result.ranked())}
    for name in run.bots:
        r = rows[name]
        low, high = r["win_rate_95"]
        plow, phigh = r["mean_place_95"]
        p95 = r["decision_seconds"]["p95"] or 0.0
        print(
            f"| {name} | {r['win_rate']:.1%} ({low:.1%}-{high:.1%}) | "
            f"{r['mean_place']:.2f} ({plow:.2f}-{phigh:.2f}) | "
            f"{r['rating']['ordinal']:.1f} | {p95 * 1000:.0f} ms |"
        )
    if run.bots == tuple(LADDER):
        print()
        for weaker, stronger in pairwise(LADDER):
            separated = rows[stronger]["mean_place_95"][1] < rows[weaker]["mean_place_95"][0]
            print(f"- {weaker} < {stronger}: {'separated' if separated else 'OVERLAPPING'}")
    if run.players == 2:
        print()
        for pair in pairwise(run.bots):
            a, b = sorted(pair, key=LADDER.index)  # b: the stronger one on the ladder
            scores = [
                o.returns[o.seats.index(b)] for o in result.outcomes if set(o.seats) == {a, b}
            ]
            if scores:
                low, high = wilson(sum(scores), len(scores))
                print(
                    f"- {b} vs {a}: {b} scores {sum(scores) / len(scores):.1%} "
                    f"({low:.1%}-{high:.1%}) in {len(scores)} games"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="one game's runs")
    parser.add_argument("--scale", type=float, default=1.0, help="games x this factor")
    parser.add_argument("--games", type=int, help="games per run (overrides the defaults)")
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    started = time.perf_counter()
    for run in RUNS:
        if args.only and run.game != args.only:
            continue
        games = args.games or max(len(run.bots), round(run.games * args.scale))
        result = run_tournament(
            make_game(run.game, run.players), run.bots, games, args.seed, workers=args.workers
        )
        report(run, result, games, args.seed)
    print(f"\n(all runs: {time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
