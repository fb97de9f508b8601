"""Optional accounts at the card room: users, passwords, sign-in sessions, CSRF tokens.

Guests need none of this: a seat is held by its secret seat token as before.  A
person who registers gets an account whose public name follows the seat-name
rules (:mod:`.names`: normalized, reserved names and lookalikes refused, and unique
up to lookalikes across the room).  Passwords are hashed with Argon2id
(``argon2-cffi``); hashing runs off the event loop.

A signed-in browser holds a random session token in an HttpOnly, SameSite=Lax
cookie (Secure over HTTPS); only its SHA-256 is stored.  A write authenticated
by that cookie must also carry ``X-CSRF-Token``: a value derived from the
session token (so another site, which can neither read the cookie nor the
answers of this origin, cannot produce it).  Sign-in and registration, which no
cookie authenticates, refuse a request whose ``Origin`` is another site.

The functions taking a ``Connection`` are jobs for the database's writer thread.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, and_, exists, select
from starlette.requests import HTTPConnection

from tripletopper.server import names, schema
from tripletopper.server.tables import ClientError, hash_token, keep_devices

COOKIE = "tt_session"
"""The session cookie's name."""
CSRF_HEADER = "X-CSRF-Token"
MIN_PASSWORD, MAX_PASSWORD = 8, 256
"""Characters a password has (longer ones would only cost hashing time)."""
DELETED = "Deleted player"
"""The name a deleted account's games keep (reserved: see :mod:`.names`)."""

_hasher = PasswordHasher()
_dummy_hash: str | None = None


@dataclass(frozen=True)
class User:
    id: int
    name: str
    created_at: float

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "created_at": self.created_at}


@dataclass(frozen=True)
class Session:
    """A signed-in request: its account and its session token (the cookie's value)."""

    user: User
    token: str


def account_name(name: object) -> str:
    """A new account's public name in canonical form, or ``bad_name``."""
    try:
        return names.clean_name(name)
    except names.BadName as exc:
        raise ClientError("bad_name", str(exc)) from None


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise ClientError(
            "bad_password", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    return password


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hasher.hash, password)


