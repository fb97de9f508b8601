"""Train a small policy to play Thirty-One, with NumPy only (docs/research.md).

REINFORCE with action masks on the Gymnasium environment ``tripletopper/ThirtyOne-v0``
(two players): a linear softmax policy over the 110 actions, fed the 716-number
observation tensor, trained first against the random bot and then against the easy
bot, with per-hand rewards (lives won and lost) and a running baseline.  It prints
and plots the learning curve (win rate per block of training games) and ends with
an evaluation of the trained policy and of a random policy against both bots.

    python examples/train_thirty_one.py --games 6000 --plot docs/img/train_thirty_one.png

``--games`` is split evenly between the two opponents; ``--smoke`` is a seconds-long
run for CI.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field

import numpy as np

from tripletopper.rl.gym import TripletopperGymEnv


@dataclass
class Policy:
    """Masked softmax over ``W @ x + b``, trained with Adam."""

    weights: np.ndarray
    bias: np.ndarray
    lr: float = 0.01
    moments: list[np.ndarray] = field(default_factory=list)
    steps: int = 0

    @classmethod
    def new(cls, inputs: int, actions: int, lr: float) -> Policy:
        policy = cls(np.zeros((actions, inputs), np.float64), np.zeros(actions), lr)
        policy.moments = [np.zeros_like(p) for p in (policy.weights, policy.bias) for _ in "mv"]
        return policy

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.weights @ x + self.bias
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        out: np.ndarray = p / p.sum()
        return out

    def update(
        self, xs: np.ndarray, actions: np.ndarray, probs: np.ndarray, advantages: np.ndarray
    ) -> None:
        """One gradient step on sum(advantage * log pi(action | x)) (ascent)."""
        grad_logits = -probs * advantages[:, None]  # d log softmax: one-hot - p
        grad_logits[np.arange(len(actions)), actions] += advantages
        grads = [grad_logits.T @ xs / len(xs), grad_logits.mean(axis=0)]
        self.steps += 1
        for i, (param, grad) in enumerate(zip((self.weights, self.bias), grads, strict=True)):
            m, v = self.moments[2 * i], self.moments[2 * i + 1]
            m[:] = 0.9 * m + 0.1 * grad
            v[:] = 0.999 * v + 0.001 * grad**2
            m_hat = m / (1 - 0.9**self.steps)
            v_hat = v / (1 - 0.999**self.steps)
            param += self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)


def play(
    env: TripletopperGymEnv, policy: Policy | None, rng: np.random.Generator, seed: int
) -> tuple[float, list[tuple[np.ndarray, int, np.ndarray, float]]]:
    """One game; the learner's win share and its steps (x, action, probabilities, reward).
    ``policy=None`` plays uniformly at random among the legal actions."""
    obs, _ = env.reset(seed=seed)
    steps = []
    while True:
        x, mask = obs["observation"].astype(np.float64), obs["action_mask"]
        probs = mask / mask.sum() if policy is None else policy.probabilities(x, mask)
        action = int(rng.choice(len(probs), p=probs))
        obs, reward, terminated, truncated, _ = env.step(action)
        steps.append((x, action, probs, reward))
        if terminated or truncated:
            results = env.state.results()
            assert results is not None
            return results.returns()[env.seat], steps


def train(
    policy: Policy,
    env: TripletopperGymEnv,
    games: int,
    rng: np.random.Generator,
    seed: int,
    block: int,
    curve: list[float],
    batch: int = 16,
) -> None:
    """REINFORCE: every ``batch`` games, one step on their moves' returns-to-go."""
    baseline = 0.0
    wins: list[float] = []
    buffer: list[tuple[np.ndarray, int, np.ndarray, float]] = []
    for game in range(games):
        won, steps = play(env, policy, rng, seed + game)
        wins.append(won)
        rewards = np.array([s[3] for s in steps])
        to_go = np.cumsum(rewards[::-1])[::-1]  # lives won or lost from this move on
        for (x, action, probs, _), ret in zip(steps, to_go, strict=True):
            buffer.append((x, action, probs, ret))
        if (game + 1) % batch == 0:
            returns = np.array([b[3] for b in buffer])
            baseline = 0.95 * baseline + 0.05 * returns.mean()
            policy.update(
                np.array([b[0] for b in buffer]),
                np.array([b[1] for b in buffer]),
                np.array([b[2] for b in buffer]),
                returns - baseline,
            )
            buffer.clear()
        if (game + 1) % block == 0:
            curve.append(float(np.mean(wins[-block:])))
            print(
                f"  vs {env.opponents} games {game + 1 - block + 1:5d}-{game + 1:5d}: "
                f"win rate {curve[-1]:.3f}",
                flush=True,
            )


def evaluate(policy: Policy | None, opponent: str, games: int, seed: int) -> float:
    env = TripletopperGymEnv("thirty-one", 2, opponents=opponent, rewards="hand")
    rng = np.random.default_rng(seed)
    return float(np.mean([play(env, policy, rng, seed + g)[0] for g in range(games)]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6000, help="training games (both phases)")
    parser.add_argument("--eval-games", type=int, default=1000)
    parser.add_argument("--block", type=int, default=200, help="games per point of the curve")
    parser.add_argument("--lr", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="write the learning curve to this PNG")
    parser.add_argument("--smoke", action="store_true", help="a seconds-long run (CI)")
    args = parser.parse_args()
    if args.smoke:
        args.games, args.eval_games, args.block = 64, 20, 16
    started = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    policy = Policy.new(716, 110, args.lr)
    curves: dict[str, list[float]] = {}
    for phase, opponent in enumerate(("random", "easy")):
        env = TripletopperGymEnv("thirty-one", 2, opponents=opponent, rewards="hand")
        print(f"training against the {opponent} bot", flush=True)
        curve = curves.setdefault(opponent, [])
        train(policy, env, args.games // 2, rng, 1_000_000 * (phase + 1), args.block, curve)
    trained_at = time.perf_counter() - started
    print(f"trained in {trained_at:.0f} s; evaluating over {args.eval_games} games each")
    table = {}
    for opponent in ("random", "easy"):
        table[opponent] = (
            evaluate(policy, opponent, args.eval_games, 7_000_000),
            evaluate(None, opponent, args.eval_games, 7_000_000),
        )
        print(
            f"  vs {opponent:6s}: trained policy wins {table[opponent][0]:.3f}, "
            f"a random policy {table[opponent][1]:.3f}"
        )
    if args.plot:
        plot(curves, table, args.block, args.plot)


def plot(
    curves: dict[str, list[float]], table: dict[str, tuple[float, float]], block: int, path: str
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    start = 0
    for opponent, curve in curves.items():
        xs = [(start + i + 1) * block for i in range(len(curve))]
        ax.plot(xs, curve, marker=".", label=f"training vs {opponent}")
        ax.axhline(
            table[opponent][1],
            linestyle=":",
            color=ax.lines[-1].get_color(),
            label=f"random policy vs {opponent}",
        )
        start += len(curve)
    ax.set_xlabel("training games")
    ax.set_ylabel(f"win rate (per {block} games)")
    ax.set_title("Thirty-One, 2 players: REINFORCE (linear, NumPy)")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


if __name__ == "__main__":
    main()
