"""Memo Match: the rules engine (the players' page is rules/memo-match.md).

Concentration with the 125 Triple Topper cards: all of them lie face down on a
12 x 10 grid plus a row of five.  A turn flips two cards; two cards matching on
at least two of their three variables are a pair, and the flipper takes them
and turns again (a pair matching on all three also takes three more cards of
the flipper's choice).  A player who believes no pair is left declares "no
matches": every card is turned up and the others race to spot a pair.  Most
cards wins; leaders who tie play off on the other players' cards.  One player
plays solitaire, scored by the turns needed to clear the table.

Actions are tuples: ``("flip", position)``, ``("take", position)`` (a bonus
card), ``("declare",)`` ("no matches"), ``("claim", (p, q))`` and ``("pass",)``
while spotting, and ``("timeout",)``, played only by the table's clock (the
:data:`~tripletopper.engine.CLOCK` seat) when the spotting time is up.
Positions are ints named ``A1`` .. ``L10``, ``A11`` .. ``E11``
(:mod:`tripletopper.games.memo_match.layout`).

Memory is the skill, so nothing that lasts names a card after it is turned
back face down: observations show only the cards face up now, and the
narration of a flip or a miss names positions (a pair taken may be named).
The faces of a flip are in its live events, for the table to draw while the
cards are up.  Knowledge is tracked per card (see
:mod:`tripletopper.games.memo_match.knowledge`): :meth:`MemoMatchState.recall`
is a seat's *perfect recall*, every face-down card it has seen and where that
card is now, for bots only; a bot with a limited memory keeps its own from events.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from hashlib import shake_256
from operator import itemgetter
from struct import unpack
from typing import Any, ClassVar

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import TRIPLE_TOPPER
from tripletopper.engine import (
    CLOCK_ONLY,
    TABLE,
    Action,
    ActionCodec,
    ActionKind,
    ActionPattern,
    Event,
    Game,
    Option,
    Results,
    Rng,
    State,
    Stock,
)
from tripletopper.errors import IllegalActionError, InvalidOptionError
from tripletopper.games.memo_match.knowledge import MISS, PAIR, TRIPLE, relabeling
from tripletopper.games.memo_match.layout import (
    DECK_SIZE,
    MATCH,
    POSITION_NAMES,
    VARIABLES,
    PairParam,
    PositionParam,
)
from tripletopper.games.memo_match.narration import describe_event
from tripletopper.games.memo_match.world import build_world

MAX_PLAYERS = 8
BONUS_CARDS = 3
FLIP1, FLIP2, BONUS, SPOT, OVER = range(5)
PHASE_NAMES = ("flip", "second", "bonus", "spot", "over")
EMPTY = -1

FLIP: tuple[Action, ...] = tuple(("flip", p) for p in range(DECK_SIZE))
TAKE: tuple[Action, ...] = tuple(("take", p) for p in range(DECK_SIZE))
CLAIM: tuple[tuple[Action, ...], ...] = tuple(
    tuple(("claim", (p, q)) for q in range(DECK_SIZE)) for p in range(DECK_SIZE)
)
"""``CLAIM[p][q]`` is the claim of positions ``p < q`` (built once: spotting lists them all)."""
DECLARE: Action = ("declare",)
PASS: Action = ("pass",)
TIMEOUT: Action = ("timeout",)
_ALONE = tuple((seat,) for seat in range(MAX_PLAYERS))

_position = itemgetter(1)
_fmt = TRIPLE_TOPPER.names
_pos = POSITION_NAMES


class MemoMatch(Game):
    """Memo Match for 1-8 players (options: see ``options_schema``)."""

    name = "memo-match"
    title = "Memo Match"
    min_players = 1
    max_players = MAX_PLAYERS
    deck = TRIPLE_TOPPER
    options_schema = (
        Option(
            "wilds",
            "bool",
            True,
            "black, blob and ? are wild in their own variable (off: plain values)",
        ),
        Option(
            "reveal",
            "choice",
            "public",
            "public: everyone sees the flipped cards; private: only the flipper does",
            choices=("public", "private"),
        ),
        Option(
            "swap_on_miss",
            "bool",
            False,
            "the hard game: two unmatched cards trade places when turned back",
        ),
        Option(
            "spot_seconds",
            "float",
            60.0,
            "time limit of the spotting race after a 'no matches' declaration (for clocks)",
            minimum=1,
            maximum=3600,
        ),
        Option(
            "max_turns",
            "int",
            2000,
            "safety limit: the game (or its playoff) ends after this many turns",
            minimum=1,
            maximum=1_000_000,
        ),
    )
    codec = ActionCodec(
        [
            ActionKind("flip", (PositionParam("position"),), "turn a face-down card up"),
            ActionKind(
                "take", (PositionParam("position"),), "take a face-down card as a triple's bonus"
            ),
            ActionKind("declare", (), "declare 'no matches': every card is turned up"),
            ActionKind(
                "claim", (PairParam("positions"),), "claim a pair while spotting ('claim A1 C7')"
            ),
            ActionKind("pass", (), "stop spotting: you see no pair"),
            ActionKind("timeout", (), "the spotting time is up (played by the table clock)"),
        ]
    )
    setup_keys = ("order",)
    score_units = ("card taken", "cards taken")

    @classmethod
    def score_unit(cls, players: int) -> tuple[str, str]:
        return ("turn", "turns") if players == 1 else cls.score_units

    def __init__(self, players: int, **options: object) -> None:
        super().__init__(players, **options)
        self.wilds = bool(self.options["wilds"])
        self.private = self.options["reveal"] == "private"
        self.swap = bool(self.options["swap_on_miss"])
        self.max_turns = int(self.options["max_turns"])
        self.spot_seconds = float(self.options["spot_seconds"])
        self.variables = VARIABLES[self.wilds]

    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> MemoMatchState:
        self.check_setup(setup)
        order = setup.get("order")
        if order is not None and (
            not isinstance(order, list | tuple)
            or sorted(order) != list(range(self.players))
            or any(isinstance(s, bool) for s in order)
        ):
            raise InvalidOptionError(
                f"order must list every seat 0 to {self.players - 1} once, in turn order"
            )
        stacks = self.parse_decks(decks)
        setup = {"order": list(order)} if order is not None else {}
        origin = {"seed": seed, "decks": [_fmt_many(d) for d in stacks] or None, "setup": setup}
        return MemoMatchState(self, seed, stacks, None if order is None else list(order), origin)

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind == "flip":
            return f"flip the card at {_pos[action[1]]}"
        if kind == "take":
            return f"take the card at {_pos[action[1]]} as a bonus"
        if kind == "claim":
            p, q = action[1]
            return f"claim the pair at {_pos[p]} and {_pos[q]}"
        return {
            "declare": "declare 'no matches'",
            "pass": "stop spotting",
            "timeout": "end the spotting (time is up)",
        }[kind]

    def describe_event(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        return describe_event(event, names)

    def world_from_view(
        self, seat: int, observation: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
    ) -> MemoMatchState:
        return build_world(self, seat, observation, recall, rng)


def shuffled(cards: Sequence[Card], rng: Rng) -> list[Card]:
    """``cards`` in a random order drawn from one number of ``rng``.

    The number seeds SHAKE-256, whose bytes give each card a 32-bit sort key:
    a layout costs one draw and a sort in C instead of a Python loop of
    125 draws.  (Two equal keys, about one layout in 500,000, keep the cards'
    given order between them.)
    """
    n = len(cards)
    keys = unpack(f"<{n}I", shake_256(rng.bits().to_bytes(8, "little")).digest(4 * n))
    return list(map(cards.__getitem__, sorted(range(n), key=keys.__getitem__)))


def _fmt_many(cards: Sequence[Card]) -> list[str]:
    return [_fmt[c] for c in cards]


class PositionActions(list[Action]):
    """Legal ``(kind, position)`` actions whose membership test is a lookup, not a scan.

    ``apply`` checks ``action in legal``; scanning a hundred tuples for that cost
    more than the rest of a turn, so these lists answer from ``mask`` (a byte
    per position, 1 if the list holds that position) and the class's ``extra``
    actions.  Like every legal list, they are never changed once handed out.
    """

    __slots__ = ("mask",)
    kind: ClassVar[str] = "flip"
    extra: ClassVar[tuple[Action, ...]] = ()
    mask: bytes | bytearray

    def __contains__(self, action: object) -> bool:
        if type(action) is tuple and len(action) == 2 and action[0] == self.kind:
            p = action[1]
            return type(p) is int and 0 <= p < DECK_SIZE and self.mask[p] == 1
        return action in self.extra


class SecondFlips(PositionActions):
    """Every card on the table but the one face up (``first``)."""

    __slots__ = ("first",)
    first: int

    def __contains__(self, action: object) -> bool:
        if type(action) is tuple and len(action) == 2 and action[0] == "flip":
            p = action[1]
            return type(p) is int and 0 <= p < DECK_SIZE and self.mask[p] == 1 and p != self.first
        return False


class FlipsOrDeclare(PositionActions):
    __slots__ = ()
    extra = (DECLARE,)


class Takes(PositionActions):
    __slots__ = ()
    kind = "take"


class Claims(PositionActions):
    """Every pair of cards on the table, and ``pass``."""

    __slots__ = ()
    extra = (PASS,)

    def __contains__(self, action: object) -> bool:
        if type(action) is tuple and len(action) == 2 and action[0] == "claim":
            pair = action[1]
            if type(pair) is not tuple or len(pair) != 2:
                return False
            p, q = pair
            mask = self.mask
            return (
                type(p) is int
                and type(q) is int
                and 0 <= p < q < DECK_SIZE
                and mask[p] == 1
                and mask[q] == 1
            )
        return action in self.extra


class MemoMatchState(State):
    __slots__ = (
        "active",
        "acts1",
        "at",
        "barred",
        "bonus_left",
        "claims",
        "constraints",
        "count",
        "declarations",
        "declarer",
        "epoch",
        "epochs",
        "first",
        "flips",
        "knows",
        "leaders",
        "main_counts",
        "nxt",
        "occ",
        "order",
        "out",
        "phase",
        "piles",
        "playoff",
        "playoffs",
        "ppiles",
        "result",
        "rng",
        "see",
        "set_aside",
        "size",
        "spotters",
        "stacks",
        "table",
        "take_list",
        "total_turns",
        "turn",
        "turns",
    )

    game: MemoMatch

    def __init__(
        self,
        game: MemoMatch,
        seed: int,
        stacks: list[list[Card]],
        order: list[int] | None,
        origin: dict[str, Any],
    ) -> None:
        self._init_base(game, origin)
        players = game.players
        self.rng = Rng(seed)
        self.stacks = stacks
        if order is None:
            order = list(range(players))
            self.rng.shuffle(order)
        self.order = order
        everyone = (1 << (players + 1)) - 1  # every seat and the spectators' bit
        self.see = [everyone if not game.private else 1 << s for s in range(players)]
        """``see[seat]``: who learns a card that seat flips."""
        self.knows = [0] * DECK_SIZE
        self.epoch = [0] * DECK_SIZE
        self.epochs = 1
        self.constraints: list[tuple[int, int, int]] = []
        self.piles: list[list[Card]] = [[] for _ in range(players)]
        self.ppiles: list[list[Card]] = [[] for _ in range(players)]
        self.main_counts: list[int] = []
        self.set_aside: list[Card] = []
        self.out = [False] * players
        self.barred = [False] * players
        self.active = [True] * players
        self.spotters: list[int] = []
        self.claims: list[Action] | None = None
        self.declarer = -1
        self.turn = order[0]
        self.phase = FLIP1
        self.first = -1
        self.bonus_left = 0
        self.turns = 0
        self.total_turns = 0
        self.declarations = 0
        self.playoff = False
        self.playoffs = 0
        self.leaders: list[int] = []
        self.result: Results | None = None
        self.table: list[Card] = []
        self.size = self.count = 0
        self.acts1: list[Action] = []
        self.take_list: list[Action] | None = None
        self.occ = bytearray()
        self.at: list[int] = []
        self.flips: list[Action] = []
        self.nxt: list[int] = []
        self._seat_table()
        self._lay_out(list(range(DECK_SIZE)))

    # --- the contract -------------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == SPOT:
            return tuple(self.spotters)
        return () if phase == OVER else _ALONE[self.turn]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def results(self) -> Results | None:
        return self.result

    def _legal_for(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == FLIP1:
            return self.acts1 if seat == self.turn else []
        if seat != self.turn or phase >= SPOT:
            return self._spot_actions() if phase == SPOT and seat in self.spotters else []
        if phase == FLIP2:  # any other card on the table (inlined: half of all actions)
            # twin: _legal_actions; tests/test_contract.py compares them
            first = self.first
            acts = SecondFlips(self.flips)
            del acts[bisect_left(self.at, first)]
            acts.mask = self.occ
            acts.first = first
            return acts
        return self._legal_actions(seat)

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == FLIP1:
            return self.acts1
        if phase == FLIP2:  # any other card on the table
            first = self.first
            acts = SecondFlips(self.flips)
            del acts[bisect_left(self.at, first)]
            acts.mask = self.occ
            acts.first = first
            return acts
        if phase == BONUS:
            if self.take_list is None:
                self.take_list = [TAKE[p] for p in self.at]
            takes = Takes(self.take_list)
            takes.mask = self.occ
            return takes
        return self._spot_actions()

    def _spot_actions(self) -> list[Action]:
        claims = self.claims
        if claims is None:  # every pair of cards on the table, built once per declaration
            at = [p for p in range(self.size) if self.table[p] != EMPTY]
            claims = Claims()
            for i in range(len(at) - 2):
                claims.extend(itemgetter(*at[i + 1 :])(CLAIM[at[i]]))
            if len(at) >= 2:
                claims.append(CLAIM[at[-2]][at[-1]])
            claims.append(PASS)
            claims.mask = self.occ
            self.claims = claims
        return claims

    def legal_summary(self, seat: int | None = None) -> Sequence[Action | ActionPattern]:
        """While spotting: "claim any two of the cards on the table (all face up)", and pass."""
        if seat is None:
            seat = self.current_seat()
        if self.phase == SPOT and seat in self.spotters and len(self.at) >= 2:
            return [ActionPattern("claim", tuple(self.at), 2), PASS]
        return self.legal_actions(seat)

    def timeout(self) -> tuple[float, Action] | None:
        return (self.game.spot_seconds, TIMEOUT) if self.phase == SPOT else None

    def default_action(self, seat: int) -> Action:
        """Pass while spotting; otherwise the first legal card (never a declaration)."""
        return PASS if self.phase == SPOT else self.legal_actions(seat)[0]

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        kind = action[0]
        if kind == "flip":
            if self.phase == FLIP1:  # the first card of a turn (inlined: the commonest action)
                # No twin; tests/test_contract.py checks its event against the observations.
                p = action[1]
                self.turns += 1
                self.total_turns += 1
                card = self.table[p]
                self.knows[card] |= self.see[seat]
                self.first = p
                self.phase = FLIP2
                if events is not None:
                    events.append(self._flip_event(seat, p, card))
            else:
                self._flip_second(seat, action[1], events)
        elif kind == "take":
            self._take_bonus(seat, action[1], events)
            self.bonus_left -= 1
            self._bonus_step(seat, events)
        elif kind == "claim":
            self._claim(seat, action[1], events)
        elif kind == "declare":
            self._declare(seat, events)
        elif kind == "pass":
            self.spotters.remove(seat)
            if events is not None:
                events.append(Event("passed", {"seat": seat}))
            if not self.spotters:
                self._declarer_takes_all(events)
        else:  # the clock's timeout
            if events is not None:
                events.append(Event("time_up", {"seconds": self.game.spot_seconds}))
            self._declarer_takes_all(events)

    def _explain_illegal(self, seat: int, action: Action) -> str | None:
        kind = action[0]
        if kind == "timeout":
            return CLOCK_ONLY
        if seat == TABLE:
            return "Memo Match has no table actions"
        phase = self.phase
        if phase == SPOT:
            if kind in ("claim", "pass"):
                p, q = action[1] if kind == "claim" else (0, 0)
                if kind == "claim" and self._empty(p, q):
                    return f"there is no card at {self._empty(p, q)}"
            return "everyone is spotting: claim a pair ('claim A1 C7') or pass"
        if kind in ("claim", "pass"):
            return "pairs are claimed only after a player declares 'no matches'"
        if phase == BONUS:
            if kind == "take" and self._empty(action[1]):
                return f"there is no card at {self._empty(action[1])}"
            return f"take {self.bonus_left} more bonus card(s) first ('take C7')"
        if kind == "take":
            return "bonus cards are taken only after a pair that matches on all three variables"
        if kind == "declare":
            return "finish your turn first: flip a second card"
        if self._empty(action[1]):
            return f"there is no card at {self._empty(action[1])}"
        if phase == FLIP2 and action[1] == self.first:
            return f"the card at {_pos[self.first]} is already face up: flip another"
        if phase == FLIP1 and self.count < 2:
            return "only one card is left: declare 'no matches'"
        return None

    def _empty(self, *positions: int) -> str:
        """The name of the first given position that holds no card, or ''."""
        for p in positions:
            if p >= self.size or self.table[p] == EMPTY:
                return _pos[p]
        return ""

    # --- a turn -------------------------------------------------------------------------
    def _flip_event(self, seat: int, p: int, card: Card) -> Event:
        if self.game.private:
            return Event("flipped", {"seat": seat, "pos": _pos[p]}, {seat: {"card": _fmt[card]}})
        return Event("flipped", {"seat": seat, "pos": _pos[p], "card": _fmt[card]})

    def _flip_second(self, seat: int, q: int, events: list[Event] | None) -> None:
        game = self.game
        table = self.table
        p = self.first
        a, b = table[p], table[q]
        self.knows[b] |= self.see[seat]
        self.first = -1
        shared = game.variables[a * DECK_SIZE + b]
        if events is not None:
            events.append(self._flip_event(seat, q, b))
        if shared >= MATCH:
            if game.private:
                self.constraints.append((a, b, TRIPLE if shared == 3 else PAIR))
            self._remove(p, q)
            pile = (self.ppiles if self.playoff else self.piles)[seat]
            pile.append(a)
            pile.append(b)
            triple = shared == 3
            if events is not None:
                data = {"seat": seat, "positions": [_pos[p], _pos[q]], "triple": triple}
                cards = {"cards": [_fmt[a], _fmt[b]]}
                if game.private:
                    events.append(Event("matched", data, {seat: cards}))
                else:
                    events.append(Event("matched", {**data, **cards}))
            if triple:
                self.bonus_left = BONUS_CARDS
                self._bonus_step(seat, events)
            elif self.count and self.turns < game.max_turns:
                self.phase = FLIP1  # the same player turns again
            else:
                self._next_turn(seat, events)
            return
        if game.private:
            self.constraints.append((a, b, MISS))
        if game.swap:
            table[p], table[q] = b, a
        if events is not None:
            # The faces are for drawing the two cards while they are up; narration omits them.
            data = {"seat": seat, "positions": [_pos[p], _pos[q]], "swapped": game.swap}
            cards = {"cards": [_fmt[a], _fmt[b]]}
            if game.private:
                events.append(Event("missed", data, {seat: cards}))
            else:
                events.append(Event("missed", {**data, **cards}))
        if self.turns < game.max_turns:
            self.turn = self.nxt[seat]
            self.phase = FLIP1
        else:
            self._next_turn(self.nxt[seat], events)

    def _bonus_step(self, seat: int, events: list[Event] | None) -> None:
        """Ask for the next bonus card, or take them all when no choice is left."""
        if self.bonus_left and self.count <= self.bonus_left:
            for p in range(self.size):
                if self.table[p] != EMPTY:
                    self._take_bonus(seat, p, events)
            self.bonus_left = 0
        if self.bonus_left:
            self.phase = BONUS
            self.turn = seat
        else:
            self._next_turn(seat, events)

    def _take_bonus(self, seat: int, p: int, events: list[Event] | None) -> None:
        card = self.table[p]
        self._remove(p)
        (self.ppiles if self.playoff else self.piles)[seat].append(card)
        self.knows[card] = self._everyone()
        if events is not None:
            events.append(Event("bonus_taken", {"seat": seat, "pos": _pos[p], "card": _fmt[card]}))

    def _everyone(self) -> int:
        return (1 << (self.game.players + 1)) - 1

    def _next_seat(self, seat: int) -> int:
        return self.nxt[seat]

    def _seat_table(self) -> None:
        """``nxt[seat]``: the next seat in turn order that plays this round and is not out."""
        order = self.order
        n = len(order)
        nxt = [0] * n
        for i, seat in enumerate(order):
            nxt[seat] = seat
            for step in range(1, n + 1):
                other = order[(i + step) % n]
                if self.active[other] and not self.out[other]:
                    nxt[seat] = other
                    break
        self.nxt = nxt

    def _next_turn(self, seat: int, events: list[Event] | None) -> None:
        if self.count == 0:
            self._end_round(events)
            return
        if self.turns >= self.game.max_turns:
            if events is not None:
                events.append(
                    Event("turn_limit", {"turns": self.turns, "left_on_table": self.count})
                )
            self._end_round(events)
            return
        self.turn = seat
        self.phase = FLIP1

    def _refresh(self) -> None:
        """Rebuild the action lists from the table (new lists: old ones may be cached)."""
        table = self.table
        self.at = at = [p for p in range(self.size) if table[p] != EMPTY]
        occ = self.occ = bytearray(DECK_SIZE)
        for p in at:
            occ[p] = 1
        self.flips = [FLIP[p] for p in at]
        self.take_list = None
        self._flips_changed()

    def _flips_changed(self) -> None:
        if len(self.at) >= 2:
            acts1 = self.acts1 = FlipsOrDeclare(self.flips)
            acts1.append(DECLARE)
            acts1.mask = self.occ
        else:
            self.acts1 = [DECLARE]

    def _remove(self, *positions: int) -> None:
        """Cards leave the table; the action lists are replaced, never changed in place."""
        table = self.table
        occ = bytearray(self.occ)
        at = self.at.copy()
        flips = self.flips.copy()
        takes = self.take_list.copy() if self.take_list is not None else None
        for p in positions:
            table[p] = EMPTY
            occ[p] = 0
            i = bisect_left(at, p)
            del at[i]
            del flips[i]
            if takes is not None:
                del takes[i]
        self.take_list = takes
        self.at = at
        self.occ = occ
        self.flips = flips
        self.count -= len(positions)
        self._flips_changed()

    def _lay_out(self, cards: list[Card]) -> None:
        """Shuffle ``cards`` and lay them face down from A1 on, in reading order."""
        if self.stacks:
            stock = Stock()
            stock.fill(cards, self.stacks.pop(0))
            table: list[Card] = []
            stock.deal(self.rng, [table], len(cards))
            self.table = table
        else:
            self.table = shuffled(cards, self.rng)
        n = self.size = self.count = len(cards)
        self.first = -1
        self.at = list(range(n))  # a full table: _refresh's work, without the loops
        self.occ = occ = bytearray(DECK_SIZE)
        occ[:n] = b"\x01" * n
        self.flips = list(FLIP[:n])
        self.take_list = None
        self._flips_changed()

    # --- "no matches" -------------------------------------------------------------------
    def _declare(self, seat: int, events: list[Event] | None) -> None:
        self.turns += 1
        self.total_turns += 1
        self.declarations += 1
        everyone = self._everyone()
        table = self.table
        for card in table:
            if card != EMPTY:
                self.knows[card] = everyone
        if events is not None:
            shown = {_pos[p]: _fmt[c] for p, c in enumerate(table) if c != EMPTY}
            events.append(Event("declared", {"seat": seat, "table": shown}))
        self.declarer = seat
        if self.game.players == 1:
            self._solitaire_check(seat, events)
            return
        self.spotters = [
            s
            for s in range(self.game.players)
            if s != seat and self.active[s] and not self.out[s] and not self.barred[s]
        ]
        self.claims = None
        if self.spotters:
            self.phase = SPOT
        else:
            if events is not None:
                events.append(Event("nobody_to_spot", {"seat": seat}))
            self._declarer_takes_all(events)

    def _solitaire_check(self, seat: int, events: list[Event] | None) -> None:
        """Alone, the table itself is the spotter: a pair left means the table is not cleared."""
        pair = self.find_pair()
        if pair is None:
            self._declarer_takes_all(events)
            return
        p, q = pair
        self.out[seat] = True
        self.declarer = -1
        if events is not None:
            cards = [_fmt[self.table[p]], _fmt[self.table[q]]]
            events.append(Event("pair_left", {"positions": [_pos[p], _pos[q]], "cards": cards}))
        self._end_round(events)

    def find_pair(self) -> tuple[int, int] | None:
        """Two positions whose cards match (the first in reading order), or None."""
        variables = self.game.variables
        at = [(p, c) for p, c in enumerate(self.table) if c != EMPTY]
        for i, (p, a) in enumerate(at):
            base = a * DECK_SIZE
            for q, b in at[i + 1 :]:
                if variables[base + b] >= MATCH:
                    return p, q
        return None

    def _claim(self, seat: int, pair: tuple[int, int], events: list[Event] | None) -> None:
        p, q = pair
        table = self.table
        a, b = table[p], table[q]
        cards = [_fmt[a], _fmt[b]]
        if self.game.variables[a * DECK_SIZE + b] < MATCH:
            self.barred[seat] = True
            self.spotters.remove(seat)
            if events is not None:
                events.append(
                    Event(
                        "wrong_claim",
                        {"seat": seat, "positions": [_pos[p], _pos[q]], "cards": cards},
                    )
                )
            if not self.spotters:
                self._declarer_takes_all(events)
            return
        table[p] = table[q] = EMPTY
        self.count -= 2
        pile = (self.ppiles if self.playoff else self.piles)[seat]
        pile.append(a)
        pile.append(b)
        declarer = self.declarer
        self.out[declarer] = True
        self._seat_table()
        self.spotters = []
        self.claims = None
        if events is not None:
            events.append(
                Event(
                    "spotted",
                    {
                        "seat": seat,
                        "declarer": declarer,
                        "positions": [_pos[p], _pos[q]],
                        "cards": cards,
                    },
                )
            )
        self.declarer = -1
        if self.count:
            rest = [c for c in table if c != EMPTY]
            self._new_epoch(rest)
            self._lay_out(rest)
            if events is not None:
                events.append(Event("relaid", {"cards": self.count}))
        else:
            self._refresh()
        self.phase = FLIP1  # so that _next_turn can end the round if needed
        self._next_turn(self._next_seat(declarer), events)

    def _new_epoch(self, cards: list[Card]) -> None:
        """``cards`` are laid out afresh: nobody knows their places, and they form one epoch."""
        epoch, knows = self.epoch, self.knows
        new = self.epochs
        self.epochs += 1
        for card in cards:
            epoch[card] = new
            knows[card] = 0

    def _declarer_takes_all(self, events: list[Event] | None) -> None:
        seat = self.declarer
        table = self.table
        cards = [c for c in table if c != EMPTY]
        (self.ppiles if self.playoff else self.piles)[seat].extend(cards)
        self.table = [EMPTY] * self.size
        self.count = 0
        self.spotters = []
        self.claims = None
        self._refresh()
        if events is not None:
            events.append(Event("took_all", {"seat": seat, "cards": _fmt_many(cards)}))
        self.declarer = -1
        self._end_round(events)

    # --- the end ------------------------------------------------------------------------
    def _end_round(self, events: list[Event] | None) -> None:
        players = self.game.players
        self.phase = OVER
        self.first = -1
        if players == 1:
            cleared = self.count == 0 and not self.out[0]
            self._finish([0] if cleared else [], [self.turns], events)
            return
        if self.playoff:
            counts = [len(p) if self.active[s] else -1 for s, p in enumerate(self.ppiles)]
            top = max(counts)
            self._finish([s for s in range(players) if counts[s] == top], self.main_counts, events)
            return
        counts = self.main_counts = [len(p) for p in self.piles]
        top = max(counts)
        leaders = [s for s in range(players) if counts[s] == top]
        pool = [c for s in range(players) if counts[s] < top for c in self.piles[s]]
        if len(leaders) == 1 or not pool:
            self._finish(leaders, counts, events)
            return
        if all(self.out[s] for s in leaders):  # nobody may take a playoff turn
            if events is not None:
                events.append(Event("no_playoff", {"leaders": leaders}))
            self._finish(leaders, counts, events)
            return
        self._start_playoff(leaders, pool, events)

    def _start_playoff(
        self, leaders: list[int], pool: list[Card], events: list[Event] | None
    ) -> None:
        players = self.game.players
        everyone = self._everyone()
        left = [c for c in self.table if c != EMPTY]
        self.set_aside.extend(left)
        # A card some seat cannot place ties its epoch to the new layout: that seat only
        # knows the playoff cards came from the other players' piles (see knowledge.py).
        merged = {self.epoch[c] for c in pool if self.knows[c] != everyone}
        epoch = self.epoch
        new = self.epochs
        if merged:
            for card in range(DECK_SIZE):
                if epoch[card] in merged:
                    epoch[card] = new
        self._new_epoch(pool)
        for s in range(players):
            if s not in leaders:
                self.piles[s] = []
        self.playoff = True
        self.playoffs += 1
        self.leaders = leaders
        self.active = [s in leaders for s in range(players)]
        self._seat_table()  # out and barred seats stay so: no turns, no spotting
        self.turns = 0
        self._lay_out(pool)
        if events is not None:
            out = [s for s in leaders if self.out[s]]
            data = {"leaders": leaders, "cards": len(pool), "set_aside": len(left), "out": out}
            events.append(Event("playoff", data))
        self.turn = next(s for s in self.order if self.active[s] and not self.out[s])
        self.phase = FLIP1

    def _finish(self, winners: list[int], scores: list[int], events: list[Event] | None) -> None:
        self.phase = OVER
        if self.game.players == 1:
            self.result = Results(tuple(winners), (float(scores[0]),), ((0,),))
        else:
            self.result = Results.by_score([float(s) for s in scores], winners)
        if events is not None:
            data = self.result.to_json()
            if self.game.players == 1:
                data["cleared"] = bool(winners)
                data["turns"] = scores[0]
            elif self.playoff:
                data["playoff_cards"] = [len(p) for p in self.ppiles]
            events.append(Event("game_over", data))

    # --- views --------------------------------------------------------------------------
    def _observe(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        players = game.players
        table = self.table
        phase = self.phase
        face_up: dict[str, str | None] = {}
        if phase == FLIP2:
            card = table[self.first]
            face_up[_pos[self.first]] = _fmt[card] if self._shown_up(seat) else None
        elif phase == SPOT:
            face_up = {_pos[p]: _fmt[c] for p, c in enumerate(table) if c != EMPTY}
        return {
            "game": game.name,
            "seat": seat,
            "players": players,
            "order": self.order.copy(),
            "phase": PHASE_NAMES[phase],
            "turn": None if phase == OVER else self.turn,
            "to_act": list(self.to_act()),
            "size": self.size,
            "table": [_pos[p] for p, c in enumerate(table) if c != EMPTY],
            "face_up": face_up,
            "captured": self.main_counts.copy() if self.playoff else [len(p) for p in self.piles],
            "captured_cards": [self._shown_pile(seat, s, p) for s, p in enumerate(self.piles)],
            "bonus_left": self.bonus_left,
            "declarer": self.declarer if self.declarer >= 0 else None,
            "out": [s for s in range(players) if self.out[s]],
            "barred": [s for s in range(players) if self.barred[s]],
            "turns": self.turns,
            "max_turns": game.max_turns,
            "playoff": self.playoff,
            "leaders": self.leaders.copy(),
            "playoff_captured": [len(p) for p in self.ppiles] if self.playoff else None,
            "playoff_cards": (
                [self._shown_pile(seat, s, p) for s, p in enumerate(self.ppiles)]
                if self.playoff
                else None
            ),
            "set_aside": len(self.set_aside),
            "result": self.result.to_json() if self.result else None,
        }

    def _shown_up(self, seat: int | None) -> bool:
        """Whether ``seat`` (None: a spectator) is shown the face of the first card of
        the flip in progress: everyone is with public reveal; with private reveal only
        the seat that turned it, even if another saw that card on an earlier flip of
        its own (RULINGS, revised 2026-11-29: a seat's sightings are its memory)."""
        return not self.game.private or seat == self.turn

    def _shown_pile(self, seat: int | None, owner: int, pile: list[Card]) -> list[str]:
        """The cards of ``owner``'s pile the table shows ``seat``: all of them with public
        reveal and in one's own pile; with private reveal, in another's pile only those
        shown to the whole table (triple bonus cards, a declaration's), not those the
        seat remembers from its own flips (those are in :meth:`recall`)."""
        knows = self.knows
        if not self.game.private or seat == owner:
            bit = 1 << (self.game.players if seat is None else seat)
            return [_fmt[c] for c in pile if knows[c] & bit]
        everyone = self._everyone()
        return [_fmt[c] for c in pile if knows[c] == everyone]

    def recall(self, seat: int) -> dict[str, Any]:
        """What ``seat`` saw of the cards that are not face up now, for bots only.

        ``seen``: every face-down card it has seen, by the position it lies at now:
        a seat's perfect memory, kept through ``swap_on_miss`` swaps (a public move)
        and forgotten when the cards are laid out again (with private reveal, the
        first card of another seat's flip in progress too, when this seat saw it
        before: the table does not show it); ``captured`` and ``playoff_captured``:
        the cards it knows in each seat's pile, in pile order (with private reveal
        more than the observation shows of other piles); ``aside``: the cards it
        knows among those set aside for a playoff.  Never part of an observation:
        remembering is the players' game.

        For building a world from the view (``Game.world_from_view``) it also holds
        what the seat worked out about the cards it cannot place, naming the places
        as :meth:`places` does: ``unplaced``, each group of them that can stand in for
        each other (an epoch: ``cards``, in card order, and the places ``at`` that hold
        them); ``constraints``, the matches and misses it watched without seeing the
        cards (``[place, place, kind]``, in order); and ``known_by``, who else knows
        the card at each place (a bitmask of seats, and the spectators' bit), as the
        flips everyone saw tell.
        """
        if not 0 <= seat < self.game.players:
            raise IllegalActionError(f"there is no seat {seat!r}")
        bit = 1 << seat
        knows = self.knows
        seen: dict[str, str] = {}
        if self.phase != SPOT:  # while spotting every card is face up
            # A face-up card the observation shows is not repeated here; one it hides
            # (another seat's private flip) is, if this seat saw it before.
            up = self.first if self.phase == FLIP2 and self._shown_up(seat) else EMPTY
            seen = {
                _pos[p]: _fmt[c]
                for p, c in enumerate(self.table)
                if c != EMPTY and knows[c] & bit and p != up
            }
        places = self.places(bit)
        where = {card: place for place, card in places}
        groups: dict[int, tuple[list[Card], list[str]]] = {}
        for place, card in places:
            if not knows[card] & bit:
                cards, at = groups.setdefault(self.epoch[card], ([], []))
                cards.append(card)
                at.append(place)
        return {
            "seen": seen,
            "captured": [[_fmt[c] for c in p if knows[c] & bit] for p in self.piles],
            "playoff_captured": [[_fmt[c] for c in p if knows[c] & bit] for p in self.ppiles],
            "aside": [_fmt[c] for c in self.set_aside if knows[c] & bit],
            "unplaced": [
                {"cards": _fmt_many(sorted(cards)), "at": at}
                for _epoch, (cards, at) in sorted(groups.items())
            ],
            "constraints": [[where[a], where[b], kind] for a, b, kind in self.constraints],
            "known_by": {place: knows[c] & ~bit for place, c in places if knows[c] & ~bit},
        }

    def places(self, bit: int) -> list[tuple[str, Card]]:
        """Every card with the place a seat (``bit``) can name it by: a table position
        (``A1``), or the ``k``-th card of a seat's pile (``pile:S:k``), its playoff pile
        (``playoff:S:k``) or the cards set aside (``aside:k``), counting in each the
        cards the seat knows first, then the others (their order in a pile is no news)."""
        knows = self.knows
        out = [(_pos[p], c) for p, c in enumerate(self.table) if c != EMPTY]
        named = [
            *((f"pile:{s}", pile) for s, pile in enumerate(self.piles)),
            *((f"playoff:{s}", pile) for s, pile in enumerate(self.ppiles)),
            ("aside", self.set_aside),
        ]
        for name, pile in named:
            ordered = sorted(pile, key=lambda c: not knows[c] & bit)
            out.extend((f"{name}:{k}", c) for k, c in enumerate(ordered))
        return out

    def stats(self) -> dict[str, float]:
        return {
            "turns": self.total_turns,
            "declarations": self.declarations,
            "playoffs": self.playoffs,
        }

    def dump(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "stacks": [_fmt_many(s) for s in self.stacks],
            "order": self.order.copy(),
            "table": [_fmt[c] if c != EMPTY else None for c in self.table],
            "size": self.size,
            "count": self.count,
            "knows": self.knows.copy(),
            "epoch": self.epoch.copy(),
            "epochs": self.epochs,
            "constraints": [(_fmt[a], _fmt[b], k) for a, b, k in self.constraints],
            "piles": [_fmt_many(p) for p in self.piles],
            "ppiles": [_fmt_many(p) for p in self.ppiles],
            "main_counts": self.main_counts.copy(),
            "set_aside": _fmt_many(self.set_aside),
            "out": self.out.copy(),
            "barred": self.barred.copy(),
            "active": self.active.copy(),
            "spotters": self.spotters.copy(),
            "declarer": self.declarer,
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "first": self.first,
            "bonus_left": self.bonus_left,
            "turns": self.turns,
            "total_turns": self.total_turns,
            "declarations": self.declarations,
            "playoff": self.playoff,
            "playoffs": self.playoffs,
            "leaders": self.leaders.copy(),
            "result": self.result.to_json() if self.result else None,
            "history": [(s, list(a)) for s, a in self.history],
        }

    # --- search support -----------------------------------------------------------------
    def clone(self) -> MemoMatchState:
        twin = MemoMatchState.__new__(MemoMatchState)
        twin._copy_base(self)
        twin.rng = self.rng.clone()
        twin.stacks = [s.copy() for s in self.stacks]
        twin.order = self.order
        twin.see = self.see
        twin.knows = self.knows.copy()
        twin.epoch = self.epoch.copy()
        twin.epochs = self.epochs
        twin.constraints = self.constraints.copy()
        twin.piles = [p.copy() for p in self.piles]
        twin.ppiles = [p.copy() for p in self.ppiles]
        twin.main_counts = self.main_counts.copy()
        twin.set_aside = self.set_aside.copy()
        twin.out = self.out.copy()
        twin.barred = self.barred.copy()
        twin.active = self.active.copy()
        twin.spotters = self.spotters.copy()
        twin.claims = self.claims
        twin.declarer = self.declarer
        twin.turn = self.turn
        twin.phase = self.phase
        twin.first = self.first
        twin.bonus_left = self.bonus_left
        twin.turns = self.turns
        twin.total_turns = self.total_turns
        twin.declarations = self.declarations
        twin.playoff = self.playoff
        twin.playoffs = self.playoffs
        twin.leaders = self.leaders.copy()
        twin.result = self.result
        twin.table = self.table.copy()
        twin.size = self.size
        twin.count = self.count
        twin.acts1 = self.acts1
        twin.nxt = self.nxt
        twin.take_list = self.take_list
        twin.occ = self.occ
        twin.at = self.at
        twin.flips = self.flips
        return twin

    def resample(self, seat: int, rng: Rng) -> MemoMatchState:
        """Every card ``seat`` cannot place is swapped for another it could be.

        Cards only trade with cards of their epoch (laid out together, or known to
        be among the same ones), and every match or miss the seat watched without
        seeing the cards still holds (``knowledge.relabeling``).  Everything the
        seat has seen stays where it is, so its observation is unchanged.
        """
        twin = self.clone()
        twin.rng = Rng(rng.bits())
        twin.stacks = []
        if self.phase == OVER:
            return twin
        bit = 1 << seat
        knows = self.knows
        movable = [not k & bit for k in knows]
        # The piles with the cards the seat knows first, as a world built from the view
        # has them (Game.world_from_view): both then deal alike.
        for piles in (twin.piles, twin.ppiles, [twin.set_aside]):
            for pile in piles:
                pile.sort(key=lambda c: not knows[c] & bit)
        location = [0] * DECK_SIZE  # where each card lies, as the seat can name it
        for number, (_place, card) in enumerate(twin.places(bit)):
            location[card] = number
        perm = relabeling(movable, self.epoch, self.constraints, self.game.variables, rng, location)
        twin.table = [perm[c] if c != EMPTY else EMPTY for c in self.table]
        twin.piles = [[perm[c] for c in p] for p in twin.piles]
        twin.ppiles = [[perm[c] for c in p] for p in twin.ppiles]
        twin.set_aside = [perm[c] for c in twin.set_aside]
        knows = [0] * DECK_SIZE
        epoch = [0] * DECK_SIZE
        for card in range(DECK_SIZE):
            knows[perm[card]] = self.knows[card]
            epoch[perm[card]] = self.epoch[card]
        twin.knows = knows
        twin.epoch = epoch
        twin.constraints = [(perm[a], perm[b], k) for a, b, k in self.constraints]
        return twin
