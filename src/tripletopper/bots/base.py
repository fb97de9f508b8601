"""The bot contract: a bot sees one seat's view of a game and chooses actions.

A bot never holds the game state.  It gets a :class:`SeatView`, which offers
exactly what a player at that seat could know or work out: the seat's
observation, its legal actions, who may act, and (for search bots)
:meth:`SeatView.sample`, a :class:`SampledView` of a world where everything
the seat cannot see is dealt again at random.  Only a sampled world may be read
as a state: search playouts (:class:`Playout`) decide on a :class:`SampledView`,
which holds its world in plain sight; a :class:`SeatView` keeps its state to
itself (bot code never touches it, ``tests/test_bot_views.py`` checks), so a
seated bot cannot read a hidden card, by construction.

:func:`first_to_act` decides races (several seats may act, or the one to act
may wait) by the deciders' simulated reaction times, for the runner, the
terminal and search playouts alike.
"""

from __future__ import annotations

import inspect
import math
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple, Protocol, TypeVar

from tripletopper.engine import CLOCK, Action, Game, Rng, State
from tripletopper.engine.rng import _INC, _MASK64, _MULT


class SeatView:
    """One seat's window on the true game in progress (one per seat per game).

    It answers with the seat's observation, legal actions and who may act, and
    deals samples; it gives no access to the state itself.
    """

    __slots__ = ("__state", "seat")

    def __init__(self, state: State, seat: int) -> None:
        self.__state = state
        self.seat = seat

    @property
    def game(self) -> Game:
        return self.__state.game

    @property
    def version(self) -> int:
        return self.__state.version

    def observation(self) -> dict[str, Any]:
        return self.__state.observation(self.seat)

    def legal_actions(self) -> list[Action]:
        return self.__state.legal_actions(self.seat)

    def recall(self) -> dict[str, Any]:
        """The seat's perfect memory of what it saw that is no longer on view
        (``State.recall``): a bot may use it, a person is never shown it."""
        return self.__state.recall(self.seat)

    def to_act(self) -> tuple[int, ...]:
        return self.__state.to_act()

    def sample(self, rng: Rng) -> SampledView:
        """A world consistent with this seat's knowledge: hidden cards dealt again,
        future chance reseeded from ``rng``."""
        return SampledView(self.__state.resample(self.seat, rng), self.seat)


