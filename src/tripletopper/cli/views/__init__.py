"""How each game looks in the terminal: one renderer per game, built from observations."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

from rich.console import RenderableType

from tripletopper.cli.views.memo_match import MemoMatchView
from tripletopper.cli.views.thirty_one import ThirtyOneView
from tripletopper.cli.views.thirty_two import ThirtyTwoView
from tripletopper.cli.views.three_up_three_down import ThreeUpView
from tripletopper.cli.views.toe import ToeView
from tripletopper.engine import Action, Game
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_two import ThirtyTwo
from tripletopper.games.three_up_three_down import ThreeUpThreeDown
from tripletopper.games.toe import Toe


class GameView(Protocol):
    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        """The table as the observation's seat (or a spectator) sees it."""
        ...

    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        """A menu line for one legal action."""
        ...


# Views may also define, for games with many similar actions (Toe's wild cards,
# Memo Match's flips):
#   menu(legal, obs) -> list[(Action | None, label)]  the menu lines; lines with an
#       action are numbered in order, the others are information (typed actions)
#   hint(obs) -> str                      a line saying what to type
#   read(answer, obs) -> Action | None    a shortcut typed by the player ("C7")
# and, for cards that are up only for a moment (Memo Match's missed pair):
#   moment(event_views) -> renderable | None   drawn, then wiped, by the terminal


VIEWS: dict[str, Callable[[Game], GameView]] = {
    "thirty-two": lambda game: ThirtyTwoView(cast(ThirtyTwo, game)),
    "thirty-one": lambda game: ThirtyOneView(cast(ThirtyOne, game)),
    "three-up-three-down": lambda game: ThreeUpView(cast(ThreeUpThreeDown, game)),
    "toe": lambda game: ToeView(cast(Toe, game)),
    "memo-match": lambda game: MemoMatchView(cast(MemoMatch, game)),
}


def view_for(game: Game) -> GameView:
    """The terminal renderer of ``game``."""
    return VIEWS[game.name](game)
