"""Card room under load: many tables of people and bots, over loopback websockets.

Starts ``tripletopper serve`` in its own process (SQLite in a temp dir), opens
``--tables`` Thirty-Two tables of ``--seats`` seats, ``--clients`` of them per
table held by simulated people connected over websockets and the rest by
server-side bots, and lets them play for ``--seconds``.  A simulated person
thinks for a random time (``--think`` seconds on average) and then plays a
random legal action; bots wait ``--bot-delay`` seconds, as in the real room.

It prints the actions applied per second (people and bots), the CPU the room's
processes spend per action and, apart, that of their bot worker processes (every
descendant of each ``serve``), and the latency from the moment a person sends an
action to the moment the last connected seat of that table has received the
resulting update (p50, p99, max), plus every error.  Nothing is asserted: this script
measures.  Only 127.0.0.1 is used, and the run ends by itself.

    python benchmarks/server_load.py [--tables 500] [--seats 4] [--clients 2] [--seconds 60]

With ``--db postgresql+psycopg://USER@HOST:PORT`` (a server) the room stores its games
in a database made there for the run; with
``--workers N --redis redis://...`` it runs as N processes sharing the port (the
room on several processes, docs/deploy.md), and the server CPU is theirs summed.
With ``--route hash`` the N processes listen on ports of their own instead, and the
script routes as a load balancer hashing the URI would (nginx ``hash $uri
consistent``): every websocket of a table to one process, chosen by the table's id;
the HTTP requests that open the tables go round the processes.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tripletopper.server.client import expand

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    sent: int = 0
    measuring: bool = False


@dataclass
class TableLoad:
    table_id: str
    tokens: list[str]
    clients: int
    pending: dict[int, tuple[float, int]] = field(default_factory=dict)
    """version an action was sent at -> (time sent, seats still to hear of it)"""
    first_version: int | None = None
    last_version: int = 0
    address: str = "127.0.0.1"
    """The loopback address its people connect from (the room allows an address only so
    many connections: each table has its own)."""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()  # noqa: SIM115
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def room_pids(servers: list[subprocess.Popen[bytes]], workers: int) -> list[int]:
    """The processes that run the room: the servers, or with ``--workers`` (one server) its
    workers (the children of uvicorn's supervisor that are not its helpers)."""
    if workers == 1 or len(servers) > 1:
        return [server.pid for server in servers]
    server = servers[0]
    try:
        text = open(f"/proc/{server.pid}/task/{server.pid}/children").read()  # noqa: SIM115
    except OSError:
        return [server.pid]
    children = [int(pid) for pid in text.split()]
    return [pid for pid in children if "resource_tracker" not in _cmdline(pid)] or [server.pid]


def descendants(pid: int) -> list[int]:
    """A process's children, their children, and so on (Linux /proc)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            children = open(f"/proc/{pid}/task/{task}/children").read().split()  # noqa: SIM115
        except OSError:
            continue
        for child in map(int, children):
            found += [child, *descendants(child)]
    return found


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and all its descendants (a database server and its
    backends; a room process and its bot workers)."""
    return cpu_seconds(pid) + sum(cpu_seconds(child) for child in descendants(pid))


def _cmdline(pid: int) -> str:
    try:
        return open(f"/proc/{pid}/cmdline").read()
    except OSError:
        return ""


def fresh_database(server_url: str) -> str:
    """A new, empty database on the PostgreSQL server at ``server_url``; its URL."""
    import psycopg

    name = f"tt_bench_{os.getpid()}_{int(time.time())}"
    plain = server_url.replace("postgresql+psycopg://", "postgresql://").rstrip("/")
    with psycopg.connect(plain + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url.rstrip('/')}/{name}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ws_base(bases: list[str], table_id: str) -> str:
    """Where a table's websockets go: with several bases, one chosen by the table's id."""
    return bases[zlib.crc32(table_id.encode()) % len(bases)]


async def open_tables(bases: list[str], args: argparse.Namespace) -> list[TableLoad]:
    limits = httpx.Limits(max_connections=20)
    clients = [httpx.AsyncClient(base_url=base, timeout=60, limits=limits) for base in bases]
    try:
        gate = asyncio.Semaphore(20)

        async def one(index: int) -> TableLoad:
            http = clients[index % len(clients)]
            async with gate:
                r = await http.post(
                    "/api/tables",
                    json={
                        "game": "thirty-two",
                        "players": args.seats,
                        "name": NAMES[0],
                        "options": {"counters": 100_000},
                    },
                )
                r.raise_for_status()
                table_id, tokens = r.json()["table"]["id"], [r.json()["token"]]
                for seat in range(1, args.clients):
                    r = await http.post(
                        f"/api/tables/{table_id}/seats/{seat}", json={"name": NAMES[seat]}
                    )
                    r.raise_for_status()
                    tokens.append(r.json()["token"])
                head = {"X-Seat-Token": tokens[0]}
                for seat in range(args.clients, args.seats):
                    r = await http.post(
                        f"/api/tables/{table_id}/seats/{seat}/bot",
                        json={"bot": args.bot},
                        headers=head,
                    )
                    r.raise_for_status()
                r = await http.post(f"/api/tables/{table_id}/start", headers=head)
                r.raise_for_status()
                address = f"127.1.{index // 250}.{index % 250 + 1}"
                return TableLoad(table_id, tokens, args.clients, address=address)

        return list(await asyncio.gather(*(one(i) for i in range(args.tables))))
    finally:
        for http in clients:
            await http.aclose()


async def person(
    base: str,
    table: TableLoad,
    seat: int,
    stats: Stats,
    rng: random.Random,
    args: argparse.Namespace,
    ready: asyncio.Semaphore,
    stop: asyncio.Event,
) -> None:
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table.table_id}"
    async with ready:
        ws: ClientConnection = await connect(
            url, open_timeout=60, max_size=2**22, local_addr=(table.address, 0)
        )
    await ws.send(json.dumps({"type": "hello", "token": table.tokens[seat]}))
    act_task: asyncio.Task[None] | None = None

    async def play(version: int, legal: list[dict[str, Any]]) -> None:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * args.think)
        if stop.is_set():
            return
        table.pending[version] = (time.perf_counter(), table.clients)
        stats.sent += 1
        await ws.send(
            json.dumps({"type": "action", "version": version, "action": rng.choice(expand(legal))})
        )

    try:
        async for text in ws:
            now = time.perf_counter()
            message = orjson.loads(text)
            kind = message.get("type")
            if kind == "error":
                if stats.measuring:
                    stats.errors.append(f"{message['code']}: {message['message']}")
                continue
            if kind not in ("state", "update"):
                continue
            version = message["version"]
            if seat == 0:
                if table.first_version is None and stats.measuring:
                    table.first_version = version
                table.last_version = max(table.last_version, version)
            sent = table.pending.get(version - 1)
            if sent is not None and kind == "update":
                left = sent[1] - 1
                if left == 0:
                    del table.pending[version - 1]
                    if stats.measuring:
                        stats.latencies.append(now - sent[0])
                else:
                    table.pending[version - 1] = (sent[0], left)
            idle = act_task is None or act_task.done()
            if message.get("legal") and not stop.is_set() and idle:
                act_task = asyncio.get_running_loop().create_task(play(version, message["legal"]))
            if stop.is_set():
                break
    except ConnectionClosed as exc:
        if not stop.is_set():
            stats.errors.append(f"connection closed: {exc}")
    finally:
        if act_task is not None:
            act_task.cancel()
        await ws.close()


