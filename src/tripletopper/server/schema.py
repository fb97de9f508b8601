"""The card room's database schema (SQLAlchemy Core), shared by storage and migrations.

Three tables hold everything needed to rebuild any game by replay:

- ``tables``: one row per card table (game, players, options, seed, clock, status);
- ``seats``: who holds each seat (a name, a bot spec or the SHA-256 of a human's
  secret token - never the token itself); a bot's seat keeps the hash of the person
  who left it (they may take it back), and a rematch's seat offered to a person who
  has not answered yet is ``invited``;
- ``actions``: every applied action in wire form, numbered from 0, with its seat,
  the time it was applied (the clocks of timed phases resume from it) and whether
  the seat's turn clock played it.

and ``chat`` holds what people said at each table, with the game's version then;
``reviews`` the post-game review of a seat, once computed (JSON); ``leases`` which
process runs each table when the room runs as several (:mod:`.leases`).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    false,
)

metadata = MetaData()

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON object
    Column("seed", BigInteger, nullable=False),
    Column("decks", Text, nullable=True),  # JSON list of card orders (tests and puzzles)
    Column("setup", Text, nullable=True),  # JSON object of setup values
    Column("status", String(16), nullable=False),  # open, playing, finished
    Column("turn_clock", Float, nullable=True),  # seconds per turn, None = no clock
    Column("on_timeout", String(16), nullable=False),  # default or bot
    Column("created_at", Float, nullable=False),
    Column("started_at", Float, nullable=True),
    Column("finished_at", Float, nullable=True),
    Column("results", Text, nullable=True),  # JSON of Results.to_json()
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("hints", Boolean, nullable=False, server_default=false()),  # show the game's hints
)
Index("ix_tables_status", tables.c.status)
Index("ix_tables_finished_at", tables.c.finished_at)  # the lobby's recently finished games

seats = Table(
    "seats",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),  # human, bot or invited
    Column("bot", String(128), nullable=True),
    Column("token_hash", String(64), nullable=True),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # the state version the action was applied to
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # JSON wire form
    Column("at", Float, nullable=False),
    Column("by_clock", Boolean, nullable=False, server_default=false()),  # the turn clock's
)

chat = Table(
    "chat",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),  # numbered from 0 at each table
    Column("seat", Integer, nullable=True),  # None: a spectator
    Column("name", String(64), nullable=False),  # the seat's name or "Spectator N"
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("version", Integer, nullable=False),  # the game's version when it was said
)

reviews = Table(
    "reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("review", Text, nullable=False),  # JSON, as the API answers it
    Column("at", Float, nullable=False),
)

leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(64), nullable=False),  # the process that runs the table
    Column("expires", Float, nullable=False),  # epoch seconds, by the database's clock
)
