"""The lobby: open tables to join, games in progress to watch, recent games to replay.

The three lists are built from the database by one query per list, serialized once and
shared by every reader: browsers keep a websocket at ``/ws/lobby`` and get the lists
again whenever a table opens, changes seats, starts or ends (never for a move: the
lobby shows no game state), programs ``GET /api/lobby`` (with an ``ETag``).  However
busy the room, the lists are rebuilt at most once per :data:`REFRESH` seconds: changes
in between are coalesced into the next rebuild.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import Connection as Db
from starlette.websockets import WebSocket, WebSocketDisconnect

from tripletopper.games import GAMES
from tripletopper.server import storage
from tripletopper.server.protocol import Connection
from tripletopper.server.storage import Database, TableRow
from tripletopper.server.tables import (
    ABANDONED,
    FINISHED,
    OPEN,
    PLAYING,
    ClientError,
    Room,
    encode,
    join_json,
)

log = logging.getLogger("tripletopper.server")

REFRESH = 1.0
"""Seconds between two rebuilds of the lists, at most."""
LISTS = {"open": 50, "playing": 50, "finished": 30}
"""Tables in each list, newest first."""


def lobby_entry(row: TableRow) -> dict[str, Any]:
    """What the lobby shows of a table: no version, no secret, no card."""
    return {
        "id": row.id,
        "game": row.game,
        "title": GAMES[row.game].title,
        "players": row.players,
        "status": row.status,
        "options": row.options,
        "seats": [
            {"name": info.name, "kind": info.kind} if (info := row.seats.get(seat)) else None
            for seat in range(row.players)
        ],
        "created_at": row.created_at,
        "started_at": row.started_at,
        "finished_at": row.finished_at,
        "winners": (row.results or {}).get("winners"),
        "rematch_of": row.rematch_of,
    }


def lobby_lists(conn: Db) -> dict[str, list[dict[str, Any]]]:
    """The three lists (a job for the database thread); games this server does not know
    are left out."""
    found = {
        "open": storage.list_tables(conn, (OPEN,), LISTS["open"]),
        "playing": storage.list_tables(conn, (PLAYING,), LISTS["playing"], "started_at"),
        "finished": storage.list_tables(
            conn, (FINISHED, ABANDONED), LISTS["finished"], "finished_at"
        ),
    }
    return {name: [lobby_entry(r) for r in rows if r.game in GAMES] for name, rows in found.items()}


class Lobby:
    """The lists as every reader gets them, rebuilt only when a table changed."""

    def __init__(
        self,
        db: Database,
        spawn: Callable[[Coroutine[Any, Any, None]], None],
        interval: float = REFRESH,
    ) -> None:
        self.db = db
        self.spawn = spawn
        self.interval = interval
        self.listeners: set[Connection] = set()
        self.body: str | None = None
        """The lists, serialized (without the time, so unchanged lists are not sent again)."""
        self.etag = ""
        self.dirty = True
        self.built_at = -float("inf")
        self.builds = 0
        self.due: asyncio.TimerHandle | None = None
        self.lock = asyncio.Lock()

    def changed(self) -> None:
        """A table opened, changed seats, started or ended: rebuild soon if anyone listens."""
        self.dirty = True
        if self.listeners and self.due is None:
            wait = max(0.0, self.built_at + self.interval - time.monotonic())
            self.due = asyncio.get_running_loop().call_later(wait, self._due)

    def close(self) -> None:
        if self.due is not None:
            self.due.cancel()
            self.due = None

    def _due(self) -> None:
        self.due = None
        self.spawn(self.refresh())

    async def lists(self) -> str:
        """The lists now: rebuilt if a table changed and the last build is old enough,
        else the last build (then a rebuild is on its way)."""
        if self.body is None or (self.dirty and time.monotonic() >= self.built_at + self.interval):
            await self.refresh()
        elif self.dirty and self.due is None:
            wait = self.built_at + self.interval - time.monotonic()
            self.due = asyncio.get_running_loop().call_later(max(0.0, wait), self._due)
        assert self.body is not None
        return self.body

    def message(self) -> str:
        """The ``lobby`` message: the lists and the server's time (for the tables' ages)."""
        return join_json(
            '{"type":"lobby"}', self.body or "{}", encode({"now": round(time.time(), 3)})
        )

    async def refresh(self) -> None:
        async with self.lock:
            if not self.dirty and self.body is not None:
                return
            self.dirty = False
            self.built_at = time.monotonic()
            try:
                lists = await self.db.run(lobby_lists)
            except Exception:
                self.dirty = True
                log.exception("the lobby's lists could not be read")
                if self.body is None:
                    raise ClientError("storage", "the lobby could not be read: try again") from None
                return
            self.builds += 1
            body = encode(lists)
            if body == self.body:
                return
            self.body = body
            self.etag = '"' + hashlib.sha256(body.encode()).hexdigest()[:32] + '"'
            if self.listeners:
                text = self.message()
                for listener in list(self.listeners):
                    listener.push(text)


class LobbyConnection(Connection):
    """A browser on the lobby page: it is sent the lists whenever they change, and sends
    nothing (a message from it closes the connection)."""

    def __init__(self, ws: WebSocket, room: Room, lobby: Lobby) -> None:
        super().__init__(ws, room, "")
        self.lobby = lobby

    async def serve(self) -> None:
        address = self.address
        if not await self.admit():
            return
        writer = asyncio.get_running_loop().create_task(self.writer())
        try:
            await self.lobby.lists()
            self.push(self.lobby.message())
            self.lobby.listeners.add(self)
            message = await self.ws.receive()
            if message["type"] != "websocket.disconnect":
                self.error("read_only", "the lobby's socket only sends: it reads nothing")
        except (WebSocketDisconnect, ClientError):
            pass
        finally:
            self.lobby.listeners.discard(self)
            self.room.disconnect(address)
            self.dropped = True
            self.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await writer
