"""Storage of tables, seats and actions: SQLite by default, PostgreSQL by URL.

Everything goes through one SQLAlchemy engine.  Database work never runs on the
event loop: :class:`Database` owns one writer thread that takes queued jobs,
runs every job waiting at that moment in a single transaction (group commit:
one commit for many tables' actions) and then wakes the coroutines that
awaited them.  A job's effects are committed before its coroutine resumes, so a
table that awaits the storing of an action tells nobody of it before it is
safe on disk (SQLite in WAL mode survives a killed process).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, func, select
from sqlalchemy.engine import make_url

from tripletopper.server import schema
from tripletopper.server.migration import Schema, migrate, schema_of

T = TypeVar("T")
Job = Callable[[Connection], Any]
Outcome = tuple[Any, BaseException | None]
"""A job's value, or the exception it raised."""


def settle(futures: list[asyncio.Future[Any]], outcomes: list[Outcome]) -> None:
    """Give each waiting future its job's value or exception (batched hand-overs)."""
    for future, (value, exc) in zip(futures, outcomes, strict=True):
        if future.done():
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(value)


def sqlite_url(data_dir: str | Path) -> str:
    """The default database: a SQLite file in the data directory."""
    path = Path(data_dir).expanduser().resolve() / "tripletopper.sqlite3"
    return f"sqlite:///{path}"


@dataclass
class SeatRow:
    seat: int
    name: str
    kind: str  # "human", "bot" or "invited" (a rematch's seat offered to a person)
    bot: str | None = None
    token_hash: str | None = None
    """A person's token, hashed; on a bot's seat, the person who left it may take it back."""
    user_id: int | None = None
    """The account of the person holding (or who left) the seat; None for guests and bots."""
    forfeit: bool = False
    """The person left this rated game: they finish last, even if they come back."""
    bot_account: bool = False
    """A bot account (``user_id``) plays this seat through the websocket, like a person."""
    device_keys: tuple[str, ...] = ()
    """The account's other devices at this seat (resumed from "My games"), oldest first, each
    ``KEY:SESSION``: the hash of its seat token, which holds the seat as ``token_hash`` does,
    and the hash of the sign-in session it was handed to (a password change made on another
    session revokes it; a bare ``KEY`` has no known session)."""


@dataclass
class ChatRow:
    n: int
    seat: int | None  # None: a spectator
    name: str
    text: str
    at: float
    version: int

    def to_json(self) -> dict[str, Any]:
        return {
            "n": self.n,
            "seat": self.seat,
            "name": self.name,
            "text": self.text,
            "at": self.at,
            "version": self.version,
        }


@dataclass
class ActionRow:
    n: int
    seat: int
    action: dict[str, Any]
    at: float
    by_clock: bool = False
    """The seat's turn clock ran out and the server played this for it."""


@dataclass
class TableRow:
    id: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str
    created_at: float
    turn_clock: float | None = None
    on_timeout: str = "default"
    decks: list[list[str]] | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    started_at: float | None = None
    finished_at: float | None = None
    results: dict[str, Any] | None = None
    rematch_of: str | None = None
    rematch: str | None = None
    hints: bool = False
    rated: bool | None = None
    """A rated game (None: decided at the start: rated when every person has an account)."""
    seats: dict[int, SeatRow] = field(default_factory=dict)
    actions: list[ActionRow] = field(default_factory=list)
    chat: list[ChatRow] = field(default_factory=list)
    """The latest lines of the table's chat (``load_table``: at most ``chat_keep``)."""
    chat_counts: tuple[int, int] = (0, 0)
    """Lines stored in all, and of those, said by spectators."""


IDLE_IN_TRANSACTION_MS = 3000
"""PostgreSQL ends a session left inside a transaction this long (half a lease)."""


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL journaling and a busy timeout."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            # NORMAL in WAL mode: a commit survives a killed process (not a power cut).
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA busy_timeout=5000")
            # Checkpoints (which fsync) run in their own thread: see Database.start.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # A process stopped in the middle of a transaction (frozen, not dead) must not hold
    # its locks past its table leases (leases.TTL): the process that takes its tables
    # over would wait on them.  The room's transactions take milliseconds.
    options = f"-c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
    return create_engine(url, pool_pre_ping=True, connect_args={"options": options})


# --- jobs: plain functions of a connection, run by the writer thread ----------------


def insert_table(conn: Connection, row: TableRow) -> None:
    conn.execute(
        schema.tables.insert().values(
            id=row.id,
            game=row.game,
            players=row.players,
            options=json.dumps(row.options),
            seed=row.seed,
            decks=json.dumps(row.decks) if row.decks else None,
            setup=json.dumps(row.setup) if row.setup else None,
            status=row.status,
            turn_clock=row.turn_clock,
            on_timeout=row.on_timeout,
            created_at=row.created_at,
            started_at=row.started_at,
            rematch_of=row.rematch_of,
            hints=row.hints,
            rated=row.rated,
        )
    )
    for seat in row.seats.values():
        put_seat(conn, row.id, seat)


