"""``/healthz`` and ``/readyz``: what a supervisor or a load balancer asks a room process.

- ``GET /healthz``: 200 ``{"status": "alive"}`` as long as the process's event loop
  answers (a process stuck in a loop or stopped with SIGSTOP does not answer at all:
  give the check a timeout and restart the process after a few misses);
- ``GET /readyz``: 200 ``{"status": "ready", ...}`` when the process may be sent
  players: its database answers through the writer thread that stores every action,
  the schema is the one this tripletopper expects, and Redis (with ``--redis``)
  answers; else 503 ``{"status": "unready", "reason": ...}`` with a one-line reason
  (the details go to the log, not to whoever asked).

A readiness check costs a database round trip and a Redis ping, so answers are shared:
checks asked for at once wait for one, and an answer is reused for ``REUSE`` seconds.
Neither endpoint is in the OpenAPI schema.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import orjson
import redis.asyncio as aioredis
from fastapi import APIRouter, Response

from tripletopper.server.migration import schema_of

if TYPE_CHECKING:
    from tripletopper.server.tables import Room

log = logging.getLogger("tripletopper.server")

TIMEOUT = 3.0
"""Seconds each dependency has to answer a readiness check."""
REUSE = 1.0
"""Seconds a readiness answer is reused for the checks asked for after it."""

Answer = tuple[int, dict[str, Any]]


class Readiness:
    """Checks the room's database, schema and Redis, at most one check at a time."""

    def __init__(self, room: Callable[[], Room | None], redis_url: str | None) -> None:
        self.room = room
        self.redis = (
            None
            if redis_url is None
            else aioredis.Redis.from_url(redis_url, socket_timeout=TIMEOUT)
        )
        self._answer: Answer | None = None
        self._at = 0.0
        self._checking: asyncio.Task[Answer] | None = None

    async def answer(self) -> Answer:
        if self._answer is not None and time.monotonic() - self._at < REUSE:
            return self._answer
        if self._checking is None:
            self._checking = asyncio.get_running_loop().create_task(self._check())
        checking = self._checking
        try:
            answer = await asyncio.shield(checking)
        finally:
            if self._checking is checking and checking.done():
                self._checking = None
        self._answer, self._at = answer, time.monotonic()
        return answer

    async def _check(self) -> Answer:
        room = self.room()
        if room is None:
            return unready("starting or stopping")
        try:
            schema = await asyncio.wait_for(room.db.run(schema_of), TIMEOUT)
        except Exception as exc:
            log.warning("readiness: the database does not answer: %r", exc)
            return unready("the database does not answer")
        problem = schema.problem()
        if problem is not None:
            return unready(problem)
        out: dict[str, Any] = {"status": "ready", "schema": schema.revision, "redis": None}
        if self.redis is not None:
            try:
                await asyncio.wait_for(self.redis.ping(), TIMEOUT)
            except Exception as exc:
                log.warning("readiness: Redis does not answer: %r", exc)
                return unready("Redis does not answer")
            out["redis"] = "ok"
        return 200, out

    async def close(self) -> None:
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()


def unready(reason: str) -> Answer:
    return 503, {"status": "unready", "reason": reason}


def router(readiness: Readiness) -> APIRouter:
    api = APIRouter()

    @api.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        return Response(b'{"status":"alive"}', media_type="application/json")

    @api.get("/readyz", include_in_schema=False)
    async def readyz() -> Response:
        status, body = await readiness.answer()
        return Response(orjson.dumps(body), status, media_type="application/json")

    return api
