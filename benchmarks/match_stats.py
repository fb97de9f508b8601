"""How well ``tripletopper match`` measures (docs/bots.md, "Measuring a bot against another").

1. What duplicate deals save: per game, the variance of A's score over a match
   of duplicate deals against the same number of games on independent deals
   (one game per deal, the seatings taken in turn), as a ratio.
2. The SPRT's error rates, on simulated two-player deal scores (0, 1/4, 1/2,
   3/4, 1): how often H1 is accepted between level bots and H0 against a bot
   ``elo1`` stronger, and after how many deals.

    python benchmarks/match_stats.py                  # about a minute
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections import Counter

from tripletopper.match import Sprt, deal_jobs, deal_seatings, pair_score, run_match
from tripletopper.parallel import run_ordered
from tripletopper.question_banks import make_game
from tripletopper.tournament import play_seated

PAIRS = [
    ("thirty-one", 2, "medium", "easy:mistakes=0.05"),
    ("toe", 2, "medium", "easy:mistakes=0.05"),
    ("three-up-three-down", 4, "medium", "easy:mistakes=0.05"),
    ("thirty-two", 4, "medium", "easy:mistakes=0.05"),
    ("thirty-one", 2, "medium", "easy"),
    ("toe", 2, "medium", "easy"),
    ("three-up-three-down", 4, "medium", "easy"),
]
NEVER = Sprt(0.5, 0.51, 1e-12, 1e-12)
"""An SPRT that never decides within the games played: a fixed-length match."""


def duplicate_saving(name: str, players: int, a: str, b: str, games: int, seed: int) -> None:
    game = make_game(name, players)
    match = run_match(game, a, b, NEVER, games, seed)
    deals = len(match.deal_scores)
    duplicate = statistics.stdev(match.deal_scores) ** 2 / deals
    seatings = deal_seatings(players)
    # independent deals: deal d (seeded from another run seed) played in seating d mod k
    jobs = [deal_jobs(game, (a, b), seed + 1, d)[d % len(seatings)] for d in range(match.games)]
    scores = []
    for d, outcome in enumerate(run_ordered(play_seated, jobs)):
        better, same, worse = pair_score(outcome.places, seatings[d % len(seatings)])
        scores.append((better + same / 2) / (better + same + worse))
    independent = statistics.stdev(scores) ** 2 / len(scores)
    print(
        f"| {name} | {players} | {a} vs {b} | {match.games} | "
        f"{statistics.fmean(match.deal_scores):.3f} ({math.sqrt(duplicate):.4f}) | "
        f"{statistics.fmean(scores):.3f} ({math.sqrt(independent):.4f}) | "
        f"{duplicate / independent:.2f} |",
        flush=True,
    )


def tilted(weights: list[float], values: list[float], mean: float) -> list[float]:
    """``weights`` exponentially tilted to the given mean."""
    low, high = -20.0, 20.0
    for _ in range(100):
        t = (low + high) / 2
        w = [p * math.exp(t * v) for p, v in zip(weights, values, strict=True)]
        got = sum(p * v for p, v in zip(w, values, strict=True)) / sum(w)
        low, high = (t, high) if got < mean else (low, t)
    return [p / sum(w) for p in w]


def error_rates(runs: int, seed: int) -> None:
    sprt = Sprt.from_elo(0, 50)
    values = [0.0, 0.25, 0.5, 0.75, 1.0]
    rng = random.Random(seed)
    shapes = {
        "spread": [0.1, 0.2, 0.4, 0.2, 0.1],
        "drawish": [0.02, 0.08, 0.8, 0.08, 0.02],
        "decisive": [0.3, 0.1, 0.2, 0.1, 0.3],
    }
    for shape, base in shapes.items():
        for truth, mean in (("level (50%)", 0.5), ("A +50 Elo", sprt.score1)):
            weights = tilted(base, values, mean)
            verdicts: Counter[str] = Counter()
            lengths = []
            for _ in range(runs):
                n, total, squares, verdict = 0, 0.0, 0.0, None
                while verdict is None:
                    x = rng.choices(values, weights)[0]
                    n, total, squares = n + 1, total + x, squares + x * x
                    verdict = sprt.verdict(sprt.llr(n, total, squares))
                verdicts[verdict] += 1
                lengths.append(n)
            print(
                f"| {shape} | {truth} | {verdicts['H1'] / runs:.3f} | {verdicts['H0'] / runs:.3f} "
                f"| {statistics.median(lengths):g} |"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per match")
    parser.add_argument("--runs", type=int, default=2000, help="simulated SPRTs per case")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    print("| game | players | A vs B | games | duplicate: score (SE) | independent | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, players, a, b in PAIRS:
        duplicate_saving(name, players, a, b, args.games, args.seed)
    print("\n| deal scores | truth | H1 accepted | H0 accepted | median deals |")
    print("|---|---|---|---|---|")
    error_rates(args.runs, args.seed)


if __name__ == "__main__":
    main()
