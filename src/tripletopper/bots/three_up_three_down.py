"""A sensible 3UP 3DOWN player that sees only its own observation.

- **3UP choice.**  The three strongest cards go face up (Clears first, then the
  highest numbers): they are played late, when there is no stock to help, so
  they should be hard to get stuck with.
- **Shedding.**  It plays the lowest value it may, all its copies at once, and
  keeps high cards to answer high tops later.  Completing a run of three that
  clears a pile of some size is free, so it takes that first.
- **Clears** are saved: played when it is stuck (a Clear beats everything) or
  when the pile has grown to ``big`` cards, cheapest kind first.
- **Counting.**  It tracks every card that is out of the game (cleared), on
  the pile, face up or known in a hand, so it knows how many of each value the
  others could still hold.  With a big pile it keeps its Clear if a number it
  can play would probably leave the next player unable to answer (few higher
  cards or Clears unseen): that player then picks the big pile up.
- **Optional draws** before an extra play are taken while it holds three cards
  or fewer (the end-of-turn refill would bring it to three anyway, so the draw
  only adds choice); with more it would only add a card to shed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import replace
from functools import lru_cache
from typing import Any, cast

from tripletopper.bots.base import Bot, Playout, SampledView, SeatView
from tripletopper.bots.ismcts import SearchSpec, standings_by
from tripletopper.bots.levels import searching, sloppy
from tripletopper.cards.three_up import CLEAR, RANK, RANK_NAMES, THREE_UP, TOP_RANK, deck_cards
from tripletopper.engine import Action, Game, State
from tripletopper.games.three_up_three_down.actions import DRAW, choose_action
from tripletopper.games.three_up_three_down.rules import CHOOSE, ThreeUpThreeDownState

_parse = THREE_UP.parse
_RANK_OF_NAME = {name: r for r, name in enumerate(RANK_NAMES) if r}


@lru_cache(maxsize=8)
def deck_counts(colors: str) -> tuple[int, ...]:
    """Physical cards of each rank in a deck of these colors."""
    counts = [0] * (TOP_RANK + 1)
    for card in deck_cards(colors):
        counts[RANK[card]] += 1
    return tuple(counts)


class ThreeUpHeuristic(Bot):
    name = "heuristic"
    description = (
        "strong 3UP cards, sheds the lowest card or set, saves Clears for big piles or when "
        "stuck, counts the cleared cards"
    )

    def __init__(
        self, game: Game, seat: int, seed: int = 0, *, big: int = 5, trap: float = 0.5
    ) -> None:
        super().__init__(game, seat, seed)
        if big < 1:
            raise ValueError("big must be at least 1")
        self.big = big
        self.trap = trap

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        obs = view.observation()
        if obs["phase"] == "choose":
            ranks = sorted((RANK[_parse(c)] for c in obs["hand"]), reverse=True)
            return choose_action(ranks[:3])
        plays = [a for a in legal if a[0] == "play"]
        if DRAW in legal and (not plays or len(obs["hand"]) <= 3):
            return DRAW
        if not plays:
            return legal[0]  # pick up
        numbers = [a for a in plays if a[1][0] < CLEAR]
        clears = [a for a in plays if a[1][0] >= CLEAR]
        if not numbers:
            return clears[0]  # stuck: the cheapest Clear
        pile = obs["pile_size"]
        if pile >= 3 and obs["top"] is not None:
            top = _RANK_OF_NAME[obs["top"]]
            for action in numbers:
                if action[1][0] == top and obs["run"] + len(action[1]) >= 3:
                    return action  # completes a run: the pile goes for free
        lowest = _all_copies(numbers)
        if clears and pile >= self.big:
            unseen = self.unseen(obs)
            for action in (lowest, _all_copies(numbers, highest=True)):
                if self.p_stuck(obs, action[1][0], unseen) >= self.trap:
                    return action  # the next player will probably have to take the pile
            return clears[0]
        return lowest

    # --- card counting ------------------------------------------------------------------
    def unseen(self, obs: dict[str, Any]) -> list[int]:
        """How many cards of each rank this seat has not seen: the stock, the 3DOWN cards
        and the others' hidden hand cards (all that is not cleared, on the pile, face up,
        in its hand or known in another hand)."""
        counts = list(deck_counts(obs["colors"]))
        seen = obs["cleared"] + obs["pile"] + obs["hand"]
        for info in obs["seats"]:
            seen += (info["up"] or []) + info["known"]
        for name in seen:
            counts[RANK[_parse(name)]] -= 1
        return counts

    def p_stuck(self, obs: dict[str, Any], rank: int, unseen: list[int]) -> float:
        """Chance that the next player cannot answer a ``rank`` on the pile."""
        players = obs["players"]
        nxt = (self.seat + 1) % players
        seats = obs["seats"]
        while seats[nxt]["out"]:
            nxt = (nxt + 1) % players
        info = seats[nxt]
        total = sum(unseen)
        if not total:
            return 0.0
        beat = sum(unseen[rank:]) / total
        if info["hand_size"] == 0 and obs["stock_size"] == 0:
            up = [RANK[_parse(c)] for c in info["up"] or []]
            if up:
                return 0.0 if any(r >= rank for r in up) else 1.0
            return 1.0 - beat  # a blind 3DOWN flip
        if any(RANK[_parse(c)] >= rank for c in info["known"]):
            return 0.0
        bounded = [_RANK_OF_NAME[b] for b in info["hidden_at_most"]]
        free = info["hand_size"] - len(info["known"]) - len(bounded)
        stuck: float = (1.0 - beat) ** max(0, int(free))
        for bound in bounded:
            if bound >= rank:
                stuck *= 1.0 - sum(unseen[rank : bound + 1]) / max(1, sum(unseen[1 : bound + 1]))
        return stuck


def _all_copies(numbers: list[Action], highest: bool = False) -> Action:
    """The play of every copy of the lowest (or highest) playable value."""
    rank = numbers[-1][1][0] if highest else numbers[0][1][0]
    return max((a for a in numbers if a[1][0] == rank), key=lambda a: len(a[1]))


class ThreeUpPlayout(Playout):
    """A fast greedy policy for ISMCTS playouts in sampled worlds.

    It reads the sampled state for speed, but only what its seat could see there
    (its legal plays, the pile): complete a run of three on a pile of three or more,
    else shed the lowest value with all its copies; play a Clear when stuck or on a
    pile of five or more; take the optional draws while holding three or fewer.
    """

    def choose(self, view: SampledView) -> Action:
        state = view.world
        assert isinstance(state, ThreeUpThreeDownState)
        seat = self.seat
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        if state.phase == CHOOSE:
            ranks = sorted((RANK[c] for c in state.hands[seat]), reverse=True)
            return choose_action(ranks[:3])
        plays = [a for a in legal if a[0] == "play"]
        if DRAW in legal and (not plays or len(state.hands[seat]) <= 3):
            return DRAW
        if not plays:
            return legal[0]
        numbers = [a for a in plays if a[1][0] < CLEAR]
        if not numbers:
            return plays[0]
        if len(state.pile) >= 3:
            for action in numbers:
                if action[1][0] == state.run_rank and state.run_len + len(action[1]) >= 3:
                    return action
        if len(numbers) < len(plays) and len(state.pile) >= 5:
            return next(a for a in plays if a[1][0] >= CLEAR)
        return _all_copies(numbers)


def cards_left(state: State) -> list[int]:
    """Minus the cards each seat still has to shed (more is worse)."""
    table = cast(ThreeUpThreeDownState, state)
    return [
        -(len(table.hands[s]) + len(table.up[s]) + len(table.down[s]))
        for s in range(table.game.players)
    ]


standings = standings_by(cards_left, lambda players: 6.0)

PLAYOUT_PLIES = 200
"""A playout runs to the end of the game, or this many plies (then it is worth nothing)."""

SEARCH_STOCK = 30
"""The searching levels search a decision once the stock is down to this many cards;
before, they play the heuristic's move.

