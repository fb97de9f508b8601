"""What the environments share: the clock, AEC order, per-hand scores, rendering."""

from __future__ import annotations

import io
from typing import Any

from tripletopper.engine import CLOCK, Game, State

REWARD_MODES = ("game", "hand")
HAND_SCORES = {"thirty-two": "counters", "thirty-one": "lives"}
"""The per-seat public score whose change is a hand's reward (``rewards="hand"``)."""


def play_clock(state: State) -> None:
    """Play the clock's timeout while a timed phase runs with nobody to act."""
    while not state.to_act() and not state.is_terminal():
        limit = state.timeout()
        if limit is None:
            raise RuntimeError(f"{state!r}: nobody may act and no timed phase runs")
        state.apply(limit[1], CLOCK, events=False)


def next_seat(seats: tuple[int, ...], last: int) -> int:
    """The seat of ``seats`` that follows ``last`` in seat order, cyclically."""
    if len(seats) == 1:
        return seats[0]
    for seat in seats:
        if seat > last:
            return seat
    return seats[0]


def render_table(game: Game, obs: dict[str, Any], names: list[str]) -> str:
    """The terminal view of an observation, as plain text."""
    from rich.console import Console

    from tripletopper.cli.views import view_for

    out = io.StringIO()
    Console(file=out, width=100, color_system=None, highlight=False).print(
        view_for(game).table(obs, names)
    )
    return out.getvalue()


def check_modes(game: Game, rewards: str, render_mode: str | None) -> None:
    """Refuse a reward mode or render mode the environments do not have."""
    if rewards not in REWARD_MODES:
        raise ValueError(f"rewards must be one of {', '.join(REWARD_MODES)}")
    if rewards == "hand" and game.name not in HAND_SCORES:
        raise ValueError(f"{game.name} has no hands: use rewards='game'")
    if render_mode not in (None, "ansi"):
        raise ValueError("render_mode must be None or 'ansi'")


def hand_scores(state: State) -> list[float]:
    """Every seat's public score that ``rewards="hand"`` follows (counters, lives)."""
    return [float(v) for v in state.public_observation()[HAND_SCORES[state.game.name]]]
