"""Thirty-One with organs: the rules engine (the rules it plays: rules/thirty-one.md).

Two to nine players hold three standard cards each.  On a turn a player draws
from the stock or takes the top discard and then discards, or knocks; after a
knock everyone else has one more turn and the hands are compared.  A 31 ends
the hand at once.  Losing costs organs (liver, then kidneys, then heart), then
a player is *circling the drain*, and one more loss puts them out.  The last
player left wins.

The discard pile is squared: an observation names its top card and its size
only.  Every discard is public when it is made (a ``discarded`` event), so
remembering the rest of the pile is up to the player.

Cards are ints of :mod:`tripletopper.cards.standard`; actions are tuples:
``("draw",)``, ``("take",)``, ``("knock",)``, ``("stop",)``,
``("discard", card, declare)`` and, right after a deal, ``("play",)`` and
``("declare",)``.

Order of events in a hand:

1. The deal.  With ``manual_31`` every player then answers ``play`` or
   ``declare``, in turn from the dealer's left (everyone is asked, so the
   question tells nothing); otherwise a dealt 31 is shown at once and its
   holder's only action is ``declare``.  If anyone declared, the hand ends:
   every other player loses one life.
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
from tripletopper.games.draw_odds import draw_hints
from tripletopper.games.thirty_one.narration import describe_event
from tripletopper.games.thirty_one.scoring import (
    CARD_VALUE,
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
    value3_trips,
)
from tripletopper.games.thirty_one.scoring import value3 as value3_plain
from tripletopper.games.thirty_one.world import build_world, deal_unseen
from tripletopper.games.worlds import ShownSettlement

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
            "three_of_a_kind",
            "choice",
            "none",
            "none: three of a kind is worth its best suit like any hand; "
            "30.5: three cards of one rank are worth 30.5 (beaten only by 31)",
            choices=THREE_OF_A_KIND_CHOICES,
        ),
        Option(
            "manual_31",
            "bool",
            False,
            "31 must be declared by its holder (with 'declare' after the deal or "
            "'discard X declare'); an undeclared 31 counts 30 (off: declared automatically)",
        ),
    )
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
    score_units = ("life", "lives")

    def __init__(self, players: int, **options: object) -> None:
        super().__init__(players, **options)
        self.trips = self.options["three_of_a_kind"] == "30.5"
        self.manual = bool(self.options["manual_31"])
        self.value3 = value3_trips if self.trips else value3_plain

    def value(self, hand: Sequence[Card]) -> float:
        """A three-card hand's value under this game's options (``hand_value`` for notation)."""
        return self.value3(hand[0], hand[1], hand[2])

    def describe_kept(self, hand: Sequence[Card], declared: bool = True) -> str:
        """What a three-card hand kept after a discard is worth: ``keeps 27``; a 31 kept
        without declaring it under ``manual_31`` says it counts 30."""
        value = self.value(hand)
        text = f"keeps {format_value(value)}"
        if self.manual and not declared and value == THIRTY_ONE:
            text += f" (undeclared: counts {format_value(DEAD_31)})"
        return text

    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> ThirtyOneState:
        self.check_setup(setup)
        dealer = self.setup_seat(setup, "dealer")
        stacks = self.parse_decks(decks)
        origin = {"seed": seed, "decks": [_cards(d) for d in stacks] or None, "setup": setup}
        return ThirtyOneState(self, seed, stacks, dealer, origin)

    def world_from_view(
        self, seat: int, observation: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
    ) -> ThirtyOneState:
        return build_world(self, seat, observation, recall, rng)

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
        "alive",
        "counts",
        "dealer",
        "declared",
        "elim_hand",
        "hand_no",
        "hands",
        "knocker",
        "knocks",
        "last",
        "lives",
        "manual",
        "nxt",
        "orders",
        "pending",
        "phase",
        "pile",
        "public",
        "result",
        "rng",
        "seats_in",
        "stacks",
        "stock",
        "stops",
        "taken",
        "thirty_ones",
        "turn",
        "turns",
        "turns_before",
        "voids",
    )

    game: ThirtyOne

    def __init__(
        self,
        game: ThirtyOne,
        seed: int,
        stacks: list[list[Card]],
        dealer: int | None,
        origin: dict[str, Any],
    ) -> None:
        self._init_base(game, origin)
        players = game.players
        self.rng = Rng(seed)
        self.stacks = stacks
        self.lives = [START_LIVES] * players
        self.elim_hand = [0] * players
        self.seats_in = list(range(players))
        self.alive = [True] * players
        self.nxt = [(seat + 1) % players for seat in range(players)]
        self.orders: dict[int, list[int]] = {}
        """Deal orders by dealer (cached until someone is eliminated)."""
        self.manual = game.manual
        self.counts = [0.0] * players
        """What each hand counted at the last showdown (scratch space)."""
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.stock = Stock()
        self.pile: list[Card] = []
        self.public: set[Card] = set()
        """Cards in hands that everyone has seen go there (taken from the pile, or shown)."""
        self.pending: list[int] = []
        """Seats yet to answer after the deal (play or declare), in turn from the dealer's left."""
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
        self.last: Settlement | ShownSettlement | None = None
        self.result: Results | None = None
        self.dealer = self.rng.below(players) if dealer is None else dealer
        self._start_hand(None, same_dealer=True)

    # --- the contract -------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == TURN or phase == DISCARD_PHASE:  # noqa: SIM109 - faster than a tuple
            return _ALONE[self.turn]
        if phase == CHECK:
            return _ALONE[self.pending[0]]
        return ()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def results(self) -> Results | None:
        return self.result

    def _legal_for(self, seat: int) -> list[Action]:
        # Fast twin of _legal_actions (and _discards); tests/test_contract.py compares them.
        phase = self.phase
        if phase == TURN:
            if seat != self.turn:
                return []
            if self.stock.size:
                return _TURN_OPEN if self.knocker < 0 else _TURN_KNOCKED
            return _TURN_EMPTY
        if phase == DISCARD_PHASE:
            if seat != self.turn:
                return []
            if self.manual:
                return self._discards(seat)
            taken = self.taken
            return [DISCARD[card] for card in self.hands[seat] if card != taken]
        if phase == CHECK and seat == self.pending[0]:
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
        if not self.manual:
            return _CHECK_DECLARE
        return _CHECK_ANY if is_31(hand[0], hand[1], hand[2]) else _CHECK_PLAY

    def _discards(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        taken = self.taken
        acts = [DISCARD[card] for card in hand if card != taken]
        if self.manual:
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
            a, b, c = hand
            if action[2] or (
                CARD_VALUE[a] + CARD_VALUE[b] + CARD_VALUE[c] == THIRTY_ONE
                and a & 3 == b & 3 == c & 3
                and not self.manual
            ):  # a 31, declared automatically without manual_31
                self._declared_31([seat], False, events)
                return
            # The end of a turn (inlined: it is the hottest path).  Twin: _end_turn; guarded
            # by tests/thirty_one/test_rules.py (knocks) and test_golden.py.
            nxt = self.nxt[seat]
            self.turns += 1
            if nxt == self.knocker:
                self._showdown("knock", -1, events)
            else:
                self.turn = nxt
                self.phase = TURN
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
            del self.pending[0]
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

    def preview(self, action: Action, seat: int) -> str | None:
        if action[0] != "discard":
            return None
        kept = [c for c in self.hands[seat] if c != action[1]]
        return self.game.describe_kept(kept, action[2])

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
        if not same_dealer:
            alive = self.alive
            dealer = (self.dealer + 1) % players
            while not alive[dealer]:
                dealer = (dealer + 1) % players
            self.dealer = dealer
        self.hand_no += 1
        stock = self.stock
        stock.gather(FULL_DECK, self.stacks.pop(0) if self.stacks else None)
        hands: list[list[Card]] = [[] for _ in range(players)]
        order = self._deal_order()
        stock.deal(self.rng, [hands[seat] for seat in order], 3)
        self.hands = hands
        self.pile = [stock.draw(self.rng)]
        if self.public:
            self.public.clear()
        self.turn = order[0]
        self.turns_before = self.turns
        self.taken = -1
        self.knocker = -1
        if self.declared:
            self.declared = []
        self.phase = TURN
        value = CARD_VALUE
        dealt_31 = [
            s
            for s in order
            if value[hands[s][0]] + value[hands[s][1]] + value[hands[s][2]] == THIRTY_ONE
            and is_31(hands[s][0], hands[s][1], hands[s][2])
        ]
        if self.manual:
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
            if dealt_31 and not self.manual:
                data["dealt_31"] = [{"seat": s, "cards": _cards(hands[s])} for s in dealt_31]
            secret = {seat: {"cards": _cards(hands[seat])} for seat in order}
            events.append(Event("hand_started", data, secret))

    def _end_turn(self, events: list[Event] | None) -> None:
        nxt = self.nxt[self.turn]
        self.turns += 1
        if nxt == self.knocker:
            self._showdown("knock", -1, events)
        else:
            self.turn = nxt
            self.phase = TURN

    def _deal_order(self) -> list[int]:
        """The seats in the game from the dealer's left round the table, the dealer last."""
        order = self.orders.get(self.dealer)
        if order is None:
            dealer = self.dealer
            nxt = self.nxt
            order = []
            seat = nxt[dealer]
            while seat != dealer:
                order.append(seat)
                seat = nxt[seat]
            order.append(dealer)
            self.orders[dealer] = order
        return order

    def _showdown(self, ended_by: str, stopper: int, events: list[Event] | None) -> None:
        """Every hand is shown; the lowest loses (with the knocker's rules if one knocked).

        An undeclared 31 counts 30 (with ``manual_31``; otherwise no 31 survives to
        a showdown, as it is declared the moment it is made).
        """
        order = self._deal_order()
        value3 = self.game.value3
        hands = self.hands
        counts = self.counts
        low = 99.0
        for seat in order:
            hand = hands[seat]
            points = value3(hand[0], hand[1], hand[2])
            if points == THIRTY_ONE:
                points = DEAD_31
            counts[seat] = points
            if points < low:
                low = points
        losses, saved = showdown_losses(order, counts, self.knocker, low)
        self._settle(ended_by, stopper, [], order, losses, saved, events)

    def _declared_31(self, seats: list[int], dealt: bool, events: list[Event] | None) -> None:
        """31 was declared (or dealt): everyone else loses one life."""
        self.thirty_ones += 1
        if events is not None and not dealt:
            seat = seats[0]
            data = {"seat": seat, "cards": _cards(self.hands[seat]), "dealt": False}
            events.append(Event("declared", data))
        order = self._deal_order()
        losses = thirty_one_losses(order, seats, DEALT_31 if dealt else DECLARED_31)
        self._settle("dealt_31" if dealt else "31", -1, seats, seats, losses, [], events)

    def _settle(
        self,
        ended_by: str,
        stopper: int,
        declarers: list[int],
        shown: list[int],
        losses: list[tuple[int, int, str]],
        saved: list[int],
        events: list[Event] | None,
    ) -> None:
        before = self.lives
        after = before.copy()
        gone = False
        for seat, lost, _reason in losses:
            left = after[seat] - lost
            if left > 0:
                after[seat] = left
            else:
                after[seat] = 0
                gone = True
        void = False
        if gone:
            void = not any(after[s] for s in self.seats_in)
            if void:
                self.voids += 1
                after = before
        self.lives = after
        self.last = last = Settlement(
            self.hand_no,
            ended_by,
            self.knocker,
            stopper,
            declarers,
            shown,
            self.hands,
            losses,
            saved,
            void,
            before,
            after,
            self.game.trips,
        )
        if events is not None:
            events.append(Event("hand_over", last.to_json()))
        if gone and not void:
            alive = self.alive
            for seat in self.seats_in:
                if not after[seat]:
                    alive[seat] = False
                    self.elim_hand[seat] = self.hand_no
            self.seats_in = seats = [s for s in self.seats_in if alive[s]]
            for i, seat in enumerate(seats):
                self.nxt[seat] = seats[(i + 1) % len(seats)]
            self.orders = {}
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
            "discard_top": _fmt[self.pile[-1]] if self.pile else None,  # the pile is squared
            "discard_size": len(self.pile),
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

    def recall(self, seat: int) -> dict[str, Any]:
        """The discards buried under the top one (every seat saw each made) and the hand in
        which each player went out (0: still in), which orders the final ranking."""
        return {"buried": _cards(self.pile[:-1]), "out_in_hand": self.elim_hand.copy()}

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
        return draw_hints(game.value, game.deck.names, hand, seen, up, self.stock.size > 0)

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
        twin.orders = self.orders.copy()  # the lists are never changed, only replaced
        twin.manual = self.manual
        twin.counts = self.counts.copy()
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
        stay put, and so does the whole discard pile: the observation shows only
        its top, but the seat saw every discard made.  Without ``manual_31``
        nobody can be holding an undeclared 31 (it would have been declared), so
        deals that give one are drawn again (a hand of four as it was before
        its draw: the fourth card may make the 31 its holder is about to
        declare).  Older non-31 hands of a player are not checked: a slight
        approximation.
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
        hands = twin.hands
        for other in self.seats_in:
            if other == seat:
                continue
            # The seen cards first, in order, then the unseen: the order a world built
            # from the view alone has (Game.world_from_view), so both deal alike.
            hand = hands[other]
            seen = [card for card in hand if card in public]
            pool.extend(card for card in hand if card not in public)
            slots.extend((other, i) for i in range(len(seen), len(hand)))
            hand[: len(seen)] = seen
        check = [] if self.game.manual else sorted({other for other, _ in slots})
        pool.sort()  # so the sample depends on what the seat knows, not on the true order
        twin.stock.replace(deal_unseen(hands, slots, pool, check, self.taken, rng))
        return twin


class Settlement(NamedTuple):
    """How a hand ended and who lost what; kept raw, turned into JSON when shown.

    ``shown`` lists the seats whose hands were laid open (everyone at a showdown,
    the declarers after a 31), ``hands`` the hands as they ended.  ``losses`` holds
    ``(seat, lives the rules take, reason)``; ``before`` and ``after`` are everyone's
    lives (equal when the hand was ``void``).
    """

    hand: int
    ended_by: str
    knocker: int
    stopper: int
    declarers: list[int]
    shown: list[int]
    hands: list[list[Card]]
    losses: list[tuple[int, int, str]]
    saved: list[int]
    void: bool
    before: list[int]
    after: list[int]
    trips: bool

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
        value3 = value3_trips if self.trips else value3_plain
        showdown = self.ended_by in ("knock", "stop")
        shown = []
        lowest = 99.0
        for seat in self.shown:
            hand = self.hands[seat]
            value = value3(hand[0], hand[1], hand[2])
            counts = DEAD_31 if showdown and value == THIRTY_ONE else value
            lowest = min(lowest, counts)
            shown.append({"seat": seat, "cards": _cards(hand), "value": value, "counts": counts})
        out["shown"] = shown
        if showdown:
            out["lowest"] = lowest
        before, after = self.before, self.after
        if self.void:  # what the hand would have done
            after = before.copy()
            for seat, lost, _reason in self.losses:
                after[seat] = max(0, after[seat] - lost)
        out["losses"] = [
            {
                "seat": s,
                "lives": n,
                "reason": reason,
                "organs": organs_lost(before[s], after[s]),
                "circling_the_drain": after[s] == 1,
                "out": after[s] == 0,
            }
            for s, n, reason in self.losses
        ]
        out["saved"] = list(self.saved)
        out["void"] = self.void
        out["lives"] = list(self.after)
        out["eliminated"] = [s for s, _n, _r in self.losses if not self.void and self.after[s] == 0]
        return out
