"""The research environments' speed: steps per second per game, on one core.

Random legal actions everywhere.  Per game, in each round:

- ``raw``: the engine's own loop (``legal_actions``, a random choice, ``apply``
  without events; the clock's timeouts when nobody may act);
- ``aec``: the PettingZoo environment (``last()`` with its tensor and mask, a random
  index of the mask picked as ``raw`` picks, with Python's ``random``, ``step``); the
  target is >= 40% of ``raw``;
- ``floor``: the same loop with a tensor that costs nothing (the mask, the pick and
  the AEC bookkeeping only): the most ``aec`` could reach with any encoder;
- ``gym``: the Gymnasium environment against random bots, one env (its steps are the
  learner's moves; the bots' moves happen inside them);
- ``sync``: 16 of those in a ``SyncVectorEnv`` (same-step autoreset), a batch of random
  legal indices per step, counted per env step;
- ``native``: the same in ``TripletopperVectorEnv`` (``gymnasium.make_vec``'s vector
  entry point); the target is >= 20,000/s for Thirty-One;

and OpenSpiel's C++ games ``crazy_eights``, ``hearts`` and ``go_fish`` played at random
through pyspiel in the same run.  Rates are per second of this process's CPU time
(a busy machine makes the process wait for a core; that wait is not counted), and
rounds alternate between the measures, so what noise is left (shared caches) slows
them alike; the median and the spread (min-max) of the rounds are printed, and each
ratio is taken within a round.  Nothing is asserted.

    python benchmarks/rl_envs.py [--seconds 1] [--rounds 3] [--game NAME]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from tripletopper import make_game
from tripletopper.engine import CLOCK, Game
from tripletopper.rl.gym import TripletopperGymEnv, TripletopperVectorEnv
from tripletopper.rl.pettingzoo import TripletopperEnv
from tripletopper.rl.pettingzoo import env as aec_env

TABLES = {
    "thirty-two": 4,
    "thirty-one": 2,
    "three-up-three-down": 4,
    "memo-match": 3,
    "toe": 2,
}
SPIEL_GAMES = ("crazy_eights", "hearts", "go_fish")
VEC_ENVS = 16


def timed(run: Callable[[float], int], seconds: float) -> float:
    """Steps per second of this process's CPU time of ``run(deadline)``, which steps until
    the (wall-clock) deadline: on a shared machine, the time the process waits for a core
    is not counted, so the rate is that of one core however busy the others keep it."""
    started = time.process_time()
    steps = run(time.perf_counter() + seconds)
    return steps / (time.process_time() - started)


def raw(name: str, players: int) -> Callable[[float], int]:
    game = make_game(name, players)
    rng = random.Random(0)

    def run(deadline: float) -> int:
        steps = seed = 0
        while time.perf_counter() < deadline:
            state = game.new_state(seed)
            seed += 1
            while not state.is_terminal():
                seats = state.to_act()
                if not seats:
                    state.apply(state.timeout()[1], CLOCK, events=False)  # type: ignore[index]
                    continue
                seat = seats[0] if len(seats) == 1 else rng.choice(seats)
                state.apply(rng.choice(state.legal_actions(seat)), seat, events=False)
                steps += 1
        return steps

    return run


def pick(rng: random.Random, mask: np.ndarray) -> int:
    """A random legal index of a mask (as cheap as the raw loop's ``rng.choice(legal)``:
    NumPy's ``Generator.choice`` alone costs more than a raw step)."""
    return rng.choice(mask.nonzero()[0].tolist())


class MaskOnlyEnv(TripletopperEnv):
    """The AEC environment with a tensor that costs nothing (always the same zeros): what
    the AEC loop, the mask and the random pick cost by themselves."""

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self._blank = np.zeros(self.encoder.size, np.float32)

    def observe(self, agent: str) -> dict[str, Any]:
        mask = self.encoder.mask(self.state, self._seat[agent])
        return {"observation": self._blank, "action_mask": mask}


def aec(name: str, players: int, floor: bool = False) -> Callable[[float], int]:
    environment = MaskOnlyEnv(make_game(name, players)) if floor else aec_env(name, players)
    rng = random.Random(0)

    def run(deadline: float) -> int:
        steps = seed = 0
        while time.perf_counter() < deadline:
            environment.reset(seed=seed)
            seed += 1
            for _ in environment.agent_iter():
                obs, _, terminated, truncated, _ = environment.last()
                if terminated or truncated:
                    environment.step(None)
                    continue
                environment.step(pick(rng, obs["action_mask"]))
                steps += 1
        return steps

    return run


def gym(name: str, players: int) -> Callable[[float], int]:
    environment = TripletopperGymEnv(name, players, opponents="random")
    rng = random.Random(0)

    def run(deadline: float) -> int:
        steps = 0
        obs, _ = environment.reset(seed=0)
        while time.perf_counter() < deadline:
            obs, _, terminated, _, _ = environment.step(pick(rng, obs["action_mask"]))
            steps += 1
            if terminated:
                obs, _ = environment.reset()
        return steps

    return run


def vec(name: str, players: int) -> Callable[[float], int]:
    envs = SyncVectorEnv(
        [lambda: TripletopperGymEnv(name, players, opponents="random")] * VEC_ENVS,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    rng = np.random.default_rng(0)

    def run(deadline: float) -> int:
        steps = 0
        obs, _ = envs.reset(seed=0)
        while time.perf_counter() < deadline:
            mask = obs["action_mask"]
            obs, *_ = envs.step((rng.random(mask.shape) * mask).argmax(axis=1))
            steps += VEC_ENVS
        return steps

    return run


def native(name: str, players: int) -> Callable[[float], int]:
    envs = TripletopperVectorEnv(VEC_ENVS, name, players=players, opponents="random")
    rng = np.random.default_rng(0)

    def run(deadline: float) -> int:
        steps = 0
        obs, _ = envs.reset(seed=0)
        while time.perf_counter() < deadline:
            mask = obs["action_mask"]
            obs, *_ = envs.step((rng.random(mask.shape) * mask).argmax(axis=1))
            steps += VEC_ENVS
        return steps

    return run


def spiel(name: str) -> Callable[[float], int]:
    game = pyspiel.load_game(name)
    rng = random.Random(0)

    def run(deadline: float) -> int:
        steps = 0
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(outcomes, probs)[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
                    steps += 1
        return steps

    return run


def spread(values: list[float], scale: float = 1.0, unit: str = "") -> str:
    low, mid, high = min(values) * scale, statistics.median(values) * scale, max(values) * scale
    return f"{mid:,.0f}{unit} ({low:,.0f}-{high:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one measure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", choices=sorted(TABLES), action="append")
    args = parser.parse_args()
    names = args.game or list(TABLES)
    print(
        f"steps per CPU second, median (min-max) of {args.rounds} rounds of {args.seconds:g} s each"
    )
    print(
        f"{'game':22s} {'raw':>24s} {'aec':>22s} {'aec/raw':>14s} {'floor/raw':>14s} "
        f"{'gym':>22s} {'sync x16':>22s} {'native x16':>22s}"
    )
    for name in names:
        players = TABLES[name]
        makers = (("raw", raw), ("aec", aec), ("gym", gym), ("sync", vec), ("native", native))
        runs = {kind: make(name, players) for kind, make in makers}
        runs["floor"] = aec(name, players, floor=True)
        rates: dict[str, list[float]] = {kind: [] for kind in runs}
        for _ in range(args.rounds):
            for kind, run in runs.items():
                rates[kind].append(timed(run, args.seconds))
        ratios = [a / r for a, r in zip(rates["aec"], rates["raw"], strict=True)]
        floors = [a / r for a, r in zip(rates["floor"], rates["raw"], strict=True)]
        print(
            f"{name + f' ({players}p)':22s} {spread(rates['raw']):>24s} "
            f"{spread(rates['aec']):>22s} {spread(ratios, 100, '%'):>14s} "
            f"{spread(floors, 100, '%'):>14s} "
            f"{spread(rates['gym']):>22s} {spread(rates['sync']):>22s} "
            f"{spread(rates['native']):>22s}",
            flush=True,
        )
    for name in SPIEL_GAMES:
        run = spiel(name)
        values = [timed(run, args.seconds) for _ in range(args.rounds)]
        print(f"pyspiel {name:14s} {spread(values):>24s}   (C++ through pyspiel)", flush=True)


if __name__ == "__main__":
    main()
