"""The engine contract shared by all games (see ``docs/engine.md``)."""

from tripletopper.engine.actions import (
    Action,
    ActionCodec,
    ActionKind,
    ActionPattern,
    CardParam,
    CardsParam,
    FlagParam,
    IntParam,
)
from tripletopper.engine.events import YOU, Event, counted, named, phrase
from tripletopper.engine.game import CLOCK, CLOCK_ONLY, TABLE, Game, Results, State
from tripletopper.engine.options import Option, OptionValue, parse_option_pairs
from tripletopper.engine.rng import Rng, derive_seed
from tripletopper.engine.stock import Stock

__all__ = [
    "CLOCK",
    "CLOCK_ONLY",
    "TABLE",
    "YOU",
    "Action",
    "ActionCodec",
    "ActionKind",
    "ActionPattern",
    "CardParam",
    "CardsParam",
    "Event",
    "FlagParam",
    "Game",
    "IntParam",
    "Option",
    "OptionValue",
    "Results",
    "Rng",
    "State",
    "Stock",
    "counted",
    "derive_seed",
    "named",
    "parse_option_pairs",
    "phrase",
]
