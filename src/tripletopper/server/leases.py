"""Table leases: one process at a time runs each table when the room runs as several.

A lease is a row of ``leases``: the owning process and when the lease expires, by
the database's clock (so the processes' own clocks may differ).  Taking one is a
single ``INSERT .. ON CONFLICT DO UPDATE .. WHERE`` that succeeds only for a table
without a lease, with an expired one, or with the taker's own: the database runs
concurrent takes one after the other, so two processes never both hold a lease.
The owner renews all its leases every few seconds; a process that dies stops
renewing, and once its leases expire other processes take its tables.  An owner may
also hand a lease it holds to another process (:func:`hand_over`, one conditional
``UPDATE``): the lease changes hands without ever being free or held twice.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, Float, and_, cast, func, literal_column, or_, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.elements import ColumnElement

from tripletopper.server import schema

TTL = 6.0
"""Seconds a lease lasts unless renewed (owners renew every third of it)."""

L = schema.leases


def db_now(conn: Connection) -> ColumnElement[float]:
    """The database's clock in epoch seconds, as an SQL expression."""
    if conn.dialect.name == "postgresql":
        return cast(func.extract("epoch", func.clock_timestamp()), Float)
    return cast(literal_column("(julianday('now') - 2440587.5) * 86400.0"), Float)


def take(conn: Connection, table_id: str, owner: str, ttl: float = TTL) -> float | None:
    """Take (or renew) the lease of a table; its expiry if ``owner`` now holds it, else None."""
    now = db_now(conn)
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    insert = dialect.insert(L).values(table_id=table_id, owner=owner, expires=now + ttl)
    statement = insert.on_conflict_do_update(
        index_elements=[L.c.table_id],
        set_={"owner": insert.excluded.owner, "expires": insert.excluded.expires},
        where=or_(L.c.owner == owner, L.c.expires < now),
    ).returning(L.c.expires)
    found = conn.execute(statement).first()
    return None if found is None else float(found[0])


def renew(conn: Connection, owner: str, ttl: float = TTL) -> set[str]:
    """Extend every lease ``owner`` holds; the ids of those tables (it lost the others)."""
    statement = (
        L.update()
        .where(L.c.owner == owner)
        .values(expires=db_now(conn) + ttl)
        .returning(L.c.table_id)
    )
    return {r.table_id for r in conn.execute(statement)}


def release(conn: Connection, owner: str, table_ids: Iterable[str]) -> None:
    """Give up leases (a table evicted, a process stopping): others may take them at once."""
    ids = list(table_ids)
    if ids:
        conn.execute(L.delete().where(and_(L.c.owner == owner, L.c.table_id.in_(ids))))


def hand_over(conn: Connection, table_id: str, owner: str, to: str, ttl: float = TTL) -> bool:
    """Give the lease ``owner`` holds (unexpired) to ``to``; False if ``owner`` did not hold it."""
    now = db_now(conn)
    statement = (
        L.update()
        .where(and_(L.c.table_id == table_id, L.c.owner == owner, L.c.expires >= now))
        .values(owner=to, expires=now + ttl)
        .returning(L.c.table_id)
    )
    return conn.execute(statement).first() is not None


def owner_of(conn: Connection, table_id: str) -> str | None:
    """The process that holds a table's lease now (None: nobody does)."""
    query = select(L.c.owner).where(and_(L.c.table_id == table_id, L.c.expires >= db_now(conn)))
    return conn.execute(query).scalar()


def orphans(conn: Connection, limit: int = 200) -> list[str]:
    """Games being played that no process runs (no lease, or an expired one)."""
    t = schema.tables
    query = (
        select(t.c.id)
        .select_from(t.outerjoin(L, L.c.table_id == t.c.id))
        .where(and_(t.c.status == "playing", or_(L.c.owner.is_(None), L.c.expires < db_now(conn))))
        .limit(limit)
    )
    return [r.id for r in conn.execute(query)]
