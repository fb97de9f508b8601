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
  Also the CPU the two-worker run spends (the workers' and this process's) against
  the one-worker run's: what the pool itself costs (starting processes, sending
  batches and rows, warming each worker up), which a busy machine does not blur;
- the machine's own speed-up: a plain loop on one process and on two at once, next
  to which the ``analyze`` speed-ups read (on a busy machine two processes may get
  no more CPU than one).

    python benchmarks/simulate.py [--seconds 1] [--rounds 3] [--game NAME] [--pool-seconds 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from tripletopper.analysis.run import Plan, run_plan
from tripletopper.games import GAMES
from tripletopper.runner import simulate

PLAYERS = {
    "thirty-two": 4,
    "thirty-one": 4,
    "three-up-three-down": 4,
    "memo-match": 3,
    "toe": 2,
}
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
    speedups, costs = [], []
    for _ in range(rounds):
        times, cpu = [], []
        for count in (1, 2):
            started, used = time.perf_counter(), cpu_seconds()
            run_plan(plan, workers=count)
            times.append(time.perf_counter() - started)
            cpu.append(cpu_seconds() - used)
        speedups.append(times[0] / times[1])
        costs.append(cpu[1] / cpu[0])
    print(
        f"analyze {name} (medium, {games} games, {times[0]:.1f} s on one worker): "
        f"2 workers / 1 worker = {spread(speedups, '.2f')} x, "
        f"CPU spent {spread(costs, '.2f')} x"
    )


def spin(steps: int) -> int:
    total = 0
    for i in range(steps):
        total += i * i
    return total


def machine(rounds: int) -> None:
    """Wall time of a plain loop once against twice at once in two processes."""
    steps = 5_000_000
    speedups = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(spin, [1, 1]))  # both workers started
        for _ in range(rounds):
            started = time.perf_counter()
            spin(steps)
            one = time.perf_counter() - started
            started = time.perf_counter()
            list(pool.map(spin, [steps, steps]))
            speedups.append(2 * one / (time.perf_counter() - started))
    print(f"the machine: a plain loop on 2 processes / on 1 = {spread(speedups, '.2f')} x")


def cpu_seconds() -> float:
    """CPU time of this process and of its finished child processes (pool workers)."""
    me, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


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
    machine(args.rounds)
    for name in names:
        workers(name, args.pool_seconds, args.rounds)
    machine(args.rounds)
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
