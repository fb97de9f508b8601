"""ISMCTS iterations per second, per game, on one core.

For each game, plays random positions from seeded games and times the ``ismcts``
bot (the game's search) deciding there with a fixed number of iterations; prints the
median and best iterations/s and the median and p95 seconds per decision.  With
``--bot hard`` it times a difficulty level (its own budget and fallback) instead.  Measures
only; asserts nothing.

    python benchmarks/ismcts.py [--decisions 20] [--iterations 300] [--game NAME] [--bot hard]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time

from tripletopper.bots import GAME_BOTS, SeatView, make_bot
from tripletopper.engine import Rng
from tripletopper.games import GAMES

PLAYERS = {"thirty-two": 4, "thirty-one": 4, "three-up-three-down": 4, "memo-match": 3}


def measure(name: str, decisions: int, spec: str) -> tuple[float, float, float, float]:
    game = GAMES[name](PLAYERS.get(name, GAMES[name].min_players))
    rng = Rng(1)
    rates, seconds = [], []
    index = 0
    while len(seconds) < decisions:
        state = game.new_state(seed=index)
        index += 1
        steps = rng.below(30)
        while not state.is_terminal() and (steps > 0 or len(state.to_act()) != 1):
            steps -= 1  # random moves; where several seats may act, the first one acts
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            state.apply(legal[rng.below(len(legal))], seat, events=False)
        if state.is_terminal():
            continue
        seat = state.current_seat()
        if len(state.legal_actions(seat)) < 2:
            continue
        bot = make_bot(spec, game, seat, index)
        started = time.perf_counter()
        bot.choose(SeatView(state, seat))
        elapsed = time.perf_counter() - started
        searched = getattr(bot, "last", None)
        if searched is not None and searched.iterations:
            rates.append(searched.iterations / elapsed)
        seconds.append(elapsed)
    seconds.sort()
    p95 = seconds[min(len(seconds) - 1, int(len(seconds) * 0.95))]
    if not rates:
        rates = [0.0]
    return statistics.median(rates), max(rates), statistics.median(seconds), p95


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--game", action="append", choices=sorted(GAME_BOTS))
    parser.add_argument(
        "--bot", help="time this bot (e.g. hard) instead of the plain search; "
        "its own budget applies, --iterations is ignored",
    )  # fmt: skip
    args = parser.parse_args()
    spec = args.bot or f"ismcts:iterations={args.iterations}:confidence=0"
    print(f"Python {platform.python_version()}, one process, bot {spec}")
    print(
        "{:22} {:>14} {:>10} {:>12} {:>12}".format(
            "game", "iterations/s", "best", "median s", "p95 s"
        )
    )
    for name in args.game or sorted(GAME_BOTS):
        median, best, per, p95 = measure(name, args.decisions, spec)
        print(f"{name:22} {median:>14,.0f} {best:>10,.0f} {per:>12.3f} {p95:>12.3f}")


if __name__ == "__main__":
    main()
