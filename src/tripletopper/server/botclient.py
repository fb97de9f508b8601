"""The reference bot-account client: ``tripletopper bot connect --server URL --token T``.

It connects to the room's ``/ws/bot`` with a bot account's API token and, for each
``invite``, plays that seat through the table's websocket (:class:`TableClient`,
which reconnects and resyncs by itself), choosing with a built-in bot.  It behaves
as docs/bots-api.md asks of any bot: it reconnects with exponential backoff (0.5 s
doubling to 30 s), never sends faster than the room's limits (one action per
update it was sent, at most 20 a second), and stops for good when its token is
refused (``bad_token``, ``revoked``, ``expired_token``).  It accepts every rematch it is
offered (``rematches=False``: declines them); the seat's ``invite`` then follows.

A bot account's seat is sent its observation and its recall (its own memory), and
its bot is fed the events of every update (``wants_events``), so every bot decides
as it would seated in the room: a search bot (``hard``, ``expert``, ``ismcts``)
samples worlds built from that view alone (``Game.world_from_view``), and with the
same seed chooses what a local one would.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import logging
import random
from collections.abc import Callable
from functools import partial
from typing import Any, cast

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tripletopper.bots import Bot, SampledView, SeatView, bot_factory
from tripletopper.engine import Action, Game, Rng, State
from tripletopper.question_banks import make_game
from tripletopper.server.client import TableClient

log = logging.getLogger("tripletopper.botclient")

FATAL = frozenset({"bad_token", "revoked", "expired_token"})
"""Refusals that no retry can change."""
MIN_GAP = 0.05
"""Seconds between two actions of one seat (the room allows 50 messages a second)."""


class ObservedView:
    """What a remote seat knows, answering a bot like a :class:`SeatView` would."""

    def __init__(self, game: Game, seat: int, client: TableClient) -> None:
        # a snapshot: the bot decides in a thread while the client goes on receiving
        self.game = game
        self.seat = seat
        self.version = client.version
        self._observation = copy.deepcopy(client.observation)
        self._recall = copy.deepcopy(client.recall)
        self._actions = [game.action_from_wire(wire) for wire in client.actions]
        self._world: State | None = None

    def observation(self) -> dict[str, Any]:
        return self._observation

    def legal_actions(self) -> list[Action]:
        return list(self._actions)

    def to_act(self) -> tuple[int, ...]:
        return tuple(self._observation.get("to_act", ()) or ())

    def sample(self, rng: Rng) -> SampledView:
        """A world built from the seat's view alone, dealt as :meth:`SeatView.sample` deals
        one: the view is read into a world once (a view is one decision's), which each
        sample resamples (the same deal as a world built with ``rng``, and cheaper)."""
        if self._world is None:
            self._world = self.game.world_from_view(
                self.seat, self._observation, self._recall, Rng(0)
            )
        return SampledView(self._world.resample(self.seat, rng), self.seat)

    def recall(self) -> dict[str, Any]:
        return self._recall


async def play_seat(
    server: str,
    invite: dict[str, Any],
    spec: str,
    say: Callable[[str], None],
    seed: int | None = None,
) -> None:
    """Play one invited seat to the end of its game (the bot seeded by ``seed``, else at
    random)."""
    table = TableClient(server, invite["table"], invite["token"])
    seat = int(invite["seat"])
    seed = random.randrange(2**31) if seed is None else seed
    bots: list[Bot] = []  # the bot, once the table says which game it plays
    early: list[dict[str, Any]] = []  # events that came before the bot was made

    thinking = False  # while the bot decides (in a thread), its events wait in ``early``

    def feed(_client: TableClient, message: dict[str, Any]) -> None:
        events = message.get("events")
        if not events:
            return
        if not bots or thinking:
            early.extend(events)
            return
        for each in bots:
            if each.wants_events:
                each.observe(events)

    table.on_update = feed
    await table.start()
    game = make_game(
        invite["game"],
        table.table.get("players") or invite["players"],
        **(table.table.get("options") or {}),
    )
    bot: Bot = bot_factory(spec, game)(seat, seed)
    bots.append(bot)
    feed(table, {"events": early[:]})
    early.clear()
    say(f"playing seat {seat + 1} of {invite['game']} at table {invite['table']} as {spec}")
    try:
        while not table.finished and table.status not in ("abandoned", "expired"):
            await table.wait(
                lambda c: bool(c.legal) or c.finished or c.status == "abandoned", timeout=3600
            )
            if not table.legal or table.finished:
                continue
            seen = table.version
            view = cast(SeatView, ObservedView(game, seat, table))
            thinking = True  # a search takes seconds: the connection keeps being served
            try:
                action = await asyncio.to_thread(bot.choose, view)
            finally:
                thinking = False
                waiting, early[:] = early[:], []
                feed(table, {"events": waiting})
            moved = partial(_moved_on, seen=seen)
            if action is None:  # it lets others go first: wait for the next update
                await table.wait(moved, timeout=3600)
                continue
            await asyncio.sleep(MIN_GAP)
            if table.version != seen:
                continue
            await table.act(game.action_to_wire(action))
            await table.wait(moved, timeout=60)
            table.errors.clear()  # a stale or refused action: look again
        say(f"table {invite['table']}: {table.status}")
    finally:
        await table.close()


def _moved_on(client: TableClient, seen: int) -> bool:
    """The game moved past version ``seen``, or the last action was refused."""
    return client.version != seen or bool(client.errors)


async def run(
    server: str,
    token: str,
    spec: str,
    *,
    say: Callable[[str], None] = print,
    once: bool = False,
    rematches: bool = True,
    seed: int | None = None,
) -> str:
    """Stay connected as the token's bot account, playing every invitation (and accepting
    every rematch offered, unless not ``rematches``); returns the reason it stopped (a
    refused token; with ``once``, after the first game).  ``seed`` seeds every seat's bot
    (tests); by default each is seeded at random."""
    url = server.replace("http", "ws", 1).rstrip("/") + "/ws/bot"
    delay = 0.5
    games: set[asyncio.Task[None]] = set()
    while True:
        try:
            async with connect(url, open_timeout=10) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                async for text in ws:
                    message = json.loads(text)
                    kind = message.get("type")
                    if kind == "welcome":
                        delay = 0.5
                        say(f"connected as {message['bot']}: waiting for invitations")
                    elif kind == "error":
                        say(f"refused: {message.get('message')}")
                        if message.get("code") in FATAL:
                            return str(message["code"])
                    elif kind == "rematch":
                        answer = "accept" if rematches else "decline"
                        say(f"{answer} the rematch {message['table']} of {message['of']}")
                        await ws.send(json.dumps({"type": answer, "table": message["table"]}))
                    elif kind == "invite":
                        task = asyncio.create_task(play_seat(server, message, spec, say, seed))
                        games.add(task)
                        task.add_done_callback(games.discard)
                        if once:
                            await task
                            return "played"
        except (OSError, TimeoutError, ConnectionClosed) as exc:
            say(f"disconnected ({type(exc).__name__}): retrying in {delay:.1f} s")
        await asyncio.sleep(delay)
        delay = min(30.0, delay * 2)


def connect_command(server: str, token: str, spec: str, *, rematches: bool = True) -> None:
    """Run :func:`run` until its token is refused or the user stops it."""
    with contextlib.suppress(KeyboardInterrupt):
        reason = asyncio.run(run(server, token, spec, rematches=rematches))
        raise SystemExit(f"stopped: {reason}")
