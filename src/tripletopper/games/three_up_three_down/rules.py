"""3UP 3DOWN: the rules engine (the players' page is rules/three-up-three-down.md).

Two to six players each hold three face-down 3DOWN cards nobody has seen, three
face-up 3UP cards they chose in secret, and a hand.  Players in turn play one
card, or several of one value, at least as high as the top of the pile, or pick
the pile up when they cannot.  Clears remove the pile from the game (Clear+1
and Clear+2 with one or two extra plays), and so do three or more cards of a
value in a row.  The hand is refilled to three from the stock; once the stock
and the hand are gone the 3UP cards are played, then the 3DOWN ones, blind.
The first player with no cards left wins.

Cards are ints of :mod:`tripletopper.cards.three_up`; actions name values
(:mod:`.actions`), and the engine picks the physical copies: from a hand, the
copies the whole table knows to be there (picked up with the pile) first,
then the others in the order they came into the hand.

What each seat knows of another's hand is kept explicitly, so observations and
:meth:`ThreeUpThreeDownState.resample` agree with it: the cards it picked up from the
pile (public), and upper bounds on its other cards.  A player who has to pick
up from the hand shows that every card in it is a number below the top of the
pile; a 3DOWN card that could not be played is known to be below the top card
it failed on.  When such a player later plays a hidden card, the table cannot
tell which bounded card it was, so the tightest bound the card could satisfy is
dropped: what remains is exactly what every possible world agrees on.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from tripletopper.cards.deck import Card
from tripletopper.cards.three_up import (
    CLEAR,
    RANK,
    RANK_NAMES,
    THREE_UP,
    TOP_RANK,
    deck_cards,
    parse_colors,
)
from tripletopper.engine import (
    TABLE,
    Action,
    Event,
    Game,
    Option,
    Results,
    Rng,
    State,
    Stock,
)
from tripletopper.errors import CardError, InvalidOptionError
from tripletopper.games.three_up_three_down.actions import (
    CODEC,
    DRAW,
    FLIP,
    PICKUP,
    PLAYS,
    choose_action,
)
from tripletopper.games.three_up_three_down.narration import describe_event
from tripletopper.games.three_up_three_down.world import build_world

CHOOSE, PLAY, OVER = 0, 1, 2
PHASE_NAMES = ("choose", "play", "over")
HAND_SIZE = 3
"""Cards in the hand after the deal's choice, and what a player draws back up to."""
DOWN = 3
UP = 3
DEALT_UP = 6
"""Cards each player chooses the 3UP cards from."""
MAX_PLAYERS = 6
UNBOUNDED = TOP_RANK
"""The bound of a hidden card the table knows nothing about (any rank)."""
COLOR_CHOICES = ("RGB", "RG", "RB", "GB", "R", "G", "B")
SOURCES = ("hand", "3UP", "3DOWN")
CLEAR_NAMES = {CLEAR: "C", CLEAR + 1: "C+1", CLEAR + 2: "C+2", 0: "run"}

_fmt = THREE_UP.names
_ALONE = tuple((seat,) for seat in range(MAX_PLAYERS))


@lru_cache(maxsize=4096)
def _choices(ranks: tuple[int, ...]) -> tuple[Action, ...]:
    """The distinct choices of three 3UP cards among six cards of these ranks (sorted)."""
    return tuple(choose_action(trio) for trio in sorted(set(combinations(ranks, UP))))


def _cards(cards: Iterable[Card]) -> list[str]:
    return [_fmt[c] for c in cards]


