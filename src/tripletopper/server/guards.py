"""What stands between the card room and a hostile HTTP client.

- :class:`BodyLimit`: request bodies over a size are refused with 413 before
  they are read whole (by their ``Content-Length``, or while a chunked body
  streams in).
- :class:`AddressLimits`: per client address rate limits (moving windows from
  the ``limits`` library) on the calls that make the room store something new:
  creating tables and taking seats.  A refusal is 429 with ``Retry-After``.
  With ``--redis`` the windows are kept in Redis, shared by every process of
  the room.
- :class:`WebAssets`: ``/static`` serves the browser client's assets and
  nothing else of the package (no Python source).

Every limit is listed in docs/protocol.md ("Limits").
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tripletopper.server import metrics
from tripletopper.server.tables import ClientError, encode

MAX_BODY = 64 * 1024
"""Bytes a request body may hold."""


class BodyTooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request bodies are at most {limit // 1024} kB")


def error_response(status: int, code: str, message: str, **headers: str) -> Response:
    metrics.refused(code)
    body = encode({"type": "error", "code": code, "message": message})
    return Response(body, status, headers=headers, media_type="application/json")


class BodyLimit:
    """ASGI middleware: 413 for a body over ``limit`` bytes, without reading it whole."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > self.limit:
                    too_large = BodyTooLarge(self.limit)
                    response = error_response(413, "too_large", too_large.detail)
                    await response(scope, receive, send)
                    return
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)  # FastAPI passes HTTPExceptions on as they are
            return message

        await self.app(scope, counted, send)


log = logging.getLogger("tripletopper.server")


class AddressLimits:
    """Moving-window rate limits per client address, one per kind of call: this process's
    own, or with ``redis_url`` the room's, counted in Redis by every process (a call of
    well under a millisecond, made only by the limited calls; while Redis cannot be
    reached, each process counts on its own)."""

    def __init__(
        self, rates: dict[str, str], redis_url: str | None = None, key_prefix: str = "tt:limits"
    ) -> None:
        self.items: dict[str, RateLimitItem] = {kind: parse(rate) for kind, rate in rates.items()}
        self.local = MovingWindowRateLimiter(MemoryStorage())
        self.shared = None
        if redis_url is not None and self.items:
            storage = RedisStorage(redis_url, key_prefix=key_prefix, socket_timeout=0.5)
            self.shared = MovingWindowRateLimiter(storage)

    def hit(self, kind: str, address: str, who: str = "your address") -> None:
        """Count one call of ``kind`` from ``address`` (or any key, e.g. a name: ``who``
        says what it is); ``rate_limited`` (429) past its rate."""
        item = self.items.get(kind)
        if item is None:
            return
        limiter = self.shared or self.local
        try:
            allowed = limiter.hit(item, kind, address)
        except Exception:  # Redis is down: count here rather than refuse everyone
            log.warning("rate limits: Redis cannot be reached; counting in this process")
            limiter = self.local
            allowed = limiter.hit(item, kind, address)
        if not allowed:
            reset = limiter.get_window_stats(item, kind, address).reset_time
            wait = max(1, math.ceil(reset - time.time()))
            raise ClientError(
                "rate_limited",
                f"too many requests from {who}: try again in {wait} s",
                retry_after=wait,
            )


WEB_SUFFIXES = (".js", ".css", ".svg", ".html", ".png", ".ico", ".woff2")


class WebAssets(StaticFiles):
    """Static files restricted to web assets (the package folder also holds Python)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if not path.endswith(WEB_SUFFIXES) or "__pycache__" in path:
            raise HTTPException(404)
        return await super().get_response(path, scope)


def client_address(scope_or_request: Any) -> str:
    """The peer address of a request (uvicorn's ``--proxy-headers`` sets it behind a proxy)."""
    client = getattr(scope_or_request, "client", None)
    return client.host if client is not None and client.host else "unknown"
