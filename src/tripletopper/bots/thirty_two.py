"""A sensible Thirty-Two player that sees only its own observation.

- **Take or draw.**  The face-up card is worth the best hand it makes with two
  of ours; a stock draw is worth the average, over every card we have not seen,
  of the best hand that card would give.  The pile is squared, so we remember
  the discards we saw made (``wants_events``): they are not in the stock, and
  they are the next stock when it runs out.  We take when the face-up card is
  clearly better (taking shows the table a card of our hand).
- **Knock.**  We estimate how likely one opponent is to tie or beat our score:
  a random hand improved by as many greedy draws as they have had turns this
  hand, plus the one more turn a knock gives them (a table built once per
  scoring mode); for an opponent holding cards they took from the discard pile,
  random hands built around those cards from the cards we have not seen.  With
  ``n`` opponents each beating us with chance ``q``, a knock wins
  ``(1-q)^n`` of the time and collects from everyone, else pays each who
  beats us.  We knock when that is worth more than a margin that grows with the
  table, weighted by what the players can actually pay.
- **Thirty-two.**  We declare at once, unless we hold many more wilds than a
  typical opponent, nobody has knocked and a lower-wild Thirty-two is within a
  likely draw: then holding out for a round earns more from every opponent.
- **Discard.**  Keep the best three cards; among equal scores keep fewer wilds
  (wilds cost counters in every payment).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from itertools import filterfalse
from typing import Any, cast

from tripletopper.bots.base import Bot, Playout, SampledView, SeatView, whole
from tripletopper.bots.discards import DiscardMemory
from tripletopper.bots.hands import PairRows, Sampled, draw_mean, greedy_scores, sampled_decision
from tripletopper.bots.ismcts import SearchSpec, standings_by, turns_taken
from tripletopper.bots.levels import searching, sloppy
from tripletopper.cards.triple_topper import COLOR, SHAPE, TRIPLE_TOPPER, WILDS
from tripletopper.engine import Action, Game, Rng, State
from tripletopper.games.thirty_two import THIRTY_TWO, ThirtyTwoState, score3
from tripletopper.games.thirty_two.rules import OVER, TURN
from tripletopper.games.thirty_two.scoring import C5, C25, NVALUE, S5, S25, WILD_POINTS

_parse = TRIPLE_TOPPER.parse
ALL_CARDS = range(125)
MAX_DRAWS = 16
STRENGTH_SAMPLES = 2500
WILD_PENALTY = 0.2
"""Points a wild variable is worth less than nothing, all else equal (payments)."""


@lru_cache(maxsize=4)
def strength_table(wilds: bool, cap: bool) -> tuple[tuple[float, ...], ...]:
    """``table[t][s]``: the chance that a greedy player's hand scores ``s`` or more after
    ``t`` draws (it keeps the best three each time).  Built once per scoring mode from a
    fixed seed, so bots stay deterministic."""
    rng = Rng(20261121)
    rows = pair_rows(wilds, cap)
    counts = [[0] * 37 for _ in range(MAX_DRAWS + 1)]
    for _ in range(STRENGTH_SAMPLES):
        cards = rng.sample(ALL_CARDS, 3 + MAX_DRAWS)
        for t, best in enumerate(greedy_scores(rows, cards[:3], cards[3:])):
            counts[t][best] += 1
    table = []
    for row in counts:
        survival, running = [0.0] * 37, 0
        for points in range(36, -1, -1):
            running += row[points]
            survival[points] = running / STRENGTH_SAMPLES
        table.append(tuple(survival))
    return tuple(table)


# Scores split by variable: a pair fixes two thirds of each lookup key, so with wilds
# a hand's score is COLOR_POINTS[pair's color key][u] + SHAPE_NUMBER[shape key][u] + numbers.
_KEYS = range(0, 125, 5)
COLOR_POINTS = {k: tuple(WILD_POINTS[k + COLOR[u]] for u in ALL_CARDS) for k in _KEYS}
SHAPE_NUMBER = {k: tuple(WILD_POINTS[k + SHAPE[u]] + NVALUE[u] for u in ALL_CARDS) for k in _KEYS}


def pair_scores(a: int, b: int, wilds: bool, cap: bool) -> tuple[int, ...]:
    """The score of ``{a, b, u}`` for every card ``u`` (0 where ``u`` is ``a`` or ``b``)."""
    if not wilds:
        return tuple(0 if u in (a, b) else score3(a, b, u, False, cap) for u in ALL_CARDS)
    colors, shapes = COLOR_POINTS[C25[a] + C5[b]], SHAPE_NUMBER[S25[a] + S5[b]]
    numbers = NVALUE[a] + NVALUE[b]
    top = THIRTY_TWO if cap else 99
    pairs = zip(colors, shapes, strict=True)
    scores = [s if (s := x + y + numbers) < top else top for x, y in pairs]
    scores[a] = scores[b] = 0
    return tuple(scores)


@lru_cache(maxsize=4)
def pair_rows(wilds: bool, cap: bool) -> PairRows[int]:
    """The scores of hands under one scoring mode, by pair (shared by every bot)."""
    return PairRows(125, lambda a, b: pair_scores(a, b, wilds, cap), (pair_rows, (wilds, cap)))


class ThirtyTwoHeuristic(Bot):
    name = "heuristic"
    description = "weighs the face-up card against a stock draw, knocks on a table-aware estimate"
    wants_events = True  # it remembers the squared discard pile from the discards it saw

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        samples: int = 24,
        margin: float = 0.5,
        holdout_wilds: int = 4,
    ) -> None:
        super().__init__(game, seat, seed)
        self.samples = whole("samples", samples, 1)
        self.margin = margin
        self.holdout_wilds = holdout_wilds
        self.wilds = not game.options["no_wilds"]
        self.cap = bool(game.options["cap_at_32"])
        self.discards = DiscardMemory(TRIPLE_TOPPER)
        self.derive()

    derived = ("rows", "strength")

    def derive(self) -> None:
        self.rows = pair_rows(self.wilds, self.cap)
        # Built now, not at the first knock: a pool's workers fork with it built.
        self.strength = strength_table(self.wilds, self.cap)

    def observe(self, events: list[Mapping[str, Any]]) -> None:
        self.discards.observe(events)

    # --- scoring helpers ---------------------------------------------------------
    def score(self, hand: list[int]) -> int:
        return self.rows.score(hand)

    def value(self, hand: list[int]) -> float:
        wilds = WILDS[hand[0]] + WILDS[hand[1]] + WILDS[hand[2]] if self.wilds else 0
        return self.score(hand) - WILD_PENALTY * wilds

    def best_keep(self, cards: list[int], keep: int | None = None) -> tuple[float, int]:
        """The best value of three of four cards, and the card to throw for it."""
        best = (-1e9, -1)
        for i, card in enumerate(cards):
            if card == keep:
                continue
            rest = cards[:i] + cards[i + 1 :]
            best = max(best, (self.value(rest), -card))
        return best[0], -best[1]

    def draw_value(self, hand: list[int], candidates: list[int]) -> float:
        """Mean score after drawing one of ``candidates`` and keeping the best three."""
        return draw_mean(self.rows, hand, self.score(hand), candidates)

    def with_card(self, hand: list[int], card: int) -> tuple[int, int, int]:
        """The scores of ``card`` with each pair of ``hand``."""
        a, b, c = hand
        row = self.rows.row
        return row(a, b)[card], row(a, c)[card], row(b, c)[card]

    # --- the decision -------------------------------------------------------------
    def choose(self, view: SeatView) -> Action:
        obs = view.observation()
        legal = view.legal_actions()
        hand = [_parse(c) for c in obs["hand"]]
        if obs["phase"] == "discard":
            return self._discard(obs, hand, legal)
        pile, known, unseen = self._seen(obs, hand)
        remembered = len(pile) == obs["discard_size"]
        if ("declare",) in legal and not self._hold_out(obs, hand, unseen):
            return ("declare",)
        if ("knock",) in legal and self._should_knock(obs, hand, unseen, known):
            return ("knock",)
        top = pile[-1]
        take_value = max(self.with_card(hand, top))
        # An empty stock is rebuilt from the pile under its top: those cards, if remembered.
        draw_pool = pile[:-1] if not obs["stock_size"] and remembered else unseen
        if not draw_pool or ("draw",) not in legal:
            return ("take",)
        draw_value = self.draw_value(hand, draw_pool)
        if take_value >= THIRTY_TWO or take_value > draw_value + 0.5:
            return ("take",)
        return ("draw",)

    def _seen(self, obs: dict[str, Any], hand: list[int]) -> tuple[list[int], set[int], list[int]]:
        """The discard pile as remembered, the cards known in other hands, the unseen cards."""
        pile = self.discards.pile(obs["discard_top"], obs["discard_size"])
        known = {_parse(c) for seat_cards in obs["known"] for c in seat_cards}
        seen = set(hand) | set(pile) | known
        return pile, known, list(filterfalse(seen.__contains__, ALL_CARDS))

    def _discard(self, obs: dict[str, Any], hand: list[int], legal: list[Action]) -> Action:
        taken = _parse(obs["taken"]) if obs["taken"] else None
        _, throw = self.best_keep(hand, keep=taken)
        kept = [c for c in hand if c != throw]
        if ("discard", throw, True) in legal and not self._hold_out(
            obs, kept, self._seen(obs, hand)[2]
        ):
            return ("discard", throw, True)
        return ("discard", throw, False)

    def _hold_out(self, obs: dict[str, Any], hand: list[int], unseen: list[int]) -> bool:
        """Keep a Thirty-two quiet for a round, hoping to lower its wild count?"""
        if not self.wilds or obs["knocker"] is not None:
            return False
        mine = sum(WILDS[c] for c in hand)
        if mine < self.holdout_wilds or obs.get("hand_turns", 0) > 2 * len(obs["in_hand"]):
            return False
        better = 0
        for u in unseen:
            for pair in _pairs(hand):
                keep = [*pair, u]
                if self.score(keep) >= THIRTY_TWO and sum(WILDS[c] for c in keep) < mine:
                    better += 1
                    break
        return better / max(1, len(unseen)) >= 0.15

    def _should_knock(
        self, obs: dict[str, Any], hand: list[int], unseen: list[int], known: set[int]
    ) -> bool:
        score = self.score(hand)
        if score < 18:
            return False
        seat = self.seat
        opponents = [s for s in obs["in_hand"] if s != seat]
        counters = obs["counters"]
        turns_each = obs.get("hand_turns", 0) // max(1, len(obs["in_hand"]))
        typical = self.strength[min(turns_each + 1, MAX_DRAWS)]
        table_q = typical[min(score, 36)]
        samples = self.samples
        sampled: list[Sampled] = []
        by_seat = [(bool(obs["known"][opp]), min(3, counters[opp])) for opp in opponents]
        for opp in opponents:
            # What they took from the pile tells us more than the table: random hands
            # around those cards, improved by a draw per turn (a long hand, without wilds
            # or a Thirty-two to end it, may outlast the unseen cards).
            cards = [_parse(c) for c in obs["known"][opp]]
            if cards:
                draws = max(0, min(turns_each + 1, len(unseen) - (3 - len(cards))))
                sampled.append((cards, draws, score))

        def knock_pays(beaten: list[int]) -> bool:
            """With ``n`` opponents each beating us with chance ``q``, a knock wins
            ``(1-q)^n`` of the time and collects from everyone, else pays each who beats
            us; ``beaten`` counts the samples that beat us, for the opponents sampled."""
            left = iter(beaten)
            win_gain = 0.0
            p_all_below = 1.0
            lose_cost = 0.0
            for sampled_opp, gain in by_seat:
                q = next(left) / samples if sampled_opp else table_q
                p_all_below *= 1 - q
                win_gain += gain
                lose_cost += q * 3
            lose_cost = min(lose_cost, counters[seat]) if p_all_below < 1 else 0.0
            expected = p_all_below * win_gain - (1 - p_all_below) * lose_cost
            return expected > self.margin * len(opponents)

        return sampled_decision(self.rows, self.rng, unseen, samples, sampled, knock_pays)


def _pairs(hand: list[int]) -> list[list[int]]:
    a, b, c = hand
    return [[a, b], [a, c], [b, c]]


class ThirtyTwoPlayout(Playout):
    """A fast greedy policy for ISMCTS playouts in sampled worlds.

    It reads the sampled state directly for speed but only what its seat could see
    there (its own hand, the face-up card, public counts): take the face-up card
    when it improves the hand, else draw; throw the card whose loss keeps the best
    score; knock when the heuristic's table says a knock pays (every opponent below
    us after one more turn each); declare every Thirty-two.
    """

    margin = 0.5

    def choose(self, view: SampledView) -> Action:
        state = cast(ThirtyTwoState, view.world)
        seat = self.seat
        hand = state.hands[seat]
        game = state.game
        wilds, cap = not game.options["no_wilds"], bool(game.options["cap_at_32"])
        if state.phase == TURN:
            now = score3(hand[0], hand[1], hand[2], wilds, cap)
            if now >= THIRTY_TWO:
                return ("declare",)
            if state.knocker < 0 and now >= 18:
                opponents = len(state.seats_in) - 1
                turns_each = (state.turns - state.turns_before) // (opponents + 1)
                q = strength_table(wilds, cap)[min(turns_each + 1, MAX_DRAWS)][min(now, 36)]
                win = (1 - q) ** opponents
                if 3 * opponents * (win - q) > self.margin * opponents:
                    return ("knock",)
            top = state.pile[-1]
            a, b, c = hand
            best = max(
                score3(a, b, top, wilds, cap),
                score3(a, c, top, wilds, cap),
                score3(b, c, top, wilds, cap),
            )
            return ("take",) if best > now else ("draw",)
        taken = state.taken
        best_score, throw = -1, hand[0]
        for i, card in enumerate(hand):
            if card == taken:
                continue
            rest = hand[:i] + hand[i + 1 :]
            points = score3(rest[0], rest[1], rest[2], wilds, cap)
            if points > best_score:
                best_score, throw = points, card
        return ("discard", throw, best_score >= THIRTY_TWO)


def end_of_hand(root: State, current: State) -> bool:
    """Playouts stop when the hand being played is settled."""
    return cast(ThirtyTwoState, current).hand_no != cast(ThirtyTwoState, root).hand_no


def two_hands_later(root: State, current: State) -> bool:
    """Expert's horizon: two hands after the one being played is settled (or the game's
    end, which comes first at the default counters).  A module-level function, as every
    part of a search spec but the game's own ``SEARCH``: bots are pickled to workers."""
    return cast(ThirtyTwoState, current).hand_no - cast(ThirtyTwoState, root).hand_no > 2


