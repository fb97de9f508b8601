"""The engine contract every game implements: an immutable Game that makes States.

See ``docs/engine.md`` for the contract in prose.  In short:

- ``Game(players, **options)`` validates options (clear :class:`InvalidOptionError`)
  and is immutable; ``game.new_state(seed, decks=..., **setup)`` starts a game.
- A :class:`State` says who may act (:meth:`State.to_act`, possibly several seats),
  lists :meth:`State.legal_actions`, and :meth:`State.apply` s one, returning
  :class:`~tripletopper.engine.events.Event` s.  Bad actions raise typed errors and
  change nothing.
- :meth:`State.observation` is everything one seat may know, as JSON-able data;
  :meth:`State.public_observation` is the spectator's view.
- :meth:`State.clone` is cheap; :meth:`State.resample` redeals what a seat cannot
  see, for search bots; :meth:`Game.world_from_view` builds such a world from a seat's
  observation and recall alone (a remote bot, which never holds the state).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar

from tripletopper.cards.deck import Card, Deck
from tripletopper.engine.actions import Action, ActionCodec, ActionPattern
from tripletopper.engine.events import YOU, Event
from tripletopper.engine.options import Option, OptionValue, validate_options
from tripletopper.engine.rng import Rng
from tripletopper.errors import (
    CardError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
)

TABLE = -1
"""The pseudo-seat of the table-level actions the rules give players (closing an
open-ended Thirty-Two table); never a timeout."""

CLOCK = -2
"""The pseudo-seat of the table's clock: the only seat that plays :meth:`State.timeout`."""

CLOCK_ONLY = "time-outs are played by the table's clock, not by a player"
"""Why a player (or :data:`TABLE`) may not play a timeout."""


@dataclass(frozen=True)
class Results:
    """How a finished game came out.

    ``ranking`` groups seats best first (a group shares its place); ``scores``
    holds each seat's final game score (counters, cards taken, ...).
    """

    winners: tuple[int, ...]
    scores: tuple[float, ...]
    ranking: tuple[tuple[int, ...], ...]

    def returns(self) -> list[float]:
        """1 shared among the winners, 0 for everyone else (sums to 1)."""
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return [share if seat in self.winners else 0.0 for seat in range(len(self.scores))]

    def rank_of(self, seat: int) -> float:
        """Finishing place (1 = first); a shared place gives the mean of the places it covers."""
        place = 1
        for group in self.ranking:
            if seat in group:
                return place + (len(group) - 1) / 2
            place += len(group)
        raise ValueError(f"seat {seat} is not ranked")

    def to_json(self) -> dict[str, Any]:
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "ranking": [list(group) for group in self.ranking],
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Results:
        """The inverse of :meth:`to_json`."""
        return Results(
            tuple(data["winners"]),
            tuple(float(x) for x in data["scores"]),
            tuple(tuple(group) for group in data["ranking"]),
        )

    @staticmethod
    def by_score(scores: Sequence[float], winners: Iterable[int] | None = None) -> Results:
        """Rank seats by descending score; the winners default to the top group."""
        order = sorted(set(scores), reverse=True)
        ranking = tuple(
            tuple(seat for seat, score in enumerate(scores) if score == value) for value in order
        )
        won = tuple(winners) if winners is not None else ranking[0]
        if winners is not None:
            rest = [tuple(s for s in group if s not in won) for group in ranking]
            ranking = (won, *(group for group in rest if group))
        return Results(won, tuple(scores), ranking)


