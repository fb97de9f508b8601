"""The medium bots decide exactly as they did before their speed-ups (precomputed hand
scores, inlined sampling, cached parses): whole seeded games of every game, with the
options that change what the bots compute, play the very actions recorded in
``tests/golden/medium-bots.txt``, which was written by the plain code before the fast
paths went in.  A change of a bot's play is a deliberate change of that file
(``UPDATE_GOLDEN=1``), never a side effect of making it faster."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tests.golden import check_golden
from tripletopper.bots import make_bot
from tripletopper.engine import Action, Event, State
from tripletopper.question_banks import make_game
from tripletopper.runner import bot_seed, play_game

CASES: list[tuple[str, int, dict[str, Any]]] = [
    ("thirty-two", 3, {}),
    ("thirty-two", 4, {}),
    ("thirty-two", 6, {"no_wilds": True}),
    ("thirty-two", 5, {"cap_at_32": False}),
    ("thirty-one", 2, {}),
    ("thirty-one", 4, {}),
    ("thirty-one", 6, {"three_of_a_kind": "30.5"}),
    ("toe", 2, {}),
    ("toe", 2, {"quiz": True}),
    ("memo-match", 1, {}),
    ("memo-match", 3, {}),
    ("memo-match", 4, {"swap_on_miss": True}),
    ("three-up-three-down", 4, {}),
]
SEEDS = range(16)


def fingerprint(name: str, players: int, options: dict[str, Any], seed: int) -> str:
    """The hash of a medium-bot game's actions (seat and action, in order), and their count."""
    game = make_game(name, players, **options)
    bots = [make_bot("medium", game, seat, bot_seed(seed, seat)) for seat in range(players)]
    log: list[str] = []

    def record(state: State, seat: int, action: Action, events: list[Event]) -> None:
        log.append(f"{seat}:{action!r}")

    play_game(game, bots, seed, listener=record)
    digest = hashlib.sha256("\n".join(log).encode()).hexdigest()[:16]
    variant = f"{name} {players} {json.dumps(options, sort_keys=True)}"
    return f"{variant} seed {seed}: {digest} {len(log)}"


def test_medium_bots_play_the_recorded_games() -> None:
    text = "".join(
        fingerprint(name, players, options, seed) + "\n"
        for name, players, options in CASES
        for seed in SEEDS
    )
    check_golden("medium-bots.txt", text)
