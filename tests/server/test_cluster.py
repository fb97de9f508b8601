"""The room on two processes (real servers on a throwaway PostgreSQL and Redis): people
at one table connected to different processes play together, and when the process
running the table is killed, the other takes it over and the game goes on."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.helpers import free_port, open_table, play_randomly, start_server
from tests.server.test_hostile import hello, people_table, refusal, until
from tests.server.test_play import allowed_cards, cards_in
from tests.server.test_restart import until_a_person_must_act
from tests.server.test_seats import room
from tripletopper.record import Record
from tripletopper.server import leases, storage
from tripletopper.server.client import TableClient, expand
from tripletopper.server.storage import ActionRow, Database
from tripletopper.server.tables import ClientError, Settings


@pytest.fixture
def two_processes(
    tmp_path, postgres_url, redis_server
) -> Iterator[tuple[list[str], list[subprocess.Popen[bytes]]]]:
    """Two room processes sharing one database and one Redis: their base URLs and them."""
    ports = [free_port(), free_port()]
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for port in ports:
            processes.append(
                start_server(
                    str(tmp_path),
                    port,
                    *("--db", postgres_url, "--redis", redis_server, "--redis-prefix", "tt:"),
                )
            )
        yield [f"http://127.0.0.1:{port}" for port in ports], processes
    finally:
        for process in processes:
            process.kill()
            process.wait()


def room_processes(pid: int) -> list[int]:
    """The processes uvicorn's supervisor ``pid`` runs the room in (not its helpers)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return [
        int(c)
        for c in children
        if b"resource_tracker" not in Path(f"/proc/{c}/cmdline").read_bytes()
    ]


def stored(db_url: str, table_id: str) -> tuple[Record, str | None]:
    """The table's stored game, and the process that holds its lease."""
    db = Database(db_url)
    row = db.run_now(lambda conn: storage.load_table(conn, table_id))
    owner = db.run_now(lambda conn: leases.owner_of(conn, table_id))
    db.stop()
    assert row is not None
    record = Record(
        game=row.game,
        players=row.players,
        options=row.options,
        seed=row.seed,
        actions=[(a.seat, a.action) for a in row.actions],
    )
    return record, owner


def table_across(
    bases: list[str], options: dict[str, int], turn_clock: float | None = None
) -> tuple[str, list[str]]:
    """Ann opens a 4-seat table on the first process; Bob sits down, adds two bots and
    starts it on the second (each request forwarded to the table's owner)."""
    with (
        httpx.Client(base_url=bases[0], timeout=30) as one,
        httpx.Client(base_url=bases[1], timeout=30) as two,
    ):
        r = one.post(
            "/api/tables",
            json={
                "game": "thirty-two",
                "players": 4,
                "options": options,
                "name": "Ann",
                "turn_clock": turn_clock,
            },
        )
        r.raise_for_status()
        table_id, tokens = r.json()["table"]["id"], [r.json()["token"]]
        r = two.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bob"})
        r.raise_for_status()
        tokens.append(r.json()["token"])
        assert [s["name"] for s in r.json()["table"]["seats"]] == ["Ann", "Bob", None, None]
        head = {"X-Seat-Token": tokens[1]}
        for seat in (2, 3):
            r = two.post(
                f"/api/tables/{table_id}/seats/{seat}/bot", json={"bot": "heuristic"}, headers=head
            )
            r.raise_for_status()
        r = two.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "heuristic"}, headers=head)
        assert r.status_code == 400 and r.json()["code"] == "seat_taken"  # the owner's refusal
        r = two.post(f"/api/tables/{table_id}/start", headers=head)
        r.raise_for_status()
        assert r.json()["table"]["status"] == "playing"
    return table_id, tokens


def updates_of(client: TableClient) -> list[int]:
    return [m["version"] for m in client.messages if m.get("type") == "update"]


