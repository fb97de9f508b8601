"""Table leases: a table is run by one process at a time, even when many race to take it."""

from __future__ import annotations

import threading
import time

import pytest
from alembic.config import Config
from sqlalchemy import Connection, create_engine
from sqlalchemy.exc import DBAPIError

from tripletopper.server import leases, migration, schema, storage
from tripletopper.server.storage import ActionRow, TableRow, open_database


def _table(db: storage.Database, table_id: str, status: str = "playing") -> None:
    row = TableRow(
        id=table_id,
        game="thirty-two",
        players=2,
        options={},
        seed=1,
        status=status,
        created_at=0.0,
        turn_clock=None,
        on_timeout="default",
        hints=False,
        decks=None,
        setup={},
        started_at=0.0,
        rematch_of=None,
        seats={},
    )
    db.run_now(lambda conn: storage.insert_table(conn, row))


def test_a_lease_is_taken_renewed_released_and_taken_over_once_expired(tmp_path):
    db = open_database(storage.sqlite_url(tmp_path))
    _table(db, "t1")
    _table(db, "t2")
    _table(db, "done", status="finished")
    run = db.run_now
    assert sorted(run(leases.orphans)) == ["t1", "t2"]
    assert run(lambda c: leases.take(c, "t1", "A", ttl=60)) is not None
    assert run(lambda c: leases.take(c, "t1", "B", ttl=60)) is None  # A holds it
    assert run(lambda c: leases.owner_of(c, "t1")) == "A"
    assert run(leases.orphans) == ["t2"]
    assert run(lambda c: leases.take(c, "t1", "A", ttl=60)) is not None  # its own: renewed
    assert run(lambda c: leases.take(c, "t2", "B", ttl=-1)) is not None  # expired at once
    assert run(lambda c: leases.owner_of(c, "t2")) is None
    assert run(lambda c: leases.renew(c, "A")) == {"t1"}
    assert run(lambda c: leases.take(c, "t2", "A", ttl=60)) is not None  # B's had expired
    assert run(lambda c: leases.renew(c, "B")) == set()  # B learns it lost t2
    assert run(lambda c: leases.renew(c, "A")) == {"t1", "t2"}
    run(lambda c: leases.release(c, "B", ["t1"]))  # not B's: nothing happens
    assert run(lambda c: leases.owner_of(c, "t1")) == "A"
    run(lambda c: leases.release(c, "A", ["t1"]))
    assert run(lambda c: leases.owner_of(c, "t1")) is None
    assert run(lambda c: leases.take(c, "t1", "B", ttl=60)) is not None
    db.stop()


def test_a_lease_is_handed_over_only_by_its_unexpired_holder(tmp_path):
    db = open_database(storage.sqlite_url(tmp_path))
    _table(db, "t")
    run = db.run_now
    assert run(lambda c: leases.hand_over(c, "t", "A", "B")) is False  # nobody holds it
    assert run(lambda c: leases.take(c, "t", "A", ttl=60)) is not None
    assert run(lambda c: leases.hand_over(c, "t", "B", "C")) is False  # not B's to give
    assert run(lambda c: leases.owner_of(c, "t")) == "A"
    assert run(lambda c: leases.hand_over(c, "t", "A", "B", ttl=60)) is True
    assert run(lambda c: leases.owner_of(c, "t")) == "B"
    assert run(lambda c: leases.renew(c, "A")) == set()  # A learns it is no longer its
    assert run(lambda c: leases.take(c, "t", "A", ttl=60)) is None  # nor can take it back
    assert run(lambda c: leases.take(c, "t", "B", ttl=-1)) is not None  # B's expires...
    assert run(lambda c: leases.hand_over(c, "t", "B", "C")) is False  # ...and is not given
    assert run(lambda c: leases.owner_of(c, "t")) is None
    db.stop()


def test_racing_takeovers_never_leave_a_lease_with_two_holders(postgres_url):
    """Eight connections race for one lease, round after round, as it expires (every
    other round) and is renewed: each round exactly one wins, and the holder of an
    unexpired lease keeps it."""
    db = open_database(postgres_url)
    _table(db, "raced")
    db.stop()
    racers, rounds = 8, 40
    winners: list[list[str]] = [[] for _ in range(rounds)]
    barrier = threading.Barrier(racers)
    lock = threading.Lock()

    def racer(name: str) -> None:
        engine = create_engine(postgres_url, poolclass=None)
        with engine.connect() as conn:
            for n in range(rounds):
                barrier.wait()
                with conn.begin():
                    expiry = leases.take(conn, "raced", name, ttl=60)
                if expiry is not None:
                    with lock:
                        winners[n].append(name)
                if barrier.wait() == 0 and n % 2 == 1:  # one of them lets it expire
                    with conn.begin():
                        conn.execute(schema.leases.update().values(expires=0.0))
                barrier.wait()
        engine.dispose()

    threads = [threading.Thread(target=racer, args=(f"p{i}",)) for i in range(racers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [len(w) for w in winners] == [1] * rounds
    for n in range(1, rounds, 2):  # no expiry in between: only the holder could renew
        assert winners[n] == winners[n - 1]
    assert len({w[0] for w in winners}) > 1  # the lease did change hands


def test_a_process_frozen_inside_a_transaction_does_not_hold_up_the_next_owner(postgres_url):
    """A frozen (not dead) process's open transaction is ended by PostgreSQL within half
    a lease, so the process that takes its table over stores the next action unhindered,
    and the frozen one's commit fails when it wakes."""
    db = open_database(postgres_url)
    _table(db, "t")
    frozen = storage.make_engine(postgres_url).connect()
    transaction = frozen.begin()
    storage.add_action(frozen, "t", ActionRow(0, 0, {"type": "draw"}, 1.0))
    time.sleep(storage.IDLE_IN_TRANSACTION_MS / 1000 + 0.5)

    def next_owner(conn: Connection) -> None:
        conn.exec_driver_sql("SET LOCAL lock_timeout = '2s'")  # would wait on the lock
        storage.add_action(conn, "t", ActionRow(0, 1, {"type": "pass"}, 2.0))

    db.run_now(next_owner)
    with pytest.raises(DBAPIError):
        transaction.commit()
    frozen.close()
    row = db.run_now(lambda conn: storage.load_table(conn, "t"))
    assert row is not None and [a.seat for a in row.actions] == [1]
    db.stop()


def test_a_migration_slowed_between_its_statements_is_not_ended_as_idle(postgres_url, monkeypatch):
    """The idle limit is for the room's millisecond transactions: a migration on a loaded
    machine (once, in CI, over 3 s between two of its statements) still completes."""
    monkeypatch.setattr(storage, "IDLE_IN_TRANSACTION_MS", 200)
    upgrade = migration.command.upgrade

    def slow_upgrade(config: Config, revision: str) -> None:
        config.attributes["connection"].exec_driver_sql("SELECT 1")  # the transaction is open
        time.sleep(0.6)  # slow Python work between two statements
        upgrade(config, revision)

    monkeypatch.setattr(migration.command, "upgrade", slow_upgrade)
    db = open_database(postgres_url)
    _table(db, "t")
    assert db.run_now(lambda conn: storage.load_table(conn, "t")) is not None
    db.stop()
