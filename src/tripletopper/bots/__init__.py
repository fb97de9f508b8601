"""Bots by name, per game.

A bot is named by a spec ``name`` or ``name:param=value:param=value``
(``heuristic:margin=1.0``).  ``random`` plays every game; other bots are
written for one game each.  :func:`check_spec` checks a spec; with
``bounded=True`` (the card room) it also refuses one that would work harder per
decision than :func:`room_limits` allows, while the CLI and tournaments may
give research bots any budget.

>>> bot_names("thirty-two")
['easy', 'medium', 'hard', 'expert', 'heuristic', 'ismcts', 'random']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tripletopper.bots import memo_match, thirty_one, thirty_two, three_up_three_down, toe
from tripletopper.bots.base import (
    Bot,
    Playout,
    RandomBot,
    SampledView,
    SeatView,
    bot_parameters,
    first_to_act,
)
from tripletopper.bots.ismcts import ISMCTSBot, SearchSpec
from tripletopper.bots.levels import EXPERT_SECONDS, LEVELS, searching
from tripletopper.engine import Game
from tripletopper.engine.options import Option
from tripletopper.errors import InvalidOptionError

ANY_GAME = "*"


@dataclass(frozen=True)
class GameBots:
    """The bots written for one game."""

    levels: Mapping[str, type[Bot]]
    """Its difficulty levels (``easy`` ... ``expert``), also playable as bot names."""
    search: SearchSpec
    """How ISMCTS plays it (the ``ismcts`` bot, and the levels that search)."""
    heuristic: type[Bot] | None
    """Its hand-written player, the ``heuristic`` bot (None: Memo Match has none)."""
    fallback: type[Bot] | None = None
    """The bot ``ismcts`` defers to where it does not search (races, quiz answers);
    None: the heuristic."""
    others: Mapping[str, type[Bot]] = field(default_factory=dict)
    """Its other bots by name (a game's own ``random``, Memo Match's memory bots)."""

    def by_name(self) -> dict[str, type[Bot]]:
        """Its bots by name, but for ``ismcts`` (made from :attr:`search`)."""
        named = dict(self.levels)
        if self.heuristic is not None:
            named["heuristic"] = self.heuristic
        return {**named, **self.others}

    def search_fallback(self) -> type[Bot]:
        fallback = self.fallback or self.heuristic
        assert fallback is not None, "a game without a heuristic names its search's fallback"
        return fallback


GAME_BOTS: dict[str, GameBots] = {
    "thirty-two": GameBots(thirty_two.LEVELS, thirty_two.SEARCH, thirty_two.ThirtyTwoHeuristic),
    "thirty-one": GameBots(thirty_one.LEVELS, thirty_one.SEARCH, thirty_one.ThirtyOneHeuristic),
    "toe": GameBots(
        toe.LEVELS,
        toe.SEARCH,
        toe.ToeHeuristic,
        others={"random": toe.ToeRandom, "tactician": toe.ToeTactician},
    ),
    "three-up-three-down": GameBots(
        three_up_three_down.LEVELS,
        three_up_three_down.SEARCH,
        three_up_three_down.ThreeUpHeuristic,
    ),
    "memo-match": GameBots(
        memo_match.LEVELS,
        memo_match.SEARCH,
        None,
        fallback=memo_match.PerfectBot,
        others={"perfect": memo_match.PerfectBot, "forgetful": memo_match.ForgetfulBot},
    ),
}
"""Each game's bots."""

BOTS: dict[str, dict[str, type[Bot]]] = {
    "random": {ANY_GAME: RandomBot},
    "ismcts": {ANY_GAME: ISMCTSBot},
}
"""Every bot class by name, then by game (:data:`ANY_GAME` where one plays them all):
the index :func:`bot_class` reads, built from :data:`GAME_BOTS`."""
for _game, _bots in GAME_BOTS.items():
    for _name, _cls in _bots.by_name().items():
        BOTS.setdefault(_name, {})[_game] = _cls
    BOTS["ismcts"][_game] = searching(
        _bots.search,
        _bots.search_fallback(),
        1000,
        0.0,
        "ISMCTS with this game's search (iterations=, seconds=, depth=, confidence=, paired=)",
    )


LEVEL_ORDER = ("easy", "medium", "hard", "expert")
"""Difficulty levels as a player meets them, weakest first."""


def bot_names(game_name: str) -> list[str]:
    """The bots that can play ``game_name``: its difficulty levels first, then the rest."""
    names = [n for n, by_game in BOTS.items() if game_name in by_game or ANY_GAME in by_game]
    levels = [n for n in LEVEL_ORDER if n in names]
    return levels + sorted(n for n in names if n not in LEVEL_ORDER)