def start_servers(
    args: argparse.Namespace, data: str
) -> tuple[list[str], list[subprocess.Popen[bytes]]]:
    """The room: one ``serve`` (maybe of ``--workers`` processes), or with ``--route hash``
    one ``serve`` per process, each on its own port; their base URLs and them."""
    db = fresh_database(args.db) if args.db else None
    alone = args.route == "hash"
    count = args.workers if alone else 1
    ports = [free_port() for _ in range(count)]
    servers: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            servers.append(start_server(args, data, port, db, alone=alone))
    except BaseException:
        for server in servers:
            server.kill()
        raise
    return [f"http://127.0.0.1:{port}" for port in ports], servers


def start_server(
    args: argparse.Namespace,
    data: str,
    port: int,
    db: str | None,
    *,
    alone: bool = False,
    rate_limits: bool = False,
) -> subprocess.Popen[bytes]:
    """``tripletopper serve`` in its own process (``alone``: one process, even with
    ``--workers``); without rate limits by default (one client address opens every table
    of a load test)."""
    command = [
        sys.executable,
        "-m",
        "tripletopper",
        "serve",
        "--port",
        str(port),
        "--data-dir",
        data,
        "--bot-delay",
        str(args.bot_delay),
        "--log-level",
        "warning",
        "--rate-limits" if rate_limits else "--no-rate-limits",
    ]
    if db:
        command += ["--db", db]
    if args.redis:
        command += ["--redis", args.redis]
    if args.workers > 1 and not alone:
        command += ["--workers", str(args.workers)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL)
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("the server did not start")


