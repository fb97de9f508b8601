"""Card room under hostile load: how a normal player and a bot fare while others abuse it.

Each scenario starts ``tripletopper serve`` afresh in its own process (SQLite in a temp
dir, 127.0.0.1, a free port: the pieces of ``server_load.py``) and measures for
``--seconds``, in this process:

- a normal player's ping round trip (p50, p99) and action latency (action sent -> its own
  update) at a table of three people who each play as soon as they may;
- the delay of a ``medium`` bot at another table: from the update that makes it the bot's
  turn to the update of its move, minus the configured ``--bot-delay``;
- the server's memory growth: its RSS (from /proc, with any child processes) before and
  after the scenario;

while another process makes the trouble:

- ``quiet``: nothing (the baseline);
- ``sync-flood``: one seated client sends ``sync`` at the documented allowed rate (50 a
  second) at an 8-player Memo Match (a 14 kB state) and never reads its messages (it
  reconnects when dropped);
- ``create-burst``: 300 table creations arrive at once (each takes a seat);
- ``expert-bots``: two tables of three ``expert`` bots and one instant player think
  continuously.

Each scenario runs ``--repeat`` times; printed: median and spread [min-max] over the
repeats, each target beside its figure.  Nothing is asserted: this script measures.
Only 127.0.0.1 is used, and every loop ends by itself.

    python benchmarks/hostile.py [--seconds 15] [--repeat 3] [--quick] [--only sync-flood]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import platform
import queue
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from server_load import NAMES, cpu_seconds, free_port, start_server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SCENARIOS = ("quiet", "sync-flood", "create-burst", "expert-bots")
FLOOD_RATE = 50.0
"""Messages a second a client may send (docs/protocol.md)."""
BURST = 300
PING_TARGET_MS = 50.0
BOT_TARGET_MS = 100.0
MEMORY_TARGET_MB = 50.0


# --- the room --------------------------------------------------------------------------------
def rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (a bot process pool), in MB."""
    total = 0.0
    pids, seen = [pid], set()
    while pids:
        current = pids.pop()
        if current in seen:
            continue
        seen.add(current)
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
            for task in Path(f"/proc/{current}/task").iterdir():
                pids.extend(int(c) for c in (task / "children").read_text().split())
    return total


def open_table(
    http: httpx.Client,
    players: int,
    people: int,
    bot: str,
    options: dict[str, Any],
    game: str = "thirty-two",
) -> tuple[str, list[str]]:
    """A started table: people in seats 0.. (their tokens), ``bot`` in the others."""
    r = http.post(
        "/api/tables",
        json={"game": game, "players": players, "options": options, "name": NAMES[0]},
    )
    r.raise_for_status()
    table_id, tokens = r.json()["table"]["id"], [r.json()["token"]]
    for seat in range(1, people):
        r = http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": NAMES[seat]})
        r.raise_for_status()
        tokens.append(r.json()["token"])
    head = {"X-Seat-Token": tokens[0]}
    for seat in range(people, players):
        r = http.post(f"/api/tables/{table_id}/seats/{seat}/bot", json={"bot": bot}, headers=head)
        r.raise_for_status()
    http.post(f"/api/tables/{table_id}/start", headers=head).raise_for_status()
    return table_id, tokens


@dataclass
class Setup:
    """The tables of one scenario (made before the measuring starts)."""

    base: str
    player: tuple[str, list[str]]
    bot: tuple[str, list[str]]
    trouble: list[tuple[str, list[str]]] = field(default_factory=list)


def prepare(base: str, scenario: str) -> Setup:
    long = {"counters": 100_000}  # no game ends during a run
    with httpx.Client(base_url=base, timeout=60) as http:
        setup = Setup(
            base,
            player=open_table(http, 3, 3, "medium", long),
            bot=open_table(http, 3, 1, "medium", long),
        )
        if scenario == "sync-flood":  # the biggest state: 8 players' Memo Match layout
            memo = {"spot_seconds": 3600}
            setup.trouble.append(open_table(http, 8, 1, "medium", memo, game="memo-match"))
        elif scenario == "expert-bots":
            setup.trouble += [open_table(http, 4, 1, "expert", long) for _ in range(2)]
    return setup


