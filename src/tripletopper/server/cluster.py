"""The room on several processes: leases in the database, messages through Redis.

Each table is run by one process, the holder of its lease (:mod:`.leases`): it alone
validates, applies and stores actions, runs the table's clock and bots, and
publishes what changed on the table's Redis channel (``PREFIX:table:{id}``).  Any other
process with clients at that table keeps a *replica*: the same :class:`Table`,
rebuilt from the stored actions and then following the owner's messages (each
action is applied through the engine again), so it builds every seat's own view
for its own connections exactly as the owner does.  What its clients ask for
(actions, seats, chat) it forwards to the owner on the owner's channel
(``PREFIX:process:{name}``) and relays the answer.

Caps per client address (websocket connections, open tables) are the room's, not each
process's: each process keeps its own count of an address's connections in a Redis hash
shared by the room (``PREFIX:connections:{address}``, a field per process, counted only
while the process is alive, ``PREFIX:alive:{name}``), and the tables an address opened in a
sorted set (``PREFIX:opened:{address}``) whose open ones the database tells.

Failover: every process renews its leases every third of their life and looks for
games that nobody runs; when an owner dies its leases expire, and another process
takes its tables by replaying their stored actions (a replica it holds is promoted
in place, its clients keep their connection).  Clients of the dead process
reconnect to another one and catch up.

PREFIX is the room's (:mod:`.redis_keys`): rooms sharing a Redis share no key.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import orjson
import redis.asyncio as aioredis

from tripletopper.server import leases, storage
from tripletopper.server.redis_keys import RedisKeys

if TYPE_CHECKING:
    from tripletopper.server.tables import Room, Table

log = logging.getLogger("tripletopper.server")

CALL_TIMEOUT = 3.0
"""Seconds a forwarded request waits for the owner's answer before looking again at
who owns the table (a dead owner's lease expires within ``leases.TTL``)."""
CALLS = frozenset(
    {
        "act",
        "take_seat",
        "add_bot",
        "leave",
        "take_back",
        "start",
        "accept",
        "decline",
        "say",
        "rematch",
        "hand_over",
        "link_account",
        "resume",
        "forget_account",
        "sign_out_devices",
        "seat_bot_account",
        "answer_as_bot_account",
    }
)
"""What another process may ask a table's owner to do (the Table methods of those names)."""


OPENED_TTL = 86400
"""Seconds an address's list of opened tables is kept after its last creation."""
ADMIT = """
local total = 0
local fields = redis.call('HGETALL', KEYS[1])
for i = 1, #fields, 2 do
  local process = fields[i]
  if process ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[5] .. process) == 1 then
      total = total + tonumber(fields[i + 1])
    else
      redis.call('HDEL', KEYS[1], process)
    end
  end
end
if total + tonumber(ARGV[2]) > tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[4])
return 1
"""
"""Set this process's count of an address's connections (ARGV: process, count, most,
seconds to keep, ``alive_key("")``) unless the live processes' counts would then exceed
``most`` (0)."""


HOLD_OPEN = """
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
if ARGV[1] ~= '' then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
  redis.call('EXPIRE', KEYS[1], ARGV[4])
end
return 1
"""
"""Hold a place for table ARGV[1] (none if empty), opened at ARGV[2], among an address's
open tables unless it has ARGV[3] already (0); keep the list ARGV[4] seconds."""
CREATING = 60.0
"""Seconds a table that holds a place but is not in the database yet counts as open."""


class Cluster:
    """This process's part in a room run as several."""

    def __init__(
        self, room: Room, url: str, ttl: float = leases.TTL, keys: RedisKeys | None = None
    ) -> None:
        self.room = room
        self.keys = keys or RedisKeys()
        self.ttl = ttl
        self.entry_ttl = max(1, round(ttl))
        """Seconds this process's entries in Redis last unless renewed with the leases (its
        bot accounts, that it is alive)."""
        self.name = f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(3)}"
        self.redis = aioredis.Redis.from_url(url)
        self._admit = self.redis.register_script(ADMIT)
        self._hold_open = self.redis.register_script(HOLD_OPEN)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.outbox: asyncio.Queue[tuple[str, bytes, Table | None]] = asyncio.Queue()
        self.calls: dict[str, asyncio.Future[Any]] = {}
        self.inbox: dict[str, list[dict[str, Any]]] = {}
        """The owner's messages each replica has yet to apply, in order."""
        self.following: dict[str, list[dict[str, Any]] | None] = {}
        """Tables this process follows: messages waiting while the replica loads (a list),
        or None once it is loaded."""
        self.announced = 0
        """Replicas that announced themselves so far: a publish that reached nobody turns
        its table's publishing off only if none did meanwhile."""
        self.strays: set[str] = set()
        """Tables whose lease this process held at the last renewal without running them."""
        self.idle: set[str] = set()
        """Replicas that nothing here needed at the last renewal."""
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        await self._alive()
        await self.pubsub.subscribe(self.keys.process(self.name))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._listen()),
            loop.create_task(self._publisher()),
            loop.create_task(self._leases()),
        ]

    async def stop(self) -> None:
        """Hand every lease back at once (other processes take the tables without waiting
        for them to expire), then disconnect."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        mine = [t.id for t in self.room.tables.values() if t.owner]
        with contextlib.suppress(Exception):
            await self.room.db.run(partial(leases.release, owner=self.name, table_ids=mine))
        with contextlib.suppress(Exception):
            await self.redis.delete(self.keys.alive(self.name))  # its counts stop counting now
        with contextlib.suppress(Exception):
            await self.pubsub.aclose()  # type: ignore[no-untyped-call]
            await self.redis.aclose()

    # --- ownership ---------------------------------------------------------------------------
    async def claim(self, table_id: str) -> bool:
        """Take the table's lease if nobody holds it; else follow the owner's channel
        (before the caller reads the table, so that no update falls in between)."""
        if await self.room.db.run(partial(leases.take, table_id=table_id, owner=self.name)):
            return True
        if table_id not in self.following:
            self.following[table_id] = []
            await self.pubsub.subscribe(self.keys.table(table_id))
            await self._announce(table_id)
        return False

    async def _announce(self, table_id: str) -> None:
        """Tell a table's owner that this process follows it now (an owner publishes only
        while some process does): it publishes from then on, and first a ``table``
        message that makes this replica read the stored game again, so that nothing the
        owner did before it heard of this replica is missed."""
        owner = await self.owner_of(table_id)
        if owner is not None and owner != self.name:
            self.send(self.keys.process(owner), {"kind": "follow", "table": table_id})

    async def owner_of(self, table_id: str) -> str | None:
        return await self.room.db.run(partial(leases.owner_of, table_id=table_id))

    def loaded(self, table: Table) -> None:
        """A replica is loaded: apply what the owner published meanwhile."""
        waiting = self.following.get(table.id)
        self.following[table.id] = None
        for message in waiting or []:
            self._deliver(table, message)

    def _deliver(self, table: Table, message: dict[str, Any]) -> None:
        """Apply the owner's messages to a replica one after the other, each table on its
        own (a replica reading the database holds up its own table only)."""
        queue = self.inbox.setdefault(table.id, [])
        queue.append(message)
        if len(queue) == 1:
            self.room.spawn(self._drain(table, queue))

    async def _drain(self, table: Table, queue: list[dict[str, Any]]) -> None:
        try:
            while queue:
                if not table.owner:
                    await table.follow(queue[0])
                queue.pop(0)
        except Exception:
            log.exception("table %s: an update could not be applied; reading it again", table.id)
            queue.clear()
            with contextlib.suppress(Exception):
                await table.refresh()
        finally:
            if self.inbox.get(table.id) is queue and not queue:
                del self.inbox[table.id]

    def unfollow(self, table_id: str) -> None:
        if self.following.pop(table_id, 0) != 0:
            self.room.spawn(self._unsubscribe(table_id))

    async def _unsubscribe(self, table_id: str) -> None:
        if table_id in self.following:
            return  # followed again meanwhile (a table forgotten, then asked for again)
        with contextlib.suppress(Exception):
            await self.pubsub.unsubscribe(self.keys.table(table_id))

    async def release(self, table_id: str) -> None:
        await self.room.db.run(partial(leases.release, owner=self.name, table_ids=[table_id]))

    async def _leases(self) -> None:
        """Renew this process's leases; take games nobody runs (their owner died)."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                held = await self.room.db.run(partial(leases.renew, owner=self.name, ttl=self.ttl))
                for table in list(self.room.tables.values()):
                    if table.owner and table.leased and table.id not in held:
                        if await self.owner_of(table.id) == self.name:
                            continue  # handed over to this process since the renewal
                        log.warning("table %s: lease lost; following its new owner", table.id)
                        await self.follow_instead(table)
                await self._strays(held)
                self._forget_idle()
                await self._bots_still_here()
                await self._alive()
                for table_id in await self.room.db.run(leases.orphans):
                    await self.adopt(table_id)
            except Exception:
                log.exception("renewing or taking leases failed")

    async def _strays(self, held: set[str]) -> None:
        """Run the tables whose lease this process holds but that it does not run (a
        hand-over whose answer was lost), once that is so at two renewals in a row (a
        table being created or handed over here holds its lease a moment before it runs)."""
        tables = self.room.tables
        strays = {i for i in held if (t := tables.get(i)) is None or not t.owner}
        for table_id in strays & self.strays:
            log.warning("table %s: its lease is held here; running it", table_id)
            await self.adopt(table_id)
        self.strays = strays

    def _forget_idle(self) -> None:
        """Drop the replicas that nothing here has needed since the last renewal: a process
        spends nothing on a table it does not run and serves no client of."""
        for table in list(self.room.tables.values()):
            if not table.idle():
                self.idle.discard(table.id)
            elif table.id in self.idle:
                self.idle.discard(table.id)
                self.room.forget(table)
            else:
                self.idle.add(table.id)

    async def adopt(self, table_id: str) -> bool:
        """Run a table nobody runs: promote its replica here, or load it as its owner."""
        table = self.room.tables.get(table_id)
        if table is None:
            with contextlib.suppress(Exception):
                await self.room.get(table_id)  # takes the lease if it is free
            return True
        if table.owner:
            return True
        if not await self.room.db.run(partial(leases.take, table_id=table_id, owner=self.name)):
            return False
        log.info("table %s: its owner is gone; running it here", table_id)
        self.unfollow(table_id)
        await table.become_owner()
        return True

    async def follow_instead(self, table: Table) -> None:
        self.following[table.id] = []
        await self.pubsub.subscribe(self.keys.table(table.id))
        await self._announce(table.id)
        await table.become_replica()
        self.loaded(table)

    # --- bot accounts connected to any process -------------------------------------------------
    # --- caps per client address, the room's ----------------------------------------------
    async def _alive(self) -> None:
        """Say this process is alive for a lease's life, and its connection counts again
        (they heal any count a lost or reordered write left wrong)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(self.keys.alive(self.name), 1, ex=self.entry_ttl)
            for address, count in self.room.connections.items():
                pipe.hset(self.keys.connections(address), self.name, count)
                pipe.expire(self.keys.connections(address), 3 * self.entry_ttl)
            await pipe.execute()

    async def connect(self, address: str, count: int, most: int) -> bool:
        """Whether the room may hold ``address``'s connections with this process holding
        ``count`` of them (then recorded), at most ``most`` in all."""
        try:
            return bool(
                await self._admit(
                    keys=[self.keys.connections(address)],
                    args=[self.name, count, most, 3 * self.entry_ttl, self.keys.alive("")],
                )
            )
        except Exception:
            log.exception("counting connections in Redis failed: this process's count stands")
            return True

    async def connections_now(self, address: str, count: int) -> None:
        """Record this process's count of ``address``'s connections (after one ended)."""
        with contextlib.suppress(Exception):
            if count:
                await self.redis.hset(self.keys.connections(address), self.name, count)
            else:
                await self.redis.hdel(self.keys.connections(address), self.name)

    async def hold_open(self, address: str, table_id: str | None, most: int) -> bool:
        """Whether ``address`` has fewer than ``most`` open tables in the room; if so, hold
        a place among them for ``table_id`` (about to be stored), in the same atomic step,
        so that creations at the same instant on any processes cannot pass the cap
        together.  Tables the database shows no longer open are dropped from the list
        first; one it does not know yet counts for ``CREATING`` seconds (being created).
        True if Redis cannot say: the table is made rather than the request failing."""
        key = self.keys.opened(address)
        try:
            entries = cast(
                "list[tuple[bytes, float]]", await self.redis.zrange(key, 0, -1, withscores=True)
            )
            held = {i.decode(): at for i, at in entries}
            statuses = await self.room.db.run(partial(storage.statuses_of, ids=list(held)))
            since = time.time()
            gone = [  # ended, or not stored long after its place was held (it failed)
                i
                for i, at in held.items()
                if statuses.get(i, "open" if at > since - CREATING else "failed") != "open"
            ]
            if gone:
                await self.redis.zrem(key, *gone)
            return bool(
                await self._hold_open(keys=[key], args=[table_id or "", since, most, OPENED_TTL])
            )
        except Exception:
            log.exception("counting open tables failed: the cap is not checked")
            return True

    async def not_open(self, address: str, table_id: str) -> None:
        """Give up the place held for a table that was not made after all."""
        with contextlib.suppress(Exception):
            await self.redis.zrem(self.keys.opened(address), table_id)

    async def bot_online(self, user_id: int, name: str) -> None:
        """A bot account connected here: the room's processes see it online, and a connection
        it had at another process is ended there (one connection per bot account)."""
        entry = orjson.dumps({"process": self.name, "name": name})
        old = await self.redis.set(self.keys.bot(user_id), entry, ex=self.entry_ttl, get=True)
        await self.redis.sadd(self.keys.bots, user_id)
        if isinstance(old, bytes) and (process := orjson.loads(old)["process"]) != self.name:
            self._bot_gone(process, user_id, None, "replaced")

    def _bot_gone(self, process: str, user_id: int, token_id: int | None, code: str) -> None:
        message = {"kind": "bot_gone", "user_id": user_id, "token_id": token_id, "code": code}
        self.send(self.keys.process(process), message)

    async def bot_offline(self, user_id: int) -> None:
        with contextlib.suppress(Exception):
            if await self.bot_at(user_id) == self.name:
                await self.redis.delete(self.keys.bot(user_id))
                await self.redis.srem(self.keys.bots, user_id)

    async def _bots_still_here(self) -> None:
        """Renew the entries of the bot accounts connected here (they expire with a lease)."""
        links = list(self.room.bot_links.items())
        if links:
            async with self.redis.pipeline(transaction=False) as pipe:
                for user_id, link in links:
                    entry = orjson.dumps({"process": self.name, "name": link.name})
                    pipe.set(self.keys.bot(user_id), entry, ex=self.entry_ttl)
                pipe.sadd(self.keys.bots, *(user_id for user_id, _link in links))
                await pipe.execute()

    async def bots_online(self) -> dict[int, tuple[str, str]]:
        """Every bot account connected to the room: user id -> (its process, its name)."""
        ids = [int(i) for i in await self.redis.smembers(self.keys.bots)]
        entries = await self.redis.mget([self.keys.bot(i) for i in ids]) if ids else []
        found: dict[int, tuple[str, str]] = {}
        for user_id, entry in zip(ids, entries, strict=True):
            if entry is not None:
                data = orjson.loads(entry)
                found[user_id] = (data["process"], data["name"])
        if gone := [i for i in ids if i not in found]:  # their process died: entries expired
            await self.redis.srem(self.keys.bots, *gone)
        return found

    async def bot_at(self, user_id: int) -> str | None:
        """The process a bot account is connected to, if any."""
        found = await self.redis.get(self.keys.bot(user_id))
        return None if found is None else str(orjson.loads(found)["process"])

    def to_bot(self, process: str, user_id: int, text: str) -> None:
        """Send a message to a bot account connected at ``process`` (an invitation)."""
        self.send(self.keys.process(process), {"kind": "to_bot", "user_id": user_id, "text": text})

    async def bot_gone(self, user_id: int, token_id: int | None) -> None:
        """End a bot account's connection wherever it is (its token revoked, its account
        deleted)."""
        process = await self.bot_at(user_id)
        if process is not None and process != self.name:
            self._bot_gone(process, user_id, token_id, "revoked")

    # --- messages ------------------------------------------------------------------------------
    def publish(self, table: Table, message: dict[str, Any]) -> None:
        """Send a table's change to its replicas (in order, by one publisher), unless no
        process follows it (a Redis publish costs this process more than applying an
        action does)."""
        if table.followed:
            self.outbox.put_nowait((self.keys.table(table.id), orjson.dumps(message), table))

    def send(self, channel: str, message: dict[str, Any]) -> None:
        self.outbox.put_nowait((channel, orjson.dumps(message), None))

    async def _publisher(self) -> None:
        """Publish what waits in the outbox, in order, in one round trip per batch (on one
        connection: a connection per message would not scale)."""
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            for attempt in range(3):
                try:
                    announced = self.announced
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, data, _table in batch:
                            pipe.publish(channel, data)
                        heard = await pipe.execute()
                    for (_channel, _data, table), count in zip(batch, heard, strict=True):
                        if table is not None and count == 0 and announced == self.announced:
                            table.followed = False  # until a replica announces itself
                    break
                except Exception:
                    log.exception("publishing %d message(s) failed", len(batch))
                    await asyncio.sleep(0.1 * (attempt + 1))

    async def _listen(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("reading from Redis failed")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = orjson.loads(message["data"])
                await self._received(data)
            except Exception:
                log.exception("a cluster message could not be handled")

    async def _received(self, data: dict[str, Any]) -> None:
        kind = data.get("kind")
        if kind == "to_bot":
            link = self.room.bot_links.get(data["user_id"])
            if link is not None:
                link.push(data["text"])
        elif kind == "bot_gone":
            self.room.end_bot_link(data["user_id"], data["token_id"], data["code"])
        elif kind == "follow":
            table = self.room.tables.get(data["table"])
            if table is not None and table.leased:
                self.announced += 1
                table.followed = True
                table._publish({"kind": "table"})
        elif kind == "call":
            self.room.spawn(self._answer(data))
        elif kind == "reply":
            future = self.calls.pop(data["id"], None)
            if future is not None and not future.done():
                future.set_result(data)
        else:  # a table's change, from its owner
            table_id = data["table"]
            waiting = self.following.get(table_id, 0)
            if isinstance(waiting, list):
                waiting.append(data)
                return
            table = self.room.tables.get(table_id)
            if table is not None and not table.owner:
                self._deliver(table, data)

    # --- forwarded requests --------------------------------------------------------------------
    async def call(self, table: Table, method: str, args: list[Any]) -> Any:
        """Ask the table's owner to run ``method(*args)``; its answer (or its refusal,
        raised as the same :class:`ClientError`).  An owner that is gone for good is
        replaced by this process, which then runs it itself."""
        from tripletopper.server.tables import ClientError

        for _attempt in range(3):
            owner = table.owner_name or await self.owner_of(table.id)
            if owner in (None, self.name) and await self.adopt(table.id):
                return await run_call(self.room, table, method, args)
            if owner is None:
                continue
            table.owner_name = owner
            request_id = secrets.token_hex(8)
            future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            self.calls[request_id] = future
            request = {
                "kind": "call",
                "id": request_id,
                "from": self.name,
                "table": table.id,
                "method": method,
                "args": args,
            }
            self.send(self.keys.process(owner), request)
            try:
                reply = await asyncio.wait_for(future, CALL_TIMEOUT)
            except TimeoutError:
                table.owner_name = None
                if await self.owner_of(table.id) == owner:  # alive but slow: it may still
                    raise ClientError(  # do it, so asking again could do it twice
                        "storage", "the table's server is slow to answer: look again shortly"
                    ) from None
                continue  # its owner is gone: ask the next one
            finally:
                self.calls.pop(request_id, None)
            if reply.get("moved"):
                table.owner_name = None
                continue
            error = reply.get("error")
            if error is not None:
                raise ClientError(error.pop("code"), error.pop("message"), **error.pop("extra"))
            return reply.get("value")
        raise ClientError("storage", "the table's server is not answering: try again shortly")

    async def _answer(self, data: dict[str, Any]) -> None:
        from tripletopper.server.tables import ClientError

        reply: dict[str, Any] = {"kind": "reply", "id": data["id"]}
        table = self.room.tables.get(data["table"])
        method = data.get("method")
        if table is None or not table.owner or method not in CALLS:
            reply["moved"] = True
        else:
            try:
                reply["value"] = await run_call(self.room, table, method, data["args"])
            except ClientError as exc:
                reply["error"] = {"code": exc.code, "message": exc.message, "extra": exc.extra}
            except Exception:
                log.exception("table %s: forwarded %s failed", table.id, method)
                text = "the server could not handle that request"
                reply["error"] = {"code": "internal", "message": text, "extra": {}}
        self.send(self.keys.process(data["from"]), reply)


async def run_call(room: Room, table: Table, method: str, args: list[Any]) -> Any:
    """Run a forwarded request on the table this process owns; a JSON-ready answer."""
    if method == "rematch":
        return (await room.rematch(table, *args)).id
    if method == "act":
        await table.act(*args)
        return table.version
    run: Callable[..., Any] = getattr(table, method)
    return await run(*args)
