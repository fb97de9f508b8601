"""How each game looks in the terminal: one renderer per game, built from observations."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from rich.console import RenderableType

from tripletopper.cli.views.memo_match import MemoMatchView
from tripletopper.cli.views.thirty_two import ThirtyTwoView
from tripletopper.engine import Action, Game
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.thirty_two import ThirtyTwo


class GameView(Protocol):
    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        """The table as the observation's seat (or a spectator) sees it."""
        ...

    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        """A menu line for one legal action."""
        ...


# Views may also define, for games with many similar actions (Memo Match's flips):
#   menu(legal, obs) -> list[Action]   the actions to number (others are typed)
#   hint(obs) -> str                   a line saying what to type
#   read(answer, obs) -> Action | None a shortcut typed by the player ("C7")


VIEWS: dict[str, Callable[[Game], GameView]] = {
    "thirty-two": lambda game: ThirtyTwoView(cast(ThirtyTwo, game)),
    "memo-match": lambda game: MemoMatchView(cast(MemoMatch, game)),
}


def view_for(game: Game) -> GameView:
    """The terminal renderer of ``game``."""
    return VIEWS[game.name](game)
