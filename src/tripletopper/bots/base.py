"""The bot contract: a bot sees one seat's view of a game and chooses actions.

A bot never holds the game state.  It gets a :class:`SeatView`, which offers
exactly what a player at that seat could know or work out: the seat's
observation, its legal actions, and (for search bots) states resampled so that
everything the seat cannot see is dealt again at random.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from tripletopper.engine import Action, Game, Rng, State
from tripletopper.engine.rng import _INC, _MASK64, _MULT


class SeatView:
    """One seat's window on a game in progress (one per seat per game)."""

    __slots__ = ("_state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self._state.game

    @property
    def version(self) -> int:
        return self._state.version

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def legal_actions(self) -> list[Action]:
        return self._state.legal_actions(self.seat)

    def recall(self) -> dict[str, Any]:
        """The seat's perfect memory of what it saw that is no longer on view
        (``State.recall``): a bot may use it, a person is never shown it."""
        return self._state.recall(self.seat)

    def to_act(self) -> tuple[int, ...]:
        return self._state.to_act()

    def sample(self, rng: Rng) -> State:
        """A full state consistent with this seat's knowledge (hidden cards redealt)."""
        return self._state.resample(self.seat, rng)


class Bot(ABC):
    """A player program.  Subclasses set ``name`` and implement :meth:`choose`."""

    name: ClassVar[str]
    description: ClassVar[str] = ""
    wants_events: ClassVar[bool] = False
    """True if :meth:`observe` should receive every event (bots with a memory)."""
    parameters: ClassVar[tuple[str, ...] | None] = None
    """The parameters a spec may set (``name:key=value``); None: the keyword
    parameters of ``__init__`` (see :func:`bot_parameters`)."""
    time_budget: float | None = None
    """Seconds the caller allows one decision (the card room sets it before each);
    a bot that can decide sooner when pressed (a search) stops in time.  None: no limit."""

    def __init__(self, game: Game, seat: int, seed: int = 0, **params: Any) -> None:
        if params:
            raise ValueError(f"bot {self.name!r} takes no parameter {next(iter(params))!r}")
        self.game = game
        self.seat = seat
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, view: SeatView) -> Action | None:
        """The action to play; ``None`` to let others go first where several may act."""

    def reaction_time(self, view: SeatView) -> float:
        """Seconds this bot takes to act in a race between seats (simulated time)."""
        return 0.0

    def observe(self, events: list[Mapping[str, Any]]) -> None:  # noqa: B027 - optional hook
        """Events of an applied action, as this seat sees them (if ``wants_events``)."""


def bot_parameters(cls: type[Bot]) -> tuple[str, ...]:
    """The parameters a spec may give a bot of ``cls``."""
    if cls.parameters is not None:
        return cls.parameters
    skip = ("self", "game", "seat", "seed")
    return tuple(
        name
        for name, p in inspect.signature(cls.__init__).parameters.items()
        if name not in skip and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)
    )


class RandomBot(Bot):
    """Plays a uniformly random legal action (a baseline, and the fastest playout policy)."""

    name = "random"
    description = "picks any legal action at random"

    def choose(self, view: SeatView) -> Action:
        legal = view._state.legal_actions(self.seat)
        # Rng.below inlined: random playouts run this millions of times.
        rng = self.rng
        rng.state = state = (rng.state * _MULT + _INC) & _MASK64
        return legal[((state >> 32) * len(legal)) >> 32]
