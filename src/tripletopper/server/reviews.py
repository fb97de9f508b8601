"""Post-game reviews in the card room: computed in the background, once, kept with the game.

A review (:mod:`tripletopper.review`) searches every decision of one seat as an
expert bot would: seconds to minutes of CPU.  The room never computes it on its
event loop: each decision is searched in a worker process of its own pool
(``Settings.review_workers`` processes, one review at a time per process; the
bots' pool is left to the tables), one decision per job so that the progress
is known between jobs.  Each table and seat has at most one review under way:
asking again answers its progress, never a second computation.  The room takes
on at most ``Settings.review_queue`` reviews at once (running or waiting), and
refuses more (``busy``).  A finished review is stored with the game (the
``reviews`` table) and answered from there, or from a small in-memory cache.
When the room runs as several processes (``--redis``), a review is claimed in Redis
before it starts, so that two processes asked at once compute it once: the other
answers ``waiting`` until the review is stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any

import redis.asyncio as aioredis

from tripletopper.record import Record
from tripletopper.review import Review, decisions, default_iterations, ranked, review_decision
from tripletopper.server import storage
from tripletopper.server.redis_keys import RedisKeys
from tripletopper.server.storage import Database
from tripletopper.server.tables import ClientError, Settings, encode

log = logging.getLogger("tripletopper.server")

Key = tuple[str, int]
"""A table's id and the reviewed seat."""
CACHED = 64
"""Finished reviews kept in memory (the rest are read from the database)."""
CLAIM_SECONDS = 30.0
"""How long a process's claim to compute a review lasts unless renewed: it is renewed
every third of that while the review is computed, let go once it is stored or has
failed, and a process that dies holds it at most this long."""
ELSEWHERE = encode({"status": "waiting", "done": 0, "total": None})
"""The answer of a process while another computes the review."""


def _claim_ms() -> int:
    return max(1, round(CLAIM_SECONDS * 1000))


@dataclass
class Progress:
    done: int = 0
    total: int | None = None
    """Decisions to search; None while the review waits for a worker."""

    def to_json(self) -> dict[str, Any]:
        status = "waiting" if self.total is None else "running"
        return {"status": status, "done": self.done, "total": self.total}


def done_json(review: str) -> str:
    """The answer for a finished review (stored JSON text, not decoded again)."""
    return '{"status":"done","review":' + review + "}"


