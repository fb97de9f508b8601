"""The research tensors, masks and action indices of the batched engines, as arrays.

:func:`batch_encoder` gives, for the game of a :class:`~tripletopper.batched.ThirtyOneBatch`
or :class:`~tripletopper.batched.ToeBatch`, an encoder whose ``encode(batch, seat)`` is the
``N x size`` float32 array of :class:`~tripletopper.rl.encoding.Encoder`'s tensors of
``batch.observation(i, seat)`` for every game ``i``, built straight from the arrays and
only from what that seat may see (the fields its observation holds).  ``mask(batch,
seat)`` is the learner's legal mask in the research action space, and ``to_rl`` /
``from_rl`` translate action indices between the batch's space and that one, for the
seat to act in each game (tests/rl/test_batched.py proves all of it against the scalar
encoder, every step of random games, every seat).

- Thirty-One: the same 110 actions in another order (the batch keeps the discards
  without and with ``declare`` in two runs of 52; the research space interleaves them):
  a fixed permutation.
- Toe: the batch names a card by its place in the hand *sorted by card* and has only the
  four discards of a three-card hand (265 indices); the research space names it by its
  place in the hand as the observation lists it (278 indices, with the Quiz Show's).  The
  translation reads the hand of the seat to act in each game.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, Protocol

import numpy as np

from tripletopper.batched import ThirtyOneBatch, ToeBatch
from tripletopper.batched import thirty_one as b31
from tripletopper.batched import toe as btoe
from tripletopper.batched.core import Array
from tripletopper.cards.triple_topper import COLOR, NUMBER, SHAPE
from tripletopper.engine import Game
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_one.rules import CHECK, DISCARD_PHASE, MAX_PLAYERS, OVER, TURN
from tripletopper.games.thirty_one.scoring import DEAD_31, START_LIVES, THIRTY_ONE
from tripletopper.games.toe import Toe
from tripletopper.games.toe import encoding as rl_toe
from tripletopper.games.toe.board import CELLS, FITS
from tripletopper.games.toe.rules import OVER as TOE_OVER
from tripletopper.games.toe.rules import PLAY as TOE_PLAY
from tripletopper.games.toe.rules import TURN as TOE_TURN
from tripletopper.rl.encoding import Encoder

Batch = ThirtyOneBatch | ToeBatch


class BatchEncoder(Protocol):
    """What :func:`batch_encoder` gives, for either game's batches."""

    size: int
    actions: int

    def encode(self, batch: Any, seat: int, games: Array | None = None) -> Array: ...
    def mask(self, batch: Any, seat: int) -> Array: ...
    def to_rl(self, batch: Any, actions: Array, games: Array | None = None) -> Array: ...
    def from_rl(self, batch: Any, indices: Array, games: Array | None = None) -> Array: ...


def _games(batch: Batch, games: Array | None) -> Array:
    return np.arange(batch.n) if games is None else np.asarray(games, dtype=np.int64)


class _BatchEncoder:
    """What both games' encoders share: the scalar encoder they must agree with."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder
        self.size = encoder.size
        self.actions = encoder.actions
        self.at = encoder.layout.offset

    def _zeros(self, n: int) -> tuple[Array, Array, Array]:
        """The output (n x size), its flat view and each row's flat start."""
        out = np.zeros((n, self.size), dtype=np.float32)
        return out, out.reshape(-1), np.arange(n) * self.size


# --- Thirty-One ---------------------------------------------------------------------------

_B2R_31 = np.empty(b31.ACTIONS + 1, dtype=np.int64)
_B2R_31[: b31.DISCARD0] = np.arange(b31.DISCARD0)
_B2R_31[b31.DISCARD0 : b31.DECLARE0] = b31.DISCARD0 + 2 * np.arange(52)
_B2R_31[b31.DECLARE0 : b31.ACTIONS] = b31.DISCARD0 + 1 + 2 * np.arange(52)
_B2R_31[b31.ACTIONS] = -1  # padding (candidates) and -1 map to -1
_R2B_31 = np.empty(b31.ACTIONS, dtype=np.int64)
_R2B_31[_B2R_31[: b31.ACTIONS]] = np.arange(b31.ACTIONS)


