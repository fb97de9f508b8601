"""The registry of games: each name maps to its :class:`~tripletopper.engine.Game` class.

Adding a game is one line here (an explicit import, no registration by side
effect) plus its module.

>>> sorted(GAMES)
['memo-match', 'thirty-one', 'thirty-two', 'three-up-three-down', 'toe']
>>> make_game("thirty-two", players=3, counters=9).options["counters"]
9
"""

from __future__ import annotations

from tripletopper.engine import Game
from tripletopper.errors import InvalidOptionError
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_two import ThirtyTwo
from tripletopper.games.three_up_three_down import ThreeUpThreeDown
from tripletopper.games.toe import Toe

GAMES: dict[str, type[Game]] = {
    ThirtyTwo.name: ThirtyTwo,
    ThirtyOne.name: ThirtyOne,
    ThreeUpThreeDown.name: ThreeUpThreeDown,
    Toe.name: Toe,
    MemoMatch.name: MemoMatch,
}


def game_class(name: str) -> type[Game]:
    """The game class registered under ``name`` (a clear error for unknown names)."""
    cls = GAMES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise InvalidOptionError(f"unknown game {name!r} (games: {', '.join(sorted(GAMES))})")
    return cls


def make_game(name: str, players: int | None = None, **options: object) -> Game:
    """A game by registry name; ``players`` defaults to the game's fewest."""
    cls = game_class(name)
    return cls(cls.min_players if players is None else players, **options)
