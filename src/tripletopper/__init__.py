"""Triple Topper: the Triple Topper family of card games.

Five games with exact rules behind one engine contract (see ``docs/engine.md``),
bots that play through that contract, a terminal table and fast simulations.

>>> from tripletopper import make_game
>>> game = make_game("thirty-two", players=4)
>>> state = game.new_state(seed=7)
>>> state.to_act()
(3,)
"""

from tripletopper.errors import (
    CardError,
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    TripleTopperError,
)
from tripletopper.games import GAMES, game_class
from tripletopper.question_banks import make_game

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "CardError",
    "IllegalActionError",
    "InvalidOptionError",
    "MalformedActionError",
    "TripleTopperError",
    "game_class",
    "make_game",
]
