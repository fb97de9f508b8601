"""Shared helpers of the research-API tests: games to play and random walks through them."""

from __future__ import annotations

import random
from collections.abc import Iterator

from tripletopper import make_game
from tripletopper.engine import CLOCK, Game, State
from tripletopper.games import GAMES

CONFIGS: list[tuple[str, int, dict[str, object]]] = [
    *(
        (name, n, {})
        for name, cls in sorted(GAMES.items())
        for n in sorted({max(2, cls.min_players), cls.max_players})
    ),
    ("thirty-one", 4, {"manual_31": True, "three_of_a_kind": "30.5"}),
    ("thirty-two", 4, {"end": "open", "counters": 4}),
    ("three-up-three-down", 3, {"colors": "RB", "rank_all": True}),
    ("toe", 2, {"quiz": True, "max_questions": 4}),
    ("memo-match", 3, {"reveal": "private", "swap_on_miss": True, "max_turns": 60}),
]
"""Every game at 2 and its most players, and variants with the options that change play."""

IDS = [f"{name}-{n}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for name, n, o in CONFIGS]


def config_game(name: str, players: int, options: dict[str, object]) -> Game:
    return make_game(name, players, **options)


def walk(game: Game, seed: int, steps: int = 200, clock: float = 0.3) -> Iterator[State]:
    """The states of a random game (each yielded before its next action is applied): seats
    to act play random legal actions, and the clock ends a timed phase now and then."""
    rng = random.Random(seed)
    state = game.new_state(seed)
    for _ in range(steps):
        if state.is_terminal():
            return
        yield state
        limit = state.timeout()
        seats = state.to_act()
        if limit is not None and (not seats or rng.random() < clock):
            state.apply(limit[1], CLOCK)
            continue
        seat = rng.choice(seats)
        state.apply(rng.choice(state.legal_actions(seat)), seat)