def test_two_people_on_two_processes_play_a_whole_game(two_processes, postgres_url):
    bases, processes = two_processes
    table_id, tokens = table_across(bases, {"counters": 4})

    async def game() -> list[TableClient]:
        clients = [
            TableClient(base, table_id, token, record=True)
            for base, token in zip(bases, tokens, strict=True)
        ]
        spectator = TableClient(bases[1], table_id, record=True)
        for client in [*clients, spectator]:
            await client.start()
        bob = clients[1]  # a bad action, forwarded: the owner's refusal, and nothing changes
        await bob.send({"type": "action", "action": {"nonsense": 1}, "version": bob.version})
        await bob.wait(lambda c: bool(c.errors))
        assert bob.errors.pop()["code"] == "malformed"  # (bots may move meanwhile)
        await play_randomly(clients, random.Random(3))
        await spectator.wait(lambda c: c.finished)
        await clients[0].say("well played")
        await clients[1].wait(lambda c: any(line["text"] == "well played" for line in c.chat))
        for client in [*clients, spectator]:
            await client.close()
        return [*clients, spectator]

    ann, bob, spectator = asyncio.run(game())
    record, owner = stored(postgres_url, table_id)
    assert owner is not None and f"-{processes[0].pid}-" in owner  # the second forwarded
    final = record.replay()
    assert final.is_terminal()
    last = final.version
    for client in (ann, bob, spectator):
        assert client.finished and client.version == last
        assert client.results == final.results().to_json()
        seen = updates_of(client)  # every action reached every client, once, in order
        assert seen == sorted(set(seen)) and seen[-1] == last
        states = [m["version"] for m in client.messages if m.get("type") == "state"]
        assert set(range(min(states), last + 1)) <= set(seen) | set(states)
    for client, seat in ((ann, 0), (bob, 1), (spectator, None)):  # each as its seat sees
        allowed = allowed_cards(record, seat)
        for message in client.messages:
            version = message.get("version")
            if version is None:
                assert not cards_in(message), message
            else:
                leaked = cards_in(message) - allowed[version]
                assert not leaked, f"seat {seat} got {leaked} at version {version}"
        assert client.observation == (
            final.public_observation() if seat is None else final.observation(seat)
        )


def test_kill_9_of_the_owner_the_other_process_takes_the_table_and_the_game_goes_on(
    two_processes, postgres_url
):
    """Ann plays on the owner, Bob on the other process.  The owner is killed while a
    person must act: within 10 s the other process runs the table (the turn clock
    plays for the person who waits, then the bots move), Ann reconnects there, and the
    two finish the game; nothing any client saw is lost."""
    bases, processes = two_processes
    table_id, tokens = table_across(bases, {"counters": 30}, turn_clock=3)
    rng = random.Random(11)

    async def scenario() -> tuple[int, TableClient, TableClient]:
        ann = TableClient(bases[0], table_id, tokens[0], reconnect=False)
        bob = TableClient(bases[1], table_id, tokens[1], record=True)
        for client in (ann, bob):
            await client.start()
        await play_randomly([ann, bob], rng, until_version=8)
        await until_a_person_must_act([ann, bob])
        seen = max(ann.version, bob.version)
        os.kill(processes[0].pid, signal.SIGKILL)
        killed = time.monotonic()
        await ann.close()
        mark = len(bob.messages)
        # The clock plays for whoever waits, once the table runs again: within 10 s.
        await bob.wait(lambda c: any(m.get("by_clock") for m in c.messages[mark:]), timeout=10)
        assert time.monotonic() - killed < 10
        after = [m for m in bob.messages[mark:] if m.get("type") == "update"]
        assert after[0]["version"] == seen + 1  # resumed where every client was
        ann = TableClient(bases[1], table_id, tokens[0], record=True)
        await ann.start()
        assert ann.version >= seen
        await play_randomly([ann, bob], rng)
        actors = {m["actor"] for m in bob.messages[mark:] if m.get("type") == "update"}
        assert {2, 3} & actors  # the bots moved after the takeover
        await ann.close()
        await bob.close()
        return seen, ann, bob

    seen, ann, bob = asyncio.run(scenario())
    record, owner = stored(postgres_url, table_id)
    final = record.replay()
    assert final.is_terminal() and final.version > seen
    assert owner is None or f"-{processes[1].pid}-" in owner
    assert ann.finished and bob.finished and ann.version == bob.version == final.version
    versions = updates_of(bob)  # Bob saw every action once, in order, across the takeover
    assert versions == list(range(versions[0], final.version + 1))


def followers(redis_url: str, table_id: str) -> int:
    """How many processes follow the table's channel (hold a replica of it)."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return int(client.pubsub_numsub(f"tt:table:{table_id}")[0][1])
    finally:
        client.close()


def publishes(redis_url: str) -> int:
    """How many PUBLISH commands Redis has run so far."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return int(client.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
    finally:
        client.close()


