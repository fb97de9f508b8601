"""Bots cannot starve the room: bounded specs, decisions in worker processes served
fairly between tables, a deadline with the default bot's move past it, and bots that
keep their memory across decisions made in other processes."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from functools import partial
from typing import Any

import pytest

from tests.server.conftest import seat_header
from tests.test_simultaneous import Buzzer, BuzzerState
from tripletopper.bots import (
    ANY_GAME,
    BOTS,
    Bot,
    RandomBot,
    SeatView,
    bot_factory,
    bot_names,
    check_spec,
    decision_costs,
    room_limits,
)
from tripletopper.bots.toe import ToeHeuristic
from tripletopper.engine import CLOCK, Action, Event, derive_seed
from tripletopper.errors import InvalidOptionError
from tripletopper.games import GAMES
from tripletopper.question_banks import make_game
from tripletopper.server import storage
from tripletopper.server.botpool import DEADLINE, BotPool, Job, default_decision, dumps, loads
from tripletopper.server.storage import Database, SeatRow, TableRow, sqlite_url
from tripletopper.server.tables import Room, Settings

# --- bounded specs ---------------------------------------------------------------------------


def toe_table(client) -> tuple[str, Callable[[str], Any]]:
    body = client.post("/api/tables", json={"game": "toe", "players": 2, "name": "Ann"}).json()
    tid, token = body["table"]["id"], body["token"]

    def add(spec: str) -> Any:
        return client.post(
            f"/api/tables/{tid}/seats/1/bot", json={"bot": spec}, headers=seat_header(token)
        )

    return tid, add


def test_a_bot_costlier_than_the_expert_is_refused_naming_the_maximum(client):
    tid, add = toe_table(client)
    r = add("ismcts:seconds=20")
    assert r.status_code == 400
    assert r.json() == {
        "type": "error",
        "code": "bad_bot",
        "message": "seconds=20 is more than the card room allows: "
        "at most seconds=2 for Triple Topper Toe bots",
    }
    assert add("hard:iterations=5000").json()["message"] == (
        "iterations=5000 is more than the card room allows: "
        "at most iterations=3000 for Triple Topper Toe bots"
    )
    assert "at most depth=1" in add("expert:depth=4").json()["message"]
    assert client.get(f"/api/tables/{tid}").json()["table"]["seats"][1]["kind"] is None
    assert add("ismcts:seconds=2").status_code == 200


def test_unknown_and_malformed_bot_parameters_are_refused(client):
    body = client.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "A"})
    tid, token = body.json()["table"]["id"], body.json()["token"]

    def add(spec: str) -> Any:
        r = client.post(
            f"/api/tables/{tid}/seats/1/bot", json={"bot": spec}, headers=seat_header(token)
        )
        assert r.status_code == 400 and r.json()["code"] == "bad_bot", r.text
        return r.json()["message"]

    assert add("medium:foo=1") == (
        "bot 'medium' has no parameter 'foo' (its parameters: samples, margin, holdout_wilds)"
    )
    assert add("random:depth=1") == "bot 'random' has no parameter 'depth' (it takes none)"
    assert add("hard:exploration=abc").startswith("bad parameters for bot 'hard'")
    assert add("hard:iterations=1e400").startswith("bad parameters for bot 'hard'")
    # Below the floor or not a number: a crash (samples=0 divided by zero) or a silent
    # no-op search, refused at the door like an excess.
    assert add("medium:samples=0") == "bad parameters for bot 'medium': samples=0: give 1 or more"
    assert add("hard:iterations=-5") == (
        "bad parameters for bot 'hard': iterations=-5: give 1 or more"
    )
    assert add("easy:mistakes=2") == (
        "bad parameters for bot 'easy': mistakes=2: give a chance from 0 to 1"
    )
    assert (
        add("hard:exploration=nan")
        == "bad parameters for bot 'hard': exploration=nan is not a number"
    )
    assert add("medium:samples=100") == (
        "samples=100 is more than the card room allows: at most samples=24 for Thirty-Two bots"
    )
    assert client.get(f"/api/tables/{tid}").json()["table"]["seats"][1]["kind"] is None


def test_the_limits_are_each_games_costliest_offered_bot_and_research_is_unbounded():
    limits = {name: room_limits(make_game(name)) for name in sorted(GAMES)}
    assert limits["toe"] == {"seconds": 2.0, "iterations": 3000, "depth": 1}
    assert limits["thirty-two"]["iterations"] == 3000 and limits["thirty-two"]["samples"] == 24
    assert limits["memo-match"]["iterations"] == 1000  # no level searches: plain ismcts
    for name in GAMES:
        game = make_game(name)
        for bot in bot_names(name):
            check_spec(bot, game, bounded=True)  # every bot the room offers fits
    toe = make_game("toe")
    with pytest.raises(InvalidOptionError):
        check_spec("ismcts:iterations=100000", toe, bounded=True)
    big = check_spec("ismcts:iterations=100000", toe)(0, 1)  # the CLI and tournaments may
    assert decision_costs(big)["iterations"] == 100000


def test_every_offered_bot_travels_to_a_worker_and_back():
    for name, cls in GAMES.items():
        players = max(2, cls.min_players)
        game = make_game(name, players, **({"quiz": True} if name == "toe" else {}))
        state = game.new_state(3)
        seat = state.to_act()[0]
        for spec in bot_names(name):
            job = Job(bot_factory(spec, game)(seat, 1), SeatView(state.clone(), seat), [], False, 0)
            data = dumps(job)
            copy = loads(data, {})
            assert type(copy.bot) is type(job.bot) and copy.view.game.options == game.options
            assert copy.bot.choose(copy.view) == job.bot.choose(SeatView(state.clone(), seat))
            # shared tables (strength, pairs, the deck) travel by name, not by value
            assert len(dumps(job.bot)) < 1500, (name, spec, len(dumps(job.bot)))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_bot_decides_the_same_after_travelling_at_every_turn_of_a_game(name):
    # the memory a bot built (discards seen, cards remembered) and the tables it
    # builds again after unpickling give the same decisions as the bot that stayed
    game = make_game(name, 3 if name != "toe" else 2)
    state = game.new_state(5)
    bots = {seat: bot_factory("medium", game)(seat, seat) for seat in range(game.players)}
    decided = 0
    for _ in range(150):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        bot = bots[seat]
        twin = loads(dumps(bot), {})
        action = bot.choose(SeatView(state.clone(), seat))
        assert twin.choose(SeatView(state.clone(), seat)) == action
        if action is None:  # a race it waits in: let the clock end it
            limit = state.timeout()
            assert limit is not None
            seat, action = CLOCK, limit[1]
        decided += 1
        for event in state.apply(action, seat):
            for watcher, other in bots.items():
                if other.wants_events:
                    other.observe([event.view(watcher)])
    assert decided >= 30


# --- the room's bot pool -----------------------------------------------------------------


@contextlib.asynccontextmanager
async def open_room(
    path: Any, *, workers: int = 2, deadline: float = DEADLINE
) -> AsyncIterator[Room]:
    """A room on SQLite with a real pool of worker processes, bots acting at once."""
    db = Database(sqlite_url(path))
    db.migrate()
    db.start()
    pool = BotPool(workers, deadline)
    room = Room(db, pool, Settings(bot_delay=0.0, bot_deadline=deadline))
    try:
        yield room
    finally:
        await room.close()
        pool.close()
        db.stop()


def bots(*specs: str) -> dict[int, SeatRow]:
    return {s: SeatRow(s, f"{spec} {s}", "bot", spec, None) for s, spec in enumerate(specs)}


async def until(done: Callable[[], bool], timeout: float = 30.0) -> None:
    ends = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < ends, "timed out"
        await asyncio.sleep(0.01)


def test_expert_tables_do_not_hold_up_a_medium_bot_at_another_table(tmp_path):
    async def main() -> tuple[int, int]:
        async with open_room(tmp_path, workers=2) as room:
            experts = [
                await room.create("toe", 2, {}, seats=bots("expert", "expert"), seed=s, start=True)
                for s in (1, 2)
            ]
            await until(lambda: all(t.version >= 1 for t in experts))  # thinking by now
            before = sum(t.version for t in experts)
            medium_moves = 0
            while medium_moves < 30:  # games of medium bots, one after the other
                t = await room.create("toe", 2, {}, seats=bots("medium", "medium"), start=True)
                await until(lambda t=t: t.version >= 30 or t.row.status == "finished")
                medium_moves += t.version
            return medium_moves, sum(t.version for t in experts) - before

    medium_moves, expert_moves = asyncio.run(main())
    # Each expert decision searches 3000 determinizations; a medium one takes a few ms.
    # Served in turn with search bots held to one worker, the medium table plays on.
    assert medium_moves >= 30
    assert expert_moves < 10


class Sleeper(Bot):
    """A bot that thinks far past any deadline (it ignores its time budget)."""

    name = "sleeper"

    def choose(self, view: SeatView) -> Action:
        time.sleep(60)
        return view.legal_actions()[-1]


def test_past_the_deadline_the_default_bot_moves_and_a_stuck_worker_is_replaced(
    tmp_path, monkeypatch
):
    monkeypatch.setitem(BOTS, "sleeper", {ANY_GAME: Sleeper})

    async def main() -> Any:
        async with open_room(tmp_path, workers=2, deadline=0.4) as room:
            table = await room.create(
                "toe", 2, {}, seats=bots("sleeper", "medium"), seed=4, start=True
            )
            await until(lambda: bool(room.pool.pids()))  # the sleeper's worker
            first = room.pool.pids()
            await until(lambda: room.pool.replaced >= 1 and table.version >= 6)
            assert first[0] not in room.pool.pids()  # terminated, a new worker took over
            assert isinstance(table.bots[0], Sleeper)  # the seat keeps its own bot
            return table

    table = asyncio.run(main())
    row, game = table.row, table.game
    state = game.new_state(row.seed, decks=row.decks, **row.setup)
    sleeper_moves = 0
    for seat, action in table.state.history:
        if seat == 0:
            view = SeatView(state.clone(), 0)
            seed = derive_seed(row.seed, 0, state.version)
            assert action == default_decision(view, seed, False).action
            assert action == ToeHeuristic(game, 0, seed).choose(view)
            sleeper_moves += 1
        state.apply(action, seat)
    assert sleeper_moves >= 2


def test_a_forgetful_bot_keeps_its_memory_across_decisions_in_worker_processes():
    game = make_game("memo-match", 2)

    async def main() -> int:
        pool = BotPool(2)
        try:
            state = game.new_state(3)
            pooled = bot_factory("forgetful", game)(0, 9)
            twin = bot_factory("forgetful", game)(0, 9)  # the same bot, deciding here
            other = RandomBot(game, 1, 5)
            inbox: list[Any] = []
            most = 0
            for _ in range(120):
                if state.is_terminal():
                    break
                seats = state.to_act()
                if len(seats) > 1:  # a spotting race: let it end on the clock
                    limit = state.timeout()
                    assert limit is not None
                    seat, action = CLOCK, limit[1]
                elif seats[0] == 0:
                    job = Job(pooled, SeatView(state.clone(), 0), inbox, False, 0)
                    decision = await pool.decide("table", job)
                    twin.observe(inbox)
                    assert decision.action == twin.choose(SeatView(state, 0))
                    assert decision.bot is not None
                    pooled, inbox = decision.bot, []
                    assert pooled.remembered == twin.remembered  # type: ignore[attr-defined]
                    most = max(most, len(twin.remembered))  # type: ignore[attr-defined]
                    seat, action = 0, decision.action
                else:
                    seat, action = 1, other.choose(SeatView(state, 1))
                inbox += [event.view(0) for event in state.apply(action, seat)]
            return most
        finally:
            pool.close()

    assert asyncio.run(main()) >= 4  # it remembered positions seen over many decisions


HOARD = 1 << 20
"""Bytes a :class:`Hoarder` keeps: far more than a pipe holds, so its replies arrive in pieces."""


class Hoarder(RandomBot):
    """A random bot with a big memory, which travels back with every decision."""

    def choose(self, view: SeatView) -> Action:
        self.hoard = bytes(HOARD)
        return super().choose(view)


def test_a_reply_is_taken_whole_however_its_bytes_arrive():
    import struct

    from tripletopper.server.botpool import _whole_message

    short = struct.pack("!i", 3) + b"abc"
    long = struct.pack("!i", -1) + struct.pack("!Q", 2) + b"xy"  # the over-2-GiB framing
    received = bytearray()
    taken = []
    for byte in short + long + short:  # one byte at a time
        received.append(byte)
        while (data := _whole_message(received)) is not None:
            taken.append(data)
    assert taken == [b"abc", b"xy", b"abc"] and not received


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_replies_bigger_than_a_pipe_arrive_whole_whatever_the_servers_event_loop(loop):
    # uvloop (the loop `tripletopper serve` runs on) makes the descriptors it watches
    # non-blocking: a reply read whole as soon as it began to arrive failed, the worker
    # was replaced and the default bot moved instead.
    import uvloop

    game = make_game("thirty-one", 2)

    async def main() -> int:
        pool = BotPool(1)
        try:
            state = game.new_state(1)
            for n in range(6):
                seat = state.to_act()[0]
                job = Job(Hoarder(game, seat, n), SeatView(state.clone(), seat), [], False, n)
                decision = await pool.decide("table", job)
                assert isinstance(decision.bot, Hoarder), "the default bot decided"
                assert len(decision.bot.hoard) == HOARD
                assert decision.action is not None
                state.apply(decision.action, seat)
            return pool.replaced
        finally:
            pool.close()

    run = uvloop.run if loop == "uvloop" else asyncio.run
    assert run(main()) == 0


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_a_worker_that_stops_reading_holds_up_neither_the_loop_nor_other_decisions(loop):
    # A job bigger than a pipe, sent to a worker that is alive but reads nothing (stopped
    # here): written blocking, it froze the server's event loop until the worker read.
    import os
    import signal
    import threading

    import uvloop

    game = make_game("thirty-one", 2)
    state = game.new_state(1)
    seat = state.to_act()[0]
    rescued = threading.Event()

    def rescue(pid: int) -> None:  # the loop is frozen: end the test instead of hanging it
        rescued.set()
        os.kill(pid, signal.SIGKILL)

    async def main() -> tuple[Any, int, int]:
        pool = BotPool(1)
        stopped: int | None = None
        try:
            first = await pool.decide(
                "a", Job(RandomBot(game, seat, 1), SeatView(state.clone(), seat), [], False, 1)
            )
            assert first.bot is not None  # the worker is up
            pool.deadline = 0.3
            (stopped,) = pool.pids()
            assert stopped is not None
            os.kill(stopped, signal.SIGSTOP)
            watchdog = threading.Timer(10, rescue, (stopped,))
            watchdog.start()
            hoarder = Hoarder(game, seat, 2)
            hoarder.hoard = bytes(HOARD)  # the job itself is over a pipe's size
            ticks = 0

            async def tick() -> None:
                nonlocal ticks
                while True:
                    await asyncio.sleep(0.01)
                    ticks += 1

            ticker = asyncio.ensure_future(tick())
            job = Job(hoarder, SeatView(state.clone(), seat), [], False, 2)
            late = await pool.decide("b", job)
            await until(lambda: pool.replaced == 1)  # a deadline later; a new worker decides
            after = await pool.decide(
                "c", Job(RandomBot(game, seat, 3), SeatView(state.clone(), seat), [], False, 3)
            )
            watchdog.cancel()
            ticker.cancel()
            assert after.bot is not None and stopped not in pool.pids()
            return late, ticks, pool.replaced
        finally:
            pool.close()
            if stopped is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(stopped, signal.SIGKILL)

    run = uvloop.run if loop == "uvloop" else asyncio.run
    late, ticks, replaced = run(main())
    assert not rescued.is_set(), "the event loop froze until the stopped worker was killed"
    assert late.bot is None  # the default bot moved at the deadline
    assert late.action in state.legal_actions(seat)
    assert ticks >= 10  # the loop ran on meanwhile (0.6 s at least: the deadline, its grace)
    assert replaced == 1


def test_a_tables_forgetful_bots_remember_what_they_saw_in_earlier_decisions(tmp_path):
    async def main() -> int:
        async with open_room(tmp_path) as room:
            seats = bots("forgetful:spot_delay=0", "forgetful:spot_delay=0")
            table = await room.create("memo-match", 2, {}, seats=seats, seed=8, start=True)
            most = 0

            def remembered() -> bool:  # the most any bot remembers while they play
                nonlocal most
                for bot in table.bots.values():
                    most = max(most, len(bot.remembered))  # type: ignore[attr-defined]
                return table.version >= 30

            await until(remembered)
            return most

    assert asyncio.run(main()) >= 3


def test_a_stored_bot_beyond_the_bounds_is_replaced_by_the_default_level(tmp_path):
    """A spec stored by an older server (no bounds then) is not obeyed after a restart."""
    db = Database(sqlite_url(tmp_path))
    db.migrate()
    now = time.time()
    row = TableRow(
        id="old",
        game="toe",
        players=2,
        options=dict(make_game("toe").options),
        seed=5,
        status="playing",
        created_at=now,
        started_at=now,
        seats=bots("ismcts:seconds=20", "hard:iterations=100000"),
    )
    db.run_now(partial(storage.insert_table, row=row))
    db.engine.dispose()

    async def main() -> None:
        async with open_room(tmp_path) as room:
            assert await room.restore() == 1
            table = await room.get("old")
            assert all(type(bot) is ToeHeuristic for bot in table.bots.values())
            assert table.row.seats[0].bot == "ismcts:seconds=20"  # stored as it was
            await until(lambda: table.version >= 6)  # and the default bots play on

    asyncio.run(main())


# --- a race, then a turn: a bot slow to race must still take its turn ------------------------


class RaceThenTurnState(BuzzerState):
    """Buzzer's race (ended by the clock after 1.5 s), then seat 1 plays alone."""

    __slots__ = ("done",)

    def __init__(self, game: Any, origin: dict[str, Any]) -> None:
        super().__init__(game, origin)
        self.done = False

    def to_act(self) -> tuple[int, ...]:
        return (0, 1) if self.winner == -1 else () if self.done else (1,)

    def timeout(self) -> tuple[float, Action] | None:
        return (1.5, ("timeout",)) if self.winner == -1 else None

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        if self.winner == -1:
            super()._apply(seat, action, events)
        else:
            self.done = True

    def is_terminal(self) -> bool:
        return self.done

    def results(self) -> Any:
        return super().results() if self.done else None

    def clone(self) -> RaceThenTurnState:
        twin = RaceThenTurnState(self.game, self.origin)
        twin._copy_base(self)
        twin.winner, twin.done = self.winner, self.done
        return twin


class RaceThenTurn(Buzzer):
    name = "race-then-turn"

    def new_state(self, seed: int = 0, *, decks: Any = None, **setup: Any) -> RaceThenTurnState:
        return RaceThenTurnState(self, {"seed": seed, "decks": None, "setup": {}})


class Slowpoke(RandomBot):
    """Would buzz after a day."""

    name = "slowpoke"

    def reaction_time(self, view: SeatView) -> float:
        return 86_400.0


def test_a_bot_too_slow_for_a_race_still_takes_its_turn_after_it(tmp_path, monkeypatch):
    monkeypatch.setitem(GAMES, "race-then-turn", RaceThenTurn)
    monkeypatch.setitem(BOTS, "slowpoke", {ANY_GAME: Slowpoke})

    async def main() -> list[tuple[int, Action]]:
        async with open_room(tmp_path) as room:
            seats = bots("slowpoke", "slowpoke")
            table = await room.create("race-then-turn", 2, {}, seats=seats, start=True)
            await until(lambda: table.row.status == "finished", timeout=10)
            assert table.state is not None
            return table.state.history

    assert asyncio.run(main()) == [(CLOCK, ("timeout",)), (1, ("buzz",))]
