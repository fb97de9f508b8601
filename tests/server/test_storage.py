"""Storage: group commit of many tables' actions, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import asyncio
import json
import time
import warnings

import pytest
import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from tripletopper import make_game
from tripletopper.engine import CLOCK, TABLE
from tripletopper.server import storage
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.storage import (
    ActionRow,
    AddActions,
    Database,
    SeatRow,
    TableRow,
)
from tripletopper.server.tables import Settings, hash_token

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def test_concurrent_jobs_are_committed_in_batches_and_all_kept(db_url):
    db = Database(db_url)
    db.migrate()
    db.start()

    async def main() -> None:
        for t in range(3):
            row = TableRow(
                id=f"t{t}",
                game="thirty-two",
                players=3,
                options={"counters": 6},
                seed=2**53 - 1,
                status="playing",
                created_at=1.0,
            )
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


def insert_at_0001(conn, row: TableRow | ActionRow, table_id: str = "") -> None:
    """Store a table (with its seats) or an action as revision 0001 did: its columns only."""
    if isinstance(row, ActionRow):
        params = storage.action_params(table_id, row)
        del params["by_clock"]
        conn.execute(sa.table("actions", *map(sa.column, params)).insert().values(**params))
        return
    values = {
        "id": row.id,
        "game": row.game,
        "players": row.players,
        "options": json.dumps(row.options),
        "seed": row.seed,
        "status": row.status,
        "on_timeout": row.on_timeout,
        "created_at": row.created_at,
        "started_at": row.started_at,
    }
    conn.execute(sa.table("tables", *map(sa.column, values)).insert().values(**values))
    for seat in row.seats.values():
        values = {
            "table_id": row.id,
            "seat": seat.seat,
            "name": seat.name,
            "kind": seat.kind,
            "bot": seat.bot,
            "token_hash": seat.token_hash,
        }
        conn.execute(sa.table("seats", *map(sa.column, values)).insert().values(**values))


def test_timeouts_stored_at_the_table_seat_move_to_the_clock_and_games_restore(db_url, tmp_path):
    """Migration 0002: a game stored by the previous revision, with clock timeouts at
    seat -1 (TABLE), restores after the upgrade; a closing of an open table stays -1."""
    engine = storage.make_engine(db_url)
    storage.migrate(engine, "0001")
    now = time.time()
    quiz = make_game("toe", 2, quiz=True, buzz_seconds=600)
    people = {
        s: SeatRow(s, name, "human", token_hash=hash_token(f"token-{s}"))
        for s, name in enumerate(["Ann", "Bob"])
    }
    playing = TableRow(
        id="quiz",
        game="toe",
        players=2,
        options=dict(quiz.options),
        seed=3,
        status="playing",
        created_at=now,
        started_at=now,
        seats=people,
    )
    closed = TableRow(
        id="closed",
        game="thirty-two",
        players=3,
        options={"end": "open"},
        seed=4,
        status="finished",
        created_at=now,
        started_at=now,
    )
    timeout, buzz = {"type": "timeout"}, {"type": "buzz"}
    with engine.begin() as conn:
        insert_at_0001(conn, playing)
        for n, (seat, wire) in enumerate([(TABLE, timeout), (0, buzz), (TABLE, timeout)]):
            insert_at_0001(conn, ActionRow(n, seat, wire, now), "quiz")
        insert_at_0001(conn, closed)
        insert_at_0001(conn, ActionRow(0, TABLE, {"type": "close"}, now), "closed")
    engine.dispose()

    config = ServerConfig(data_dir=str(tmp_path), db_url=db_url, settings=Settings(bot_delay=0))
    with (
        TestClient(create_app(config)) as client,
        client.websocket_connect("/ws/tables/quiz") as ws,
    ):
        ws.send_json({"type": "hello", "token": "token-1"})
        assert ws.receive_json()["type"] == "welcome"
        restored = ws.receive_json()
    # Timed out, buzzed, the answer timed out: the turn went to seat 1.
    assert restored["version"] == 3 and restored["to_act"] == [1]
    assert restored["observation"]["quiz"]["questions_read"] == 2
    db = Database(db_url)
    rows = db.run_now(lambda conn: {t: storage.load_table(conn, t) for t in ("quiz", "closed")})
    db.engine.dispose()
    assert [a.seat for a in rows["quiz"].actions] == [CLOCK, 0, CLOCK]
    assert [a.seat for a in rows["closed"].actions] == [TABLE]
