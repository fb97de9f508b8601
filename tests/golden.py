"""Golden playthroughs: each seat's view of every step of one seeded game, as text.

A golden test fails when its file in ``tests/golden/`` differs or is missing.
Writing the files is an explicit step after an intended change (or for a new
golden test)::

    UPDATE_GOLDEN=1 python -m pytest tests -k golden

then read the diff (or the new file) before committing it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tripletopper.bots import make_bot
from tripletopper.engine import Game, derive_seed
from tripletopper.runner import choose_next

GOLDEN = Path(__file__).parent / "golden"


def playthrough(game: Game, seed: int, bots: str = "random", max_actions: int = 400) -> str:
    from tripletopper.bots import SeatView

    state = game.new_state(seed)
    players = [make_bot(bots, game, s, derive_seed(seed, s)) for s in range(game.players)]
    views = [SeatView(state, s) for s in range(game.players)]
    lines = [f"# {game.name} {json.dumps(game.config()['options'], sort_keys=True)}"]
    lines.append(f"# players {game.players}, seed {seed}, {bots} bots")

    def observe(title: str) -> None:
        lines.append(f"## {title}")
        lines.append("public " + json.dumps(state.public_observation(), sort_keys=True))
        for seat in range(game.players):
            lines.append(f"seat {seat} " + json.dumps(state.observation(seat), sort_keys=True))

    observe("start")
    for number in range(1, max_actions + 1):
        if state.is_terminal():
            break
        seat, action = choose_next(state, players, views)
        events = state.apply(action, seat)
        lines.append(f"## {number}. seat {seat}: {game.action_to_text(action)}")
        for event in events:
            for viewer in [None, *range(game.players)]:
                who = "public" if viewer is None else f"seat {viewer}"
                lines.append(f"event {who} " + json.dumps(event.view(viewer), sort_keys=True))
        observe(f"after {number}")
    return "\n".join(lines) + "\n"


REGENERATE = "UPDATE_GOLDEN=1 python -m pytest tests -k golden"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"tests/golden/{name} is missing: write it with {REGENERATE}"
    assert path.read_text(encoding="utf-8") == text, f"{name} changed ({REGENERATE} to accept)"
