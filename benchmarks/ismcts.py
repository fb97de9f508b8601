"""ISMCTS iterations per second, per game, on one core.

For each game, plays random positions from seeded games and times the ``ismcts``
bot (the game's search) deciding there with a fixed number of iterations; prints the
median and best iterations/s and the median seconds per decision.  Measures
only; asserts nothing.

    python benchmarks/ismcts.py [--decisions 20] [--iterations 300] [--game NAME]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from tripletopper.bots import SEARCH_BY_GAME, SeatView, make_bot
from tripletopper.engine import Rng
from tripletopper.games import GAMES

PLAYERS = {"thirty-two": 4, "thirty-one": 4, "three-up-three-down": 4, "memo-match": 3}


def measure(name: str, decisions: int, iterations: int) -> tuple[float, float, float]:
    game = GAMES[name](PLAYERS.get(name, GAMES[name].min_players))
    rng = Rng(1)
    rates, seconds = [], []
    index = 0
    while len(rates) < decisions:
        state = game.new_state(seed=index)
        index += 1
        for _ in range(rng.below(30)):
            if state.is_terminal() or len(state.to_act()) != 1:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))], events=False)
        if state.is_terminal() or len(state.to_act()) != 1:
            continue
        seat = state.current_seat()
        if len(state.legal_actions(seat)) < 2:
            continue
        bot = make_bot(f"ismcts:iterations={iterations}:confidence=0", game, seat, index)
        started = time.perf_counter()
        bot.choose(SeatView(state, seat))
        elapsed = time.perf_counter() - started
        rates.append(bot.last.iterations / elapsed)  # type: ignore[attr-defined]
        seconds.append(elapsed)
    return statistics.median(rates), max(rates), statistics.median(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--game", action="append", choices=sorted(SEARCH_BY_GAME))
    args = parser.parse_args()
    print(f"Python {platform.python_version()}, one process, {args.iterations} iterations")
    print("{:22} {:>14} {:>10} {:>14}".format("game", "iterations/s", "best", "s/decision"))
    for name in args.game or sorted(SEARCH_BY_GAME):
        median, best, per = measure(name, args.decisions, args.iterations)
        print(f"{name:22} {median:>14,.0f} {best:>10,.0f} {per:>14.3f}")


if __name__ == "__main__":
    main()
