"""The database schema's version: migrations run under a database lock, and whether a
database is current (``tripletopper db upgrade``, ``serve`` on start, ``/readyz``).

Several processes may migrate one database at the same moment (``serve`` processes
started together, an upgrade rolled over several machines).  Each migrates inside one
transaction that first takes a lock held until its commit: on PostgreSQL a transaction
advisory lock, on SQLite the database's write lock (``BEGIN IMMEDIATE``).  The first
process migrates; the others wait for its commit, then find the schema current and
change nothing.  Without the lock, processes started together on an empty PostgreSQL
database crashed on ``duplicate key value violates unique constraint
"pg_type_typname_nsp_index"`` (two ``CREATE TABLE`` of one name at once).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine

LOCK_KEY = int.from_bytes(b"ttmigrat", "big")
"""The PostgreSQL advisory lock that migrations of the room's database take (any
64-bit number; this one spells ``ttmigrat``)."""
UPGRADE_COMMAND = "tripletopper db upgrade"


def alembic_config() -> Config:
    """Alembic's configuration: the migrations shipped in the package."""
    config = Config()
    config.set_main_option(
        "script_location", str(resources.files("tripletopper.server") / "migrations")
    )
    return config


@cache
def head() -> str:
    """The newest revision this version of tripletopper knows."""
    found = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert found is not None
    return found


@cache
def known() -> frozenset[str]:
    """Every revision this version of tripletopper knows."""
    script = ScriptDirectory.from_config(alembic_config())
    return frozenset(rev.revision for rev in script.walk_revisions())


def steps(start: str | None, end: str) -> list[tuple[str, str]]:
    """The revisions after ``start`` (None: from nothing) up to ``end``, oldest first, each
    with the first line of its description."""
    script = ScriptDirectory.from_config(alembic_config())
    found = script.iterate_revisions(end, start or "base")
    return [
        (rev.revision, (rev.doc or "").strip().splitlines()[0]) for rev in reversed(list(found))
    ]


def revision_of(conn: Connection) -> str | None:
    """The database's schema revision (None: an empty database, never migrated)."""
    return MigrationContext.configure(conn).get_current_revision()


@dataclass(frozen=True)
class Schema:
    """Where a database's schema stands against this version of tripletopper."""

    revision: str | None
    head: str

    @property
    def current(self) -> bool:
        return self.revision == self.head

    @property
    def newer(self) -> bool:
        """Migrated by a newer tripletopper: this one cannot know what it holds."""
        return self.revision is not None and self.revision not in known()

    def problem(self) -> str | None:
        """Why a room may not run on this database (None: it may), in one line."""
        if self.current:
            return None
        if self.newer:
            return (
                f"the database schema is at revision {self.revision}, newer than this "
                f"tripletopper knows (up to {self.head}): upgrade tripletopper"
            )
        at = "empty" if self.revision is None else f"at revision {self.revision}"
        return f"the database schema is {at}, not {self.head}: run `{UPGRADE_COMMAND}`"


def schema_of(conn: Connection) -> Schema:
    return Schema(revision_of(conn), head())


def migrate(engine: Engine, revision: str = "head") -> Schema:
    """Bring the schema to ``revision``, by default the newest, under the database's lock;
    returns where it stood before (a database already there is left as it is)."""
    config = alembic_config()
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            # A migration is one long transaction with Python work between its statements
            # (on a loaded machine, seconds): the room's idle limit is not for it.
            conn.exec_driver_sql("SET LOCAL idle_in_transaction_session_timeout = 0")
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")
        elif conn.dialect.name == "sqlite":
            # The write lock now, not at the first write: a second process reads the
            # revision only once the first one's migration is committed.
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        before = schema_of(conn)
        if before.newer:
            raise RuntimeError(before.problem())
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    return before