def test_a_table_moves_to_the_process_its_people_are_connected_to(
    two_processes, postgres_url, redis_server
):
    """Opened and started (its bots moving) on the first process, the table's people all
    connect to the second: the lease is handed over at their first hello, the table runs
    there alone (no process follows its channel, and it publishes nothing), and the game
    is played to its end with nothing lost.  A table with a person on its owner stays
    there; a person joining it on the other process is followed there from then on (its
    owner publishes again) and the two finish the game."""
    bases, processes = two_processes
    table_id, tokens = open_table(bases[0], players=4, humans=2, options={"counters": 6})
    assert f"-{processes[0].pid}-" in str(stored(postgres_url, table_id)[1])

    async def game() -> tuple[list[TableClient], str]:
        clients = [TableClient(bases[1], table_id, token, record=True) for token in tokens]
        for client in clients:
            await client.start()
        _record, owner = stored(postgres_url, table_id)
        assert f"-{processes[1].pid}-" in str(owner)
        assert followers(redis_server, table_id) == 0
        published = publishes(redis_server)
        await play_randomly(clients, random.Random(5))
        assert clients[0].version >= 4 and publishes(redis_server) - published <= 1
        for client in clients:
            await client.close()
        kept_id, kept_tokens = open_table(bases[0], players=3, humans=2, options={"counters": 2})
        ann = TableClient(bases[0], kept_id, kept_tokens[0])
        bob = TableClient(bases[1], kept_id, kept_tokens[1])
        for client in (ann, bob):
            await client.start()
        assert f"-{processes[0].pid}-" in str(stored(postgres_url, kept_id)[1])
        assert followers(redis_server, kept_id) == 1  # the second process's replica
        await play_randomly([ann, bob], random.Random(6))
        await bob.wait(lambda c: c.finished)
        for client in (ann, bob):
            await client.close()
        return [*clients, bob], kept_id

    (*clients, bob), kept_id = asyncio.run(game())
    kept = stored(postgres_url, kept_id)[0].replay()
    assert kept.is_terminal() and bob.finished and bob.version == kept.version
    assert bob.observation == kept.observation(1)
    record, _owner = stored(postgres_url, table_id)
    final = record.replay()
    assert final.is_terminal()
    for seat, client in enumerate(clients):
        assert client.finished and client.version == final.version
        assert client.observation == final.observation(seat)
        seen = updates_of(client)  # every action reached it once, in order
        first = min(m["version"] for m in client.messages if m.get("type") == "state")
        assert seen == list(range(first + 1, final.version + 1))


def test_a_replica_nothing_needs_is_dropped_within_two_renewals(two_processes, redis_server):
    """A seat taken through the second process leaves a replica there (it follows the
    table's channel); with no client of it there, it is dropped within two lease renewals
    (the process spends nothing on the table), and loaded again when asked for."""
    bases, _processes = two_processes
    with httpx.Client(base_url=bases[0], timeout=30) as one:
        r = one.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"})
        r.raise_for_status()
        table_id = r.json()["table"]["id"]
    with httpx.Client(base_url=bases[1], timeout=30) as two:
        two.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bob"}).raise_for_status()
        assert followers(redis_server, table_id) == 1
        ends = time.monotonic() + leases.TTL + 2  # two renewals: every third of a lease
        while followers(redis_server, table_id) and time.monotonic() < ends:
            time.sleep(0.2)
        assert followers(redis_server, table_id) == 0
        two.post(f"/api/tables/{table_id}/seats/2", json={"name": "Cat"}).raise_for_status()
        r = two.get(f"/api/tables/{table_id}")
        assert [s["name"] for s in r.json()["table"]["seats"]] == ["Ann", "Bob", "Cat"]


def test_an_address_has_one_allowance_across_the_processes(two_processes):
    """The rate limits are the room's, not each process's: an address that asks both
    processes in turn is refused once the two together have served its allowance."""
    bases, _processes = two_processes
    most = int(Settings().rates["lobby"].split("/")[0])
    transport = [httpx.HTTPTransport(local_address="127.0.0.7") for _ in bases]
    with (
        httpx.Client(base_url=bases[0], transport=transport[0], timeout=30) as one,
        httpx.Client(base_url=bases[1], transport=transport[1], timeout=30) as two,
    ):
        codes = [(one, two)[n % 2].get("/api/tables").status_code for n in range(most + 2)]
        assert codes == [200] * most + [429, 429]
        assert two.get("/api/games").status_code == 200  # what is not limited goes on


