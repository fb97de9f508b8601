"""The room's Prometheus metrics, served at ``/metrics`` (docs/deploy.md, "Health and
metrics").

Counted as things happen, by this process (one room process; sum them over the room):

- ``tripletopper_actions_total``: actions applied and stored (people's, bots', turn
  clocks'), so ``rate(...)`` is actions per second;
- ``tripletopper_action_seconds``: a person's action, from its websocket message
  received to stored and sent to every connection of the table (a histogram);
- ``tripletopper_errors_total{code}``: refusals and failures sent to clients, by their
  documented error code (HTTP and websocket).

Read from the room at each scrape: ``tripletopper_tables{state}`` (tables in this
process's memory), ``tripletopper_connections{kind}`` (websockets of tables and the
lobby; connected bot accounts), ``tripletopper_bot_decisions{state}`` (waiting for a
worker process, being made).

``/metrics`` answers a client on this machine that reaches the process directly (no
proxy header), or any client that sends ``Authorization: Bearer TOKEN`` with the
room's ``--metrics-token``; everyone else gets 403.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections import Counter as Tally
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import orjson
from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.exposition import generate_latest
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from tripletopper.server.tables import Room

ACTIONS = Counter(
    "tripletopper_actions",
    "Actions applied and stored by this process (people's, bots' and turn clocks').",
    registry=None,
)
ACTION_SECONDS = Histogram(
    "tripletopper_action_seconds",
    "A person's action, from its websocket message received to stored and sent to every "
    "connection of its table.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
    registry=None,
)
ERRORS = Counter(
    "tripletopper_errors",
    "Refusals and failures sent to clients (HTTP and websocket), by error code.",
    ["code"],
    registry=None,
)
STATES = ("open", "playing", "finished", "abandoned", "expired")
"""The table states always shown (others are shown when some table has them)."""
MIN_TOKEN = 16
"""Characters a metrics token must have at least."""
PROXY_HEADERS = (b"x-forwarded-for", b"forwarded", b"x-real-ip")


def refused(code: str) -> None:
    """Count an error sent to a client."""
    ERRORS.labels(code).inc()


class RoomCollector(Collector):
    """The room's state at the moment of a scrape."""

    def __init__(self, room: Callable[[], Room | None]) -> None:
        self.room = room

    def collect(self) -> Iterator[Metric]:
        room = self.room()
        tables = GaugeMetricFamily(
            "tripletopper_tables", "Tables in this process's memory, by state.", labels=["state"]
        )
        connections = GaugeMetricFamily(
            "tripletopper_connections",
            "Open websocket connections (tables and lobby: websocket) and connected bot "
            "accounts (bot_account).",
            labels=["kind"],
        )
        bots = GaugeMetricFamily(
            "tripletopper_bot_decisions",
            "Bot decisions waiting for a worker process, and being made in one.",
            labels=["state"],
        )
        if room is not None:
            counts = Tally(table.row.status for table in list(room.tables.values()))
            for state in sorted(set(STATES) | set(counts)):
                tables.add_metric([state], counts.get(state, 0))
            connections.add_metric(["websocket"], sum(room.connections.values()))
            connections.add_metric(["bot_account"], len(room.bot_links))
            waiting, running = room.pool.load()
            bots.add_metric(["waiting"], waiting)
            bots.add_metric(["running"], running)
        yield from (tables, connections, bots)


def registry(room: Callable[[], Room | None]) -> CollectorRegistry:
    """One app's metrics: this process's counters and its room's state."""
    found = CollectorRegistry()
    for collector in (ACTIONS, ACTION_SECONDS, ERRORS, RoomCollector(room)):
        found.register(collector)
    return found


def check_token(token: str | None) -> str | None:
    """A metrics token as given (None: none), or ValueError if it is too short to guess."""
    if token is not None and len(token) < MIN_TOKEN:
        raise ValueError(f"a metrics token has at least {MIN_TOKEN} characters")
    return token


def may_read(request: Request, token: str | None) -> bool:
    """With a token: the request bears it.  Without: the request comes straight from this
    machine (a loopback peer, no proxy's forwarding header)."""
    if token is not None:
        sent = request.headers.get("authorization", "")
        return secrets.compare_digest(sent.encode(), f"Bearer {token}".encode())
    if any(key in PROXY_HEADERS for key, _value in request.scope.get("headers", ())):
        return False
    host = request.client.host if request.client is not None else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def router(room: Callable[[], Room | None], token: str | None) -> APIRouter:
    """``GET /metrics`` (not in the OpenAPI schema: it is for the operator's scraper)."""
    api = APIRouter()
    found = registry(room)

    @api.get("/metrics", include_in_schema=False)
    async def metrics(request: Request) -> Response:
        if not may_read(request, token):
            refused("forbidden")
            message = "metrics are for this machine, or for a scraper with the metrics token"
            body = orjson.dumps({"type": "error", "code": "forbidden", "message": message})
            return Response(body, 403, media_type="application/json")
        return Response(generate_latest(found), media_type=CONTENT_TYPE_LATEST)

    return api
