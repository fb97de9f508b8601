"""ISMCTS iterations per second, per game, on one core.

For each game, plays random positions from seeded games and times the ``ismcts``
bot (the game's search) deciding there with a fixed number of iterations; prints the
median and best iterations/s and the median and p95 seconds per decision.  With
``--bot hard`` it times a difficulty level (its own budget and fallback) instead.  Measures
only; asserts nothing.

On a shared machine a decision's seconds say little alone: after every decision the
script times a fixed pure-Python reference workload (:func:`reference`, about 20 ms
on a quiet core) and prints the median and p95 decision also in those units (the
decision's seconds over the reference's just after it), with the load average and
the reference's best time of 20 (the nearest to an unshared core): the units times
that best estimate the decision's seconds on a quiet core ("quiet p95").

    python benchmarks/ismcts.py [--decisions 20] [--iterations 300] [--game NAME] [--bot hard]
        [--players N] [--steps 30]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time

from tripletopper.bots import GAME_BOTS, SeatView, make_bot
from tripletopper.engine import Rng
from tripletopper.games import GAMES

PLAYERS = {"thirty-two": 4, "thirty-one": 4, "three-up-three-down": 4, "memo-match": 3}


def reference() -> float:
    """Seconds of a fixed pure-Python workload (integer arithmetic, lists, a dict)."""
    started = time.perf_counter()
    state = 1
    counts: dict[int, int] = {}
    items: list[int] = []
    for _ in range(100_000):
        state = (state * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        key = state >> 58
        counts[key] = counts.get(key, 0) + 1
        items.append(key)
    items.sort()
    return time.perf_counter() - started


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def measure(
    name: str, decisions: int, spec: str, players: int | None = None, steps: int = 30
) -> tuple[float, float, list[float], list[float]]:
    """Median and best iterations/s, and each decision's seconds and reference units, at
    positions ``steps - 30`` to ``steps`` random moves from the start (at most ``steps``
    - 1; 1: the first decision)."""
    game = GAMES[name](players or PLAYERS.get(name, GAMES[name].min_players))
    rng = Rng(1)
    rates: list[float] = []
    seconds: list[float] = []
    units: list[float] = []
    index = 0
    while len(seconds) < decisions:
        state = game.new_state(seed=index)
        index += 1
        moves = max(0, steps - 30) + rng.below(min(30, max(1, steps)))
        while not state.is_terminal() and (moves > 0 or len(state.to_act()) != 1):
            moves -= 1  # random moves; where several seats may act, the first one acts
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
        units.append(elapsed / reference())
    if not rates:
        rates = [0.0]
    return statistics.median(rates), max(rates), seconds, units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--game", action="append", choices=sorted(GAME_BOTS))
    parser.add_argument(
        "--bot",
        help="time this bot (e.g. hard) instead of the plain search; "
        "its own budget applies, --iterations is ignored",
    )
    parser.add_argument("-p", "--players", type=int, help="players (default: per game)")
    parser.add_argument(
        "--steps",
        type=int,
        default=30,
        help="decide at positions STEPS-30 to STEPS-1 random moves from the start (default 30; "
        "more reaches later positions, e.g. 3UP 3DOWN's endgame, where its levels search; "
        "1: the first decision only, e.g. the choice of 3UP cards)",
    )
    args = parser.parse_args()
    spec = args.bot or f"ismcts:iterations={args.iterations}:confidence=0"
    print(f"Python {platform.python_version()}, one process, bot {spec}")
    quiet = min(reference() for _ in range(20))
    print(f"load average {os.getloadavg()[0]:.2f}; reference best of 20 {quiet * 1000:.1f} ms")
    print(
        "{:22} {:>14} {:>10} {:>10} {:>8} {:>10} {:>10} {:>11}".format(
            "game",
            "iterations/s",
            "best",
            "median s",
            "p95 s",
            "median ref",
            "p95 ref",
            "quiet p95 s",
        )
    )
    for name in args.game or sorted(GAME_BOTS):
        median, best, seconds, units = measure(name, args.decisions, spec, args.players, args.steps)
        print(
            f"{name:22} {median:>14,.0f} {best:>10,.0f} {statistics.median(seconds):>10.3f} "
            f"{p95(seconds):>8.3f} {statistics.median(units):>10.1f} {p95(units):>10.1f} "
            f"{p95(units) * quiet:>11.3f}"
        )
    quiet = min(reference() for _ in range(20))
    print(f"load average {os.getloadavg()[0]:.2f}; reference best of 20 {quiet * 1000:.1f} ms")


if __name__ == "__main__":
    main()
