"""The database schema's version: migrations under the database's lock, ``tripletopper db
upgrade`` and ``db status``, and ``serve`` on a schema that is not current (docs/deploy.md,
"Upgrades and the schema")."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.server.conftest import TestClient
from tests.server.helpers import free_port
from tripletopper.cli import cli
from tripletopper.server import migration, storage
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.migration import Schema
from tripletopper.server.storage import StorageError

OLD = "0009"


def test_migrations_started_at_once_take_turns(db_url):
    """Three migrations of one empty database at the same instant: one migrates, the others
    wait for its commit and find the schema current (unlocked, PostgreSQL refused two of
    them: ``duplicate key value violates unique constraint "pg_type_typname_nsp_index"``)."""
    engines = [storage.make_engine(db_url) for _ in range(3)]
    start = threading.Barrier(len(engines))
    found: list[Schema | BaseException] = []

    def run(engine) -> None:
        start.wait()
        try:
            found.append(storage.migrate(engine))
        except BaseException as exc:
            found.append(exc)

    threads = [threading.Thread(target=run, args=(engine,)) for engine in engines]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    for engine in engines:
        engine.dispose()
    assert not [f for f in found if isinstance(f, BaseException)], found
    assert sorted(str(f.revision) for f in found if isinstance(f, Schema)) == sorted(
        ["None", migration.head(), migration.head()]
    )


def db_args(db_url: str, tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    """How `db` is told where the database is: SQLite by --data-dir, PostgreSQL by the
    environment (the way a password stays off the command line)."""
    if db_url.startswith("sqlite"):
        return ["--data-dir", str(tmp_path)], {}
    return [], {"TRIPLETOPPER_DB": db_url}


def test_db_upgrade_brings_the_schema_up_and_says_what_it_did(db_url, tmp_path):
    args, env = db_args(db_url, tmp_path)
    runner = CliRunner()
    engine = storage.make_engine(db_url)
    storage.migrate(engine, OLD)
    engine.dispose()
    status = runner.invoke(cli, ["db", "status", *args], env=env)
    assert status.exit_code == 1
    assert f"at revision {OLD}, not {migration.head()}" in status.output
    assert "run `tripletopper db upgrade`" in status.output
    upgraded = runner.invoke(cli, ["db", "upgrade", *args], env=env)
    assert upgraded.exit_code == 0, upgraded.output
    lines = upgraded.output.strip().splitlines()
    assert lines[0].endswith(f"upgraded from {OLD} to {migration.head()}")
    assert lines[1] == "  0010  Seat keys of a person's other devices: ``seats.device_keys``."
    after = range(int(OLD) + 1, int(migration.head()) + 1)
    assert [line.split()[0] for line in lines[1:]] == [f"{n:04d}" for n in after]
    again = runner.invoke(cli, ["db", "upgrade", *args], env=env)
    assert again.output.strip().endswith(f"the schema is current ({migration.head()})")
    status = runner.invoke(cli, ["db", "status", *args], env=env)
    assert status.exit_code == 0 and "current" in status.output
    assert "password" not in status.output


def test_db_status_of_a_data_dir_without_a_database_creates_none(tmp_path):
    result = CliRunner().invoke(cli, ["db", "status", "--data-dir", str(tmp_path / "none")])
    assert result.exit_code == 1 and "there is no database" in result.output
    assert not (tmp_path / "none").exists()


def sqlite_at(tmp_path: Path, revision: str) -> None:
    engine = storage.make_engine(storage.sqlite_url(tmp_path))
    storage.migrate(engine, min(revision, migration.head()))
    engine.dispose()
    if revision > migration.head():  # as a newer tripletopper would leave it
        with contextlib.closing(sqlite3.connect(tmp_path / "tripletopper.sqlite3")) as db:
            db.execute("UPDATE alembic_version SET version_num = ?", (revision,))
            db.commit()


def revision_at(tmp_path: Path) -> str:
    with contextlib.closing(sqlite3.connect(tmp_path / "tripletopper.sqlite3")) as db:
        return str(db.execute("SELECT version_num FROM alembic_version").fetchone()[0])


def serve(tmp_path: Path, *extra: str):
    port = str(free_port())
    return CliRunner().invoke(cli, ["serve", "--data-dir", str(tmp_path), "--port", port, *extra])


def test_serve_no_migrate_refuses_an_old_schema_naming_the_command(tmp_path):
    sqlite_at(tmp_path, OLD)
    result = serve(tmp_path, "--no-migrate")
    assert result.exit_code == 1
    (line,) = result.output.strip().splitlines()
    assert line.startswith("tripletopper serve: cannot open the database")
    assert f"at revision {OLD}" in line and "run `tripletopper db upgrade`" in line
    assert revision_at(tmp_path) == OLD  # nothing migrated
    app = create_app(ServerConfig(data_dir=str(tmp_path), migrate=False))
    with pytest.raises(StorageError, match="tripletopper db upgrade"), TestClient(app):
        pass  # nor by the app
    with pytest.raises(StorageError):
        storage.open_database(storage.sqlite_url(tmp_path), upgrade=False)


def test_a_schema_newer_than_this_tripletopper_is_refused_either_way(tmp_path):
    sqlite_at(tmp_path, "0999")
    for command in (["--no-migrate"], []):
        result = serve(tmp_path, *command)
        assert result.exit_code == 1
        assert "revision 0999, newer than this tripletopper knows" in result.output
    result = CliRunner().invoke(cli, ["db", "upgrade", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and "upgrade tripletopper" in result.output
    assert revision_at(tmp_path) == "0999"
