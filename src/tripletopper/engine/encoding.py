"""Fixed action spaces and feature layouts: what learning agents see of a game.

Each game's ``encoding`` module (``games/<game>/encoding.py``) defines an
:class:`Encoding`: an index ``0 .. actions-1`` for every action a player of that
game can play at its largest player count and options, and a :class:`Layout` of
named blocks into which one seat's *observation* (``State.observation(seat)``,
nothing else) is written as numbers.  Pure Python with no NumPy: the research
APIs in ``tripletopper.rl`` turn the sparse :class:`Features` into tensors and
masks.  ``docs/research.md`` tables every layout.

:meth:`Encoding.encode_into` is the fast path the environments use: a game may
write the same numbers straight from its state, skipping the observation dict.  It
must read only what the observation exposes; ``tests/test_contract.py`` proves it
writes exactly what :meth:`Encoding.write` writes from ``observation(seat)``, at
every step and every seat of random games, and that it is unchanged by ``resample``.

Seats in a layout are *relative*: slot 0 is the observing seat, slot 1 the next
seat in seat order, and so on; slots past the table's player count stay 0.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from tripletopper.cards.deck import Deck
from tripletopper.engine.actions import Action, ActionPattern
from tripletopper.engine.game import Game, State

Observation = Mapping[str, Any]


@dataclass(frozen=True)
class Block:
    """A named run of ``size`` numbers in a layout, and what they mean."""

    name: str
    size: int
    meaning: str


class Layout:
    """Blocks laid end to end: ``offset[name]`` is where a block starts."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = tuple(blocks)
        self.offset: dict[str, int] = {}
        at = 0
        for block in self.blocks:
            self.offset[block.name] = at
            at += block.size
        self.size = at

    def rows(self) -> list[tuple[str, int, int, str]]:
        """``(name, start, stop, meaning)`` per block: the documentation table."""
        return [
            (b.name, self.offset[b.name], self.offset[b.name] + b.size, b.meaning)
            for b in self.blocks
        ]


class Features:
    """The non-zero numbers of one observation: ``index[i]`` holds ``value[i]`` (a bool
    counts as 0 or 1).

    Helpers write seats relative to ``me`` (see the module docstring) and cards as
    one-hot indices of their deck.
    """

    __slots__ = ("index", "me", "offset", "players", "value")

    def __init__(self, layout: Layout, me: int, players: int) -> None:
        self.offset = layout.offset
        self.me = me
        self.players = players
        self.index: list[int] = []
        self.value: list[float | bool] = []

    def put(self, block: str, at: int = 0, value: float = 1.0) -> None:
        if value:
            self.index.append(self.offset[block] + at)
            self.value.append(value)

    def rel(self, seat: int) -> int:
        """The relative slot of an absolute seat."""
        return (seat - self.me) % self.players

    def seat(self, block: str, seat: int | None) -> None:
        """Mark ``seat`` (relative) in a per-seat block; ``None`` marks nothing."""
        if seat is not None:
            self.index.append(self.offset[block] + (seat - self.me) % self.players)
            self.value.append(1.0)

    def ones(self, block: str, indices: Iterable[int]) -> None:
        """Set 1 at these indices of a block."""
        base = self.offset[block]
        found = [base + i for i in indices]
        self.index += found
        self.value += [1.0] * len(found)

    def seats(self, block: str, seats: Iterable[int]) -> None:
        base, me, players = self.offset[block], self.me, self.players
        found = [base + (seat - me) % players for seat in seats]
        self.index += found
        self.value += [1.0] * len(found)

    def per_seat(self, block: str, values: Sequence[float], scale: float = 1.0) -> None:
        """One number per seat (``values`` in absolute seat order), divided by ``scale``."""
        base, me, players = self.offset[block], self.me, self.players
        for seat, value in enumerate(values):
            if value:
                self.index.append(base + (seat - me) % players)
                self.value.append(value / scale)

    def cards(
        self, block: str, names: Iterable[str | None], lookup: Mapping[str, int], at: int = 0
    ) -> None:
        base = self.offset[block] + at
        found = [base + lookup[name] for name in names if name is not None]
        self.index += found
        self.value += [1.0] * len(found)

    def choice(self, block: str, value: object, choices: Sequence[object]) -> None:
        if value in choices:
            self.put(block, choices.index(value))


def card_lookup(deck: Deck) -> dict[str, int]:
    """A deck's short names to card ints (observations use the short form)."""
    return {name: card for card, name in enumerate(deck.names)}


class Encoding(ABC):
    """A game's fixed action space and observation layout (see the module docstring).

    ``relative`` says whether an index means a different action depending on the
    observation (Toe's cards are named by their place in the hand); the others
    ignore the ``obs`` argument, which may then be ``None``.
    """

    actions: ClassVar[int]
    """The size of the action space."""
    layout: ClassVar[Layout]
    relative: ClassVar[bool] = False

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def action_to_index(self, action: Action, obs: Observation | None) -> int:
        """The index of a player's action; ``ValueError`` for one outside the space
        (the table's and the clock's actions)."""

    @abstractmethod
    def index_to_action(self, index: int, obs: Observation | None) -> Action:
        """The action an index stands for (legal or not); ``ValueError`` for an index
        that names none here."""

    @abstractmethod
    def write(self, obs: Observation, out: Features) -> None:
        """Write the features of one seat's observation."""

    def features(self, obs: Observation) -> Features:
        """The observation (of a seat, never the spectator's) as features."""
        out = Features(self.layout, obs["seat"], obs.get("players", self.game.players))
        self.write(obs, out)
        return out

    def encode_into(self, state: State, seat: int, out: MutableSequence[float]) -> None:
        """Write ``seat``'s features into ``out`` (``layout.size`` zeros).

        Here through ``state.observation(seat)``; a game overrides it with a fast path
        that reads its state directly and writes exactly the same numbers."""
        features = self.features(state.observation(seat))
        for index, value in zip(features.index, features.value, strict=True):
            out[index] = value

    def context(self, state: State, seat: int) -> Observation:
        """What a ``relative`` space's indices depend on: ``seat``'s observation, or the
        part of it that the game's index methods read."""
        return state.observation(seat)

    def pattern_indices(self, pattern: ActionPattern, obs: Observation | None) -> list[int]:
        """The indices of every action of a pattern (games override the costly ones)."""
        return [self.action_to_index(action, obs) for action in pattern.actions()]

    def _outside(self, what: object) -> ValueError:
        return ValueError(f"{what!r} is not in {self.game.name}'s action space")
