"""``tripletopper db``: the card room's database schema (``upgrade``, ``status``).

``--db`` and ``--data-dir`` are ``serve``'s options, read from the same environment
variables, so ``db upgrade`` run with a room's environment file migrates that room's
database.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

ENV_PREFIX = "TRIPLETOPPER_"
"""Every setting of ``serve`` and ``db`` may come from ``TRIPLETOPPER_<OPTION>`` (the
option's long name in capitals, ``-`` as ``_``); the command line wins."""

F = TypeVar("F", bound=Callable[..., Any])


def env(name: str) -> str:
    return ENV_PREFIX + name


def database_options(command: F) -> F:
    """``--db`` and ``--data-dir``: where the room's database is."""
    command = click.option(
        "--db",
        "db_url",
        default=None,
        metavar="URL",
        envvar=env("DB"),
        show_envvar=True,
        help="Database URL (default: SQLite in the data dir), e.g. "
        "postgresql+psycopg://user@host/dbname (a password: in the environment variable, or "
        "PGPASSWORD, or ~/.pgpass; not on the command line).",
    )(command)
    return click.option(
        "--data-dir",
        default="data",
        show_default=True,
        envvar=env("DATA_DIR"),
        show_envvar=True,
        type=click.Path(file_okay=False),
        help="Where the SQLite database lives.",
    )(command)


def database_url(db_url: str | None, data_dir: str) -> str:
    from tripletopper.server.storage import sqlite_url

    return db_url or sqlite_url(data_dir)


@click.group("db", context_settings={"help_option_names": ["-h", "--help"]})
def db_command() -> None:
    """The card room's database: its schema's version, and upgrading it."""


@db_command.command("upgrade")
@database_options
def upgrade_command(db_url: str | None, data_dir: str) -> None:
    """Bring the database's schema up to date (safe to run while rooms run, and from several
    machines at once: migrations take a lock in the database)."""
    from tripletopper.server import migration
    from tripletopper.server.storage import StorageError, open_database, shown

    url = database_url(db_url, data_dir)
    try:
        db = open_database(url)
    except StorageError as exc:
        click.echo(f"tripletopper db upgrade: {exc}", err=True)
        sys.exit(1)
    before = db.upgraded_from
    db.stop()
    head = migration.head()
    if before is None or before.revision == head:
        click.echo(f"{shown(url)}: the schema is current ({head})")
    else:
        start = "an empty database" if before.revision is None else before.revision
        click.echo(f"{shown(url)}: upgraded from {start} to {head}")
        for revision, description in migration.steps(before.revision, head):
            click.echo(f"  {revision}  {description}")


@db_command.command("status")
@database_options
def status_command(db_url: str | None, data_dir: str) -> None:
    """Say where the database's schema stands; exit 0 if current, 1 if not (or unreachable)."""
    from tripletopper.server.storage import Database, shown

    url = database_url(db_url, data_dir)
    if db_url is None and not Path(url.removeprefix("sqlite:///")).exists():
        click.echo(f"tripletopper db status: there is no database in {data_dir}", err=True)
        sys.exit(1)
    try:
        db = Database(url)
        try:
            schema = db.schema()
        finally:
            db.stop()
    except Exception as exc:
        lines = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        reason = lines[0] if lines else type(exc).__name__
        click.echo(f"tripletopper db status: {shown(url)}: {reason}", err=True)
        sys.exit(1)
    problem = schema.problem()
    if problem is None:
        click.echo(f"{shown(url)}: the schema is current ({schema.head})")
        return
    click.echo(f"{shown(url)}: {problem}")
    sys.exit(1)
