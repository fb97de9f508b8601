"""The card room's account API: register, sign in and out, change the password, delete.

Mounted by :func:`tripletopper.server.app.create_app` under ``/api/account`` and
``/api/session`` (tag ``account`` in the OpenAPI schema).  :class:`Accounts` also
tells the table routes who is signed in (:meth:`Accounts.session`), refusing a
forged or expired session cookie and a cookie-authenticated write without its
CSRF token.  The rules are in :mod:`.accounts`; the limits in docs/protocol.md.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from tripletopper.server import accounts, names
from tripletopper.server.accounts import COOKIE, DELETED, Session, User
from tripletopper.server.guards import AddressLimits, client_address
from tripletopper.server.storage import Database
from tripletopper.server.tables import OPEN, PLAYING, ClientError, Room, new_token

log = logging.getLogger("tripletopper.server")


class Credentials(BaseModel):
    name: str = Field(description="the account's public name (the seat-name rules apply)")
    password: str = Field(
        description=f"{accounts.MIN_PASSWORD} to {accounts.MAX_PASSWORD} characters"
    )


class NewPassword(BaseModel):
    password: str = Field(description="the current password")
    new_password: str = Field(description="the new one")


class Confirm(BaseModel):
    password: str = Field(description="the current password, to confirm")


class Accounts:
    """Who a request is signed in as, and the account routes."""

    def __init__(
        self, room: Callable[[], Room], limits: AddressLimits, session_days: float
    ) -> None:
        self.room = room
        self.limits = limits
        self.session_days = session_days

    @property
    def db(self) -> Database:
        return self.room().db

    async def session(self, request: Request, *, write: bool) -> Session | None:
        """The session of a request's cookie (None: no cookie, a guest).  A cookie that
        names no live session is ``bad_session`` (401); a ``write`` without the session's
        CSRF token is ``csrf`` (403)."""
        token = accounts.session_token(request)
        if token is None:
            return None
        user = None
        if len(token) <= 64:
            user = await self.db.run(partial(accounts.session_user, token=token, now=time.time()))
        if user is None:
            raise ClientError(
                "bad_session",
                "your sign-in is not valid (expired, signed out or forged): "
                "sign in again, or sign out to play as a guest",
            )
        if write:
            accounts.check_csrf(request, token)
        return Session(user, token)

    async def require(self, request: Request, *, write: bool = True) -> Session:
        found = await self.session(request, write=write)
        if found is None:
            raise ClientError("not_signed_in", "sign in first")
        return found

    async def _start_session(self, request: Request, response: Response, user: User) -> Any:
        token = new_token()
        job = partial(
            accounts.add_session,
            user_id=user.id,
            token=token,
            now=time.time(),
            days=self.session_days,
        )
        await self.db.run(job)
        response.set_cookie(
            COOKIE,
            token,
            max_age=int(self.session_days * 86400),
            path="/",
            httponly=True,
            samesite="lax",
            secure=request.url.scheme == "https",
        )
        return {"account": user.to_json(), "csrf": accounts.csrf_token(token)}

    async def _check_password(self, request: Request, user: User, password: str) -> None:
        """The password confirming a change; each try costs an Argon2 check, so it counts as
        a sign-in attempt (per address and per account name), like a sign-in."""
        self.limits.hit("signin", client_address(request))
        self.limits.hit("signin_name", names.name_key(user.name), who="this name")
        stored = await self.db.run(partial(accounts.password_hash_of, user_id=user.id))
        if not await accounts.password_matches(stored, password):
            raise ClientError("wrong_password", "that is not your password")

    def router(self) -> APIRouter:
        api = APIRouter(tags=["account"])

        @api.post("/api/account", status_code=201)
        async def register(body: Credentials, request: Request, response: Response) -> Any:
            """Make an account and sign in (sets the session cookie; the answer's `csrf`
            goes in the `X-CSRF-Token` header of every signed-in change)."""
            accounts.check_same_site(request)
            self.limits.hit("register", client_address(request))
            name = accounts.account_name(body.name)
            password = accounts.check_password(body.password)
            digest = await accounts.hash_password(password)
            job = partial(accounts.insert_user, name=name, password_hash=digest, now=time.time())
            user = await self.db.run(job)
            return await self._start_session(request, response, user)

        @api.get("/api/account")
        async def who_am_i(request: Request) -> Any:
            """The signed-in account and its session's CSRF token (both null for a guest;
            401 `bad_session` for a cookie that names no live session)."""
            signed = await self.session(request, write=False)
            if signed is None:
                return {"account": None, "csrf": None}
            return {"account": signed.user.to_json(), "csrf": accounts.csrf_token(signed.token)}

        @api.post("/api/account/password")
        async def change_password(body: NewPassword, request: Request) -> Any:
            """A new password (the current one confirms it); every other session of the
            account is signed out, and the seat tokens those devices resumed are revoked."""
            signed = await self.require(request)
            await self._check_password(request, signed.user, body.password)
            digest = await accounts.hash_password(accounts.check_password(body.new_password))
            job = partial(
                accounts.set_password,
                user_id=signed.user.id,
                password_hash=digest,
                keep=signed.token,
            )
            room = self.room()
            for table_id, status in await self.db.run(job):
                # a live table is loaded to reach its owner (maybe another process), so its
                # connections with those tokens lose the seat now; a game over only if held
                if table_id in room.tables or status in (OPEN, PLAYING):
                    try:
                        table = await room.get(table_id)
                        await table.sign_out_devices(signed.user.id, signed.token)
                    except ClientError as exc:  # gone meanwhile (the stored row is updated)
                        log.warning("table %s: devices not signed out: %s", table_id, exc.code)
            return {"account": signed.user.to_json()}

        @api.delete("/api/account")
        async def delete_account(body: Confirm, request: Request, response: Response) -> Any:
            """Delete the account (the password confirms it): its name and sessions are
            removed; its games stay, played by "Deleted player"."""
            signed = await self.require(request)
            await self._check_password(request, signed.user, body.password)
            live = await self.db.run(partial(accounts.live_tables, user_id=signed.user.id))
            gone = await self.db.run(partial(accounts.delete_user, user_id=signed.user.id))
            room = self.room()
            for user_id in gone:
                room.bot_left(user_id)
            # every table held here, and each live one (loaded to reach its owner, maybe
            # another process), so connections with its revoked tokens lose the seat now
            for table_id in dict.fromkeys([*room.tables, *live]):
                try:
                    table = await room.get(table_id)
                    for user_id in gone:
                        await table.forget_account(user_id, DELETED)
                except ClientError as exc:  # gone meanwhile (the stored rows are updated)
                    log.warning("table %s: deleted account not forgotten: %s", table_id, exc.code)
            response.delete_cookie(COOKIE, path="/")
            return {"deleted": True}

        @api.post("/api/session")
        async def sign_in(body: Credentials, request: Request, response: Response) -> Any:
            """Sign in (sets the session cookie).  Attempts are rate-limited per address
            and per name."""
            accounts.check_same_site(request)
            self.limits.hit("signin", client_address(request))
            typed = " ".join(str(body.name).split())[: names.MAX_NAME * 2]
            self.limits.hit("signin_name", names.name_key(typed), who="this name")
            found = await self.db.run(partial(accounts.user_by_name, name=typed))
            user, stored = found if found is not None else (None, None)
            if not await accounts.password_matches(stored, body.password) or user is None:
                raise ClientError("wrong_password", "wrong name or password")
            return await self._start_session(request, response, user)

        @api.delete("/api/session")
        async def sign_out(request: Request, response: Response) -> Any:
            """Sign out this browser (a session that is no longer valid is just forgotten)."""
            token = accounts.session_token(request)
            if token is not None:
                try:
                    await self.session(request, write=True)
                except ClientError as exc:
                    if exc.code != "bad_session":
                        raise
                await self.db.run(partial(accounts.delete_session, token=token))
            response.delete_cookie(COOKIE, path="/")
            return {"signed_in": False}

        return api
