"""The pieces both batched games share: the scalar engine's generator and stock, as arrays.

:mod:`tripletopper.engine.rng`'s 64-bit LCG and SplitMix64 finalizer in wrapping
``uint64`` NumPy arithmetic, one generator per game; and :class:`Stocks`, N copies
of :class:`tripletopper.engine.stock.Stock` (an array per game whose first ``size``
cards are the stock, the stacked top last), drawing exactly as it does: the same
seed gives the same cards as the scalar engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from tripletopper.engine.rng import _INC, _MULT
from tripletopper.engine.stock import Stock
from tripletopper.errors import IllegalActionError, MalformedActionError

Array = npt.NDArray[Any]

U64 = np.uint64
_M = U64(_MULT)
_I = U64(_INC)
_S32 = U64(32)


def mix64(value: Array) -> Array:
    """:func:`tripletopper.engine.rng.mix64` on a ``uint64`` array."""
    z = value.astype(U64) + U64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> U64(30))) * U64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> U64(27))) * U64(0x94D049BB133111EB)
    return z ^ (z >> U64(31))


def derive_seed(*parts: Array) -> Array:
    """:func:`tripletopper.engine.rng.derive_seed` of non-negative ``uint64`` arrays."""
    h = np.full(np.shape(parts[0]), 0x7A3B_1F2C, dtype=U64)
    for part in parts:
        h = mix64(h ^ np.asarray(part, dtype=U64))
    return h >> U64(1)


def seed_states(seeds: Array) -> Array:
    """The state of ``Rng(seed)`` for each seed (seeds in ``[0, 2**64)``)."""
    return mix64(np.asarray(seeds, dtype=U64))


def below(rng: Array, idx: Array, n: Array) -> Array:
    """``Rng.below(n)`` for the generators ``rng[idx]`` (advanced in place)."""
    s = rng[idx] * _M + _I
    rng[idx] = s
    return ((s >> _S32) * n.astype(U64)) >> _S32


def _jumps(most: int) -> tuple[Array, Array]:
    """``(a, b)`` with ``state * a[k] + b[k]`` the generator's state ``k`` steps on."""
    mask = (1 << 64) - 1
    a, b = [1], [0]
    for _ in range(most):
        a.append(a[-1] * _MULT & mask)
        b.append((b[-1] * _MULT + _INC) & mask)
    return np.array(a, dtype=U64), np.array(b, dtype=U64)


_JUMP_MULT, _JUMP_ADD = _jumps(128)


