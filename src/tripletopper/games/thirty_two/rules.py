"""Thirty-Two: the rules engine (the rules it plays: rules/thirty-two.md).

Three to six players hold three Triple Topper cards each.  On a turn a player
takes the face-up discard or draws from the stock and then discards, or knocks;
after a knock everyone else has one more turn and hands are compared with the
knocker's.  A Thirty-two may be declared, which ends the hand at once.  Counters
change hands at every settlement (``scoring.knock_payments``,
``scoring.declare_payments``); the game ends after the hand in which someone
runs out, unless the lead is shared or an owed player could still catch the
leader: then those players play on (``scoring.contenders``).  With
``end=open`` the table plays on instead.

The discard pile is squared: an observation names its top card and its size
only.  Every discard is public when it is made (a ``discarded`` event), so
remembering the rest of the pile is up to the player.

Cards are ints of :mod:`tripletopper.cards.triple_topper`; actions are tuples:
``("take",)``, ``("draw",)``, ``("knock",)``, ``("declare",)``,
``("discard", card, declare)`` and, for an open-ended table, ``("close",)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from tripletopper.cards.deck import Card
from tripletopper.cards.triple_topper import TRIPLE_TOPPER, WILDS
from tripletopper.engine import (
    TABLE,
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
from tripletopper.games.draw_odds import draw_hints
from tripletopper.games.thirty_two.narration import describe_event
from tripletopper.games.thirty_two.scoring import (
    NVALUE,
    THIRTY_TWO,
    Payment,
    contenders,
    declare_payments,
    knock_payments,
    raw_plain,
    raw_wild,
)
from tripletopper.games.thirty_two.world import build_world, deal_unseen
from tripletopper.games.worlds import ShownSettlement

TAKE: Action = ("take",)
DRAW: Action = ("draw",)
KNOCK: Action = ("knock",)
DECLARE: Action = ("declare",)
CLOSE: Action = ("close",)
DISCARD: tuple[Action, ...] = tuple(("discard", card, False) for card in range(125))
DISCARD_DECLARE: tuple[Action, ...] = tuple(("discard", card, True) for card in range(125))

FULL_DECK = tuple(range(125))
MAX_PLAYERS = 6
_ALONE = tuple((seat,) for seat in range(MAX_PLAYERS))
TURN, DISCARD_PHASE, OVER = 0, 1, 2
PHASE_NAMES = ("turn", "discard", "over")

_fmt = TRIPLE_TOPPER.names


def _cards(cards: Iterable[Card]) -> list[str]:
    return [_fmt[c] for c in cards]


class ThirtyTwo(Game):
    """Thirty-Two for 3-6 players (options: see ``options_schema``)."""

    name = "thirty-two"
    title = "Thirty-Two"
    min_players = 3
    max_players = MAX_PLAYERS
    deck = TRIPLE_TOPPER
    options_schema = (
        Option(
            "counters",
            "int",
            lambda players: 2 * players,
            "counters each player starts with",
            minimum=1,
            maximum=100_000,
            default_text="2 x players",
        ),
        Option(
            "no_wilds",
            "bool",
            False,
            "the no-wilds variation: black, blob and ? are plain values worth 5",
        ),
        Option(
            "cap_at_32",
            "bool",
            True,
            "scores are capped at 32 (off: raw points are compared)",
        ),
        Option(
            "end",
            "choice",
            "first_elimination",
            "first_elimination: the game ends after the hand in which someone runs out; "
            "open: play on until one player holds every counter or the table is closed",
            choices=("first_elimination", "open"),
        ),
    )
    codec = ActionCodec(
        [
            ActionKind(
                "take", (), "take the face-up discard, then discard one of your other cards"
            ),
            ActionKind("draw", (), "draw the top of the stock, then discard any card"),
            ActionKind("knock", (), "end your turn now; everyone else gets one more turn"),
            ActionKind("declare", (), "declare your Thirty-two (ends the hand)"),
            ActionKind(
                "discard",
                (CardParam("card", TRIPLE_TOPPER), FlagParam("declare")),
                "discard a card (add 'declare' to declare the Thirty-two it leaves)",
            ),
            ActionKind("close", (), "close an open-ended table (end=open): final standings now"),
        ]
    )
    setup_keys = ("dealer",)
    score_units = ("counter", "counters")

    def __init__(self, players: int, **options: object) -> None:
        super().__init__(players, **options)
        self.wilds = not self.options["no_wilds"]
        self.cap = bool(self.options["cap_at_32"])
        self.open_end = self.options["end"] == "open"
        self._raw = raw_wild if self.wilds else raw_plain

    def score(self, hand: Sequence[Card]) -> int:
        """A three-card hand's score under this game's options (``hand_score`` for notation)."""
        raw = self._raw(hand[0], hand[1], hand[2])
        return THIRTY_TWO if self.cap and raw > THIRTY_TWO else raw

    def describe_kept(self, hand: Sequence[Card]) -> str:
        """What a three-card hand kept after a discard scores: ``keeps 25, 2 wilds``."""
        wilds = WILDS[hand[0]] + WILDS[hand[1]] + WILDS[hand[2]]
        return f"keeps {self.score(hand)}, {wilds} wild{'' if wilds == 1 else 's'}"

    def payment_wilds(self, hand: Sequence[Card]) -> int:
        """Wilds that count in payments: none in the no-wilds variation."""
        return WILDS[hand[0]] + WILDS[hand[1]] + WILDS[hand[2]] if self.wilds else 0

    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> ThirtyTwoState:
        self.check_setup(setup)
        dealer = self.setup_seat(setup, "dealer")
        stacks = self.parse_decks(decks)
        origin = {"seed": seed, "decks": [_cards(d) for d in stacks] or None, "setup": setup}
        return ThirtyTwoState(self, seed, stacks, dealer, origin)

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind == "discard":
            text = f"discard {_fmt[action[1]]}"
            return text + " and declare Thirty-two" if action[2] else text
        return {
            "take": "take the face-up card",
            "draw": "draw from the stock",
            "knock": "knock",
            "declare": "declare Thirty-two",
            "close": "close the table",
        }[kind]

    def describe_event(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        return describe_event(event, names)

    def world_from_view(
        self, seat: int, observation: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
    ) -> ThirtyTwoState:
        return build_world(self, seat, observation, recall, rng)


class ThirtyTwoState(State):
    __slots__ = (
        "counters",
        "dealer",
        "drawn_epoch",
        "epoch",
        "hand_no",
        "hands",
        "in_hand",
        "knocker",
        "last",
        "nxt",
        "out",
        "owed",
        "phase",
        "pile",
        "playoff",
        "public",
        "reshuffled",
        "result",
        "rng",
        "seats_in",
        "stacks",
        "stock",
        "taken",
        "turn",
        "turns",
        "turns_before",
    )

    game: ThirtyTwo

    def __init__(
        self,
        game: ThirtyTwo,
        seed: int,
        stacks: list[list[Card]],
        dealer: int | None,
        origin: dict[str, Any],
    ) -> None:
        self._init_base(game, origin)
        players = game.players
        self.rng = Rng(seed)
        self.stacks = stacks
        self.counters = [int(game.options["counters"])] * players
        self.out = [False] * players
        self.owed = [0] * players
        self.seats_in = list(range(players))
        self.in_hand = [True] * players
        self.nxt = [0] * players
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock = Stock()
        self.pile: list[Card] = []
        self.public: set[Card] = set()
        self.epoch = 0
        self.drawn_epoch: dict[Card, int] = {}
        self.reshuffled: list[frozenset[Card]] = []
        self.hand_no = 0
        self.turns = 0
        self.turns_before = 0
        self.turn = 0
        self.phase = TURN
        self.taken = -1
        self.knocker = -1
        self.playoff = False
        self.last: Settlement | ShownSettlement | None = None
        self.result: Results | None = None
        self.dealer = self.rng.below(players) if dealer is None else dealer
        self._seat_tables()
        self._start_hand(None, first=True)

    # --- the contract -------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        return () if self.phase == OVER else _ALONE[self.turn]

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def results(self) -> Results | None:
        return self.result

    def _legal_for(self, seat: int) -> list[Action]:
        return self._legal_actions(seat) if seat == self.turn and self.phase != OVER else []

    def _legal_actions(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        game = self.game
        # With wilds a Thirty-two needs its numbers to sum to at least 12 (match
        # points are at most 20): a cheap test that spares most score lookups.
        quick = game.wilds
        if self.phase == TURN:
            acts = [TAKE, DRAW] if self.stock.size or len(self.pile) > 1 else [TAKE]
            if self.knocker < 0:
                acts.append(KNOCK)
            if (
                not quick or NVALUE[hand[0]] + NVALUE[hand[1]] + NVALUE[hand[2]] >= 12
            ) and game.score(hand) >= THIRTY_TWO:
                acts.append(DECLARE)
            return acts
        taken = self.taken
        acts = [DISCARD[card] for card in hand if card != taken]
        if quick and NVALUE[hand[0]] + NVALUE[hand[1]] + NVALUE[hand[2]] + NVALUE[hand[3]] < 13:
            return acts  # no three of these cards can make a Thirty-two
        for i, card in enumerate(hand):
            if card != taken and game.score(hand[:i] + hand[i + 1 :]) >= THIRTY_TWO:
                acts.append(DISCARD_DECLARE[card])
        return acts

    def _table_actions(self) -> list[Action]:
        return [CLOSE] if self.game.open_end else []

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        kind = action[0]
        if kind == "discard":
            card = action[1]
            self.hands[seat].remove(card)
            self.public.discard(card)
            self.pile.append(card)
            self.taken = -1
            if events is not None:
                events.append(Event("discarded", {"seat": seat, "card": _fmt[card]}))
            if action[2]:
                self._declared(seat, events)
            else:
                self._end_turn(events)
        elif kind == "draw":
            if not self.stock.size:
                self._reshuffle(events)
            card = self.stock.draw(self.rng)
            self.hands[seat].append(card)
            if self.epoch:
                self.drawn_epoch[card] = self.epoch
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
            if events is not None:
                events.append(Event("knocked", {"seat": seat}))
            self._end_turn(events)
        elif kind == "declare":
            self._declared(seat, events)
        else:  # close
            if events is not None:
                events.append(Event("closed", {"counters": self.counters.copy()}))
            self._end_game(None, events)

    def _explain_illegal(self, seat: int, action: Action) -> str | None:
        if seat == TABLE:
            return "only an open-ended table (end=open) can be closed"
        kind = action[0]
        hand = self.hands[seat]
        if kind == "close":
            return "closing the table is not a player's action"
        if self.phase == TURN:
            if kind == "discard":
                return "take the face-up card or draw before discarding"
            if kind == "knock":
                return f"seat {self.knocker} has already knocked this hand"
            if kind == "declare":
                return f"your hand scores {self.game.score(hand)}, not a Thirty-two"
            return None
        if kind in ("take", "draw", "knock", "declare"):
            return "you hold four cards: discard one first"
        card = action[1]
        if card not in hand:
            return f"{_fmt[card]} is not in your hand"
        if card == self.taken:
            return "you must keep the card you took from the discard pile"
        kept = [c for c in hand if c != card]
        return f"discarding {_fmt[card]} leaves {self.game.score(kept)}, not a Thirty-two"

    def preview(self, action: Action, seat: int) -> str | None:
        if action[0] != "discard":
            return None
        return self.game.describe_kept([c for c in self.hands[seat] if c != action[1]])

    def default_action(self, seat: int) -> Action:
        """Draw; then discard the card whose loss keeps the best score."""
        legal = self.legal_actions(seat)
        if self.phase == TURN:
            return DRAW if DRAW in legal else legal[0]
        hand = self.hands[seat]
        return max(legal, key=lambda a: (self.game.score([c for c in hand if c != a[1]]), a[2]))

    # --- the flow of a hand ---------------------------------------------------------
    def _seat_tables(self) -> None:
        """Recompute who is in the hand and who sits to each one's left."""
        seats = self.seats_in
        in_hand = self.in_hand = [False] * self.game.players
        for i, seat in enumerate(seats):
            in_hand[seat] = True
            self.nxt[seat] = seats[(i + 1) % len(seats)]

    def _start_hand(self, events: list[Event] | None, first: bool = False) -> None:
        seats = self.seats_in
        nxt = self.nxt
        in_hand = self.in_hand
        if not first:
            dealer = self.dealer
            if in_hand[dealer]:
                dealer = nxt[dealer]
            else:
                while not in_hand[dealer]:
                    dealer = (dealer + 1) % self.game.players
            self.dealer = dealer
        players = self.game.players
        self.hand_no += 1
        self.stock.gather(FULL_DECK, self.stacks.pop(0) if self.stacks else None)
        hands: list[list[Card]] = [[] for _ in range(players)]
        left = nxt[self.dealer]
        order = []
        seat = left
        for _ in seats:
            order.append(hands[seat])
            seat = nxt[seat]
        self.stock.deal(self.rng, order, 3)
        self.hands = hands
        self.pile = [self.stock.draw(self.rng)]
        if self.public:
            self.public.clear()
        if self.epoch:
            self.epoch = 0
            self.drawn_epoch.clear()
            self.reshuffled.clear()
        self.turn = left
        self.turns_before = self.turns
        self.phase = TURN
        self.taken = -1
        self.knocker = -1
        if events is not None:
            events.append(
                Event(
                    "hand_started",
                    {
                        "hand": self.hand_no,
                        "dealer": self.dealer,
                        "seats": seats.copy(),
                        "face_up": _fmt[self.pile[0]],
                        "playoff": self.playoff,
                    },
                    {seat: {"cards": _cards(hands[seat])} for seat in seats},
                )
            )

    def _end_turn(self, events: list[Event] | None) -> None:
        nxt = self.nxt[self.turn]
        self.turns += 1
        if nxt == self.knocker:
            self._showdown(events)
        else:
            self.turn = nxt
            self.phase = TURN

    def _reshuffle(self, events: list[Event] | None) -> None:
        """The stock ran out: every discard but the top one becomes the new stock."""
        pile = self.pile
        cards = pile[:-1]
        self.pile = pile[-1:]
        self.epoch += 1
        self.reshuffled.append(frozenset(cards))
        self.stock.fill(cards, self.stacks.pop(0) if self.stacks else None)
        if events is not None:
            events.append(Event("reshuffled", {"stock_size": len(cards)}))

    def _order_from(self, seat: int) -> list[int]:
        """The other seats in the hand, starting at ``seat``'s left."""
        order = []
        other = self.nxt[seat]
        while other != seat:
            order.append(other)
            other = self.nxt[other]
        return order

    def _cut(self, seats: list[int], cuts: list[tuple[int, Card]]) -> list[int]:
        """Order tied payees by a cut for high card from the stock."""
        drawn = {}
        for seat in seats:
            if not self.stock.size:
                self._reshuffle(None)
            drawn[seat] = card = self.stock.draw(self.rng)
            cuts.append((seat, card))
        return sorted(seats, key=lambda s: drawn[s], reverse=True)

    def _showdown(self, events: list[Event] | None) -> None:
        game = self.game
        knocker = self.knocker
        hands = self.hands
        raw = game._raw
        cap = game.cap
        pay_wilds = game.payment_wilds
        score = [0] * game.players
        for s in self.seats_in:
            hand = hands[s]
            points = raw(hand[0], hand[1], hand[2])
            score[s] = THIRTY_TWO if cap and points > THIRTY_TWO else points
        opponents = self._order_from(knocker)
        top = score[knocker]
        beaters = [o for o in opponents if score[o] >= top]
        wilds = [0] * game.players  # only the knocker and whoever pays or collects need them
        for s in (knocker, *(beaters or opponents)):
            wilds[s] = pay_wilds(hands[s])
        cuts: list[tuple[int, Card]] = []
        payments = knock_payments(
            opponents, knocker, score, wilds, self.counters, lambda seats: self._cut(seats, cuts)
        )
        shown = [(s, hands[s], score[s], wilds[s]) for s in (knocker, *beaters)]
        mucked = [o for o in opponents if o not in beaters]
        self._finish_hand("knock", knocker, shown, mucked, payments, cuts, events)

    def _declared(self, seat: int, events: list[Event] | None) -> None:
        game = self.game
        hands = self.hands
        opponents = self._order_from(seat)
        wilds = [game.payment_wilds(hand) if hand else 0 for hand in hands]
        payments = declare_payments(opponents, seat, wilds, self.counters)
        shown = [(seat, hands[seat], game.score(hands[seat]), wilds[seat])]
        self._finish_hand("thirty-two", seat, shown, opponents, payments, [], events)

    def _finish_hand(
        self,
        ended_by: str,
        seat: int,
        shown: list[tuple[int, list[Card], int, int]],
        mucked: list[int],
        payments: list[Payment],
        cuts: list[tuple[int, Card]],
        events: list[Event] | None,
    ) -> None:
        counters = self.counters
        players = self.game.players
        owed = [0] * players
        for payer, payee, due, paid in payments:
            counters[payer] -= paid
            counters[payee] += paid
            owed[payee] += due - paid
        eliminated = [s for s in self.seats_in if counters[s] == 0]
        for s in eliminated:
            self.out[s] = True
        self.owed = owed
        self.last = Settlement(
            self.hand_no,
            ended_by,
            seat,
            self.knocker,
            shown,
            mucked,
            payments,
            cuts,
            counters.copy(),
            owed,
            eliminated,
        )
        if events is not None:
            game = self.game
            own = {  # a mucked hand is shown to its own seat only
                s: {"own_cards": _cards(self.hands[s]), "own_score": game.score(self.hands[s])}
                for s in mucked
            }
            events.append(Event("hand_over", self.last.to_json(), own))
        if self.game.open_end:
            alive = [s for s in range(players) if counters[s] > 0]
            if len(alive) <= 1:
                self._end_game(alive, events)
                return
            if len(alive) != len(self.seats_in):
                self.seats_in = alive
                self._seat_tables()
        elif self.playoff or eliminated:
            leaders, chasers = contenders(counters, owed)
            if len(leaders) == 1 and not chasers:
                self._end_game(leaders, events)
                return
            self.seats_in = sorted(leaders + chasers)
            self._seat_tables()
            self.playoff = True
            if events is not None:
                events.append(Event("playoff", {"seats": self.seats_in.copy(), "leaders": leaders}))
        self._start_hand(events)

    def _end_game(self, winners: list[int] | None, events: list[Event] | None) -> None:
        counters = self.counters
        if winners is None:
            top = max(counters)
            winners = [s for s in range(self.game.players) if counters[s] == top]
        self.result = Results.by_score(counters.copy(), winners)
        self.phase = OVER
        if events is not None:
            events.append(Event("game_over", self.result.to_json()))

    # --- views ------------------------------------------------------------------------
    def _observe(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        hands = self.hands
        public = self.public
        obs: dict[str, Any] = {
            "game": game.name,
            "seat": seat,
            "players": game.players,
            "hand_number": self.hand_no,
            "hand_turns": self.turns - self.turns_before,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[self.phase],
            "turn": None if self.phase == OVER else self.turn,
            "to_act": list(self.to_act()),
            "counters": self.counters.copy(),
            "out": [s for s in range(game.players) if self.out[s]],
            "in_hand": self.seats_in.copy(),
            "playoff": self.playoff,
            "knocker": self.knocker if self.knocker >= 0 else None,
            "discard_top": _fmt[self.pile[-1]] if self.pile else None,  # the pile is squared
            "discard_size": len(self.pile),
            "stock_size": len(self.stock),
            "hand_sizes": [len(h) for h in hands],
            "known": [[_fmt[c] for c in hand if c in public] for hand in hands],
            "taken": _fmt[self.taken] if self.taken >= 0 else None,
            "last_hand": self.last.to_json() if self.last else None,
            "result": self.result.to_json() if self.result else None,
        }
        if seat is not None and self.phase != OVER and self.in_hand[seat]:
            hand = hands[seat]
            obs["hand"] = _cards(hand)
            obs["wilds"] = sum(WILDS[c] for c in hand)
            if len(hand) == 3:
                obs["score"] = game.score(hand)
                obs["thirty_two"] = obs["score"] >= THIRTY_TWO
        return obs

    def recall(self, seat: int) -> dict[str, Any]:
        """The discards buried under the top one (every seat saw each made), the cards of
        each rebuild of the stock, and for each other hand the rebuild whose stock each of
        its cards this seat cannot see was drawn from (0: before any), oldest first."""
        public = self.public
        drawn = self.drawn_epoch
        return {
            "buried": _cards(self.pile[:-1]),
            "reshuffled": [_cards(sorted(cards)) for cards in self.reshuffled],
            "unseen_drawn_in": [
                [] if other == seat else sorted(drawn.get(c, 0) for c in hand if c not in public)
                for other, hand in enumerate(self.hands)
            ],
        }

    def hints(self, seat: int | None) -> dict[str, Any]:
        """Before a seat in the hand draws or takes (in the turn phase, its turn or not):
        the exact odds of a stock draw and the value of taking the face-up card
        (``games/draw_odds.py``), from the cards the seat knows only."""
        if seat is None or self.phase != TURN or seat not in self.seats_in:
            return {}
        hand = self.hands[seat]
        if len(hand) != 3:
            return {}
        game = self.game
        up = self.pile[-1] if self.pile else None
        seen = {*hand, *self.public, *([] if up is None else [up])}
        drawable = self.stock.size > 0 or len(self.pile) > 1  # an empty stock is rebuilt
        return draw_hints(game.score, game.deck.names, hand, seen, up, drawable)

    def stats(self) -> dict[str, float]:
        return {"hands": self.hand_no, "turns": self.turns}

    def dump(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "stacks": [_cards(s) for s in self.stacks],
            "counters": self.counters.copy(),
            "out": self.out.copy(),
            "owed": self.owed.copy(),
            "seats_in": self.seats_in.copy(),
            "dealer": self.dealer,
            "hand_no": self.hand_no,
            "hands": [_cards(h) for h in self.hands],
            "stock": _cards(self.stock.contents()),
            "stock_array": _cards(self.stock.cards),
            "stock_ordered": self.stock.ordered,
            "pile": _cards(self.pile),
            "public": sorted(_cards(self.public)),
            "epoch": self.epoch,
            "drawn_epoch": {_fmt[c]: e for c, e in sorted(self.drawn_epoch.items())},
            "reshuffled": [sorted(_cards(d)) for d in self.reshuffled],
            "turn": self.turn,
            "turns": self.turns,
            "turns_before": self.turns_before,
            "phase": PHASE_NAMES[self.phase],
            "taken": self.taken,
            "knocker": self.knocker,
            "playoff": self.playoff,
            "last": self.last.to_json() if self.last else None,
            "result": self.result.to_json() if self.result else None,
            "history": [(s, list(a)) for s, a in self.history],
        }

    # --- search support ---------------------------------------------------------------
    def clone(self) -> ThirtyTwoState:
        twin = ThirtyTwoState.__new__(ThirtyTwoState)
        twin._copy_base(self)
        twin.rng = self.rng.clone()
        twin.stacks = [s.copy() for s in self.stacks]
        twin.counters = self.counters.copy()
        twin.out = self.out.copy()
        twin.owed = self.owed.copy()
        twin.seats_in = self.seats_in.copy()
        twin.in_hand = self.in_hand.copy()
        twin.nxt = self.nxt.copy()
        twin.hands = [h.copy() for h in self.hands]
        twin.stock = self.stock.clone()
        twin.pile = self.pile.copy()
        twin.public = self.public.copy()
        twin.epoch = self.epoch
        twin.drawn_epoch = self.drawn_epoch.copy()
        twin.reshuffled = self.reshuffled.copy()
        twin.hand_no = self.hand_no
        twin.turns = self.turns
        twin.turns_before = self.turns_before
        twin.turn = self.turn
        twin.phase = self.phase
        twin.taken = self.taken
        twin.knocker = self.knocker
        twin.playoff = self.playoff
        twin.last = self.last
        twin.result = self.result
        twin.dealer = self.dealer
        return twin

    def resample(self, seat: int, rng: Rng) -> ThirtyTwoState:
        """Redeal the stock and the other hands' unseen cards, as ``seat`` could imagine them.

        Cards everyone saw go into a hand (taken from the discard pile) stay put,
        and so does the whole discard pile: the observation shows only its top,
        but the seat saw every discard made (a seat that forgot them is the
        player's own business, not the sample's).
        A card that was face up in the discard pile when the stock was last
        rebuilt cannot be in a hand slot filled before that rebuild, so slots are
        filled oldest first from the cards each could hold.  The unseen cards are
        put in card order before dealing, so with the same ``rng`` every state
        that looks the same to ``seat`` resamples to the same state.
        """
        twin = self.clone()
        twin.rng = Rng(rng.bits())
        twin.stacks = []
        twin.stock.unstack()
        if self.phase == OVER:
            return twin
        public = self.public
        hands = twin.hands
        drawn = self.drawn_epoch
        for other in self.seats_in:
            if other != seat:
                # The seen cards first, in order, then the unseen oldest first: the order a
                # world built from the view alone has (Game.world_from_view), so both deal alike.
                hands[other].sort(key=lambda c: -1 if c in public else drawn.get(c, 0))
        slot_epochs: list[tuple[int, int, int]] = []  # (epoch the slot was filled in, seat, index)
        pool = twin.stock.contents()
        for other in self.seats_in:
            if other == seat:
                continue
            for i, card in enumerate(hands[other]):
                if card not in public:
                    slot_epochs.append((drawn.get(card, 0), other, i))
                    pool.append(card)
        pool.sort()  # so the sample depends on what the seat knows, not on the true order
        twin.drawn_epoch = {c: e for c, e in drawn.items() if c not in pool}
        twin.stock.replace(deal_unseen(twin, hands, sorted(slot_epochs), pool, rng))
        return twin


class Settlement(NamedTuple):
    """How a hand ended and who paid whom; kept raw, turned into JSON when shown.

    ``shown`` holds ``(seat, cards, score, wilds)`` of the hands laid open (the
    knocker and whoever tied or beat him, or the declarer); mucked hands are not
    kept at all.  Payments are ``(from, to, due, paid)``; ``owed`` is what each
    seat was left owed (unpaid) by this settlement.
    """

    hand: int
    ended_by: str
    seat: int
    knocker: int
    shown: list[tuple[int, list[Card], int, int]]
    mucked: list[int]
    payments: list[Payment]
    cuts: list[tuple[int, Card]]
    counters: list[int]
    owed: list[int]
    eliminated: list[int]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.hand, "ended_by": self.ended_by}
        if self.ended_by == "knock":
            out["knocker"] = self.seat
            out["knocker_won"] = len(self.shown) == 1
        else:
            out["declarer"] = self.seat
            out["knocker"] = self.knocker if self.knocker >= 0 else None
        out["shown"] = [
            {"seat": s, "cards": _cards(cards), "score": score, "wilds": wilds}
            for s, cards, score, wilds in self.shown
        ]
        out["mucked"] = list(self.mucked)
        out["payments"] = [
            {"from": a, "to": b, "due": due, "paid": paid} for a, b, due, paid in self.payments
        ]
        out["cuts"] = [{"seat": s, "card": _fmt[c]} for s, c in self.cuts]
        out["counters"] = list(self.counters)
        out["owed"] = list(self.owed)
        out["eliminated"] = list(self.eliminated)
        return out
