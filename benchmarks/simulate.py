"""Simulation speed: actions per second per game with random and medium bots on one
core, and what a second worker process adds.

The machine may be shared and noisy, so each figure is measured in several rounds
that interleave what is compared (random then medium, one worker then two), and
the median and the spread (lowest - highest) of the rounds are printed, with the
ratios taken inside each round, and the load average before and after.  Nothing is
asserted: this script measures.

- one core: ``runner.simulate`` (bots choose through the bot contract, every action
  is checked, no events are built), for ``--seconds`` of this process's CPU time per
  round: actions per CPU second, which other processes sharing the core slow down
  far less than actions per second of the wall clock (a busy machine still costs
  some: caches, and a core shared between hyperthreads);
- workers: the same ``analyze`` run (events on, the per-game metrics counted), sized
  to take ``--pool-seconds`` on one worker process, on one and on two; the speed-up
  is wall time(1) / wall time(2), which needs a second core free to mean anything.

    python benchmarks/simulate.py [--seconds 1] [--rounds 3] [--game NAME] [--pool-seconds 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time

from tripletopper.analysis.run import Plan, run_plan
from tripletopper.games import GAMES
from tripletopper.runner import simulate

PLAYERS = {
    "thirty-two": 4, "thirty-one": 4, "three-up-three-down": 4, "memo-match": 3, "toe": 2,
}  # fmt: skip
BOTS = ("random", "medium")


def rate(name: str, bot: str, seconds: float, seed: int) -> float:
    """Actions per CPU second of ``bot`` at every seat, for about ``seconds`` of CPU."""
    game = GAMES[name](PLAYERS[name])
    actions = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        report = simulate(game, [bot], 10, seed=seed)
        seed += 1
        actions += report.actions
    return actions / (time.process_time() - started)


def spread(values: list[float], fmt: str) -> str:
    return f"{statistics.median(values):{fmt}} ({min(values):{fmt}} - {max(values):{fmt}})"


def one_core(names: list[str], seconds: float, rounds: int) -> None:
    print("One core, through the runner: actions per CPU second, median (lowest - highest)")
    print(f"{'game':22} {'random':>26} {'medium':>24} {'medium/random':>14}")
    for name in names:
        rates: dict[str, list[float]] = {bot: [] for bot in BOTS}
        ratios = []
        for r in range(rounds):
            for bot in BOTS:
                rates[bot].append(rate(name, bot, seconds, seed=1000 * r))
            ratios.append(rates["medium"][-1] / rates["random"][-1])
        print(
            f"{name:22} {spread(rates['random'], ',.0f'):>26} {spread(rates['medium'], ',.0f'):>24}"
            f" {statistics.median(ratios):>14.3f}"
        )


def workers(name: str, seconds: float, rounds: int) -> None:
    """time(1 worker) / time(2 workers) for an ``analyze`` run of about ``seconds`` on one."""
    probe = Plan(name, PLAYERS[name], bots=("medium",), games=40, seed=7)
    started = time.perf_counter()
    run_plan(probe, workers=1)
    per_game = (time.perf_counter() - started) / probe.games
    games = max(40, round(seconds / per_game))
    plan = Plan(name, PLAYERS[name], bots=("medium",), games=games, seed=7)
    speedups = []
    for _ in range(rounds):
        times = []
        for count in (1, 2):
            started = time.perf_counter()
            run_plan(plan, workers=count)
            times.append(time.perf_counter() - started)
        speedups.append(times[0] / times[1])
    print(
        f"analyze {name} (medium, {games} games, {times[0]:.1f} s on one worker): "
        f"2 workers / 1 worker = {spread(speedups, '.2f')} x"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", choices=sorted(GAMES), action="append")
    parser.add_argument(
        "--pool-seconds", type=float, default=3.0, help="length of a one-worker analyze run"
    )
    args = parser.parse_args()
    names = args.game or sorted(GAMES)
    print(f"Python {platform.python_version()} ({sys.implementation.name}), {os.cpu_count()} cores")
    print(f"load average {os.getloadavg()[0]:.1f}")
    one_core(names, args.seconds, args.rounds)
    print(f"load average {os.getloadavg()[0]:.1f}")
    for name in names:
        workers(name, args.pool_seconds, args.rounds)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
