"""Bot decisions in worker processes, shared fairly between tables, under a deadline.

The card room's bots never think in the server process.  :class:`BotPool` keeps
worker processes (one per core by default, started on demand from a fork server,
never forked from the threaded server) and ships each decision to one of them: the
bot itself (its memory included), a :class:`SeatView` over a clone of the state and
the events the bot has not seen yet.  The worker sends back the action and the bot as
it is afterwards, so bots with a memory (Memo Match's forgetful bots) go on
remembering.  Games travel as their class, players and options (a worker makes each
once), and the bot classes that difficulty levels make on the fly by their registry
name (:class:`_Pickler`).

Fairness: each table has its own queue and at most one decision in a worker; tables
with a decision waiting are served in turn (round robin).  While other decisions
wait, search bots (:class:`ISMCTSBot`) may hold all workers but one (with more than
one), so tables of search bots do not hold up the heuristic bots of other tables.

Deadline: a decision has ``deadline`` seconds from the moment it is asked for; the
bot is told most of what is left when a worker takes it up (``Bot.time_budget``, so
a search stops in time).  Past the deadline the seat plays the game's default bot's
move (its ``medium`` level, a heuristic computed on the spot), the late answer is
dropped, and a worker still busy a whole deadline later is terminated and replaced.

Pipes: the loop never blocks on a worker.  Jobs go out on one pipe, written without
blocking as far as the pipe takes them and the rest when the loop says it has room
(a worker that stopped reading holds up only its own job, which the deadline hands to
the default bot); replies come back on another, read without blocking and reassembled
from what has arrived.  Blocking reads were not merely slow: uvloop (which
``uvicorn[standard]`` brings) makes every descriptor it watches non-blocking, and a
reply over 16 kB arrives in two writes, so reading it whole when it starts to arrive
failed at random and handed the move to the default bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import multiprocessing
import os
import pickle
import signal
import struct
from collections import deque
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from multiprocessing import forkserver
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from tripletopper.bots import (
    BOTS,
    GAME_BOTS,
    Bot,
    BotFactory,
    SeatView,
    bot_factory,
    check_spec,
    default_bot,
)
from tripletopper.bots.ismcts import ISMCTSBot
from tripletopper.bots.levels import EXPERT_SECONDS
from tripletopper.engine import Action, Game
from tripletopper.errors import InvalidOptionError
from tripletopper.question_banks import new_game

log = logging.getLogger("tripletopper.server")

DEADLINE = EXPERT_SECONDS + 3.0
"""Seconds a decision may take, waiting for a worker included (``Settings.bot_deadline``)."""
BUDGET_SHARE = 0.8
"""The share of the time left before the deadline that a bot is told it has."""


@dataclass(slots=True)
class Job:
    """One decision: the bot, its seat's view of a clone of the state, unseen events."""

    bot: Bot
    view: SeatView
    inbox: list[Mapping[str, Any]]
    race: bool
    """Several seats may act: the bot's reaction time matters."""
    seed: int
    """Seeds the default bot if it has to decide instead."""


@dataclass(slots=True)
class Decision:
    action: Action | None
    """None: the bot lets others act first (several seats may act)."""
    delay: float
    """The bot's reaction time in a race, else 0."""
    bot: Bot | None
    """The bot after deciding, memory updated; None if the default bot decided instead
    (the deadline passed or the bot failed) and the bot saw none of the job's events."""


def decide(job: Job) -> Decision:
    """The bot's decision (in a worker)."""
    bot = job.bot
    if job.inbox:
        bot.observe(job.inbox)
    action = bot.choose(job.view)
    delay = bot.reaction_time(job.view) if job.race and action is not None else 0.0
    bot.time_budget = None
    return Decision(action, delay, bot)


def room_bot(spec: str, game: Game) -> BotFactory:
    """A stored seat's bot, within the room's bounds: a spec stored before they held (or
    that no longer parses) gets the game's default bot instead of being obeyed."""
    try:
        return check_spec(spec, game, bounded=True)
    except InvalidOptionError as exc:
        log.warning("bot %r is replaced by %r: %s", spec, default_bot(game.name), exc)
        return bot_factory(default_bot(game.name), game)


