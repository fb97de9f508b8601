"""What a post-game review costs: seconds per reviewed decision and per game, per game.

For each game, plays one seeded game of ``medium`` bots and reviews seat 0 with the
expert's budget (``tripletopper.review``), ``--repeat`` times; prints the decisions
reviewed, the median seconds per game and per decision and the spread (min-max) of the
repeats.  One core, in this process.  Measures only; asserts nothing.

    python benchmarks/review.py [--repeat 3] [--game NAME] [--iterations K]
"""

from __future__ import annotations

import argparse
import statistics
import time

from tripletopper.bots import make_bot
from tripletopper.games import GAMES
from tripletopper.question_banks import make_game
from tripletopper.record import Record
from tripletopper.review import decisions, review
from tripletopper.runner import play_game

PLAYERS = {"thirty-two": 4, "thirty-one": 4, "three-up-three-down": 4, "memo-match": 2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", action="append", choices=sorted(GAMES))
    parser.add_argument("--iterations", type=int, default=None, help="default: the expert's")
    args = parser.parse_args()
    print(
        f"{'game':22} {'decisions':>9} {'iterations':>10} {'s/game':>8} {'s/decision':>10} spread"
    )
    for name in args.game or sorted(GAMES):
        game = make_game(name, PLAYERS.get(name, GAMES[name].min_players))
        bots = [make_bot("medium", game, seat, seat) for seat in range(game.players)]
        record = Record.from_state(play_game(game, bots, seed=1))
        todo, _skipped = decisions(record, 0)
        times, iterations = [], 0
        for _ in range(args.repeat):
            started = time.perf_counter()
            iterations = review(record, 0, args.iterations).iterations
            times.append(time.perf_counter() - started)
        median = statistics.median(times)
        print(
            f"{name:22} {len(todo):9} {iterations:10} {median:8.1f} "
            f"{median / max(1, len(todo)):10.3f} {min(times):.1f}-{max(times):.1f} s"
        )


if __name__ == "__main__":
    main()
