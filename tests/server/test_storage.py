"""Storage: group commit of many tables' actions, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.exc import IntegrityError

from tripletopper.server import storage
from tripletopper.server.storage import ActionRow, AddActions, Database, TableRow, sqlite_url


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    return request.getfixturevalue("postgres_url")


def test_concurrent_jobs_are_committed_in_batches_and_all_kept(db_url):
    db = Database(db_url)
    db.migrate()
    db.start()

    async def main() -> None:
        for t in range(3):
            row = TableRow(id=f"t{t}", game="thirty-two", players=3, options={"counters": 6},
                           seed=2**53 - 1, status="playing", created_at=1.0)  # fmt: skip
            await db.run(lambda conn, row=row: storage.insert_table(conn, row))
        jobs = [
            db.run(AddActions(f"t{t}", ActionRow(n, n % 3, {"type": "draw", "n": n}, 2.5)))
            for n in range(150)
            for t in range(3)
        ]
        await asyncio.gather(*jobs)
        with pytest.raises(IntegrityError):  # a duplicate action number is refused...
            await db.run(AddActions("t0", ActionRow(0, 0, {"type": "draw"}, 3.0)))
        await asyncio.gather(  # ...without failing the other jobs of its batch
            db.run(AddActions("t0", ActionRow(150, 0, {"type": "knock"}, 3.0))),
            asyncio.shield(asyncio.ensure_future(_expect_failure(db))),
        )

    asyncio.run(main())
    row = db.run_now(lambda conn: storage.load_table(conn, "t0"))
    assert db.commits < 3 + 450 + 3  # some jobs shared a commit
    db.stop()
    assert row is not None and row.seed == 2**53 - 1
    assert [a.n for a in row.actions] == list(range(151))
    assert row.actions[7].action == {"type": "draw", "n": 7} and row.actions[7].seat == 1
    assert row.actions[150].action == {"type": "knock"}


async def _expect_failure(db: Database) -> None:
    with pytest.raises(IntegrityError):
        await db.run(AddActions("t1", ActionRow(3, 0, {"type": "draw"}, 3.0)))
