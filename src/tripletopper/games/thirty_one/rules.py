"""Thirty-One with organs: the rules engine (RULINGS §5; players' page rules/thirty-one.md).

Two to nine players hold three standard cards each.  On a turn a player draws
from the stock or takes the top discard and then discards, or knocks; after a
knock everyone else has one more turn and the hands are compared.  A 31 ends
the hand at once.  Losing costs organs (liver, then kidneys, then heart), then
a player is *circling the drain*, and one more loss puts them out.  The last
player left wins.

Cards are ints of :mod:`tripletopper.cards.standard`; actions are tuples:
``("draw",)``, ``("take",)``, ``("knock",)``, ``("stop",)``,
``("discard", card, declare)`` and, right after a deal, ``("play",)`` and
``("declare",)``.

Order of events in a hand:

1. The deal.  With ``manual_31`` every player then answers ``play`` or
   ``declare`` (everyone is asked, so the question tells nothing); otherwise a
   dealt 31 is shown at once and its holder's only action is ``declare``.  If
   anyone declared, the hand ends: every other player loses one life.
2. Turns from the dealer's left.  A discard that leaves 31 declares it (at once,
   or with ``discard X declare`` under ``manual_31``): the hand ends and every
   other player, the knocker included, loses one life.
3. A knock: every other player has one more turn, then the showdown.  With the
   stock empty a player may only take the top discard or stop; a stop ends the
   hand and shows it down (with the knocker rules if someone knocked).
4. The settlement: lives are lost, unless every player still in would be out,
   which makes the hand void: nobody loses and the same dealer deals again.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from tripletopper.cards.deck import Card
from tripletopper.cards.standard import STANDARD
from tripletopper.engine import (
    Action,
    ActionCodec,
    ActionKind,
    CardParam,
    Event,
    FlagParam,
    Game,
    Option,
    Results,
    Rng,
    State,
    Stock,
)
from tripletopper.errors import InvalidOptionError
from tripletopper.games.thirty_one.narration import describe_event
from tripletopper.games.thirty_one.scoring import (
    DEAD_31,
    DEALT_31,
    DECLARED_31,
    START_LIVES,
    THIRTY_ONE,
    THREE_OF_A_KIND_CHOICES,
    format_value,
    is_31,
    organs_left,
    organs_lost,
    showdown_losses,
    thirty_one_losses,
    value3,
    value3_trips,
)

TAKE: Action = ("take",)
DRAW: Action = ("draw",)
KNOCK: Action = ("knock",)
STOP: Action = ("stop",)
PLAY: Action = ("play",)
DECLARE: Action = ("declare",)
DISCARD: tuple[Action, ...] = tuple(("discard", card, False) for card in range(52))
DISCARD_DECLARE: tuple[Action, ...] = tuple(("discard", card, True) for card in range(52))

# Legal lists of a turn, shared (the contract says callers treat them as read-only).
_TURN_OPEN = [TAKE, DRAW, KNOCK]
_TURN_KNOCKED = [TAKE, DRAW]
_TURN_EMPTY = [TAKE, STOP]
_CHECK_ANY = [PLAY, DECLARE]
_CHECK_PLAY = [PLAY]
_CHECK_DECLARE = [DECLARE]

FULL_DECK = tuple(range(52))
MAX_PLAYERS = 9
_ALONE = tuple((seat,) for seat in range(MAX_PLAYERS))
CHECK, TURN, DISCARD_PHASE, OVER = 0, 1, 2, 3
PHASE_NAMES = ("check", "turn", "discard", "over")

_fmt = STANDARD.names


def _cards(cards: Iterable[Card]) -> list[str]:
    return [_fmt[c] for c in cards]


class ThirtyOne(Game):
    """Thirty-One with organs for 2-9 players (options: see ``options_schema``)."""

    name = "thirty-one"
    title = "Thirty-One"
    min_players = 2
    max_players = MAX_PLAYERS
    deck = STANDARD
    options_schema = (
        Option(
            "three_of_a_kind", "choice", "none",
            "none: three of a kind is worth its best suit like any hand; "
            "30.5: three cards of one rank are worth 30.5 (beaten only by 31)",
            choices=THREE_OF_A_KIND_CHOICES,
        ),
        Option(
            "manual_31", "bool", False,
            "31 must be declared by its holder (with 'declare' after the deal or "
            "'discard X declare'); an undeclared 31 counts 30 (off: declared automatically)",
        ),
    )  # fmt: skip
    codec = ActionCodec(
        [
            ActionKind("take", (), "take the top discard, then discard one of your other cards"),
            ActionKind("draw", (), "draw the top of the stock, then discard any card"),
            ActionKind("knock", (), "end your turn now; everyone else gets one more turn"),
            ActionKind("stop", (), "the stock is empty: end the hand and show down"),
            ActionKind(
                "discard",
                (CardParam("card", STANDARD), FlagParam("declare")),
                "discard a card (with manual_31, add 'declare' to declare the 31 it leaves)",
            ),
            ActionKind("play", (), "after the deal: play the hand (declare nothing)"),
            ActionKind("declare", (), "after the deal: declare the 31 you were dealt"),
        ]
    )
    setup_keys = ("dealer",)

    def __init__(self, players: int, **options: object) -> None:
        super().__init__(players, **options)
        self.trips = self.options["three_of_a_kind"] == "30.5"
        self.manual = bool(self.options["manual_31"])
        self.value3 = value3_trips if self.trips else value3

    def value(self, hand: Sequence[Card]) -> float:
        """A three-card hand's value under this game's options (``hand_value`` for notation)."""
        return self.value3(hand[0], hand[1], hand[2])

    def new_state(
        self, seed: int = 0, *, decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> ThirtyOneState:  # fmt: skip
        self.check_setup(setup)
        dealer = setup.get("dealer")
        if dealer is not None and (
            not isinstance(dealer, int) or isinstance(dealer, bool)
            or not 0 <= dealer < self.players
        ):  # fmt: skip
            raise InvalidOptionError(f"dealer must be a seat from 0 to {self.players - 1}")
        stacks = self.parse_decks(decks)
        origin = {"seed": seed, "decks": [_cards(d) for d in stacks] or None, "setup": setup}
        return ThirtyOneState(self, seed, stacks, dealer, origin)

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind == "discard":
            text = f"discard {_fmt[action[1]]}"
            return text + " and declare 31" if action[2] else text
        return {
            "take": "take the top discard",
            "draw": "draw from the stock",
            "knock": "knock",
            "stop": "stop (the stock is empty)",
            "play": "play the hand",
            "declare": "declare a dealt 31",
        }[kind]

    def describe_event(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        return describe_event(event, names)


class ThirtyOneState(State):
    __slots__ = (
        "alive", "dealer", "declared", "elim_hand", "hand_no", "hands", "knocker", "knocks",
        "last", "lives", "nxt", "pending", "phase", "pile", "public", "result", "rng",
        "seats_in", "stacks", "stock", "stops", "taken", "thirty_ones", "turn", "turns",
        "turns_before", "voids",
    )  # fmt: skip

    game: ThirtyOne

    def __init__(
        self, game: ThirtyOne, seed: int, stacks: list[list[Card]], dealer: int | None,
        origin: dict[str, Any],
    ) -> None:  # fmt: skip
        self._init_base(game, origin)
        players = game.players
        self.rng = Rng(seed)
        self.stacks = stacks
        self.lives = [START_LIVES] * players
        self.elim_hand = [0] * players
        self.seats_in = list(range(players))
        self.alive = [True] * players
        self.nxt = [(seat + 1) % players for seat in range(players)]
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock = Stock()
        self.pile: list[Card] = []
        self.public: set[Card] = set()
        """Cards in hands that everyone has seen go there (taken from the pile, or shown)."""
        self.pending: list[int] = []
        """Seats yet to answer after the deal (play or declare)."""
        self.declared: list[int] = []
        """Seats that declared a dealt 31 this hand."""
        self.hand_no = 0
        self.turns = 0
        self.turns_before = 0
        self.turn = 0
        self.phase = TURN
        self.taken = -1
        self.knocker = -1
        self.knocks = self.stops = self.thirty_ones = self.voids = 0
        self.last: Settlement | None = None
        self.result: Results | None = None
        self.dealer = self.rng.below(players) if dealer is None else dealer
        self._start_hand(None, same_dealer=True)

    # --- the contract -------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == TURN or phase == DISCARD_PHASE:  # noqa: SIM109 - faster than a tuple
            return _ALONE[self.turn]
        if phase == CHECK:
            return tuple(self.pending)
        return ()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def results(self) -> Results | None:
        return self.result

    def _legal_for(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == TURN:
            if seat != self.turn:
                return []
            if self.stock.size:
                return _TURN_OPEN if self.knocker < 0 else _TURN_KNOCKED
            return _TURN_EMPTY
        if phase == DISCARD_PHASE:
            return self._discards(seat) if seat == self.turn else []
        if phase == CHECK and seat in self.pending:
            return self._legal_actions(seat)
        return []

    def _legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == TURN:
            if self.stock.size:
                return _TURN_OPEN if self.knocker < 0 else _TURN_KNOCKED
            return _TURN_EMPTY
        if phase == DISCARD_PHASE:
            return self._discards(seat)
        hand = self.hands[seat]
        if not self.game.manual:
            return _CHECK_DECLARE
        return _CHECK_ANY if is_31(hand[0], hand[1], hand[2]) else _CHECK_PLAY

    def _discards(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        taken = self.taken
        acts = [DISCARD[card] for card in hand if card != taken]
        if self.game.manual:
            # Keeping the fourth card (the one just drawn or taken) makes a new hand;
            # throwing it back keeps the old one, whose 31 (if any) was not declared.
            a, b, c, d = hand
            for card, x, y in ((a, b, c), (b, a, c), (c, a, b)):
                if is_31(x, y, d):
                    acts.append(DISCARD_DECLARE[card])
        return acts

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        kind = action[0]
        if kind == "discard":
            card = action[1]
            hand = self.hands[seat]
            hand.remove(card)
            self.pile.append(card)
            self.taken = -1
            if card in self.public:
                self.public.discard(card)
            if events is not None:
                events.append(Event("discarded", {"seat": seat, "card": _fmt[card]}))
            if action[2] or (not self.game.manual and is_31(hand[0], hand[1], hand[2])):
                self._declared_31([seat], False, events)
            else:
                self._end_turn(events)
        elif kind == "draw":
            card = self.stock.draw(self.rng)
            self.hands[seat].append(card)
            self.phase = DISCARD_PHASE
            if events is not None:
                events.append(Event("drew", {"seat": seat}, {seat: {"card": _fmt[card]}}))
        elif kind == "take":
            card = self.pile.pop()
            self.hands[seat].append(card)
            self.public.add(card)
            self.taken = card
            self.phase = DISCARD_PHASE
            if events is not None:
                events.append(Event("took", {"seat": seat, "card": _fmt[card]}))
        elif kind == "knock":
            self.knocker = seat
            self.knocks += 1
            if events is not None:
                events.append(Event("knocked", {"seat": seat}))
            self._end_turn(events)
        elif kind == "stop":
            self.stops += 1
            if events is not None:
                events.append(Event("stopped", {"seat": seat}))
            self._showdown("stop", seat, events)
        else:  # play or declare, after the deal
            self.pending.remove(seat)
            if kind == "declare":
                self.declared.append(seat)
                hand = self.hands[seat]
                self.public.update(hand)
                if events is not None:
                    events.append(
                        Event("declared", {"seat": seat, "cards": _cards(hand), "dealt": True})
                    )
            elif events is not None:
                events.append(Event("played", {"seat": seat}))
            if not self.pending:
                if self.declared:
                    self._declared_31(self.declared, True, events)
                else:
                    self.phase = TURN

    def _explain_illegal(self, seat: int, action: Action) -> str | None:
        kind = action[0]
        game = self.game
        if seat < 0:
            return "Thirty-One has no table actions"
        hand = self.hands[seat]
        phase = self.phase
        if phase == CHECK:
            if kind == "play":
                return "a dealt 31 is declared automatically (manual_31 is off)"
            if kind == "declare":
                return f"your hand is worth {format_value(game.value(hand))}, not 31"
            return "first everyone looks at the dealt cards: play the hand or declare a 31"
        if kind in ("play", "declare"):
            return "a dealt 31 is declared right after the deal, before anyone plays"
        if phase == TURN:
            if kind == "discard":
                return "draw from the stock or take the top discard before discarding"
            if not self.stock.size:
                return "the stock is empty: take the top discard or stop"
            if kind == "knock":
                return f"seat {self.knocker} has already knocked this hand"
            if kind == "stop":
                return "you may stop only when the stock is empty"
            return None
        if kind != "discard":
            return "you hold four cards: discard one first"
        card = action[1]
        if card not in hand:
            return f"{_fmt[card]} is not in your hand"
        if card == self.taken:
            return "you must keep the card you took from the discard pile"
        if not game.manual:
            return "31 is declared automatically in this game (manual_31 is off)"
        kept = [c for c in hand if c != card]
        if is_31(kept[0], kept[1], kept[2]):
            return "that 31 was not declared when you made it: it counts 30 now"
        return f"discarding {_fmt[card]} leaves {format_value(game.value(kept))}, not 31"

    def default_action(self, seat: int) -> Action:
        """Draw (or stop, with the stock empty); discard for the best hand; declare a 31."""
        legal = self.legal_actions(seat)
        if self.phase == CHECK:
            return DECLARE if DECLARE in legal else PLAY
        if self.phase == TURN:
            return DRAW if DRAW in legal else STOP
        hand = self.hands[seat]
        value = self.game.value
        return max(legal, key=lambda a: (a[2], value([c for c in hand if c != a[1]])))

    # --- the flow of a hand ---------------------------------------------------------
    def _start_hand(self, events: list[Event] | None, same_dealer: bool = False) -> None:
        players = self.game.players
        alive = self.alive
        if not same_dealer:
            dealer = (self.dealer + 1) % players
            while not alive[dealer]:
                dealer = (dealer + 1) % players
            self.dealer = dealer
        self.hand_no += 1
        self.stock.gather(FULL_DECK, self.stacks.pop(0) if self.stacks else None)
        hands: list[list[Card]] = [[] for _ in range(players)]
        order = self._order_from(self.dealer, include=True)
        self.stock.deal(self.rng, [hands[seat] for seat in order], 3)
        self.hands = hands
        self.pile = [self.stock.draw(self.rng)]
        if self.public:
            self.public.clear()
        self.turn = order[0]
        self.turns_before = self.turns
        self.taken = -1
        self.knocker = -1
        self.declared = []
        self.phase = TURN
        dealt_31 = [s for s in order if is_31(hands[s][0], hands[s][1], hands[s][2])]
        if self.game.manual:
            self.phase = CHECK
            self.pending = order.copy()
        elif dealt_31:
            self.phase = CHECK
            self.pending = dealt_31
            for seat in dealt_31:  # shown at once: the holders can only declare
                self.public.update(hands[seat])
        if events is not None:
            data: dict[str, Any] = {
                "hand": self.hand_no,
                "dealer": self.dealer,
                "seats": self.seats_in.copy(),
                "face_up": _fmt[self.pile[0]],
            }
            if dealt_31 and not self.game.manual:
                data["dealt_31"] = [{"seat": s, "cards": _cards(hands[s])} for s in dealt_31]
            secret = {seat: {"cards": _cards(hands[seat])} for seat in order}
            events.append(Event("hand_started", data, secret))

    def _order_from(self, seat: int, include: bool = False) -> list[int]:
        """The seats in the game from ``seat``'s left round the table (``seat`` last if
        ``include``)."""
        order = []
        nxt = self.nxt
        other = nxt[seat]
        while other != seat:
            order.append(other)
            other = nxt[other]
        if include:
            order.append(seat)
        return order

    def _end_turn(self, events: list[Event] | None) -> None:
        nxt = self.nxt[self.turn]
        self.turns += 1
        if nxt == self.knocker:
            self._showdown("knock", -1, events)
        else:
            self.turn = nxt
            self.phase = TURN

    def _showdown(self, ended_by: str, stopper: int, events: list[Event] | None) -> None:
        """Every hand is shown; the lowest loses (with the knocker's rules if one knocked)."""
        order = self._order_from(self.dealer, include=True)
        value = self.game.value
        hands = self.hands
        values = [0.0] * self.game.players
        counts = [0.0] * self.game.players
        for seat in order:
            values[seat] = points = value(hands[seat])
            counts[seat] = DEAD_31 if points == THIRTY_ONE else points  # never declared
        losses, saved = showdown_losses(order, counts, self.knocker)
        shown = [(s, hands[s].copy(), values[s], counts[s]) for s in order]
        self._settle(ended_by, stopper, [], shown, losses, saved, events)

    def _declared_31(self, seats: list[int], dealt: bool, events: list[Event] | None) -> None:
        """31 was declared (or dealt): everyone else loses one life."""
        self.thirty_ones += 1
        hands = self.hands
        if events is not None and not dealt:
            seat = seats[0]
            events.append(
                Event("declared", {"seat": seat, "cards": _cards(hands[seat]), "dealt": False})
            )
        order = self._order_from(self.dealer, include=True)
        losses = thirty_one_losses(order, seats, DEALT_31 if dealt else DECLARED_31)
        shown: list[tuple[int, list[Card], float, float]] = [
            (s, hands[s].copy(), THIRTY_ONE, THIRTY_ONE) for s in seats
        ]
        self._settle("dealt_31" if dealt else "31", -1, seats, shown, losses, [], events)

    def _settle(
        self, ended_by: str, stopper: int, declarers: list[int],
        shown: list[tuple[int, list[Card], float, float]], losses: list[tuple[int, int, str]],
        saved: list[int], events: list[Event] | None,
    ) -> None:  # fmt: skip
        lives = self.lives
        after = lives.copy()
        for seat, lost, _reason in losses:
            after[seat] = max(0, after[seat] - lost)
        void = all(after[s] == 0 for s in self.seats_in)
        eliminated = [] if void else [s for s in self.seats_in if after[s] == 0]
        entries = [(s, n, reason, lives[s], after[s]) for s, n, reason in losses]
        if void:
            self.voids += 1
        else:
            self.lives = after
        self.last = Settlement(
            self.hand_no, ended_by, self.knocker, stopper, declarers, shown, entries, saved,
            void, self.lives.copy(), eliminated,
        )  # fmt: skip
        if events is not None:
            events.append(Event("hand_over", self.last.to_json()))
        if eliminated:
            for seat in eliminated:
                self.alive[seat] = False
                self.elim_hand[seat] = self.hand_no
            self.seats_in = [s for s in self.seats_in if self.alive[s]]
            seats = self.seats_in
            for i, seat in enumerate(seats):
                self.nxt[seat] = seats[(i + 1) % len(seats)]
            if len(seats) == 1:
                self._end_game(events)
                return
        self._start_hand(events, same_dealer=void)

    def _end_game(self, events: list[Event] | None) -> None:
        winner = self.seats_in[0]
        by_hand: dict[int, list[int]] = {}
        for seat in range(self.game.players):
            if seat != winner:
                by_hand.setdefault(self.elim_hand[seat], []).append(seat)
        ranking = ((winner,), *(tuple(by_hand[h]) for h in sorted(by_hand, reverse=True)))
        self.result = Results((winner,), tuple(float(x) for x in self.lives), ranking)
        self.phase = OVER
        if events is not None:
            events.append(Event("game_over", self.result.to_json()))

    # --- views ------------------------------------------------------------------------
    def _observe(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        hands = self.hands
        public = self.public
        lives = self.lives
        players = range(game.players)
        obs: dict[str, Any] = {
            "game": game.name,
            "seat": seat,
            "players": game.players,
            "hand_number": self.hand_no,
            "hand_turns": self.turns - self.turns_before,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn if self.phase in (TURN, DISCARD_PHASE) else None,
            "to_act": list(self.to_act()),
            "lives": lives.copy(),
            "organs": [organs_left(lives[s]) for s in players],
            "circling_the_drain": [s for s in players if lives[s] == 1],
            "out": [s for s in players if not lives[s]],
            "kitty": sum(min(3, START_LIVES - lives[s]) for s in players),
            "in_hand": self.seats_in.copy(),
            "knocker": self.knocker if self.knocker >= 0 else None,
            "discard_pile": _cards(self.pile),
            "stock_size": self.stock.size,
            "hand_sizes": [len(h) for h in hands],
            "known": [[_fmt[c] for c in hand if c in public] for hand in hands],
            "taken": _fmt[self.taken] if self.taken >= 0 else None,
            "declared": self.declared.copy(),
            "last_hand": self.last.to_json() if self.last else None,
            "result": self.result.to_json() if self.result else None,
        }
        if seat is not None and self.phase != OVER and self.alive[seat]:
            hand = hands[seat]
            obs["hand"] = _cards(hand)
            if len(hand) == 3:
                obs["value"] = value = game.value(hand)
                declarable = self.phase == CHECK and seat in self.pending
                obs["counts"] = DEAD_31 if value == THIRTY_ONE and not declarable else value
        return obs

    def stats(self) -> dict[str, float]:
        return {
            "hands": self.hand_no,
            "turns": self.turns,
            "knocks": self.knocks,
            "thirty_ones": self.thirty_ones,
            "stops": self.stops,
            "void_hands": self.voids,
        }

    def dump(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "stacks": [_cards(s) for s in self.stacks],
            "lives": self.lives.copy(),
            "elim_hand": self.elim_hand.copy(),
            "seats_in": self.seats_in.copy(),
            "alive": self.alive.copy(),
            "nxt": self.nxt.copy(),
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "hands": [_cards(h) for h in self.hands],
            "stock": _cards(self.stock.contents()),
            "stock_array": _cards(self.stock.cards),
            "stock_ordered": self.stock.ordered,
            "pile": _cards(self.pile),
            "public": sorted(_cards(self.public)),
            "pending": self.pending.copy(),
            "declared": self.declared.copy(),
            "turn": self.turn,
            "turns": self.turns,
            "turns_before": self.turns_before,
            "phase": PHASE_NAMES[self.phase],
            "taken": self.taken,
            "knocker": self.knocker,
            "counts": [self.knocks, self.stops, self.thirty_ones, self.voids],
            "last": self.last.to_json() if self.last else None,
            "result": self.result.to_json() if self.result else None,
            "history": [(s, list(a)) for s, a in self.history],
        }

    # --- search support ---------------------------------------------------------------
    def clone(self) -> ThirtyOneState:
        twin = ThirtyOneState.__new__(ThirtyOneState)
        twin._copy_base(self)
        twin.rng = self.rng.clone()
        twin.stacks = [s.copy() for s in self.stacks]
        twin.lives = self.lives.copy()
        twin.elim_hand = self.elim_hand.copy()
        twin.seats_in = self.seats_in.copy()
        twin.alive = self.alive.copy()
        twin.nxt = self.nxt.copy()
        twin.hands = [h.copy() for h in self.hands]
        twin.stock = self.stock.clone()
        twin.pile = self.pile.copy()
        twin.public = self.public.copy()
        twin.pending = self.pending.copy()
        twin.declared = self.declared.copy()
        twin.hand_no = self.hand_no
        twin.turns = self.turns
        twin.turns_before = self.turns_before
        twin.turn = self.turn
        twin.phase = self.phase
        twin.taken = self.taken
        twin.knocker = self.knocker
        twin.knocks = self.knocks
        twin.stops = self.stops
        twin.thirty_ones = self.thirty_ones
        twin.voids = self.voids
        twin.last = self.last
        twin.result = self.result
        twin.dealer = self.dealer
        return twin

    def resample(self, seat: int, rng: Rng) -> ThirtyOneState:
        """Redeal the stock and the other hands' unseen cards, as ``seat`` could imagine them.

        Cards everyone saw go into a hand (taken from the pile, or a declared 31)
        stay put.  Without ``manual_31`` nobody can be holding an undeclared 31 (it
        would have been declared), so deals that give one are drawn again.  (Older
        non-31 hands of a player are not checked: a slight approximation.)
        """
        twin = self.clone()
        twin.rng = Rng(rng.bits())
        twin.stacks = []
        twin.stock.unstack()
        if self.phase == OVER:
            return twin
        public = self.public
        slots: list[tuple[int, int]] = []
        pool: list[Card] = twin.stock.contents()
        for other in self.seats_in:
            if other == seat:
                continue
            for i, card in enumerate(self.hands[other]):
                if card not in public:
                    slots.append((other, i))
                    pool.append(card)
        check = [] if self.game.manual else sorted({other for other, _ in slots})
        hands = twin.hands
        for _attempt in range(100):
            rng.shuffle(pool)
            for (other, i), card in zip(slots, pool, strict=False):
                hands[other][i] = card
            if not any(is_31(hands[o][0], hands[o][1], hands[o][2]) for o in check):
                break
        twin.stock.replace(pool[len(slots) :])
        return twin


class Settlement(NamedTuple):
    """How a hand ended and who lost what; kept raw, turned into JSON when shown.

    ``shown`` holds ``(seat, cards, value, counts)`` of the hands laid open (all
    of them at a showdown, the declarers' after a 31); ``counts`` is what the hand
    counted (an undeclared 31 counts 30).  ``losses`` holds ``(seat, lives the
    rules take, reason, lives before, lives after)``: with ``void`` nothing was
    taken.
    """

    hand: int
    ended_by: str
    knocker: int
    stopper: int
    declarers: list[int]
    shown: list[tuple[int, list[Card], float, float]]
    losses: list[tuple[int, int, str, int, int]]
    saved: list[int]
    void: bool
    lives: list[int]
    eliminated: list[int]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": self.hand,
            "ended_by": self.ended_by,
            "knocker": self.knocker if self.knocker >= 0 else None,
        }
        if self.stopper >= 0:
            out["stopper"] = self.stopper
        if self.declarers:
            out["declarers"] = list(self.declarers)
        out["shown"] = [
            {"seat": s, "cards": _cards(cards), "value": value, "counts": counts}
            for s, cards, value, counts in self.shown
        ]
        if self.ended_by in ("knock", "stop"):
            out["lowest"] = min(counts for _s, _c, _v, counts in self.shown)
        out["losses"] = [
            {
                "seat": s,
                "lives": n,
                "reason": reason,
                "organs": organs_lost(before, after),
                "circling_the_drain": after == 1,
                "out": after == 0,
            }
            for s, n, reason, before, after in self.losses
        ]
        out["saved"] = list(self.saved)
        out["void"] = self.void
        out["lives"] = list(self.lives)
        out["eliminated"] = list(self.eliminated)
        return out
