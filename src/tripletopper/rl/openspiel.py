"""The games as OpenSpiel Python games: ``pyspiel.load_game("python_tripletopper_thirty_one")``.

``import tripletopper.rl.openspiel`` registers one game per tripletopper game
(``python_tripletopper_thirty_two``, ``..._thirty_one``, ``..._three_up_three_down``,
``..._toe``, ``..._memo_match``); its parameters are ``players`` and the game's
options (an int option whose default depends on the player count takes ``-1`` for
that default).

- **Players** are the seats, with explicit ids; the game is sequential: several seats
  that may act at once act one at a time (the seat after the one that acted last, in
  seat order, as in the PettingZoo environment), and a timed phase with nobody to act
  ends with the clock's timeout, played at once.
- **Chance** is explicit and comes first: the initial state is a chance node choosing
  one of ``deals`` (a parameter, 65,536 by default) equally likely seeds, and the
  engine's seeded generator then makes every later draw (a reshuffle, a question) from
  it, as if the deck were shuffled once at the start. Everything hidden stays hidden:
  the seed is known to nobody.
- **Returns** are ``results().returns()``: 1 shared among the winners, so they sum to
  1, or to 0 in a game nobody wins (a drawn Toe): the game is declared general-sum.
- **Observations** are the tensors of ``tripletopper.rl.encoding``; the observation
  string is the seat's observation as JSON. The information state string adds the
  number of moves made and what the seat recalls (``State.recall``: Memo Match's
  perfect memory); it is built from what the seat may know, like the observation, but
  it is not a perfect-recall history of everything the seat ever saw.
- ``resample_from_infostate`` is the engine's ``resample``: a world consistent with
  everything the seat knows, so OpenSpiel's ISMCTS runs on every game.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from tripletopper import make_game
from tripletopper.engine import Game, Rng, State
from tripletopper.games import GAMES
from tripletopper.rl.common import next_seat, play_clock
from tripletopper.rl.encoding import ENCODINGS, Encoder

DEALS = 1 << 16
MAX_GAME_LENGTH = 1_000_000
DEFAULT = -1
"""The parameter value meaning an option's default for the player count."""


def short_name(name: str) -> str:
    return "python_tripletopper_" + name.replace("-", "_")


def _parameters(name: str) -> dict[str, Any]:
    """The pyspiel parameter specification: players, deals and every option."""
    cls = GAMES[name]
    spec: dict[str, Any] = {"players": max(2, cls.min_players), "deals": DEALS}
    for option in cls.options_schema:
        default = option.default
        spec[option.name] = DEFAULT if callable(default) else default
    return spec


def _game_type(name: str) -> pyspiel.GameType:
    cls = GAMES[name]
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"tripletopper {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=max(2, cls.min_players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class TripletopperGame(pyspiel.Game):  # type: ignore[misc]
    """One tripletopper game for OpenSpiel (see the module docstring)."""

    name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_parameters(self.name), **(params or {})}
        options = {
            key: value
            for key, value in params.items()
            if key not in ("players", "deals") and value != DEFAULT
        }
        self.game: Game = make_game(self.name, int(params["players"]), **options)
        self.deals = int(params["deals"])
        self.encoder = Encoder(self.game)
        info = pyspiel.GameInfo(
            num_distinct_actions=ENCODINGS[self.name].actions,
            max_chance_outcomes=self.deals,
            num_players=self.game.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,  # 1 shared among the winners, or 0 when nobody wins (a drawn Toe)
            max_game_length=MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(self.name), info, params)

    def new_initial_state(self) -> TripletopperState:
        return TripletopperState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoder, perfect_recall)


