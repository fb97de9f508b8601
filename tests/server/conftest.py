"""Fixtures of the server tests: an in-process app on a fresh SQLite data dir, and
throwaway PostgreSQL and Redis servers."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.storage import sqlite_url
from tripletopper.server.tables import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


CHROMIUM = os.environ.get("TT_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-default-apps",
    "--disable-extensions",
]


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium driven by Playwright (the browser tests skip without it)."""
    playwright = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: ./scripts/test installs Debian's chromium")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(data_dir=str(tmp_path), settings=Settings(bot_delay=0)))
    with TestClient(app) as test_client:
        yield test_client


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request, tmp_path) -> str:
    """The database of a test that runs on both: SQLite, then the throwaway PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path)
    return str(request.getfixturevalue("postgres_url"))


def seat_header(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


# --- a throwaway PostgreSQL server for the PostgreSQL tests ------------------------------


def _pg_bindir() -> Path | None:
    found = shutil.which("pg_config")
    if found:
        out = subprocess.run([found, "--bindir"], capture_output=True, text=True, check=False)
        candidate = Path(out.stdout.strip())
        if (candidate / "initdb").exists():
            return candidate
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
    return versions[0].parent if versions else None


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server on a free port in a temp dir; yields its base URL.

    Set ``TT_TEST_POSTGRES_URL`` to use an existing server instead.  Without
    either the tests skip with a loud message (``./scripts/test`` installs
    PostgreSQL, so in CI they run).
    """
    given = os.environ.get("TT_TEST_POSTGRES_URL")
    if given:
        yield given
        return
    bindir = _pg_bindir()
    if bindir is None:
        warnings.warn("PostgreSQL is not installed: the PostgreSQL tests are SKIPPED", stacklevel=1)
        pytest.skip("PostgreSQL is not installed (apt-get install postgresql)")
    root = os.geteuid() == 0
    if root and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser: cannot start PostgreSQL")
    data = Path(tempfile.mkdtemp(prefix="tt-pg-"))  # not under pytest's root-only tmp dirs
    as_user = ["runuser", "-u", "postgres", "--"] if root else []
    if root:
        shutil.chown(data, "postgres")
    port = _free_port()
    subprocess.run(
        [*as_user, str(bindir / "initdb"), "-D", str(data / "db"), "-A", "trust", "-U", "postgres"],
        check=True,
        capture_output=True,
    )
    subprocess.run(
        [
            *as_user,
            str(bindir / "pg_ctl"),
            "-D",
            str(data / "db"),
            "-l",
            str(data / "log"),
            "-w",
            "-o",
            f"-p {port} -k {data} -c listen_addresses=127.0.0.1 -c fsync=off",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data / "db"), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(data, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def postgres_url(postgres_server) -> str:
    """A fresh, empty database on the throwaway server."""
    import psycopg

    name = f"tt_{uuid.uuid4().hex[:12]}"
    plain = postgres_server.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(plain + "/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{postgres_server}/{name}"


# --- a throwaway Redis server for the tests of the room on several processes -------------


@pytest.fixture
def redis_server(redis_process: str) -> str:
    """The session's Redis, emptied: each test's room starts as a fresh room, as its
    database does (``postgres_url``).  Tables an earlier test opened from the same address
    would otherwise count against this test's cap while they are "being created" (in
    Redis, not in this test's database)."""
    import redis

    with redis.Redis.from_url(redis_process) as client:
        client.flushdb()
    return redis_process


@pytest.fixture(scope="session")
def redis_process() -> Iterator[str]:
    """A Redis server on a free port, keeping nothing on disk; yields its URL.

    Set ``TT_TEST_REDIS_URL`` to use an existing server instead (its database is emptied
    before each test that uses it).  Without either the tests skip with a loud message
    (``./scripts/test`` installs Debian's redis-server).
    """
    given = os.environ.get("TT_TEST_REDIS_URL")
    if given:
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        warnings.warn("Redis is not installed: the cluster tests are SKIPPED", stacklevel=1)
        pytest.skip("Redis is not installed (apt-get install redis-server)")
    port = _free_port()
    process = subprocess.Popen(
        [
            binary,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        ends = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > ends or process.poll() is not None:
                    pytest.fail("the throwaway Redis server did not start")
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.kill()
        process.wait()