def client_from(base: str, address: str) -> httpx.Client:
    """An HTTP client of one process of the room, from a local ``address`` of its own (the
    caps per address are shared by every test of the session's Redis)."""
    return httpx.Client(
        base_url=base, timeout=30, transport=httpx.HTTPTransport(local_address=address)
    )


def test_an_address_has_one_cap_of_open_tables_across_the_processes(two_processes):
    """Ten open tables in all, whichever process made them; a table that starts no longer
    counts, wherever it is asked for."""
    bases, _processes = two_processes
    most = Settings().open_per_address
    clients = [client_from(base, "127.0.0.9") for base in bases]
    with clients[0] as one, clients[1] as two:
        made = []
        for n in range(most):
            r = (one, two)[n % 2].post("/api/tables", json={"game": "toe", "name": "Ann"})
            assert r.status_code == 201, r.text
            made.append(r.json())
        for client in (one, two):
            r = client.post("/api/tables", json={"game": "toe", "name": "Ann"})
            assert r.status_code == 429 and r.json()["code"] == "too_many_tables"
        other = client_from(bases[1], "127.0.0.11")
        with other:  # another address is not held up
            assert other.post("/api/tables", json={"game": "toe"}).status_code == 201
        first = made[0]  # made on the first process; started through the second
        head = {"X-Seat-Token": first["token"]}
        table_id = first["table"]["id"]
        assert (
            two.post(
                f"/api/tables/{table_id}/seats/1/bot", json={"bot": "medium"}, headers=head
            ).status_code
            == 200
        )
        assert two.post(f"/api/tables/{table_id}/start", headers=head).status_code == 200
        r = two.post("/api/tables", json={"game": "toe", "name": "Ann"})
        assert r.status_code == 201, r.text
        r = one.post("/api/tables", json={"game": "toe", "name": "Ann"})
        assert r.status_code == 429 and r.json()["code"] == "too_many_tables"


