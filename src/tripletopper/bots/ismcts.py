"""Information-set Monte Carlo tree search (single-observer ISMCTS), for every game.

The bot decides from its own seat's view only.  Each iteration:

1. **Determinize**: ``view.sample(rng)`` deals everything this seat cannot see
   again at random, consistently with what it has seen, and reseeds chance; a
   game may then reshape the sample toward a likelier one (its ``belief``: say,
   opponents who have had turns hold better hands than random ones).  The
   search reads states only there: every state it holds is a sampled world
   (:class:`SampledView`), never the true one, which its :class:`SeatView` keeps.
2. **Select** down a tree of this seat's own decisions with UCB1, counting for
   each child how often it was available (legal) when its parent was visited,
   since different determinizations allow different actions (Cowling, Powley
   and Whitehouse, 2012).  Other seats move by the playout policy, which
   decides from their own sampled cards: a tree node shared by many samples of
   an opponent's hand would choose for that opponent with knowledge pooled
   over hands it does not hold (strategy fusion), making opponents play badly
   in the tree and every risky move look good.  The tree holds ``depth`` of the
   seat's own decisions (1 by default, a flat search over the move to make);
   deeper, its own later choices would be pooled over cards it has not yet
   drawn.
3. **Expand** one untried action, then **play out** with a fast policy until the
   game ends or a game-defined horizon (the end of the current hand), and
   **evaluate** there: a reward in [0, 1] for every seat.
4. **Back up** each node's reward for the seat that moved into it.

The bot plays the most visited move - unless its fallback (the game's
heuristic) would play another and the search is not ``confidence`` standard
errors sure that its own move is better: search refines a good heuristic
rather than replacing it with noisy estimates of close calls.

Chance (draws, deals) happens inside ``apply`` from the determinization's own
reseeded generator, so each iteration meets a different chance outcome.
Phases where several seats may act at once (races, secret simultaneous
choices) are not searched: the bot hands them to its fallback bot (the game's
heuristic), and playouts resolve them the way the runner does.

Deterministic for a seed when the budget is in iterations; a time budget
(``seconds=``) stops on the clock (outside the engine) and so may vary run to
run.  A caller's ``time_budget`` (the card room's, below its deadline) also
stops an iteration budget early, so a loaded machine costs strength, not time.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from tripletopper.bots.base import (
    Bot,
    Playout,
    RandomBot,
    RandomPlayout,
    SampledView,
    SeatView,
    at_least,
    first_to_act,
    whole,
)
from tripletopper.engine import Action, Game, Rng, State

Evaluate = Callable[[State, State], list[float]]
"""``evaluate(root, leaf)``: each seat's reward in [0, 1] at a playout's end.  Both are
sampled worlds (``SampledView.world``); ``root`` is a sample of the decision's position:
read only public facts from it."""
Horizon = Callable[[State, State], bool]
"""``horizon(root, current)``: True when a playout may stop before the game's end (both
sampled worlds)."""
Belief = Callable[[State, int, Rng], None]
"""``belief(world, seat, rng)``: reshape a fresh determinization (``SampledView.world``)
in place toward what ``seat`` should believe (e.g. opponents who had turns hold better
cards than random), using only public facts and keeping every card ``seat`` knows where
it is."""


def game_result(root: State, leaf: State) -> list[float]:
    """Rewards from the finished game: 1 shared by the winners (see ``Results.returns``)."""
    results = leaf.results()
    if results is None:
        return [1.0 / leaf.game.players] * leaf.game.players
    return results.returns()


def standings_by(
    score: Callable[[State], list[int]], scale: Callable[[int], float], places: float = 0.85
) -> Evaluate:
    """Rewards from finishing places, for games that keep a score per seat (counters, lives).

    A place is worth ``(players - place) / (players - 1)`` - 1 for first, 0 for last,
    ties shared - taken from the result once the game is over, else from ranking the
    scores as they stand.  The score won or lost since the root, over ``scale(players)``,
    adds a smooth term so that within one place more still counts: the place weighs
    ``places``, the margin the rest.
    """

    weight = places

    def evaluate(root: State, leaf: State) -> list[float]:
        players = leaf.game.players
        after = score(leaf)
        results = leaf.results()
        if results is not None:
            ranks = [results.rank_of(s) for s in range(players)]
        else:
            ranks = [
                1 + sum(1 for c in after if c > mine) + (sum(1 for c in after if c == mine) - 1) / 2
                for mine in after
            ]
        before = score(root)
        unit = scale(players)
        return [
            weight * ((players - ranks[s]) / (players - 1) if players > 1 else 1.0)  # alone: first
            + (1 - weight) * (0.5 + 0.5 * max(-1.0, min(1.0, (after[s] - before[s]) / unit)))
            for s in range(players)
        ]

    return evaluate


def within_plies(plies: int) -> Horizon:
    """A horizon: stop a playout ``plies`` actions after the decision being searched."""

    def horizon(root: State, current: State) -> bool:
        return current.version - root.version >= plies

    return horizon


def turns_taken(seats: list[int], first: int, played: int, seat: int) -> int:
    """Turns ``seat`` has had when ``played`` turns went round ``seats`` from ``first``."""
    position = (seats.index(seat) - seats.index(first)) % len(seats)
    return 0 if played <= position else (played - position - 1) // len(seats) + 1


@dataclass(frozen=True)
class SearchSpec:
    """How to search one game: playouts, where they may stop, and how to score there."""

    evaluate: Evaluate = game_result
    horizon: Horizon | None = None
    belief: Belief | None = None
    searchable: Callable[[SeatView], bool] | None = None
    """Whether to search this decision (default: every lone decision); the fallback
    bot takes the others (a quiz answer is knowledge, not planning)."""
    shortlist: Callable[[SeatView, list[Action]], list[Action]] | None = None
    """The root moves worth searching (default: every legal move); the search spends its
    budget on them alone (the fallback's move is always added)."""
    paired: int = 0
    """With at most this many root moves (after the shortlist), compare them on common
    random numbers instead of growing a tree: every sampled world is played out once
    after each move, from clones that share its future chance (see :meth:`ISMCTSBot.compare`)."""
    playout_bot: type[Playout] = RandomPlayout
    exploration: float = 0.3


class Node:
    __slots__ = ("actor", "avail", "children", "reward", "squares", "visits")

    def __init__(self, actor: int) -> None:
        self.actor = actor  # the seat whose move led here
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.squares = 0.0  # sum of squared rewards, for the confidence of a root choice
        self.children: dict[Action, Node] = {}

    def mean(self) -> float:
        return self.reward / self.visits if self.visits else 0.0

    def variance_of_mean(self) -> float:
        if self.visits < 2:
            return 1.0
        mean = self.reward / self.visits
        return max(0.0, self.squares / self.visits - mean * mean) / (self.visits - 1)


@dataclass
class SearchStats:
    iterations: int = 0
    seconds: float = 0.0
    root_visits: dict[str, int] = field(default_factory=dict)
    root_values: dict[Action, tuple[int, float]] = field(default_factory=dict)
    """Each root action's visits and mean reward for the searching seat (the review reads them)."""


class ISMCTSBot(Bot):
    """Searches every decision of its seat; hands several-seats phases to ``fallback``."""

    name = "ismcts"
    description = "information-set Monte Carlo tree search over the seat's own view"
    parameters: ClassVar[tuple[str, ...] | None] = (
        "iterations",
        "seconds",
        "exploration",
        "confidence",
        "depth",
        "paired",
    )

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        iterations: int = 1000,
        seconds: float = 0.0,
        spec: SearchSpec | None = None,
        fallback: Bot | None = None,
        exploration: float | None = None,
        confidence: float = 1.0,
        depth: int = 1,
        paired: int | None = None,
    ) -> None:
        super().__init__(game, seat, seed)
        self.iterations = whole("iterations", iterations, 1)
        self.seconds = at_least("seconds", seconds, 0.0)
        self.spec = spec or SearchSpec()
        if paired is not None:  # the spec's paired comparison, overridden (``hard:paired=0``)
            self.spec = replace(self.spec, paired=whole("paired", paired, 0))
        self.exploration = (
            self.spec.exploration
            if exploration is None
            else at_least("exploration", exploration, 0)
        )
        self.confidence = at_least("confidence", confidence, 0.0)
        """How many standard errors better a move must look to overrule the fallback's
        (0: always play the search's own choice)."""
        self.depth = whole("depth", depth, 1)
        """How many of this seat's own decisions the tree holds (then the playout policy)."""
        self.fallback = fallback or RandomBot(game, seat, seed)
        self.playout_bots = [
            self.spec.playout_bot(game, s, seed + 101 + s) for s in range(game.players)
        ]
        self.derive()

    checked_playouts = False
    """Check every playout action's legality (tests; playout policies play legal actions by
    construction, and the check lists the legal actions at every ply)."""

    derived = ("last",)
    """The last search's statistics are read where it ran (the review), not sent on."""

    def derive(self) -> None:
        self.last = SearchStats()

    def reaction_time(self, view: SeatView) -> float:
        return self.fallback.reaction_time(view)

    def observe(self, events: list[Mapping[str, Any]]) -> None:
        self.fallback.observe(events)  # a fallback with a memory keeps it up to date

    def choose(self, view: SeatView) -> Action | None:
        legal = view.legal_actions()
        searchable = self.spec.searchable
        if len(view.to_act()) > 1 or (searchable is not None and not searchable(view)):
            return self.fallback.choose(view)
        if len(legal) == 1:
            return legal[0]
        default = self.fallback.choose(view) if self.confidence > 0 else None
        return self.search(view, default)

    # --- the search --------------------------------------------------------------
    def search(self, view: SeatView, default: Action | None = None) -> Action:
        """The most visited move, or ``default`` unless the search is confident it is worse."""
        rng = self.rng
        root = Node(self.seat)
        spec = self.spec
        c = self.exploration
        started = time.perf_counter()
        timed = self.seconds > 0  # a time budget instead of an iteration budget
        limits = [t for t in (self.seconds if timed else None, self.time_budget) if t is not None]
        deadline = started + min(limits) if limits else None
        iterations = 0
        me = self.seat
        players = self.game.players
        horizon = spec.horizon
        playout_bots = self.playout_bots
        max_depth = self.depth
        # Horizons and evaluations compare with where the search started; they read
        # only public facts (hand number, counters), the same in every sample.
        origin = view.sample(rng).world
        allowed: set[Action] | None = None
        if spec.shortlist is not None:
            allowed = set(spec.shortlist(view, view.legal_actions()))
            if default is not None:
                allowed.add(default)
        if self.depth == 1 and spec.paired:
            moves = [a for a in view.legal_actions() if allowed is None or a in allowed]
            if len(moves) <= spec.paired:
                return self.compare(view, origin, moves, default, started, deadline)
        while True:
            if not timed and iterations >= self.iterations:
                break
            if deadline is not None and iterations and time.perf_counter() >= deadline:
                break
            iterations += 1
            world = view.sample(rng).world
            if spec.belief is not None:
                spec.belief(world, self.seat, rng)
            node = root
            path = [root]
            # Selection and expansion over this seat's own decisions; other seats
            # move by the playout policy, which sees their (sampled) cards.
            views = [SampledView(world, s) for s in range(players)]
            depth = 0
            while not world.is_terminal():
                if horizon is not None and horizon(origin, world):
                    break
                seats = world.to_act()
                if len(seats) != 1:
                    break
                actor = seats[0]
                if actor != me:
                    move = playout_bots[actor].choose(views[actor])
                    if move is None:
                        break
                    world.apply(move, actor, events=False)
                    continue
                if depth >= max_depth:
                    break
                depth += 1
                legal = world.legal_actions(actor)
                if allowed is not None and node is root:
                    legal = [a for a in legal if a in allowed] or legal
                children = node.children
                untried = []
                best = None
                best_value = -1.0
                for action in legal:
                    child = children.get(action)
                    if child is None:
                        untried.append(action)
                        continue
                    child.avail += 1
                    value = child.reward / child.visits + c * math.sqrt(
                        math.log(child.avail) / child.visits
                    )
                    if value > best_value:
                        best, best_value = action, value
                if untried:
                    action = untried[rng.below(len(untried))]
                    child = Node(actor)
                    children[action] = child
                    world.apply(action, actor, events=False)
                    path.append(child)
                    break
                assert best is not None
                world.apply(best, actor, events=False)
                node = children[best]
                path.append(node)
            # Playout.
            rewards = self._playout(origin, world)
            for visited in path[1:]:
                reward = rewards[visited.actor]
                visited.visits += 1
                visited.reward += reward
                visited.squares += reward * reward
        legal_now = view.legal_actions()
        choice = max(
            (a for a in legal_now if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].reward),
            default=legal_now[0],
        )
        if default is not None and default != choice and default in root.children:
            # Keep the fallback's move unless the search is sure it found a better one.
            found, usual = root.children[choice], root.children[default]
            spread = math.sqrt(found.variance_of_mean() + usual.variance_of_mean())
            if found.mean() - usual.mean() <= self.confidence * spread:
                choice = default
        self.last = SearchStats(
            iterations,
            time.perf_counter() - started,
            {self.game.action_to_text(a): n.visits for a, n in root.children.items()},
            {a: (n.visits, n.mean()) for a, n in root.children.items()},
        )
        return choice

    def value_of(self, view: SeatView, action: Action, iterations: int) -> float:
        """The mean reward of playing ``action`` now, over ``iterations`` determinizations,
        each played out by the playout policy: what a root child of a search (depth 1)
        estimates, measured alone for a move the search hardly tried (a review's)."""
        rng = self.rng
        origin = view.sample(rng).world
        total = 0.0
        for _ in range(iterations):
            world = view.sample(rng).world
            if self.spec.belief is not None:
                self.spec.belief(world, self.seat, rng)
            world.apply(action, self.seat, events=False)
            total += self._playout(origin, world)[self.seat]
        return total / max(1, iterations)

    def compare(
        self,
        view: SeatView,
        origin: State,
        moves: list[Action],
        default: Action | None,
        started: float,
        deadline: float | None,
    ) -> Action:
        """Flat Monte Carlo on common random numbers: each sampled world is cloned once
        per move (the clones share the world's hidden cards and future chance), the move
        applied and played out.  The differences between two moves then measure the moves,
        not the luck of two different worlds: the best mean is played, unless ``default``
        (the fallback's move) is within ``confidence`` standard errors of the paired
        difference."""
        rng = self.rng
        spec = self.spec
        me = self.seat
        rewards: list[list[float]] = [[] for _ in moves]
        samples = max(1, self.iterations // len(moves))
        timed = self.seconds > 0
        while timed or len(rewards[0]) < samples:
            if deadline is not None and rewards[0] and time.perf_counter() >= deadline:
                break
            world = view.sample(rng).world
            if spec.belief is not None:
                spec.belief(world, me, rng)
            for i, move in enumerate(moves):
                twin = world.clone()
                twin.apply(move, me, events=False)
                rewards[i].append(self._playout(origin, twin)[me])
        n = len(rewards[0])
        means = [sum(r) / n for r in rewards]
        best = max(range(len(moves)), key=lambda i: (means[i], -i))
        choice = moves[best]
        if default is not None and default != choice and default in moves and n > 1:
            usual = moves.index(default)
            diffs = [a - b for a, b in zip(rewards[best], rewards[usual], strict=True)]
            mean = sum(diffs) / n
            spread = math.sqrt(max(0.0, sum(d * d for d in diffs) / n - mean * mean) / (n - 1))
            if mean <= self.confidence * spread:
                choice = default
        self.last = SearchStats(
            n * len(moves),
            time.perf_counter() - started,
            {self.game.action_to_text(a): n for a in moves},
            {a: (n, means[i]) for i, a in enumerate(moves)},
        )
        return choice

    def _playout(self, origin: State, world: State) -> list[float]:
        spec = self.spec
        horizon = spec.horizon
        bots = self.playout_bots
        views = [SampledView(world, s) for s in range(world.game.players)]
        checked = self.checked_playouts
        while not world.is_terminal():
            if horizon is not None and horizon(origin, world):
                break
            seats = world.to_act()
            seat = seats[0]
            action = bots[seat].choose(views[seat]) if len(seats) == 1 else None
            if action is None:
                seat, action = _next_in_race(world, bots, views)
            if checked:
                world.apply(action, seat, events=False)
            else:
                world.apply_unchecked(action, seat)
        return spec.evaluate(origin, world)


def _next_in_race(
    world: State, bots: list[Playout], views: list[SampledView]
) -> tuple[int, Action]:
    """Several seats may act: as the runner decides (:func:`first_to_act`); if nobody
    will act and no clock runs, the first seat plays anything."""
    acting = first_to_act(world, bots, views)
    if acting is None:
        seat = world.to_act()[0]
        return seat, world.legal_actions(seat)[0]
    return acting.seat, acting.action


def describe(stats: SearchStats) -> dict[str, Any]:
    """The last search, for logs and the benchmark."""
    return {
        "iterations": stats.iterations,
        "seconds": round(stats.seconds, 4),
        "root_visits": stats.root_visits,
    }