class World:
    """The engine's side of an OpenSpiel state: the game, its encoder and the engine
    state (None until the deal is chosen).  OpenSpiel clones a Python state by deep-
    copying its attributes and serializes it by pickling them: a world clones with the
    engine's cheap ``clone`` and pickles as its game's config and replayable moves."""

    def __init__(self, game: Game, encoder: Encoder, state: State | None = None) -> None:
        self.game = game
        self.encoder = encoder
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> World:
        return World(self.game, self.encoder, None if self.state is None else self.state.clone())

    def __getstate__(self) -> dict[str, Any]:
        state = self.state
        return {
            "config": self.game.config(),
            "origin": None if state is None else state.origin,
            "history": None if state is None else state.history,
        }

    def __setstate__(self, data: dict[str, Any]) -> None:
        config = data["config"]
        self.game = make_game(config["game"], config["players"], **config["options"])
        self.encoder = Encoder(self.game)
        self.state = None
        origin = data["origin"]
        if origin is not None:
            self.state = state = self.game.new_state(
                origin["seed"], decks=origin.get("decks"), **origin.get("setup", {})
            )
            for seat, action in data["history"]:
                state.apply(action, seat, events=False)


class TripletopperState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the engine's state once the deal's seed is chosen."""

    def __init__(self, game: TripletopperGame) -> None:
        super().__init__(game)
        self.world = World(game.game, game.encoder)
        self.deals = game.deals
        self.last_seat = -1

    def current_player(self) -> int:
        inner = self.world.state
        if inner is None:
            return int(pyspiel.PlayerId.CHANCE)
        seats = inner.to_act()
        if not seats:
            return int(pyspiel.PlayerId.TERMINAL)
        return next_seat(seats, self.last_seat)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = 1.0 / self.deals
        return [(deal, p) for deal in range(self.deals)]

    def _legal_actions(self, player: int) -> list[int]:
        world = self.world
        assert world.state is not None
        return sorted(world.encoder.legal_indices(world.state, player))

    def _apply_action(self, action: int) -> None:
        world = self.world
        if world.state is None:
            world.state = world.game.new_state(int(action))
        else:
            seat = self.current_player()
            move = world.encoder.index_to_action(int(action), world.state, seat)
            world.state.apply(move, seat, events=False)
            self.last_seat = seat
        play_clock(world.state)

    def _action_to_string(self, player: int, action: int) -> str:
        world = self.world
        if player == pyspiel.PlayerId.CHANCE or world.state is None:
            return f"deal {action}"
        move = world.encoder.index_to_action(int(action), world.state, player)
        return world.game.action_to_text(move)

    def is_terminal(self) -> bool:
        inner = self.world.state
        return inner is not None and inner.is_terminal()

    def returns(self) -> list[float]:
        inner = self.world.state
        results = inner.results() if inner is not None else None
        return results.returns() if results is not None else [0.0] * self.world.game.players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state where what ``player_id`` cannot see is dealt again (``State.resample``)."""
        clone = self.clone()
        inner = self.world.state
        if inner is not None:
            seed = int(probability_sampler() * 2**53)
            clone.world.state = inner.resample(player_id, Rng(seed))
        return clone

    def __str__(self) -> str:
        inner = self.world.state
        if inner is None:
            return "deal not chosen"
        return json.dumps(inner.public_observation(), sort_keys=True)


class Observer:
    """OpenSpiel's observer protocol: the seat's tensor, and its observation as a string
    (with ``perfect_recall``, the information state string)."""

    def __init__(self, encoder: Encoder, perfect_recall: bool) -> None:
        self.encoder = encoder
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: TripletopperState, player: int) -> None:
        inner = state.world.state
        if inner is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = self.encoder.observation(inner, player)

    def string_from(self, state: TripletopperState, player: int) -> str:
        inner = state.world.state
        if inner is None:
            return "deal not chosen"
        seen: dict[str, Any] = {"observation": inner.observation(player)}
        if self.perfect_recall:
            seen["moves"] = inner.version
            seen["recall"] = inner.recall(player)
        return json.dumps(seen, sort_keys=True)


def register() -> None:
    """Register every game with pyspiel (done on import)."""
    registered = set(pyspiel.registered_names())
    for name in GAMES:
        if short_name(name) in registered:
            continue
        cls = type(f"Tripletopper{GAMES[name].__name__}Game", (TripletopperGame,), {"name": name})
        pyspiel.register_game(_game_type(name), cls)


register()