Early play decides little: in 3,000 games of medium against medium, nothing in a
position while 20 or more cards were left in the stock (cards left, Clears, low and high
cards, the 3UP cards) predicted the winner any better than a coin (a logistic fit), and
a medium that played a random move one time in four while more than 30 were left still
scored 49.3% (95%: +-1.8 points, 800 duplicate deals) against medium; the same mistakes
from 30 cards on cost 3-5 points.  The budget goes where the game is decided."""


def searchable(view: SeatView) -> bool:
    """Search the decision once the stock is down to ``SEARCH_STOCK`` cards."""
    return int(view.observation()["stock_size"]) <= SEARCH_STOCK


def horizon(root: State, current: State) -> bool:
    """``PLAYOUT_PLIES`` after the decision (a module-level function: bots are pickled)."""
    return current.version - root.version >= PLAYOUT_PLIES


def evaluate(root: State, leaf: State) -> list[float]:
    """Places by cards left (``standings``) once the game is over; a playout that has not
    finished goes round in circles and is worth nothing to anyone, less than a loss.

    Counted by cards left at a horizon, a circle (the same pile passed back and forth
    by two players who cannot beat each other's cards) looked better than the lines
    that finish with a loss in some of the sampled worlds, so the search chose it, and
    two bots could play the same circle for hundreds of turns (issue 15).  Before the
    stock is gone, cards left at a horizon say next to nothing about who wins (see
    ``SEARCH_STOCK``): playouts run to the end of the game."""
    if not leaf.is_terminal():
        return [0.0] * leaf.game.players
    return standings(root, leaf)


def _position(obs: dict[str, Any]) -> Hashable:
    """What a seat sees of a position, but the turn count: equal when play went round."""
    seats = tuple(
        (info["hand_size"], tuple(info["up"] or ()), info["down"], tuple(sorted(info["known"])))
        for info in obs["seats"]
    )
    return (
        tuple(obs["pile"]),
        tuple(sorted(obs["hand"])),
        seats,
        obs["stock_size"],
        len(obs["cleared"]),
        obs["extra_plays"],
        obs["may_draw"],
    )


def unrepeating(inner: type[Bot]) -> type[Bot]:
    """``inner``, but back at a position it has played before it plays the move it has
    played least often there: two searching bots each making the other pick up, each
    expecting a weaker reply (its playouts), can pass one pile back and forth for ever
    (issue 15); varying the move breaks the circle."""

    class Unrepeating(inner):  # type: ignore[valid-type, misc]
        def __init__(self, game: Game, seat: int, seed: int = 0, **params: Any) -> None:
            super().__init__(game, seat, seed, **params)
            self.played: dict[Hashable, Counter[Action]] = {}

        def choose(self, view: SeatView) -> Action | None:
            action: Action | None = super().choose(view)
            obs = view.observation()
            if action is None or obs["phase"] == CHOOSE:
                return action
            played = self.played.setdefault(_position(obs), Counter())
            if played[action]:
                last = action
                action = min(view.legal_actions(), key=lambda a: (played[a], a != last))
            played[action] += 1
            return action

    return Unrepeating


def choice_shortlist(view: SeatView, legal: list[Action]) -> list[Action]:
    """At the start, the heuristic's choice of cards up (the three strongest) and every
    choice that swaps one of them for one of the three it keeps in hand; later, every move."""
    if view.observation()["phase"] != "choose":
        return legal
    ranks = sorted((RANK[_parse(c)] for c in view.observation()["hand"]), reverse=True)
    up, kept = ranks[:3], ranks[3:]
    swaps = [choose_action(up[:i] + up[i + 1 :] + [k]) for i in range(3) for k in kept]
    return list(dict.fromkeys([choose_action(up), *swaps]))


def searching_the_choice(inner: type[Bot]) -> type[Bot]:
    """``inner`` (a searching level), but it also searches its choice of cards up at the
    start, over ``choice_shortlist``, with playouts to the end of the game: the choice
    decides the end of the game, where the cards up are played, and nothing before
    (everyone chooses at once, so the search otherwise leaves it to the heuristic)."""

    class SearchingTheChoice(inner):  # type: ignore[valid-type, misc]
        def choose(self, view: SeatView) -> Action | None:
            if view.observation()["phase"] == "choose" and self.seat in view.to_act():
                return cast(Action, self.search(view, self.fallback.choose(view)))
            return cast("Action | None", super().choose(view))

    return SearchingTheChoice


SEARCH = SearchSpec(
    evaluate=evaluate,
    horizon=horizon,
    searchable=searchable,
    playout_bot=ThreeUpPlayout,
    paired=12,
)

EXPERT_SEARCH = replace(SEARCH, shortlist=choice_shortlist)

HARD_PLAYOUTS = 400
"""Hard's heads-up budget: a quarter of the 1600 it had, where expert was no stronger; with
400 the search still pays (expert scores 58.5% against it) and hard stays above 60%
against medium (docs/bots.md, "3UP 3DOWN: hard's budget")."""


def hard_budget(game: Game) -> int:
    """Hard's playouts: 400 heads-up; 100 with three players or more, where expert was no
    stronger than 400 (49.5% at 4 players) but scores 54.0% against 100, and hard with 100
    still beats medium (docs/bots.md, "3UP 3DOWN: hard's budget with more players")."""
    return HARD_PLAYOUTS if game.players == 2 else 100


LEVELS: dict[str, type[Bot]] = {
    "easy": sloppy(ThreeUpHeuristic, 0.25, "the heuristic, with a wrong move one time in four"),
    "medium": ThreeUpHeuristic,
    "hard": unrepeating(
        searching(
            SEARCH,
            ThreeUpHeuristic,
            hard_budget,
            0.0,
            "the heuristic until 30 cards are left in the stock, then 400 playouts per "
            "decision heads-up (100 with more players), to the end of the game, moves "
            "compared on the same worlds",
        )
    ),
    "expert": unrepeating(
        searching_the_choice(
            searching(
                EXPERT_SEARCH,
                ThreeUpHeuristic,
                4800,
                0.0,
                "the cards up chosen by search too (10 choices played out to the end), "
                "4800 playouts per decision from 30 cards in the stock",
            )
        )
    ),
}
"""The difficulty levels of 3UP 3DOWN (see ``docs/bots.md`` for how they compare)."""
