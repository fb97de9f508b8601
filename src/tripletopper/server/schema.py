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

Accounts are optional: ``users`` holds each account (its public name, the name's
lookalike key, the Argon2 hash of its password) and ``sessions`` the SHA-256 of each
signed-in browser's session token.  A seat a signed-in person holds names their
account (``seats.user_id``); guests' seats do not.

Bot accounts are ``users`` with an ``owner_id`` (the person who made them) and no
password; they connect with API tokens, of which ``bot_tokens`` holds the SHA-256,
expiry and revocation.  A seat a bot account holds is marked ``seats.bot_account``.

Rated games: ``ratings`` holds each player's current OpenSkill rating per game (a
player is an account, ``u:<id>``, or a bot level, ``b:<spec>``), and ``rating_changes``
each rated game's place, rating before and after for every player in it.
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
    Column("rated", Boolean, nullable=True),  # None: decided at the start (everyone signed in)
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
    Column("user_id", Integer, nullable=True),  # the account of the person (None: a guest)
    Column("forfeit", Boolean, nullable=False, server_default=false()),  # left a rated game
    Column("bot_account", Boolean, nullable=False, server_default=false()),  # a bot plays it
    Column("device_keys", Text, nullable=True),  # other devices: "KEY:SESSION" hashes
)
Index("ix_seats_user_id", seats.c.user_id)

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

users = Table(
    "users",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(64), nullable=False),  # public, as people see it
    Column("name_key", String(128), nullable=False, unique=True),  # names.name_key: lookalikes
    Column("password_hash", String(255), nullable=True),  # Argon2 (PHC string)
    Column("created_at", Float, nullable=False),
    Column("owner_id", Integer, nullable=True),  # a bot account: the person who made it
)

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # SHA-256 of the cookie's token
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
)
Index("ix_sessions_user_id", sessions.c.user_id)

ratings = Table(
    "ratings",
    metadata,
    Column("game", String(64), primary_key=True),
    Column("player", String(160), primary_key=True),  # u:<user id> or b:<bot spec>
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", Float, nullable=False),
)

rating_changes = Table(
    "rating_changes",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("player", String(160), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("place", Float, nullable=False),  # 1 = first; a shared place is the mean
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", Float, nullable=False),
)
Index("ix_rating_changes_player", rating_changes.c.player, rating_changes.c.at)

bot_tokens = Table(
    "bot_tokens",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", Integer, ForeignKey("users.id"), nullable=False),  # the bot account
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=True),  # None: until revoked
    Column("revoked_at", Float, nullable=True),
)
Index("ix_bot_tokens_user_id", bot_tokens.c.user_id)

leases = Table(
    "leases",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("owner", String(64), nullable=False),  # the process that runs the table
    Column("expires", Float, nullable=False),  # epoch seconds, by the database's clock
)
