"""What accounts and ratings cost: an Argon2 check, rating one game, a leaderboard page.

Prints, for ``--repeat`` runs (median and spread): the time of one Argon2id hash and
one verification (argon2-cffi's defaults: every sign-in and registration pays one, on
a worker thread), of rating one finished 6-seat game (the job that runs inside the
finish's transaction), and of reading a 50-row leaderboard page from ``--players``
ratings of one game in SQLite.  Measures only; asserts nothing.

    python benchmarks/accounts.py [--repeat 3] [--players 10000]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable

from argon2 import PasswordHasher
from sqlalchemy import Connection

from tripletopper.server import history, ratings, schema, storage
from tripletopper.server.ratings import Place
from tripletopper.server.storage import Database, TableRow, sqlite_url


def timed(job: Callable[[], object], times: int) -> float:
    """Median seconds of ``times`` calls."""
    spent = []
    for _ in range(times):
        start = time.perf_counter()
        job()
        spent.append(time.perf_counter() - start)
    return statistics.median(spent)


def one_run(players: int) -> dict[str, float]:
    hasher = PasswordHasher()
    digest = hasher.hash("correct horse battery")
    secret = "correct horse battery"
    out = {
        "argon2 hash (ms)": 1000 * timed(lambda: hasher.hash(secret), 5),
        "argon2 verify (ms)": 1000 * timed(lambda: hasher.verify(digest, secret), 5),
    }
    with tempfile.TemporaryDirectory() as data:
        db = Database(sqlite_url(data))
        db.migrate()
        rng = random.Random(1)
        rows = [
            {
                "game": "thirty-one",
                "player": f"u:{n}",
                "mu": rng.gauss(25, 4),
                "sigma": rng.uniform(1, 8),
                "games": 1,
                "updated_at": 0.0,
            }
            for n in range(players)
        ]
        db.run_now(lambda conn: conn.execute(schema.ratings.insert(), rows))
        games = iter(range(10**6))

        def rate_one() -> None:
            table_id = f"t{next(games)}"
            row = TableRow(
                id=table_id,
                game="thirty-one",
                players=6,
                options={},
                seed=1,
                status="finished",
                created_at=0.0,
            )
            seated = [Place(s, f"u:{rng.randrange(players)}", float(s + 1)) for s in range(6)]

            def job(conn: Connection) -> None:
                storage.insert_table(conn, row)
                ratings.rate_game(conn, table_id, "thirty-one", seated, 1.0)

            db.run_now(job)

        out["rate a 6-seat game (ms)"] = 1000 * timed(rate_one, 20)
        page = lambda: db.run_now(  # noqa: E731
            lambda conn: history.leaderboard(conn, "thirty-one", 50, 5000)
        )
        out[f"leaderboard page of {players} (ms)"] = 1000 * timed(page, 20)
        db.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--players", type=int, default=10_000)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    runs = [one_run(args.players) for _ in range(args.repeat)]
    for key in runs[0]:
        values = [run[key] for run in runs]
        print(
            f"{key:32} median {statistics.median(values):8.2f}  "
            f"[{min(values):.2f}-{max(values):.2f}]"
        )


if __name__ == "__main__":
    main()
