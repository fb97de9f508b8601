"""Observation tensors, legal-action masks and action indices as NumPy arrays.

An :class:`Encoder` wraps a game's :class:`~tripletopper.engine.encoding.Encoding`
(``games/<game>/encoding.py``): the tensor of a seat is built from
``state.observation(seat)`` alone (or by the game's fast path, which tests prove
writes the same numbers), and the mask from ``state.legal_summary(seat)`` (Memo
Match's claims never listed one by one).

>>> from tripletopper import make_game
>>> enc = Encoder(make_game("thirty-one", 3))
>>> state = enc.game.new_state(7)
>>> seat = state.to_act()[0]
>>> enc.observation(state, seat).shape, int(enc.mask(state, seat).sum())
((716,), 3)
"""

from __future__ import annotations

from array import array
from typing import Any

import numpy as np
import numpy.typing as npt

from tripletopper.engine import Action, ActionPattern, Game, State
from tripletopper.engine.encoding import Encoding, Layout, Observation
from tripletopper.games.memo_match.encoding import MemoMatchEncoding
from tripletopper.games.thirty_one.encoding import ThirtyOneEncoding
from tripletopper.games.thirty_two.encoding import ThirtyTwoEncoding
from tripletopper.games.three_up_three_down.encoding import ThreeUpThreeDownEncoding
from tripletopper.games.toe.encoding import ToeEncoding

ENCODINGS: dict[str, type[Encoding]] = {
    "thirty-two": ThirtyTwoEncoding,
    "thirty-one": ThirtyOneEncoding,
    "three-up-three-down": ThreeUpThreeDownEncoding,
    "toe": ToeEncoding,
    "memo-match": MemoMatchEncoding,
}

FloatArray = npt.NDArray[np.float32]
MaskArray = npt.NDArray[np.int8]


class Encoder:
    """A game's tensors and masks (one per game; it keeps no state of its own)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.spec: Encoding = ENCODINGS[game.name](game)
        self.layout: Layout = self.spec.layout
        self.size: int = self.layout.size
        self.actions: int = self.spec.actions
        self._index: dict[Action, int] = {}
        """Indices of actions met before (absolute spaces only: an index never changes)."""
        self._zeros = array("f", bytes(4 * self.size))

    def tensor(self, obs: dict[str, Any]) -> FloatArray:
        """The tensor of one seat's observation, built from the observation (the plain
        path, which the fast path of :meth:`observation` must match)."""
        features = self.spec.features(obs)
        out = np.zeros(self.size, dtype=np.float32)
        out[features.index] = features.value
        return out

    def observation(self, state: State, seat: int) -> FloatArray:
        """The tensor of ``seat`` now (the game's fast path, ``Encoding.encode_into``)."""
        out = self._zeros[:]
        self.spec.encode_into(state, seat, out)
        return np.frombuffer(out, np.float32)

    def _context(self, state: State, seat: int) -> Observation | None:
        return self.spec.context(state, seat) if self.spec.relative else None

    def encode(self, state: State, seat: int) -> tuple[FloatArray, MaskArray]:
        """The tensor and the mask of ``seat``."""
        return self.observation(state, seat), self.mask(state, seat)

    def legal_indices(self, state: State, seat: int) -> list[int]:
        """The indices of ``seat``'s legal actions (in ``legal_summary`` order)."""
        spec = self.spec
        summary = state.legal_summary(seat)
        known = self._index
        if not spec.relative:
            try:  # the common case: plain actions, all met before
                return [known[entry] for entry in summary]  # type: ignore[index]
            except (KeyError, TypeError):  # a pattern, or an action met for the first time
                pass
        obs = spec.context(state, seat) if spec.relative else None
        out: list[int] = []
        for entry in summary:
            if isinstance(entry, ActionPattern):
                out.extend(spec.pattern_indices(entry, obs))
            elif spec.relative:
                out.append(spec.action_to_index(entry, obs))
            else:
                index = known.get(entry)
                if index is None:
                    index = known[entry] = spec.action_to_index(entry, None)
                out.append(index)
        return out

    def mask(self, state: State, seat: int) -> MaskArray:
        """1 at the index of every legal action of ``seat``, else 0 (int8)."""
        indices = self.legal_indices(state, seat)
        if len(indices) > 32:  # Memo Match's claims: one NumPy assignment
            mask = np.zeros(self.actions, dtype=np.int8)
            mask[indices] = 1
            return mask
        out = bytearray(self.actions)
        for index in indices:
            out[index] = 1
        return np.frombuffer(out, np.int8)

    def action_to_index(self, action: Action, state: State, seat: int) -> int:
        return self.spec.action_to_index(action, self._context(state, seat))

    def index_to_action(self, index: int, state: State, seat: int) -> Action:
        """The action an index stands for at ``seat`` now; ``ValueError`` if none."""
        if isinstance(index, np.integer):
            index = int(index)
        if not isinstance(index, int) or isinstance(index, bool):
            raise ValueError(f"an action index must be a whole number, not {index!r}")
        return self.spec.index_to_action(index, self._context(state, seat))


def layout_markdown(name: str) -> str:
    """The layout table of a game, as ``docs/research.md`` shows it."""
    spec = ENCODINGS[name]
    lines = [
        f"{name}: {spec.layout.size} numbers, {spec.actions} actions",
        "",
        "| block | slice | meaning |",
        "|---|---|---|",
    ]
    lines += [
        f"| `{b}` | {start}:{stop} | {meaning} |" for b, start, stop, meaning in spec.layout.rows()
    ]
    return "\n".join(lines)
