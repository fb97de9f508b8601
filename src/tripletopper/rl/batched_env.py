"""Gymnasium and PettingZoo-style environments on the batched engines (``tripletopper.batched``).

- :class:`BatchedVectorEnv`: a Gymnasium ``VectorEnv`` of ``num_envs`` games of Thirty-One
  or Toe in one batch: one learning seat in each, the other seats random players stepped
  in the batch.  It is :class:`~tripletopper.rl.gym.TripletopperVectorEnv` with
  ``opponents="random"``, as arrays: the same observations (``{"observation",
  "action_mask"}``, the research tensors of ``tripletopper.rl.batched``), the same
  ``info["action_mask"]`` and ``info["final_observation"]`` (but see ``play_out``),
  rewards, ``illegal`` and ``rewards`` modes, same-step autoreset.  Its random players
  choose as the scalar ``RandomBot`` with the same seeds, so a game's first episode is
  the very game ``TripletopperVectorEnv`` plays for the same seed and actions
  (tests/rl/test_batched.py); later episodes take the batch's own seeds
  (``derive_seed(seed, episode)``, each a scalar game anyone can replay) rather than
  drawing them one by one.
- :class:`BatchedAgentsEnv`: PettingZoo-style, every seat an agent: each agent's tensors
  and masks over the N games as arrays, and ``step`` applies one action per game for its
  seat to act.

``import tripletopper.rl.batched_env`` registers ``tripletopper/ThirtyOneBatched-v0`` and
``tripletopper/ToeBatched-v0``: ``gymnasium.make_vec(id, num_envs=4096)`` gives a
:class:`BatchedVectorEnv` (``vectorization_mode="sync"`` gives ``SyncVectorEnv`` of
``TripletopperGymEnv``: the scalar games one by one).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from tripletopper import make_game
from tripletopper.batched import ThirtyOneBatch, ToeBatch
from tripletopper.batched.core import Array, derive_seed, mix64
from tripletopper.engine import Game
from tripletopper.engine.rng import _INC, _MULT
from tripletopper.errors import IllegalActionError
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.toe import Toe
from tripletopper.rl.batched import Batch, batch_encoder
from tripletopper.rl.common import check_modes

ENV_IDS = {"thirty-one": "tripletopper/ThirtyOneBatched-v0", "toe": "tripletopper/ToeBatched-v0"}


def _game(game: str | Game, players: int | None, options: dict[str, Any] | None) -> Game:
    return make_game(game, players, **(options or {})) if isinstance(game, str) else game


def new_batch(game: Game, seeds: Array) -> Batch:
    """A batch of ``game`` (Thirty-One or Toe) with one game per seed."""
    if isinstance(game, ThirtyOne):
        return ThirtyOneBatch(game, seeds)
    if isinstance(game, Toe):
        return ToeBatch(game, seeds)
    raise ValueError(f"{game.name} has no batched engine (Thirty-One and Toe have)")


def first_seeds(n: int, seed: int | list[int | None] | None) -> Array:
    """The games' seeds for ``reset(seed=...)``, as Gymnasium environments draw them: from
    ``np.random.default_rng(seed)`` (one generator for all, so game 0 is the game of
    ``TripletopperGymEnv.reset(seed=seed)``), or one generator per game for a list."""
    if isinstance(seed, list):
        if len(seed) != n:
            raise ValueError(f"name {n} seeds, one per game")
        return np.array([np.random.default_rng(s).integers(2**62) for s in seed], np.uint64)
    return np.random.default_rng(seed).integers(2**62, size=n).astype(np.uint64)


class RandomPlayers:
    """Every seat of every game as the scalar ``RandomBot``: its own copy of the bot's
    generator, seeded as ``TripletopperGymEnv`` seeds its bots (the game's seed + 1 + seat),
    and its choice among the legal actions in the scalar order (``sample(scalar_order=True)``)."""

    def __init__(self, batch: Batch) -> None:
        self.batch = batch
        self.rng = np.zeros((batch.n, batch.game.players), dtype=np.uint64)
        self.seed(np.arange(batch.n))

    def seed(self, games: Array) -> None:
        """New generators for the games ``games`` (after they start a new episode)."""
        batch = self.batch
        seeds = batch.seeds[games]
        later = batch.episode[games] > 0
        seeds[later] = derive_seed(seeds[later], batch.episode[games][later].astype(np.uint64))
        seats = np.arange(batch.game.players, dtype=np.uint64)
        self.rng[games] = mix64(seeds[:, None] + np.uint64(1) + seats)

    def act(self, games: Array, to_act: Array) -> Array:
        """One batch action index per game: the random choice of its seat to act
        (``to_act``) for the games ``games`` (a boolean array), -1 (wait) for the others."""
        seats = np.maximum(to_act, 0)
        rows = np.flatnonzero(games)
        state = self.rng[rows, seats[rows]] * np.uint64(_MULT) + np.uint64(_INC)
        self.rng[rows, seats[rows]] = state
        bits = np.zeros(self.batch.n, dtype=np.uint64)
        bits[rows] = state >> np.uint64(32)
        return np.where(games, self.batch.sample(bits, scalar_order=True), -1)


class BatchedVectorEnv(VectorEnv):
    """``num_envs`` games against random players in one batch (see the module docstring).
    Keywords as for :class:`~tripletopper.rl.gym.TripletopperGymEnv`; ``opponents`` must
    be ``"random"``, and there is no rendering (``batch.observation(i, seat)`` shows a game).

    In Thirty-One the learner's episode ends when it is out of the game, with the same
    reward (0, or the lives it just lost) at the same step as when the others play the
    game on to its end, and the tensor of that moment as its final observation; that saves
    every step waiting for the slowest of those games to end.  ``play_out=True`` plays them
    on, as ``TripletopperVectorEnv`` does (its final observation is the end of the game)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1024,
        game: str | Game = "thirty-one",
        players: int | None = None,
        options: dict[str, Any] | None = None,
        *,
        opponents: str = "random",
        seat: int = 0,
        rewards: str = "game",
        illegal: str = "lose",
        play_out: bool = False,
    ) -> None:
        self.game = game = _game(game, players, options)
        self.encoder = batch_encoder(game)
        check_modes(game, rewards, None)
        if opponents != "random":
            raise ValueError("the batched environments play random opponents only")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        if not 0 <= seat < game.players:
            raise ValueError(f"seat must be from 0 to {game.players - 1}")
        self.seat = seat
        self.play_out = play_out or not isinstance(game, ThirtyOne)
        self.reward_mode = rewards
        self.illegal = illegal
        self.num_envs = num_envs
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.actions,), np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(self.encoder.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch = new_batch(game, np.zeros(num_envs, dtype=np.uint64))
        self.players = RandomPlayers(self.batch)
        self._mask = np.zeros((num_envs, self.encoder.actions), dtype=np.int8)
        self._score = np.zeros(num_envs)

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games: seeds drawn as :func:`first_seeds` says (a list: one seed per game)."""
        self.batch = new_batch(self.game, first_seeds(self.num_envs, seed))
        self.players = RandomPlayers(self.batch)
        self._score = self._lives()
        none = np.zeros(self.num_envs)
        self._advance(none, np.zeros(self.num_envs, dtype=bool), {}, np.zeros(0, dtype=np.int64))
        return self._observe()

    def step(self, actions: Any) -> tuple[dict[str, Any], Array, Array, Array, dict[str, Any]]:
        batch, n = self.batch, self.num_envs
        actions = np.asarray(actions, dtype=np.int64).reshape(-1)
        if actions.shape != (n,):
            raise ValueError(f"one action index per game: {n} of them")
        inside = (actions >= 0) & (actions < self.encoder.actions)
        legal = inside & (self._mask[np.arange(n), np.where(inside, actions, 0)] == 1)
        bad = np.flatnonzero(~legal)
        if len(bad) and self.illegal == "raise":
            i = int(bad[0])
            raise IllegalActionError(f"game {i}: action index {int(actions[i])} is not legal")
        rewards = np.zeros(n)
        terminated = np.zeros(n, dtype=bool)
        final: dict[int, Array] = {}
        if len(bad):  # the game is unchanged; its episode ends with -1 (as TripletopperGymEnv)
            rewards[bad] = -1.0
            terminated[bad] = True
            final.update(zip(bad.tolist(), self.encoder.encode(batch, self.seat, bad), strict=True))
        moves = self.encoder.from_rl(batch, np.where(legal, actions, -1))
        batch.step(moves, check=False)
        self._advance(rewards, terminated, final, bad)
        obs, info = self._observe()
        if final:
            info["final_observation"] = final
        return obs, rewards, terminated, np.zeros(n, dtype=bool), info

    def _advance(
        self, rewards: Array, terminated: Array, final: dict[int, Array], restart: Array
    ) -> None:
        """The random players act until the learner is to act in every game.  A game that
        ends is recorded (its reward, ``terminated`` and final tensor) and starts again,
        as do the games ``restart``; a game that ends before the learner's first move
        is dealt again without a record (as ``TripletopperGymEnv.reset`` does)."""
        batch, seat = self.batch, self.seat
        fresh = np.zeros(self.num_envs, dtype=bool)
        while True:
            to_act = batch.to_act()
            done = to_act < 0
            if not self.play_out:  # the learner is out: its episode is over
                done |= ~batch.alive[:, seat]  # type: ignore[union-attr]
            over = np.flatnonzero(done)
            ended = over[~fresh[over]]
            if len(ended):
                terminated[ended] = True
                tensors = self.encoder.encode(batch, seat, ended)
                final.update(zip(ended.tolist(), tensors, strict=True))
                if self.reward_mode == "hand":
                    rewards[ended] = self._lives()[ended] - self._score[ended]
                else:  # (a learner that is out has lost: 0)
                    finished = to_act[ended] < 0
                    rewards[ended] = np.where(finished, batch.final_returns[ended, seat], 0.0)
            again = np.union1d(over, restart)
            restart = np.zeros(0, dtype=np.int64)
            if len(again):
                batch.reset(again)
                self.players.seed(again)
                fresh[again] = True
                self._score[again] = self._lives()[again]
                to_act = batch.to_act()
            waiting = to_act != seat
            if not waiting.any():
                break
            batch.step(self.players.act(waiting, to_act), check=False)
        if self.reward_mode == "hand":
            lives = self._lives()
            rewards[~fresh] = lives[~fresh] - self._score[~fresh]
            self._score[~fresh] = lives[~fresh]

    def _lives(self) -> Array:
        if self.reward_mode != "hand":
            return np.zeros(self.num_envs)
        lives: Array = self.batch.lives[:, self.seat].astype(np.float64)  # type: ignore[union-attr]
        return lives

    def _observe(self) -> tuple[dict[str, Any], dict[str, Any]]:
        self._mask = self.encoder.mask(self.batch, self.seat)
        tensors = self.encoder.encode(self.batch, self.seat)
        return {"observation": tensors, "action_mask": self._mask}, {
            "action_mask": self._mask.copy()
        }


class BatchedAgentsEnv:
    """N games with every seat an agent (``player_0`` ..), PettingZoo-style on arrays.

    ``reset(seed)`` and ``step(actions)`` return ``observations[agent]`` = ``{"observation":
    N x size, "action_mask": N x actions}`` (a mask is all 0 in the games where that agent
    is not to act); ``to_act`` is the seat to act in each game, and ``step`` takes one
    research action index per game, for that seat.  ``step`` also returns
    ``rewards[agent]`` (N: ``results().returns()`` in the games that just ended),
    ``terminations[agent]`` (N: those games) and ``truncations``; ended games start again
    at once (same-step autoreset, seeds as ``batch.reset``).  An illegal index raises
    ``IllegalActionError`` and changes nothing."""

    def __init__(
        self,
        num_envs: int,
        game: str | Game = "thirty-one",
        players: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.game = _game(game, players, options)
        self.encoder = batch_encoder(self.game)
        self.num_envs = num_envs
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.players)]
        self.agents = self.possible_agents.copy()
        self.batch = new_batch(self.game, np.zeros(num_envs, dtype=np.uint64))
        self.to_act = self.batch.to_act()

    def reset(
        self, seed: int | list[int | None] | None = None
    ) -> tuple[dict[str, dict[str, Array]], dict[str, dict[str, Any]]]:
        self.batch = new_batch(self.game, first_seeds(self.num_envs, seed))
        self.to_act = self.batch.to_act()
        return self.observe(), {agent: {} for agent in self.agents}

    def observe(self) -> dict[str, dict[str, Array]]:
        batch = self.batch
        return {
            agent: {
                "observation": self.encoder.encode(batch, seat),
                "action_mask": self.encoder.mask(batch, seat),
            }
            for seat, agent in enumerate(self.agents)
        }

    def step(self, actions: Any) -> tuple[dict[str, Any], ...]:
        batch = self.batch
        moves = self.encoder.from_rl(batch, np.asarray(actions, dtype=np.int64))
        ended = batch.step(moves, autoreset=True)  # IllegalActionError: nothing changed
        self.to_act = batch.to_act()
        rewards = {
            agent: np.where(ended, batch.final_returns[:, seat], 0.0)
            for seat, agent in enumerate(self.agents)
        }
        return (
            self.observe(),
            rewards,
            {agent: ended.copy() for agent in self.agents},
            {agent: np.zeros(self.num_envs, dtype=bool) for agent in self.agents},
            {agent: {} for agent in self.agents},
        )


def register() -> None:
    """Register the batched ids with Gymnasium (done on import; safe to repeat)."""
    for name, env_id in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                env_id,
                entry_point="tripletopper.rl.gym:TripletopperGymEnv",
                vector_entry_point="tripletopper.rl.batched_env:BatchedVectorEnv",
                kwargs={"game": name},
            )


register()
