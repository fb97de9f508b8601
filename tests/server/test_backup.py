"""Backups taken while the room plays, restored as docs/deploy.md ("Backups and restores")
says: a room started on the restored database resumes every game at the version the
backup holds, and plays on.  SQLite by ``VACUUM INTO`` and by the online backup API (the
sqlite3 shell's ``.backup``); PostgreSQL by ``pg_dump`` and ``pg_restore``."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.server.conftest import _pg_bindir
from tests.server.helpers import live_server, open_table
from tripletopper.server.client import TableClient


def play(base: str, table_id: str, tokens: list[str], moves: int) -> int:
    """``moves`` actions by whoever of the people may act; the table's version after."""

    async def run() -> int:
        clients = [TableClient(base, table_id, token) for token in tokens]
        for c in clients:
            await c.start()
        try:
            for _ in range(moves):
                await clients[0].wait(lambda c: any(x.legal for x in clients))
                mover = next(c for c in clients if c.legal)
                seen = mover.version
                await mover.act(mover.actions[0])
                for c in clients:
                    await c.wait(lambda c, seen=seen: c.version > seen)
            return clients[0].version
        finally:
            for c in clients:
                await c.close()

    return asyncio.run(run())


def version_of(base: str, table_id: str) -> tuple[int, str]:
    table = httpx.get(f"{base}/api/tables/{table_id}", timeout=10).json()["table"]
    return table["version"], table["status"]


def room(data_dir: Path, db_url: str | None = None):
    data_dir.mkdir(parents=True, exist_ok=True)
    return live_server(str(data_dir), db_url=db_url)


def test_sqlite_backups_taken_while_playing_restore_the_game(tmp_path):
    live = tmp_path / "live"
    with room(live) as base:
        table_id, tokens = open_table(base, players=3, humans=3)
        backed_up = play(base, table_id, tokens, 3)
        with contextlib.closing(sqlite3.connect(live / "tripletopper.sqlite3")) as db:
            db.execute("VACUUM INTO ?", (str(tmp_path / "vacuumed.sqlite3"),))
            with contextlib.closing(sqlite3.connect(tmp_path / "copied.sqlite3")) as copy:
                db.backup(copy)  # the online backup API, as the shell's .backup
        assert play(base, table_id, tokens, 2) == backed_up + 2  # lost in the restore
    for backup in ("vacuumed.sqlite3", "copied.sqlite3"):
        restored = tmp_path / backup.removesuffix(".sqlite3")
        restored.mkdir()
        (tmp_path / backup).rename(restored / "tripletopper.sqlite3")
        with room(restored) as base:
            assert version_of(base, table_id) == (backed_up, "playing")
            assert play(base, table_id, tokens, 1) == backed_up + 1


@pytest.mark.postgres
def test_a_pg_dump_taken_while_playing_restores_the_game(tmp_path, postgres_url):
    bindir = _pg_bindir()
    if bindir is None or not (bindir / "pg_dump").exists():
        pytest.skip("pg_dump is not installed here")
    base_url, name = postgres_url.rsplit("/", 1)
    plain = base_url.replace("postgresql+psycopg://", "postgresql://")
    dump = tmp_path / "room.dump"
    with room(tmp_path / "live", postgres_url) as base:
        table_id, tokens = open_table(base, players=3, humans=3)
        backed_up = play(base, table_id, tokens, 3)
        subprocess.run(
            [str(bindir / "pg_dump"), "--format=custom", f"--file={dump}", f"{plain}/{name}"],
            check=True,
            capture_output=True,
        )
        assert play(base, table_id, tokens, 2) == backed_up + 2
    with psycopg.connect(plain + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}_restored"')
    subprocess.run(
        [str(bindir / "pg_restore"), "--no-owner", f"--dbname={plain}/{name}_restored", str(dump)],
        check=True,
        capture_output=True,
    )
    with room(tmp_path / "restored", f"{base_url}/{name}_restored") as base:
        assert version_of(base, table_id) == (backed_up, "playing")
        assert play(base, table_id, tokens, 1) == backed_up + 1
