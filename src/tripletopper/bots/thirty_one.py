"""A sensible Thirty-One player that sees only its own observation.

- **What is left.**  Every card on the discard pile was seen going there (the
  pile is squared, so we remember the discards from the events we saw), and
  cards taken from it are known to sit in their taker's hand; everything else
  we do not hold may be in the stock.  A stock draw is worth the average, over
  those unseen cards, of the best hand it would give us.
- **Take or draw.**  We take the top discard when it gives a better hand than
  the expected draw (taking shows the table a card we keep, so by a margin).
  With the stock empty we take only a card that improves our hand, else stop
  (so a hand always ends).
- **Knock.**  Each opponent's hand is modelled as a random hand improved by as
  many greedy draws as they have had turns this hand, plus the one more turn a
  knock gives them (a table built once per scoring mode); an opponent who took
  cards from the pile is sampled around those cards.  A knocker alone lowest
  loses two lives, so we knock when the chance of that is small enough.  The
  tolerance depends on the table's lives: lower when losing two lives would put
  us out but one would not, higher for each opponent circling the drain (one
  loss puts them out).
- **Discard.**  Keep the best hand, never the card just taken (the rules forbid
  it anyway); between equal hands keep the more valuable cards.  A 31 is always
  declared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache, lru_cache
from itertools import filterfalse
from typing import Any, cast

from tripletopper.bots.base import Bot, Playout, SampledView, SeatView, whole
from tripletopper.bots.discards import DiscardMemory
from tripletopper.bots.hands import PairRows, Sampled, draw_mean, greedy_scores, sampled_decision
from tripletopper.bots.ismcts import SearchSpec, turns_taken
from tripletopper.bots.levels import searching, sloppy
from tripletopper.cards.standard import STANDARD
from tripletopper.engine import Action, Game, Rng, State
from tripletopper.games.thirty_one.rules import (
    CHECK,
    DECLARE,
    DRAW,
    KNOCK,
    OVER,
    PLAY,
    STOP,
    TAKE,
    TURN,
    ThirtyOneState,
)
from tripletopper.games.thirty_one.scoring import CARD_VALUE, value3, value3_trips

_parse = STANDARD.parse
ALL_CARDS = range(52)
MAX_DRAWS = 12
STRENGTH_SAMPLES = 3000
SLOTS = 63
"""Values in half points: 0 .. 31 as 0 .. 62 (30.5 is slot 61)."""


@lru_cache(maxsize=2)
def strength_table(trips: bool) -> tuple[tuple[float, ...], ...]:
    """``table[t][k]``: the chance that a greedy player's hand is worth at most ``k / 2``
    after ``t`` draws (keeping the best three each time).  Built once per scoring mode
    from a fixed seed, so bots stay deterministic."""
    rng = Rng(20261122)
    rows = pair_rows(trips)
    counts = [[0] * SLOTS for _ in range(MAX_DRAWS + 1)]
    for _ in range(STRENGTH_SAMPLES):
        cards = rng.sample(ALL_CARDS, 3 + MAX_DRAWS)
        for t, best in enumerate(greedy_scores(rows, cards[:3], cards[3:])):
            counts[t][int(2 * best)] += 1
    table = []
    for row in counts:
        cumulative, running = [0.0] * SLOTS, 0
        for slot in range(SLOTS):
            running += row[slot]
            cumulative[slot] = running / STRENGTH_SAMPLES
        table.append(tuple(cumulative))
    return tuple(table)


@lru_cache(maxsize=2)
def pair_rows(trips: bool) -> PairRows[float]:
    """The values of hands under one scoring mode, by pair (shared by every bot)."""
    value = value3_trips if trips else value3
    return PairRows(
        52, lambda a, b: tuple(value(a, b, u) for u in ALL_CARDS), (pair_rows, (trips,))
    )


class ThirtyOneHeuristic(Bot):
    name = "heuristic"
    description = (
        "tracks the discard pile, weighs the top discard against a stock draw, "
        "knocks on its value and the table's lives"
    )
    wants_events = True  # it remembers the squared discard pile from the discards it saw

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        samples: int = 24,
        tolerance: float = 0.22,
        margin: float = 0.5,
    ) -> None:
        super().__init__(game, seat, seed)
        self.samples = whole("samples", samples, 1)
        self.tolerance = tolerance
        self.margin = margin
        self.trips = game.options["three_of_a_kind"] == "30.5"
        self.discards = DiscardMemory(STANDARD)
        self.derive()

    derived = ("value3", "rows", "strength")

    def derive(self) -> None:
        self.value3 = value3_trips if self.trips else value3
        self.rows = pair_rows(self.trips)
        # Built now, not at the first knock: a pool's workers fork with it built.
        self.strength = strength_table(self.trips)

    def observe(self, events: list[Mapping[str, Any]]) -> None:
        self.discards.observe(events)

    def value(self, hand: list[int]) -> float:
        return self.value3(hand[0], hand[1], hand[2])

    def best_with(self, hand: list[int], card: int) -> float:
        """The best value of our three cards and ``card``, keeping ``card``."""
        a, b, c = hand
        row = self.rows.row
        return max(row(a, b)[card], row(a, c)[card], row(b, c)[card])

    # --- the decision -------------------------------------------------------------
    def choose(self, view: SeatView) -> Action:
        obs = view.observation()
        legal = view.legal_actions()
        if obs["phase"] == "check":
            return DECLARE if DECLARE in legal else PLAY
        hand = [_parse(c) for c in obs["hand"]]
        if obs["phase"] == "discard":
            return self._discard(obs, hand, legal)
        pile = self.discards.pile(obs["discard_top"], obs["discard_size"])
        known = {_parse(c) for seat_cards in obs["known"] for c in seat_cards}
        seen = set(hand) | set(pile) | known
        unseen = list(filterfalse(seen.__contains__, ALL_CARDS))
        now = obs["counts"]
        take_value = self.best_with(hand, pile[-1]) if pile else -1.0
        if DRAW not in legal:  # the stock is empty: take only what improves the hand
            return TAKE if take_value > now else STOP
        if take_value >= 31:
            return TAKE
        if KNOCK in legal and self._should_knock(obs, now, unseen):
            return KNOCK
        draw_value = self.draw_value(hand, now, unseen)
        return TAKE if take_value > draw_value + self.margin else DRAW

    def draw_value(self, hand: list[int], now: float, candidates: list[int]) -> float:
        """Mean value after drawing one of ``candidates`` and keeping the best three."""
        if not candidates:
            return now
        return draw_mean(self.rows, hand, now, candidates)

    def _discard(self, obs: dict[str, Any], hand: list[int], legal: list[Action]) -> Action:
        best: tuple[float, int, int] | None = None
        choice = legal[0]
        for action in legal:
            card = action[1]
            rest = [c for c in hand if c != card]
            key = (self.value(rest), sum(CARD_VALUE[c] for c in rest), action[2])
            if best is None or key > best:
                best, choice = key, action
        return choice

    def _should_knock(self, obs: dict[str, Any], now: float, unseen: list[int]) -> bool:
        seat = self.seat
        opponents = [s for s in obs["in_hand"] if s != seat]
        turns_each = obs["hand_turns"] // max(1, len(obs["in_hand"]))
        draws = min(turns_each + 1, MAX_DRAWS)
        typical = self.strength[draws][min(SLOTS - 1, int(2 * now))]
        samples = self.samples
        # Each opponent's chance to end with a hand worth at most ours: from the table, or
        # for one who took cards from the pile (that tells us more) from random hands
        # around those cards improved by greedy draws, sampled (``None`` here).
        at_most: list[float | None] = []
        sampled: list[Sampled] = []
        for opp in opponents:
            known = [_parse(c) for c in obs["known"][opp]]
            if not known:
                at_most.append(typical)
            elif len(unseen) < 3 - len(known) + draws:
                at_most.append(0.5)
            else:
                at_most.append(None)
                sampled.append((known, draws, now + 0.5))  # values go by half points
        lives = obs["lives"]
        tolerance = self.tolerance
        if lives[seat] == 2:  # one organ left: two lives would put us out, one would not
            tolerance *= 0.5
        tolerance += 0.05 * sum(1 for opp in opponents if lives[opp] == 1)

        def alone_lowest_rarely(above: list[int]) -> bool:
            """Knock when the chance of being alone lowest is small enough; ``above``
            counts the samples that end above us, for the opponents sampled."""
            left = iter(above)
            p_alone_lowest = 1.0
            for p in at_most:
                p_alone_lowest *= 1.0 - ((samples - next(left)) / samples if p is None else p)
            return p_alone_lowest <= tolerance

        return sampled_decision(self.rows, self.rng, unseen, samples, sampled, alone_lowest_rarely)


class ThirtyOnePlayout(Playout):
    """A fast greedy policy for ISMCTS playouts in sampled worlds.

    It reads the sampled state for speed, but only what its seat could see there:
    take the top discard when it improves the hand, else draw (on an empty stock,
    take or stop); throw the card whose loss keeps the best value; knock when the
    heuristic's table says the chance of being the lowest hand is small; declare
    every 31.
    """

    risk = 0.2

    def choose(self, view: SampledView) -> Action:
        state = cast(ThirtyOneState, view.world)
        seat = self.seat
        phase = state.phase
        if phase == CHECK:
            return DECLARE if DECLARE in state.legal_actions(seat) else PLAY
        hand = state.hands[seat]
        value = state.game.value
        if phase == TURN:
            now = value(hand)
            top = state.pile[-1]
            a, b, c = hand
            best = max(value([a, b, top]), value([a, c, top]), value([b, c, top]))
            if not state.stock.size:
                return TAKE if best > now else STOP
            if state.knocker < 0:
                table = strength_table(state.game.trips)
                others = len(state.seats_in) - 1
                played = state.turns - state.turns_before
                draws = min(played // len(state.seats_in) + 1, MAX_DRAWS)
                lowest = (1 - table[draws][min(SLOTS - 1, int(2 * now))]) ** others
                if lowest < self.risk:
                    return KNOCK
            return TAKE if best > now else DRAW
        taken = state.taken
        best_value, throw = -1.0, hand[0]
        for i, card in enumerate(hand):
            if card == taken:
                continue
            rest = hand[:i] + hand[i + 1 :]
            points = value(rest)
            if points > best_value:
                best_value, throw = points, card
        # A 31 kept from before the draw was not declared then: it may not be now.
        legal = state.legal_actions(seat) if state.manual and best_value >= 31 else ()
        declare = ("discard", throw, True) in legal
        return ("discard", throw, declare)


def end_of_hand(root: State, current: State) -> bool:
    """Playouts stop when the hand being played is settled."""
    return cast(ThirtyOneState, current).hand_no != cast(ThirtyOneState, root).hand_no


def improved_opponents(world: State, seat: int, rng: Rng) -> None:
    """Opponents have spent their turns improving their hands: give each hidden hand as
    many greedy swaps with unseen cards as that player has had turns this hand (never
    making a 31 it would already have declared)."""
    state = cast(ThirtyOneState, world)
    if state.phase in (OVER, CHECK):
        return
    value = state.game.value
    stock, public = state.stock, state.public
    played = state.turns - state.turns_before
    first = state.nxt[state.dealer]
    for other in state.seats_in:
        hand = state.hands[other]
        if other == seat or len(hand) != 3:
            continue
        for _ in range(turns_taken(state.seats_in, first, played, other)):
            if not stock.size:
                return
            j = rng.below(stock.size)
            card = stock.cards[j]
            best, swap = value(hand), -1
            for i in range(3):
                if hand[i] in public:
                    continue
                trial = hand.copy()
                trial[i] = card
                points = value(trial)
                if best < points < 31:
                    best, swap = points, i
            if swap >= 0:
                stock.cards[j], hand[swap] = hand[swap], card


def chances(root: State, leaf: State) -> list[float]:
    """Heads-up, each seat's chance of winning the game where a playout stops: the result,
    or from the lives left (with every hand a coin toss costing its loser one life, ``a``
    lives against ``b`` win with chance ``a / (a + b)``, the gambler's ruin).  Ranking by
    lives, as with more players, rates a hand badly heads-up: level on lives, a knocker
    found lowest (two lives) loses hardly more than by one, and two lives ahead, losing a
    hand costs almost nothing."""
    results = leaf.results()
    if results is not None:
        return results.returns()
    a, b = cast(ThirtyOneState, leaf).lives
    return [a / (a + b), b / (a + b)]


@cache
def expected_places(lives: tuple[int, ...]) -> tuple[float, ...]:
    """The expected finishing place (1 = first) of a player with ``v`` lives, at index
    ``v``, among players with these ``lives`` (sorted, all above 0), if every hand costs
    one of them, any one alike, one life: the first out takes the last of these places.
    (Lives start at 4: a few hundred tuples at most, whatever the table.)"""
    k = len(lives)
    places = [0.0] * (lives[-1] + 1)
    if k == 1:
        places[-1] = 1.0
        return tuple(places)
    after = [_lose(lives, i) for i in range(k)]
    for v in set(lives):
        me = lives.index(v)  # the player valued: the first with v lives
        total = 0.0
        for i, rest in enumerate(after):  # each player alike loses the next hand
            if i != me:
                total += expected_places(rest)[v]
            else:
                total += k if v == 1 else expected_places(rest)[v - 1]
        places[v] = total / k
    return tuple(places)


def _lose(lives: tuple[int, ...], i: int) -> tuple[int, ...]:
    """``lives`` (sorted) after entry ``i`` loses one life (dropped at 0), sorted."""
    rest = [*lives[:i], *lives[i + 1 :]]
    if lives[i] > 1:
        rest.append(lives[i] - 1)
    return tuple(sorted(rest))


def expected_standings(root: State, leaf: State) -> list[float]:
    """With three players or more, each seat's expected place where a playout stops, as
    a reward (1 first, 0 last): the result, or from the lives left (every hand a draw
    costing a player chosen alike one life, :func:`expected_places`), the players out
    placed by when they went out.  Ranking by lives as they stand would weigh a knocker
    found lowest (two lives) hardly more than any loser (one)."""
    players = leaf.game.players
    results = leaf.results()
    if results is not None:
        ranks = [results.rank_of(s) for s in range(players)]
    else:
        state = cast(ThirtyOneState, leaf)
        lives, out = state.lives, state.elim_hand
        still_in = tuple(sorted(v for v in lives if v))
        places = expected_places(still_in)
        gone = [out[s] for s in range(players) if not lives[s]]  # the hands they went out in
        ranks = []
        for s, v in enumerate(lives):
            if v:
                ranks.append(places[v])
            else:  # below everyone still in; out later is ahead, out together shares
                later = sum(1 for hand in gone if hand > out[s])
                ranks.append(len(still_in) + 1 + later + (gone.count(out[s]) - 1) / 2)
    return [(players - rank) / (players - 1) for rank in ranks]


SEARCH = SearchSpec(
    evaluate=expected_standings,
    horizon=end_of_hand,
    playout_bot=ThirtyOnePlayout,
    belief=improved_opponents,
)
HEADS_UP = replace(SEARCH, evaluate=chances, paired=4)
"""The search with two players: the chance to win the game as the reward, and every
decision (take, draw or knock; which card to throw) a paired comparison of its moves."""


def search_for(game: Game) -> SearchSpec:
    """``SEARCH`` with three players or more, ``HEADS_UP`` with two."""
    return HEADS_UP if game.players == 2 else SEARCH


def hard_budget(game: Game) -> int:
    """Hard's iterations: 400 heads-up; 100 with three players or more, where the search
    has levelled off by 400 (expert's 1500 scored 50.1% against 400 iterations at 4
    players) and 100 leave expert clearly above hard (docs/bots.md, "Thirty-One: hard's
    budget with more players")."""
    return 400 if game.players == 2 else 100


LEVELS: dict[str, type[Bot]] = {
    "easy": sloppy(ThirtyOneHeuristic, 0.25, "the heuristic, with a wrong move one time in four"),
    "medium": ThirtyOneHeuristic,
    "hard": searching(
        search_for,
        ThirtyOneHeuristic,
        hard_budget,
        0.0,
        "ISMCTS, 100 determinizations per decision, by expected place (heads-up: 400 "
        "paired, by game chances)",
    ),
    "expert": searching(
        search_for,
        ThirtyOneHeuristic,
        1500,
        0.0,
        "ISMCTS, 1500 determinizations per decision, by expected place (heads-up: paired, "
        "by game chances)",
    ),
}
"""The difficulty levels of Thirty-One (see ``docs/bots.md`` for how they compare)."""
