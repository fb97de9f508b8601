"""What the lobby costs: one rebuild of its three lists, and the message every reader gets.

Fills a fresh SQLite database (in a temp dir) with ``--tables`` tables of four seats, a
tenth open, a tenth playing and the rest finished (the room after a long while), then
times ``lobby_lists`` (the three queries and the summaries) and its serialization, the
work the room does at most once a second however busy it is, and prints the median and
best of ``--rounds``, with the size of the ``lobby`` message.  Nothing is asserted.

    python benchmarks/lobby.py [--tables 20000] [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time

from tripletopper.server import storage
from tripletopper.server.lobby import lobby_lists
from tripletopper.server.storage import Database, SeatRow, TableRow, sqlite_url
from tripletopper.server.tables import encode


def fill(db: Database, count: int) -> None:
    now = time.time()
    rows = []
    for i in range(count):
        status = "open" if i % 10 == 0 else "playing" if i % 10 == 1 else "finished"
        seats = {s: SeatRow(s, f"P{i}-{s}", "human" if s < 2 else "bot", None) for s in range(4)}
        rows.append(
            TableRow(
                id=f"t{i}",
                game="thirty-two",
                players=4,
                options={"counters": 8},
                seed=i,
                status=status,
                created_at=now - count + i,
                started_at=now - count + i + 1,
                finished_at=now - count + i + 2 if status == "finished" else None,
                results={"winners": [0]} if status == "finished" else None,
                seats=seats,
            )
        )

    def job(conn: object) -> None:
        for row in rows:
            storage.insert_table(conn, row)  # type: ignore[arg-type]
            if row.status == "finished":
                storage.update_table(conn, row.id, finished_at=row.finished_at)  # type: ignore[arg-type]

    db.run_now(job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as data:
        db = Database(sqlite_url(data))
        db.migrate()
        fill(db, args.tables)
        times, size = [], 0
        for _ in range(args.rounds):
            started = time.perf_counter()
            size = len(encode(db.run_now(lobby_lists)))
            times.append(time.perf_counter() - started)
        db.stop()
    print(
        f"{args.tables} tables: one rebuild of the lobby's lists takes "
        f"{statistics.median(times) * 1000:.1f} ms (median), {min(times) * 1000:.1f} ms (best) "
        f"over {args.rounds} rounds; the lists are {size / 1024:.1f} kB"
    )


if __name__ == "__main__":
    main()
