"""Never lose a game: a server killed mid-game (kill -9 or a normal stop) comes back
with every table rebuilt by replay, and the same clients reconnect and play on."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time

from tests.server.helpers import (
    free_port,
    live_server,
    open_table,
    play_randomly,
    start_server,
)
from tripletopper.server.client import TableClient


async def until_a_person_must_act(clients: list[TableClient]) -> None:
    ends = time.monotonic() + 30
    while not any(c.legal for c in clients):
        assert not any(c.finished for c in clients), "the game ended too soon for this test"
        assert time.monotonic() < ends
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.2)  # nothing else is moving: bots wait for the person


def test_kill_9_mid_game_then_the_same_clients_play_on(tmp_path):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(str(tmp_path), port)
    try:
        table_id, tokens = open_table(base, players=4, humans=2, options={"counters": 30})
        rng = random.Random(5)

        async def scenario() -> None:
            nonlocal server
            clients = [TableClient(base, table_id, token) for token in tokens]
            for client in clients:
                await client.start()
            await play_randomly(clients, rng, until_version=12)
            await until_a_person_must_act(clients)
            before = [(c.version, c.observation, c.legal) for c in clients]
            assert not any(c.finished for c in clients)
            os.kill(server.pid, signal.SIGKILL)
            server.wait()
            await asyncio.sleep(0.3)
            server = start_server(str(tmp_path), port)
            for client, (version, _obs, _legal) in zip(clients, before, strict=True):
                await client.wait(lambda c: c.connections == 2, timeout=30)
                await client.wait(lambda c, v=version: c.version >= v, timeout=30)
            after = [(c.version, c.observation, c.legal) for c in clients]
            assert after == before  # the very same state, as each seat sees it
            await play_randomly(clients, rng)
            assert all(c.finished for c in clients)
            for client in clients:
                await client.close()

        asyncio.run(scenario())
    finally:
        server.kill()
        server.wait()


def test_a_stopped_server_restores_unfinished_games_and_bots_resume(tmp_path):
    port = free_port()
    with live_server(str(tmp_path), port=port) as base:
        table_id, tokens = open_table(base, players=3, humans=1, options={"counters": 20})
        rng = random.Random(9)

        async def first() -> tuple[int, dict]:
            async with TableClient(base, table_id, tokens[0], reconnect=False) as client:
                await play_randomly([client], rng, until_version=6)
                await until_a_person_must_act([client])
                return client.version, client.observation

        version, observation = asyncio.run(first())
    with live_server(str(tmp_path), port=port) as base:

        async def second() -> None:
            async with TableClient(base, table_id, tokens[0]) as client:
                assert (client.version, client.observation) == (version, observation)
                await play_randomly([client], rng)
                assert client.finished

        asyncio.run(second())
