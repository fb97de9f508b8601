"""Bot accounts: bots written anywhere, playing at the room under their own name and rating.

A signed-in person makes a bot account (``POST /api/bots``) and API tokens for it
(shown once; only their SHA-256 is stored; each may expire and be revoked).  The
bot connects to ``/ws/bot`` and says ``hello`` with its token; from then on it is
*online*: "Add bot" at a table lists it, and adding it sends it an ``invite`` with
a seat token.  It then plays that seat through the table's websocket exactly like
a person (docs/bots-api.md).  An API token is no session: it opens no account
page and takes no seat by itself; a person's session or seat token never acts for
a bot's seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass
from functools import partial
from typing import Any

import orjson
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field
from sqlalchemy import Connection, select
from starlette.websockets import WebSocket

from tripletopper.server import accounts, schema
from tripletopper.server.account_api import Accounts
from tripletopper.server.accounts import User
from tripletopper.server.guards import AddressLimits, client_address
from tripletopper.server.protocol import Connection as TableConnection
from tripletopper.server.tables import ClientError, Room, Table, encode, hash_token, new_token

ACCOUNT_PREFIX = "account:"
"""An "Add bot" spec naming a connected bot account (``account:Deep Blue``)."""
MAX_BOTS = 10
"""Bot accounts one person may have..."""
MAX_TOKENS = 10
"""...and live API tokens per bot account."""
MAX_TOKEN_DAYS = 365
HELLO_SECONDS = 10.0
"""Seconds a bot connection has to say hello with its token."""


class NewBot(BaseModel):
    name: str = Field(description="the bot account's public name (the seat-name rules apply)")


class NewToken(BaseModel):
    days: int | None = Field(
        None, ge=1, le=MAX_TOKEN_DAYS, description="days until it expires (null: never)"
    )


@dataclass(frozen=True)
class TokenInfo:
    id: int
    created_at: float
    expires_at: float | None
    revoked_at: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "created_at": self.created_at,
            "expires_at": self.expires_at,
            "revoked_at": self.revoked_at,
        }


# --- jobs ------------------------------------------------------------------------------------


def insert_bot(conn: Connection, name: str, owner_id: int, now: float) -> User:
    u = schema.users
    owned = conn.execute(select(u.c.id).where(u.c.owner_id == owner_id)).all()
    if len(owned) >= MAX_BOTS:
        raise ClientError("too_many_bots", f"a person may have {MAX_BOTS} bot accounts")
    return accounts.insert_user(conn, name, None, now, owner_id=owner_id)


def bots_of(conn: Connection, owner_id: int) -> list[dict[str, Any]]:
    u, t = schema.users, schema.bot_tokens
    out = []
    for bot in conn.execute(select(u).where(u.c.owner_id == owner_id).order_by(u.c.id)):
        tokens = conn.execute(select(t).where(t.c.user_id == bot.id).order_by(t.c.id))
        out.append(
            {
                "name": bot.name,
                "created_at": bot.created_at,
                "tokens": [
                    TokenInfo(r.id, r.created_at, r.expires_at, r.revoked_at).to_json()
                    for r in tokens
                ],
            }
        )
    return out


def owned_bot(conn: Connection, owner_id: int, name: str) -> User:
    """The bot account ``name`` of this person, or ``no_bot``."""
    found = accounts.user_by_name(conn, name)
    u = schema.users
    if found is not None:
        owner = conn.execute(select(u.c.owner_id).where(u.c.id == found[0].id)).scalar()
        if owner == owner_id:
            return found[0]
    raise ClientError("no_bot", "you have no bot account of that name")


def add_token(conn: Connection, bot_id: int, token: str, now: float, days: int | None) -> int:
    t = schema.bot_tokens
    live = conn.execute(select(t.c.id).where(t.c.user_id == bot_id, t.c.revoked_at.is_(None))).all()
    if len(live) >= MAX_TOKENS:
        raise ClientError(
            "too_many_tokens", f"a bot has at most {MAX_TOKENS} live tokens: revoke one first"
        )
    expires = None if days is None else now + days * 86400
    values = {
        "user_id": bot_id,
        "token_hash": hash_token(token),
        "created_at": now,
        "expires_at": expires,
    }
    result = conn.execute(t.insert().values(**values))
    made = result.inserted_primary_key
    assert made is not None
    return int(made[0])


def revoke_token(conn: Connection, bot_id: int, token_id: int, now: float) -> None:
    t = schema.bot_tokens
    where = (t.c.id == token_id) & (t.c.user_id == bot_id)
    if conn.execute(select(t.c.id).where(where)).first() is None:
        raise ClientError("no_token", "this bot has no such token")
    conn.execute(t.update().where(where, t.c.revoked_at.is_(None)).values(revoked_at=now))


def token_bot(conn: Connection, token: str, now: float) -> tuple[User, int]:
    """The bot account of a live API token and the token's id, or why not."""
    t, u = schema.bot_tokens, schema.users
    row = conn.execute(select(t).where(t.c.token_hash == hash_token(token))).first()
    if row is None:
        raise ClientError("bad_token", "that is not a bot token of this room")
    if row.revoked_at is not None:
        raise ClientError("revoked", "this bot token was revoked")
    if row.expires_at is not None and row.expires_at <= now:
        raise ClientError("expired_token", "this bot token has expired: make a new one")
    bot = conn.execute(select(u).where(u.c.id == row.user_id)).one()
    return User(bot.id, bot.name, bot.created_at), int(row.id)


