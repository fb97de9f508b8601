"""Helpers of the server tests: a live server in a thread, tables opened through the API."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn

from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.client import TableClient
from tripletopper.server.tables import Settings


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def live_server(
    data_dir: str,
    *,
    db_url: str | None = None,
    bot_delay: float = 0.0,
    port: int | None = None,
    **settings: Any,
) -> Iterator[str]:
    """Run the app on uvicorn in a thread; yields its base URL (``settings``: the room's)."""
    config = ServerConfig(
        data_dir=data_dir, db_url=db_url, settings=Settings(bot_delay=bot_delay, **settings)
    )
    port = port or free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(config),
            host="127.0.0.1",
            port=port,
            log_level="warning",
            ws_max_size=65536,
            lifespan="on",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    ends = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > ends or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


def start_server(data_dir: str, port: int, *extra: str) -> subprocess.Popen[bytes]:
    """``tripletopper serve`` in a process of its own (``extra``: more of its options),
    logging to ``server.log`` in ``data_dir``; returns once it answers."""
    log = open(os.path.join(data_dir, "server.log"), "ab")  # noqa: SIM115 - the server keeps it
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tripletopper",
            "serve",
            "--port",
            str(port),
            "--data-dir",
            data_dir,
            "--bot-delay",
            "0",
            "--log-level",
            "warning",
            *extra,
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        if process.poll() is not None:
            raise RuntimeError("the server died: see server.log")
        time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


def open_table(
    base: str,
    *,
    players: int = 3,
    humans: int = 2,
    bots: str = "heuristic",
    options: dict[str, Any] | None = None,
    start: bool = True,
    **extra: Any,
) -> tuple[str, list[str]]:
    """A table with ``humans`` people (seats 0..) and bots in the other seats."""
    names = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]
    with httpx.Client(base_url=base, timeout=30) as http:
        r = http.post(
            "/api/tables",
            json={
                "game": "thirty-two",
                "players": players,
                "options": options or {},
                "name": names[0],
                **extra,
            },
        )
        r.raise_for_status()
        table_id = r.json()["table"]["id"]
        tokens = [r.json()["token"]]
        for seat in range(1, humans):
            r = http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": names[seat]})
            r.raise_for_status()
            tokens.append(r.json()["token"])
        for seat in range(humans, players):
            r = http.post(
                f"/api/tables/{table_id}/seats/{seat}/bot",
                json={"bot": bots},
                headers={"X-Seat-Token": tokens[0]},
            )
            r.raise_for_status()
        if start:
            r = http.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": tokens[0]})
            r.raise_for_status()
    return table_id, tokens


async def play_randomly(
    clients: list[TableClient],
    rng: random.Random,
    *,
    until_version: int | None = None,
    timeout: float = 120,
) -> None:
    """Every client plays a random legal action whenever it may, until the game ends."""
    ends = time.monotonic() + timeout

    def done(c: TableClient) -> bool:
        return c.finished or (until_version is not None and c.version >= until_version)

    async def seat_loop(client: TableClient) -> None:
        while not done(client):
            left = ends - time.monotonic()
            await client.wait(lambda c: bool(c.legal) or done(c), timeout=max(0.1, left))
            if done(client):
                return
            seen = client.version
            await asyncio.sleep(0.022)  # stay under the per-connection rate limit (50/s)
            if done(client) or not client.legal or client.version != seen:
                continue
            await client.act(rng.choice(client.actions))
            await client.wait(lambda c, seen=seen: c.version != seen or bool(c.errors) or done(c))
            if client.errors:
                raise AssertionError(f"refused: {client.errors}")

    await asyncio.gather(*(seat_loop(c) for c in clients))


def stored_table(
    data_dir: str,
    game: str,
    players: int,
    *,
    people: dict[int, str],
    bots: dict[int, str] | None = None,
    options: dict[str, Any] | None = None,
    decks: list[list[str]] | None = None,
    setup: dict[str, Any] | None = None,
    turn_clock: float | None = None,
    hints: bool = False,
    seed: int = 1,
) -> tuple[str, dict[int, str]]:
    """A running table written straight into the database of ``data_dir`` (stacked decks and
    setup values are not in the HTTP API): a server started on it restores the game.
    Returns its id and the seat tokens of ``people`` (seat -> name)."""
    from tripletopper.question_banks import make_game
    from tripletopper.server import storage
    from tripletopper.server.storage import SeatRow, TableRow
    from tripletopper.server.tables import hash_token, new_table_id, new_token

    made = make_game(game, players, **(options or {}))
    made.new_state(seed, decks=decks, **(setup or {}))  # refused here if they are bad
    tokens = {seat: new_token() for seat in people}
    seats = {
        s: SeatRow(s, name, "human", None, hash_token(tokens[s])) for s, name in people.items()
    }
    seats |= {
        s: SeatRow(s, f"{bot.capitalize()} bot", "bot", bot) for s, bot in (bots or {}).items()
    }
    now = time.time()
    row = TableRow(
        id=new_table_id(),
        game=game,
        players=players,
        options=dict(made.options),
        seed=seed,
        status="playing",
        created_at=now,
        started_at=now,
        turn_clock=turn_clock,
        decks=decks,
        setup=setup or {},
        hints=hints,
        seats=seats,
    )
    db = storage.Database(storage.sqlite_url(data_dir))
    db.migrate()
    db.run_now(lambda conn: storage.insert_table(conn, row))
    db.engine.dispose()
    return row.id, tokens
