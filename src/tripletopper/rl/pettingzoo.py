"""The games as PettingZoo AEC environments: ``env("thirty-one", players=4)``.

Like PettingZoo's classic environments: agents ``player_0`` .. ``player_{n-1}`` (seat
*i* is ``player_i``), observations ``{"observation": float32 tensor, "action_mask":
int8 mask}`` (``tripletopper.rl.encoding``), ``Discrete`` actions over the game's
fixed action space, rewards when the game ends from ``results().returns()`` (1 shared
among the winners), or per hand with ``rewards="hand"``.

- **Several seats at once** (choosing 3UP cards, Memo Match's spotting, the Quiz
  Show's buzzer): they act one at a time in AEC order, each seat to act after the
  seat that acted last in seat order (cyclically), so no seat always wins a race.
- **Timeouts** are the environment's: a seat to act is never timed out (it must
  act), and when a timed phase runs with nobody left to act, the environment plays
  the clock's ``timeout`` at once.
- **An illegal index** raises :class:`~tripletopper.errors.IllegalActionError` (or
  ``ValueError`` for an index outside the space) and changes nothing: the same agent
  is still to act.
- ``render_mode="ansi"``: ``render()`` returns the terminal view of the table as a
  spectator sees it (or as ``render_seat`` sees it).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from tripletopper import make_game
from tripletopper.engine import Game, State
from tripletopper.errors import IllegalActionError
from tripletopper.rl.common import check_modes, hand_scores, next_seat, play_clock, render_table
from tripletopper.rl.encoding import Encoder


class TripletopperEnv(AECEnv):  # type: ignore[misc]
    """One game as an AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "tripletopper_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: Game,
        *,
        rewards: str = "game",
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        check_modes(game, rewards, render_mode)
        self.game = game
        self.encoder = Encoder(game)
        self.reward_mode = rewards
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.possible_agents = [f"player_{seat}" for seat in range(game.players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.actions,), np.int8),
            }
        )
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.encoder.actions) for agent in self.possible_agents
        }
        self.state: State = game.new_state(0)
        self._np_random, _ = seeding.np_random(None)
        self._last_seat = -1
        self._scores: list[float] = []
        self._rewarded = False
        """Whether ``rewards`` holds a non-zero reward (cleared at the next step)."""
        self._observed_key: tuple[State, int, int] | None = None
        self._observed: dict[str, Any] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the AEC cycle -------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(2**62))
        self.state = self.game.new_state(game_seed)
        play_clock(self.state)
        self.agents = self.possible_agents.copy()
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._scores = self._hand_scores()
        self._rewarded = False
        self._last_seat = -1
        self._select()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's tensor and mask, built when asked and kept until the game moves."""
        seat = self._seat[agent]
        state = self.state
        key = (state, state.version, seat)
        if self._observed_key != key:
            tensor, mask = self.encoder.encode(state, seat)
            self._observed = {"observation": tensor, "action_mask": mask}
            self._observed_key = key
        return self._observed

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        state = self.state
        if action is None:
            raise IllegalActionError(f"{agent} must act: give an action index")
        move = self.encoder.index_to_action(action, state, seat)  # ValueError: outside
        state.apply(move, seat, events=False)  # IllegalActionError: nothing changed
        self._cumulative_rewards[agent] = 0.0
        self._last_seat = seat
        play_clock(state)
        rewards = self.rewards
        if self._rewarded:  # the last step's rewards are over
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        if self.reward_mode == "hand":
            scores = self._hand_scores()
            for a, before, after in zip(self.agents, self._scores, scores, strict=True):
                rewards[a] = after - before
            self._scores = scores
            self._rewarded = True
        if state.is_terminal():
            if self.reward_mode == "game":
                results = state.results()
                assert results is not None
                for a, value in zip(self.agents, results.returns(), strict=True):
                    rewards[a] = value
            self.terminations = {a: True for a in self.agents}
            self._rewarded = True
        if self._rewarded:
            self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        seats = self.state.to_act()
        if seats:
            self.agent_selection = self.possible_agents[next_seat(seats, self._last_seat)]
        else:  # over: every agent is stepped out in turn
            self.agent_selection = self._agent_after(self.agent_selection)

    def _agent_after(self, agent: str | None) -> str:
        live = self.agents
        if agent in live:
            return live[(live.index(agent) + 1) % len(live)]
        return live[0]

    def _was_dead_step(self, action: Any) -> None:
        if action is not None:
            raise ValueError("the game is over for this agent: step(None)")
        agent = self.agent_selection
        del self.terminations[agent], self.truncations[agent], self.rewards[agent]
        del self._cumulative_rewards[agent], self.infos[agent]
        self.agents.remove(agent)
        if self.agents:
            self.agent_selection = self.agents[0]
        self._clear_rewards()

    def _hand_scores(self) -> list[float]:
        return hand_scores(self.state) if self.reward_mode == "hand" else []

    # --- rendering ---------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.render_seat
        obs = self.state.public_observation() if seat is None else self.state.observation(seat)
        return render_table(self.game, obs, self.possible_agents)

    def close(self) -> None:
        pass


def env(
    game: str | Game,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    **kwargs: Any,
) -> TripletopperEnv:
    """An AEC environment of a game by name (``"thirty-one"``) or a ``Game``; keywords:
    ``rewards`` ("game" or "hand"), ``render_mode`` ("ansi"), ``render_seat``."""
    if isinstance(game, str):
        game = make_game(game, players, **(options or {}))
    return TripletopperEnv(game, **kwargs)