class ThreeUpThreeDown(Game):
    """3UP 3DOWN for 2-6 players (options: see ``options_schema``)."""

    name = "three-up-three-down"
    title = "3UP 3DOWN"
    min_players = 2
    max_players = MAX_PLAYERS
    deck = THREE_UP
    options_schema = (
        Option(
            "colors",
            "choice",
            "RGB",
            "the colors kept in the deck, for a quicker game (RG: red and green, 60 cards)",
            choices=COLOR_CHOICES,
        ),
        Option(
            "rank_all",
            "bool",
            False,
            "play on after the first player goes out, until everyone is ranked "
            "(the last one left loses)",
        ),
        Option(
            "max_turns",
            "int",
            2000,
            "safety limit: after this many turns the game ends and players still in "
            "are ranked by cards left (0 = no limit)",
            minimum=0,
            maximum=1_000_000,
        ),
    )
    codec = CODEC
    setup_keys = ("dealer",)
    score_units = ("card left", "cards left")

    def __init__(self, players: int, **options: object) -> None:
        colors = options.get("colors")
        if isinstance(colors, str | list | tuple) and colors not in COLOR_CHOICES:
            try:
                options["colors"] = "".join(parse_colors(colors))
            except CardError as exc:
                raise InvalidOptionError(f"option 'colors': {exc}") from None
        super().__init__(players, **options)
        self.cards = deck_cards(str(self.options["colors"]))
        if len(self.cards) < players * (DOWN + DEALT_UP):
            raise InvalidOptionError(
                f"a deck of {self.options['colors']} ({len(self.cards)} cards) is too small for "
                f"{players} players ({DOWN + DEALT_UP} each): keep more colors"
            )
        self.rank_all = bool(self.options["rank_all"])
        self.max_turns = int(self.options["max_turns"])

    def new_state(
        self,
        seed: int = 0,
        *,
        decks: Sequence[Sequence[Card | str]] | None = None,
        **setup: Any,
    ) -> ThreeUpThreeDownState:
        self.check_setup(setup)
        dealer = self.setup_seat(setup, "dealer")
        stacks = self.parse_decks(decks)
        origin = {"seed": seed, "decks": [_cards(d) for d in stacks] or None, "setup": setup}
        return ThreeUpThreeDownState(self, seed, stacks, dealer, origin)

    def describe_action(self, action: Action) -> str:
        kind = action[0]
        if kind in ("choose", "play"):
            values = " ".join(RANK_NAMES[r] for r in action[1])
            return f"lay {values} face up" if kind == "choose" else f"play {values}"
        return {
            "flip": "flip a 3DOWN card",
            "pickup": "pick up the pile",
            "draw": "draw a card",
        }[kind]

    def describe_event(self, event: Mapping[str, Any], names: Sequence[str]) -> str:
        return describe_event(event, names)

    def world_from_view(
        self, seat: int, observation: Mapping[str, Any], recall: Mapping[str, Any], rng: Rng
    ) -> ThreeUpThreeDownState:
        return build_world(self, seat, observation, recall, rng)


