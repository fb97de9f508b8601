"""Triple Topper Toe (without the Quiz Show) as N games at once in NumPy arrays.

:class:`ToeBatch` is to :class:`~tripletopper.games.toe.Toe` what
:class:`~tripletopper.batched.ThirtyOneBatch` is to Thirty-One: a structure of arrays
(board, per-line mark counts over the 76 lines, hands, face-down discards, played cards,
stock) stepped one action index per game, each game drawing from its own copy of the
scalar generator, so that game ``i`` is the scalar game with the same seed and actions.

Action indices (265; they name cards by their place in the hand *sorted by card*, so
:meth:`ToeBatch.action` and :meth:`ToeBatch.index` read game ``i``'s hand):

===================  =====================================================
0                    ``("draw",)``
1 - 4                discard the lowest two, the lowest and the highest, the
                     highest two, or all three cards of the hand
5 + 65*slot + cell   ``("play", card, cell)``: the ``slot``-th lowest of the four
                     cards; ``cell`` 64 is a wasted play
===================  =====================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tripletopper.batched.core import (
    Array,
    Episodes,
    Stacks,
    Stocks,
    below,
    seed_states,
)
from tripletopper.cards.deck import Card
from tripletopper.engine import Action, Results, Rng
from tripletopper.errors import InvalidOptionError
from tripletopper.games.toe.board import CELLS, FITS, LINES, LINES_THROUGH
from tripletopper.games.toe.rules import OVER, PLAY, TURN, WASTED, Toe, ToeState

DRAW = 0
DISCARDS = ((0, 1), (0, 2), (1, 2), (0, 1, 2))
"""The hand places (sorted by card) each discard index 1-4 throws."""
PLAY0 = 5
ACTIONS = PLAY0 + 4 * (CELLS + 1)
REASONS = ("", "line", "full", "max_turns")
_DECK = 125
_NO_LINE = len(LINES)

_FITS_BITS = np.array([sum(1 << c for c in cells) for cells in FITS], dtype=np.uint64)
_THROUGH = np.array([(*t, *[_NO_LINE] * (7 - len(t))) for t in LINES_THROUGH], dtype=np.int64)
_FULL = np.arange(_DECK, dtype=np.int8)
_ONE = np.uint64(1)


def _popcount(x: Array) -> Array:
    count: Array = np.bitwise_count(x).astype(np.int64)
    return count


def _nth_bit(x: Array, rank: Array) -> Array:
    """The place of the ``rank``-th set bit (from 0, lowest first) of each ``uint64``."""
    pos = np.zeros(len(x), dtype=np.uint64)
    rank = rank.copy()
    for width in (32, 16, 8, 4, 2, 1):
        low = (x >> pos) & np.uint64((1 << width) - 1)
        count = _popcount(low)
        up = rank >= count
        rank -= np.where(up, count, 0)
        pos += np.where(up, np.uint64(width), np.uint64(0))
    return pos.astype(np.int64)


class ToeBatch(Episodes):
    """N games of ``game`` (no Quiz Show); game ``i`` starts as
    ``game.new_state(seeds[i], decks=decks[i], x=x)``."""

    def __init__(
        self,
        game: Toe,
        seeds: Sequence[int] | Array,
        decks: Sequence[Sequence[Sequence[Card | str]] | None] | None = None,
        x: int | None = None,
    ) -> None:
        if game.quiz:
            raise InvalidOptionError("the batched Toe plays without the Quiz Show (quiz=false)")
        self.game = game
        self.max_turns = game.max_turns
        self.seeds = np.asarray(seeds, dtype=np.uint64).copy()
        self.n = n = len(self.seeds)
        self.setup_x = x
        parsed = [game.parse_decks(d) for d in decks] if decks else None
        self.stacks = Stacks(n, _DECK, parsed)
        self.episode = np.zeros(n, dtype=np.int64)
        self.rng = np.zeros(n, dtype=np.uint64)
        self.stock = Stocks(n, _DECK)
        self.x = np.zeros(n, dtype=np.int64)
        self.board = np.full((n, CELLS), -1, dtype=np.int8)
        self.free = np.zeros(n, dtype=np.int64)
        self.free_bits = np.zeros(n, dtype=np.uint64)
        """The free cells of each board as a bit set (cell ``c`` is bit ``c``)."""
        self.counts = np.zeros((n, 2, _NO_LINE + 1), dtype=np.int8)
        """Each player's marks in each line (the last column is a dummy line)."""
        self.marks = np.zeros((n, 2), dtype=np.int64)
        self.hands = np.full((n, 2, 4), -1, dtype=np.int8)
        self.hand_len = np.zeros((n, 2), dtype=np.int64)
        self.discards = np.full((n, 2, _DECK), -1, dtype=np.int8)
        self.discard_len = np.zeros((n, 2), dtype=np.int64)
        self.played = np.full((n, _DECK), -1, dtype=np.int8)
        self.played_len = np.zeros(n, dtype=np.int64)
        self.epoch = np.zeros(n, dtype=np.int64)
        self.drawn = np.zeros(n, dtype=np.int64)
        self.turn = np.zeros(n, dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)
        self.wasted = np.zeros(n, dtype=np.int64)
        self.phase = np.zeros(n, dtype=np.int64)
        self.last = np.zeros((n, 3), dtype=np.int64)
        """The last mark: cell, card, seat (cell -1: none yet)."""
        self.win_line = np.zeros(n, dtype=np.int64)
        self.reason = np.zeros(n, dtype=np.int64)
        self.winner = np.zeros(n, dtype=np.int64)
        self.final_returns = np.zeros((n, 2), dtype=np.float32)
        """1 for the winner of each game's last finished episode (0 each for a draw)."""
        self._new_games(np.arange(n), seed_states(self.seeds))

    # --- the batch --------------------------------------------------------------------
    def _new_games(self, idx: Array, states: Array) -> None:
        self.rng[idx] = states
        if self.setup_x is None:  # the coin flip
            self.x[idx] = below(self.rng, idx, np.full(len(idx), 2))
        else:
            self.x[idx] = self.setup_x
        self.board[idx] = -1
        self.free[idx] = CELLS
        self.free_bits[idx] = np.uint64(2**64 - 1)
        self.counts[idx] = 0
        self.marks[idx] = 0
        self.hands[idx] = -1
        self.hand_len[idx] = 0
        self.discards[idx] = -1
        self.discard_len[idx] = 0
        self.played[idx] = -1
        self.played_len[idx] = 0
        full = np.broadcast_to(_FULL, (len(idx), _DECK))
        self.stock.fill(idx, full, np.full(len(idx), _DECK), self.stacks)
        x = self.x[idx]
        cards = self.stock.deal(self.rng, idx, 6)  # one at a time, X first
        self.hands[idx, x, :3] = cards[:, 0::2]
        self.hands[idx, 1 - x, :3] = cards[:, 1::2]
        self.hand_len[idx] = 3
        self.epoch[idx] = 0
        self.drawn[idx] = -1
        self.turn[idx] = x
        self.turns[idx] = 0
        self.wasted[idx] = 0
        self.phase[idx] = TURN
        self.last[idx] = -1
        self.win_line[idx] = -1
        self.reason[idx] = 0
        self.winner[idx] = -1

    # --- legal actions ------------------------------------------------------------------
    def _sorted_hand(self, idx: Array) -> Array:
        hand = self.hands.reshape(-1, 4)[idx * 2 + self.turn[idx]]
        cols = [np.where(hand[:, j] < 0, _DECK, hand[:, j]) for j in range(4)]
        for j, k in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):  # a sorting network of 4
            cols[j], cols[k] = np.minimum(cols[j], cols[k]), np.maximum(cols[j], cols[k])
        ordered: Array = np.column_stack(cols)
        return ordered

    def _free_fits(self, idx: Array) -> tuple[Array, Array]:
        """For games in the play phase: the sorted hand and the free cells each card fits."""
        hand = self._sorted_hand(idx)
        fits = _FITS_BITS[hand] & self.free_bits[idx, None]
        return hand, fits

    def legal_mask(self) -> Array:
        """``N x ACTIONS`` booleans: the legal action indices of each game."""
        mask = np.zeros((self.n, ACTIONS), dtype=bool)
        mask[self.phase == TURN, :PLAY0] = True
        play = np.flatnonzero(self.phase == PLAY)
        if len(play):
            _hand, fits = self._free_fits(play)
            cells = ((fits[:, :, None] >> np.arange(CELLS, dtype=np.uint64)) & _ONE).astype(bool)
            plays = mask[play, PLAY0:].reshape(len(play), 4, CELLS + 1)
            plays[:, :, :CELLS] = cells
            plays[:, :, CELLS] = fits == 0
            mask[play, PLAY0:] = plays.reshape(len(play), -1)
        return mask

    def sample(self, bits: Array, *, scalar_order: bool = False) -> Array:
        """A legal action index per game: the ``(bits * count) >> 32``-th of its legal
        actions (``bits`` uniform in ``[0, 2**32)`` makes it a uniform choice); -1 when over.

        In increasing index order, or with ``scalar_order`` in the order of the scalar
        ``legal_actions()`` (the scalar ``RandomBot``'s choice for the same bits), which
        differs only for plays: the hand's cards in its own order, not sorted."""
        bits = np.asarray(bits, dtype=np.uint64)
        out = np.full(self.n, -1, dtype=np.int64)
        turn = self.phase == TURN
        out[turn] = (bits[turn] * np.uint64(PLAY0)) >> np.uint64(32)
        play = np.flatnonzero(self.phase == PLAY)
        if len(play):
            if scalar_order:
                hand = self.hands.reshape(-1, 4)[play * 2 + self.turn[play]].astype(np.int64)
                fits = _FITS_BITS[hand] & self.free_bits[play, None]
            else:
                hand, fits = self._free_fits(play)
            count = np.maximum(_popcount(fits), 1)
            before = np.cumsum(count, axis=1) - count
            k = ((bits[play] * count.sum(axis=1).astype(np.uint64)) >> np.uint64(32)).astype(
                np.int64
            )
            slot = (before <= k[:, None]).sum(axis=1) - 1
            rows = np.arange(len(play))
            chosen = fits[rows, slot]
            cell = np.where(chosen == 0, CELLS, _nth_bit(chosen, k - before[rows, slot]))
            # The card's place in the sorted hand (the index names it so).
            place = (hand < hand[rows, slot][:, None]).sum(axis=1) if scalar_order else slot
            out[play] = PLAY0 + place * (CELLS + 1) + cell
        return out

    def to_act(self) -> Array:
        """The seat to act in each game (-1 when over)."""
        seat: Array = np.where(self.phase == OVER, -1, self.turn)
        return seat

    # --- stepping -----------------------------------------------------------------------
    def step(self, actions: Array, *, autoreset: bool = False, check: bool = True) -> Array:
        """Apply one action index per game (ignored for games that are over).

        With ``check`` an illegal index raises :class:`IllegalActionError` before any game
        changes.  Returns which games ended with this step; with ``autoreset`` those start
        again at once (see :meth:`reset`), their results kept in ``final_returns``.
        """
        actions = self._action_indices(actions)
        live = self.phase != OVER
        if check:
            inside = (actions >= 0) & (actions < ACTIONS)
            legal = self.legal_mask()[np.arange(self.n), np.where(inside, actions, 0)] & inside
            self._refuse(live & ~legal, actions)
        turn = live & (self.phase == TURN)
        idx = np.flatnonzero(turn & (actions == DRAW))
        if len(idx):
            self._draw(idx)
        idx = np.flatnonzero(turn & (actions > DRAW))
        if len(idx):
            self._discard(idx, actions[idx])
        idx = np.flatnonzero(live & (self.phase == PLAY) & (actions >= PLAY0))
        if len(idx):
            self._play(idx, actions[idx] - PLAY0)
        ended: Array = live & (self.phase == OVER)
        self._finish(ended, autoreset)
        return ended

    # The hot paths index flattened arrays (one index per game): much faster than
    # NumPy's multi-dimensional fancy indexing.
    def _append(self, idx: Array, seat: Array, card: Array) -> None:
        row = idx * 2 + seat
        lengths = self.hand_len.reshape(-1)
        at = lengths[row]
        self.hands.reshape(-1)[row * 4 + at] = card
        lengths[row] = at + 1

    def _remove(self, idx: Array, seat: Array, card: Array) -> None:
        row = idx * 2 + seat
        hands = self.hands.reshape(-1, 4)
        hand = hands[row]
        at = (hand == card[:, None]).argmax(axis=1)
        for j in range(3):
            hand[:, j] = np.where(j >= at, hand[:, j + 1], hand[:, j])
        hand[:, 3] = -1
        hands[row] = hand
        self.hand_len.reshape(-1)[row] -= 1

    def _draw_card(self, idx: Array) -> Array:
        empty = self.stock.size[idx] == 0
        if empty.any():
            self._reshuffle(idx[empty])
        return self.stock.draw(self.rng, idx)

    def _reshuffle(self, idx: Array) -> None:
        """The stock ran out: the played cards and both face-down discards, in that order,
        make the new stock."""
        lp = self.played_len[idx, None]
        l0 = self.discard_len[idx, 0, None]
        l1 = self.discard_len[idx, 1, None]
        j = np.arange(_DECK)
        at = np.where(j < lp, j, np.where(j < lp + l0, _DECK + j - lp, 2 * _DECK + j - lp - l0))
        pool_all = np.concatenate(
            [self.played[idx], self.discards[idx, 0], self.discards[idx, 1]], axis=1
        )
        pool = np.take_along_axis(pool_all, np.minimum(at, 3 * _DECK - 1), 1)
        count = (lp + l0 + l1)[:, 0]
        self.epoch[idx] += 1
        self.played[idx] = -1
        self.played_len[idx] = 0
        self.discards[idx] = -1
        self.discard_len[idx] = 0
        self.stock.fill(idx, np.where(j < count[:, None], pool, 0), count, self.stacks)

    def _draw(self, idx: Array) -> None:
        card = self._draw_card(idx)
        self._append(idx, self.turn[idx], card)
        self.drawn[idx] = card
        self.phase[idx] = PLAY

    def _discard(self, idx: Array, action: Array) -> None:
        seat = self.turn[idx]
        hand = self._sorted_hand(idx)
        rows = np.arange(len(idx))
        three = action == 4
        # The discarded cards, ascending (a third column of -1 for two).
        first = np.where(action == 3, hand[:, 1], hand[:, 0])
        second = np.where(action == 1, hand[:, 1], hand[:, 2])
        second = np.where(three, hand[:, 1], second)
        third = np.where(three, hand[:, 2], -1)
        thrown = np.stack([first, second, third], axis=1)
        kept = np.where(action == 1, hand[:, 2], np.where(action == 2, hand[:, 1], hand[:, 0]))
        row = idx * 2 + seat
        left = np.full((len(idx), 4), -1, dtype=self.hands.dtype)
        left[:, 0] = np.where(three, -1, kept)
        self.hands.reshape(-1, 4)[row] = left
        self.hand_len.reshape(-1)[row] = np.where(three, 0, 1)
        count = np.where(three, 3, 2)
        lengths = self.discard_len.reshape(-1)
        at = lengths[row]
        discards = self.discards.reshape(-1)
        for k in range(3):
            sub = rows[k < count]
            discards[row[sub] * _DECK + at[sub] + k] = thrown[sub, k]
        lengths[row] = at + count
        self._append(idx, seat, self._draw_card(idx))
        self._append(idx, seat, self._draw_card(idx))
        t = idx[three]
        self._append(t, seat[three], self._draw_card(t))
        self._end_turn(idx)

    def _play(self, idx: Array, action: Array) -> None:
        slot = action // (CELLS + 1)
        cell = action % (CELLS + 1)
        seat = self.turn[idx]
        card = self._sorted_hand(idx)[np.arange(len(idx)), slot]
        self._remove(idx, seat, card)
        played = self.played_len[idx]
        self.played.reshape(-1)[idx * _DECK + played] = card
        self.played_len[idx] = played + 1
        self.drawn[idx] = -1
        wasted = cell == WASTED
        self.wasted[idx[wasted]] += 1
        mark = ~wasted
        m, c, s = idx[mark], cell[mark], seat[mark]
        self.board.reshape(-1)[m * CELLS + c] = s
        self.free[m] -= 1
        self.free_bits[m] &= ~(_ONE << c.astype(np.uint64))
        self.marks.reshape(-1)[m * 2 + s] += 1
        self.last[m] = np.stack([c, card[mark], s], axis=1)
        lines = _THROUGH[c]
        flat = ((m * 2 + s) * (_NO_LINE + 1))[:, None] + lines
        all_counts = self.counts.reshape(-1)
        counts = all_counts[flat] + 1
        all_counts[flat] = counts
        hit = (counts == 4) & (lines < _NO_LINE)
        won = hit.any(axis=1)
        last_hit = 6 - hit[:, ::-1].argmax(axis=1)
        w = m[won]
        self.win_line[w] = lines[won, last_hit[won]]
        self._end(w, s[won], 1)
        rest = np.ones(len(idx), dtype=bool)
        rest[np.flatnonzero(mark)[won]] = False
        self._end_turn(idx[rest])

    def _end_turn(self, idx: Array) -> None:
        self.turns[idx] += 1
        full = self.free[idx] == 0
        limit = ~full & (self.turns[idx] >= self.max_turns)
        self._end(idx[full], np.full(int(full.sum()), -1), 2)
        self._end(idx[limit], np.full(int(limit.sum()), -1), 3)
        go = idx[~full & ~limit]
        self.turn[go] = 1 - self.turn[go]
        self.phase[go] = TURN

    def _end(self, idx: Array, winner: Array, reason: int) -> None:
        self.phase[idx] = OVER
        self.turn[idx] = -1
        self.reason[idx] = reason
        self.winner[idx] = winner

    # --- the scalar views -------------------------------------------------------------
    def action(self, i: int, index: int) -> Action:
        """The scalar action of an index in game ``i`` now."""
        hand = sorted(int(c) for c in self.hands[i, self.turn[i], : self.hand_len[i, self.turn[i]]])
        if index == DRAW:
            return ("draw",)
        if index < PLAY0:
            return ("discard", tuple(hand[k] for k in DISCARDS[index - 1]))
        slot, cell = divmod(index - PLAY0, CELLS + 1)
        return ("play", hand[slot], cell)

    def index(self, i: int, action: Action) -> int:
        """The index of a scalar action in game ``i`` now (inverse of :meth:`action`)."""
        hand = sorted(int(c) for c in self.hands[i, self.turn[i], : self.hand_len[i, self.turn[i]]])
        if action[0] == "draw":
            return DRAW
        if action[0] == "discard":
            places = tuple(hand.index(c) for c in action[1])
            return 1 + DISCARDS.index(places)
        return PLAY0 + hand.index(int(action[1])) * (CELLS + 1) + int(action[2])

    def results(self, i: int) -> Results | None:
        """Game ``i``'s results, as the scalar ``results()``."""
        if self.phase[i] != OVER:
            return None
        scores = (float(self.marks[i, 0]), float(self.marks[i, 1]))
        winner = int(self.winner[i])
        if winner < 0:
            return Results((), scores, ((0, 1),))
        return Results((winner,), scores, ((winner,), (1 - winner,)))

    def state(self, i: int) -> ToeState:
        """Game ``i`` as a scalar state (for views; no history, no resample bookkeeping)."""
        game = self.game
        st = ToeState.__new__(ToeState)
        st._init_base(game, {"seed": self.episode_seed(i), "decks": None, "setup": {}})
        st.rng = Rng(0)
        st.rng.state = int(self.rng[i])
        st.stacks = self.stacks.remaining(i)
        st.x = int(self.x[i])
        st.board = [int(v) for v in self.board[i]]
        st.free = int(self.free[i])
        st.counts = [[int(v) for v in self.counts[i, s, :_NO_LINE]] for s in (0, 1)]
        st.marks = [int(v) for v in self.marks[i]]
        st.hands = [[int(c) for c in self.hands[i, s, : self.hand_len[i, s]]] for s in (0, 1)]
        st.discards = [
            [int(c) for c in self.discards[i, s, : self.discard_len[i, s]]] for s in (0, 1)
        ]
        st.played = [int(c) for c in self.played[i, : self.played_len[i]]]
        st.stock = self.stock.view(i)
        st.epoch = int(self.epoch[i])
        st.drawn = int(self.drawn[i])
        st.turn = int(self.turn[i])
        st.turns = int(self.turns[i])
        st.wasted = int(self.wasted[i])
        st.phase = int(self.phase[i])
        cell, card, seat = (int(v) for v in self.last[i])
        st.last = (cell, card, seat) if cell >= 0 else None
        st.win_line = int(self.win_line[i])
        st.result = self.results(i)
        st.reason = REASONS[self.reason[i]]
        st.qorder = []
        st.qpool = []
        st.asked = []
        st.question = -1
        st.questions_read = 0
        st.buzzer = -1
        st.answered = None
        st.tiebreak = False
        return st

    def observation(self, i: int, seat: int | None) -> dict[str, Any]:
        """Game ``i`` as ``seat`` sees it (None: a spectator): the scalar observation."""
        state = self.state(i)
        return state.observation(seat) if seat is not None else state.public_observation()

    def dump(self, i: int) -> dict[str, Any]:
        """The scalar ``dump()`` of game ``i``, less its history (the batch keeps none)."""
        out = self.state(i).dump()
        del out["history"]
        return out