def default_decision(view: SeatView, seed: int, race: bool) -> Decision:
    """What the game's default bot (a heuristic, cheap) plays here, decided on the spot."""
    game = view.game
    bot = bot_factory(default_bot(game.name), game)(view.seat, seed)
    action = bot.choose(view)
    delay = bot.reaction_time(view) if race and action is not None else 0.0
    return Decision(action, delay, None)


# --- shipping bots and views between processes -------------------------------------------
_local_classes: dict[type, tuple[str, str]] = {
    cls: (name, game)
    for name, by_game in BOTS.items()
    for game, cls in by_game.items()
    if "<locals>" in cls.__qualname__
}
"""Bot classes made by functions (difficulty levels): pickled as their registry name."""
_specs = {id(bots.search): game for game, bots in GAME_BOTS.items()}
"""Each game's search spec (closures): pickled as the game's name."""
_PLAIN = frozenset({int, float, str, bool, tuple, list, dict, bytes, type(None)})


def _game_key(game: Game) -> tuple[Any, ...]:
    return (type(game), game.players, tuple(sorted(game.options.items())))


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj: Any) -> Any:
        kind = type(obj)
        if kind in _PLAIN:
            return None
        if isinstance(obj, Game):
            return ("game", *_game_key(obj))
        if kind is type or isinstance(obj, type):
            where = _local_classes.get(obj)
            return None if where is None else ("bot", *where)
        game = _specs.get(id(obj))
        return None if game is None else ("search", game)


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: bytes, games: dict[Any, Game]) -> None:
        super().__init__(io.BytesIO(data))
        self.games = games

    def persistent_load(self, pid: Any) -> Any:
        kind, *key = pid
        if kind == "game":
            game = self.games.get(tuple(key))
            if game is None:
                if len(self.games) > 64:
                    self.games.clear()
                cls, players, options = key
                game = self.games[tuple(key)] = new_game(cls, players, **dict(options))
            return game
        if kind == "bot":
            return BOTS[key[0]][key[1]]
        if kind == "search":
            return GAME_BOTS[key[0]].search
        raise pickle.UnpicklingError(f"unknown persistent id {pid!r}")


def dumps(obj: object) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(obj)
    return out.getvalue()


def loads(data: bytes, games: dict[Any, Game]) -> Any:
    return _Unpickler(data, games).load()


def _serve(jobs: Connection, replies: Connection) -> None:
    """A worker process: decide every job it is sent until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    games: dict[Any, Game] = {}
    while True:
        try:
            data = jobs.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            job, budget = loads(data, games)
            job.bot.time_budget = budget
            reply = dumps(("ok", decide(job)))
        except Exception as exc:
            reply = dumps(("error", f"{type(exc).__name__}: {exc}"))
        try:
            replies.send_bytes(reply)
        except OSError:
            return


# --- the pool -------------------------------------------------------------------------------
@dataclass(eq=False)
class _Pending:
    key: Hashable
    job: Job
    future: asyncio.Future[Decision]
    due: float
    """Loop time of the deadline."""
    heavy: bool


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    jobs: Connection
    """Written by us without blocking; the loop watches it while ``outgoing`` waits."""
    replies: Connection
    """Read by us without blocking when the loop says bytes arrived (into ``received``)."""
    outgoing: bytearray = field(default_factory=bytearray)
    received: bytearray = field(default_factory=bytearray)
    pending: _Pending | None = None
    killer: asyncio.TimerHandle | None = field(default=None, repr=False)


def _context() -> multiprocessing.context.BaseContext:
    """A fork server (fast, and forks a clean process, not the threaded server), else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        forkserver.ensure_running()  # now, not at the first decision (once per process)
        return ctx
    return multiprocessing.get_context("spawn")