def put_seat(conn: Connection, table_id: str, seat: SeatRow) -> None:
    delete_seat(conn, table_id, seat.seat)
    conn.execute(
        schema.seats.insert().values(
            table_id=table_id,
            seat=seat.seat,
            name=seat.name,
            kind=seat.kind,
            bot=seat.bot,
            token_hash=seat.token_hash,
            user_id=seat.user_id,
            forfeit=seat.forfeit,
            bot_account=seat.bot_account,
            device_keys=" ".join(seat.device_keys) or None,
        )
    )


def delete_seat(conn: Connection, table_id: str, seat: int) -> None:
    s = schema.seats
    conn.execute(s.delete().where(s.c.table_id == table_id, s.c.seat == seat))


def update_table(conn: Connection, table_id: str, **values: Any) -> None:
    if "results" in values and values["results"] is not None:
        values["results"] = json.dumps(values["results"])
    t = schema.tables
    conn.execute(t.update().where(t.c.id == table_id).values(**values))


def set_rematch(conn: Connection, table_id: str, rematch: str, known: str | None) -> str | None:
    """Record a game's rematch unless another was recorded since ``known`` (what the caller
    saw): None if this one is, else the rematch recorded (two processes asked at once)."""
    t = schema.tables
    seen = t.c.rematch.is_(None) if known is None else t.c.rematch == known
    done = conn.execute(t.update().where(t.c.id == table_id, seen).values(rematch=rematch))
    if done.rowcount == 1:
        return None
    return conn.execute(select(t.c.rematch).where(t.c.id == table_id)).scalar()


_INSERT_ACTION = schema.actions.insert()


def action_params(table_id: str, row: ActionRow) -> dict[str, Any]:
    return {
        "table_id": table_id,
        "n": row.n,
        "seat": row.seat,
        "action": json.dumps(row.action, separators=(",", ":")),
        "at": row.at,
        "by_clock": row.by_clock,
    }


def add_action(conn: Connection, table_id: str, row: ActionRow) -> None:
    conn.execute(_INSERT_ACTION, [action_params(table_id, row)])


