"""Saved games: a record replays to the identical game.

A record is the game's name, player count and options, the seed, any stacked
decks and setup values, and every applied ``(seat, action)`` in wire form.  That
is the whole game: :meth:`Record.replay` rebuilds the state by applying the
actions through the engine, checking each one.

A record is *all-seeing*: with the seed it determines every hidden card.  It is
for the game's owner (the server's storage, the player who saved a terminal
game); what is shown to a seat is built from that seat's observations while
stepping through it (:meth:`Record.steps`).

>>> from tripletopper import make_game
>>> state = make_game("thirty-two", players=3).new_state(seed=4)
>>> _ = state.apply(("draw",))
>>> record = Record.from_state(state)
>>> record.replay().dump() == state.dump()
True
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tripletopper.engine import CLOCK, TABLE, Action, Event, Game, State
from tripletopper.errors import InvalidRecordError, TripleTopperError
from tripletopper.question_banks import make_game

FORMAT = "tripletopper-record"
VERSION = 1


@dataclass
class Record:
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    actions: list[tuple[int, dict[str, Any]]]
    decks: list[list[str]] | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    names: list[str] | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_state(cls, state: State, names: Sequence[str] | None = None, **meta: Any) -> Record:
        game = state.game
        return cls(
            game=game.name,
            players=game.players,
            options=dict(game.options),
            seed=state.origin["seed"],
            decks=state.origin.get("decks"),
            setup=dict(state.origin.get("setup") or {}),
            actions=[(seat, game.action_to_wire(action)) for seat, action in state.history],
            names=list(names) if names else None,
            meta=dict(meta),
        )

    def make_game(self) -> Game:
        return make_game(self.game, self.players, **self.options)

    def new_state(self) -> State:
        return self.make_game().new_state(self.seed, decks=self.decks, **self.setup)

    def steps(self) -> Iterator[tuple[State, int, Action, list[Event]]]:
        """Replay, yielding ``(state after, seat, action, events)`` for every action.

        The same state object is yielded each time (it is mutated as play goes on).
        """
        where = "at the start"
        try:
            state = self.new_state()
            game = state.game
            for number, (seat, wire) in enumerate(self.actions, 1):
                where = f"at action {number}"
                action = game.action_from_wire(wire)
                events = state.apply(action, seat)
                yield state, seat, action, events
        except TripleTopperError as exc:
            raise InvalidRecordError(f"the record does not replay ({where}): {exc}") from None

    def replay(self) -> State:
        """The state after every recorded action."""
        final = None
        for state, _seat, _action, _events in self.steps():
            final = state
        return final if final is not None else self.new_state()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
        }
        if self.decks:
            out["decks"] = self.decks
        if self.setup:
            out["setup"] = self.setup
        if self.names:
            out["names"] = self.names
        if self.meta:
            out["meta"] = self.meta
        out["actions"] = [[seat, wire] for seat, wire in self.actions]
        return out

    @classmethod
    def from_json(cls, data: object) -> Record:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise InvalidRecordError("not a tripletopper game record")
        if data.get("version") != VERSION:
            raise InvalidRecordError(f"unsupported record version {data.get('version')!r}")
        try:
            actions = [_current_seat(int(seat), dict(wire)) for seat, wire in data["actions"]]
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                options=dict(data.get("options") or {}),
                seed=int(data["seed"]),
                actions=actions,
                decks=data.get("decks"),
                setup=dict(data.get("setup") or {}),
                names=data.get("names"),
                meta=dict(data.get("meta") or {}),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidRecordError(f"malformed record: {exc}") from None

    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def _current_seat(seat: int, wire: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    """A recorded ``(seat, wire)`` with the seat numbers of today's engine.

    Records saved before the clock had its own seat (``CLOCK``) show its
    timeouts as played by ``TABLE`` (-1), which may no longer play them.
    """
    if seat == TABLE and wire.get("type") == "timeout":
        return CLOCK, wire
    return seat, wire


def load_records(path: str | Path) -> list[Record]:
    """Read a saved game (JSON) or many (JSON lines, as ``simulate --save`` writes)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise InvalidRecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        stripped = text.lstrip()
        if stripped.startswith("{") and "\n{" not in stripped.strip():
            return [Record.from_json(json.loads(text))]
        return [Record.from_json(json.loads(line)) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        raise InvalidRecordError(f"{path} is not valid JSON: {exc}") from None