class ThreeUpThreeDownState(State):
    __slots__ = (
        "bounds",
        "cleared",
        "clears",
        "dealer",
        "down",
        "finished",
        "hands",
        "known",
        "may_draw",
        "nxt",
        "out",
        "owed",
        "phase",
        "pickups",
        "pile",
        "ranks",
        "result",
        "rng",
        "run_len",
        "run_rank",
        "stacks",
        "stock",
        "turn",
        "turns",
        "up",
    )

    game: ThreeUpThreeDown

    def __init__(
        self,
        game: ThreeUpThreeDown,
        seed: int,
        stacks: list[list[Card]],
        dealer: int | None,
        origin: dict[str, Any],
    ) -> None:
        self._init_base(game, origin)
        players = game.players
        self.rng = Rng(seed)
        self.stacks = stacks
        self.dealer = self.rng.below(players) if dealer is None else dealer
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.up: list[list[Card]] = [[] for _ in range(players)]
        self.down: list[list[Card]] = [[] for _ in range(players)]
        self.known: list[set[Card]] = [set() for _ in range(players)]
        """Cards of each hand the whole table knows are there (picked up from the pile)."""
        self.bounds: list[list[int]] = [[] for _ in range(players)]
        """Per seat, sorted: the highest rank each of its bounded hidden hand cards can be."""
        self.pile: list[Card] = []
        self.run_rank = 0
        """Rank of the top of the pile (0: empty pile)."""
        self.run_len = 0
        """How many cards of that rank lie on top of the pile in a row."""
        self.cleared: list[Card] = []
        self.owed = 0
        """Extra plays (from a Clear+1 or Clear+2) still to make this turn."""
        self.may_draw = False
        """Whether the player may still draw before the next extra play."""
        self.out = [False] * players
        self.nxt = [(seat + 1) % players for seat in range(players)]
        self.finished: list[int] = []
        self.turn = (self.dealer + 1) % players
        self.phase = CHOOSE
        self.turns = 0
        self.pickups = 0
        self.clears = 0
        self.result: Results | None = None
        self.stock = Stock()
        self.stock.fill(game.cards, stacks.pop(0) if stacks else None)
        order = [(self.dealer + 1 + i) % players for i in range(players)]
        self.stock.deal(self.rng, [self.down[s] for s in order], DOWN)
        self.stock.deal(self.rng, [self.hands[s] for s in order], DEALT_UP)
        self.ranks: list[list[int]] = []
        """Each hand's ranks, sorted, kept up to date: the legal plays are read from them."""
        self.recount()

    # --- the contract -------------------------------------------------------------
    def to_act(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == PLAY:
            return _ALONE[self.turn]
        if phase == CHOOSE:
            up = self.up
            return tuple(s for s in range(self.game.players) if not up[s])
        return ()

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def results(self) -> Results | None:
        return self.result

    def _legal_for(self, seat: int) -> list[Action]:
        if self.phase != PLAY:
            if (
                self.phase == CHOOSE
                and isinstance(seat, int)  # a seat that is no number is refused, not a crash
                and 0 <= seat < self.game.players
                and not self.up[seat]
            ):
                return self._choose_actions(seat)
            return []
        if seat != self.turn:
            return []
        if self.hands[seat]:
            ranks = self.ranks[seat]
        elif self.stock.size:  # an extra play with an empty hand: draw first
            return [DRAW]
        elif self.up[seat]:
            ranks = sorted(map(RANK.__getitem__, self.up[seat]))
        else:
            return [FLIP]
        low = self.run_rank
        if low:
            ranks = ranks[bisect_left(ranks, low) :]
        acts: list[Action] = []
        last = k = 0
        for rank in ranks:
            if rank != last:  # one card of a new value
                last = rank
                k = 0
                acts.append(PLAYS[rank][0])
            elif rank < CLEAR:  # one more of the same number: the next multiple
                k += 1
                acts.append(PLAYS[rank][k])
        if self.may_draw and self.stock.size:
            if not acts:
                acts.append(PICKUP)
            acts.append(DRAW)
        elif not acts:
            acts.append(PICKUP)
        return acts

    def _legal_actions(self, seat: int) -> list[Action]:
        return self._legal_for(seat)

    def _choose_actions(self, seat: int) -> list[Action]:
        return list(_choices(tuple(sorted(RANK[c] for c in self.hands[seat]))))

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        kind = action[0]
        if kind == "play":
            ranks = action[1]
            hand = self.hands[seat]
            if len(ranks) > 1 or not hand:
                self._play(seat, ranks, events)
                return
            # The common case, inline: one card from the hand.  Twin: _play; guarded by
            # tests/three_up_three_down/test_properties.py (the inlined one-card play).
            rank = ranks[0]
            known = self.known[seat]
            pick = -1
            for card in hand:
                if RANK[card] == rank:
                    if pick < 0:
                        pick = card
                    if not known:
                        break
                    if card in known:  # a copy everyone knows of goes first
                        pick = card
                        break
            hand.remove(pick)
            self.ranks[seat].remove(rank)
            if known and pick in known:
                known.discard(pick)
            elif self.bounds[seat]:
                bounds = self.bounds[seat]
                for i, bound in enumerate(bounds):
                    if bound >= rank:  # the table cannot tell which bounded card went
                        del bounds[i]
                        break
            self._land(seat, [pick], rank, 0, events)
        elif kind == "flip":
            card = self.down[seat].pop(0)
            rank = RANK[card]
            if rank >= CLEAR or rank >= self.run_rank:
                self._land(seat, [card], rank, 2, events)
            else:
                self._pickup(seat, card, events)
        elif kind == "pickup":
            self._pickup(seat, -1, events)
        elif kind == "draw":
            card = self.stock.draw(self.rng)
            self.hands[seat].append(card)
            insort(self.ranks[seat], RANK[card])
            self.may_draw = False
            if events is not None:
                events.append(
                    Event("drew", {"seat": seat, "count": 1}, {seat: {"cards": [_fmt[card]]}})
                )
        else:
            self._choose(seat, action[1], events)

    # --- choosing the 3UP cards --------------------------------------------------
    def _choose(self, seat: int, ranks: tuple[int, ...], events: list[Event] | None) -> None:
        hand = self.hands[seat]
        chosen: list[Card] = []
        for rank in ranks:
            for card in hand:
                if RANK[card] == rank and card not in chosen:
                    chosen.append(card)
                    break
        for card in chosen:
            hand.remove(card)
        self.ranks[seat] = sorted(map(RANK.__getitem__, hand))
        self.up[seat] = chosen
        if events is not None:  # what was chosen stays secret until everyone has chosen
            events.append(Event("chose", {"seat": seat}, {seat: {"up": _cards(chosen)}}))
        if all(self.up):
            self.phase = PLAY
            if events is not None:
                events.append(
                    Event(
                        "revealed",
                        {"up": [_cards(u) for u in self.up], "first": self.turn},
                    )
                )

    # --- playing ------------------------------------------------------------------
    def _play(self, seat: int, ranks: tuple[int, ...], events: list[Event] | None) -> None:
        rank = ranks[0]
        count = len(ranks)
        hand = self.hands[seat]
        if not hand:
            up = self.up[seat]
            picked = [card for card in up if RANK[card] == rank][:count]
            for card in picked:
                up.remove(card)
            self._land(seat, picked, rank, 1, events)
            return
        known = self.known[seat]
        picked = [card for card in hand if RANK[card] == rank]
        if known:
            if len(picked) > count:  # the copies everyone knows of go first
                picked.sort(key=known.__contains__, reverse=True)
                del picked[count:]
            before = len(known)
            known.difference_update(picked)
            hidden = count - before + len(known)
        else:
            del picked[count:]
            hidden = count
        ranks_held = self.ranks[seat]
        for card in picked:
            hand.remove(card)
            ranks_held.remove(rank)
        bounds = self.bounds[seat]
        if bounds and hidden:  # the table cannot tell which bounded card went: drop the tightest
            for _ in range(hidden):
                for i, bound in enumerate(bounds):
                    if bound >= rank:
                        del bounds[i]
                        break
        self._land(seat, picked, rank, 0, events)

    def _land(
        self, seat: int, cards: list[Card], rank: int, source: int, events: list[Event] | None
    ) -> None:
        """Cards are on the pile: clear it if they do, then continue or end the turn."""
        owed = self.owed
        if owed:  # this was an extra play
            owed -= 1
        pile = self.pile
        pile.extend(cards)
        if events is not None:
            events.append(
                Event(
                    "played",
                    {
                        "seat": seat,
                        "cards": _cards(cards),
                        "from": SOURCES[source],
                        "extra": self.owed > 0,
                    },
                )
            )
        if rank < CLEAR:
            run = len(cards)
            if rank == self.run_rank:
                run += self.run_len
            else:
                self.run_rank = rank
            if run < 3:
                self.run_len = run
                cleared_by = -1
            else:
                cleared_by = 0
        else:
            cleared_by = rank
        if cleared_by >= 0:
            # Any clear ends the turn, extra play or not: the plays still owed are
            # cancelled, and a Clear+1 or Clear+2 starts its own (RULINGS, 2026-11-29).
            owed = rank - CLEAR if rank >= CLEAR else 0
            if events is not None:
                events.append(
                    Event(
                        "cleared",
                        {
                            "seat": seat,
                            "by": CLEAR_NAMES[cleared_by],
                            "cards": len(pile),
                            "extra_plays": owed,
                        },
                    )
                )
            self.cleared.extend(pile)
            pile.clear()
            self.run_rank = 0
            self.run_len = 0
            self.clears += 1
        self.owed = owed
        hand = self.hands[seat]
        if not hand and not self.up[seat] and not self.down[seat]:
            self._went_out(seat, events)
        elif owed:
            self.may_draw = self.stock.size > 0
        elif events is not None or self.may_draw:
            self._end_turn(seat, True, events)
        else:  # _end_turn inline, for simulations: refill the hand, next player
            # (twin: _end_turn; tests/test_contract.py plays events on and off alike)
            stock = self.stock
            if stock.size and len(hand) < HAND_SIZE:
                rng = self.rng
                ranks = self.ranks[seat]
                while len(hand) < HAND_SIZE and stock.size:
                    card = stock.draw(rng)
                    hand.append(card)
                    insort(ranks, RANK[card])
            self.turns = turns = self.turns + 1
            limit = self.game.max_turns
            if limit and turns >= limit:
                self._end_game(None)
                return
            self.turn = self.nxt[seat]

    def _pickup(self, seat: int, flipped: Card, events: list[Event] | None) -> None:
        """Pick up the pile (with an unplayable 3DOWN card, hidden from the others)."""
        hand = self.hands[seat]
        pile = self.pile
        cap = self.run_rank - 1
        bounds = self.bounds[seat]
        hidden = len(hand) - len(self.known[seat])
        if hidden:  # had any of them been playable, the player would have had to play it
            bounds[:] = [min(b, cap) for b in bounds] + [cap] * (hidden - len(bounds))
        if events is not None:
            data: dict[str, Any] = {"seat": seat, "cards": _cards(pile), "flipped": flipped >= 0}
            secret = {seat: {"flipped_card": _fmt[flipped]}} if flipped >= 0 else None
            if flipped >= 0:
                data["below"] = RANK_NAMES[self.run_rank]
            events.append(Event("picked_up", data, secret))
        self.known[seat].update(pile)
        hand.extend(pile)
        if flipped >= 0:
            hand.append(flipped)
            bounds.append(cap)
            bounds.sort()
        self.ranks[seat] = sorted(map(RANK.__getitem__, hand))
        pile.clear()
        self.run_rank = 0
        self.run_len = 0
        self.pickups += 1
        self._end_turn(seat, False, events)

    def _end_turn(self, seat: int, refill: bool, events: list[Event] | None) -> None:
        stock = self.stock
        if refill and stock.size:
            hand = self.hands[seat]
            if len(hand) < HAND_SIZE:
                drawn = []
                while len(hand) < HAND_SIZE and stock.size:
                    card = stock.draw(self.rng)
                    hand.append(card)
                    drawn.append(card)
                    insort(self.ranks[seat], RANK[card])
                if events is not None:
                    events.append(
                        Event(
                            "drew",
                            {"seat": seat, "count": len(drawn)},
                            {seat: {"cards": _cards(drawn)}},
                        )
                    )
        self.owed = 0
        self.may_draw = False
        self.turns += 1
        limit = self.game.max_turns
        if limit and self.turns >= limit:
            if events is not None:
                events.append(Event("turn_limit", {"turns": self.turns}))
            self._end_game(events)
            return
        self.turn = self.nxt[seat]

    def _seat_table(self) -> None:
        """Who plays after each seat: the next one to the left still in the game."""
        players = self.game.players
        for seat in range(players):
            other = (seat + 1) % players
            while self.out[other] and other != seat:
                other = (other + 1) % players
            self.nxt[seat] = other

    def _went_out(self, seat: int, events: list[Event] | None) -> None:
        self.out[seat] = True
        self.finished.append(seat)
        self.owed = 0
        self.may_draw = False
        self.turns += 1
        if events is not None:
            events.append(Event("out", {"seat": seat, "place": len(self.finished)}))
        left = [s for s in range(self.game.players) if not self.out[s]]
        if not self.game.rank_all or len(left) == 1:
            if self.game.rank_all:
                self.finished.append(left[0])
                self.out[left[0]] = True
            self._end_game(events)
            return
        self._seat_table()
        self.turn = self.nxt[seat]

    def recount(self) -> None:
        """Sort again every hand's ranks (after hands were dealt anew or set by hand)."""
        self.ranks = [sorted(map(RANK.__getitem__, hand)) for hand in self.hands]

    def cards_left(self, seat: int) -> int:
        return len(self.hands[seat]) + len(self.up[seat]) + len(self.down[seat])

    def _end_game(self, events: list[Event] | None) -> None:
        players = self.game.players
        left = [self.cards_left(s) for s in range(players)]
        ranking: list[tuple[int, ...]] = [(s,) for s in self.finished]
        rest = [s for s in range(players) if s not in self.finished]
        for count in sorted({left[s] for s in rest}):
            ranking.append(tuple(s for s in rest if left[s] == count))
        winners = ranking[0]
        self.result = Results(winners, tuple(float(n) for n in left), tuple(ranking))
        self.phase = OVER
        if events is not None:
            events.append(Event("game_over", self.result.to_json()))

    # --- refusing with a reason ----------------------------------------------------
    def _explain_illegal(self, seat: int, action: Action) -> str | None:
        if seat == TABLE:
            return "3UP 3DOWN has no table actions"
        kind = action[0]
        if self.phase == CHOOSE:
            if kind != "choose":
                return "first everyone chooses their 3UP cards"
            if self.up[seat]:
                return "you have already chosen your 3UP cards"
            return _missing(self.hands[seat], action[1], "among your six cards")
        if kind == "choose":
            return "the 3UP cards were chosen at the start"
        hand, up = self.hands[seat], self.up[seat]
        stock = self.stock.size
        if hand:
            source, where = hand, "hand"
        elif stock:
            if kind == "draw":
                return None
            return "your hand is empty and the stock is not: draw first"
        else:
            source, where = up, "3UP cards"
        if kind == "draw":
            if not self.owed:
                return "you draw only before an extra play of a Clear+1 or Clear+2"
            if not stock:
                return "the stock is empty"
            return "you have already drawn for this play"
        if kind == "flip":
            if hand:
                return "you still hold cards in your hand"
            return "you still have 3UP cards to play first"
        if kind == "pickup":
            return "you can play, so you must (you pick up only when you cannot play)"
        if not source:
            return "your 3DOWN cards are played blind: flip one"
        ranks = action[1]
        rank = ranks[0]
        if any(r != rank for r in ranks):
            return "a multiple is several cards of one value"
        if rank >= CLEAR and len(ranks) > 1:
            return "Clears are played one at a time"
        held = sum(1 for c in source if RANK[c] == rank)
        if held < len(ranks):
            if source is hand and any(RANK[c] == rank for c in up):
                return "3UP cards are played only when the stock is gone and your hand is empty"
            return f"you have {held or 'no'} {RANK_NAMES[rank]} in your {where}"
        if rank < self.run_rank:
            return f"{RANK_NAMES[rank]} is lower than the {RANK_NAMES[self.run_rank]} on the pile"
        return None

    def default_action(self, seat: int) -> Action:
        """Choose the three highest cards; then the first legal action (the lowest play)."""
        legal = self.legal_actions(seat)
        if self.phase == CHOOSE:
            return legal[-1]
        return legal[0] if legal[0] != PICKUP or len(legal) == 1 else legal[1]

    # --- views ------------------------------------------------------------------------
    def _observe(self, seat: int | None) -> dict[str, Any]:
        game = self.game
        players = game.players
        choosing = self.phase == CHOOSE
        seats = []
        for s in range(players):
            hand = self.hands[s]
            known = self.known[s]
            info: dict[str, Any] = {
                "hand_size": len(hand),
                "up": None if choosing and s != seat else _cards(self.up[s]),
                "down": len(self.down[s]),
                "known": [_fmt[c] for c in hand if c in known] if known else [],
                "hidden_at_most": [RANK_NAMES[b] for b in self.bounds[s]],
                "out": self.out[s],
            }
            if choosing:
                info["chosen"] = bool(self.up[s])
            seats.append(info)
        pile = self.pile
        obs: dict[str, Any] = {
            "game": game.name,
            "seat": seat,
            "players": players,
            "colors": game.options["colors"],
            "dealer": self.dealer,
            "phase": PHASE_NAMES[self.phase],
            "turn": self.turn if self.phase == PLAY else None,
            "to_act": list(self.to_act()),
            "turns": self.turns,
            "stock_size": self.stock.size,
            "pile": _cards(pile),
            "pile_size": len(pile),
            "top": RANK_NAMES[self.run_rank] if self.run_rank else None,
            "run": self.run_len,
            "extra_plays": self.owed,
            "may_draw": self.may_draw and self.stock.size > 0,
            "cleared": _cards(self.cleared),
            "seats": seats,
            "finished": self.finished.copy(),
            "result": self.result.to_json() if self.result else None,
        }
        if seat is not None:
            obs["hand"] = _cards(self.hands[seat])
            if self.phase == PLAY:
                obs["playing_from"] = self._source_name(seat)
        return obs

    def hints(self, seat: int | None) -> dict[str, Any]:
        """The seat's own cards it could play on the pile as it lies now (from its hand, or
        its 3UP cards once those are played), whether or not it is its turn."""
        if seat is None or self.phase != PLAY or self.out[seat]:
            return {}
        cards = self.hands[seat] or (self.up[seat] if not self.stock.size else [])
        low = self.run_rank
        return {"playable": [_fmt[c] for c in cards if RANK[c] >= low]}

    def _source_name(self, seat: int) -> str | None:
        if self.out[seat]:
            return None
        if self.hands[seat] or self.stock.size:
            return "hand"
        return "3UP" if self.up[seat] else "3DOWN"

    def stats(self) -> dict[str, float]:
        return {"turns": self.turns, "pickups": self.pickups, "clears": self.clears}

    def dump(self) -> dict[str, Any]:
        return {
            "rng": self.rng.state,
            "stacks": [_cards(s) for s in self.stacks],
            "dealer": self.dealer,
            "hands": [_cards(h) for h in self.hands],
            "up": [_cards(u) for u in self.up],
            "down": [_cards(d) for d in self.down],
            "known": [sorted(_cards(k)) for k in self.known],
            "bounds": [b.copy() for b in self.bounds],
            "stock": _cards(self.stock.contents()),
            "stock_array": _cards(self.stock.cards),
            "stock_ordered": self.stock.ordered,
            "pile": _cards(self.pile),
            "run": [self.run_rank, self.run_len],
            "cleared": _cards(self.cleared),
            "owed": self.owed,
            "may_draw": self.may_draw,
            "out": self.out.copy(),
            "finished": self.finished.copy(),
            "turn": self.turn,
            "phase": PHASE_NAMES[self.phase],
            "turns": self.turns,
            "pickups": self.pickups,
            "clears": self.clears,
            "result": self.result.to_json() if self.result else None,
            "history": [(s, list(a)) for s, a in self.history],
        }

    # --- search support ---------------------------------------------------------------
    def clone(self) -> ThreeUpThreeDownState:
        twin = ThreeUpThreeDownState.__new__(ThreeUpThreeDownState)
        twin._copy_base(self)
        twin.rng = self.rng.clone()
        twin.stacks = [s.copy() for s in self.stacks]
        twin.dealer = self.dealer
        twin.hands = [h.copy() for h in self.hands]
        twin.up = [u.copy() for u in self.up]
        twin.down = [d.copy() for d in self.down]
        twin.known = [k.copy() for k in self.known]
        twin.bounds = [b.copy() for b in self.bounds]
        twin.stock = self.stock.clone()
        twin.pile = self.pile.copy()
        twin.run_rank = self.run_rank
        twin.run_len = self.run_len
        twin.cleared = self.cleared.copy()
        twin.owed = self.owed
        twin.may_draw = self.may_draw
        twin.out = self.out.copy()
        twin.ranks = [r.copy() for r in self.ranks]
        twin.nxt = self.nxt.copy()
        twin.finished = self.finished.copy()
        twin.turn = self.turn
        twin.phase = self.phase
        twin.turns = self.turns
        twin.pickups = self.pickups
        twin.clears = self.clears
        twin.result = self.result
        return twin

    def resample(self, seat: int, rng: Rng) -> ThreeUpThreeDownState:
        """Deal again everything ``seat`` has not seen, as it could imagine it.

        Unseen are: the stock, every 3DOWN card (the seat's own too), and the
        other hands' cards that were not picked up from the pile (while the 3UP
        cards are being chosen: the others' whole six cards).  Bounded cards are
        dealt first, tightest bound first, from the cards that satisfy it; that
        greedy order always succeeds because the bounds are nested.  While the
        choice is secret, the others' recorded choices are rewritten to match
        their new cards.
        """
        twin = self.clone()
        twin.rng = Rng(rng.bits())
        twin.stacks = []
        twin.stock.unstack()
        if self.phase == OVER:
            return twin
        players = self.game.players
        pool: list[Card] = twin.stock.contents()
        for s in range(players):
            pool.extend(self.down[s])
        others = [s for s in range(players) if s != seat]
        choosing = self.phase == CHOOSE
        slots: list[tuple[int, list[Card], int]] = []  # (bound, list, index)
        for s in others:
            if choosing:
                for cards in (twin.hands[s], twin.up[s]):
                    pool.extend(cards)
                    slots.extend((UNBOUNDED, cards, i) for i in range(len(cards)))
                continue
            # The known cards first, in order, then the others: the order a world built
            # from the view alone has (Game.world_from_view), so both deal alike.
            hand = twin.hands[s]
            known = self.known[s]
            hand.sort(key=known.__contains__, reverse=True)
            hidden = [i for i, c in enumerate(hand) if c not in known]
            pool.extend(hand[i] for i in hidden)
            bounds = self.bounds[s]
            for j, i in enumerate(hidden):
                slots.append((bounds[j] if j < len(bounds) else UNBOUNDED, hand, i))
        for s in range(players):
            slots.extend((UNBOUNDED, twin.down[s], i) for i in range(len(twin.down[s])))
        pool.sort()  # so the sample depends on what the seat knows, not on the true order
        deal_unseen(slots, pool, rng)
        twin.stock.replace(pool)
        twin.recount()
        if choosing:
            history = twin.history
            for n, (s, action) in enumerate(history):
                if s != seat and action[0] == "choose":
                    history[n] = (s, choose_action([RANK[c] for c in twin.up[s]]))
        return twin


def deal_unseen(slots: list[tuple[int, list[Card], int]], pool: list[Card], rng: Rng) -> None:
    """Deal ``pool`` (in card order) into the unseen ``(bound, cards, index)`` slots: bounded
    ones first, tightest bound first, each from the cards that satisfy it; that greedy
    order always succeeds because the bounds are nested.  What is left stays in ``pool``."""
    slots.sort(key=lambda slot: slot[0])
    below = rng.below
    for bound, cards, i in slots:
        if bound < UNBOUNDED:
            eligible = [j for j, c in enumerate(pool) if RANK[c] <= bound]
            j = eligible[below(len(eligible))]
        else:
            j = below(len(pool))
        pool[j], pool[-1] = pool[-1], pool[j]
        cards[i] = pool.pop()


def _missing(cards: list[Card], ranks: tuple[int, ...], where: str) -> str:
    need: dict[int, int] = {}
    for rank in ranks:
        need[rank] = need.get(rank, 0) + 1
    for rank, n in need.items():
        held = sum(1 for c in cards if RANK[c] == rank)
        if held < n:
            return f"you have {held or 'no'} {RANK_NAMES[rank]} {where}"
    return "that is not one of your choices"


__all__ = ["ThreeUpThreeDown", "ThreeUpThreeDownState"]