def test_creations_at_the_same_instant_on_both_processes_cannot_pass_the_cap(two_processes):
    """Sixteen creations from one address sent at once to the two processes make exactly
    ten open tables: each holds its place in Redis in the step that counts them."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    bases, _processes = two_processes
    most = Settings().open_per_address
    clients = [client_from(base, "127.0.0.13") for base in bases]
    start = threading.Barrier(16)

    def create(n: int) -> int:
        start.wait()
        return clients[n % 2].post("/api/tables", json={"game": "toe", "name": "Ann"}).status_code

    with clients[0], clients[1], ThreadPoolExecutor(16) as pool:
        codes = sorted(pool.map(create, range(16)))
        assert codes == [201] * most + [429] * (16 - most), codes
        mine = [t for t in clients[0].get("/api/tables").json() if t["status"] == "open"]
        assert len(mine) == most


def test_an_address_has_one_cap_of_connections_across_the_processes(two_processes):
    """At most MAX_CONNECTIONS websockets from one address in the whole room, whichever
    processes they reach; the connections of a process that died stop counting."""
    from websockets.asyncio.client import connect

    from tripletopper.server.protocol import MAX_CONNECTIONS

    bases, processes = two_processes
    urls = [base.replace("http://", "ws://") + "/ws/lobby" for base in bases]

    async def open_one(url: str) -> tuple[Any, str]:
        ws = await connect(url, local_addr=("127.0.0.10", 0))
        first = json.loads(await ws.recv())
        return ws, first.get("code", first.get("type"))

    async def main() -> None:
        held = [await open_one(urls[n % 2]) for n in range(MAX_CONNECTIONS)]
        assert {kind for _ws, kind in held} == {"lobby"}, {kind for _ws, kind in held}
        for url in urls:
            ws, kind = await open_one(url)
            assert kind == "too_many_connections"
            await ws.close()
        await held.pop(0)[0].close()  # one on the first process ends: one more on the second
        ends = time.monotonic() + 10
        while True:
            ws, kind = await open_one(urls[1])
            if kind == "lobby":
                held.append((ws, kind))
                break
            await ws.close()
            assert time.monotonic() < ends, "the ended connection still counts"
            await asyncio.sleep(0.1)
        ws, kind = await open_one(urls[1])
        assert kind == "too_many_connections"
        await ws.close()
        # The first process dies with its half: within a lease's life they stop counting.
        os.kill(processes[0].pid, signal.SIGKILL)
        ends = time.monotonic() + 3 * leases.TTL
        admitted = 0
        while admitted < MAX_CONNECTIONS // 2 - 1:
            ws, kind = await open_one(urls[1])
            if kind == "lobby":
                admitted += 1
                held.append((ws, kind))
            else:
                await ws.close()
                assert time.monotonic() < ends, f"the dead process's still count ({admitted})"
                await asyncio.sleep(0.2)
        for ws, _kind in held:
            with contextlib.suppress(Exception):
                await ws.close()

    asyncio.run(main())


def test_serve_workers_runs_the_room_as_several_processes_on_one_port(
    tmp_path, postgres_url, redis_server
):
    """``serve --workers 2``: two room processes behind one port; connections land on
    either, and a game of two people and two bots is played to its end through it."""
    port = free_port()
    server = start_server(
        str(tmp_path), port, "--db", postgres_url, "--redis", redis_server, "--workers", "2"
    )
    try:
        assert len(room_processes(server.pid)) == 2
        base = f"http://127.0.0.1:{port}"
        table_id, tokens = open_table(base, players=4, humans=2, options={"counters": 4})

        async def game() -> list[TableClient]:
            clients = [TableClient(base, table_id, token) for token in tokens]
            for client in clients:
                await client.start()
            await play_randomly(clients, random.Random(8))
            for client in clients:
                await client.close()
            return clients

        clients = asyncio.run(game())
        record, _owner = stored(postgres_url, table_id)
        assert record.replay().is_terminal()
        assert all(c.finished and c.version == len(record.actions) for c in clients)
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_serve_refuses_several_processes_without_redis_and_postgresql(tmp_path):
    from click.testing import CliRunner

    from tripletopper.cli import cli

    runner = CliRunner()
    here = ["serve", "--port", "1", "--data-dir", str(tmp_path)]
    alone = runner.invoke(cli, [*here, "--workers", "2"])
    assert alone.exit_code == 2 and "--workers needs --redis" in alone.output
    sqlite = runner.invoke(cli, [*here, "--redis", "redis://127.0.0.1:1/0"])
    assert sqlite.exit_code == 2 and "--db postgresql" in sqlite.output
    assert not list(tmp_path.iterdir())  # refused before anything was made


def test_an_owner_that_stalls_past_its_lease_gives_the_table_up_and_follows(
    two_processes, postgres_url
):
    """The owner is stopped (SIGSTOP) until its lease expires: the other process takes
    the table and its clock plays on.  Resumed, the old owner stores nothing of its own
    (an action number is stored once), learns it lost the lease, and from then on
    follows: its client sees the same game and plays it to the end through it."""
    bases, processes = two_processes
    table_id, tokens = table_across(bases, {"counters": 30}, turn_clock=2)
    rng = random.Random(4)

    async def scenario() -> tuple[TableClient, TableClient]:
        ann = TableClient(bases[0], table_id, tokens[0], record=True)
        bob = TableClient(bases[1], table_id, tokens[1], record=True)
        for client in (ann, bob):
            await client.start()
        await play_randomly([ann, bob], rng, until_version=6)
        os.kill(processes[0].pid, signal.SIGSTOP)
        try:
            mark = len(bob.messages)
            await bob.wait(lambda c: any(m.get("by_clock") for m in c.messages[mark:]), 15)
        finally:
            os.kill(processes[0].pid, signal.SIGCONT)
        # Ann's process catches up with the new owner's game, and forwards to it.
        await ann.wait(lambda c: c.version >= bob.version, timeout=15)
        await play_randomly([ann, bob], rng)
        await ann.wait(lambda c: c.finished)
        await ann.close()
        await bob.close()
        return ann, bob

    ann, bob = asyncio.run(scenario())
    record, owner = stored(postgres_url, table_id)
    final = record.replay()
    assert final.is_terminal()
    assert owner is None or f"-{processes[1].pid}-" in owner
    assert ann.version == bob.version == final.version
    assert ann.observation == final.observation(0) and bob.observation == final.observation(1)


def test_an_owner_that_finds_its_action_number_taken_plays_on_from_the_stored_game(tmp_path):
    """An owner that stalled past its lease may find that the next action number was
    stored meanwhile by the process that took over: its own action is refused
    (``storage``, nothing of it is kept) and it takes the stored game instead."""
    with room(tmp_path) as client:
        table_id, tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        table = client.app.state.room.tables[table_id]
        table.leased = True  # as on one of several processes
        seat = table.state.to_act()[0]
        theirs, mine = expand(table.view(seat)["legal"])[:2]
        other = ActionRow(0, seat, theirs, time.time())  # stored by another process
        table.room.db.run_now(lambda conn: storage.add_action(conn, table_id, other))
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[seat])
            ws.send_json({"type": "action", "action": mine, "version": 0})
            assert refusal(ws)["code"] == "storage"
            state = until(ws, "state", skip=("table",))
            assert state["version"] == 1
        assert [table.game.action_to_wire(a) for _s, a in table.state.history] == [theirs]


def test_account_calls_reach_the_tables_owner_on_another_process(two_processes):
    """Linking a guest's seat and resuming a seat from another device, asked of the process
    that does not run the table, are done by its owner."""
    bases, _ = two_processes
    password = "correct horse"
    with (
        httpx.Client(base_url=bases[0], timeout=30) as one,
        httpx.Client(base_url=bases[1], timeout=30) as two,
    ):
        r = one.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Kim"})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        r = two.post("/api/account", json={"name": "Kimberly", "password": password})
        mine = {"X-CSRF-Token": r.json()["csrf"]}
        r = two.post(f"/api/tables/{table_id}/account", headers={**mine, "X-Seat-Token": token})
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text
        two.cookies.clear()
        r = two.post("/api/session", json={"name": "Kimberly", "password": password})
        r = two.post(f"/api/tables/{table_id}/resume", headers={"X-CSRF-Token": r.json()["csrf"]})
        assert r.status_code == 200 and r.json()["seat"] == 0, r.text
        resumed = r.json()["token"]
        for http in (one, two):  # both processes know the new token
            r = http.get(f"/api/tables/{table_id}", headers={"X-Seat-Token": resumed})
            assert r.json()["seat"] == 0

        async def password_changed_on_the_other_process() -> None:
            # the device connected to process two loses the seat when the password changes
            # there, signed in as another device (process one runs the table)
            async with (
                TableClient(bases[1], table_id, resumed) as phone,
                httpx.AsyncClient(base_url=bases[1], timeout=30) as desk,
            ):
                assert phone.seat == 0
                r = await desk.post("/api/session", json={"name": "Kimberly", "password": password})
                r = await desk.post(
                    "/api/account/password",
                    headers={"X-CSRF-Token": r.json()["csrf"]},
                    json={"password": password, "new_password": "another horse"},
                )
                assert r.status_code == 200, r.text
                await phone.wait(lambda c: c.seat is None and c.errors[-1]["code"] == "revoked")

        asyncio.run(password_changed_on_the_other_process())
        for http in (one, two):
            r = http.get(f"/api/tables/{table_id}", headers={"X-Seat-Token": resumed})
            assert r.json()["seat"] is None
            assert (
                http.get(f"/api/tables/{table_id}", headers={"X-Seat-Token": token}).json()["seat"]
                == 0
            )


def test_deleting_the_account_on_a_process_without_the_table_revokes_its_devices(
    two_processes,
):
    """Kim plays on process one (which alone holds the table) from two devices and deletes
    her account on process two: the resumed device's connection loses the seat at once."""
    bases, _ = two_processes
    password = "correct horse"
    with (
        httpx.Client(base_url=bases[0], timeout=30) as laptop,
        httpx.Client(base_url=bases[0], timeout=30) as phone,
        httpx.Client(base_url=bases[1], timeout=30) as desk,
    ):
        r = laptop.post("/api/account", json={"name": "Kim", "password": password})
        mine = {"X-CSRF-Token": r.json()["csrf"]}
        r = laptop.post(
            "/api/tables", json={"game": "thirty-two", "players": 3, "name": "x"}, headers=mine
        )
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        r = phone.post("/api/session", json={"name": "Kim", "password": password})
        r = phone.post(f"/api/tables/{table_id}/resume", headers={"X-CSRF-Token": r.json()["csrf"]})
        assert r.status_code == 200, r.text
        resumed = r.json()["token"]
        r = desk.post("/api/session", json={"name": "Kim", "password": password})
        desk_csrf = {"X-CSRF-Token": r.json()["csrf"]}

        async def scene() -> None:
            async with (
                TableClient(bases[0], table_id, token) as first,
                TableClient(bases[0], table_id, resumed) as second,
            ):
                assert first.seat == second.seat == 0
                r = await asyncio.to_thread(
                    desk.request,
                    "DELETE",
                    "/api/account",
                    json={"password": password},
                    headers=desk_csrf,
                )
                assert r.status_code == 200, r.text
                await second.wait(lambda c: c.seat is None and c.errors[-1]["code"] == "revoked")
                await first.wait(lambda c: c.table["seats"][0]["name"] == "Deleted player")
                assert first.seat == 0

        asyncio.run(scene())


