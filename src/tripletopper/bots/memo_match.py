"""Memo Match bots whose skill is their memory.

- ``perfect`` remembers every card it has seen: it reads its seat's recall
  (``SeatView.recall``, kept exactly by the engine, through swaps).
- ``forgetful`` remembers at most ``capacity`` positions, built from the events
  its seat sees; when it must remember one more, it forgets the one it saw
  longest ago.  It never reads the recall.

Both then play the same way.  A known pair on the table is taken at once
(a triple first).  Otherwise they compare, by the chance of a match given what
they remember, turning an unknown card first (it may match a remembered card,
or a second unknown one) with turning a remembered card and hoping an unknown
one matches it.  They declare "no matches" only when no two cards that may be
on the table can match, as far as they know.  While spotting they claim a
pair they see after ``spot_delay`` seconds (give or take a quarter), their
simulated reaction time.  Bonus cards are taken among remembered cards that
pair with nothing remembered, so the known pairs stay for the extra turn; with
``bonus="unseen"`` (the expert) among cards nobody has seen, so every remembered
card stays too: the taker turns again next, and each card it remembers is one
more card the next unknown flip may pair with (54.9% against taking remembered
cards, 1000 duplicate deals, ``docs/bots.md``).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from functools import cache
from typing import Any, cast

from tripletopper.bots.base import Bot, RandomPlayout, SeatView
from tripletopper.bots.ismcts import SearchSpec, standings_by, within_plies
from tripletopper.bots.levels import preset
from tripletopper.cards.triple_topper import TRIPLE_TOPPER
from tripletopper.engine import Action, Game, State
from tripletopper.games.memo_match.knowledge import PAIR, TRIPLE, bits, compatible
from tripletopper.games.memo_match.layout import DECK_SIZE, MATCH, VARIABLES, parse_position
from tripletopper.games.memo_match.rules import MemoMatchState

_parse = TRIPLE_TOPPER.parse
ALL = (1 << DECK_SIZE) - 1
BONUS_CHOICES = ("remembered", "unseen")
"""Where bonus cards are taken first: remembered cards that pair with nothing remembered,
or cards nobody has seen."""


@cache
def partners(wilds: bool) -> tuple[int, ...]:
    """``partners(wilds)[c]``: bitmask of the cards that make a pair (or triple) with ``c``."""
    table = compatible(VARIABLES[wilds])
    return tuple(table[PAIR][c] | table[TRIPLE][c] for c in range(DECK_SIZE))


class MemoryBot(Bot):
    """The shared play of the Memo Match bots; subclasses say what they remember."""

    def __init__(
        self,
        game: Game,
        seat: int,
        seed: int = 0,
        *,
        spot_delay: float = 8.0,
        bonus: str = "remembered",
    ) -> None:
        super().__init__(game, seat, seed)
        if spot_delay < 0:
            raise ValueError("spot_delay must be 0 or more seconds")
        if bonus not in BONUS_CHOICES:
            raise ValueError(f"bonus must be one of {', '.join(BONUS_CHOICES)}")
        self.bonus_unseen = bonus == "unseen"
        self.spot_delay = float(spot_delay)
        self.delay = self.spot_delay
        self.derive()

    derived = ("variables", "partners")

    def derive(self) -> None:
        wilds = bool(self.game.options["wilds"])
        self.variables = VARIABLES[wilds]
        self.partners = partners(wilds)

    def memory(self, view: SeatView) -> dict[int, int]:
        """Remembered face-down cards: position -> card."""
        raise NotImplementedError

    def placed(self, view: SeatView) -> int:
        """Bitmask of cards known to be somewhere else than an unknown table position."""
        raise NotImplementedError

    # --- deciding ---------------------------------------------------------------------
    def choose(self, view: SeatView) -> Action | None:
        obs = view.observation()
        phase = obs["phase"]
        if phase == "spot":
            return self._spot(obs)
        table = list(map(parse_position, obs["table"]))
        face_up = {parse_position(p): _parse(c) for p, c in obs["face_up"].items() if c}
        on_table = set(table)
        memory = {p: c for p, c in self.memory(view).items() if p in on_table}
        memory.update(face_up)
        known = 0
        for card in memory.values():
            known |= 1 << card
        pool = ALL & ~known & ~self.placed(view)
        unknown = [p for p in table if p not in memory]
        if phase == "bonus":
            return ("take", self._bonus_pick(memory, unknown))
        if phase == "second":
            (first,) = (parse_position(p) for p in obs["face_up"])
            return ("flip", self._second(first, memory, unknown, pool))
        return self._first(memory, unknown, pool)

    def _first(self, memory: dict[int, int], unknown: list[int], pool: int) -> Action:
        pair = self._known_pair(memory)
        if pair is not None:
            return ("flip", pair[0])
        if len(memory) + len(unknown) < 2 or self._no_pair_possible(memory, unknown, pool):
            return ("declare",)
        partners = self.partners
        size = pool.bit_count()
        remembered = 0
        for card in memory.values():
            remembered |= 1 << card
        # Turning an unknown card first: it matches a remembered one, or maybe a second unknown.
        chance_unknown = 0.0
        if unknown and size:
            total = 0.0
            for card in bits(pool):
                if partners[card] & remembered:
                    total += 1.0
                elif len(unknown) >= 2 and size > 1:
                    total += (partners[card] & pool).bit_count() / (size - 1)
            chance_unknown = total / size
        # Turning a remembered card first, then an unknown one.
        best_known, chance_known = -1, -1.0
        if unknown and size:
            for position, card in memory.items():
                chance = (partners[card] & pool).bit_count() / size
                if chance > chance_known:
                    best_known, chance_known = position, chance
        if unknown and chance_unknown >= chance_known:
            return ("flip", unknown[self.rng.below(len(unknown))])
        if best_known >= 0:
            return ("flip", best_known)
        positions = sorted(memory)
        return ("flip", positions[self.rng.below(len(positions))])

    def _second(self, first: int, memory: dict[int, int], unknown: list[int], pool: int) -> int:
        card = memory[first]
        best, best_shared = -1, 0
        for position, other in memory.items():
            if position == first:
                continue
            shared = self.variables[card * DECK_SIZE + other]
            if shared >= MATCH and shared > best_shared:
                best, best_shared = position, shared
        if best >= 0:
            return best
        if unknown:
            return unknown[self.rng.below(len(unknown))]
        others = sorted(p for p in memory if p != first)
        return others[self.rng.below(len(others))]

    def _known_pair(self, memory: dict[int, int]) -> tuple[int, int] | None:
        """Two remembered positions that match (a triple if there is one)."""
        variables = self.variables
        items = sorted(memory.items())
        best: tuple[int, int] | None = None
        for i, (p, a) in enumerate(items):
            for q, b in items[i + 1 :]:
                shared = variables[a * DECK_SIZE + b]
                if shared == 3:
                    return p, q
                if shared >= MATCH and best is None:
                    best = (p, q)
        return best

    def _no_pair_possible(self, memory: dict[int, int], unknown: list[int], pool: int) -> bool:
        """True if, as far as this bot knows, no two cards on the table can match."""
        partners = self.partners
        remembered = 0
        for card in memory.values():
            if partners[card] & remembered:
                return False
            remembered |= 1 << card
        if not unknown:
            return True
        if pool.bit_count() < len(unknown):  # it has lost track: a pair may hide anywhere
            return False
        for card in bits(pool):
            if partners[card] & remembered:
                return False
            if len(unknown) >= 2 and partners[card] & pool & ~(1 << card):
                return False
        return True

    def _bonus_pick(self, memory: dict[int, int], unknown: list[int]) -> int:
        if self.bonus_unseen and unknown:
            return unknown[self.rng.below(len(unknown))]
        partners = self.partners
        remembered = 0
        for card in memory.values():
            remembered |= 1 << card
        singles = sorted(p for p, c in memory.items() if not partners[c] & remembered & ~(1 << c))
        if singles:
            return singles[0]
        if unknown:
            return unknown[self.rng.below(len(unknown))]
        return sorted(memory)[0]

    def _spot(self, obs: Mapping[str, Any]) -> Action | None:
        cards = sorted((parse_position(p), _parse(c)) for p, c in obs["face_up"].items())
        variables = self.variables
        for i, (p, a) in enumerate(cards):
            for q, b in cards[i + 1 :]:
                if variables[a * DECK_SIZE + b] >= MATCH:
                    self.delay = self.spot_delay * (0.75 + 0.5 * self.rng.random())
                    return ("claim", (p, q))
        return None

    def reaction_time(self, view: SeatView) -> float:
        return self.delay


class PerfectBot(MemoryBot):
    name = "perfect"
    description = "remembers every card it has seen; flips by the chance of a match"

    def memory(self, view: SeatView) -> dict[int, int]:
        return {parse_position(p): _parse(c) for p, c in view.recall()["seen"].items()}

    def placed(self, view: SeatView) -> int:
        recall = view.recall()  # its memory of the piles, more than the table shows
        mask = 0
        for pile in (*recall["captured"], *recall["playoff_captured"]):
            for card in pile:
                mask |= 1 << _parse(card)
        return mask


class ForgetfulBot(MemoryBot):
    name = "forgetful"
    description = "remembers only its last `capacity` positions (default 8), built from events"
    wants_events = True

    def __init__(
        self, game: Game, seat: int, seed: int = 0, *, capacity: int = 8, spot_delay: float = 8.0
    ) -> None:
        super().__init__(game, seat, seed, spot_delay=spot_delay)
        if not isinstance(capacity, int) or capacity < 0:
            raise ValueError("capacity must be a whole number of positions, 0 or more")
        self.capacity = capacity
        self.remembered: OrderedDict[int, int] = OrderedDict()
        self.taken = 0
        """Cards it saw leave the table (piles lie in front of the players)."""

    def memory(self, view: SeatView) -> dict[int, int]:
        return dict(self.remembered)

    def placed(self, view: SeatView) -> int:
        return self.taken

    def observe(self, events: list[Mapping[str, Any]]) -> None:
        remembered = self.remembered
        for event in events:
            kind = event["type"]
            if kind == "flipped" and "card" in event:
                position = parse_position(event["pos"])
                remembered.pop(position, None)
                remembered[position] = _parse(event["card"])
                while len(remembered) > self.capacity:
                    remembered.popitem(last=False)
            elif kind in ("matched", "spotted", "wrong_claim"):
                if kind != "wrong_claim":
                    for name in event["positions"]:
                        remembered.pop(parse_position(name), None)
                    for card in event.get("cards", ()):
                        self.taken |= 1 << _parse(card)
            elif kind == "bonus_taken":
                remembered.pop(parse_position(event["pos"]), None)
                self.taken |= 1 << _parse(event["card"])
            elif kind == "missed" and event["swapped"]:
                p, q = (parse_position(name) for name in event["positions"])
                a, b = remembered.pop(p, None), remembered.pop(q, None)
                if a is not None:
                    remembered[q] = a
                if b is not None:
                    remembered[p] = b
            elif kind in ("relaid", "playoff"):
                remembered.clear()
                if kind == "playoff":
                    self.taken = 0


LEVELS: dict[str, type[Bot]] = {
    "easy": preset(
        ForgetfulBot, "remembers its last 2 positions, spots slowly", capacity=2, spot_delay=12.0
    ),
    "medium": preset(ForgetfulBot, "remembers its last 3 positions", capacity=3),
    "hard": preset(PerfectBot, "remembers every card it has seen", spot_delay=6.0),
    "expert": preset(
        PerfectBot,
        "remembers every card it has seen, takes bonus cards it has not seen, spots in 3 seconds",
        spot_delay=3.0,
        bonus="unseen",
    ),
}
"""The difficulty levels of Memo Match: memory is the skill (see ``docs/bots.md``)."""


def cards_taken(state: State) -> list[int]:
    """Cards each seat has taken (the playoff's count while one is played)."""
    table = cast(MemoMatchState, state)
    piles = table.ppiles if table.playoff else table.piles
    return [len(pile) for pile in piles]


SEARCH = SearchSpec(
    evaluate=standings_by(cards_taken, lambda players: 6.0),
    horizon=within_plies(30),
    playout_bot=RandomPlayout,
)
"""Searching Memo Match: random playouts of 30 actions, scored by cards taken.  Memory,
not search, is this game's skill, so no level uses it; ``ismcts`` plays it."""