def insert_actions(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Many actions in one multi-row INSERT statement, written for the driver directly.

    One statement, not one per row: every database call releases Python's GIL,
    and getting it back from a busy event-loop thread costs time, so a batch
    pays that once.  Building the SQL text here also skips the compiler, which
    would otherwise see a new statement shape for every batch size.
    """
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    one = "(" + ",".join([mark] * 6) + ")"
    for start in range(0, len(rows), 400):
        chunk = rows[start : start + 400]
        sql = "INSERT INTO actions (table_id, n, seat, action, at, by_clock) VALUES " + ",".join(
            [one] * len(chunk)
        )
        params = tuple(
            value
            for row in chunk
            for value in (
                row["table_id"],
                row["n"],
                row["seat"],
                row["action"],
                row["at"],
                row["by_clock"],
            )
        )
        conn.exec_driver_sql(sql, params)


class AddActions:
    """A job that stores actions; the writer merges all such jobs of a batch into one
    multi-row insert (the hot path: every action of every table goes through it)."""

    __slots__ = ("params",)

    def __init__(self, table_id: str, row: ActionRow) -> None:
        self.params = action_params(table_id, row)

    def __call__(self, conn: Connection) -> None:
        conn.execute(_INSERT_ACTION, [self.params])


def _table_from(r: Any) -> TableRow:
    return TableRow(
        id=r.id,
        game=r.game,
        players=r.players,
        options=json.loads(r.options),
        seed=r.seed,
        status=r.status,
        created_at=r.created_at,
        turn_clock=r.turn_clock,
        on_timeout=r.on_timeout,
        decks=json.loads(r.decks) if r.decks else None,
        setup=json.loads(r.setup) if r.setup else {},
        started_at=r.started_at,
        finished_at=r.finished_at,
        results=json.loads(r.results) if r.results else None,
        rematch_of=r.rematch_of,
        rematch=r.rematch,
        hints=bool(r.hints),
        rated=None if r.rated is None else bool(r.rated),
    )


def _seats_of(conn: Connection, ids: Iterable[str]) -> dict[str, dict[int, SeatRow]]:
    s = schema.seats
    out: dict[str, dict[int, SeatRow]] = {}
    id_list = list(ids)
    if not id_list:
        return out
    for r in conn.execute(select(s).where(s.c.table_id.in_(id_list))):
        out.setdefault(r.table_id, {})[r.seat] = SeatRow(
            r.seat,
            r.name,
            r.kind,
            r.bot,
            r.token_hash,
            r.user_id,
            bool(r.forfeit),
            bool(r.bot_account),
            tuple((r.device_keys or "").split()),
        )
    return out


def load_table(conn: Connection, table_id: str, chat_keep: int = 100) -> TableRow | None:
    """A table with its seats, every action and its latest chat lines, or None."""
    t, a = schema.tables, schema.actions
    r = conn.execute(select(t).where(t.c.id == table_id)).first()
    if r is None:
        return None
    row = _table_from(r)
    if row.status == "broken":  # its rows do not replay: leave them unread
        return row
    row.seats = _seats_of(conn, [table_id]).get(table_id, {})
    row.actions = [
        ActionRow(x.n, x.seat, json.loads(x.action), x.at, bool(x.by_clock))
        for x in conn.execute(select(a).where(a.c.table_id == table_id).order_by(a.c.n))
    ]
    row.chat = load_chat(conn, table_id, last=chat_keep)
    c = schema.chat
    counted = select(func.count(), func.count().filter(c.c.seat.is_(None)))
    total, spectators = conn.execute(counted.where(c.c.table_id == table_id)).one()
    row.chat_counts = (int(total), int(spectators))
    return row


def add_chat(conn: Connection, table_id: str, line: ChatRow) -> None:
    conn.execute(
        schema.chat.insert().values(
            table_id=table_id,
            n=line.n,
            seat=line.seat,
            name=line.name,
            text=line.text,
            at=line.at,
            version=line.version,
        )
    )


def load_chat(conn: Connection, table_id: str, last: int | None = None) -> list[ChatRow]:
    """A table's chat in the order it was said (only the ``last`` lines, if given)."""
    c = schema.chat
    query = select(c).where(c.c.table_id == table_id).order_by(c.c.n.desc())
    if last is not None:
        query = query.limit(last)
    lines = [ChatRow(r.n, r.seat, r.name, r.text, r.at, r.version) for r in conn.execute(query)]
    return lines[::-1]


def load_review(conn: Connection, table_id: str, seat: int) -> str | None:
    """The stored review of a seat (JSON text), or None."""
    r = schema.reviews
    query = select(r.c.review).where(r.c.table_id == table_id, r.c.seat == seat)
    return conn.execute(query).scalar_one_or_none()


def save_review(conn: Connection, table_id: str, seat: int, review: str, at: float) -> None:
    r = schema.reviews
    conn.execute(r.delete().where(r.c.table_id == table_id, r.c.seat == seat))
    conn.execute(r.insert().values(table_id=table_id, seat=seat, review=review, at=at))


def list_tables(
    conn: Connection, statuses: Iterable[str], limit: int = 200, newest: str = "created_at"
) -> list[TableRow]:
    """Tables in these statuses, newest first by ``newest`` (a time column), with seats (no
    actions); rows that do not decode (a damaged database) are left out."""
    t = schema.tables
    query = select(t).where(t.c.status.in_(list(statuses))).order_by(t.c[newest].desc())
    return rows_with_seats(conn, query.limit(limit))


def rows_with_seats(conn: Connection, query: Any) -> list[TableRow]:
    """The tables a query of ``tables`` rows selects, in its order, with their seats (no
    actions); rows that do not decode (a damaged database) are left out."""
    rows = []
    for r in conn.execute(query):
        try:
            rows.append(_table_from(r))
        except ValueError:  # JSON that does not decode
            continue
    seats = _seats_of(conn, [row.id for row in rows])
    for row in rows:
        row.seats = seats.get(row.id, {})
    return rows


def pending_rematches(conn: Connection, before: float, limit: int = 200) -> list[str]:
    """Open rematch tables made before ``before`` where a seat still waits for its answer."""
    t, s = schema.tables, schema.seats
    invited = select(s.c.table_id).where(s.c.table_id == t.c.id, s.c.kind == "invited").exists()
    query = select(t.c.id).where(t.c.status == "open", t.c.created_at < before, invited)
    return [r.id for r in conn.execute(query.limit(limit))]


def stale_open_tables(conn: Connection, before: float, limit: int = 200) -> list[str]:
    """Open tables made before ``before`` where no person sits."""
    t, s = schema.tables, schema.seats
    people = select(s.c.table_id).where(s.c.table_id == t.c.id, s.c.kind == "human").exists()
    query = select(t.c.id).where(t.c.status == "open", t.c.created_at < before, ~people)
    return [r.id for r in conn.execute(query.limit(limit))]


class StorageError(Exception):
    """The database cannot be opened or migrated (a one-line reason for people)."""


def open_database(url: str, *, upgrade: bool = True) -> Database:
    """A :class:`Database` at ``url`` with its schema current, or :class:`StorageError`
    saying why not: ``upgrade`` migrates it (under the database's lock), otherwise a
    schema that is not current is refused, naming the command that upgrades it.  A
    schema newer than this tripletopper knows is refused either way."""
    try:
        db = Database(url)
        if upgrade:
            db.upgraded_from = db.migrate()
        else:
            problem = db.schema().problem()
            if problem is not None:
                db.stop()
                raise StorageError(f"cannot open the database {shown(url)}: {problem}")
    except StorageError:
        raise
    except Exception as exc:
        reason = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise StorageError(
            f"cannot open the database {shown(url)}: {reason[0] if reason else type(exc).__name__}"
        ) from exc
    return db


def shown(url: str) -> str:
    """A database URL as it may be printed (no password)."""
    return make_url(url).render_as_string(hide_password=True)


def statuses_of(conn: Connection, ids: list[str]) -> dict[str, str]:
    """The status of each of ``ids`` that is a stored table."""
    if not ids:
        return {}
    t = schema.tables
    return {r.id: r.status for r in conn.execute(select(t.c.id, t.c.status).where(t.c.id.in_(ids)))}


def table_ids(conn: Connection, status: str) -> list[str]:
    t = schema.tables
    return [r.id for r in conn.execute(select(t.c.id).where(t.c.status == status))]


# --- the writer thread --------------------------------------------------------------------


class Database:
    """Runs jobs on one writer thread, committing each batch of waiting jobs at once.

    Jobs queue up on the event loop; at most one batch is being written at a
    time, and every job that arrives meanwhile goes into the next batch (group
    commit).  Under load batches grow, so the cost per action falls, and the
    loop hands work to the thread once per batch rather than once per job.
    """

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self._executor: ThreadPoolExecutor | None = None
        self._pending: list[tuple[Job, asyncio.Future[Any]]] = []
        self._flushing = False
        self._flush_task: asyncio.Task[None] | None = None
        self._checkpointer: threading.Thread | None = None
        self._stop = threading.Event()
        self.commits = 0
        self.upgraded_from: Schema | None = None
        """Where the schema stood before :func:`open_database` migrated it."""

    def migrate(self) -> Schema:
        """Bring the schema up to date; returns where it stood before."""
        return migrate(self.engine)

    def schema(self) -> Schema:
        """Where the database's schema stands (read now)."""
        with self.engine.connect() as conn:
            return schema_of(conn)

    def start(self) -> None:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tt-db")
        if self.engine.dialect.name == "sqlite" and self._checkpointer is None:
            self._stop.clear()
            self._checkpointer = threading.Thread(
                target=self._checkpoints, name="tt-db-checkpoint", daemon=True
            )
            self._checkpointer.start()

    def _checkpoints(self) -> None:
        """Copy the write-ahead log into the database file about once a second.

        A checkpoint waits for the disk (fsync); done here, it never holds up
        the writer, whose commits in WAL mode do not wait for the disk.
        """
        while not self._stop.wait(1.0):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy database: try again next time
                continue

    def stop(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
            self._checkpointer = None
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        self.engine.dispose()

    async def run(self, job: Callable[[Connection], T]) -> T:
        """Run ``job`` in the writer thread; returns once its transaction is committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append((job, future))
        if not self._flushing:
            self._flushing = True
            self._flush_task = loop.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                jobs = [job for job, _future in batch]
                if self._executor is None:
                    outcomes: list[Outcome] = [(None, RuntimeError("database stopped"))] * len(jobs)
                else:
                    outcomes = await loop.run_in_executor(self._executor, self._write, jobs)
                settle([future for _job, future in batch], outcomes)
        finally:
            self._flushing = False

    def run_now(self, job: Callable[[Connection], T]) -> T:
        """Run ``job`` in the calling thread (start-up, tests)."""
        with self.engine.begin() as conn:
            return job(conn)

    def _write(self, jobs: list[Job]) -> list[Outcome]:
        """One transaction for the whole batch; if it fails, each job alone."""
        if len(jobs) > 1:
            try:
                with self.engine.begin() as conn:
                    insert_actions(
                        conn, [job.params for job in jobs if isinstance(job, AddActions)]
                    )
                    results = [None if isinstance(job, AddActions) else job(conn) for job in jobs]
                self.commits += 1
                return [(value, None) for value in results]
            except Exception:
                pass  # find the failing job below
        outcomes: list[Outcome] = []
        for job in jobs:
            try:
                with self.engine.begin() as conn:
                    value = job(conn)
                self.commits += 1
                outcomes.append((value, None))
            except Exception as exc:
                outcomes.append((None, exc))
        return outcomes
