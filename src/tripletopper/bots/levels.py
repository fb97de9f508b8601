"""Difficulty levels a player understands - easy, medium, hard, expert - as concrete bots.

Each game maps the levels to its own bots in its bot module (see
``LEVELS`` in ``bots/thirty_two.py``); this module gives the building blocks:

- :func:`sloppy` wraps a bot so it makes mistakes now and then (easy levels),
- :func:`searching` makes an ISMCTS bot with a budget and the game's search spec
  (hard levels), falling back to the game's heuristic where search does not apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tripletopper.bots.base import Bot, SeatView, bot_parameters
from tripletopper.bots.ismcts import ISMCTSBot, SearchSpec
from tripletopper.engine import Action, Game

LEVELS = ("easy", "medium", "hard", "expert")
EXPERT_SECONDS = 2.0
"""The time an expert decision may take on one core: every game's ``expert`` budget
(in iterations) decides well within it (0.1-0.5 s median, ``benchmarks/ismcts.py``).
The card room allows a ``seconds=`` budget up to it and sets its deadline above it."""


def sloppy(inner: type[Bot], mistakes: float, description: str) -> type[Bot]:
    """A bot that plays like ``inner`` but, with chance ``mistakes`` per decision
    that has a choice, plays another legal move at random instead (override per
    spec: ``easy:mistakes=0.1``).  Games whose newcomers err in a more telling way
    (forgetting, in Memo Match) define their easy level differently."""

    class Sloppy(Bot):
        name = "sloppy"

        def __init__(self, game: Game, seat: int, seed: int = 0, **params: Any) -> None:
            rate = float(params.pop("mistakes", mistakes))
            if not 0 <= rate <= 1:
                raise ValueError(f"mistakes={rate:g}: give a chance from 0 to 1")
            super().__init__(game, seat, seed)
            self.inner = inner(game, seat, seed, **params)
            self.mistakes = rate

        def reaction_time(self, view: SeatView) -> float:
            return self.inner.reaction_time(view) * (1.5 if self.mistakes else 1.0)

        def observe(self, events: list[Any]) -> None:
            self.inner.observe(events)

        def choose(self, view: SeatView) -> Action | None:
            best = self.inner.choose(view)
            legal = view.legal_actions()
            if best is None or len(legal) < 2 or self.rng.random() >= self.mistakes:
                return best
            others = [a for a in legal if a != best]
            return others[self.rng.below(len(others))]

    Sloppy.wants_events = inner.wants_events
    Sloppy.description = description
    Sloppy.parameters = ("mistakes", *bot_parameters(inner))
    return Sloppy


def preset(inner: type[Bot], description: str, **defaults: Any) -> type[Bot]:
    """``inner`` with other default parameters (still overridable in a spec)."""

    class Preset(inner):  # type: ignore[valid-type, misc]
        def __init__(self, game: Game, seat: int, seed: int = 0, **params: Any) -> None:
            super().__init__(game, seat, seed, **{**defaults, **params})

    Preset.description = description
    Preset.parameters = bot_parameters(inner)
    return Preset


def searching(
    spec: SearchSpec | Callable[[Game], SearchSpec],
    fallback: type[Bot],
    iterations: int | Callable[[Game], int],
    seconds: float,
    description: str,
) -> type[Bot]:
    """An ISMCTS bot with this budget (override per spec: ``hard:iterations=2000``); ``spec``
    and ``iterations`` may be chosen by the game (say, by its number of players)."""

    class Searching(ISMCTSBot):
        def __init__(self, game: Game, seat: int, seed: int = 0, **params: Any) -> None:
            budget = iterations if isinstance(iterations, int) else iterations(game)
            super().__init__(
                game,
                seat,
                seed,
                iterations=params.pop("iterations", budget),
                seconds=float(params.pop("seconds", seconds)),
                exploration=_number(params.pop("exploration", None)),
                confidence=float(params.pop("confidence", 1.0)),
                depth=params.pop("depth", 1),
                paired=params.pop("paired", None),
                spec=spec if isinstance(spec, SearchSpec) else spec(game),
                fallback=fallback(game, seat, seed, **params),
            )

    Searching.description = description
    Searching.wants_events = fallback.wants_events
    Searching.parameters = (*bot_parameters(ISMCTSBot), *bot_parameters(fallback))
    return Searching


def _number(value: object) -> float | None:
    return None if value is None else float(value)  # type: ignore[arg-type]