class ThirtyOneBatchEncoder(_BatchEncoder):
    """Thirty-One's research tensors, masks and indices for a :class:`ThirtyOneBatch`."""

    def encode(self, batch: ThirtyOneBatch, seat: int, games: Array | None = None) -> Array:
        """The tensor of ``observation(i, seat)`` for each game ``i`` (of ``games``)."""
        g = _games(batch, games)
        n, p, at = len(g), batch.players, self.at
        out, flat, base = self._zeros(n)
        rel = (np.arange(p) - seat) % p  # each absolute seat's relative slot
        phase = batch.phase[g]
        cards = batch.hands[g].astype(np.int64)  # n x p x 4, -1 pads
        held = cards >= 0
        show = batch.alive[g, seat] & (phase != OVER)  # the observation has "hand"
        mine = held[:, seat] & show[:, None]
        flat[(base[:, None] + at["hand"] + cards[:, seat])[mine]] = 1
        public = np.take_along_axis(batch.public[g], np.maximum(cards, 0).reshape(n, -1), 1)
        known = held & public.reshape(cards.shape)
        col = at["known"] + 52 * rel[None, :, None] + cards
        flat[(base[:, None, None] + col)[known]] = 1
        size = batch.pile_size[g]
        top = batch.pile[g, np.maximum(size - 1, 0)].astype(np.int64)
        flat[(base + at["discard_top"] + top)[size > 0]] = 1
        taken = batch.taken[g]
        flat[(base + at["taken"] + taken)[taken >= 0]] = 1
        flat[base + at["phase"] + phase] = 1
        turning = (phase == TURN) | (phase == DISCARD_PHASE)
        flat[(base + at["turn"] + rel[batch.turn[g]])[turning]] = 1
        flat[base + at["dealer"] + rel[batch.dealer[g]]] = 1
        knocker = batch.knocker[g]
        flat[(base + at["knocker"] + rel[knocker])[knocker >= 0]] = 1
        lives = batch.lives[g]
        out[:, at["in_hand"] + rel] = batch.alive[g]
        out[:, at["out"] + rel] = lives == 0
        out[:, at["hand_sizes"] + rel] = batch.hand_len[g] / 4
        out[:, at["piles"]] = batch.stock.size[g] / 52
        out[:, at["piles"] + 1] = size / 52
        out[:, at["lives"] + rel] = lives / START_LIVES
        out[:, at["declared"] + rel] = batch.declared[g]
        out[:, at["circling"] + rel] = lives == 1
        three = np.flatnonzero(show & (batch.hand_len[g, seat] == 3))
        value = b31.value2(batch.hands[g[three], seat], batch.trips) / 2
        declarable = (phase[three] == CHECK) & batch.pending[g[three], seat]
        counts = np.where((value == THIRTY_ONE) & ~declarable, DEAD_31, value)
        out[three, at["value"]] = value / THIRTY_ONE
        out[three, at["value"] + 1] = counts / THIRTY_ONE
        kitty = np.minimum(3, START_LIVES - lives).sum(axis=1)
        out[:, at["kitty"]] = kitty / (MAX_PLAYERS * START_LIVES)
        out[:, at["options"]] = batch.trips
        out[:, at["options"] + 1] = batch.manual
        return out

    def mask(self, batch: ThirtyOneBatch, seat: int) -> Array:
        """``N x actions`` int8: 1 at the research index of each legal action of ``seat``
        (all 0 in a game where ``seat`` is not to act)."""
        cand = batch.candidates()  # N x 7 batch indices, padded with ACTIONS
        cand[batch.to_act() != seat] = b31.ACTIONS
        out = np.zeros((batch.n, self.actions + 1), dtype=np.int8)
        out[np.arange(batch.n)[:, None], _B2R_31[cand]] = 1  # padding lands on the last
        return out[:, : self.actions]

    def to_rl(self, batch: ThirtyOneBatch, actions: Array, games: Array | None = None) -> Array:
        """The research index of each batch index (-1 stays -1; the same in every game)."""
        return _B2R_31[np.where(np.asarray(actions) < 0, b31.ACTIONS, actions)]

    def from_rl(self, batch: ThirtyOneBatch, indices: Array, games: Array | None = None) -> Array:
        """The batch index of each research index (-1 for one outside the space)."""
        indices = np.asarray(indices, dtype=np.int64)
        inside = (indices >= 0) & (indices < self.actions)
        return np.where(inside, _R2B_31[np.where(inside, indices, 0)], -1)


# --- Toe ------------------------------------------------------------------------------------

