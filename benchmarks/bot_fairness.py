"""How long a medium bot waits per move while other tables' expert bots think.

Opens, in one card room (SQLite in a temp dir, the real bot pool of the server),
``--expert-tables`` Toe tables where both seats are ``expert`` bots (a finished game
is replaced at once, so they think continuously) and one Toe table of two ``medium``
bots, and lets them play for ``--seconds``.  Prints the medium table's time per move
(from one move to the next: the bot delay, the wait for a worker and the decision),
median, p99 and max, and how many moves each kind of table made.  Measures only;
asserts nothing.

    python benchmarks/bot_fairness.py [--seconds 30] [--expert-tables 2] [--bot-delay 0.1]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import tempfile
import time
from typing import Any

from tripletopper.server.botpool import BotPool
from tripletopper.server.storage import Database, SeatRow, sqlite_url
from tripletopper.server.tables import Room, Settings, Table


def bot_pool(workers: int | None) -> tuple[Any, str]:
    """The room's bot pool and what it is."""
    pool = BotPool(workers)
    return pool, f"{pool.size} worker processes (BotPool)"


def seats(spec: str) -> dict[int, SeatRow]:
    return {s: SeatRow(s, f"{spec} {s}", "bot", spec, None) for s in range(2)}


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as data:
        db = Database(sqlite_url(data))
        db.migrate()
        db.start()
        pool, kind = bot_pool(args.workers)
        room = Room(db, pool, Settings(bot_delay=args.bot_delay))
        print(f"Python {platform.python_version()}, {os.cpu_count()} cores, bots in {kind}")
        experts: list[Table] = [
            await room.create("toe", 2, {}, seats=seats("expert"), start=True)
            for _ in range(args.expert_tables)
        ]
        medium = await room.create("toe", 2, {}, seats=seats("medium"), start=True)
        expert_moves = medium_moves = 0
        intervals: list[float] = []
        seen = {t.id: t.version for t in [*experts, medium]}
        last = time.monotonic()
        ends = last + args.seconds
        while time.monotonic() < ends:
            await asyncio.sleep(0.002)
            now = time.monotonic()
            for i, table in enumerate(experts):
                expert_moves += table.version - seen[table.id]
                seen[table.id] = table.version
                if table.row.status == "finished":
                    experts[i] = new = await room.create(
                        "toe", 2, {}, seats=seats("expert"), start=True
                    )
                    seen[new.id] = 0
            if medium.version != seen[medium.id]:
                intervals.append(now - last)
                medium_moves += medium.version - seen[medium.id]
                seen[medium.id] = medium.version
                last = now
            if medium.row.status == "finished":
                medium = await room.create("toe", 2, {}, seats=seats("medium"), start=True)
                seen[medium.id] = 0
                last = time.monotonic()
        await room.close()
        if hasattr(pool, "close"):
            pool.close()
        else:
            pool.shutdown()
        db.stop()
    intervals.sort()
    p99 = intervals[min(len(intervals) - 1, int(0.99 * len(intervals)))]
    print(
        f"{args.seconds:.0f} s, {args.expert_tables} tables of expert bots: "
        f"{expert_moves} expert moves, {medium_moves} medium moves"
    )
    print(
        f"medium bot, seconds per move (bot delay {args.bot_delay} s included): "
        f"median {statistics.median(intervals):.3f}, p99 {p99:.3f}, max {intervals[-1]:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--expert-tables", type=int, default=2)
    parser.add_argument("--bot-delay", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
