"""The batched engines' random actions per second by batch size, beside OpenSpiel's C++ games.

Each batch of Thirty-One (4 players) and Toe plays uniformly random legal actions
(``sample`` from fresh random bits, then ``step`` with finished games restarted), so
every step is one action in every game.  Beside them, in the same run, pyspiel's
crazy_eights, hearts and go_fish (C++, stepped one action at a time from Python:
``legal_actions``, a random choice, ``apply_action``; chance outcomes are sampled and
counted as actions too) when ``open_spiel`` is installed.  Each figure is the median of
``--rounds`` rounds, with the spread (lowest-highest); the target is 10x the median of
the three pyspiel games, measured again right before each batch (``checked``: with
``step``'s legality check, off in the other rows).  Rates are per CPU-second of
this process (``time.process_time``: both sides run on one core), so that the other
work on a shared machine weighs less on them than on wall-clock rates.  Nothing is
asserted: this script measures.

Then the Gymnasium vector environment on the batch (``tripletopper.rl.batched_env``), by
batch size: learner steps per CPU-second, each a step of ``BatchedVectorEnv`` (the
learner's action, the random players' until the learner is to act again, ended games
recorded and dealt again, then the research tensors and masks of every game); the learner
picks uniformly among its legal actions (the batch's ``sample``, translated by
``to_rl``).  Beside it, ``TripletopperVectorEnv`` (16 scalar games, random bots) in the
same rounds, and the raw batch's rate at the same size.

    python benchmarks/batched.py [--seconds 1] [--rounds 3] [--sizes 1024,4096,16384,65536]
        [--env-sizes 1024,4096,16384] [--skip-raw]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from tripletopper.batched import ThirtyOneBatch, ToeBatch
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.toe import Toe
from tripletopper.rl.batched_env import BatchedVectorEnv
from tripletopper.rl.gym import TripletopperVectorEnv

SPIEL_GAMES = ("crazy_eights", "hearts", "go_fish")


def batched_rate(make: Callable[[int], Any], size: int, seconds: float, check: bool) -> float:
    batch = make(size)
    rng = np.random.default_rng(size)
    for _ in range(3):  # warm up
        batch.step(batch.sample(rng.integers(0, 2**32, size, dtype=np.uint64)), autoreset=True)
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        bits = rng.integers(0, 2**32, size, dtype=np.uint64)
        batch.step(batch.sample(bits), autoreset=True, check=check)
        steps += 1
    return steps * size / (time.process_time() - started)


ENV_GAMES = {"thirty-one 4p": ("thirty-one", 4), "toe": ("toe", 2)}


def env_rate(label: str, size: int, seconds: float) -> float:
    """Learner steps per CPU-second of ``BatchedVectorEnv`` (tensors and masks included)."""
    name, players = ENV_GAMES[label]
    env = BatchedVectorEnv(size, name, players=players)
    env.reset(seed=size)
    rng = np.random.default_rng(size)

    def step() -> None:
        bits = rng.integers(0, 2**32, size, dtype=np.uint64)
        env.step(env.encoder.to_rl(env.batch, env.batch.sample(bits)))

    for _ in range(2):  # warm up
        step()
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        step()
        steps += 1
    return steps * size / (time.process_time() - started)


def scalar_env_rate(label: str, seconds: float) -> float:
    """Learner steps per CPU-second of ``TripletopperVectorEnv`` x16 against random bots."""
    name, players = ENV_GAMES[label]
    env = TripletopperVectorEnv(16, name, players=players, opponents="random")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        mask = obs["action_mask"]
        obs, *_ = env.step((rng.random(mask.shape) * mask).argmax(axis=1))
        steps += 1
    return steps * 16 / (time.process_time() - started)


def spiel_rate(name: str, seconds: float) -> float:
    import pyspiel

    game = pyspiel.load_game(name)
    rng = random.Random(0)
    actions = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return actions / (time.process_time() - started)


def summary(values: list[float], unit: str = "/s") -> str:
    low, high = min(values), max(values)
    if unit == "x":
        return f"{statistics.median(values):5.1f}x ({low:.1f}-{high:.1f})"
    return f"{statistics.median(values):>12,.0f} {unit} ({low:,.0f}-{high:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measurement")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sizes", default="1024,4096,16384,65536")
    parser.add_argument("--env-sizes", default="1024,4096,16384")
    parser.add_argument("--skip-raw", action="store_true", help="only the environments")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    env_sizes = [int(s) for s in args.env_sizes.split(",")]
    engines: dict[str, Callable[[int], Any]] = {
        "thirty-one 4p": lambda n: ThirtyOneBatch(ThirtyOne(4), np.arange(n)),
        "toe": lambda n: ToeBatch(Toe(2), np.arange(n)),
    }
    try:
        import pyspiel  # noqa: F401

        spiel = True
    except ImportError:
        print("pyspiel is not installed (pip install open_spiel): no reference")
        spiel = False
    configs = [(label, size, False) for label in engines for size in sizes]
    configs += [(label, 16384, True) for label in engines]
    if args.skip_raw:
        spiel, configs = False, []
    env_configs = [(label, size) for label in ENV_GAMES for size in env_sizes]
    rates: dict[Any, list[float]] = {}
    ratios: dict[Any, list[float]] = {}
    # Each batch is measured right after the three pyspiel games, and its ratio taken to
    # their median: the machine's load drifts, and weighs on both sides of a ratio alike.
    for _ in range(args.rounds):
        for key in configs:
            reference = 0.0
            if spiel:
                medians = []
                for name in SPIEL_GAMES:
                    rate = spiel_rate(name, args.seconds / 2)
                    rates.setdefault(name, []).append(rate)
                    medians.append(rate)
                reference = statistics.median(medians)
                rates.setdefault("reference", []).append(reference)
            label, size, check = key
            rate = batched_rate(engines[label], size, args.seconds, check)
            rates.setdefault(key, []).append(rate)
            if reference:
                ratios.setdefault(key, []).append(rate / reference)
        scalar = {}
        for label in ENV_GAMES:
            scalar[label] = scalar_env_rate(label, args.seconds)
            rates.setdefault(("scalar env", label), []).append(scalar[label])
        for label, size in env_configs:
            raw = batched_rate(engines[label], size, args.seconds / 2, False)
            rate = env_rate(label, size, args.seconds)
            rates.setdefault(("env", label, size), []).append(rate)
            ratios.setdefault(("env", label, size), []).append(rate / scalar[label])
            ratios.setdefault(("raw", label, size), []).append(100 * rate / raw)
    if spiel:
        for name in SPIEL_GAMES:
            print(f"pyspiel {name:<14} {summary(rates[name])}")
        print(f"pyspiel median of the 3 {summary(rates['reference'])}  (the target is 10x)")
    for label, make in engines.items():
        per_game = make(1024).nbytes() / 1024
        print(f"{label}: {per_game:,.0f} bytes per game")
        for key in configs:
            if key[0] != label:
                continue
            name = f"batch {key[1]:>6}" + (" checked" if key[2] else "        ")
            ratio = f"  {summary(ratios[key], 'x')} pyspiel" if key in ratios else ""
            print(f"  {name} {summary(rates[key])}{ratio}")
    print("Gymnasium vector envs: learner steps per CPU-second (with tensors and masks)")
    for label in ENV_GAMES:
        print(f"{label}: TripletopperVectorEnv x16 {summary(rates[('scalar env', label)])}")
        for size in env_sizes:
            env_key = ("env", label, size)
            times = summary(ratios[env_key], "x")
            share = ratios[("raw", label, size)]
            print(
                f"  BatchedVectorEnv {size:>6} {summary(rates[key])}  {times} the scalar env;"
                f" {statistics.median(share):.0f}% ({min(share):.0f}-{max(share):.0f}%)"
                " of the raw batch's actions/s"
            )


if __name__ == "__main__":
    main()
