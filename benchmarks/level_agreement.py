"""How often two difficulty levels choose the same move in the same position.

Positions come from seeded games of medium bots (every third decision of a seat that
alone may act and has a choice); at each, medium, hard and expert decide from a fresh
bot of the seat (no memory of the game: a heuristic that remembers discards may differ
a little from the same bot seated all game).  Prints, per game, the share of positions
where hard plays medium's move, expert plays medium's move, expert plays hard's move,
and hard plays the move of hard with another seed (the search's own noise: a level
cannot agree with hard more often than hard agrees with itself).  Two levels can differ
in strength only where their moves differ: a high agreement bounds how far apart their
scores in ``tripletopper match`` can be, and so how many games a match needs to tell
them apart.  Deterministic for a seed; measures only.

    python benchmarks/level_agreement.py [--positions 100] [--game NAME -p N]
"""

from __future__ import annotations

import argparse
import time

from tripletopper.bots import SeatView, bot_factory
from tripletopper.engine import CLOCK, Game, State
from tripletopper.question_banks import make_game

GAMES = (("thirty-two", 3), ("thirty-one", 2), ("toe", 2), ("three-up-three-down", 2))
LEVELS = ("medium", "hard", "expert")
OTHER_SEED = 1_000_003


def positions(game: Game, count: int) -> list[tuple[State, int]]:
    """``count`` positions (state, seat to decide) from games of medium bots."""
    found: list[tuple[State, int]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state = game.new_state(seed)
        bots = [bot_factory("medium", game)(s, seed * 10 + s) for s in range(game.players)]
        for step in range(1, 401):
            if state.is_terminal() or len(found) >= count:
                break
            seats = state.to_act()
            seat = seats[0]
            view = SeatView(state.clone(), seat)
            if len(seats) == 1 and len(view.legal_actions()) > 1 and step % 3 == 0:
                found.append((state.clone(), seat))
            action = bots[seat].choose(view)
            if action is None:  # a race the bot waits in: the clock ends it
                limit = state.timeout()
                assert limit is not None
                seat, action = CLOCK, limit[1]
            for event in state.apply(action, seat):
                for watcher, bot in enumerate(bots):
                    if bot.wants_events:
                        bot.observe([event.view(watcher)])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--game", help="one game (with -p)")
    parser.add_argument("-p", "--players", type=int, default=2)
    args = parser.parse_args()
    chosen = ((args.game, args.players),) if args.game else GAMES
    print(
        "| game | players | positions | hard = medium | expert = medium | expert = hard "
        "| hard = hard, another seed | s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name, players in chosen:
        started = time.perf_counter()
        game = make_game(name, players)
        found = positions(game, args.positions)
        same = {"hard=medium": 0, "expert=medium": 0, "expert=hard": 0, "hard=hard'": 0}
        for i, (state, seat) in enumerate(found):
            # each search its own seed: with one seed, expert's first determinizations
            # would be hard's, and the two would agree more than chance allows
            medium, hard, expert, again = (
                bot_factory(level, game)(seat, i + n * OTHER_SEED).choose(
                    SeatView(state.clone(), seat)
                )
                for n, level in enumerate((*LEVELS, "hard"))
            )
            same["hard=medium"] += hard == medium
            same["expert=medium"] += expert == medium
            same["expert=hard"] += expert == hard
            same["hard=hard'"] += again == hard
        shares = " | ".join(f"{n / len(found):.0%}" for n in same.values())
        seconds = time.perf_counter() - started
        print(f"| {name} | {players} | {len(found)} | {shares} | {seconds:.0f} |", flush=True)


if __name__ == "__main__":
    main()