def test_a_process_taking_a_table_over_applies_no_action_before_it_has_read_the_game(tmp_path):
    """A replica becomes the owner (a hand-over, a failover) while another process had
    stored an action it never heard of: an action asked for meanwhile waits until the
    stored game is read, and applies after it (not to the replica's old state, which
    would store an action number twice and lose one)."""
    with room(tmp_path) as client:
        table_id, _tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        table = client.app.state.room.tables[table_id]
        first = table.state.to_act()[0]
        theirs = expand(table.view(first)["legal"])[0]
        other = ActionRow(0, first, theirs, time.time())  # stored by the previous owner
        table.room.db.run_now(lambda conn: storage.add_action(conn, table_id, other))
        table.owner = False  # a replica that missed it

        async def act_while_taking_over() -> str:
            taking = asyncio.get_running_loop().create_task(table.become_owner())
            await asyncio.sleep(0)  # it is reading the stored game
            try:
                await table.act(first, theirs, 0)  # what the replica's state allows
            except ClientError as exc:
                return exc.code
            finally:
                await taking
            return "applied"

        assert client.portal.call(act_while_taking_over) == "stale"  # seen too late, not lost
        assert table.owner and table.version == 1
        row = table.room.db.run_now(lambda conn: storage.load_table(conn, table_id))
        assert row is not None and [a.n for a in row.actions] == [0]