class Stocks:
    """N face-down stocks of up to ``width`` cards, drawn like the scalar ``Stock``."""

    def __init__(self, n: int, width: int) -> None:
        self.cards = np.zeros((n, width), dtype=np.int8)
        self.size = np.zeros(n, dtype=np.int64)
        self.length = np.zeros(n, dtype=np.int64)
        """How many cards the array holds (the scalar ``len(stock.cards)``)."""
        self.ordered = np.zeros(n, dtype=np.int64)
        self.stacked = False
        """Whether some game has stacked cards left on top (else draws skip that case)."""

    def fill(self, idx: Array, pool: Array, count: Array, stacks: Stacks | None) -> None:
        """``Stock.fill(pool[:count], next stacked order)`` for the games ``idx``.

        ``pool`` holds each game's cards in order (``len(idx)`` rows, padded).  Games
        with a stacked order left take it: the cards not in it keep their order, the
        stacked ones follow, top card last.
        """
        width = pool.shape[1]
        key = np.where(np.arange(width) < count[:, None], 0, 2 * width + 1)
        ordered = np.zeros(len(idx), dtype=np.int64)
        if stacks is not None:
            top, top_len = stacks.pop(idx)
            if top is not None:
                # Each card's place in its stacked order (from the top), or -1.
                place = np.full((len(idx), stacks.deck), -1, dtype=np.int64)
                rows = np.repeat(np.arange(len(idx)), top.shape[1])
                valid = (np.arange(top.shape[1]) < top_len[:, None]).ravel()
                place[rows[valid], top.ravel()[valid]] = np.tile(np.arange(top.shape[1]), len(idx))[
                    valid
                ]
                cards_place = np.take_along_axis(place, pool.astype(np.int64) % stacks.deck, 1)
                in_top = (cards_place >= 0) & (key == 0)
                ordered = in_top.sum(axis=1)
                # Stacked cards go last, the top card (place 0) at the very end.
                key = np.where(in_top, width + (width - cards_place), key)
        order = np.argsort(key, axis=1, kind="stable")
        cards = self.cards
        cards[idx, :width] = np.take_along_axis(pool, order, 1)
        self.size[idx] = count
        self.length[idx] = count
        self.ordered[idx] = ordered
        self.stacked = bool(self.ordered.any())

    def draw(self, rng: Array, idx: Array) -> Array:
        """``Stock.draw(rng)`` for the games ``idx`` (each with a card left)."""
        n = self.size[idx] - 1
        self.size[idx] = n
        s = rng[idx]
        moved = s * _M + _I
        i = (((moved >> _S32) * (n + 1).astype(U64)) >> _S32).astype(np.int64)
        if self.stacked:  # some game still has stacked cards on top: those come first
            stacked = self.ordered[idx] > 0
            self.ordered[idx] -= stacked
            moved = np.where(stacked, s, moved)
            i = np.where(stacked, n, i)
            self.stacked = bool(self.ordered.any())
        rng[idx] = moved
        # Flat indices: much faster than two-dimensional fancy indexing.
        flat = self.cards.reshape(-1)
        base = idx * self.cards.shape[1]
        at, last = base + i, base + n
        card = flat[at]
        flat[at] = flat[last]
        flat[last] = card
        return card

    def deal(self, rng: Array, idx: Array, count: int) -> Array:
        """``count`` draws in a row for each game of ``idx`` (each with that many cards
        left): ``len(idx) x count`` cards, the first drawn first."""
        if self.stacked:  # stacked cards on top: one draw after the other
            return np.column_stack([self.draw(rng, idx) for _ in range(count)])
        size = self.size[idx]
        # Every generator state of the deal at once (the LCG's jumps), then the swaps.
        states = rng[idx][:, None] * _JUMP_MULT[1 : count + 1] + _JUMP_ADD[1 : count + 1]
        left = (size[:, None] - np.arange(count)).astype(U64)
        places = (((states >> _S32) * left) >> _S32).astype(np.int64)
        flat = self.cards.reshape(-1)
        base = idx * self.cards.shape[1]
        out = np.empty((len(idx), count), dtype=self.cards.dtype)
        for k in range(count):
            at, last = base + places[:, k], base + size - 1 - k
            card = flat[at]
            flat[at] = flat[last]
            flat[last] = card
            out[:, k] = card
        self.size[idx] = size - count
        rng[idx] = states[:, -1]
        return out

    def array(self, i: int) -> list[int]:
        return [int(c) for c in self.cards[i, : self.length[i]]]

    def view(self, i: int) -> Stock:
        """Game ``i``'s stock as a scalar ``Stock`` (for the scalar views)."""
        stock = Stock()
        stock.cards = self.array(i)
        stock.size = int(self.size[i])
        stock.ordered = int(self.ordered[i])
        return stock

    def nbytes(self) -> int:
        return self.cards.nbytes + self.size.nbytes + self.length.nbytes + self.ordered.nbytes


