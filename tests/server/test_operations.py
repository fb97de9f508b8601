"""The room as an operator runs it: health and readiness, Prometheus metrics, settings
from the environment, one Redis shared by two rooms, and what ``serve`` prints as it
starts (docs/deploy.md, "Running it")."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click
import httpx
import psycopg
import pytest
import redis
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from tests.server.helpers import free_port, open_table, start_server
from tripletopper.cli import cli
from tripletopper.server import migration
from tripletopper.server.client import TableClient
from tripletopper.server.protocol import MAX_CONNECTIONS
from tripletopper.server.redis_keys import RedisKeys, default_prefix

TOKEN = "a-metrics-token-for-the-test"


def until(check: Callable[[], bool], timeout: float = 30, what: str = "") -> None:
    ends = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < ends, f"timed out waiting for {what or check}"
        time.sleep(0.05)


def samples(base: str, **headers: str) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """``/metrics`` parsed: (sample name, labels) -> value."""
    r = httpx.get(f"{base}/metrics", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


def value(found: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str):
    return found.get((name, frozenset(labels.items())), 0.0)


@contextlib.contextmanager
def server(tmp_path: Path, *extra: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``tripletopper serve`` in its own process; yields its base URL."""
    port = free_port()
    tmp_path.mkdir(parents=True, exist_ok=True)
    saved = dict(os.environ)
    os.environ.update(env or {})
    try:
        process = start_server(str(tmp_path), port, *extra)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        process.kill()
        process.wait()


# --- health and readiness ----------------------------------------------------------------------


def test_healthz_and_readyz_answer_and_stay_out_of_the_api_schema(client):
    assert client.get("/healthz").json() == {"status": "alive"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "schema": migration.head(), "redis": None}
    paths = client.get("/openapi.json").json()["paths"]
    assert not {"/healthz", "/readyz", "/metrics"} & set(paths)


def set_revision(data_dir: Path, revision: str) -> None:
    with contextlib.closing(sqlite3.connect(data_dir / "tripletopper.sqlite3")) as db:
        db.execute("UPDATE alembic_version SET version_num = ?", (revision,))
        db.commit()


def test_readyz_is_503_with_a_reason_when_the_schema_is_not_this_rooms(client, tmp_path):
    """Another tripletopper migrated the database under the room (newer, or rolled back):
    the room says it is not ready, and why, until the schema is its own again."""
    for revision, reason in (("0099", "upgrade tripletopper"), ("0009", "tripletopper db upgrade")):
        set_revision(tmp_path, revision)
        until(lambda r=revision: r in client.get("/readyz").text, what=revision)
        body = client.get("/readyz").json()
        assert body["status"] == "unready" and reason in body["reason"], body
        assert revision in body["reason"]
    set_revision(tmp_path, migration.head())
    until(lambda: client.get("/readyz").status_code == 200)
    assert client.get("/healthz").status_code == 200  # alive all along