async def password_matches(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one hashed in ``stored``.  None (no such account, or a
    bot account, which has no password) is checked against a dummy hash all the same, so
    the answer takes as long, and is no."""
    global _dummy_hash
    if _dummy_hash is None:
        _dummy_hash = await hash_password(secrets.token_urlsafe(16))
    try:
        matches = await asyncio.to_thread(_hasher.verify, stored or _dummy_hash, password)
    except (VerificationError, InvalidHashError):
        return False
    return matches and stored is not None


def csrf_token(session_token: str) -> str:
    """The CSRF token that goes with a session (derived from its secret token)."""
    return hashlib.sha256(b"tt-csrf:" + session_token.encode()).hexdigest()


def check_csrf(request: HTTPConnection, session_token: str) -> None:
    sent = request.headers.get(CSRF_HEADER, "")
    if not secrets.compare_digest(sent.encode(), csrf_token(session_token).encode()):
        raise ClientError(
            "csrf",
            f"a signed-in change needs the {CSRF_HEADER} header this page was given "
            "(reload the page)",
        )


def check_same_site(request: HTTPConnection) -> None:
    """Refuse a sign-in or registration sent from a page of another site (login CSRF)."""
    origin = request.headers.get("origin")
    if origin and urlsplit(origin).netloc != request.headers.get("host"):
        raise ClientError("csrf", "signing in from another site's page is refused")


def session_token(request: HTTPConnection) -> str | None:
    return request.cookies.get(COOKIE) or None


# --- jobs -----------------------------------------------------------------------------------


def _user(r: Any) -> User:
    return User(r.id, r.name, r.created_at)


def insert_user(
    conn: Connection,
    name: str,
    password_hash: str | None,
    now: float,
    owner_id: int | None = None,
) -> User:
    """A new account (``owner_id``: a bot account of that person, with no password), or
    ``name_taken`` if its name (up to lookalikes) is in use."""
    u = schema.users
    key = names.name_key(name)
    # One writer thread runs every job: nothing registers between this look and the insert.
    if conn.execute(select(u.c.id).where(u.c.name_key == key)).first() is not None:
        raise ClientError("name_taken", f"the name {name!r} is taken: choose another")
    result = conn.execute(
        u.insert().values(
            name=name,
            name_key=key,
            password_hash=password_hash,
            created_at=now,
            owner_id=owner_id,
        )
    )
    made = result.inserted_primary_key
    assert made is not None
    return User(int(made[0]), name, now)


def user_by_name(conn: Connection, name: str) -> tuple[User, str | None] | None:
    """The account of a name (as typed: normalized and folded) and its password hash."""
    u = schema.users
    r = conn.execute(select(u).where(u.c.name_key == names.name_key(name))).first()
    return None if r is None else (_user(r), r.password_hash)


def password_hash_of(conn: Connection, user_id: int) -> str | None:
    u = schema.users
    return conn.execute(select(u.c.password_hash).where(u.c.id == user_id)).scalar()


def add_session(conn: Connection, user_id: int, token: str, now: float, days: float) -> None:
    conn.execute(
        schema.sessions.insert().values(
            token_hash=hash_token(token),
            user_id=user_id,
            created_at=now,
            expires_at=now + days * 86400,
        )
    )


def session_user(conn: Connection, token: str, now: float) -> User | None:
    """The account a live session token belongs to (None: unknown or expired)."""
    u, s = schema.users, schema.sessions
    query = select(u).join(s, s.c.user_id == u.c.id)
    r = conn.execute(query.where(s.c.token_hash == hash_token(token), s.c.expires_at > now))
    row = r.first()
    return None if row is None else _user(row)


def delete_session(conn: Connection, token: str) -> None:
    s = schema.sessions
    conn.execute(s.delete().where(s.c.token_hash == hash_token(token)))


def set_password(
    conn: Connection, user_id: int, password_hash: str, keep: str
) -> list[tuple[str, str]]:
    """A new password hash; every session but ``keep`` (a token) is signed out, and the
    seat tokens resumed on those sessions' devices are revoked (:func:`.tables.keep_devices`;
    each seat's own token stays).  Returns the tables (id, status) whose seats changed."""
    u, s, seats, t = schema.users, schema.sessions, schema.seats, schema.tables
    conn.execute(u.update().where(u.c.id == user_id).values(password_hash=password_hash))
    conn.execute(s.delete().where(s.c.user_id == user_id, s.c.token_hash != hash_token(keep)))
    query = select(seats, t.c.status).join(t, t.c.id == seats.c.table_id)
    changed = {}
    for r in conn.execute(
        query.where(seats.c.user_id == user_id, seats.c.device_keys.is_not(None))
    ):
        kept = keep_devices(tuple(r.device_keys.split()), keep)
        if len(kept) == len(r.device_keys.split()):
            continue
        at = and_(seats.c.table_id == r.table_id, seats.c.seat == r.seat)
        conn.execute(seats.update().where(at).values(device_keys=" ".join(kept) or None))
        changed[r.table_id] = r.status
    return list(changed.items())


def live_tables(conn: Connection, user_id: int) -> list[str]:
    """The open or running tables where the account or one of its bot accounts holds a seat."""
    u, seats, t = schema.users, schema.seats, schema.tables
    theirs = select(u.c.id).where((u.c.id == user_id) | (u.c.owner_id == user_id))
    query = select(seats.c.table_id).join(t, t.c.id == seats.c.table_id).distinct()
    query = query.where(seats.c.user_id.in_(theirs), t.c.status.in_(("open", "playing")))
    return [r.table_id for r in conn.execute(query)]


def delete_user(conn: Connection, user_id: int) -> list[int]:
    """Remove an account, its sessions, API tokens, ratings and bot accounts; its seats and
    chat lines are kept under :data:`DELETED`, linked to nobody.  Returns the ids removed
    (the account's and its bot accounts')."""
    u, s, seats, chat = schema.users, schema.sessions, schema.seats, schema.chat
    gone = [user_id]
    for (bot_id,) in conn.execute(select(u.c.id).where(u.c.owner_id == user_id)).all():
        gone += delete_user(conn, bot_id)
    tokens = schema.bot_tokens
    conn.execute(tokens.delete().where(tokens.c.user_id == user_id))
    mine = exists().where(
        and_(seats.c.table_id == chat.c.table_id, seats.c.seat == chat.c.seat),
        seats.c.user_id == user_id,
    )
    conn.execute(chat.update().where(mine).values(name=DELETED))
    conn.execute(
        seats.update()
        .where(seats.c.user_id == user_id)
        .values(name=DELETED, user_id=None, device_keys=None)  # its other devices' keys too
    )
    conn.execute(s.delete().where(s.c.user_id == user_id))
    r = schema.ratings  # off the leaderboards; each game's changes stay with the game
    conn.execute(r.delete().where(r.c.player == f"u:{user_id}"))
    conn.execute(u.delete().where(u.c.id == user_id))
    return gone