# --- the bots' own websocket ---------------------------------------------------------------


class BotConnection(TableConnection):
    """A bot account at ``/ws/bot``: says hello with its API token, then hears ``invite``
    messages (and may send ``ping``).  The table connection's reading loop checks every
    message's size and rate first."""

    def __init__(self, ws: WebSocket, room: Room) -> None:
        super().__init__(ws, room, "")
        self.name = ""
        self.token_id = -1
        self.user_id: int | None = None

    def end(self, code: str, message: str) -> None:
        self.error(code, message)
        self.dropped = True
        self.queue.put_nowait(None)

    async def serve(self) -> None:
        loop = asyncio.get_running_loop()
        timer = loop.call_later(HELLO_SECONDS, self._no_hello)
        try:
            await super().serve()
        finally:
            timer.cancel()
            if self.user_id is not None and self.room.bot_links.get(self.user_id) is self:
                del self.room.bot_links[self.user_id]
                self.room.table_changed()
                if self.room.cluster is not None:
                    self.room.spawn(self.room.cluster.bot_offline(self.user_id))

    def _no_hello(self) -> None:
        if self.user_id is None and not self.dropped:
            self.end("malformed", f"say hello with your bot token within {HELLO_SECONDS:g} s")

    async def handle(self, text: str) -> None:
        try:
            data = orjson.loads(text)
        except (ValueError, RecursionError):
            data = None
        if self.user_id is None:
            await self._hello(data)
        elif isinstance(data, dict) and data.get("type") == "ping":
            self.send({"type": "pong"})
        elif isinstance(data, dict) and data.get("type") in ("accept", "decline"):
            await self._answer(data.get("table"), data["type"] == "accept")
        else:
            self.error(
                "bad_type", "this socket hears invitations; it reads ping, accept and decline"
            )

    async def _answer(self, table_id: object, accept: bool) -> None:
        """Accept (then the seat's ``invite`` follows) or decline a rematch's seat."""
        assert self.user_id is not None
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            self.error("malformed", "name the rematch's table: its `table` in the offer")
            return
        try:
            table = await self.room.get(table_id)
            seat, token = await table.answer_as_bot_account(self.user_id, accept)
        except ClientError as exc:
            self.error(exc.code, exc.message)
            return
        if token is None:
            self.send({"type": "declined", "table": table.id, "seat": seat})
        else:
            self.push(invitation(table, seat, token))

    async def _hello(self, data: object) -> None:
        token = data.get("token") if isinstance(data, dict) else None
        if not isinstance(data, dict) or data.get("type") != "hello" or not isinstance(token, str):
            self.end("malformed", 'say {"type": "hello", "token": YOUR_BOT_TOKEN} first')
            return
        try:
            job = partial(token_bot, token=token[:100], now=time.time())
            user, self.token_id = await self.room.db.run(job)
        except ClientError as exc:
            self.end(exc.code, exc.message)
            return
        if self.dropped:  # closed meanwhile
            return
        self.user_id, self.name = user.id, user.name
        old = self.room.bot_links.get(user.id)
        self.room.bot_links[user.id] = self
        if old is not None:
            old.end("replaced", "this bot connected again elsewhere")
        if self.room.cluster is not None:  # online at every process; replaced at any
            with contextlib.suppress(Exception):
                await self.room.cluster.bot_online(user.id, user.name)
        self.room.table_changed()
        self.send({"type": "welcome", "bot": user.name})