def ws_url(base: str, table_id: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"


def random_move(message: dict[str, Any], rng: random.Random) -> str:
    """One of the legal actions of a ``state``/``update``, for the version it shows."""
    action = rng.choice(message["legal"])["action"]
    return json.dumps({"type": "action", "version": message["version"], "action": action})


async def hello(url: str, token: str | None) -> ClientConnection:
    ws = await connect(url, open_timeout=30, max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    return ws


# --- what a normal player and a medium bot see -------------------------------------------------
@dataclass
class Figures:
    pings: list[float] = field(default_factory=list)
    actions: list[float] = field(default_factory=list)
    bot_over: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


async def play_seat(
    ws: ClientConnection,
    figures: Figures,
    rng: random.Random,
    think: float,
    until: float,
    pinging: bool,
) -> None:
    """One seat of the player table: act whenever allowed (action latency), maybe ping too."""
    pending: dict[int, float] = {}
    sent_pings: dict[str, float] = {}
    acting: asyncio.Task[None] | None = None

    async def act(message: dict[str, Any]) -> None:
        await asyncio.sleep(think)
        pending[message["version"] + 1] = time.perf_counter()
        await ws.send(random_move(message, rng))

    async def ping() -> None:
        for n in itertools.count():
            await asyncio.sleep(0.05)
            sent_pings[str(n)] = time.perf_counter()
            await ws.send(json.dumps({"type": "ping", "ref": str(n)}))

    pinger = asyncio.create_task(ping()) if pinging else None
    try:
        while time.perf_counter() < until:
            try:
                text = await asyncio.wait_for(ws.recv(), until - time.perf_counter())
            except TimeoutError:
                break
            now = time.perf_counter()
            message = json.loads(text)
            kind = message.get("type")
            if kind == "pong" and message.get("ref") in sent_pings:
                figures.pings.append(now - sent_pings.pop(message["ref"]))
            elif kind == "error":
                figures.errors[message["code"]] += 1
                pending.clear()
            elif kind in ("state", "update"):
                sent = pending.pop(message["version"], None)
                if sent is not None:
                    figures.actions.append(now - sent)
                if message["legal"] and (acting is None or acting.done()):
                    acting = asyncio.create_task(act(message))
    finally:
        for task in (pinger, acting):
            if task is not None:
                task.cancel()
        await ws.close()


async def watch_bots(
    ws: ClientConnection, figures: Figures, rng: random.Random, bot_delay: float, until: float
) -> None:
    """Seat 0 of the bot table: plays at once; times each bot turn (when it alone may act)."""
    turn: tuple[int, int, float] | None = None  # version, bot seat, since
    try:
        while time.perf_counter() < until:
            try:
                text = await asyncio.wait_for(ws.recv(), until - time.perf_counter())
            except TimeoutError:
                break
            now = time.perf_counter()
            message = json.loads(text)
            if message.get("type") not in ("state", "update"):
                continue
            version, to_act = message["version"], message["to_act"]
            if turn is not None and message.get("actor") == turn[1] and version == turn[0] + 1:
                figures.bot_over.append(now - turn[2] - bot_delay)
            alone = to_act[0] if len(to_act) == 1 else 0  # several seats: a race, not timed
            turn = (version, alone, now) if alone != 0 else None
            if message["legal"]:
                await asyncio.sleep(0.05)
                await ws.send(random_move(message, rng))
    finally:
        await ws.close()


async def measure(setup: Setup, args: argparse.Namespace, until: float) -> Figures:
    figures = Figures()
    rng = random.Random(args.seed)
    player_id, tokens = setup.player
    seats = [await hello(ws_url(setup.base, player_id), token) for token in tokens]
    bot_id, bot_tokens = setup.bot
    watcher = await hello(ws_url(setup.base, bot_id), bot_tokens[0])
    await asyncio.gather(
        *(
            play_seat(ws, figures, rng, args.think, until, pinging=i == 0)
            for i, ws in enumerate(seats)
        ),
        watch_bots(watcher, figures, rng, args.bot_delay, until),
    )
    return figures


# --- the trouble (in its own process) ------------------------------------------------------
async def sync_flood(setup: Setup, until: float) -> str:
    """Send ``sync`` at the allowed rate and never read; reconnect when dropped."""
    table_id, tokens = setup.trouble[0]
    sent = connections = 0
    while time.perf_counter() < until:
        ws = await hello(ws_url(setup.base, table_id), tokens[0])
        connections += 1
        try:
            while time.perf_counter() < until:
                await ws.send('{"type": "sync"}')
                sent += 1
                await asyncio.sleep(1 / FLOOD_RATE)
        except ConnectionClosed:
            pass
        finally:
            ws.transport.abort()  # no closing handshake: it would wait behind the unread data
    return f"{sent} syncs sent over {connections} connection(s)"


async def create_burst(setup: Setup, until: float) -> str:
    """``BURST`` table creations at once, each taking a seat."""
    limits = httpx.Limits(max_connections=BURST)
    async with httpx.AsyncClient(base_url=setup.base, timeout=60, limits=limits) as http:
        started = time.perf_counter()

        async def one() -> str:
            try:
                r = await http.post(
                    "/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"}
                )
            except httpx.HTTPError as exc:
                return type(exc).__name__
            return str(r.status_code)

        answers = Counter(await asyncio.gather(*(one() for _ in range(BURST))))
        took = time.perf_counter() - started
    await asyncio.sleep(max(0.0, until - time.perf_counter()))
    return f"{BURST} creations answered in {took:.1f} s: {dict(answers)}"


async def expert_bots(setup: Setup, until: float) -> str:
    """The one person at each expert table plays at once, so the experts never wait."""
    moves = Counter[str]()

    async def person(table_id: str, token: str) -> None:
        ws = await hello(ws_url(setup.base, table_id), token)
        rng = random.Random(table_id)
        try:
            while time.perf_counter() < until:
                try:
                    text = await asyncio.wait_for(ws.recv(), until - time.perf_counter())
                except TimeoutError:
                    break
                message = json.loads(text)
                if message.get("type") == "update" and message.get("actor") not in (None, 0):
                    moves["expert moves"] += 1
                if message.get("type") in ("state", "update") and message["legal"]:
                    await ws.send(random_move(message, rng))
        finally:
            await ws.close()

    await asyncio.gather(*(person(table_id, tokens[0]) for table_id, tokens in setup.trouble))
    return f"{moves['expert moves']} expert moves at {len(setup.trouble)} tables"


TROUBLE = {"sync-flood": sync_flood, "create-burst": create_burst, "expert-bots": expert_bots}


def make_trouble(scenario: str, setup: Setup, seconds: float, report: Any) -> None:
    """The load process: its own event loop, so the measuring one stays undisturbed."""
    until = time.perf_counter() + seconds
    report.put(asyncio.run(TROUBLE[scenario](setup, until)))


# --- one run, many runs ----------------------------------------------------------------------
def pct(values: list[float], p: float) -> float:
    """The p-quantile (nearest rank) in ms; NaN without values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))] * 1000


def run_once(scenario: str, args: argparse.Namespace) -> tuple[dict[str, float], str]:
    data = tempfile.mkdtemp(prefix="tt-hostile-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(args, data, port, None, rate_limits=True)  # as it would face strangers
    try:
        setup = prepare(base, scenario)
        time.sleep(0.5)  # the room settles (bots' first moves)
        rss_before, cpu_before = rss_mb(server.pid), cpu_seconds(server.pid)
        context = multiprocessing.get_context("spawn")
        report = context.Queue()
        trouble = None
        if scenario in TROUBLE:
            trouble = context.Process(
                target=make_trouble, args=(scenario, setup, args.seconds, report), daemon=True
            )
            trouble.start()
        figures = asyncio.run(measure(setup, args, time.perf_counter() + args.seconds))
        note = "nothing else"
        if trouble is not None:
            try:
                note = report.get(timeout=60)
            except queue.Empty:
                note = "the trouble did not report"
            trouble.join(timeout=10)
            if trouble.is_alive():
                trouble.kill()
        rss_after, cpu_after = rss_mb(server.pid), cpu_seconds(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        shutil.rmtree(data, ignore_errors=True)
    if figures.errors:
        note += f"; the player's errors: {dict(figures.errors)}"
    return {
        "ping p50": pct(figures.pings, 0.50),
        "ping p99": pct(figures.pings, 0.99),
        "action p50": pct(figures.actions, 0.50),
        "action p99": pct(figures.actions, 0.99),
        "bot over delay p50": pct(figures.bot_over, 0.50),
        "bot over delay p99": pct(figures.bot_over, 0.99),
        "RSS growth MB": rss_after - rss_before,
        "RSS after MB": rss_after,
        "server CPU %": (cpu_after - cpu_before) / args.seconds * 100,
        "fewest samples": min(len(figures.pings), len(figures.actions), len(figures.bot_over)),
    }, note


TARGETS = {
    "ping p99": PING_TARGET_MS,
    "bot over delay p99": BOT_TARGET_MS,
    "RSS growth MB": MEMORY_TARGET_MB,
}


def summary(values: list[float]) -> str:
    """Median [min-max] of the repeats."""
    med = statistics.median(values)
    if len(values) == 1:
        return f"{med:.1f}"
    return f"{med:.1f} [{min(values):.1f}-{max(values):.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15.0, help="measured time per scenario")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="6 s per scenario, once")
    parser.add_argument("--only", choices=SCENARIOS, action="append", help="(repeatable)")
    parser.add_argument("--bot-delay", type=float, default=0.3)
    parser.add_argument("--think", type=float, default=0.1, help="the player's pause, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.set_defaults(redis=None, workers=1)  # the room as one process (server_load's options)
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.repeat = 6.0, 1
    scenarios = args.only or list(SCENARIOS)
    print(
        f"Python {platform.python_version()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f}; server, player and trouble in three processes on "
        f"127.0.0.1; {args.seconds:g} s per scenario, {args.repeat} run(s) each "
        f"(median [min-max]); bot delay {args.bot_delay:g} s",
        flush=True,
    )
    results: dict[str, list[dict[str, float]]] = {}
    for scenario in scenarios:
        results[scenario] = []
        for _ in range(args.repeat):
            figures, note = run_once(scenario, args)
            results[scenario].append(figures)
            print(f"  {scenario}: {note}", flush=True)
    names = list(results[scenarios[0]][0])
    print()
    print(f"{'':28}" + "".join(f"{s:>24}" for s in scenarios))
    for name in names:
        target = TARGETS.get(name)
        label = name + (f" (< {target:g})" if target else "")
        cells = []
        for scenario in scenarios:
            values = [run[name] for run in results[scenario]]
            cell = summary(values)
            if target is not None:
                cell += " ok" if statistics.median(values) < target else " MISSED"
            cells.append(f"{cell:>24}")
        print(f"{label:28}" + "".join(cells))
    print("(ms unless stated; 'bot over delay' is a medium bot's move time minus the bot delay)")


if __name__ == "__main__":
    main()