_COLOR, _SHAPE, _NUMBER = (np.array(v, dtype=np.int64) for v in (COLOR, SHAPE, NUMBER))
_FITS = np.zeros((len(FITS), CELLS), dtype=np.float32)
for _card, _cells in enumerate(FITS):
    _FITS[_card, list(_cells)] = 1
_TARGETS = CELLS + 1
_CELL = np.eye(3, dtype=np.float32)[[[0, 1, 2], [0, 2, 1]]]
"""Per seat, a board value + 1 (free, seat 0's, seat 1's mark) as the cell's three numbers:
free, own mark, opponent's mark."""


def _perm_code(rank: Array) -> Array:
    """A code 0-26 of the places (ranks) of a three-card hand's slots."""
    code: Array = rank[:, 0] * 9 + rank[:, 1] * 3 + rank[:, 2]
    return code


def _discard_tables() -> tuple[Array, Array]:
    """Per hand order (a code of its slots' ranks): batch index -> research index (for 0-4),
    and research index -> batch index (for 0-10; -1 where it names a fourth slot)."""
    to_rl = np.full((27, btoe.PLAY0), -1, dtype=np.int64)
    from_rl = np.full((27, rl_toe.PLAY_AT), -1, dtype=np.int64)
    for rank in permutations(range(3)):
        code = int(_perm_code(np.array([rank]))[0])
        slot_of = {place: slot for slot, place in enumerate(rank)}
        to_rl[code, btoe.DRAW] = from_rl[code, 0] = 0
        for k, places in enumerate(btoe.DISCARDS):
            slots = tuple(sorted(slot_of[p] for p in places))
            index = rl_toe.DISCARD_AT + rl_toe.DISCARDS.index(slots)
            to_rl[code, 1 + k] = index
            from_rl[code, index] = 1 + k
    return to_rl, from_rl


_DISCARD_TO_RL, _DISCARD_FROM_RL = _discard_tables()


