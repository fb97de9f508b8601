"""Random playouts: actions and games per second, per game, on one core.

Plays complete games with random bots through the same runner as
``tripletopper simulate`` (bots choose through the bot contract, every action is
checked for legality, no events are built because nobody listens).  Each game is
timed in several rounds; the median and the best round are printed.  Nothing
is asserted: this script measures.

    python benchmarks/random_playouts.py [--seconds 2] [--rounds 5] [--game NAME]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time

from tripletopper.games import GAMES
from tripletopper.runner import simulate

DEFAULT_PLAYERS = {
    "thirty-two": 4,
    "thirty-one": 4,
    "three-up-three-down": 4,
    "memo-match": 3,
    "toe": 2,
}


def measure(name: str, players: int, seconds: float, rounds: int) -> dict[str, float]:
    game = GAMES[name](players)
    rates, game_rates = [], []
    seed = 0
    for _ in range(rounds):
        batch = 50
        actions = games = 0
        started = time.perf_counter()
        while time.perf_counter() - started < seconds:
            report = simulate(game, ["random"], batch, seed=seed)
            seed += 1
            actions += report.actions
            games += report.games
        elapsed = time.perf_counter() - started
        rates.append(actions / elapsed)
        game_rates.append(games / elapsed)
    return {
        "median": statistics.median(rates),
        "best": max(rates),
        "games": statistics.median(game_rates),
        "per_game": actions / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    args = parser.parse_args()
    names = args.game or sorted(GAMES)
    print(f"Python {platform.python_version()} ({sys.implementation.name}), one process")
    header = ("game", "players", "actions/s", "best", "games/s", "actions/game")
    print("{:22} {:>7} {:>12} {:>10} {:>9} {:>13}".format(*header))
    for name in names:
        players = DEFAULT_PLAYERS.get(name, GAMES[name].min_players)
        m = measure(name, players, args.seconds, args.rounds)
        print(
            f"{name:22} {players:>7} {m['median']:>12,.0f} {m['best']:>10,.0f} "
            f"{m['games']:>9,.0f} {m['per_game']:>13.1f}"
        )


if __name__ == "__main__":
    main()