def default_bot(game_name: str) -> str:
    """The bot that plays a seat nobody chose one for (the terminal's opponents, a
    seat a person left): the game's ``medium`` level, else its ``heuristic``."""
    names = bot_names(game_name)
    for name in ("medium", "heuristic"):
        if name in names:
            return name
    return next((name for name in names if name != "random"), "random")


def bot_class(name: str, game_name: str) -> type[Bot]:
    by_game = BOTS.get(name)
    cls = None if by_game is None else by_game.get(game_name, by_game.get(ANY_GAME))
    if cls is None:
        raise InvalidOptionError(
            f"no bot {name!r} for {game_name} (bots: {', '.join(bot_names(game_name))})"
        )
    return cls


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"heuristic:margin=1"`` -> ``("heuristic", {"margin": "1"})``."""
    name, *pairs = spec.strip().split(":")
    params = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise InvalidOptionError(f"bot parameters are written name:key=value (got {spec!r})")
        params[key.strip()] = value.strip()
    return name.strip(), params


def _convert(value: str) -> object:
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return (
        Option("x", "bool", False, "").parse(value)
        if value.lower() in ("true", "false", "yes", "no", "on", "off")
        else value
    )


BotFactory = Callable[[int, int], Bot]
"""Makes a bot for ``(seat, seed)``."""


def bot_factory(spec: str, game: Game) -> BotFactory:
    """Check a bot spec once; the factory then makes that bot for any seat and seed."""
    name, raw = parse_spec(spec)
    cls = bot_class(name, game.name)
    takes = bot_parameters(cls)
    for key in raw:
        if key not in takes:
            known = f"its parameters: {', '.join(takes)}" if takes else "it takes none"
            raise InvalidOptionError(f"bot {name!r} has no parameter {key!r} ({known})")
    params = {key: _convert(value) for key, value in raw.items()}
    for key, value in params.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise InvalidOptionError(
                f"bad parameters for bot {name!r}: {key}={value} is not a number"
            )

    def factory(seat: int, seed: int) -> Bot:
        return cls(game, seat, seed, **params)

    try:
        factory(0, 0)
    except (TypeError, ValueError, ArithmeticError) as exc:
        raise InvalidOptionError(f"bad parameters for bot {name!r}: {exc}") from None
    return factory


COSTS = ("iterations", "seconds", "depth", "samples")
"""Bot parameters that set how much work one decision takes: search iterations, a
search's time budget, its tree depth, the deals a heuristic samples."""

_limits: dict[str, dict[str, float]] = {}


def decision_costs(bot: Bot) -> dict[str, float]:
    """The cost parameters of ``bot`` and of the bots it consults (a fallback, an inner
    bot): the largest value of each."""
    costs: dict[str, float] = {}
    todo = [bot]
    while todo:
        for key, value in vars(todo.pop()).items():
            if isinstance(value, Bot):
                todo.append(value)
            elif key in COSTS and isinstance(value, int | float):
                costs[key] = max(costs.get(key, value), value)
    return costs


def room_limits(game: Game) -> dict[str, float]:
    """The most work a card-room bot may do per decision in ``game``: no cost higher
    than the costliest bot the game offers by name at its defaults (its ``expert``
    level; ``ismcts`` where no level searches, as in Memo Match), and a time budget
    of at most :data:`EXPERT_SECONDS`."""
    limits = _limits.get(game.name)
    if limits is None:
        limits = {"seconds": EXPERT_SECONDS}
        for name in bot_names(game.name):
            for key, value in decision_costs(bot_class(name, game.name)(game, 0, 0)).items():
                limits[key] = max(limits.get(key, value), value)
        _limits[game.name] = limits
    return limits


def check_spec(spec: str, game: Game, *, bounded: bool = False) -> BotFactory:
    """:func:`bot_factory`, refusing with ``bounded`` a bot that would work harder
    per decision than :func:`room_limits` allows (naming the parameter and its maximum)."""
    factory = bot_factory(spec, game)
    if bounded:
        limits = room_limits(game)
        for key, value in sorted(decision_costs(factory(0, 0)).items()):
            limit = limits.get(key, 0.0)
            if not value <= limit:  # also refuses NaN
                raise InvalidOptionError(
                    f"{key}={value:g} is more than the card room allows: "
                    f"at most {key}={limit:g} for {game.title} bots"
                )
    return factory


def make_bot(spec: str, game: Game, seat: int, seed: int = 0) -> Bot:
    """A bot from its spec, for ``seat`` of ``game``, seeded."""
    return bot_factory(spec, game)(seat, seed)


__all__ = [
    "BOTS",
    "GAME_BOTS",
    "LEVELS",
    "Bot",
    "BotFactory",
    "GameBots",
    "Playout",
    "RandomBot",
    "SampledView",
    "SeatView",
    "bot_class",
    "bot_factory",
    "bot_names",
    "bot_parameters",
    "check_spec",
    "decision_costs",
    "first_to_act",
    "make_bot",
    "room_limits",
]