class ToeBatchEncoder(_BatchEncoder):
    """Toe's research tensors, masks and indices for a :class:`ToeBatch`."""

    def encode(self, batch: ToeBatch, seat: int, games: Array | None = None) -> Array:
        """The tensor of ``observation(i, seat)`` for each game ``i`` (of ``games``)."""
        g = _games(batch, games)
        n, at = len(g), self.at
        out, flat, base = self._zeros(n)
        rel = (np.arange(2) - seat) % 2
        board = batch.board[g].astype(np.intp) + 1  # 0 free, else 1 + the seat that marked it
        cells = np.take(_CELL[seat], board, axis=0)  # (np.take: faster than indexing here)
        out[:, at["board"] : at["board"] + 3 * CELLS] = cells.reshape(n, -1)
        phase = batch.phase[g]
        live = phase != TOE_OVER  # the observation has "hand" and "my_discards"
        hand = batch.hands[g, seat].astype(np.int64)
        for slot in range(4):
            ok = np.flatnonzero(live & (hand[:, slot] >= 0))
            card = hand[ok, slot]
            first = base[ok] + at["hand"] + 16 * slot
            flat[first] = 1
            flat[first + 1 + _COLOR[card]] = 1
            flat[first + 6 + _SHAPE[card]] = 1
            flat[first + 11 + _NUMBER[card]] = 1
            start = at["fits"] + CELLS * slot
            out[ok, start : start + CELLS] = np.take(_FITS, card, axis=0)
        played = batch.played[g].astype(np.int64)
        flat[(base[:, None] + at["played"] + played)[played >= 0]] = 1
        mine = batch.discards[g, seat].astype(np.int64)
        flat[(base[:, None] + at["my_discards"] + mine)[(mine >= 0) & live[:, None]]] = 1
        last = batch.last[g, 0]
        flat[(base + at["last"] + last)[last >= 0]] = 1
        flat[base + at["phase"] + phase] = 1
        turn = batch.turn[g]
        flat[(base + at["turn"] + (turn - seat) % 2)[turn >= 0]] = 1
        out[:, at["is_x"]] = batch.x[g] == seat
        out[:, at["marks"] + rel] = batch.marks[g] / 32
        out[:, at["sizes"] + rel] = batch.hand_len[g] / 4
        out[:, at["sizes"] + 2 + rel] = batch.discard_len[g] / rl_toe.CARDS
        out[:, at["scalars"]] = batch.stock.size[g] / rl_toe.CARDS
        out[:, at["scalars"] + 1] = batch.turns[g] / batch.max_turns
        out[:, at["scalars"] + 2] = batch.wasted[g] / 10
        out[:, at["scalars"] + 3] = batch.epoch[g] / 4
        return out

    @staticmethod
    def _ranks(batch: ToeBatch, g: Array) -> Array:
        """Each hand slot's place in the hand sorted by card (of the seat to act)."""
        hand = batch.hands[g, np.maximum(batch.turn[g], 0)].astype(np.int64)
        hand = np.where(hand < 0, 1 << 20, hand)
        ranks: Array = (hand[:, None, :] < hand[:, :, None]).sum(axis=2)
        return ranks

    def mask(self, batch: ToeBatch, seat: int) -> Array:
        """``N x actions`` int8: 1 at the research index of each legal action of ``seat``
        (all 0 in a game where ``seat`` is not to act)."""
        out = np.zeros((batch.n, self.actions), dtype=np.int8)
        acting = batch.to_act() == seat
        turn = np.flatnonzero(acting & (batch.phase == TOE_TURN))
        if len(turn):
            codes = _perm_code(self._ranks(batch, turn))
            out[turn[:, None], _DISCARD_TO_RL[codes]] = 1  # every turn action is legal
        play = np.flatnonzero(acting & (batch.phase == TOE_PLAY))
        if len(play):
            legal = batch.legal_mask()[play, btoe.PLAY0 :].reshape(len(play), 4, _TARGETS)
            # Research slot j is the card at sorted place ranks[j].
            plays = np.take_along_axis(legal, self._ranks(batch, play)[:, :, None], 1)
            out[play, rl_toe.PLAY_AT : rl_toe.BUZZ_AT] = plays.reshape(len(play), -1)
        return out

    def to_rl(self, batch: ToeBatch, actions: Array, games: Array | None = None) -> Array:
        """The research index of each game's batch index, for the hand of the seat to act
        in that game (-1 stays -1)."""
        g = _games(batch, games)
        actions = np.asarray(actions, dtype=np.int64)
        ranks = self._ranks(batch, g)
        out = np.full(len(g), -1, dtype=np.int64)
        turn = (actions >= 0) & (actions < btoe.PLAY0)
        codes = _perm_code(np.minimum(ranks[turn], 2))
        out[turn] = _DISCARD_TO_RL[codes, actions[turn]]
        play = np.flatnonzero(actions >= btoe.PLAY0)
        place, cell = np.divmod(actions[play] - btoe.PLAY0, _TARGETS)
        slot = (ranks[play] == place[:, None]).argmax(axis=1)
        out[play] = rl_toe.PLAY_AT + _TARGETS * slot + cell
        return out

    def from_rl(self, batch: ToeBatch, indices: Array, games: Array | None = None) -> Array:
        """The batch index of each game's research index, for the hand of the seat to act
        in that game; -1 for an index the batch space has no action for (a fourth slot's
        discard, a slot past the hand, the Quiz Show's)."""
        g = _games(batch, games)
        indices = np.asarray(indices, dtype=np.int64)
        ranks = self._ranks(batch, g)
        size = batch.hand_len[g, np.maximum(batch.turn[g], 0)]
        out = np.full(len(g), -1, dtype=np.int64)
        turn = (indices >= 0) & (indices < rl_toe.PLAY_AT) & (size == 3)
        codes = _perm_code(np.minimum(ranks[turn], 2))
        out[turn] = _DISCARD_FROM_RL[codes, indices[turn]]
        out[indices == 0] = btoe.DRAW
        play = np.flatnonzero((indices >= rl_toe.PLAY_AT) & (indices < rl_toe.BUZZ_AT))
        slot, cell = np.divmod(indices[play] - rl_toe.PLAY_AT, _TARGETS)
        held = slot < size[play]
        place = ranks[play, np.minimum(slot, 3)]
        out[play] = np.where(held, btoe.PLAY0 + _TARGETS * place + cell, -1)
        return out


def batch_encoder(game: Game) -> BatchEncoder:
    """The encoder for batches of ``game`` (its tensors are those of ``Encoder(game)``)."""
    encoder = Encoder(game)
    if isinstance(game, ThirtyOne):
        return ThirtyOneBatchEncoder(encoder)
    if isinstance(game, Toe):
        return ToeBatchEncoder(encoder)
    raise ValueError(f"{game.name} has no batched engine (Thirty-One and Toe have)")