@pytest.mark.postgres
def test_readyz_is_503_while_the_database_refuses_connections(tmp_path, postgres_url):
    name = postgres_url.rsplit("/", 1)[1]
    admin = postgres_url.replace("postgresql+psycopg://", "postgresql://").rsplit("/", 1)[0]
    with server(tmp_path, "--db", postgres_url) as base:
        assert httpx.get(f"{base}/readyz").status_code == 200
        with psycopg.connect(admin + "/postgres", autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
            try:
                until(lambda: httpx.get(f"{base}/readyz", timeout=10).status_code == 503)
                body = httpx.get(f"{base}/readyz", timeout=10).json()
                assert body == {"status": "unready", "reason": "the database does not answer"}
                assert httpx.get(f"{base}/healthz").status_code == 200
            finally:
                conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
        until(lambda: httpx.get(f"{base}/readyz", timeout=10).status_code == 200)


def redis_at(port: int) -> subprocess.Popen[bytes]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("Redis is not installed (apt-get install redis-server)")
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    def answers() -> bool:
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        return False

    until(answers, what="redis-server")
    return process


@pytest.mark.postgres
def test_readyz_is_503_while_redis_is_down(tmp_path, postgres_url):
    port = free_port()
    own = redis_at(port)
    try:
        own_redis = f"redis://127.0.0.1:{port}/0"
        with server(tmp_path, "--db", postgres_url, "--redis", own_redis) as base:
            assert httpx.get(f"{base}/readyz").json()["redis"] == "ok"
            own.kill()
            own.wait()
            until(lambda: httpx.get(f"{base}/readyz", timeout=10).status_code == 503)
            body = httpx.get(f"{base}/readyz", timeout=10).json()
            assert body == {"status": "unready", "reason": "Redis does not answer"}
            own = redis_at(port)
            until(lambda: httpx.get(f"{base}/readyz", timeout=10).status_code == 200)
    finally:
        own.kill()
        own.wait()


# --- metrics -----------------------------------------------------------------------------------


def test_metrics_count_actions_latency_tables_connections_and_errors(tmp_path):
    """Three people at a Thirty-Two table: each action a person sends is counted once, with
    its latency; a stale one is counted as an error; the open websockets and the playing
    table are shown as they are."""
    with server(tmp_path) as base:
        before = samples(base)
        assert value(before, "tripletopper_actions_total") == 0
        table_id, tokens = open_table(base, players=3, humans=3)

        async def play() -> int:
            clients = [TableClient(base, table_id, token) for token in tokens]
            for c in clients:
                await c.start()
            try:
                acted = 0
                for _ in range(3):
                    await clients[0].wait(lambda c: any(x.legal for x in clients))
                    mover = next(c for c in clients if c.legal)
                    seen = mover.version
                    await mover.act(mover.actions[0])
                    for c in clients:
                        await c.wait(lambda c, seen=seen: c.version > seen)
                    acted += 1
                stale = clients[0]
                await stale.send({"type": "action", "action": {"type": "draw"}, "version": 0})
                await stale.wait(lambda c: bool(c.errors))
                assert stale.errors[0]["code"] == "stale"
                found = samples(base)
                assert value(found, "tripletopper_connections", kind="websocket") == 3
                assert value(found, "tripletopper_tables", state="playing") == 1
                return acted
            finally:
                for c in clients:
                    await c.close()

        acted = asyncio.run(play())
        after = samples(base)
        assert value(after, "tripletopper_actions_total") == acted == 3
        assert value(after, "tripletopper_action_seconds_count") == acted
        assert 0 < value(after, "tripletopper_action_seconds_sum") < 30
        assert value(after, "tripletopper_action_seconds_bucket", le="+Inf") == acted
        assert value(after, "tripletopper_errors_total", code="stale") == 1
        r = httpx.get(f"{base}/api/tables/nope")
        assert r.status_code == 404
        assert value(samples(base), "tripletopper_errors_total", code="no_table") == 1
        until(lambda: value(samples(base), "tripletopper_connections", kind="websocket") == 0)
        assert value(after, "tripletopper_bot_decisions", state="waiting") == 0


def test_metrics_answer_this_machine_only_unless_a_token_is_set(tmp_path):
    """Without a token, /metrics answers a client of this machine that reaches the process
    directly, and refuses one a proxy relays (its X-Forwarded-For); with a token
    (``TRIPLETOPPER_METRICS_TOKEN``), only a request bearing it, from anywhere."""
    relayed = {"X-Forwarded-For": "203.0.113.9"}
    with server(tmp_path / "open") as base:
        assert httpx.get(f"{base}/metrics").status_code == 200
        r = httpx.get(f"{base}/metrics", headers=relayed)
        assert r.status_code == 403 and r.json()["code"] == "forbidden"
    with server(tmp_path / "token", env={"TRIPLETOPPER_METRICS_TOKEN": TOKEN}) as base:
        assert httpx.get(f"{base}/metrics").status_code == 403
        wrong = {"Authorization": f"Bearer {TOKEN}x"}
        assert httpx.get(f"{base}/metrics", headers=wrong).status_code == 403
        bearer = {"Authorization": f"Bearer {TOKEN}"}
        assert httpx.get(f"{base}/metrics", headers={**relayed, **bearer}).status_code == 200
        assert value(samples(base, **bearer), "tripletopper_errors_total", code="forbidden") == 2


def test_the_bot_queue_is_shown_as_decisions_wait_for_a_worker(tmp_path, monkeypatch):
    """A pool of one worker: the first table's decision is being made, the two others
    wait; ``tripletopper_bot_decisions`` says so."""
    from prometheus_client.exposition import generate_latest

    from tests.server.test_bots import Sleeper, bots, open_room
    from tripletopper.bots import ANY_GAME, BOTS
    from tripletopper.server import metrics

    monkeypatch.setitem(BOTS, "sleeper", {ANY_GAME: Sleeper})

    async def main() -> str:
        async with open_room(tmp_path, workers=1, deadline=60) as room:
            for seed in (1, 2, 3):
                seats = bots("sleeper", "sleeper")
                await room.create("toe", 2, {}, seats=seats, seed=seed, start=True)
            deadline = time.monotonic() + 30
            while room.pool.load() != (2, 1):
                assert time.monotonic() < deadline, room.pool.load()
                await asyncio.sleep(0.01)
            return generate_latest(metrics.registry(lambda: room)).decode()

    text = asyncio.run(main())
    found = {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    assert value(found, "tripletopper_bot_decisions", state="waiting") == 2
    assert value(found, "tripletopper_bot_decisions", state="running") == 1
    assert value(found, "tripletopper_tables", state="playing") == 3


# --- settings from the environment -------------------------------------------------------------


def test_every_setting_of_serve_and_db_has_its_environment_variable():
    commands = {"serve": cli.commands["serve"]}
    db = cli.commands["db"]
    assert isinstance(db, click.Group)
    commands |= {f"db {name}": command for name, command in db.commands.items()}
    for name, command in commands.items():
        for param in command.params:
            if not isinstance(param, click.Option) or param.name == "help":
                continue
            option = max(param.opts, key=len)
            expected = "TRIPLETOPPER_" + option.removeprefix("--").upper().replace("-", "_")
            assert param.envvar == expected, f"{name} {option}: {param.envvar}"
            assert param.show_envvar, f"{name} {option}"


def test_serve_reads_its_settings_from_the_environment_and_the_command_line_wins(tmp_path):
    port, other = free_port(), free_port()
    env = {
        **os.environ,
        "TRIPLETOPPER_PORT": str(port),
        "TRIPLETOPPER_DATA_DIR": str(tmp_path / "from-env"),
        "TRIPLETOPPER_BOT_DELAY": "0",
        "TRIPLETOPPER_RATE_LIMITS": "false",
        "TRIPLETOPPER_LOG_LEVEL": "warning",
    }
    command = [sys.executable, "-m", "tripletopper", "serve"]
    for extra, answers, silent in (([], port, other), (["--port", str(other)], other, port)):
        process = subprocess.Popen(
            [*command, *extra], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        try:
            url = f"http://127.0.0.1:{answers}"
            until(lambda url=url: _answers(url), what=url)
            assert not _answers(f"http://127.0.0.1:{silent}")
            assert (tmp_path / "from-env" / "tripletopper.sqlite3").exists()
            for _ in range(25):  # rate limits off: more creations than "20/minute" allows
                r = httpx.post(f"{url}/api/tables", json={"game": "toe", "name": "Ann"})
                assert r.status_code == 201, r.text
        finally:
            process.kill()
            process.wait()


def _answers(base: str) -> bool:
    try:
        return httpx.get(f"{base}/healthz", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False


def test_a_bad_setting_in_the_environment_is_refused_naming_its_variable(tmp_path):
    from click.testing import CliRunner

    for variable, text in (("TRIPLETOPPER_PORT", "abc"), ("TRIPLETOPPER_METRICS_TOKEN", "short")):
        result = CliRunner().invoke(
            cli, ["serve", "--data-dir", str(tmp_path)], env={variable: text}
        )
        assert result.exit_code == 2, result.output
        assert variable in result.output and "Traceback" not in result.output


# --- two rooms, one Redis ----------------------------------------------------------------------


def another_database(postgres_url: str) -> str:
    base, name = postgres_url.rsplit("/", 1)
    plain = base.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}_b"')
    return f"{base}/{name}_b"


def test_the_default_redis_prefix_is_the_database_name():
    assert default_prefix("postgresql+psycopg://tt:secret@db:5432/cards") == "tt:cards:"
    assert default_prefix("postgresql+psycopg://tt@db/odd name*") == "tt:odd_name_:"
    assert RedisKeys("tt:cards:").connections("10.0.0.1") == "tt:cards:connections:10.0.0.1"


@pytest.mark.postgres
def test_two_rooms_on_one_redis_share_no_cap_and_no_key(tmp_path, postgres_url, redis_server):
    """Room A holds the most websockets one address may have; room B, on the same Redis
    with its own database, still admits that address; every key each room made in Redis
    starts with its own prefix."""
    urls = [postgres_url, another_database(postgres_url)]
    prefixes = [default_prefix(url) for url in urls]
    assert prefixes[0] != prefixes[1]
    with contextlib.ExitStack() as stack:
        bases = [
            stack.enter_context(server(tmp_path / str(n), "--db", url, "--redis", redis_server))
            for n, url in enumerate(urls)
        ]
        tables = [open_table(base, players=3, humans=3)[0] for base in bases]

        async def scenario() -> dict[str, Any]:
            async with contextlib.AsyncExitStack() as sockets:
                url = bases[0].replace("http", "ws") + f"/ws/tables/{tables[0]}"
                for _ in range(MAX_CONNECTIONS):
                    ws = await sockets.enter_async_context(connect(url))
                    await ws.send('{"type": "hello"}')
                    assert '"welcome"' in await ws.recv()
                over = await sockets.enter_async_context(connect(url))
                refused = await asyncio.wait_for(over.recv(), 10)  # A's cap holds
                url = bases[1].replace("http", "ws") + f"/ws/tables/{tables[1]}"
                other = await sockets.enter_async_context(connect(url))
                await other.send('{"type": "hello"}')
                return {"refused": refused, "other": await asyncio.wait_for(other.recv(), 10)}

        answers = asyncio.run(scenario())
        assert "too_many_connections" in answers["refused"]
        assert '"welcome"' in answers["other"], answers["other"]
        with redis.Redis.from_url(redis_server) as shared:
            keys = [key.decode() for key in shared.scan_iter()]
        assert keys
        for key in keys:
            assert key.startswith(tuple(prefixes)), key
        for prefix in prefixes:
            assert any(key.startswith(prefix + "limits") for key in keys), keys


# --- what serve prints as it starts (issue 33) ---------------------------------------------------


def test_a_busy_port_is_one_line_and_a_failed_start(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "tripletopper", "serve", "--port", str(port)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip().splitlines() == [
        f"tripletopper serve: cannot listen on 127.0.0.1:{port}: Address already in use"
    ]
    assert not (tmp_path / "data").exists()  # nothing was opened or migrated


def test_serve_prints_its_url_once_the_room_answers_and_no_migration_chatter(tmp_path):
    """On a first start: one line about the new database, then the URL, printed only once
    the port answers (a browser opened at once finds the room); no Alembic lines."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tripletopper", "serve", "--port", str(port)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        url_line = process.stdout.readline()
        assert _answers(f"http://127.0.0.1:{port}")  # the moment the URL is shown
        assert first == f"(a new database, at schema {migration.head()})\n"
        assert url_line == (
            f"Triple Topper card room: open http://127.0.0.1:{port}/ in your browser\n"
        )
    finally:
        process.terminate()
        out, err = process.communicate(timeout=60)
    assert "alembic" not in (out + err).lower() and "Running upgrade" not in out + err