async def invite(room: Room, table: Table, seat: object, by: str | None, name: str) -> None:
    """Seat the online bot account ``name`` at ``table`` and send it the seat token."""
    table.require_seat(by)  # only someone seated invites (checked again under the lock)
    online = await room.bots_online()
    user_id = next((uid for uid, bot in online.items() if bot.casefold() == name.casefold()), None)
    if user_id is None:
        raise ClientError("bot_offline", f"no bot account {name[:40]!r} is connected now")
    token = await table.seat_bot_account(seat, by, user_id, online[user_id])
    assert isinstance(seat, int)  # (seat_bot_account refuses any other)
    await room.push_to_bot(user_id, invitation(table, seat, token))


def invitation(table: Table, seat: int, token: str) -> str:
    """The ``invite`` a bot account is sent to play ``seat`` of ``table`` with ``token``."""
    row = table.row
    return encode(
        {
            "type": "invite",
            "table": table.id,
            "seat": seat,
            "game": row.game,
            "players": row.players,
            "token": token,
            "url": f"/ws/tables/{table.id}",
            "rematch_of": row.rematch_of,
        }
    )


def router(accounts_: Accounts, limits: AddressLimits) -> APIRouter:
    api = APIRouter(tags=["bots"])

    @api.post("/api/bots", status_code=201)
    async def make_bot(body: NewBot, request: Request) -> Any:
        """Make a bot account (signed in); its name follows the seat-name rules."""
        signed = await accounts_.require(request)
        limits.hit("register", client_address(request))
        name = accounts.account_name(body.name)
        job = partial(insert_bot, name=name, owner_id=signed.user.id, now=time.time())
        bot = await accounts_.db.run(job)
        return {"bot": {"name": bot.name, "created_at": bot.created_at, "tokens": []}}

    @api.get("/api/bots")
    async def my_bots(request: Request) -> Any:
        """Your bot accounts with their tokens (never the tokens' values) and who is online."""
        signed = await accounts_.require(request, write=False)
        bots = await accounts_.db.run(partial(bots_of, owner_id=signed.user.id))
        online = set((await accounts_.room().bots_online()).values())
        return {"bots": [{**b, "online": b["name"] in online} for b in bots]}

    @api.post("/api/bots/{name}/tokens", status_code=201)
    async def make_token(name: str, body: NewToken, request: Request) -> Any:
        """A new API token for your bot account: the answer is the only time it is shown."""
        signed = await accounts_.require(request)
        bot = await accounts_.db.run(partial(owned_bot, owner_id=signed.user.id, name=name))
        token = new_token()
        job = partial(add_token, bot_id=bot.id, token=token, now=time.time(), days=body.days)
        token_id = await accounts_.db.run(job)
        return {"id": token_id, "token": token, "bot": bot.name}

    @api.delete("/api/bots/{name}/tokens/{token_id}")
    async def revoke(name: str, token_id: int, request: Request) -> Any:
        """Revoke a token of your bot account: a connection made with it is closed."""
        signed = await accounts_.require(request)
        bot = await accounts_.db.run(partial(owned_bot, owner_id=signed.user.id, name=name))
        job = partial(revoke_token, bot_id=bot.id, token_id=token_id, now=time.time())
        await accounts_.db.run(job)
        accounts_.room().bot_left(bot.id, token_id)
        return {"revoked": token_id}

    @api.get("/api/bots/online")
    async def online(request: Request) -> Any:
        """The bot accounts connected now (what "Add bot" offers next to the built-in bots)."""
        limits.hit("lobby", client_address(request))
        return {"bots": sorted((await accounts_.room().bots_online()).values())}

    return api
