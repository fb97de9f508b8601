"""Every bot of every game decides from its seat's view alone.

By construction: a :class:`SeatView` offers no state, and bot code reaches
nothing private of another object (which is how it could get one).  By
behaviour: for each bot a game offers (its levels too, with small search
budgets), a game is played by those bots; at every decision the bot is copied
and asked twice: once about the true state, once about a state resampled for
its seat, which agrees with everything the seat knows (its observation is
equal) and deals the hidden cards again.  The same bot with the same memory and
seed must decide the same, and take as long to react in a race.
"""

from __future__ import annotations

import ast
import copy
from pathlib import Path
from typing import Any

import pytest

import tripletopper.bots
from tripletopper.bots import (
    Bot,
    SampledView,
    SeatView,
    bot_class,
    bot_names,
    bot_parameters,
    make_bot,
)
from tripletopper.engine import Game, Rng, State
from tripletopper.games import GAMES, make_game
from tripletopper.question_banks import builtin_bank
from tripletopper.runner import choose_next

SETUPS: dict[str, list[dict[str, Any]]] = {
    "thirty-two": [{"players": 4}, {"players": 3, "no_wilds": True}],
    "thirty-one": [{"players": 4}, {"players": 3, "manual_31": True}],
    "three-up-three-down": [{"players": 3}],
    "toe": [{"players": 2}, {"players": 2, "quiz": True, "bank": builtin_bank()}],
    "memo-match": [
        {"players": 3},
        {"players": 2, "reveal": "private", "swap_on_miss": True, "wilds": False},
    ],
}
"""Tables to try per game (every registered game must have one)."""

BUDGET = {"iterations": 12}
"""Search budgets lowered for speed: the search is still run, on a smaller tree."""

ACTIONS = 150


def cases() -> list[tuple[str, int, str]]:
    assert set(SETUPS) == set(GAMES)
    return [
        (name, index, bot)
        for name, setups in SETUPS.items()
        for index in range(len(setups))
        for bot in bot_names(name)
    ]


def spec_for(bot: str, game: Game) -> str:
    takes = bot_parameters(bot_class(bot, game.name))
    return bot + "".join(f":{key}={value}" for key, value in BUDGET.items() if key in takes)


def hidden(state: State) -> dict[str, Any]:
    """Everything of a state but its history and generator (which a resample renews)."""
    dump = state.dump()
    dump.pop("history", None)
    dump.pop("rng", None)
    return dump


def twin_bot(bot: Bot, game: Game) -> Bot:
    """An exact copy of a bot (memory and generator included), sharing the game."""
    return copy.deepcopy(bot, {id(game): game})


@pytest.mark.parametrize(("name", "setup", "bot"), cases())
def test_a_bot_decides_the_same_on_states_its_seat_cannot_tell_apart(name, setup, bot):
    options = dict(SETUPS[name][setup])
    game = make_game(name, options.pop("players"), **options)
    spec = spec_for(bot, game)
    seed = 11 + setup
    state = game.new_state(seed)
    bots = [make_bot(spec, game, seat, seed + seat) for seat in range(game.players)]
    views = [SeatView(state, seat) for seat in range(game.players)]
    rng = Rng(seed)
    decisions = differing = 0
    for _ in range(ACTIONS):
        seats = state.to_act()
        if not seats:
            break
        chosen = None
        for seat in seats:
            twin = state.resample(seat, rng)
            assert twin.observation(seat) == state.observation(seat)
            differing += hidden(twin) != hidden(state)
            copy_of = twin_bot(bots[seat], game)
            action = bots[seat].choose(views[seat])
            assert copy_of.choose(SeatView(twin, seat)) == action, (spec, seat, state.version)
            if len(seats) > 1:
                assert copy_of.reaction_time(SeatView(twin, seat)) == bots[seat].reaction_time(
                    views[seat]
                )
            assert action is None or action in state.legal_actions(seat)
            decisions += 1
            chosen = action
        if len(seats) == 1 and chosen is not None:
            seat, action = seats[0], chosen
        else:
            seat, action = choose_next(state, bots, views)
        events = state.apply(action, seat)
        for other in bots:
            if other.wants_events:
                other.observe([event.view(other.seat) for event in events])
    assert decisions >= 10
    assert differing > 0, "the resamples never dealt a hidden card differently"


def private_reads(source: str) -> list[str]:
    """Attributes with a leading underscore read from anything but ``self`` or ``cls``
    (``view._state``), and private names given as strings (``getattr(view, "_x")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            name, owner = node.attr, node.value
            mine = isinstance(owner, ast.Name) and owner.id in ("self", "cls")
            if name.startswith("_") and not name.endswith("__") and not mine:
                found.append(f"{ast.unparse(node)} (line {node.lineno})")
        elif isinstance(node, ast.Call):
            for arg in node.args:
                text = arg.value if isinstance(arg, ast.Constant) else None
                if isinstance(text, str) and text.startswith("_") and not text.endswith("__"):
                    found.append(f"{text!r} (line {node.lineno})")
    return found


def test_private_reads_are_found():
    assert private_reads("def f(view):\n    return view._state.phase") == ["view._state (line 2)"]
    assert private_reads("getattr(view, '_SeatView__state')") == ["'_SeatView__state' (line 1)"]
    assert private_reads("self._x + view.world.hands[0] + obj.__class__") == []


def test_bot_code_reads_nothing_private():
    """A seat's state stays inside its SeatView: no bot module reaches into another
    object's private attributes (search playouts read ``SampledView.world``, public)."""
    folder = Path(tripletopper.bots.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        assert private_reads(path.read_text(encoding="utf-8")) == [], path.name


def test_a_seat_view_shows_no_state_and_samples_other_worlds():
    game = make_game("thirty-two", 4)
    state = game.new_state(5)
    view = SeatView(state, 1)
    public = {name: getattr(view, name) for name in dir(view) if not name.startswith("_")}
    assert {"observation", "legal_actions", "to_act", "sample", "seat"} <= set(public)
    assert not any(isinstance(value, State) for value in public.values())
    sample = view.sample(Rng(3))
    assert isinstance(sample, SampledView) and sample.seat == 1
    assert sample.world is not state and sample.observation() == view.observation()
    assert hidden(sample.world) != hidden(state)  # the others' hands are dealt again
