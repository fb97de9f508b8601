"""Building a world from a seat's view (``Game.world_from_view``) against ``resample``.

For each game that builds worlds, random positions of random games are collected;
for each, the seat's observation and recall are taken as JSON (as a remote bot
receives them) and a world is built from them, next to a ``resample`` of the true
state with the same rng.  Each is timed in rounds interleaved with the other, so
the ratio is comparable on a busy machine; the median ratio and its spread over
the rounds are printed.  Nothing is asserted: this script measures.

    python benchmarks/worlds.py [--positions 200] [--rounds 3] [--game NAME]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from tripletopper.engine import Game, Rng, State
from tripletopper.games import GAMES
from tripletopper.question_banks import make_game

PLAYERS = {"thirty-two": 4, "thirty-one": 4, "three-up-three-down": 4, "toe": 2, "memo-match": 3}


def positions(game: Game, count: int) -> list[tuple[State, int, dict[str, Any], dict[str, Any]]]:
    out: list[tuple[State, int, dict[str, Any], dict[str, Any]]] = []
    rng = random.Random(1)
    seed = 0
    while len(out) < count:
        state = game.new_state(seed)
        seed += 1
        for _ in range(rng.randrange(1, 120)):
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            state.apply(rng.choice(state.legal_actions(seat)), seat)
        if state.is_terminal():
            continue
        seat = state.to_act()[0]
        obs = json.loads(json.dumps(state.observation(seat)))
        recall = json.loads(json.dumps(state.recall(seat)))
        out.append((state, seat, obs, recall))
    return out


def timed(run: object) -> float:
    started = time.perf_counter()
    run()  # type: ignore[operator]
    return time.perf_counter() - started


def measure(name: str, count: int, rounds: int) -> tuple[float, float, list[float]]:
    game = make_game(name, PLAYERS[name])
    cases = positions(game, count)

    def worlds() -> None:
        for i, (_state, seat, obs, recall) in enumerate(cases):
            game.world_from_view(seat, obs, recall, Rng(i))

    def resamples() -> None:
        for i, (state, seat, _obs, _recall) in enumerate(cases):
            state.resample(seat, Rng(i))

    world_times, resample_times = [], []
    for _ in range(rounds):
        world_times.append(timed(worlds) / count)
        resample_times.append(timed(resamples) / count)
    ratios = [w / r for w, r in zip(world_times, resample_times, strict=True)]
    return statistics.median(world_times), statistics.median(resample_times), ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", choices=sorted(GAMES))
    args = parser.parse_args()
    names = [args.game] if args.game else sorted(GAMES)
    print(f"{'game':22} {'world us':>9} {'resample us':>12} {'ratio (median, min-max)':>26}")
    for name in names:
        if GAMES[name].world_from_view is Game.world_from_view:
            print(f"{name:22} (builds no worlds)")
            continue
        world, resample, ratios = measure(name, args.positions, args.rounds)
        spread = f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        print(f"{name:22} {world * 1e6:9.1f} {resample * 1e6:12.1f} {spread:>26}")


if __name__ == "__main__":
    main()