class Game(ABC):
    """A game's rules with validated options; immutable, hashable, makes states."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    deck: ClassVar[Deck]
    options_schema: ClassVar[tuple[Option, ...]] = ()
    codec: ClassVar[ActionCodec]
    setup_keys: ClassVar[tuple[str, ...]] = ()
    """Chance outcomes ``new_state`` accepts as keywords instead of drawing them."""
    score_units: ClassVar[tuple[str, str]] = ("point", "points")
    """What the scores of :class:`Results` count, singular and plural ("counter", "counters")."""

    players: int
    options: Mapping[str, OptionValue]

    def __init__(self, players: int, **options: object) -> None:
        self.check_players(players)
        self.players = players
        self.options = MappingProxyType(
            validate_options(self.name, self.options_schema, players, options)
        )

    @classmethod
    def check_players(cls, players: object) -> int:
        if not isinstance(players, int) or isinstance(players, bool):
            raise InvalidOptionError(f"players must be a whole number, not {players!r}")
        if not cls.min_players <= players <= cls.max_players:
            span = (
                f"exactly {cls.min_players}"
                if cls.min_players == cls.max_players
                else f"{cls.min_players} to {cls.max_players}"
            )
            raise InvalidOptionError(f"{cls.name} is played by {span} players (got {players})")
        return players

    @abstractmethod
    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> State:
        """A new game.  ``decks`` stacks the order of successive shuffles (top card first)."""

    # --- helpers for new_state -------------------------------------------------
    def parse_decks(self, decks: Sequence[Sequence[Card | str]] | None) -> list[list[Card]]:
        """Validate stacked deck orders: known cards, none twice within an order."""
        if decks is None:
            return []
        if isinstance(decks, str) or not isinstance(decks, Sequence):
            raise InvalidOptionError("decks must be a list of card orders (lists of cards)")
        out = []
        for order in decks:
            if isinstance(order, str) or not isinstance(order, Sequence):
                raise InvalidOptionError("each stacked deck must be a list of cards")
            try:
                cards = [self.deck.parse(card) for card in order]
            except CardError as exc:
                raise InvalidOptionError(f"stacked deck: {exc}") from None
            if len(set(cards)) != len(cards):
                raise InvalidOptionError("a stacked deck names the same card twice")
            out.append(cards)
        return out

    def check_setup(self, setup: Mapping[str, object]) -> None:
        unknown = [key for key in setup if key not in self.setup_keys]
        if unknown:
            allowed = ", ".join(self.setup_keys) or "none"
            raise InvalidOptionError(
                f"{self.name} has no setup value {unknown[0]!r} (it takes: {allowed})"
            )

    def setup_seat(self, setup: Mapping[str, object], key: str) -> int | None:
        """A seat named by a setup value (``dealer=2``), checked; None when not given."""
        seat = setup.get(key)
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players
        ):
            raise InvalidOptionError(f"{key} must be a seat from 0 to {self.players - 1}")
        return seat

    # --- worlds for search ---------------------------------------------------------
    def world_from_view(
        self, seat: int, observation: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
    ) -> State:
        """A whole state consistent with what ``seat`` knows, built from that alone.

        ``observation`` is ``state.observation(seat)`` and ``recall`` is
        ``state.recall(seat)`` (as JSON data, as a remote seat receives them).  The world
        gives back exactly that observation, recall, ``to_act`` and the seat's legal
        actions; every card the seat cannot place is dealt uniformly at random from
        the cards it cannot place (as :meth:`State.resample` does), and the world's
        future chance is seeded from ``rng``.  Two states that look the same to the
        seat give the same world for the same ``rng``.  Raises :class:`ValueError`
        for a view no state of this game could show, ``NotImplementedError`` for a
        game that cannot build worlds yet.
        """
        raise NotImplementedError(f"{self.name} cannot build a world from a view")

    # --- actions in their three forms -----------------------------------------
    def parse_action(self, text: str) -> Action:
        """The action written as text (``"discard GS1"``)."""
        return self.codec.from_text(text)

    def action_to_text(self, action: Action) -> str:
        return self.codec.to_text(action)

    def action_from_wire(self, raw: object) -> Action:
        """The action sent as JSON data (``{"type": "discard", "card": "GS1"}``)."""
        return self.codec.from_wire(raw)

    def action_to_wire(self, action: Action) -> dict[str, Any]:
        return self.codec.to_wire(action)

    def describe_action(self, action: Action) -> str:
        """A short sentence for people; games override for nicer wording."""
        return self.action_to_text(action)

    def pattern_to_wire(self, pattern: ActionPattern) -> dict[str, Any]:
        """A pattern of :meth:`State.legal_summary` as JSON data (``docs/protocol.md``)."""
        return self.codec.pattern_to_wire(pattern)

    def describe_pattern(self, pattern: ActionPattern) -> str:
        """A short sentence for people: the kind's help line unless a game says better."""
        return self.codec.kinds[pattern.kind].help or pattern.kind

    def describe_event(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        """One event (as a seat sees it) in words; games override."""
        return str(event.get("type"))

    def describe_clock_move(self, seat: int, names: Sequence[str]) -> str:
        """Said before the events of a move a table's turn clock played for ``seat``.

        It names no action: the events that follow say what happened, as each viewer may
        see it (a move may hide cards from the others)."""
        who = "you" if names[seat] == YOU else names[seat]
        return f"Time ran out: the clock played for {who}."

    @classmethod
    def score_unit(cls, players: int) -> tuple[str, str]:
        """What a score counts at a game of ``players`` (singular, plural): ``score_units``
        unless a game's scores count something else at some player counts."""
        return cls.score_units

    # --- identity ---------------------------------------------------------------
    def config(self) -> dict[str, Any]:
        return {"game": self.name, "players": self.players, "options": dict(self.options)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.config() == other.config()

    def __hash__(self) -> int:
        return hash((self.name, self.players, tuple(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(players={self.players}, {opts})"


class State(ABC):
    """One game in progress: the only mutable object of the engine."""

    __slots__ = ("_legal", "_legal_seat", "_legal_version", "game", "history", "origin")

    game: Game
    history: list[tuple[int, Action]]
    """Every applied ``(seat, action)``; with :attr:`origin` it replays the game."""
    origin: dict[str, Any]
    """How the game began: ``seed``, stacked ``decks`` and ``setup`` (shared by clones)."""

    def _init_base(self, game: Game, origin: dict[str, Any]) -> None:
        self.game = game
        self.history = []
        self.origin = origin
        self._legal_version = -1
        self._legal_seat = 0
        self._legal: list[Action] = []

    def _copy_base(self, other: State) -> None:
        """For ``clone``: share the game and origin, copy the history."""
        self.game = other.game
        self.history = other.history.copy()
        self.origin = other.origin
        self._legal_version = -1
        self._legal_seat = 0
        self._legal = []

    # --- what games implement ---------------------------------------------------
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that may act now (several in simultaneous phases; none when over)."""

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """Legal actions of ``seat``, which is in :meth:`to_act`."""

    @abstractmethod
    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        """Carry out a legal action; append events unless ``events`` is None."""

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def results(self) -> Results | None:
        """The outcome once the game is over, else None."""

    @abstractmethod
    def _observe(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` may know (``None``: the public view), as JSON data."""

    @abstractmethod
    def clone(self) -> State: ...

    @abstractmethod
    def resample(self, seat: int, rng: Rng) -> State:
        """A clone where everything ``seat`` cannot see is dealt again at random.

        The result agrees with everything that seat has seen (its observation is
        unchanged) and its future chance is reseeded from ``rng``.
        """

    @abstractmethod
    def dump(self) -> dict[str, Any]:
        """The whole state, hidden cards included: for tests and debugging only."""

    def _table_actions(self) -> list[Action]:
        """Actions of the :data:`TABLE` pseudo-seat (none unless a game has them).

        Only actions the rules let a player at the table call; a timeout is the
        :data:`CLOCK`'s (see :meth:`timeout`), never listed here.
        """
        return []

    def _explain_illegal(self, seat: int, action: Action) -> str | None:
        """Why a well-formed action is not legal now, if the game can say it better."""
        return None

    def stats(self) -> dict[str, float]:
        """Numbers worth averaging over simulated games (hands played, ...)."""
        return {}

    def timeout(self) -> tuple[float, Action] | None:
        """The time limit of a timed phase, if one is running, and the action that ends it.

        The engine never reads a clock: whoever owns one (the server, the CLI,
        the simulation runner) applies the action as the :data:`CLOCK` seat
        when the limit (in seconds) has passed without anyone acting.  It is
        the clock's only legal action, and nobody else's.
        """
        return None

    def default_action(self, seat: int) -> Action:
        """A safe action for a seat whose clock ran out."""
        return self.legal_actions(seat)[0]

    def hints(self, seat: int | None) -> dict[str, Any]:
        """Threats and chances worth pointing out to ``seat`` (None: a spectator), as JSON data.

        For tables that turn hints on; built only from what that seat may know, so
        ``resample(seat)`` leaves them unchanged.  ``{}`` unless a game has some."""
        return {}

    def preview(self, action: Action, seat: int) -> str | None:
        """What playing ``action`` (legal for ``seat``) would leave, in a few words, or None.

        The arithmetic a player would otherwise do: the score a discard keeps.  Built only
        from what that seat may know."""
        return None

    def recall(self, seat: int) -> dict[str, Any]:
        """What ``seat`` saw that is no longer on view, remembered perfectly: for bots only.

        A memory game (Memo Match) keeps this out of the observation, so it never
        reaches a person; ``resample(seat)`` leaves it unchanged.  Other games show
        a seat all it saw in its observation, and recall nothing more.
        """
        return {}

    # --- the contract's shared behaviour --------------------------------------
    @property
    def version(self) -> int:
        """How many actions have been applied."""
        return len(self.history)

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know now; hidden cards are absent, not masked."""
        if not isinstance(seat, int) or not 0 <= seat < self.game.players:
            raise IllegalActionError(f"there is no seat {seat!r}")
        return self._observe(seat)

    def public_observation(self) -> dict[str, Any]:
        """What a spectator may know now."""
        return self._observe(None)

    def current_seat(self) -> int:
        """The one seat to act (an error if none or several may act)."""
        seats = self.to_act()
        if len(seats) == 1:
            return seats[0]
        if not seats:
            raise IllegalActionError("the game is over")
        raise IllegalActionError(f"seats {', '.join(map(str, seats))} may act: say which seat acts")

    def legal_actions(self, seat: int | None = None) -> list[Action]:
        """Legal actions for ``seat`` (default: the one seat to act); empty if it may not act.

        The list is cached until the next action: treat it as read-only.
        """
        if seat is None:
            seat = self.current_seat()
        version = len(self.history)
        if self._legal_seat == seat and self._legal_version == version:
            return self._legal
        if seat == TABLE:
            legal = [] if self.is_terminal() else self._table_actions()
        elif seat == CLOCK:
            limit = None if self.is_terminal() else self.timeout()
            legal = [] if limit is None else [limit[1]]
        else:
            legal = self._legal_for(seat)
        self._legal_version = version
        self._legal_seat = seat
        self._legal = legal
        return legal

    def legal_summary(self, seat: int | None = None) -> Sequence[Action | ActionPattern]:
        """:meth:`legal_actions`, where a game may describe a large family as a pattern.

        Each :class:`ActionPattern`, expanded in place (``pattern.actions()``), gives back
        exactly ``legal_actions(seat)``, in its order.  It is what a client is sent, so a
        game overrides it where the list would run into the thousands (Memo Match's claims).
        """
        return self.legal_actions(seat)

    def _legal_for(self, seat: int) -> list[Action]:
        """Legal actions of any player seat: none unless it may act now.

        Games may override this with a cheaper test than :meth:`to_act`.
        """
        return self._legal_actions(seat) if seat in self.to_act() else []

    def is_legal(self, action: Action, seat: int | None = None) -> bool:
        return action in self.legal_actions(seat)

    def apply(self, action: Action, seat: int | None = None, *, events: bool = True) -> list[Event]:
        """Apply ``action`` for ``seat`` (default: the one seat to act).

        Raises :class:`MalformedActionError` or :class:`IllegalActionError` (with
        the reason) and leaves the state untouched if the action is not legal.
        With ``events=False`` no events are built (simulations).
        """
        if seat is None:
            seat = self.current_seat()
        history = self.history
        if self._legal_seat == seat and self._legal_version == len(history):
            legal = self._legal  # the common case: the caller just listed them
        else:
            legal = self.legal_actions(seat)
        if action not in legal:
            raise self._illegal(seat, action)
        if events:
            log: list[Event] = []
            self._apply(seat, action, log)
            history.append((seat, action))
            return log
        self._apply(seat, action, None)
        history.append((seat, action))
        return []

    def apply_unchecked(self, action: Action, seat: int) -> None:
        """:meth:`apply` without events and without checking that ``action`` is legal,
        for simulations whose policy plays legal actions by construction (the search's
        playouts). An illegal action here corrupts the state: tests compare it with
        :meth:`apply` (``tests/test_contract.py``, ``tests/test_ismcts.py``)."""
        self._apply(seat, action, None)
        self.history.append((seat, action))

    def apply_text(self, text: str, seat: int | None = None) -> list[Event]:
        return self.apply(self.game.parse_action(text), seat)

    def apply_wire(self, raw: object, seat: int | None = None) -> list[Event]:
        return self.apply(self.game.action_from_wire(raw), seat)

    def _illegal(self, seat: int, action: object) -> IllegalActionError | MalformedActionError:
        try:
            self.game.codec.check(action)
        except MalformedActionError as exc:
            return exc
        assert isinstance(action, tuple)
        try:
            text = self.game.action_to_text(action)
        except (IndexError, KeyError, TypeError, ValueError):  # e.g. a card int out of range
            return MalformedActionError(f"{action!r} is not a well-formed action")
        if self.is_terminal():
            return IllegalActionError(f"the game is over: {text!r} cannot be played")
        if not isinstance(seat, int) or not (CLOCK <= seat < self.game.players):
            return IllegalActionError(f"there is no seat {seat!r}")
        limit = self.timeout()
        if seat == CLOCK:
            if limit is None:
                return IllegalActionError(f"{text!r} is not the clock's: no timed phase is running")
            timeout = self.game.action_to_text(limit[1])
            return IllegalActionError(f"{text!r} is not allowed: the clock plays only {timeout!r}")
        if limit is not None and action == limit[1]:
            return IllegalActionError(f"{text!r} is not allowed: {CLOCK_ONLY}")
        if seat != TABLE and seat not in self.to_act():
            waiting = ", ".join(f"seat {s}" for s in self.to_act())
            return IllegalActionError(f"it is not seat {seat}'s turn (waiting for {waiting})")
        reason = self._explain_illegal(seat, action)
        if reason:
            return IllegalActionError(f"{text!r} is not allowed: {reason}")
        legal = ", ".join(self.game.action_to_text(a) for a in self.legal_actions(seat))
        return IllegalActionError(f"{text!r} is not allowed now (allowed: {legal})")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.game.name} v{self.version} to_act={self.to_act()}>"
