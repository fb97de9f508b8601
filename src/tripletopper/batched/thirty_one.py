"""Thirty-One played as N games at once in NumPy arrays, card for card the scalar engine's.

:class:`ThirtyOneBatch` holds N games of one :class:`~tripletopper.games.thirty_one.ThirtyOne`
(its players and options) as a structure of arrays and applies one action index per game
with :meth:`ThirtyOneBatch.step`.  Each game draws its chance from its own copy of the
scalar generator, so game ``i`` is exactly ``game.new_state(seeds[i], ...)`` played with
the same actions; :meth:`~ThirtyOneBatch.observation` and :meth:`~ThirtyOneBatch.dump`
rebuild the scalar engine's dicts from the arrays (tests/test_batched.py compares them
after every step).

Action indices (``ACTIONS``, 110 of them; :meth:`~ThirtyOneBatch.action` and
:meth:`~ThirtyOneBatch.index` convert):

===========  ==================================
0 - 5        take, draw, knock, stop, play, declare
6 + card     ``("discard", card, False)``
58 + card    ``("discard", card, True)`` (``manual_31``)
===========  ==================================
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
from tripletopper.cards.standard import STANDARD
from tripletopper.engine import Action, Results, Rng
from tripletopper.games.thirty_one.rules import (
    CHECK,
    DISCARD_PHASE,
    OVER,
    TURN,
    Settlement,
    ThirtyOne,
    ThirtyOneState,
)
from tripletopper.games.thirty_one.scoring import (
    CARD_VALUE,
    DEALT_31,
    DECLARED_31,
    KNOCKER_LOWEST,
    LOWEST,
    REASONS,
    START_LIVES,
    TIED_LOWEST,
    TIED_WITH_KNOCKER,
)

TAKE, DRAW, KNOCK, STOP, PLAY, DECLARE = range(6)
DISCARD0 = 6
DECLARE0 = DISCARD0 + 52
ACTIONS = DECLARE0 + 52
_KINDS = ("take", "draw", "knock", "stop", "play", "declare")
ENDED = ("knock", "stop", "31", "dealt_31")
_REASON = {name: code for code, name in enumerate(REASONS)}
_WIDTH = 7
"""Most legal actions a game can have: four discards and three declaring ones."""

_VALUE = np.array(CARD_VALUE, dtype=np.int16)
_FULL = np.arange(52, dtype=np.int8)
_fmt = STANDARD.names


def value2(cards: Array, trips: bool) -> Array:
    """Twice the value of three-card hands (``cards[..., :3]``): 62 is 31, 61 is 30.5."""
    a, b, c = cards[..., 0], cards[..., 1], cards[..., 2]
    va, vb, vc = _VALUE[a], _VALUE[b], _VALUE[c]
    sa, sb, sc = a & 3, b & 3, c & 3
    best = np.zeros(a.shape, dtype=np.int16)
    for suit in range(4):
        best = np.maximum(best, va * (sa == suit) + vb * (sb == suit) + vc * (sc == suit))
    best = best * 2
    if trips:
        best = np.where(((a >> 2) == (b >> 2)) & ((b >> 2) == (c >> 2)), 61, best)
    return best


def is_31(a: Array, b: Array, c: Array) -> Array:
    same = ((a & 3) == (b & 3)) & ((b & 3) == (c & 3))
    out: Array = same & (_VALUE[a] + _VALUE[b] + _VALUE[c] == 31)
    return out


class ThirtyOneBatch(Episodes):
    """N games of ``game`` advanced together; game ``i`` starts as
    ``game.new_state(seeds[i], decks=decks[i], dealer=dealer)``."""

    def __init__(
        self,
        game: ThirtyOne,
        seeds: Sequence[int] | Array,
        decks: Sequence[Sequence[Sequence[Card | str]] | None] | None = None,
        dealer: int | None = None,
    ) -> None:
        self.game = game
        self.players = p = game.players
        self.trips = game.trips
        self.manual = game.manual
        self.seeds = np.asarray(seeds, dtype=np.uint64).copy()
        self.n = n = len(self.seeds)
        self.setup_dealer = dealer
        parsed = [game.parse_decks(d) for d in decks] if decks else None
        self.stacks = Stacks(n, 52, parsed)
        self.episode = np.zeros(n, dtype=np.int64)
        """How many times each game was reset (its seed is then ``derive_seed(seed, episode)``)."""
        self.rng = np.zeros(n, dtype=np.uint64)
        self.stock = Stocks(n, 52)
        self.pile = np.full((n, 52), -1, dtype=np.int8)
        self.pile_size = np.zeros(n, dtype=np.int64)
        self.hands = np.full((n, p, 4), -1, dtype=np.int8)
        self.hand_len = np.zeros((n, p), dtype=np.int64)
        self.public = np.zeros((n, 52), dtype=bool)
        self.lives = np.zeros((n, p), dtype=np.int64)
        self.alive = np.zeros((n, p), dtype=bool)
        self.elim_hand = np.zeros((n, p), dtype=np.int64)
        self.nxt = np.zeros((n, p), dtype=np.int64)
        self.order = np.zeros((n, p), dtype=np.int64)
        """Each game's seats in the hand from the dealer's left (the first ``n_in``)."""
        self.n_in = np.zeros(n, dtype=np.int64)
        self.pending = np.zeros((n, p), dtype=bool)
        self.declared = np.zeros((n, p), dtype=bool)
        self.dealer = np.zeros(n, dtype=np.int64)
        self.hand_no = np.zeros(n, dtype=np.int64)
        self.turn = np.zeros(n, dtype=np.int64)
        self.turns = np.zeros(n, dtype=np.int64)
        self.turns_before = np.zeros(n, dtype=np.int64)
        self.phase = np.zeros(n, dtype=np.int64)
        self.taken = np.zeros(n, dtype=np.int64)
        self.knocker = np.zeros(n, dtype=np.int64)
        self.tally = np.zeros((n, 4), dtype=np.int64)
        """knocks, stops, thirty-ones and void hands (the scalar dump's ``counts``)."""
        # The last settlement (the scalar ``Settlement``), for observations.
        self.last = np.zeros((n, 7 + 8 * p), dtype=np.int32)
        """The last settlement (the scalar ``Settlement``) as one record per game: hand
        number, how it ended, knocker, stopper, dealer, knocker saved, void, then per seat:
        declared, the three cards, lives lost, the reason, lives before and after."""
        self.winner = np.full(n, -1, dtype=np.int64)
        self.final_returns = np.zeros((n, p), dtype=np.float32)
        """1 for the winner of each game's last finished episode (kept across a reset)."""
        self._settling: list[tuple[Array, ...]] = []
        """Hands that ended in this step, settled (and dealt again) all at once: cheaper."""
        self._new_games(np.arange(n), seed_states(self.seeds))

    # --- the batch --------------------------------------------------------------------
    def _new_games(self, idx: Array, states: Array) -> None:
        p = self.players
        self.rng[idx] = states
        self.stock.length[idx] = 0
        self.lives[idx] = START_LIVES
        self.alive[idx] = True
        self.elim_hand[idx] = 0
        self.nxt[idx] = (np.arange(p) + 1) % p
        self.pending[idx] = False
        self.declared[idx] = False
        self.hand_no[idx] = 0
        self.turns[idx] = 0
        self.turns_before[idx] = 0
        self.tally[idx] = 0
        self.taken[idx] = -1
        self.knocker[idx] = -1
        self.winner[idx] = -1
        self.last[idx, 0] = 0
        self.pile_size[idx] = 0
        self.public[idx] = False
        if self.setup_dealer is None:
            self.dealer[idx] = below(self.rng, idx, np.full(len(idx), p))
        else:
            self.dealer[idx] = self.setup_dealer
        self._start_hand(idx, np.ones(len(idx), dtype=bool))

    # --- legal actions ------------------------------------------------------------------
    def candidates(self, games: Array | None = None) -> Array:
        """Each game's legal action indices in increasing order, padded with ``ACTIONS``
        (an ``N x 7`` array: no game has more than seven legal actions), or those of
        ``games`` only."""
        games = np.arange(self.n) if games is None else games
        out = np.full((len(games), _WIDTH), ACTIONS, dtype=np.int16)
        phase = self.phase[games]
        rows = np.flatnonzero(phase == TURN)
        if len(rows):
            turn = games[rows]
            stock = self.stock.size[turn] > 0
            out[rows, 0] = TAKE
            out[rows, 1] = np.where(stock, DRAW, STOP)
            out[rows, 2] = np.where(stock & (self.knocker[turn] < 0), KNOCK, ACTIONS)
        rows = np.flatnonzero(phase == CHECK)
        if len(rows):
            check = games[rows]
            if self.manual:
                hand = self.hands[check, self._first_pending(check)]
                out[rows, 0] = PLAY
                out[rows, 1] = np.where(is_31(hand[:, 0], hand[:, 1], hand[:, 2]), DECLARE, ACTIONS)
            else:
                out[rows, 0] = DECLARE
        rows = np.flatnonzero(phase == DISCARD_PHASE)
        if len(rows):
            disc = games[rows]
            hand = self.hands.reshape(-1, 4)[disc * self.players + self.turn[disc]]
            discards = self._discards(disc, hand.astype(np.int64))
            if self.manual:
                out[rows] = np.sort(discards, axis=1)
            else:  # four values: a sorting network is much faster than np.sort on rows
                cols = [discards[:, j] for j in range(4)]
                for j, k in ((0, 1), (2, 3), (0, 2), (1, 3), (1, 2)):
                    cols[j], cols[k] = np.minimum(cols[j], cols[k]), np.maximum(cols[j], cols[k])
                out[rows, :4] = np.column_stack(cols)
        return out

    def _discards(self, games: Array, hand: Array) -> Array:
        """The discard indices of games in the discard phase, in the scalar order: the
        hand's cards but the one taken, then (``manual_31``) the declaring discards;
        ``ACTIONS`` pads."""
        discards = np.where(hand != self.taken[games, None], hand + DISCARD0, ACTIONS)
        if not self.manual:
            return discards
        a, b, c, d = hand[:, 0], hand[:, 1], hand[:, 2], hand[:, 3]
        declares = [
            np.where(is_31(x, y, d), card + DECLARE0, ACTIONS)
            for card, x, y in ((a, b, c), (b, a, c), (c, a, b))
        ]
        return np.column_stack([discards, *declares])

    def legal_mask(self) -> Array:
        """``N x ACTIONS`` booleans: the legal action indices of each game."""
        mask = np.zeros((self.n, ACTIONS + 1), dtype=bool)
        mask[np.arange(self.n)[:, None], self.candidates()] = True
        return mask[:, :ACTIONS]

    def sample(self, bits: Array, *, scalar_order: bool = False) -> Array:
        """A legal action index per game: the ``(bits * count) >> 32``-th of its legal
        actions (``bits`` uniform in ``[0, 2**32)`` makes it a uniform choice); -1 when over.

        In increasing index order, or with ``scalar_order`` in the order of the scalar
        ``legal_actions()`` (the scalar ``RandomBot``'s choice for the same bits), which
        differs only for discards: the hand's order, then the declaring ones."""
        bits = np.asarray(bits, dtype=np.uint64)
        out = self._sample(bits)
        if not scalar_order:
            return out
        games = np.flatnonzero(self.phase == DISCARD_PHASE)
        if len(games):
            hand = self.hands.reshape(-1, 4)[games * self.players + self.turn[games]]
            cand = self._discards(games, hand.astype(np.int64))
            valid = cand < ACTIONS
            k = (bits[games] * valid.sum(axis=1).astype(np.uint64)) >> np.uint64(32)
            place = (np.cumsum(valid, axis=1) <= k[:, None].astype(np.int64)).sum(axis=1)
            out[games] = cand[np.arange(len(games)), place]
        return out

    def _sample(self, bits: Array) -> Array:
        out = np.full(self.n, -1, dtype=np.int64)
        turn = self.phase == TURN
        games = np.flatnonzero(turn)  # the commonest case, by arithmetic: take, draw, knock
        stock = self.stock.size[games] > 0
        count = 2 + (stock & (self.knocker[games] < 0))
        k = (bits[games] * count.astype(np.uint64)) >> np.uint64(32)
        out[games] = np.where(k == 0, TAKE, np.where(k == 2, KNOCK, np.where(stock, DRAW, STOP)))
        games = np.flatnonzero(~turn & (self.phase != OVER))
        cand = self.candidates(games)
        count = (cand < ACTIONS).sum(axis=1)
        k = (bits[games] * count.astype(np.uint64)) >> np.uint64(32)
        out[games] = cand[np.arange(len(games)), k.astype(np.int64)]
        return out

    def to_act(self) -> Array:
        """The seat to act in each game (-1 when over)."""
        seat = self.turn.copy()
        check = np.flatnonzero(self.phase == CHECK)
        seat[check] = self._first_pending(check)
        seat[self.phase == OVER] = -1
        return seat

    def _first_pending(self, idx: Array) -> Array:
        order = self.order[idx]
        waiting = np.take_along_axis(self.pending[idx], order, 1)
        waiting &= np.arange(self.players) < self.n_in[idx, None]
        seat: Array = order[np.arange(len(idx)), waiting.argmax(axis=1)]
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
            legal = (self.candidates() == actions[:, None]).any(axis=1) & (actions < ACTIONS)
            self._refuse(live & ~legal, actions)
        kind = np.where(live, actions, -1)
        for code, handler in (
            (TAKE, self._take),
            (DRAW, self._draw),
            (KNOCK, self._knock),
            (STOP, self._stop),
        ):
            idx = np.flatnonzero(kind == code)
            if len(idx):
                handler(idx)
        idx = np.flatnonzero((kind == PLAY) | (kind == DECLARE))
        if len(idx):
            self._answer(idx, kind[idx] == DECLARE)
        idx = np.flatnonzero(kind >= DISCARD0)
        if len(idx):
            self._discard(idx, kind[idx])
        self._settle_all()
        ended: Array = live & (self.phase == OVER)
        self._finish(ended, autoreset)
        return ended

    # The hot paths index flattened arrays (one index per game): much faster than
    # NumPy's multi-dimensional fancy indexing.
    def _append(self, idx: Array, seat: Array, card: Array) -> None:
        row = idx * self.players + seat
        lengths = self.hand_len.reshape(-1)
        at = lengths[row]
        self.hands.reshape(-1)[row * 4 + at] = card
        lengths[row] = at + 1

    def _take(self, idx: Array) -> None:
        top = self.pile_size[idx] - 1
        card = self.pile.reshape(-1)[idx * 52 + top]
        self.pile_size[idx] = top
        self._append(idx, self.turn[idx], card)
        self.public.reshape(-1)[idx * 52 + card] = True
        self.taken[idx] = card
        self.phase[idx] = DISCARD_PHASE

    def _draw(self, idx: Array) -> None:
        card = self.stock.draw(self.rng, idx)
        self._append(idx, self.turn[idx], card)
        self.phase[idx] = DISCARD_PHASE

    def _knock(self, idx: Array) -> None:
        self.knocker[idx] = self.turn[idx]
        self.tally[idx, 0] += 1
        self._end_turn(idx)

    def _stop(self, idx: Array) -> None:
        self.tally[idx, 1] += 1
        self._showdown(idx, ENDED.index("stop"), self.turn[idx])

    def _answer(self, idx: Array, declare: Array) -> None:
        seat = self._first_pending(idx)
        self.pending[idx, seat] = False
        d = idx[declare]
        if len(d):
            self.declared[d, seat[declare]] = True
            hand = self.hands[d, seat[declare], :3]
            self.public[d[:, None], hand] = True
        done = ~self.pending[idx].any(axis=1)
        dealt = done & self.declared[idx].any(axis=1)
        if dealt.any():
            self._declared_31(idx[dealt], self.declared[idx[dealt]], dealt=True)
        self.phase[idx[done & ~dealt]] = TURN

    def _discard(self, idx: Array, action: Array) -> None:
        declare = action >= DECLARE0
        card = np.where(declare, action - DECLARE0, action - DISCARD0)
        seat = self.turn[idx]
        row = idx * self.players + seat
        hands = self.hands.reshape(-1, 4)
        hand = hands[row]
        at = (hand == card[:, None]).argmax(axis=1)
        for j in range(3):
            hand[:, j] = np.where(j >= at, hand[:, j + 1], hand[:, j])
        hand[:, 3] = -1
        hands[row] = hand
        self.hand_len.reshape(-1)[row] = 3
        size = self.pile_size[idx]
        self.pile.reshape(-1)[idx * 52 + size] = card
        self.pile_size[idx] = size + 1
        self.taken[idx] = -1
        self.public.reshape(-1)[idx * 52 + card] = False
        if not self.manual:
            declare = declare | is_31(hand[:, 0], hand[:, 1], hand[:, 2])
        if declare.any():
            d = idx[declare]
            seats = np.zeros((len(d), self.players), dtype=bool)
            seats[np.arange(len(d)), seat[declare]] = True
            self._declared_31(d, seats, dealt=False)
        self._end_turn(idx[~declare])

    def _end_turn(self, idx: Array) -> None:
        if not len(idx):
            return
        nxt = self.nxt.reshape(-1)[idx * self.players + self.turn[idx]]
        self.turns[idx] += 1
        showdown = nxt == self.knocker[idx]
        if showdown.any():
            s = idx[showdown]
            self._showdown(s, ENDED.index("knock"), np.full(len(s), -1))
        go = ~showdown
        self.turn[idx[go]] = nxt[go]
        self.phase[idx[go]] = TURN

    def _showdown(self, idx: Array, ended: int, stopper: Array) -> None:
        alive = self.alive[idx]
        values = value2(self.hands[idx], self.trips)
        values = np.where(values == 62, 60, values)
        values = np.where(alive, values, 999)
        low = values.min(axis=1)
        lowest = values == low[:, None]
        many = lowest.sum(axis=1) > 1
        knocker = self.knocker[idx]
        rows = np.arange(len(idx))
        knocked_low = (knocker >= 0) & lowest[rows, np.maximum(knocker, 0)]
        lost = lowest.astype(np.int64)
        reason = np.where(many, _REASON[TIED_LOWEST], _REASON[LOWEST])[:, None]
        reason = np.broadcast_to(reason, lost.shape).copy()
        saved = knocked_low & many
        alone = knocked_low & ~many
        kn = np.maximum(knocker, 0)
        lost[rows[saved], kn[saved]] = 0
        reason[saved] = _REASON[TIED_WITH_KNOCKER]
        lost[rows[alone], kn[alone]] = 2
        reason[alone] = _REASON[KNOCKER_LOWEST]
        no = np.zeros_like(alive)
        self._settling.append((idx, np.full(len(idx), ended), stopper, no, lost, reason, saved))

    def _declared_31(self, idx: Array, seats: Array, *, dealt: bool) -> None:
        self.tally[idx, 2] += 1
        lost = (self.alive[idx] & ~seats).astype(np.int64)
        reason = np.full(lost.shape, _REASON[DEALT_31 if dealt else DECLARED_31])
        ended = ENDED.index("dealt_31" if dealt else "31")
        none = np.full(len(idx), -1)
        no = np.zeros(len(idx), dtype=bool)
        self._settling.append((idx, np.full(len(idx), ended), none, seats, lost, reason, no))

    def _settle_all(self) -> None:
        """Settle every hand that ended in this step; deal the next ones."""
        if not self._settling:
            return
        idx, ended, stopper, declared, lost, reason, saved = (
            np.concatenate(part) for part in zip(*self._settling, strict=True)
        )
        self._settling = []
        before = self.lives[idx]
        after = np.maximum(before - lost, 0)
        gone: Array = np.any((lost > 0) & (before <= lost), axis=1)
        still_in: Array = np.any((after > 0) & self.alive[idx], axis=1)
        void = gone & ~still_in
        self.tally[idx, 3] += void
        after = np.where(void[:, None], before, after)
        self.lives[idx] = after
        k = len(idx)
        self.last[idx] = np.column_stack(
            [
                self.hand_no[idx],
                ended,
                self.knocker[idx],
                stopper,
                self.dealer[idx],
                saved,
                void,
                declared,
                self.hands[idx, :, :3].reshape(k, -1),
                lost,
                reason,
                before,
                after,
            ]
        )
        out = gone & ~void
        over = np.zeros(len(idx), dtype=bool)
        if out.any():
            o = idx[out]
            newly = self.alive[o] & (self.lives[o] == 0)
            self.alive[o] &= ~newly
            self.elim_hand[o] = np.where(newly, self.hand_no[o, None], self.elim_hand[o])
            self._relink(o)
            over[out] = self.alive[o].sum(axis=1) == 1
        if over.any():
            o = idx[over]
            self.winner[o] = self.alive[o].argmax(axis=1)
            self.phase[o] = OVER
        rest = ~over
        if rest.any():
            self._start_hand(idx[rest], void[rest])

    def _next_alive(self, idx: Array, seat: Array) -> Array:
        """The first seat after each ``seat`` (round the table) still in the game."""
        p = self.players
        cand = (seat[:, None] + np.arange(1, p + 1)) % p
        alive = np.take_along_axis(self.alive[idx], cand, 1)
        seat_after: Array = cand[np.arange(len(idx)), alive.argmax(axis=1)]
        return seat_after

    def _relink(self, idx: Array) -> None:
        p = self.players
        for seat in range(p):
            alive = self.alive[idx, seat]
            nxt = self._next_alive(idx, np.full(len(idx), seat))
            self.nxt[idx, seat] = np.where(alive, nxt, self.nxt[idx, seat])

    def _start_hand(self, idx: Array, same_dealer: Array) -> None:
        p = self.players
        move = ~same_dealer
        if move.any():
            self.dealer[idx[move]] = self._next_alive(idx[move], self.dealer[idx[move]])
        self.hand_no[idx] += 1
        stock = self.stock
        stacks = self.stacks
        stacked = stacks.at[idx] < stacks.count[idx]
        f = idx[stacked]
        if len(f):
            stock.fill(f, np.broadcast_to(_FULL, (len(f), 52)), np.full(len(f), 52), stacks)
        new = idx[~stacked & (stock.length[idx] != 52)]  # a game's first stock: the deck
        stock.cards[new] = _FULL
        stock.length[new] = 52
        g = idx[~stacked]
        stock.size[g] = 52
        stock.ordered[g] = 0
        alive = self.alive[idx]
        order = (self.dealer[idx, None] + 1 + np.arange(p)) % p  # everyone still in
        short = np.flatnonzero(~alive.all(axis=1))
        if len(short):  # the seats still in, from the dealer's left
            seats = order[short]
            still = np.take_along_axis(alive[short], seats, 1)
            key = np.where(still, np.arange(p), p + np.arange(p))
            order[short] = np.take_along_axis(seats, np.argsort(key, axis=1), 1)
        self.order[idx] = order
        n_in = alive.sum(axis=1)
        self.n_in[idx] = n_in
        self.hand_len[idx] = np.where(alive, 3, 0)
        self.pile_size[idx] = 1  # (the pile array beyond pile_size is never read)
        dealt_rows = np.full((len(idx) * p, 4), -1, dtype=self.hands.dtype)
        for count in np.unique(n_in):  # one card at a time round the table, then the pile's
            sub = np.flatnonzero(n_in == count)
            games = idx[sub]
            cards = stock.deal(self.rng, games, 3 * count + 1)
            for j in range(count):
                dealt_rows[sub * p + order[sub, j], :3] = cards[:, j : 3 * count : count]
            self.pile[games, 0] = cards[:, 3 * count]
        hands = dealt_rows.reshape(len(idx), p, 4)
        self.hands[idx] = hands
        self.public[idx] = False
        self.turn[idx] = order[:, 0]
        self.turns_before[idx] = self.turns[idx]
        self.taken[idx] = -1
        self.knocker[idx] = -1
        self.declared[idx] = False
        self.phase[idx] = TURN
        dealt = alive & is_31(hands[:, :, 0], hands[:, :, 1], hands[:, :, 2])
        if self.manual:
            self.phase[idx] = CHECK
            self.pending[idx] = alive
        else:
            any31 = dealt.any(axis=1)
            d = idx[any31]
            self.phase[d] = CHECK
            self.pending[d] = dealt[any31]
            rows, seats = np.nonzero(dealt)
            self.public[idx[rows][:, None], hands[rows, seats, :3]] = True

    # --- the scalar views -------------------------------------------------------------
    def action(self, i: int, index: int) -> Action:
        """The scalar action of an index (the same in every game ``i``)."""
        if index < DISCARD0:
            return (_KINDS[index],)
        if index < DECLARE0:
            return ("discard", index - DISCARD0, False)
        return ("discard", index - DECLARE0, True)

    def index(self, i: int, action: Action) -> int:
        """The index of a scalar action (inverse of :meth:`action`)."""
        if action[0] == "discard":
            return int(action[1]) + (DECLARE0 if action[2] else DISCARD0)
        return _KINDS.index(str(action[0]))

    def hand(self, i: int, seat: int) -> list[int]:
        """The cards ``seat`` holds in game ``i``, in the scalar hand's order."""
        return [int(c) for c in self.hands[i, seat, : self.hand_len[i, seat]]]

    def settlement(self, i: int) -> Settlement | None:
        p = self.players
        record = [int(v) for v in self.last[i]]
        hand_no, ended, knocker, stopper, dealer, saved, void = record[:7]
        if not hand_no:
            return None
        declared, cards, lost, reason, before, after = (
            record[7 + p * a : 7 + p * b]
            for a, b in ((0, 1), (1, 4), (4, 5), (5, 6), (6, 7), (7, 8))
        )
        # The seats of that hand from its dealer's left: those with lives before it.
        order = [(dealer + k) % p for k in range(1, p + 1)]
        order = [s for s in order if before[s] > 0]
        showdown = ENDED[ended] in ("knock", "stop")
        return Settlement(
            hand_no,
            ENDED[ended],
            knocker,
            stopper,
            [s for s in order if declared[s]],
            [s for s in order if (before[s] > 0 if showdown else declared[s])],
            [cards[3 * s : 3 * s + 3] for s in range(p)],
            [(s, lost[s], REASONS[reason[s]]) for s in order if lost[s] > 0],
            [knocker] if saved else [],
            bool(void),
            before,
            after,
            self.trips,
        )

    def results(self, i: int) -> Results | None:
        """Game ``i``'s results, as the scalar ``results()``."""
        if self.phase[i] != OVER:
            return None
        winner = int(self.winner[i])
        by_hand: dict[int, list[int]] = {}
        for seat in range(self.players):
            if seat != winner:
                by_hand.setdefault(int(self.elim_hand[i, seat]), []).append(seat)
        ranking = ((winner,), *(tuple(by_hand[h]) for h in sorted(by_hand, reverse=True)))
        return Results((winner,), tuple(float(x) for x in self.lives[i]), ranking)

    def state(self, i: int) -> ThirtyOneState:
        """Game ``i`` as a scalar state (for views; its history is empty)."""
        game = self.game
        st = ThirtyOneState.__new__(ThirtyOneState)
        st._init_base(game, {"seed": self.episode_seed(i), "decks": None, "setup": {}})
        p = self.players
        order, n_in = self.order[i], int(self.n_in[i])
        st.rng = Rng(0)
        st.rng.state = int(self.rng[i])
        st.stacks = self.stacks.remaining(i)
        st.lives = [int(x) for x in self.lives[i]]
        st.elim_hand = [int(x) for x in self.elim_hand[i]]
        st.alive = [bool(x) for x in self.alive[i]]
        st.seats_in = [s for s in range(p) if st.alive[s]]
        st.nxt = [int(x) for x in self.nxt[i]]
        st.orders = {}
        st.manual = self.manual
        st.counts = [0.0] * p
        st.hands = [self.hand(i, s) for s in range(p)]
        st.stock = self.stock.view(i)
        st.pile = [int(c) for c in self.pile[i, : self.pile_size[i]]]
        st.public = {int(c) for c in np.flatnonzero(self.public[i])}
        in_order = [int(s) for s in order[:n_in]]  # the hand's seats from the dealer's left
        st.pending = [s for s in in_order if self.pending[i, s]]
        st.declared = [s for s in in_order if self.declared[i, s]]
        st.hand_no = int(self.hand_no[i])
        st.turns = int(self.turns[i])
        st.turns_before = int(self.turns_before[i])
        st.turn = int(self.turn[i])
        st.phase = int(self.phase[i])
        st.taken = int(self.taken[i])
        st.knocker = int(self.knocker[i])
        st.knocks, st.stops, st.thirty_ones, st.voids = (int(x) for x in self.tally[i])
        st.last = self.settlement(i)
        st.result = self.results(i)
        st.dealer = int(self.dealer[i])
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