def test_a_rematch_asked_on_two_processes_at_once_is_one_table(two_processes, postgres_url):
    """Ann and Bob ask for a rematch at the same moment, each through another process
    (each may load the finished game as its own): one rematch table is made, both sit
    at it, and the one made twice is expired, not offered."""
    bases, _processes = two_processes
    table_id, tokens = open_table(bases[0], players=3, humans=2, options={"counters": 2})

    async def finish_and_ask() -> list[httpx.Response]:
        clients = [TableClient(bases[0], table_id, token) for token in tokens]
        for client in clients:
            await client.start()
        await play_randomly(clients, random.Random(2))
        for client in clients:
            await client.close()
        async with (
            httpx.AsyncClient(base_url=bases[0], timeout=30) as one,
            httpx.AsyncClient(base_url=bases[1], timeout=30) as two,
        ):
            return list(
                await asyncio.gather(
                    *(
                        http.post(
                            f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": token}
                        )
                        for http, token in zip((one, two), tokens, strict=True)
                    )
                )
            )

    answers = asyncio.run(finish_and_ask())
    assert [r.status_code for r in answers] == [200, 200]
    new_ids = {r.json()["table"]["id"] for r in answers}
    assert len(new_ids) == 1
    db = Database(postgres_url)
    made = db.run_now(lambda conn: storage.list_tables(conn, ("open", "playing", "expired")))
    db.stop()
    rematches = [row for row in made if row.rematch_of == table_id]
    assert {row.id for row in rematches if row.status != "expired"} == new_ids
    (new,) = [row for row in rematches if row.id in new_ids]
    assert {new.seats[0].kind, new.seats[1].kind} == {"human"}  # both sat down