class BotPool:
    """Worker processes that make bot decisions, fairly, under a deadline (see the module)."""

    def __init__(self, workers: int | None = None, deadline: float = DEADLINE) -> None:
        self.size = max(1, workers or os.cpu_count() or 1)
        self.deadline = deadline
        self._ctx = _context()
        self._workers: list[_Worker] = []
        self._idle: list[_Worker] = []
        self._queues: dict[Hashable, deque[_Pending]] = {}
        self._ready: deque[Hashable] = deque()
        """Tables with a decision waiting and none in a worker, in the order they are served."""
        self._running: set[Hashable] = set()
        self._heavy = 0
        self._closed = False
        self.replaced = 0
        """Workers terminated because a decision ran far past its deadline (or crashed)."""

    async def decide(self, key: Hashable, job: Job) -> Decision:
        """``job`` decided in a worker (``key``: its table), or the default bot's decision
        if the deadline passes or the bot fails.  Never raises for a bot's fault."""
        if self._closed:
            raise RuntimeError("the bot pool is closed")
        loop = asyncio.get_running_loop()
        pending = _Pending(
            key,
            job,
            loop.create_future(),
            loop.time() + self.deadline,
            heavy=isinstance(job.bot, ISMCTSBot),
        )
        timer = loop.call_at(pending.due, self._late, pending)
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            if key not in self._running:
                self._ready.append(key)
        queue.append(pending)
        self._dispatch()
        try:
            return await pending.future
        finally:
            timer.cancel()

    def load(self) -> tuple[int, int]:
        """Decisions waiting for a worker, and decisions in one (``/metrics``)."""
        waiting = sum(
            not pending.future.done() for queue in self._queues.values() for pending in queue
        )
        return waiting, len(self._running)

    def pids(self) -> list[int | None]:
        """The worker processes now running (tests watch them being replaced)."""
        return [worker.process.pid for worker in self._workers]

    def close(self) -> None:
        """Stop every worker (decisions still waiting get the default bot's move)."""
        self._closed = True
        workers = list(self._workers)
        for worker in workers:
            self._retire(worker, None)
        for worker in workers:
            worker.process.join(timeout=2)
        for queue in self._queues.values():
            for pending in queue:
                self._fall_back(pending, None)
        self._queues.clear()
        self._ready.clear()

    # --- scheduling --------------------------------------------------------------------------
    def _dispatch(self) -> None:
        while not self._closed and (self._idle or len(self._workers) < self.size):
            pending = self._next()
            if pending is None:
                return
            try:
                worker = self._idle.pop() if self._idle else self._spawn()
            except Exception:
                log.exception("could not start a bot worker")
                self._done(pending.key)
                self._fall_back(pending, None)
                return
            self._start(worker, pending)

    def _next(self) -> _Pending | None:
        """The next table's waiting decision, in turn; search bots leave one worker free."""
        heavy_full = self.size > 1 and self._heavy >= self.size - 1
        for _ in range(len(self._ready)):
            key = self._ready.popleft()
            queue = self._queues[key]
            while queue and queue[0].future.done():  # past the deadline (or abandoned)
                queue.popleft()
            if not queue:
                del self._queues[key]
                continue
            if heavy_full and queue[0].heavy:
                self._ready.append(key)
                continue
            pending = queue.popleft()
            if not queue:
                del self._queues[key]
            self._running.add(key)
            return pending
        return None

    def _done(self, key: Hashable) -> None:
        """``key``'s decision left its worker: its next one may be served (last in turn)."""
        self._running.discard(key)
        if key in self._queues:
            self._ready.append(key)

    def _spawn(self) -> _Worker:
        jobs_in, jobs = self._ctx.Pipe(duplex=False)
        replies, replies_out = self._ctx.Pipe(duplex=False)
        process = self._ctx.Process(  # type: ignore[attr-defined]
            target=_serve, args=(jobs_in, replies_out), name="tt-bot", daemon=True
        )
        process.start()
        jobs_in.close()
        replies_out.close()
        os.set_blocking(jobs.fileno(), False)  # whatever the loop is: see the module
        os.set_blocking(replies.fileno(), False)
        worker = _Worker(process, jobs, replies)
        self._workers.append(worker)
        asyncio.get_running_loop().add_reader(replies.fileno(), self._answer, worker)
        return worker

    def _start(self, worker: _Worker, pending: _Pending) -> None:
        loop = asyncio.get_running_loop()
        budget = max(0.0, pending.due - loop.time()) * BUDGET_SHARE
        try:
            data = dumps((pending.job, budget))
        except Exception as exc:
            self._idle.append(worker)
            self._done(pending.key)
            self._fall_back(pending, exc)
            return
        worker.pending = pending
        if pending.heavy:
            self._heavy += 1
        worker.killer = loop.call_at(pending.due + self.deadline, self._stuck, worker, pending)
        worker.outgoing += _framed(data)
        self._send(worker)

    def _send(self, worker: _Worker) -> None:
        """Write what the pipe takes of the worker's job; the loop calls again when it has
        room for the rest."""
        loop = asyncio.get_running_loop()
        fd = worker.jobs.fileno()
        try:
            sent = os.write(fd, worker.outgoing)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._retire(worker, "its pipe broke")
            loop.call_soon(self._dispatch)  # not now: _start may be inside _dispatch
            return
        del worker.outgoing[:sent]
        if worker.outgoing:
            loop.add_writer(fd, self._send, worker)
        else:
            loop.remove_writer(fd)

    def _answer(self, worker: _Worker) -> None:
        """Bytes of a worker's reply (or its end) arrived."""
        try:
            chunk = os.read(worker.replies.fileno(), 1 << 20)
        except BlockingIOError:
            return  # woken with nothing to read
        except OSError:
            chunk = b""
        if not chunk:
            self._retire(worker, "it stopped")
            self._dispatch()
            return
        worker.received += chunk
        while (data := _whole_message(worker.received)) is not None:
            self._reply(worker, data)
        self._dispatch()

    def _reply(self, worker: _Worker, data: bytes) -> None:
        pending = self._release(worker)
        self._idle.append(worker)
        if pending is not None and not pending.future.done():
            game = pending.job.view.game
            try:
                status, value = loads(data, {_game_key(game): game})
            except Exception as exc:
                status, value = "error", f"{type(exc).__name__}: {exc}"
            if status == "ok":
                pending.future.set_result(value)
            else:
                self._fall_back(pending, value)

    def _release(self, worker: _Worker) -> _Pending | None:
        pending, worker.pending = worker.pending, None
        if worker.killer is not None:
            worker.killer.cancel()
            worker.killer = None
        if pending is not None:
            if pending.heavy:
                self._heavy -= 1
            self._done(pending.key)
        return pending

    def _late(self, pending: _Pending) -> None:
        if not pending.future.done():
            log.warning("a bot decision passed its %.1f s deadline", self.deadline)
            self._fall_back(pending, None)

    def _stuck(self, worker: _Worker, pending: _Pending) -> None:
        if worker.pending is pending:
            self._retire(worker, "its decision ran a whole deadline past it")
            self._dispatch()

    def _retire(self, worker: _Worker, why: str | None) -> None:
        """Stop a worker (``why``: it misbehaved; a new one starts when needed)."""
        if why is not None:
            log.warning("bot worker %s replaced: %s", worker.process.pid, why)
            self.replaced += 1
        pending = self._release(worker)
        if pending is not None:
            self._fall_back(pending, why)
        with contextlib.suppress(Exception):
            loop = asyncio.get_running_loop()
            loop.remove_reader(worker.replies.fileno())
            loop.remove_writer(worker.jobs.fileno())
        worker.jobs.close()
        worker.replies.close()
        if worker.process.is_alive():
            worker.process.terminate()
        if worker in self._idle:
            self._idle.remove(worker)
        self._workers.remove(worker)

    def _fall_back(self, pending: _Pending, error: object) -> None:
        """The default bot decides for a late or failed decision."""
        if pending.future.done():
            return
        if error is not None:
            log.error("a bot decision failed (%s): the default bot plays instead", error)
        job = pending.job
        try:
            pending.future.set_result(default_decision(job.view, job.seed, job.race))
        except Exception as exc:
            pending.future.set_exception(exc)


def _framed(data: bytes) -> bytes:
    """``data`` framed as :meth:`Connection.send_bytes` frames it (the worker reads it so)."""
    size = len(data)
    if size > 0x7FFFFFFF:
        return struct.pack("!i", -1) + struct.pack("!Q", size) + data
    return struct.pack("!i", size) + data


def _whole_message(received: bytearray) -> bytes | None:
    """The first message in ``received`` once all of it has arrived (taken out of it),
    framed as :meth:`Connection.send_bytes` frames it; else None."""
    if len(received) < 4:
        return None
    (size,) = struct.unpack("!i", received[:4])
    start = 4
    if size == -1:  # over 2 GiB: a longer length follows
        if len(received) < 12:
            return None
        (size,) = struct.unpack("!Q", received[4:12])
        start = 12
    if len(received) < start + size:
        return None
    data = bytes(received[start : start + size])
    del received[: start + size]
    return data