class SampledView:
    """One seat's window on a *sampled* world (a determinization), for search only.

    ``world`` is a resample (:meth:`SeatView.sample`): everything ``seat`` could
    not see was dealt again, so reading it reveals nothing true.  A search moves
    it on (``world.apply``) and lets each seat's playout policy decide on it.
    """

    __slots__ = ("seat", "world")

    def __init__(self, world: State, seat: int) -> None:
        self.world = world
        self.seat = seat

    @property
    def game(self) -> Game:
        return self.world.game

    def observation(self) -> dict[str, Any]:
        return self.world.observation(self.seat)

    def legal_actions(self) -> list[Action]:
        return self.world.legal_actions(self.seat)

    def to_act(self) -> tuple[int, ...]:
        return self.world.to_act()


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
    derived: ClassVar[tuple[str, ...]] = ()
    """Attributes :meth:`derive` builds from the others (shared tables, or starts empty):
    left out of pickles and copies and built again, so a bot sent to a worker process
    with every decision travels in hundreds of bytes, not tens of kilobytes."""

    def __init__(self, game: Game, seat: int, seed: int = 0, **params: Any) -> None:
        if params:
            raise ValueError(f"bot {self.name!r} takes no parameter {next(iter(params))!r}")
        self.game = game
        self.seat = seat
        self.rng = Rng(seed)

    def derive(self) -> None:  # noqa: B027 - optional hook
        """Build the ``derived`` attributes (``__init__`` calls it once the rest is set)."""

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in self.derived:
            state.pop(name, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.derive()

    @abstractmethod
    def choose(self, view: SeatView) -> Action | None:
        """The action to play; ``None`` to let others go first where several may act."""

    def reaction_time(self, view: SeatView) -> float:
        """Seconds this bot takes to act in a race between seats (simulated time)."""
        return 0.0

    def observe(self, events: list[Mapping[str, Any]]) -> None:  # noqa: B027 - optional hook
        """Events of an applied action, as this seat sees them (if ``wants_events``)."""


class Playout(ABC):
    """A fast policy deciding for one seat of a sampled world in search playouts.

    It is never seated at a table: it gets :class:`SampledView` only, and may read
    the sampled state (``view.world``) for speed - but only what its seat could
    see there, so that opponents in playouts decide from their own sampled cards.
    """

    def __init__(self, game: Game, seat: int, seed: int = 0) -> None:
        self.game = game
        self.seat = seat
        self.rng = Rng(seed)

    @abstractmethod
    def choose(self, view: SampledView) -> Action | None:
        """The action to play; ``None`` to let others go first where several may act."""

    def reaction_time(self, view: SampledView) -> float:
        return 0.0


ViewT = TypeVar("ViewT", SeatView, SampledView)
ViewT_contra = TypeVar("ViewT_contra", contravariant=True)


class Decider(Protocol[ViewT_contra]):
    """What decides for a seat: a :class:`Bot` on a :class:`SeatView`, a
    :class:`Playout` on a :class:`SampledView`."""

    def choose(self, view: ViewT_contra) -> Action | None: ...

    def reaction_time(self, view: ViewT_contra) -> float: ...


class Acting(NamedTuple):
    """Who acts next in a race, what, and after how many (simulated) seconds."""

    seat: int
    action: Action
    delay: float


def first_to_act(
    state: State, deciders: Sequence[Decider[ViewT] | None], views: Sequence[ViewT]
) -> Acting | None:
    """Who acts first where several seats may act (or the one to act may wait).

    Every seat in ``to_act`` with a decider is asked; of those that want to act,
    the quickest by its reaction time does (the lower seat on a tie), unless the
    phase's time limit runs out first: then the clock (:data:`CLOCK`) plays the
    timeout.  ``None`` if nobody wants to act and the phase has no time limit.
    Seats without a decider (people) are skipped.
    """
    best: Acting | None = None
    for seat in state.to_act():
        decider = deciders[seat]
        if decider is None:
            continue
        action = decider.choose(views[seat])
        if action is None:
            continue
        delay = decider.reaction_time(views[seat])
        if best is None or delay < best.delay:
            best = Acting(seat, action, delay)
    limit = state.timeout()
    if limit is not None and (best is None or best.delay > limit[0]):
        return Acting(CLOCK, limit[1], limit[0])
    return best


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


def whole(name: str, value: object, minimum: int) -> int:
    """A bot parameter that counts something (samples, iterations): a whole number from
    ``minimum`` up, else a ``ValueError`` that says so."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or value != int(value)
    ):
        raise ValueError(f"{name}={value}: give a whole number, {minimum} or more")
    if value < minimum:
        raise ValueError(f"{name}={value:g}: give {minimum} or more")
    return int(value)


def at_least(name: str, value: float, minimum: float) -> float:
    """A bot parameter with a floor (a time, a weight), else a ``ValueError`` that says so."""
    if not value >= minimum:  # also refuses NaN
        raise ValueError(f"{name}={value:g}: give {minimum:g} or more")
    return float(value)


def random_action(legal: list[Action], rng: Rng) -> Action:
    """A uniformly random action of ``legal``."""
    # Rng.below inlined: random playouts run this millions of times.
    rng.state = state = (rng.state * _MULT + _INC) & _MASK64
    return legal[((state >> 32) * len(legal)) >> 32]


class RandomBot(Bot):
    """Plays a uniformly random legal action (a baseline)."""

    name = "random"
    description = "picks any legal action at random"

    def choose(self, view: SeatView) -> Action:
        return random_action(view.legal_actions(), self.rng)


class RandomPlayout(Playout):
    """Random moves in playouts (the fastest policy)."""

    def choose(self, view: SampledView) -> Action:
        return random_action(view.world.legal_actions(self.seat), self.rng)