def test_a_bot_account_connected_to_one_process_is_online_and_invited_from_the_other(
    two_processes, redis_server
):
    """A bot account's ``/ws/bot`` reaches the second process; at the first, it is listed
    online, a person adds it to a table there and it hears the invitation (a seat token
    that holds its seat); connecting again at the first replaces its connection at the
    second, and revoking its token closes it."""
    from websockets.asyncio.client import connect

    from tests.server.test_bot_accounts import person

    bases, _processes = two_processes
    ann, csrf = person(bases[0], "Ann")
    ann.post("/api/bots", json={"name": "Deep Thought"}, headers=csrf).raise_for_status()
    r = ann.post("/api/bots/Deep Thought/tokens", json={}, headers=csrf)
    r.raise_for_status()
    token, token_id = r.json()["token"], r.json()["id"]

    async def scenario() -> tuple[dict, dict, dict]:
        async with connect(bases[1].replace("http", "ws") + "/ws/bot") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            welcome = json.loads(await ws.recv())
            assert ann.get("/api/bots/online").json()["bots"] == ["Deep Thought"]
            assert ann.get("/api/bots").json()["bots"][0]["online"] is True
            r = ann.post(
                "/api/tables", json={"game": "thirty-one", "players": 3, "name": "x"}, headers=csrf
            )
            table_id, mine = r.json()["table"]["id"], {**csrf, "X-Seat-Token": r.json()["token"]}
            r = ann.post(
                f"/api/tables/{table_id}/seats/1/bot",
                json={"bot": "account:deep thought"},
                headers=mine,
            )
            assert r.status_code == 200, r.text
            invite = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert invite["table"] == table_id and invite["seat"] == 1
            seat = ann.get(f"/api/tables/{table_id}", headers={"X-Seat-Token": invite["token"]})
            assert seat.json()["seat"] == 1
            async with connect(bases[0].replace("http", "ws") + "/ws/bot") as again:
                await again.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(await again.recv())["type"] == "welcome"
                replaced = json.loads(await asyncio.wait_for(ws.recv(), 10))
                assert replaced["code"] == "replaced"  # one connection per bot account
                with httpx.Client(base_url=bases[1], cookies=ann.cookies) as there:
                    gone = there.delete(f"/api/bots/Deep Thought/tokens/{token_id}", headers=csrf)
                    assert gone.status_code == 200, gone.text  # asked of the other process
                ended = json.loads(await asyncio.wait_for(again.recv(), 10))
            return welcome, invite, ended

    welcome, _invite, ended = asyncio.run(scenario())
    assert welcome == {"type": "welcome", "bot": "Deep Thought"}
    assert ended["type"] == "error" and ended["code"] == "revoked"
    ends = time.monotonic() + 5
    while ann.get("/api/bots/online").json()["bots"] and time.monotonic() < ends:
        time.sleep(0.05)
    assert ann.get("/api/bots/online").json()["bots"] == []
    import redis

    with redis.Redis.from_url(redis_server) as shared:  # the room's list of them is empty too
        assert shared.smembers("tt:bots") == set()
        shared.sadd("tt:bots", 987654)  # a bot of a process that died: its entry expired
        assert ann.get("/api/bots/online").json()["bots"] == []
        assert shared.smembers("tt:bots") == set()  # and the listing forgot it
    ann.close()


def test_a_bot_account_connected_to_the_other_process_is_offered_its_rematch(two_processes):
    """The table runs on process one; the bot account is connected to process two: it is
    offered its seat of the rematch there, accepts, and sits at the rematch."""
    from tests.server.test_bot_accounts import bot_with_token, person
    from tests.server.test_bot_rematch import ask_rematch, online, open_with_bot, play, seat_of
    from tripletopper.server.botclient import run

    bases, _processes = two_processes
    ann, csrf = person(bases[0], "Ann")
    token = bot_with_token(ann, csrf, "Deep Thought")
    said: list[str] = []

    async def main() -> str:
        bot = asyncio.create_task(run(bases[1], token, "random", say=said.append))
        try:
            await online(ann, "Deep Thought")
            first, mine = open_with_bot(ann, csrf, "Deep Thought")
            await play(bases[0], first, mine, 1)
            new = ask_rematch(ann, csrf, first, mine)
            for _ in range(400):  # the bot accepts at once: nobody waits for the timer
                if seat_of(ann, new, 1)["status"] == "playing":
                    break
                await asyncio.sleep(0.05)
            return new
        finally:
            bot.cancel()

    new = asyncio.run(main())
    assert seat_of(ann, new, 1)["status"] == "playing"
    assert seat_of(ann, new, 1)["name"] == "Deep Thought"
    assert any(line.startswith("accept the rematch") for line in said), said
    ann.close()
