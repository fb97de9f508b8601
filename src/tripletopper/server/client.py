"""A Python client of the table protocol: sits at a table over the websocket.

It keeps the newest ``state``/``update`` it received (observation, legal
actions, version), reconnects by itself when the connection drops (saying
hello with the last version it saw, so the server sends only what it missed)
and can record every message it receives.  Tests, the benchmark and Python
bots use it; ``docs/protocol.md`` describes the same protocol for any language.

    async with TableClient("http://127.0.0.1:8032", table_id, token) as client:
        while not client.finished:
            await client.wait(lambda c: c.legal or c.finished)
            if client.legal:
                await client.act(client.actions[0])

``legal`` is what the server sent: plain actions and patterns that stand for many
(``docs/protocol.md``); ``actions`` lists every legal action, patterns expanded.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


def expand(legal: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every action (wire form) that entries of ``legal`` stand for, patterns expanded."""
    out = []
    for entry in legal:
        if "pattern" not in entry:
            out.append(entry["action"])
            continue
        pattern = entry["pattern"]
        base, field = pattern["action"], pattern["field"]
        for items in combinations(pattern["from"], pattern["pick"]):
            out.append({**base, field: list(items)})
    return out


class TableClient:
    def __init__(
        self,
        base_url: str,
        table_id: str,
        token: str | None = None,
        *,
        record: bool = False,
        reconnect: bool = True,
    ) -> None:
        self.url = base_url.replace("http", "ws", 1).rstrip("/") + f"/ws/tables/{table_id}"
        self.table_id = table_id
        self.token = token
        self.reconnect = reconnect
        self.record = record
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self.version = -1
        self.seat: int | None = None
        self.status = ""
        self.observation: dict[str, Any] = {}
        self.legal: list[dict[str, Any]] = []
        self.recall: dict[str, Any] = {}
        """The seat's recall (``State.recall``), which the room sends a bot account's seat only."""
        self.log: list[str] = []
        self.table: dict[str, Any] = {}
        self.results: dict[str, Any] | None = None
        self.rematch: str | None = None
        self.away: int | None = None
        """The seat a bot plays since this client's person left it (they may take it back)."""
        self.chat: list[dict[str, Any]] = []
        self.connections = 0
        self.on_update: Callable[[TableClient, dict[str, Any]], None] | None = None
        self._ws: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self._closing = False

    async def __aenter__(self) -> TableClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @property
    def actions(self) -> list[dict[str, Any]]:
        """Every legal action now, in wire form (``legal`` with its patterns expanded)."""
        return expand(self.legal)

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    async def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())
        await self.wait(lambda c: c.version >= 0 or c.status != "", timeout=30)

    async def close(self) -> None:
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _run(self) -> None:
        delay = 0.1
        while not self._closing:
            try:
                async with connect(self.url, max_size=2**22, open_timeout=10) as ws:
                    self._ws = ws
                    self.connections += 1
                    delay = 0.1
                    hello: dict[str, Any] = {"type": "hello", "token": self.token}
                    if self.version >= 0:
                        hello["version"] = self.version
                    await ws.send(json.dumps(hello))
                    async for text in ws:
                        self._receive(str(text))
            except (TimeoutError, OSError, ConnectionClosed):
                pass
            self._ws = None
            if not self.reconnect or self._closing:
                break
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)

    def _receive(self, text: str) -> None:
        message = json.loads(text)
        if self.record:
            self.raw.append(text)
            self.messages.append(message)
        kind = message.get("type")
        if kind == "welcome":
            self.seat = message["seat"]
            self.away = message.get("away")
        elif kind == "seat":
            self.seat, self.away = message["seat"], message.get("away")
        elif kind == "chat":
            seen = {line["n"] for line in self.chat}
            self.chat.extend(line for line in message["lines"] if line["n"] not in seen)
        elif kind in ("state", "update"):
            self.version = message["version"]
            self.status = message["status"]
            self.observation = message.get("observation", {})
            self.legal = message.get("legal", [])
            self.recall = message.get("recall", {})
            self.results = message.get("results")
            self.log.extend(line["text"] for line in message.get("log", []))
            if "table" in message:
                self.table = message["table"]
            if self.on_update is not None:
                self.on_update(self, message)
        elif kind == "table":
            self.table = message["table"]
            self.status = self.table["status"] if self.version >= 0 else self.status
        elif kind == "rematch":
            self.rematch = message["table"]
        elif kind == "error":
            self.errors.append(message)
        self._changed.set()

    async def send(self, message: dict[str, Any]) -> None:
        if self._ws is None:
            raise ConnectionError("not connected")
        await self._ws.send(json.dumps(message))

    async def say(self, text: str) -> None:
        """Say a line in the table's chat (it comes back as a ``chat`` message)."""
        await self.send({"type": "chat", "text": text})

    async def act(self, action: dict[str, Any], **extra: Any) -> None:
        """Send an action for the version last seen (the answer comes as an update)."""
        await self.send({"type": "action", "action": action, "version": self.version, **extra})

    async def wait(self, predicate: Callable[[TableClient], bool], timeout: float = 30) -> None:
        """Until ``predicate(self)`` holds (checked after every message)."""
        ends = time.monotonic() + timeout
        while not predicate(self):
            left = ends - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"waited {timeout} s at version {self.version}")
            self._changed.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._changed.wait(), left)
