"""Fixtures of the server tests: an in-process app on a fresh SQLite data dir."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.tables import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    app = create_app(ServerConfig(data_dir=str(tmp_path), settings=Settings(bot_delay=0)))
    with TestClient(app) as test_client:
        yield test_client


def seat_header(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}
