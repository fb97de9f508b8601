"""The same storage on PostgreSQL (by URL): migrations, a whole game, a restart."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests.server.helpers import free_port, live_server, open_table, play_randomly
from tripletopper.server import storage
from tripletopper.server.client import TableClient
from tripletopper.server.storage import Database

pytestmark = pytest.mark.postgres


def test_migrations_apply_twice_without_harm(postgres_url):
    db = Database(postgres_url)
    db.migrate()
    db.migrate()
    assert db.run_now(lambda conn: storage.table_ids(conn, "playing")) == []
    db.stop()


def test_a_game_on_postgresql_survives_a_restart(tmp_path, postgres_url):
    port = free_port()
    rng = random.Random(4)
    with live_server(str(tmp_path), db_url=postgres_url, port=port) as base:
        table_id, tokens = open_table(base, players=3, humans=2, options={"counters": 20})

        async def first() -> int:
            clients = [TableClient(base, table_id, t, reconnect=False) for t in tokens]
            for c in clients:
                await c.start()
            await play_randomly(clients, rng, until_version=6)
            for c in clients:
                await c.close()
            return max(c.version for c in clients)

        seen = asyncio.run(first())
    with live_server(str(tmp_path), db_url=postgres_url, port=port) as base:

        async def second() -> None:
            clients = [TableClient(base, table_id, t) for t in tokens]
            for c in clients:
                await c.start()
            assert clients[0].version >= seen
            await play_randomly(clients, rng)
            assert all(c.finished for c in clients)
            for c in clients:
                await c.close()

        asyncio.run(second())
    db = Database(postgres_url)
    row = db.run_now(lambda conn: storage.load_table(conn, table_id))
    db.stop()
    assert row.status == "finished" and len(row.actions) >= seen