class Stacks:
    """Each game's stacked deck orders (``new_state(decks=...)``), taken one per new stock."""

    def __init__(self, n: int, deck: int, decks: Sequence[Sequence[Sequence[int]]] | None) -> None:
        self.deck = deck
        most = max((len(d) for d in decks), default=0) if decks else 0
        longest = max((len(o) for d in decks for o in d), default=0) if decks else 0
        self.cards = np.zeros((n, most, max(longest, 1)), dtype=np.int64)
        self.length = np.zeros((n, most), dtype=np.int64)
        self.count = np.zeros(n, dtype=np.int64)
        self.at = np.zeros(n, dtype=np.int64)
        if decks:
            for i, orders in enumerate(decks):
                self.set(i, orders)

    def set(self, i: int, orders: Sequence[Sequence[int]]) -> None:
        self.count[i] = len(orders)
        self.at[i] = 0
        for k, order in enumerate(orders):
            self.cards[i, k, : len(order)] = order
            self.length[i, k] = len(order)

    def clear(self, idx: Array) -> None:
        self.count[idx] = 0
        self.at[idx] = 0

    def pop(self, idx: Array) -> tuple[Array | None, Array]:
        """The next stacked order of each game in ``idx`` (length 0: none left)."""
        if not self.cards.shape[1]:
            return None, np.zeros(len(idx), dtype=np.int64)
        left = self.at[idx] < self.count[idx]
        if not left.any():
            return None, np.zeros(len(idx), dtype=np.int64)
        k = np.minimum(self.at[idx], self.cards.shape[1] - 1)
        top = self.cards[idx, k]
        length = np.where(left, self.length[idx, k], 0)
        self.at[idx] += left
        return top, length

    def remaining(self, i: int) -> list[list[int]]:
        return [
            [int(c) for c in self.cards[i, k, : self.length[i, k]]]
            for k in range(int(self.at[i]), int(self.count[i]))
        ]


class Episodes:
    """What every batch shares about its games' episodes: restarting games with their
    next seeds, the scalar seed of a game's episode, and the memory held.  A batch keeps
    ``seeds``, ``episode``, ``stacks`` and ``stock`` and starts games with ``_new_games``."""

    n: int
    seeds: Array
    episode: Array
    stacks: Stacks
    stock: Stocks
    winner: Array
    final_returns: Array

    def _new_games(self, idx: Array, states: Array) -> None:
        raise NotImplementedError

    def legal_mask(self) -> Array:
        raise NotImplementedError

    def _action_indices(self, actions: Any) -> Array:
        """``actions`` as one index per game, or :class:`MalformedActionError`."""
        out = np.asarray(actions, dtype=np.int64)
        if out.shape != (self.n,):
            raise MalformedActionError(
                f"one action index per game: {self.n} of them (got shape {out.shape})"
            )
        return out

    def _refuse(self, illegal: Array, actions: Array) -> None:
        """:class:`IllegalActionError` for the first game ``illegal`` names, if any."""
        if illegal.any():
            i = int(np.flatnonzero(illegal)[0])
            raise IllegalActionError(
                f"game {i}: action index {int(actions[i])} is not legal "
                f"(legal: {np.flatnonzero(self.legal_mask()[i]).tolist()})"
            )

    def _finish(self, ended: Array, autoreset: bool) -> None:
        """The games ``ended`` just ended: their returns (1 for the winner, 0 for the
        others and for everyone after a draw), and a new start if ``autoreset``."""
        if not ended.any():
            return
        done = np.flatnonzero(ended)
        self.final_returns[done] = 0.0
        won = done[self.winner[done] >= 0]
        self.final_returns[won, self.winner[won]] = 1.0
        if autoreset:
            self.reset(done)

    def reset(self, idx: Array) -> None:
        """Start the games ``idx`` again, each with its next seed
        ``derive_seed(seeds[i], episode[i])`` (and no stacked decks)."""
        self.episode[idx] += 1
        self.stacks.clear(idx)
        seeds = derive_seed(self.seeds[idx], self.episode[idx].astype(np.uint64))
        self._new_games(idx, seed_states(seeds))

    def episode_seed(self, i: int) -> int:
        """The scalar seed of game ``i``'s current episode."""
        if not self.episode[i]:
            return int(self.seeds[i])
        return int(derive_seed(self.seeds[i : i + 1], self.episode[i : i + 1].astype(np.uint64))[0])

    def nbytes(self) -> int:
        """Memory held by the arrays (all games)."""
        total = self.stock.nbytes()
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                total += value.nbytes
        return total