def _counters(state: State) -> list[int]:
    return cast(ThirtyTwoState, state).counters


def _knock(players: int) -> float:
    return 3.0 * (players - 1)


standings = standings_by(_counters, _knock, places=0.3)
"""Counters won or lost in the hand, and the places they make (see ``ismcts.standings_by``);
a knock's worth is the unit: hard's reward.  The counters weigh most, as if a game
lasted many hands and a place in the middle of it said little; at the default counters it
lasts about two hands, so expert plays on to the game's end and scores ``places``
(docs/bots.md, "Thirty-Two: expert plays out to the game's end")."""

_places = standings_by(_counters, _knock, places=0.9)


def places(root: State, leaf: State) -> list[float]:
    """Finishing places (the result, where a playout reaches the game's end), the counters
    won a small term: what a match scores.  A named wrapper because ``standings_by``
    returns a closure, which does not pickle."""
    return _places(root, leaf)


def improved_opponents(world: State, seat: int, rng: Rng) -> None:
    """Opponents have spent their turns improving their hands: give each hidden hand as
    many greedy swaps with unseen cards as that player has had turns this hand.

    Only cards nobody has seen move (a hidden hand card for an unseen stock card), so
    the sample stays consistent with what ``seat`` knows.
    """
    state = cast(ThirtyTwoState, world)
    if state.phase == OVER:
        return
    game = state.game
    wilds, cap = not game.options["no_wilds"], bool(game.options["cap_at_32"])
    stock = state.stock
    public = state.public
    for other in state.seats_in:
        if other == seat:
            continue
        hand = state.hands[other]
        if len(hand) != 3:
            continue
        played = state.turns - state.turns_before
        for _ in range(turns_taken(state.seats_in, state.nxt[state.dealer], played, other)):
            if stock.size == 0:
                return
            j = rng.below(stock.size)
            card = stock.cards[j]
            best, swap = score3(hand[0], hand[1], hand[2], wilds, cap), -1
            for i in range(3):
                if hand[i] in public:
                    continue
                trial = hand.copy()
                trial[i] = card
                points = score3(trial[0], trial[1], trial[2], wilds, cap)
                if points > best:
                    best, swap = points, i
            if swap >= 0:
                stock.cards[j], hand[swap] = hand[swap], card


SEARCH = SearchSpec(
    evaluate=standings,
    horizon=end_of_hand,
    playout_bot=ThirtyTwoPlayout,
    belief=improved_opponents,
)

TO_GAME_END = replace(SEARCH, evaluate=places, horizon=two_hands_later)
"""Expert's search: at the default counters a game lasts about two hands (1.8 with 3
players, 2.3 with 4, in playouts), so playouts go on to its end and score the places
there, where hard's stop at the hand's end and weigh the counters won."""

LEVELS: dict[str, type[Bot]] = {
    "easy": sloppy(ThirtyTwoHeuristic, 0.25, "the heuristic, with a wrong move one time in four"),
    "medium": ThirtyTwoHeuristic,
    "hard": searching(
        SEARCH, ThirtyTwoHeuristic, 1000, 0.0, "ISMCTS, 1000 determinizations per decision"
    ),
    "expert": searching(
        TO_GAME_END,
        ThirtyTwoHeuristic,
        3000,
        0.0,
        "ISMCTS, 3000 determinizations per decision, played out to the game's end",
    ),
}
"""The difficulty levels of Thirty-Two (see ``docs/bots.md`` for how they compare)."""