async def run(args: argparse.Namespace) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    data = tempfile.mkdtemp(prefix="tt-bench-")
    bases, servers = start_servers(args, data)
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed)
    try:
        started = time.perf_counter()
        tables = await open_tables(bases, args)
        print(f"opened {len(tables)} tables in {time.perf_counter() - started:.1f} s", flush=True)
        # the measuring client should not pause for long garbage collections either
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 100)
        ready = asyncio.Semaphore(50)
        tasks = [
            asyncio.get_running_loop().create_task(
                person(
                    ws_base(bases, table.table_id),
                    table,
                    seat,
                    stats,
                    random.Random(rng.random()),
                    args,
                    ready,
                    stop,
                )
            )
            for table in tables
            for seat in range(args.clients)
        ]
        await asyncio.sleep(args.warmup)
        print(f"{len(tasks)} clients connected; measuring for {args.seconds:g} s", flush=True)
        stats.measuring = True
        measure_start = time.perf_counter()
        pids = room_pids(servers, args.workers)
        cpu_before = (sum(cpu_seconds(pid) for pid in pids), time.process_time())
        trees_before = sum(tree_cpu(server.pid) for server in servers)
        watched_before = [tree_cpu(pid) for pid in args.watch]
        sent_before = stats.sent
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        elapsed = time.perf_counter() - measure_start
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before[0]
        # bot workers (and the fork server they come from, uvicorn's supervisor): the
        # rest of each server's process tree (a worker replaced meanwhile is missed)
        helpers_cpu = sum(tree_cpu(server.pid) for server in servers) - trees_before - server_cpu
        watched = [tree_cpu(p) - b for p, b in zip(args.watch, watched_before, strict=True)]
        client_cpu = time.process_time() - cpu_before[1]
        sent = stats.sent - sent_before
        stop.set()
        applied = sum(t.last_version - (t.first_version or t.last_version) for t in tables)
        await asyncio.wait(tasks, timeout=10)
        for task in tasks:
            task.cancel()
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(data, ignore_errors=True)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores; server ({args.workers} "
        f"process(es){', routed by table' if args.route == 'hash' else ''}, "
        f"{'PostgreSQL' if args.db else 'SQLite'}"
        f"{', Redis' if args.redis else ''}) and clients on 127.0.0.1"
    )
    print(
        f"tables {args.tables} x {args.seats} seats: {args.clients} websocket people and "
        f"{args.seats - args.clients} {args.bot} bots each ({args.tables * args.clients} "
        f"connections); think {args.think:g} s, bot delay {args.bot_delay:g} s"
    )
    print(f"actions applied      {applied / elapsed:10,.0f} /s  (people and bots)")
    per_action = server_cpu / max(1, applied) * 1000
    load = os.getloadavg()[0]
    print(
        f"server CPU {server_cpu / elapsed:.0%} of a core, {per_action:.2f} ms per action; "
        f"client CPU {client_cpu / elapsed:.0%}; load average {load:.1f}"
    )
    print(
        f"bot workers CPU {helpers_cpu / elapsed:.0%} of a core, "
        f"{helpers_cpu / max(1, applied) * 1000:.2f} ms per action (every action, people's "
        f"too); room and bots {(server_cpu + helpers_cpu) / max(1, applied) * 1000:.2f} ms"
    )
    print(f"actions sent by people {sent / elapsed:8,.0f} /s")
    for pid, cpu in zip(args.watch, watched, strict=True):
        print(
            f"process {pid} ({_cmdline(pid).split(chr(0))[0]}) and its children: "
            f"{cpu / elapsed:.0%} of a core, {cpu / max(1, applied) * 1000:.3f} ms per action"
        )
    worst = lat[-1] * 1000 if lat else float("nan")
    print(
        f"latency to every seat: p50 {pct(0.50):.1f} ms  p99 {pct(0.99):.1f} ms  "
        f"max {worst:.1f} ms  ({len(lat)} actions)"
    )
    if lat:
        print(f"mean {statistics.fmean(lat) * 1000:.1f} ms")
    print(f"errors {len(stats.errors)}")
    for error in sorted(set(stats.errors))[:10]:
        print("  ", error)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--clients", type=int, default=2, help="people (websockets) per table")
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--think", type=float, default=1.0, help="mean thinking time, seconds")
    parser.add_argument("--bot-delay", type=float, default=0.6)
    parser.add_argument("--seconds", type=float, default=60.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--db", default=None, help="a PostgreSQL server URL (default: SQLite in a temp dir)"
    )
    parser.add_argument("--workers", type=int, default=1, help="room processes (needs --redis)")
    parser.add_argument("--redis", default=None, help="Redis URL of a room on several processes")
    parser.add_argument(
        "--route",
        choices=["shared", "hash"],
        default="shared",
        help="several processes: share one port (shared), or each its own port with every "
        "websocket of a table sent to one of them by the table's id (hash)",
    )
    parser.add_argument(
        "--watch",
        type=int,
        action="append",
        default=[],
        metavar="PID",
        help="also report the CPU of this process and its children (PostgreSQL, Redis)",
    )
    args = parser.parse_args()
    if args.workers > 1 and not (args.redis and args.db):
        parser.error("--workers needs --redis and --db postgresql+psycopg://...")
    if not 1 <= args.clients <= args.seats:
        parser.error("--clients must be from 1 to --seats")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