class Reviews:
    """The room's reviews: under way (with their progress), finished, and their workers."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        redis_url: str | None = None,
        keys: RedisKeys | None = None,
    ) -> None:
        self.db = db
        self.settings = settings
        self.keys = keys or RedisKeys()
        self.shared = None if redis_url is None else aioredis.Redis.from_url(redis_url)
        """Where the room's processes claim the reviews they compute (several processes)."""
        self.running: dict[Key, Progress] = {}
        self.failed: dict[Key, str] = {}
        self.cache: OrderedDict[Key, str] = OrderedDict()
        self.computed = 0
        """Reviews computed since the start (tests check that asking twice computes once)."""
        self._slots = asyncio.Semaphore(max(1, settings.review_workers))
        self._executor: ProcessPoolExecutor | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def status(self, key: Key) -> tuple[str, str] | None:
        """The review's answer (JSON text) and its status (``done``, ``waiting``,
        ``running`` or ``failed``); None if it was never asked for."""
        body = await self._stored(key)
        if body is not None:
            return done_json(body), "done"
        progress = self.running.get(key)
        if progress is not None:
            answer = progress.to_json()
            return encode(answer), answer["status"]
        if key in self.failed:
            return encode({"status": "failed", "message": self.failed[key]}), "failed"
        if self.shared is not None and await self._elsewhere(key):
            return ELSEWHERE, "waiting"
        return None

    async def _elsewhere(self, key: Key) -> bool:
        """Another process computes this review (False if Redis cannot say)."""
        assert self.shared is not None
        try:
            return bool(await self.shared.exists(self.keys.review(*key)))
        except Exception:
            return False

    async def _claim(self, key: Key) -> bool:
        """This process may compute the review: no other claimed it (True if Redis cannot
        be reached: better computed twice than never)."""
        if self.shared is None:
            return True
        try:
            return bool(await self.shared.set(self.keys.review(*key), 1, nx=True, px=_claim_ms()))
        except Exception:
            log.warning("reviews: Redis cannot be reached; computing without a claim")
            return True

    async def _keep_claim(self, key: Key) -> None:
        """Renew the claim while the review is computed here (cancelled when it ends)."""
        assert self.shared is not None
        while True:
            await asyncio.sleep(CLAIM_SECONDS / 3)
            with contextlib.suppress(Exception):
                await self.shared.pexpire(self.keys.review(*key), _claim_ms())

    async def _let_go(self, key: Key) -> None:
        if self.shared is not None:
            with contextlib.suppress(Exception):
                await self.shared.delete(self.keys.review(*key))

    async def request(self, key: Key, record: Record) -> tuple[str, str]:
        """Start the review of ``key`` unless it is finished or under way; its answer."""
        found = await self.status(key)
        if found is not None and found[1] != "failed":
            return found
        if len(self.running) >= self.settings.review_queue:
            raise ClientError(
                "busy",
                "the room is reviewing many games now: try again in a minute",
                retry_after=60,
            )
        if not await self._claim(key):
            return ELSEWHERE, "waiting"
        if key in self.running:  # asked again here while claiming
            return encode(self.running[key].to_json()), "waiting"
        self.failed.pop(key, None)
        progress = self.running[key] = Progress()
        task = asyncio.get_running_loop().create_task(self._compute(key, record, progress))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return encode(progress.to_json()), "waiting"

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
        if self.shared is not None:
            with contextlib.suppress(Exception):
                await self.shared.aclose()

    # --- computing -------------------------------------------------------------------------
    async def _stored(self, key: Key) -> str | None:
        body = self.cache.get(key)
        if body is None and key not in self.running:
            table_id, seat = key
            body = await self.db.run(partial(storage.load_review, table_id=table_id, seat=seat))
            if body is not None:
                self._remember(key, body)
        return body

    def _remember(self, key: Key, body: str) -> None:
        self.cache[key] = body
        self.cache.move_to_end(key)
        while len(self.cache) > CACHED:
            self.cache.popitem(last=False)

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context(
                "forkserver" if "forkserver" in methods else "spawn"
            )  # never fork the threaded server
            self._executor = ProcessPoolExecutor(
                max(1, self.settings.review_workers), mp_context=context
            )
        return self._executor

    async def _compute(self, key: Key, record: Record, progress: Progress) -> None:
        table_id, seat = key
        loop = asyncio.get_running_loop()
        keeper = None if self.shared is None else loop.create_task(self._keep_claim(key))
        try:
            async with self._slots:
                pool = self._pool()
                iterations = self.settings.review_iterations
                if iterations is None:
                    iterations = await loop.run_in_executor(pool, default_iterations, record)
                todo, skipped = await loop.run_in_executor(pool, decisions, record, seat)
                progress.total = len(todo)
                findings = []
                for index in todo:
                    findings.append(
                        await loop.run_in_executor(
                            pool, review_decision, record, seat, index, iterations
                        )
                    )
                    progress.done += 1
            result = Review(record.game, seat, iterations, 0, ranked(findings), skipped)
            body = encode(result.to_json())
            await self.db.run(
                partial(
                    storage.save_review, table_id=table_id, seat=seat, review=body, at=time.time()
                )
            )
            self.computed += 1
            self._remember(key, body)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.exception("table %s: the review of seat %d failed", table_id, seat)
            if isinstance(exc, BrokenProcessPool):
                self._executor = None
            self.failed[key] = "the review could not be computed: ask again"
        finally:
            self.running.pop(key, None)
            if keeper is not None:
                keeper.cancel()
            await self._let_go(key)
