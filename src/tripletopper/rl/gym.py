"""The games as Gymnasium environments: one learning seat, the other seats bots.

``import tripletopper.rl.gym`` registers ``tripletopper/ThirtyTwo-v0``,
``tripletopper/ThirtyOne-v0``, ``tripletopper/ThreeUpThreeDown-v0``,
``tripletopper/Toe-v0`` and ``tripletopper/MemoMatch-v0``::

    env = gymnasium.make("tripletopper/ThirtyOne-v0", players=3, opponents="medium")

Observations are ``{"observation", "action_mask"}`` (``tripletopper.rl.encoding``)
and ``info["action_mask"]`` holds the mask too, so both survive vectorization
(``gymnasium.vector.SyncVectorEnv`` stacks them per key).  The reward is the
learner's share of ``results().returns()`` when the game ends (or, with
``rewards="hand"``, the change of its counters or lives every step).

A game the bots end before the learner's first move (a declared Thirty-two) is not
an episode: ``reset`` deals another.  Between two of the learner's moves the bots
play (and the clock plays a timeout when a timed phase runs with nobody to act).
Where the learner and bots may act at once (a race), the bots go first, the quickest
first as at a table (``tripletopper.bots.base.first_to_act``); the learner acts when
no bot wants to.
An illegal index (one outside the mask) changes nothing in the game; by
Gymnasium's rule that ``step`` takes any action of the space, it ends the episode
with reward -1 and ``info["illegal"] = True`` (``illegal="raise"``: it raises
``IllegalActionError`` or ``ValueError`` instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tripletopper import make_game
from tripletopper.bots import Bot, SeatView, bot_factory
from tripletopper.bots.base import first_to_act
from tripletopper.engine import CLOCK, Action, Game, State
from tripletopper.errors import IllegalActionError
from tripletopper.rl.common import check_modes, hand_scores, render_table
from tripletopper.rl.encoding import Encoder

ENV_IDS = {
    "thirty-two": "tripletopper/ThirtyTwo-v0",
    "thirty-one": "tripletopper/ThirtyOne-v0",
    "three-up-three-down": "tripletopper/ThreeUpThreeDown-v0",
    "toe": "tripletopper/Toe-v0",
    "memo-match": "tripletopper/MemoMatch-v0",
}


class TripletopperGymEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of a game against bots (see the module docstring).

    ``opponents`` is a bot spec for every other seat (``"random"``, ``"easy"``,
    ``"medium"``, ``"ismcts:iterations=200"``) or a list of one per other seat.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - as gymnasium.Env

    def __init__(
        self,
        game: str | Game = "thirty-one",
        players: int | None = None,
        options: dict[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        rewards: str = "game",
        illegal: str = "lose",
        render_mode: str | None = None,
    ) -> None:
        if isinstance(game, str):
            game = make_game(game, players, **(options or {}))
        check_modes(game, rewards, render_mode)
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if not 0 <= seat < game.players:
            raise ValueError(f"seat must be from 0 to {game.players - 1}")
        specs = [opponents] * (game.players - 1) if isinstance(opponents, str) else opponents
        if len(specs) != game.players - 1:
            raise ValueError(f"name {game.players - 1} opponents (one per other seat)")
        self.game = game
        self.seat = seat
        self.opponents = ", ".join(dict.fromkeys(specs))
        self.reward_mode = rewards
        self.illegal = illegal
        self._over = False
        self.render_mode = render_mode
        self.encoder = Encoder(game)
        others = iter(specs)
        self._factories = [
            None if s == seat else bot_factory(next(others), game) for s in range(game.players)
        ]
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.actions,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.encoder.actions)
        self.state: State = game.new_state(0)
        self._bots: list[Bot | None] = []
        self._views: list[SeatView] = []
        self._watchers: list[Bot] = []
        self._score = 0.0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        while True:  # a game the bots end before the learner's first move is dealt again
            game_seed = int(self.np_random.integers(2**62))
            self.state = state = self.game.new_state(game_seed)
            self._bots = [
                None if make is None else make(seat, game_seed + 1 + seat)
                for seat, make in enumerate(self._factories)
            ]
            self._views = [SeatView(state, seat) for seat in range(self.game.players)]
            self._watchers = [bot for bot in self._bots if bot is not None and bot.wants_events]
            self._score = self._my_score()
            self._over = False
            self._play_others()
            if not state.is_terminal():
                return self._observe()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        state = self.state
        if self._over or state.is_terminal():
            raise IllegalActionError("the episode is over: call reset()")
        try:
            move = self.encoder.index_to_action(action, state, self.seat)
            self._apply(self.seat, move)  # refused: nothing changed
        except ValueError as exc:  # IllegalActionError too
            if self.illegal == "raise":
                raise
            self._over = True
            obs, info = self._observe()
            return obs, -1.0, True, False, {**info, "illegal": True, "error": str(exc)}
        self._play_others()
        obs, info = self._observe()
        terminated = state.is_terminal()
        if self.reward_mode == "hand":
            score = self._my_score()
            reward, self._score = score - self._score, score
        elif terminated:
            results = state.results()
            assert results is not None
            reward = results.returns()[self.seat]
        else:
            reward = 0.0
        return obs, float(reward), terminated, False, info

    def _apply(self, seat: int, action: Action) -> None:
        events = self.state.apply(action, seat, events=bool(self._watchers))
        for bot in self._watchers:
            bot.observe([event.view(bot.seat) for event in events])

    def _play_others(self) -> None:
        """The bots (and the clock) play until the learner is to act or the game ends."""
        state, me = self.state, self.seat
        while not state.is_terminal():
            seats = state.to_act()
            if seats == (me,):
                return
            if len(seats) == 1 and state.timeout() is None:  # one bot's turn: no race
                seat = seats[0]
                bot = self._bots[seat]
                assert bot is not None
                action = bot.choose(self._views[seat])
                if action is not None:
                    self._apply(seat, action)
                    continue
            acting = first_to_act(state, self._bots, self._views)
            if acting is None or (acting.seat == CLOCK and me in seats):
                if me in seats:
                    return
                raise RuntimeError(f"{state!r}: no bot acted, and this phase has no time limit")
            self._apply(acting.seat, acting.action)

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        tensor, mask = self.encoder.encode(self.state, self.seat)
        return {"observation": tensor, "action_mask": mask}, {"action_mask": mask}

    def _my_score(self) -> float:
        return hand_scores(self.state)[self.seat] if self.reward_mode == "hand" else 0.0

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        names = [f"player_{s}" for s in range(self.game.players)]
        return render_table(self.game, self.state.observation(self.seat), names)


class TripletopperVectorEnv(VectorEnv):
    """``num_envs`` copies of :class:`TripletopperGymEnv` stepped in one process, written
    straight into batch arrays (no per-step merging of dicts), with same-step autoreset:
    a finished game's row already holds the next game's first observation and mask, and
    its final reward, ``terminated`` flag and the finished game's seat-eye tensor
    (``info["final_observation"]``) say how it ended.  ``info["action_mask"]`` is the
    mask batch too.  Keywords as for :class:`TripletopperGymEnv`."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(self, num_envs: int = 8, game: str | Game = "thirty-one", **kwargs: Any) -> None:
        self.envs = [TripletopperGymEnv(game, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(first.observation_space, num_envs)
        self.action_space = batch_space(first.action_space, num_envs)
        self._tensors = np.zeros((num_envs, first.encoder.size), np.float32)
        self._masks = np.zeros((num_envs, first.encoder.actions), np.int8)

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        seeds = (
            seed
            if isinstance(seed, list)
            else [None if seed is None else seed + i for i in range(self.num_envs)]
        )
        for i, (env, env_seed) in enumerate(zip(self.envs, seeds, strict=True)):
            obs, _ = env.reset(seed=env_seed)
            self._tensors[i], self._masks[i] = obs["observation"], obs["action_mask"]
        return self._batch(), {"action_mask": self._masks.copy()}

    def step(
        self, actions: Any
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        rewards = np.zeros(self.num_envs, np.float64)
        terminated = np.zeros(self.num_envs, np.bool_)
        final: dict[int, np.ndarray] = {}
        for i, (env, action) in enumerate(zip(self.envs, actions, strict=True)):
            obs, rewards[i], terminated[i], _, _ = env.step(int(action))
            if terminated[i]:
                final[i] = obs["observation"]
                obs, _ = env.reset()
            self._tensors[i], self._masks[i] = obs["observation"], obs["action_mask"]
        info: dict[str, Any] = {"action_mask": self._masks.copy()}
        if final:
            info["final_observation"] = final
        truncated = np.zeros(self.num_envs, np.bool_)
        return self._batch(), rewards, terminated, truncated, info

    def _batch(self) -> dict[str, Any]:
        return {"observation": self._tensors.copy(), "action_mask": self._masks.copy()}


def register() -> None:
    """Register every game's id with Gymnasium (done on import; safe to repeat)."""
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="tripletopper.rl.gym:TripletopperGymEnv",
                vector_entry_point="tripletopper.rl.gym:TripletopperVectorEnv",
                kwargs={"game": name},
            )


register()
