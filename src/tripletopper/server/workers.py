"""Blocking work (bot decisions) off the event loop, handed over in batches.

Each hand-over between the event loop and a worker thread costs far more than
a heuristic bot's decision (waking the thread, the GIL changing hands, waking
the loop again).  :class:`Lanes` keeps one queue per worker thread: a job joins
the shortest queue, and a thread takes everything waiting in its queue at once,
so under load one hand-over carries many decisions.  A slow decision (a search
bot's second) holds up only its own lane; new jobs go to the other lanes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")
Outcome = tuple[Any, BaseException | None]


def _run_all(jobs: list[Callable[[], Any]]) -> list[Outcome]:
    outcomes: list[Outcome] = []
    for job in jobs:
        try:
            outcomes.append((job(), None))
        except Exception as exc:
            outcomes.append((None, exc))
    return outcomes


def settle(futures: list[asyncio.Future[Any]], outcomes: list[Outcome]) -> None:
    """Give each waiting future its job's value or exception (batched hand-overs)."""
    for future, (value, exc) in zip(futures, outcomes, strict=True):
        if future.done():
            continue
        if exc is not None:
            future.set_exception(exc)
        else:
            future.set_result(value)


class Lanes:
    def __init__(self, lanes: int = 2) -> None:
        self.executor = ThreadPoolExecutor(max_workers=lanes, thread_name_prefix="tt-bots")
        self.queues: list[list[tuple[Callable[[], Any], asyncio.Future[Any]]]] = [
            [] for _ in range(lanes)
        ]
        self.busy = [False] * lanes
        self._tasks: set[asyncio.Task[None]] = set()

    async def run(self, job: Callable[[], T]) -> T:
        """``job()`` in a worker thread."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        lane = min(range(len(self.queues)), key=lambda i: len(self.queues[i]) + self.busy[i])
        self.queues[lane].append((job, future))
        if not self.busy[lane]:
            self.busy[lane] = True
            task = loop.create_task(self._drain(lane))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        return await future

    async def _drain(self, lane: int) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.queues[lane]:
                batch, self.queues[lane] = self.queues[lane], []
                outcomes = await loop.run_in_executor(
                    self.executor, _run_all, [job for job, _future in batch]
                )
                settle([future for _job, future in batch], outcomes)
        finally:
            self.busy[lane] = False

    def shutdown(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)
