"""Processes of one room started at the same moment on an empty PostgreSQL database
(``docs/deploy.md``'s own ``for n in 0 1 2; do serve ... & done``, or a supervisor
starting every unit at boot): each one migrates on start, and the migrations take turns
under the database's advisory lock, so every process comes up.  Without the lock, 2 of 3
crashed on ``duplicate key value violates unique constraint
"pg_type_typname_nsp_index"``."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.server.helpers import free_port
from tripletopper.server import migration

PROCESSES = 3


def ready(port: int) -> bool:
    try:
        return httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


@pytest.mark.chaos
@pytest.mark.postgres
def test_processes_started_together_on_an_empty_database_all_come_up(
    tmp_path: Path, postgres_url: str, redis_server: str
) -> None:
    ports = [free_port() for _ in range(PROCESSES)]
    logs = [tmp_path / f"serve-{n}.log" for n in range(PROCESSES)]
    processes = [
        subprocess.Popen(
            [
                *(sys.executable, "-m", "tripletopper", "serve", "--port", str(port)),
                *("--db", postgres_url, "--redis", redis_server, "--log-level", "warning"),
                *("--data-dir", str(tmp_path), "--bot-workers", "1"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=log.open("wb"),
        )
        for port, log in zip(ports, logs, strict=True)
    ]
    try:
        ends = time.monotonic() + 120
        waiting = set(range(PROCESSES))
        while waiting:
            for n in list(waiting):
                if processes[n].poll() is not None:
                    pytest.fail(f"process {n} exited: {logs[n].read_text()[-2000:]}")
                if ready(ports[n]):
                    waiting.discard(n)
            assert time.monotonic() < ends, f"not ready after 120 s: {sorted(waiting)}"
            time.sleep(0.1)
        plain = postgres_url.replace("postgresql+psycopg://", "postgresql://")
        with psycopg.connect(plain) as conn:
            versions = conn.execute("SELECT version_num FROM alembic_version").fetchall()
        assert versions == [(migration.head(),)]
        for log in logs:
            assert "Traceback" not in log.read_text()
    finally:
        for process in processes:
            process.kill()
            process.wait()
