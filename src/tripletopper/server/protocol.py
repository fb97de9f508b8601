"""The websocket protocol of a table (``/ws/tables/{id}``): see ``docs/protocol.md``.

Each connection is a :class:`Connection`: a reader that checks every message
(size, rate, JSON, type) before it reaches the table, and a writer task that
drains the connection's own queue, so a slow client never holds up a table.
Every refusal is an ``error`` message to that client only; nothing changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from tripletopper.engine import TABLE
from tripletopper.server import metrics
from tripletopper.server.guards import AddressLimits, client_address
from tripletopper.server.tables import ClientError, Room, Table, chat_line, encode, hash_token

log = logging.getLogger("tripletopper.server")

MAX_MESSAGE = 4096
"""Largest message a client may send, in characters."""
RATE = 50.0
"""Messages per second a connection may send on average (a bot program playing fast
bots needs a few dozen; every legitimate action waits for the server's update)..."""
BURST = 100.0
"""...and in a burst."""
MAX_REFUSED = 200
"""Refused (rate-limited) messages after which the connection is closed."""
MAX_QUEUE = 1000
"""Messages queued for a client that does not read; beyond it the client is dropped..."""
MAX_QUEUE_BYTES = 2 * 1024 * 1024
"""...and bytes: a reader that falls this far behind is dropped (it reconnects and resyncs)."""
SYNC_INTERVAL = 0.5
"""Seconds between two ``state`` answers to one connection's ``sync``: more syncs in the
meantime are coalesced into one answer at the end of the interval."""
MAX_CONNECTIONS = 32
"""Websocket connections one client address may hold open at once."""


class Connection:
    """One websocket client at one table."""

    def __init__(
        self, ws: WebSocket, room: Room, table_id: str, limits: AddressLimits | None = None
    ) -> None:
        self.ws = ws
        self.room = room
        self.table_id = table_id
        self.limits = limits
        self.address = client_address(ws)
        self.table: Table | None = None
        self.seat: int | None = None
        self.key: str | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.allowance = BURST
        self.checked = time.monotonic()
        self.refused = 0
        self.dropped = False
        self.queued_bytes = 0
        self.synced_at = -SYNC_INTERVAL
        self.sync_due: asyncio.TimerHandle | None = None
        self.sync_version: object = None
        self.received = 0.0
        """When the message being handled arrived (``time.perf_counter``)."""

    def push(self, text: str) -> None:
        if self.dropped:
            return
        size = len(text)
        if self.queue.qsize() >= MAX_QUEUE or self.queued_bytes + size > MAX_QUEUE_BYTES:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queued_bytes += size
        self.queue.put_nowait(text)

    def send(self, message: dict[str, Any]) -> None:
        self.push(encode(message))

    def error(self, code: str, message: str, **extra: Any) -> None:
        metrics.refused(code)
        self.send({"type": "error", "code": code, "message": message, **extra})

    async def writer(self) -> None:
        while True:
            text = await self.queue.get()
            if text is None:
                break
            self.queued_bytes -= len(text)
            await self.ws.send_text(text)
        with contextlib.suppress(Exception):
            await self.ws.close(code=1008 if self.dropped else 1000)

    def _rate_ok(self) -> bool:
        now = time.monotonic()
        self.allowance = min(BURST, self.allowance + (now - self.checked) * RATE)
        self.checked = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True

    async def admit(self) -> bool:
        """Accept the websocket, unless its address holds ``MAX_CONNECTIONS`` already (then
        it is told why and closed).  An admitted connection must ``room.disconnect`` at its end."""
        await self.ws.accept()
        if await self.room.connect(self.address, MAX_CONNECTIONS):
            return True
        refusal = ClientError("too_many_connections", f"at most {MAX_CONNECTIONS} at once")
        await self.ws.send_text(encode(refusal.to_json()))
        await self.ws.close(code=1008)
        return False

    async def serve(self) -> None:
        address = self.address
        if not await self.admit():
            return
        writer = asyncio.get_running_loop().create_task(self.writer())
        try:
            while not self.dropped:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    raw = message.get("bytes") or b""
                    if len(raw) > MAX_MESSAGE:
                        self.error("too_large", f"messages are at most {MAX_MESSAGE} characters")
                        continue
                    try:
                        text = raw.decode("utf-8")
                    except UnicodeDecodeError:
                        self.error("malformed", "messages are JSON text")
                        continue
                if not self._rate_ok():
                    self.refused += 1
                    if self.refused == 1 or self.refused % 50 == 0:
                        self.error("rate_limited", "too many messages: slow down")
                    if self.refused >= MAX_REFUSED:
                        break
                    continue
                if len(text) > MAX_MESSAGE:
                    self.error("too_large", f"messages are at most {MAX_MESSAGE} characters")
                    continue
                await self.handle(text)
        except WebSocketDisconnect:
            pass
        finally:
            self.room.disconnect(address)
            if self.sync_due is not None:
                self.sync_due.cancel()
            if self.table is not None:
                self.table.part(self)
            self.dropped = True
            self.queue.put_nowait(None)
            with contextlib.suppress(BaseException):
                await writer

    async def handle(self, text: str) -> None:
        self.received = time.perf_counter()
        try:
            try:
                message = orjson.loads(text)
            except (ValueError, RecursionError):
                raise ClientError("malformed", "a message must be a JSON object") from None
            if not isinstance(message, dict):
                raise ClientError("malformed", "a message must be a JSON object")
            kind = message.get("type")
            ref = message.get("ref")
            if not isinstance(ref, str | int) or isinstance(ref, bool):
                ref = None  # echoed only as the plain value a client can match
            try:
                if kind == "hello":
                    await self.hello(message)
                elif kind == "action":
                    await self.action(message, ref)
                elif kind == "sync":
                    self.sync(message.get("version"))
                elif kind == "ping":
                    self.send({"type": "pong", "ref": ref, "time": time.time()})
                elif kind == "chat":
                    await self.chat(message)
                else:
                    raise ClientError(
                        "unknown_type",
                        "unknown message type (use hello, action, sync, chat or ping)",
                    )
            except ClientError as exc:
                if ref is not None:
                    exc.extra.setdefault("ref", ref)
                raise
        except ClientError as exc:
            metrics.refused(exc.code)
            self.send(exc.to_json())
        except Exception:  # never a stack trace to a client
            log.exception("table %s: unexpected error", self.table_id)
            self.error("internal", "the server could not handle that message")

    async def hello(self, message: dict[str, Any]) -> None:
        if self.table is not None:
            raise ClientError("already_joined", "this connection already said hello")
        token = message.get("token")
        if token is not None and (not isinstance(token, str) or len(token) > 200):
            raise ClientError("bad_token", "a token is a string")
        table = await self.room.get(self.table_id)
        if not table.owner:  # the common case made local: the table moves to its people
            await table.gather()
            table = await self.room.get(self.table_id)
        standing = table.standing(token)
        if token and not any(value is not None for value in standing.values()):
            raise ClientError("bad_token", "that token holds no seat here; watching instead?")
        self.table, self.seat = table, standing["seat"]
        self.key = hash_token(token) if token else None
        # joined (sent updates) only with the first state: see _send_sync
        self.send({"type": "welcome", "table": table.id, **standing})
        self.sync(message.get("version"))

    async def chat(self, message: dict[str, Any]) -> None:
        """A chat line: checked, counted against the address's (and for spectators, the
        table's) rate, then stored and shown to the table under the server's name for it."""
        table = self._table()
        extra = set(message) - {"type", "text", "ref"}
        if extra:
            raise ClientError("malformed", f"unexpected field {sorted(extra)[0]!r}")
        chat_line(message.get("text"))  # refused before it counts against a rate
        if self.limits is not None:
            self.limits.hit("chat", self.address)
            if self.seat is None:
                self.limits.hit("spectator_chat", table.id)
        await table.say(self.seat, self.address, message.get("text"))

    def sync(self, version: object) -> None:
        """A ``state`` message now, or once the connection's sync interval has passed.

        Syncs that arrive within the interval are coalesced: one answer, for the
        version the latest of them named.  Every connection at a version shares
        one serialized snapshot (``Table.snapshot_text``).
        """
        self._table()
        self.sync_version = version
        if self.sync_due is not None:
            return
        wait = self.synced_at + SYNC_INTERVAL - time.monotonic()
        if wait <= 0:
            self._send_sync()
        else:
            self.sync_due = asyncio.get_running_loop().call_later(wait, self._send_sync)

    def _send_sync(self) -> None:
        self.sync_due = None
        self.synced_at = time.monotonic()
        if self.table is None or self.dropped:
            return
        if self.table.storing:  # an applied action not yet saved: nobody may see it yet
            self.table.after_store.append(self._send_sync)
            return
        version = self.sync_version
        since = version if isinstance(version, int) and not isinstance(version, bool) else None
        first = self not in self.table.clients
        # A connection hears updates from its first state on; joined earlier, an action
        # stored between hello and that state would reach it as an update first.
        self.table.join(self)
        self.push(self.table.snapshot_text(self.seat, since))
        chat = self.table.chat_text() if first else None
        if chat is not None:
            self.push(chat)

    async def action(self, message: dict[str, Any], ref: str | int | None) -> None:
        table = self._table()
        extra = set(message) - {"type", "action", "version", "ref", "table"}
        if extra:
            raise ClientError("malformed", f"unexpected field {sorted(extra)[0]!r}")
        if self.seat is None:
            raise ClientError("not_seated", "spectators cannot act")
        seat = self.seat
        if message.get("table") is True:
            seat = TABLE
        if "action" not in message:
            raise ClientError("malformed", "an action message needs 'action'")
        await table.act(seat, message["action"], message.get("version"))
        metrics.ACTION_SECONDS.observe(time.perf_counter() - self.received)
        if ref is not None:
            self.send({"type": "ack", "ref": ref, "version": table.version})

    def _table(self) -> Table:
        if self.table is None:
            raise ClientError("hello_first", "say hello first (with your seat token, if any)")
        return self.table
