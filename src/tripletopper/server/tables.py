"""Card tables at run time: seats, the authoritative game loop, bots and clocks.

A :class:`Table` owns one game.  Everything that changes it (taking a seat,
adding a bot, starting, an action from a browser, a bot or a clock) runs under
the table's ``asyncio.Lock``, in this order:

1. check the seat and the state version the actor saw;
2. apply the action through the engine (which refuses illegal ones and
   changes nothing);
3. store the action and await the commit;
4. only then tell every connected client: each seat gets its own
   observation and its own view of the events, spectators the public ones.

The server contains no game-specific logic: options, actions, observations,
narration, timed phases and default actions all come from the engine contract.
Bots think in worker processes (:mod:`tripletopper.server.botpool`: fair between
tables, under a deadline) on a clone of the state, without the table lock, and
their action is then submitted like anyone's, checked against the version they
decided on.

When the room runs as several processes (:mod:`tripletopper.server.cluster`), only
the table's *owner* runs that loop; other processes hold a replica that follows the
owner's published changes and forward their clients' requests to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol

import orjson
from sqlalchemy.exc import DBAPIError

from tripletopper.bots import Bot, SeatView, bot_factory, bot_names, check_spec, default_bot
from tripletopper.engine import (
    CLOCK,
    YOU,
    Action,
    ActionPattern,
    Event,
    Game,
    Results,
    State,
    derive_seed,
)
from tripletopper.errors import (
    IllegalActionError,
    InvalidOptionError,
    MalformedActionError,
    TripleTopperError,
)
from tripletopper.games import game_class
from tripletopper.question_banks import make_game
from tripletopper.server import leases, metrics, names, ratings, storage
from tripletopper.server.botpool import (
    DEADLINE,
    BotPool,
    Decision,
    Job,
    default_decision,
    room_bot,
)
from tripletopper.server.chat import (
    CHAT_KEEP,
    MAX_CHAT_LINES,
    MAX_SPECTATOR_LINES,
    BadChat,
    clean_chat,
    spectator_name,
)
from tripletopper.server.storage import ActionRow, ChatRow, Database, SeatRow, TableRow

if TYPE_CHECKING:
    from tripletopper.server.cluster import Cluster

log = logging.getLogger("tripletopper.server")

OPEN, PLAYING, FINISHED = "open", "playing", "finished"
ABANDONED, EXPIRED, BROKEN = "abandoned", "expired", "broken"
"""Ends other than a finish: the people all left a running game; an open table nobody sat
at for ``Settings.open_ttl``; stored rows that no longer replay."""
OVER = (FINISHED, ABANDONED)
"""Games that are over and can be replayed."""
HUMAN, BOT, INVITED = "human", "bot", "invited"
"""Who holds a seat: a person, a bot (maybe for a person who left: see ``Table.held``), or
nobody yet: a rematch's seat offered to a person who has not answered."""
BOT_SUFFIX = " (bot)"
"""Added to a person's name while a bot plays their seat."""
LOG_KEEP = 40
"""Narrated lines a full resync sends (a catch-up sends every missed line)."""
MAX_DEVICE_KEYS = 8
"""Other devices of an account that hold its seat at once (a further one drops the oldest)."""
MAX_CATCH_UP = 50
"""Actions kept in memory to narrate to a client catching up; further behind, it gets
a resync.  (Fewer long-lived objects keep Python's garbage collector pauses short.)"""


class ClientError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"type": "error", "code": self.code, "message": self.message, **self.extra}


class Moved(ClientError):
    """A request for a table this process stopped running while the request waited."""


class BotLink(Protocol):
    """A bot account's connection to ``/ws/bot``, where it hears its invitations."""

    name: str
    token_id: int

    def push(self, text: str) -> None:
        """Queue one message; never blocks."""

    def end(self, code: str, message: str) -> None:
        """Tell the bot why, then close the connection."""


class Listener(Protocol):
    """A connected client as a table sees it: a seat (None: spectator) and a mailbox."""

    seat: int | None
    key: str | None
    """The hash of the seat token it said hello with (None: none); the seat it plays is
    taken from it when that token no longer holds the seat (:meth:`Table._drop_revoked`)."""

    def push(self, text: str) -> None:
        """Queue one message; never blocks."""


def holds(info: SeatRow | None, key: str | None) -> bool:
    """Whether the token hashed ``key`` is one of the seat's: its own or a resumed device's."""
    return (
        info is not None
        and key is not None
        and any(
            secrets.compare_digest(k, key)
            for k in (info.token_hash or "", *(d.partition(":")[0] for d in info.device_keys))
        )
    )


def device_key(token: str, session_token: str) -> str:
    """A resumed device's entry in ``SeatRow.device_keys``: its token's and session's hashes."""
    return f"{hash_token(token)}:{hash_token(session_token)}"


def keep_devices(keys: tuple[str, ...], session_token: str) -> tuple[str, ...]:
    """The device keys handed to the session ``session_token`` (the others are revoked)."""
    mine = ":" + hash_token(session_token)
    return tuple(k for k in keys if k.endswith(mine))


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson: the broadcast's hottest step in pure json)."""
    return orjson.dumps(message).decode()


def join_json(*objects: str) -> str:
    """Serialized JSON objects merged into one (their keys must differ).

    >>> join_json('{"a":1}', '{"b":[2]}', '{}')
    '{"a":1,"b":[2]}'
    """
    inner = [text[1:-1] for text in objects if len(text) > 2]
    return "{" + ",".join(inner) + "}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(24)


TABLE_ID = re.compile(r"[A-Za-z0-9]{1,32}")
"""What a table id looks like (anything else is no table, without asking the database)."""


def new_table_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def person_name(name: object, taken: Iterable[str] = ()) -> str:
    """A person's name in its canonical form, or ``bad_name`` (see :mod:`.names`)."""
    try:
        clean = names.clean_name(name)
        names.check_unique(clean, taken)
    except names.BadName as exc:
        raise ClientError("bad_name", str(exc)) from None
    return clean


def chat_line(text: object) -> str:
    """A chat line as it is shown, or ``bad_chat`` (see :mod:`.chat`)."""
    try:
        return clean_chat(text)
    except BadChat as exc:
        raise ClientError("bad_chat", str(exc)) from None


@dataclass(slots=True)
class Entry:
    """One applied action, kept to narrate it to clients catching up."""

    version: int  # the state version after the action
    seat: int
    events: list[Event]
    by_clock: bool = False  # the seat's turn clock ran out: the server played it


@dataclass
class Settings:
    """Server-wide knobs (the command line and tests set them)."""

    bot_delay: float = 0.6
    """Seconds a bot waits before acting on its turn, so people can follow the game."""
    keep_finished: float = 600.0
    """Seconds a finished game stays in memory once nobody watches it (it stays stored)."""
    rates: dict[str, str] = field(
        default_factory=lambda: {
            "create": "20/minute",
            "seat": "60/minute",
            "replay": "30/minute",
            "lobby": "240/minute",
            "chat": "20/minute",
            "spectator_chat": "30/minute",
            "review": "10/minute",
            "review_status": "240/minute",
            "register": "30/hour",
            "signin": "30/minute",
            "signin_name": "10/minute",
        }
    )
    """Per client address: table creations; seats taken, left, taken back or bots added;
    replays; lobby lists; chat lines; reviews asked for, and looks at their progress;
    accounts registered; sign-in attempts.  Per table: ``spectator_chat``, the lines all its
    spectators together may say.  Per account name: ``signin_name``, sign-in attempts
    (``limits`` syntax; an empty dict turns rate limits off, e.g. for load benchmarks)."""
    session_days: float = 30.0
    """Days a sign-in lasts (the session cookie's lifetime)."""
    open_per_address: int = 10
    """Open (not started) tables one address may have made at once."""
    open_ttl: float = 1800.0
    """Seconds after which an open table that no person sits at expires."""
    abandon_grace: float = 120.0
    """Seconds a running game goes on once no person is seated; then it ends as abandoned."""
    sweep_every: float = 60.0
    """Seconds between two looks for expired open tables."""
    bot_deadline: float = DEADLINE
    """Seconds a bot's decision may take; then the game's default bot moves for it."""
    rematch_wait: float = 60.0
    """Seconds a rematch waits for the people offered a seat to accept; then a bot takes
    each seat not accepted (its person may still take it back) and the game starts."""
    review_workers: int = 1
    """Worker processes computing post-game reviews: the room's reviews run this many at a
    time (each a search per decision, like an expert bot's), the others wait their turn."""
    review_queue: int = 8
    """Reviews the room takes on at once (running or waiting); more are refused (``busy``)."""
    review_iterations: int | None = None
    """Search iterations per reviewed decision (None: the game's expert's)."""


class Table:
    """One card table: its stored row, its game state, its clients."""

    def __init__(self, room: Room, row: TableRow) -> None:
        self.room = room
        self.row = row
        self.game: Game = make_game(row.game, row.players, **row.options)
        self.state: State | None = None
        self.lock = asyncio.Lock()
        self.clients: set[Listener] = set()
        self.entries: list[Entry] = []
        self.bots: dict[int, Bot] = {}
        self.bot_inbox: dict[int, list[Mapping[str, Any]]] = {}
        self.bot_busy: set[int] = set()
        self.bot_waiting: dict[int, int] = {}
        self.since: dict[int, float] = {}
        self.last_at = row.started_at or row.created_at
        self.timer: asyncio.TimerHandle | None = None
        self.closed = False
        self.changes = 0
        self.replays: dict[int | None, str] = {}
        """Serialized replays of the game once it is over, by viewer."""
        self.clock_moves: set[int] = set()
        """Versions (after the action) of the actions a seat's turn clock played for it."""
        self.storing = False
        """An applied action is being saved: snapshots wait (``after_store``) until it is."""
        self.after_store: list[Callable[[], None]] = []
        """Counts changes that do not move the version (seats, status): part of the cache key."""
        self._cache_key: tuple[int, str, int] = (-1, "", -1)
        self._cache: dict[Any, str] = {}
        self.chat: list[ChatRow] = row.chat
        """The latest chat lines (at most ``CHAT_KEEP``); the rest are stored."""
        self.chat_counts = row.chat_counts
        self.spectators: dict[str, int] = {}
        """Client addresses of the spectators who spoke, numbered ("Spectator 2")."""
        self.rematch_timer: asyncio.TimerHandle | None = None
        self.owner = True
        """This process runs the table (always, on one process); else it holds a replica."""
        self.leased = False
        """This process holds the table's lease (the room runs as several processes)."""
        self.followed = True
        """Another process may follow the table (its owner publishes its changes)."""
        self.owner_name: str | None = None
        """A replica's idea of which process owns the table (None: look it up)."""
        self._reads = self._shown = 0
        """Reads of the stored table begun, and the latest begun of those shown (two reads
        may end in either order)."""
        self.asking = 0
        """A replica's requests under way at the owner."""
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        """A replica's forwarded actions, waiting for their update to arrive here."""

    # --- identity and summaries ------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.state.version if self.state is not None else 0

    def names(self, viewer: int | None = None) -> list[str]:
        out = []
        for seat in range(self.game.players):
            info = self.row.seats.get(seat)
            out.append(info.name if info else f"Seat {seat + 1}")
        if viewer is not None and 0 <= viewer < len(out):
            out[viewer] = YOU
        return out

    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it: no secrets (no tokens, no cards)."""
        return summarize(self.row, self.version)

    def seat_of(self, token: str | None) -> int | None:
        """The seat a secret token holds here (None if it holds none)."""
        return self.held(token, HUMAN)

    def held(self, token: str | None, kind: str) -> int | None:
        """The seat of this ``kind`` whose person the token is: ``HUMAN``, the seat they
        play; ``BOT``, the seat they left to a bot (they may take it back); ``INVITED``, a
        rematch's seat offered to them."""
        if not token:
            return None
        digest = hash_token(token)
        for info in self.row.seats.values():
            if info.kind == kind and holds(info, digest):
                return info.seat
        return None

    def standing(self, token: str | None) -> dict[str, int | None]:
        """Where a token stands here: ``seat`` (the seat it plays), ``away`` (the seat a bot
        plays for it) and ``invited`` (a rematch's seat offered to it)."""
        return {
            "seat": self.held(token, HUMAN),
            "away": self.held(token, BOT),
            "invited": self.held(token, INVITED),
        }

    def require_seat(self, token: str | None) -> int:
        seat = self.seat_of(token)
        if seat is None:
            away = self.held(token, BOT)
            if away is not None:
                back = (
                    ": take it back with your seat link (Take my seat back)"
                    if self.row.status == PLAYING
                    else ""
                )
                raise ClientError(
                    "left", f"you left seat {away + 1}: a bot plays it for you{back}", seat=away
                )
            raise ClientError("not_seated", "you do not hold a seat at this table")
        return seat

    # --- seats before the game ---------------------------------------------------------------
    def _free_seat(self, seat: object) -> int:
        if self.row.status != OPEN:
            raise ClientError("not_open", "the game has started: seats can no longer change")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ClientError("bad_seat", "a seat is a number")
        if not 0 <= seat < self.game.players:
            raise ClientError("bad_seat", f"seats are numbered 0 to {self.game.players - 1}")
        if seat in self.row.seats:
            raise ClientError("seat_taken", f"seat {seat} is taken")
        return seat

    async def take_seat(
        self, seat: object, name: object, user_id: int | None = None, account: str = ""
    ) -> str:
        """Seat a person; returns their secret token (only its hash is stored).  A signed-in
        person (``user_id``) sits under their ``account``'s name, once per table."""
        if not self.owner:
            return str(await self._remote("take_seat", seat, name, user_id, account))
        async with self._run():
            number = self._free_seat(seat)
            if self.row.rated and user_id is None:
                raise ClientError("rated", "this table is rated: sign in to sit down")
            chosen = account if user_id is not None else name
            return await self._seat_person(number, chosen, user_id)

    async def _seat_person(
        self, number: int, name: object, user_id: int | None, bot_account: bool = False
    ) -> str:
        """Seat a person (or a bot account) in the free seat ``number``; its new token."""
        self._one_seat_per_account(user_id)
        clean = person_name(name, (s.name for s in self.row.seats.values()))
        token = new_token()
        info = SeatRow(
            number, clean, HUMAN, None, hash_token(token), user_id, bot_account=bot_account
        )
        await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=info))
        self.row.seats[number] = info
        self._broadcast_table()
        return token

    def _one_seat_per_account(self, user_id: int | None) -> None:
        if user_id is not None and any(s.user_id == user_id for s in self.row.seats.values()):
            raise ClientError("already_seated", "your account already holds a seat here")

    async def link_account(self, by: str | None, user_id: int) -> int:
        """A guest who signed in links the seat their token holds (or left to a bot) to
        their account; the seat, its name and its token stay as they are."""
        if not self.owner:
            return int(await self._remote("link_account", by, user_id))
        async with self._run():
            seat = self.seat_of(by)
            if seat is None:
                seat = self.held(by, BOT)
            if seat is None:
                seat = self.require_seat(by)  # holds none: refused, saying why
            info = self.row.seats[seat]
            if info.user_id == user_id:
                return seat
            if info.user_id is not None:
                raise ClientError("not_your_seat", "this seat belongs to another account")
            self._one_seat_per_account(user_id)
            linked = replace(info, user_id=user_id)
            await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=linked))
            self.row.seats[seat] = linked
            return seat

    async def resume(self, user_id: int, session: str) -> tuple[int, str]:
        """Another device of the signed-in person ``user_id`` (its sign-in: the token
        ``session``) resumes the seat their account holds here (playing, or a rematch's seat
        offered): it gets a token of its own (the seat's other tokens stay valid).  Returns
        the seat and the token."""
        if not self.owner:
            seat, token = await self._remote("resume", user_id, session)
            return int(seat), str(token)
        async with self._run():
            info = next(
                (i for i in self.row.seats.values() if i.user_id == user_id and not i.bot_account),
                None,
            )
            if info is None:
                raise ClientError("not_seated", "your account holds no seat at this table")
            if self.row.status not in (OPEN, PLAYING):
                raise ClientError("not_playing", "this game is over: its replay shows it")
            if info.kind == BOT:
                raise ClientError(
                    "left",
                    f"you left seat {info.seat + 1}: a bot plays it for you (only the "
                    "seat link of the device you left from takes it back)",
                    seat=info.seat,
                )
            token = new_token()
            keys = (*info.device_keys, device_key(token, session))[-MAX_DEVICE_KEYS:]
            keyed = replace(info, device_keys=keys)
            await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=keyed))
            self.row.seats[info.seat] = keyed
            if len(keys) <= len(info.device_keys):  # the oldest device's token was dropped
                self._broadcast_table()
            return info.seat, token

    async def sign_out_devices(self, user_id: int, session: str) -> None:
        """The account ``user_id`` changed its password on the sign-in ``session``: the
        device keys of its seats here handed to any other session are revoked (the
        database has been updated already; storing again covers a seat written meanwhile)."""
        if not self.owner:
            await self._remote("sign_out_devices", user_id, session)
            return
        async with self._run():
            changed = False
            for seat, info in list(self.row.seats.items()):
                kept = keep_devices(info.device_keys, session)
                if info.user_id != user_id or kept == info.device_keys:
                    continue
                info = replace(info, device_keys=kept)
                await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=info))
                self.row.seats[seat] = info
                changed = True
            if changed:
                self._broadcast_table()  # their open connections watch from now on

    async def forget_account(self, user_id: int, name: str) -> None:
        """A deleted account's seats here (and their chat lines) go by ``name``, linked to
        nobody (the database has been updated already; storing again covers a seat written
        meanwhile)."""
        if not self.owner:
            await self._remote("forget_account", user_id, name)
            return
        async with self._run():
            mine = {s for s, info in self.row.seats.items() if info.user_id == user_id}
            if not mine:
                return
            for seat in mine:
                info = self.row.seats[seat]
                shown = name + BOT_SUFFIX if info.name.endswith(BOT_SUFFIX) else name
                gone = replace(info, name=shown, user_id=None, device_keys=())
                await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=gone))
                self.row.seats[seat] = gone
            for line in self.chat:
                if line.seat in mine:
                    line.name = name
            self.replays.clear()
            self._broadcast_table()

    async def add_bot(self, seat: object, spec: object, by: str | None) -> None:
        if not self.owner:
            await self._remote("add_bot", seat, spec, by)
            return
        async with self._run():
            self.require_seat(by)
            number = self._free_seat(seat)
            name = self._check_bot(spec)
            taken = {s.name for s in self.row.seats.values()}
            label = f"{name.split(':')[0].capitalize()} bot"
            nick, i = label, 2
            while nick in taken:
                nick, i = f"{label} {i}", i + 1
            info = SeatRow(number, nick, "bot", name, None)
            await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=info))
            self.row.seats[number] = info
            self._broadcast_table()

    async def seat_bot_account(self, seat: object, by: str | None, user_id: int, name: str) -> str:
        """Seat a connected bot account (invited by a person seated here); returns the seat
        token to send it.  It plays through the websocket like a person."""
        if not self.owner:
            return str(await self._remote("seat_bot_account", seat, by, user_id, name))
        async with self._run():
            self.require_seat(by)
            return await self._seat_person(self._free_seat(seat), name, user_id, True)

    def _check_bot(self, spec: object) -> str:
        if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
            raise ClientError("bad_bot", f"choose a bot: {', '.join(bot_names(self.game.name))}")
        try:
            check_spec(spec, self.game, bounded=True)
        except InvalidOptionError as exc:
            raise ClientError("bad_bot", str(exc)) from None
        return spec.strip()

    async def leave(self, seat: object, by: str | None) -> None:
        """Free a seat before the start (a bot's, by anyone seated); hand it to a bot later.

        A person who leaves a running game keeps their token's claim on the seat: the
        bot gives it back when they return (:meth:`take_back`)."""
        if not self.owner:
            await self._remote("leave", seat, by)
            return
        async with self._run():
            holder = self.require_seat(by)
            if not isinstance(seat, int) or seat not in self.row.seats:
                raise ClientError("bad_seat", "nobody sits there")
            info = self.row.seats[seat]
            if info.kind != BOT and seat != holder:
                raise ClientError("not_your_seat", "only its player can free a person's seat")
            if self.row.status == OPEN:
                await self.room.db.run(partial(storage.delete_seat, table_id=self.id, seat=seat))
                del self.row.seats[seat]
                await self._rematch_ready()
            elif self.row.status == PLAYING and info.kind == HUMAN:
                # leaving a rated game forfeits it: last place, even after coming back
                await self._hand_to_bot(replace(info, forfeit=bool(self.row.rated)))
                self._broadcast_table()
                self._reseat(seat, None)
                return
            else:
                raise ClientError("not_open", "this seat can no longer be freed")
            self._broadcast_table()

    async def _hand_to_bot(self, info: SeatRow) -> None:
        """A person's seat goes to the game's default bot (their token hash stays with it)."""
        seat = info.seat
        spec = default_bot(self.game.name)
        bot_row = replace(info, name=info.name + BOT_SUFFIX, kind=BOT, bot=spec)
        await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=bot_row))
        self.row.seats[seat] = bot_row
        if self.state is None:
            return  # an open rematch: the bot is made at the start
        self._make_bot(seat)
        self._kick_bots()
        self._arm_clock()
        self._watch_people()

    async def take_back(self, seat: object, by: str | None) -> None:
        """The person who left ``seat`` to a bot takes it back while the game runs."""
        if not self.owner:
            await self._remote("take_back", seat, by)
            return
        async with self._run():
            if not isinstance(seat, int) or isinstance(seat, bool):
                raise ClientError("bad_seat", "a seat is a number")
            if self.seat_of(by) == seat:
                raise ClientError("seated", f"you already play seat {seat + 1}")
            info = self.row.seats.get(seat)
            if info is None or info.kind != BOT or self.held(by, BOT) != seat:
                raise ClientError(
                    "not_your_seat",
                    "only the person who left this seat can take it back (with their seat link)",
                )
            if self.row.status != PLAYING:
                raise ClientError(
                    "not_playing", "the game is over: its seats are kept as they ended"
                )
            await self._person_back(info)
            self._broadcast_table()

    async def _person_back(self, info: SeatRow) -> None:
        """A bot gives its seat back to the person whose token hash it kept (during play:
        in a rated game they finish last, whether they left it or declined it as a rematch
        and came after the start)."""
        seat = info.seat
        person = replace(
            info,
            name=info.name.removesuffix(BOT_SUFFIX),
            kind=HUMAN,
            bot=None,
            forfeit=info.forfeit or bool(self.row.rated),
        )
        await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=person))
        self.row.seats[seat] = person
        self.bots.pop(seat, None)  # a decision on its way is dropped (_bot_turn)
        self.bot_inbox.pop(seat, None)
        self.bot_waiting.pop(seat, None)
        if seat in self.since:  # the turn clock starts anew for them
            self.since[seat] = time.time()
        self._arm_clock()

    def _reseat(self, seat: int, now: int | None) -> None:
        """Clients playing ``seat`` play ``now`` (None: they watch) from here on: they are
        told so, then shown the table as they now see it (call it after the change has
        been broadcast, so the snapshot they get is the new one)."""
        self._publish({"kind": "reseat", "seat": seat, "now": now})
        for client in list(self.clients):
            if client.seat == seat:
                client.seat = now
                client.push(encode({"type": "seat", "seat": now, "away": seat}))
                client.push(self.snapshot_text(now))

    async def start(self, by: str | None) -> None:
        if not self.owner:
            await self._remote("start", by)
            return
        async with self._run():
            self.require_seat(by)
            if self.row.status != OPEN:
                raise ClientError("not_open", "the game has already started")
            empty = [s for s in range(self.game.players) if s not in self.row.seats]
            if empty:
                raise ClientError(
                    "seats_empty",
                    f"seat(s) {', '.join(map(str, empty))} are empty: invite someone or add a bot",
                )
            waiting = [s + 1 for s, info in self.row.seats.items() if info.kind == INVITED]
            if waiting:
                raise ClientError(
                    "seats_empty",
                    f"seat(s) {', '.join(map(str, waiting))} have not answered the rematch yet",
                )
            await self._start_locked()

    async def _start_locked(self) -> None:
        now = time.time()
        rated = self.row.rated
        if rated is None:  # by default, rated when every person seated has an account
            people = [info for info in self.row.seats.values() if info.kind != BOT]
            rated = bool(people) and all(info.user_id is not None for info in people)
        await self.room.db.run(
            partial(
                storage.update_table,
                table_id=self.id,
                status=PLAYING,
                started_at=now,
                rated=rated,
            )
        )
        self.row.status = PLAYING
        self.row.started_at = now
        self.row.rated = rated
        self._begin(now)
        self._broadcast_table()
        self._broadcast([])

    # --- a rematch's seats -------------------------------------------------------------------
    async def accept(self, by: str | None) -> None:
        """The person offered a seat in this rematch takes it (again: nothing changes; after
        the start, the bot playing it gives it back)."""
        if not self.owner:
            await self._remote("accept", by)
            return
        async with self._run():
            if self.seat_of(by) is not None:
                return
            seat = self.held(by, INVITED)
            if seat is not None:
                await self._answer(self.row.seats[seat], True)
                return
            away = self.held(by, BOT)
            if away is None:
                raise ClientError("not_seated", "you hold no seat in this rematch")
            if self.row.status == OPEN:  # declined, then changed their mind before the start
                info = self.row.seats[away]
                person = replace(
                    info, name=info.name.removesuffix(BOT_SUFFIX), kind=HUMAN, bot=None
                )
                await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=person))
                self.row.seats[away] = person
            elif self.row.status == PLAYING:
                await self._person_back(self.row.seats[away])
            else:
                raise ClientError("not_playing", "this rematch is over")
            self._broadcast_table()
            await self._rematch_ready()

    async def decline(self, by: str | None) -> None:
        """The person offered a seat in this rematch says no: a bot plays it (and gives it
        back if they accept after all)."""
        if not self.owner:
            await self._remote("decline", by)
            return
        async with self._run():
            seat = self.held(by, INVITED)
            if seat is None:
                raise ClientError("not_seated", "no seat of this rematch waits for your answer")
            await self._answer(self.row.seats[seat], False)

    async def answer_as_bot_account(self, user_id: int, accept: bool) -> tuple[int, str | None]:
        """A connected bot account answers the seat of this rematch offered to it (over
        ``/ws/bot``, which proves who it is).  Accepting gives the seat a new token (the
        bot is sent it in an ``invite``: the server keeps only hashes, so it cannot send
        the old one); declining hands the seat to a built-in bot.  Returns the seat and
        the new token (None: declined)."""
        if not self.owner:
            seat, token = await self._remote("answer_as_bot_account", user_id, accept)
            return int(seat), None if token is None else str(token)
        async with self._run():
            info = next(
                (
                    i
                    for i in self.row.seats.values()
                    if i.kind == INVITED and i.bot_account and i.user_id == user_id
                ),
                None,
            )
            if info is None:
                raise ClientError("no_rematch", "no seat of this table waits for your answer")
            token = new_token() if accept else None
            if token is not None:
                info = replace(info, token_hash=hash_token(token))
            await self._answer(info, accept)
            return info.seat, token

    async def _answer(self, info: SeatRow, accept: bool) -> None:
        """The seat of this rematch offered as ``info`` is accepted (its person sits down)
        or declined (a bot plays it, and gives it back if they accept after all)."""
        if accept:
            person = replace(info, kind=HUMAN)
            await self.room.db.run(partial(storage.put_seat, table_id=self.id, seat=person))
            self.row.seats[info.seat] = person
        else:
            await self._hand_to_bot(info)
        self._broadcast_table()
        await self._rematch_ready()

    async def settle_rematch(self) -> None:
        """The rematch's wait is over: bots take the seats not accepted, then it starts (or
        expires, if no person accepted)."""
        async with self.lock:
            if self.row.status != OPEN or self.closed or not self.owner:
                return
            for info in list(self.row.seats.values()):
                if info.kind == INVITED:
                    await self._hand_to_bot(info)
            self._broadcast_table()
            await self._rematch_ready()

    async def _rematch_ready(self) -> None:
        """Start a rematch once nobody is left to answer and every seat is filled (a seat
        its person left before the start makes it an ordinary open table); with no person
        left at it, it expires instead."""
        row = self.row
        if row.status != OPEN or row.rematch_of is None:
            return
        kinds = [info.kind for info in row.seats.values()]
        if INVITED in kinds:
            return
        if self.rematch_timer is not None:
            self.rematch_timer.cancel()
            self.rematch_timer = None
        if HUMAN in kinds:
            if len(kinds) == self.game.players:  # (else someone left: an open table now)
                await self._start_locked()
            return
        await self.room.db.run(partial(storage.update_table, table_id=self.id, status=EXPIRED))
        row.status = EXPIRED
        self._broadcast_table()
        self.close()
        self.room.tables.pop(self.id, None)

    def _begin(self, now: float) -> None:
        row = self.row
        self.state = self.game.new_state(row.seed, decks=row.decks, **row.setup)
        self.last_at = now
        self.since = dict.fromkeys(self.state.to_act(), now)
        for seat, info in row.seats.items():
            if info.kind == "bot":
                self._make_bot(seat)
        self._kick_bots()
        self._arm_clock()
        self._watch_people()

    def _make_bot(self, seat: int) -> None:
        spec = self.row.seats[seat].bot or "random"
        self.bots[seat] = room_bot(spec, self.game)(seat, derive_seed(self.row.seed, seat, 1))
        self.bot_inbox[seat] = []

    # --- restoring after a restart -----------------------------------------------------------
    def restore(self) -> None:
        """Rebuild the game by replaying every stored action through the engine."""
        row = self.row
        if row.status == OPEN:
            return
        self.state = state = self.game.new_state(row.seed, decks=row.decks, **row.setup)
        for seat, info in row.seats.items():
            if info.kind == "bot" and self.owner:
                self._make_bot(seat)
        for action_row in row.actions:
            action = self.game.action_from_wire(action_row.action)
            events = state.apply(action, action_row.seat)
            self._record(action_row.seat, events, action_row.by_clock)
        last = row.actions[-1].at if row.actions else (row.started_at or row.created_at)
        row.actions = []  # the state's history holds them from now on
        self.last_at = last
        self.since = dict.fromkeys(state.to_act(), last)
        if row.status == PLAYING:
            if state.is_terminal():  # the action was stored, the finish was not: finish now
                return
            self._kick_bots()
            self._arm_clock()
            self._watch_people()

    # --- a game nobody plays any more --------------------------------------------------------
    def _watch_people(self) -> None:
        """If no person is seated in a running game, end it as abandoned after a grace period."""
        if not self.owner or any(info.kind == "human" for info in self.row.seats.values()):
            return
        loop = asyncio.get_running_loop()
        loop.call_later(self.room.settings.abandon_grace, lambda: self.room.spawn(self._abandon()))

    async def _abandon(self) -> None:
        async with self.lock:
            if self.closed or self.row.status != PLAYING:
                return
            if any(info.kind == "human" for info in self.row.seats.values()):
                return
            now = time.time()
            seated = self._rated_places(None)

            def job(conn: Any) -> None:
                storage.update_table(conn, self.id, status=ABANDONED, finished_at=now)
                if seated:
                    ratings.rate_game(conn, self.id, self.game.name, seated, now)

            await self.room.db.run(job)
            self.row.status = ABANDONED
            self.row.finished_at = now
            self.close()  # no bot or clock acts here any more
            log.info("table %s: abandoned (no person left at it)", self.id)
            self._broadcast_table()
            self.room.finished(self)

    def _rated_places(self, results: Results | None) -> list[ratings.Place]:
        """The places to rate when this game ends now (none if it is not rated)."""
        if not self.row.rated:
            return []
        return ratings.places(self.row.seats, self.game.players, results)

    def _record(self, seat: int, events: list[Event], by_clock: bool = False) -> None:
        assert self.state is not None
        entries = self.entries
        entries.append(Entry(self.state.version, seat, events, by_clock))
        if by_clock:
            self.clock_moves.add(self.state.version)
        if len(entries) > 2 * MAX_CATCH_UP:
            del entries[:-MAX_CATCH_UP]
        for bot_seat, bot in self.bots.items():
            if bot.wants_events:
                self.bot_inbox[bot_seat].extend(event.view(bot_seat) for event in events)

    # --- the authoritative path ----------------------------------------------------------------
    async def act(self, seat: int, wire: object, version: object) -> None:
        """Apply one action for ``seat`` (``TABLE`` for the table) seen at ``version``."""
        if self.owner:
            try:
                async with self._run():
                    await self._act_locked(seat, wire, version)
                return
            except Moved:
                pass  # handed over while it waited: its new owner applies it
        await self._remote("act", seat, wire, version)

    async def _act_locked(
        self, seat: int, wire: object, version: object, by_clock: bool = False
    ) -> None:
        """:meth:`act` under the lock; ``by_clock``: the seat's turn clock plays it."""
        state = self.state
        if self.row.status != PLAYING or state is None:
            raise ClientError("not_playing", "the game is not being played")
        if not isinstance(version, int) or isinstance(version, bool):
            raise ClientError("malformed", "an action needs the state version you saw")
        if version != state.version:
            raise ClientError(
                "stale",
                f"the game has moved on (you saw version {version}, it is at "
                f"{state.version}): look again",
                version=state.version,
            )
        try:
            action = wire if isinstance(wire, tuple) else self.game.action_from_wire(wire)
            events = state.apply(action, seat)
        except (MalformedActionError, IllegalActionError) as exc:
            code = "malformed" if isinstance(exc, MalformedActionError) else "illegal"
            raise ClientError(code, str(exc), version=state.version) from None
        await self._store(seat, action, events, by_clock)

    async def _store(
        self, seat: int, action: Action, events: list[Event], by_clock: bool = False
    ) -> None:
        """Persist an applied action (and the finish) before anyone hears of it."""
        state = self.state
        assert state is not None
        now = time.time()
        row = ActionRow(state.version - 1, seat, self.game.action_to_wire(action), now, by_clock)
        results = state.results()
        finished = state.is_terminal()

        seated = self._rated_places(results)

        def job(conn: Any) -> None:
            storage.add_action(conn, self.id, row)
            storage.update_table(
                conn,
                self.id,
                status=FINISHED,
                finished_at=now,
                results=results.to_json() if results else None,
            )
            if seated:
                ratings.rate_game(conn, self.id, self.game.name, seated, now)

        self.storing = True
        try:
            try:
                await self.room.db.run(job if finished else storage.AddActions(self.id, row))
            except Exception:
                log.exception("table %s: storing action %d failed; replaying", self.id, row.n)
                self._rollback_last()
                if self.leased:  # maybe another process stored one while this one stalled
                    self.room.spawn(self.refresh())  # past its lease: take the stored game
                raise ClientError(
                    "storage", "the server could not save that action: try again"
                ) from None
            metrics.ACTIONS.inc()
            self._publish(
                {
                    "kind": "action",
                    "version": state.version,
                    "seat": seat,
                    "action": row.action,
                    "by_clock": by_clock,
                    "at": now,
                }
            )
            self._saved(seat, events, now, results, by_clock)
        finally:
            self.storing = False
            waiting, self.after_store = self.after_store, []
            for answer in waiting:
                answer()

    def _saved(
        self,
        seat: int,
        events: list[Event],
        now: float,
        results: Results | None,
        by_clock: bool,
    ) -> None:
        """An action is stored: tell everyone, then let bots and clocks go on."""
        state = self.state
        assert state is not None
        previous = set(self.since)
        self.last_at = now
        now_acting = state.to_act()
        self.since = {
            s: (self.since[s] if s in previous and s != seat else now) for s in now_acting
        }
        self._record(seat, events, by_clock)
        if state.is_terminal():
            self.row.status = FINISHED
            self.row.finished_at = now
            self.row.results = results.to_json() if results else None
            self._cancel_clock()
            self._broadcast([self.entries[-1]])
            self._broadcast_table()
            self.room.finished(self)
            return
        self._broadcast([self.entries[-1]])
        self._kick_bots()
        self._arm_clock()

    def _rollback_last(self) -> None:
        """Undo the last applied, unsaved action by replaying the saved ones."""
        assert self.state is not None
        row = self.row
        state = self.game.new_state(row.seed, decks=row.decks, **row.setup)
        for seat, action in self.state.history[:-1]:
            state.apply(action, seat, events=False)
        self.state = state

    def wire_history(self) -> list[tuple[int, dict[str, Any]]]:
        """Every applied action as ``(seat, wire form)``."""
        if self.state is None:
            return []
        to_wire = self.game.action_to_wire
        return [(seat, to_wire(action)) for seat, action in self.state.history]

    # --- what clients receive --------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """The current game as ``seat`` (None: a spectator) may see it, with its legal moves."""
        state = self.state
        out: dict[str, Any] = {"version": self.version, "status": self.row.status}
        if state is None:
            return out
        out["observation"] = state.public_observation() if seat is None else state.observation(seat)
        to_act = state.to_act()
        out["to_act"] = list(to_act)
        out["legal"] = self._legal(state, seat) if seat is not None and seat in to_act else []
        out["results"] = self.row.results
        if self.row.hints:
            out["hints"] = state.hints(seat)
        info = self.row.seats.get(seat) if seat is not None else None
        if info is not None and info.bot_account:
            # A bot account's own memory (docs/bots-api.md), never sent to anyone else.
            out["recall"] = state.recall(info.seat)
        return out

    def _legal(self, state: State, seat: int) -> list[dict[str, Any]]:
        """The seat's legal actions as sent: plain actions (with what each would leave, where
        the game says) and patterns standing for many."""
        game = self.game
        entries: list[dict[str, Any]] = []
        for a in state.legal_summary(seat):
            if isinstance(a, ActionPattern):
                entries.append(
                    {
                        "pattern": game.pattern_to_wire(a),
                        "label": game.describe_pattern(a),
                        "count": a.count,
                    }
                )
                continue
            entry = {
                "action": game.action_to_wire(a),
                "label": game.describe_action(a),
                "text": game.action_to_text(a),
            }
            preview = state.preview(a, seat)
            if preview is not None:
                entry["preview"] = preview
            entries.append(entry)
        return entries

    def _cached(self) -> dict[Any, str]:
        """Serialized messages of the table as it is now (emptied by any change)."""
        key = (self.version, self.row.status, self.changes)
        if self._cache_key != key:
            self._cache_key = key
            self._cache = {}
        return self._cache

    def view_text(self, seat: int | None) -> str:
        """:meth:`view` of ``seat`` as JSON, serialized once per version for every reader."""
        cache = self._cached()
        text = cache.get(seat)
        if text is None:
            text = cache[seat] = encode(self.view(seat))
        return text

    def narrate(self, entries: Sequence[Entry], seat: int | None) -> list[dict[str, Any]]:
        names = self.names(seat)
        describe = self.game.describe_event
        lines = []
        for entry in entries:
            if entry.by_clock:
                text = self.game.describe_clock_move(entry.seat, names)
                lines.append({"version": entry.version, "text": text})
            for event in entry.events:
                lines.append({"version": entry.version, "text": describe(event.view(seat), names)})
        return lines

    def event_views(self, entries: Sequence[Entry], seat: int | None) -> list[dict[str, Any]]:
        return [event.view(seat) for entry in entries for event in entry.events]

    def snapshot_text(self, seat: int | None, since: int | None = None) -> str:
        """A full ``state`` message: catch-up from ``since`` if possible, else a resync.

        Serialized once per (version, viewer, since) and shared by every ``sync`` and
        reconnect at that version; only the clock (it holds the time) is added fresh.
        """
        version = self.version
        oldest = self.entries[0].version - 1 if self.entries else version
        start = since if since is not None and oldest <= since <= version else None
        catch_up = start is not None
        cache = self._cached()
        key = ("state", seat, start)
        text = cache.get(key)
        if text is None:
            if start is not None:
                entries = [entry for entry in self.entries if entry.version > start]
            else:
                entries = self.entries[-LOG_KEEP:]
            head = {
                "type": "state",
                "table": self.summary(),
                "seat": seat,
                "names": self.names(),
                "resync": not catch_up,
                "log": self.narrate(entries, seat),
            }
            text = cache[key] = join_json(encode(head), self.view_text(seat))
        return join_json(text, encode({"clock": self.clock_info()}))

    def _broadcast(self, entries: list[Entry]) -> None:
        if not self.clients:
            return
        cache: dict[int | None, str] = {}
        clock = encode({"clock": self.clock_info()})
        for client in list(self.clients):
            seat = client.seat
            text = cache.get(seat)
            if text is None:
                message = {
                    "type": "update",
                    "actor": entries[-1].seat if entries else None,
                    "by_clock": bool(entries) and entries[-1].by_clock,
                    "events": self.event_views(entries, seat),
                    "log": self.narrate(entries, seat),
                }
                text = cache[seat] = join_json(encode(message), self.view_text(seat), clock)
            client.push(text)

    def _broadcast_table(self) -> None:
        self._publish({"kind": "table"})
        self.changes += 1
        self.room.table_changed()
        if self.clients:
            text = encode({"type": "table", "table": self.summary()})
            for client in list(self.clients):
                client.push(text)
            self._drop_revoked()

    def _drop_revoked(self) -> None:
        """Connections whose token no longer holds the seat they play (revoked, or the seat
        was freed) watch from now on, and are told why at once.  Seats change under the
        table's lock, which an action holds until it is stored, so the state sent here never
        shows an action that is not saved yet."""
        for client in list(self.clients):
            seat = client.seat
            if seat is None or holds(self.row.seats.get(seat), client.key):
                continue
            client.seat = None
            client.push(
                encode(
                    ClientError(
                        "revoked",
                        f"this device no longer holds seat {seat + 1} (its seat token was "
                        "revoked, or the seat freed): you watch now",
                        seat=seat,
                    ).to_json()
                )
            )
            client.push(encode({"type": "seat", "seat": None, "away": None}))
            client.push(self.snapshot_text(None))

    def notify(self, message: dict[str, Any]) -> None:
        self._publish({"kind": "notify", "message": message})
        text = encode(message)
        for client in list(self.clients):
            client.push(text)

    # --- bots ------------------------------------------------------------------------------------
    def _kick_bots(self) -> None:
        """Start a decision for every bot seat that may act now and is not already thinking."""
        state = self.state
        if state is None or self.closed or state.is_terminal() or not self.owner:
            return
        to_act = state.to_act()
        version = state.version
        for seat in to_act:
            if seat not in self.bots or seat in self.bot_busy:
                continue
            if self.bot_waiting.get(seat) == version:
                continue  # it chose to wait in this position
            self.bot_busy.add(seat)
            race = len(to_act) > 1
            self.room.spawn(self._bot_turn(seat, version, race))

    async def _bot_turn(self, seat: int, version: int, race: bool) -> None:
        try:
            state = self.state
            if state is None or state.version != version:
                return
            bot = self.bots.get(seat)
            if bot is None:
                return
            inbox, self.bot_inbox[seat] = self.bot_inbox[seat], []
            view = SeatView(state.clone(), seat)  # the bot thinks on its own copy
            started = time.monotonic()
            job = Job(bot, view, inbox, race, derive_seed(self.row.seed, seat, version))
            decision = await self.room.in_pool(self.id, job)
            if self.bots.get(seat) is not bot:
                return  # its person took the seat back meanwhile
            if decision.bot is not None:
                self.bots[seat] = bot = decision.bot  # what it remembers now
            else:  # the default bot decided for it: it sees these events next time
                self.bot_inbox[seat][:0] = inbox
            action = decision.action
            if action is None:
                self.bot_waiting[seat] = version
                return
            delay = decision.delay if race else self.room.settings.bot_delay
            while (wait := started + delay - time.monotonic()) > 0 and self.version == version:
                # In a race someone may act first: then stop waiting, to decide anew.
                await asyncio.sleep(min(wait, 0.25) if race else wait)
            async with self.lock:
                if self.state is None or self.state.version != version or self.closed:
                    return  # someone else acted first: decide again below
                if self.bots.get(seat) is not bot:
                    return  # its person took the seat back while it waited
                try:
                    await self._act_locked(seat, action, version)
                except ClientError as exc:
                    log.error("table %s: bot at seat %d was refused: %s", self.id, seat, exc)
                    self.bots[seat] = bot_factory("random", self.game)(seat, version)
        except Exception:
            log.exception("table %s: bot at seat %d failed", self.id, seat)
        finally:
            self.bot_busy.discard(seat)
            if not self.closed:
                self._kick_bots()

    # --- clocks ----------------------------------------------------------------------------------
    def clock_info(self) -> dict[str, Any] | None:
        """Deadlines (epoch seconds) of the timed phase and of each seat's turn clock."""
        state = self.state
        if state is None or self.row.status != PLAYING:
            return None
        out: dict[str, Any] = {"now": time.time()}
        limit = state.timeout()
        if limit is not None:
            out["phase_deadline"] = self.last_at + limit[0]
        clock = self.row.turn_clock
        if clock:
            out["turn_clock"] = clock
            out["deadlines"] = {
                str(s): t + clock
                for s, t in self.since.items()
                if self.row.seats.get(s) and self.row.seats[s].kind == "human"
            }
        return out if len(out) > 1 else None

    def _cancel_clock(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    def _arm_clock(self) -> None:
        self._cancel_clock()
        info = self.clock_info()
        if info is None or self.closed or not self.owner:
            return
        deadlines = list(info.get("deadlines", {}).values())
        if "phase_deadline" in info:
            deadlines.append(info["phase_deadline"])
        if not deadlines:
            return
        delay = max(0.0, min(deadlines) - time.time())
        version = self.version
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(delay, lambda: self.room.spawn(self._clock_expired(version)))

    async def _clock_expired(self, version: int) -> None:
        async with self.lock:
            state = self.state
            if state is None or self.closed or self.row.status != PLAYING:
                return
            if state.version != version:
                self._arm_clock()
                return
            now = time.time() + 0.001
            limit = state.timeout()
            try:
                if limit is not None and self.last_at + limit[0] <= now:
                    await self._act_locked(CLOCK, limit[1], version)
                    return
                clock = self.row.turn_clock
                for seat in state.to_act():
                    info = self.row.seats.get(seat)
                    if not clock or info is None or info.kind != "human":
                        continue
                    if self.since.get(seat, now) + clock <= now:
                        action = await self._timeout_action(seat)
                        await self._act_locked(seat, action, version, by_clock=True)
                        return
            except ClientError as exc:
                log.error("table %s: clock action refused: %s", self.id, exc)
            self._arm_clock()

    async def _timeout_action(self, seat: int) -> Action:
        state = self.state
        assert state is not None
        if self.row.on_timeout == "bot":  # the default bot is a cheap heuristic: decide here
            seed = derive_seed(self.row.seed, seat, state.version)
            action = default_decision(SeatView(state.clone(), seat), seed, False).action
            if action is not None:
                return action
        return state.default_action(seat)

    # --- chat ----------------------------------------------------------------------------------
    async def say(self, seat: int | None, address: str, text: object) -> None:
        """Store a chat line of ``seat`` (None: the spectator at ``address``), then show it
        to everyone at the table.  Its name is the server's: the seat's, or "Spectator N"."""
        clean = chat_line(text)
        if not self.owner:
            await self._remote("say", seat, address, text)
            return
        async with self._run():
            total, by_spectators = self.chat_counts
            if total >= MAX_CHAT_LINES:
                raise ClientError("chat_full", f"this table's chat is full ({total} lines)")
            if seat is None and by_spectators >= MAX_SPECTATOR_LINES:
                raise ClientError(
                    "chat_full", f"spectators have said {by_spectators} lines here: that is all"
                )
            if seat is not None:
                name = self.row.seats[seat].name
            else:
                number = self.spectators.get(address)
                if number is None:
                    number = self.spectators[address] = self._next_spectator()
                name = spectator_name(number)
            line = ChatRow(total, seat, name, clean, time.time(), self.version)
            await self.room.db.run(partial(storage.add_chat, table_id=self.id, line=line))
            self.chat_counts = (total + 1, by_spectators + (seat is None))
            self.chat.append(line)
            del self.chat[:-CHAT_KEEP]
            self.notify({"type": "chat", "lines": [line.to_json()]})

    def _next_spectator(self) -> int:
        """The next spectator's number: after those who spoke here (since the last start of
        the server, or in the lines it loaded)."""
        numbers = [*self.spectators.values(), 0]
        for line in self.chat:
            tail = line.name.rpartition(" ")[2]
            if line.seat is None and tail.isdigit():
                numbers.append(int(tail))
        return max(numbers) + 1

    def chat_text(self) -> str | None:
        """The latest chat lines as one ``chat`` message (None when nobody has spoken)."""
        if not self.chat:
            return None
        return encode({"type": "chat", "lines": [line.to_json() for line in self.chat]})

    # --- the room on several processes ---------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _run(self) -> AsyncIterator[None]:
        """The table's lock, to change the table as its owner: a request that waited for it
        while the table was handed over to another process is refused (:class:`Moved`)
        and changes nothing."""
        async with self.lock:
            if not self.owner:
                raise Moved("storage", "this table has just moved to another server: try again")
            yield

    def _publish(self, message: dict[str, Any]) -> None:
        """Tell the table's replicas in other processes what changed (its owner only)."""
        cluster = self.room.cluster
        if self.leased and cluster is not None:
            cluster.publish(self, {"table": self.id, **message})

    async def _remote(self, method: str, *args: Any) -> Any:
        """A replica's request, run by the table's owner; back here once this replica shows
        its outcome (an action's update, or the table as stored)."""
        cluster = self.room.cluster
        assert cluster is not None
        self.asking += 1
        try:
            value = await cluster.call(self, method, list(args))
        finally:
            self.asking -= 1
        if self.owner:  # the owner was gone: this process took the table and ran it here
            return value
        if method == "act" and not self.closed:
            await self._reach(int(value))
        else:
            await self.refresh()
        return value

    async def _reach(self, version: int) -> None:
        """Until this replica is at ``version`` (read from the database if the owner's
        update is slow to come)."""
        if self.version >= version:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append((version, future))
        try:
            await asyncio.wait_for(future, 5.0)
        except TimeoutError:
            await self.refresh()

    def _wake(self) -> None:
        version = self.version
        still = []
        for wanted, future in self._waiters:
            if wanted <= version:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((wanted, future))
        self._waiters = still

    async def follow(self, message: dict[str, Any]) -> None:
        """Apply a change the owner published (a replica only)."""
        kind = message.get("kind")
        if kind == "action":
            state = self.state
            version = message["version"]
            if state is None or version > state.version + 1:  # missed some: read them
                await self.refresh()
            elif version == state.version + 1:
                seat, at = message["seat"], message["at"]
                events = state.apply(self.game.action_from_wire(message["action"]), seat)
                self._saved(seat, events, at, state.results(), message["by_clock"])
                self._wake()
        elif kind == "table":
            await self.refresh()
        elif kind == "notify":
            shown = message["message"]
            if shown.get("type") == "chat":
                self.chat.extend(ChatRow(**line) for line in shown["lines"])
                del self.chat[:-CHAT_KEEP]
            self.notify(shown)
        elif kind == "reseat":
            self._reseat(message["seat"], message["now"])

    async def refresh(self) -> None:
        """Rebuild the table from the database (a replica catching up, or a process
        taking the table over) and show its clients what changed."""
        self._reads += 1
        read = self._reads
        row = await self.room.db.run(partial(storage.load_table, table_id=self.id))
        if row is None or (not self.owner and len(row.actions) < self.version):
            return  # read before the last update this replica applied: nothing new
        if read < self._shown:
            return  # a read begun later (so newer) is shown already
        self._shown = read
        before, status = self.version, self.row.status
        self._cancel_clock()
        self.row = row
        self.state = None
        self.entries, self.bots, self.bot_inbox, self.bot_waiting = [], {}, {}, {}
        self.clock_moves, self.replays = set(), {}
        self.chat, self.chat_counts = row.chat, row.chat_counts
        self.restore()
        if row.status in OVER and status not in OVER:
            self.room.finished(self)
        self._broadcast_table()
        if self.state is not None and (self.version != before or row.status != status):
            for client in list(self.clients):
                client.push(self.snapshot_text(client.seat, before))
        self._wake()

    async def hand_over(self, to: str) -> bool:
        """Give this table to process ``to`` (which holds connections to it) if no client is
        connected to it here: the lease changes hands in the database once nothing is being
        applied or stored, and this process forgets the table (the new owner runs it from its
        stored actions).  False, and nothing changes, if a client is here."""
        cluster = self.room.cluster
        if cluster is None or to == cluster.name:
            return True  # already run where it is asked for
        async with self.lock:
            if self.clients or not self.leased or self.closed:
                return False
            moved = partial(leases.hand_over, table_id=self.id, owner=cluster.name, to=to)
            if not await self.room.db.run(moved):
                return False
            self.owner = self.leased = False
            self.room.forget(self)
        log.info("table %s: handed over to %s, which holds its connections", self.id, to)
        return True

    async def gather(self) -> None:
        """A replica about to serve a connection asks the owner to hand the table over to
        this process (it does if no connection is its own), so that a table whose
        connections are all here runs here alone, without messages between processes."""
        cluster = self.room.cluster
        if self.owner or self.closed or cluster is None or self.row.status in OVER:
            return
        try:
            given = await cluster.call(self, "hand_over", [cluster.name])
        except ClientError:
            return  # the owner is busy or being replaced: stay a replica
        if given and not self.owner:
            await self.become_owner()
            cluster.unfollow(self.id)

    def idle(self) -> bool:
        """A replica that nothing here needs: no client, no request under way."""
        return not self.owner and not self.clients and not self._waiters and not self.asking

    async def become_owner(self) -> None:
        """This process took the table's lease: run it from its stored actions (under the
        lock: an action taken meanwhile would apply to the replica's state and be lost)."""
        async with self.lock:
            self.owner = self.leased = True
            self.owner_name = None
            await self.refresh()

    async def become_replica(self) -> None:
        """Another process took the table's lease: follow it."""
        self.owner = self.leased = False
        self.owner_name = None
        self._cancel_clock()
        await self.refresh()

    # --- clients -------------------------------------------------------------------------------
    def join(self, client: Listener) -> None:
        self.clients.add(client)

    def part(self, client: Listener) -> None:
        self.clients.discard(client)

    def close(self) -> None:
        self.closed = True
        self._cancel_clock()


class Room:
    """Every table of the server, the database and the bots' worker processes."""

    def __init__(self, db: Database, pool: BotPool, settings: Settings | None = None) -> None:
        self.db = db
        self.pool = pool
        self.settings = settings or Settings()
        self.tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.connections: dict[str, int] = {}
        """Open websocket connections by client address."""
        self.broken: set[str] = set()
        """Tables reported broken since the start (each is logged once)."""
        self.opened_by: dict[str, set[str]] = {}
        """Open tables by the client address that made them (the cap per address; the room
        keeps them in Redis instead when it runs as several processes)."""
        self.creating: set[str] = set()
        """Tables that hold a place in ``opened_by`` while they are being stored."""
        self.watchers: list[Callable[[], None]] = []
        """Called whenever a table opens or its summary changes (the lobby listens)."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self.bot_links: dict[int, BotLink] = {}
        """Connected bot accounts by user id (one connection each: the newest)."""
        self.cluster: Cluster | None = None
        """This process's part in a room run as several (None: the room is this process)."""

    def bot_left(self, user_id: int, token_id: int | None = None) -> None:
        """Close a bot account's connection (only the one of ``token_id``, if given), at
        whichever process it is."""
        self.end_bot_link(user_id, token_id, "revoked")
        if self.cluster is not None:
            self.spawn(self.cluster.bot_gone(user_id, token_id))

    def end_bot_link(self, user_id: int, token_id: int | None, code: str) -> None:
        """Close this process's connection of a bot account (``code``: revoked or replaced)."""
        link = self.bot_links.get(user_id)
        if link is not None and token_id in (None, link.token_id):
            del self.bot_links[user_id]
            if code == "replaced":
                link.end("replaced", "this bot connected again elsewhere")
            else:
                link.end("revoked", "this bot's token was revoked or its account deleted")
            self.table_changed()
            if self.cluster is not None:
                self.spawn(self.cluster.bot_offline(user_id))

    async def bots_online(self) -> dict[int, str]:
        """The bot accounts connected to the room (at any of its processes): user id -> name."""
        here = {user_id: link.name for user_id, link in self.bot_links.items()}
        if self.cluster is None:
            return here
        try:
            found = await self.cluster.bots_online()
        except Exception:
            log.exception("the bot accounts online at other processes cannot be read")
            return here
        return {user_id: name for user_id, (_process, name) in found.items()} | here

    async def push_to_bot(self, user_id: int, text: str) -> None:
        """Send a bot account's ``/ws/bot`` a message, at whichever process it is connected
        (nothing if it is connected nowhere)."""
        link = self.bot_links.get(user_id)
        if link is not None:
            link.push(text)
        elif self.cluster is not None:
            process = await self.cluster.bot_at(user_id)
            if process is not None:
                self.cluster.to_bot(process, user_id, text)

    def table_changed(self) -> None:
        for watcher in self.watchers:
            watcher()

    async def connect(self, address: str, most: int) -> bool:
        """Count a new websocket connection from ``address``, unless it has ``most`` already
        (in the whole room, when it runs as several processes)."""
        count = self.connections.get(address, 0) + 1
        if count > most:
            return False
        self.connections[address] = count
        if self.cluster is not None and not await self.cluster.connect(address, count, most):
            self.disconnect(address)
            return False
        return True

    def disconnect(self, address: str) -> None:
        count = self.connections.get(address, 0) - 1
        if count > 0:
            self.connections[address] = count
        else:
            self.connections.pop(address, None)
        if self.cluster is not None:
            self.spawn(self.cluster.connections_now(address, max(0, count)))

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def in_pool(self, table_id: str, job: Job) -> Decision:
        """A bot's decision in a worker process, in turn with other tables' (never raises
        for the bot's fault: past the deadline the game's default bot decides)."""
        return await self.pool.decide(table_id, job)

    async def restore(self) -> int:
        """Rebuild every unfinished game by replay; bots and clocks resume.

        A game whose stored rows no longer replay is marked broken (and logged
        once); every other game restores.  With several processes, only the games that
        no process runs (see :mod:`.leases`)."""
        if self.cluster is not None:
            ids = await self.db.run(leases.orphans)
        else:
            ids = await self.db.run(partial(storage.table_ids, status=PLAYING))
        restored = 0
        for table_id in ids:
            try:
                await self.get(table_id)
                restored += 1
            except ClientError:
                pass  # broken: already reported
        return restored

    async def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return table
        if not isinstance(table_id, str) or not TABLE_ID.fullmatch(table_id):
            raise ClientError("no_table", "there is no such table")
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    table = await self._load(table_id)
        finally:
            if not lock.locked():
                self._loading.pop(table_id, None)
        return table

    async def _load(self, table_id: str) -> Table:
        try:
            row = await self.db.run(partial(storage.load_table, table_id=table_id))
        except DBAPIError:
            log.exception("table %s: the database could not be read", table_id)
            raise ClientError("storage", "the database could not be read: try again") from None
        except Exception as exc:  # rows that do not decode
            raise await self._broken(table_id, exc) from None
        if row is None:
            raise ClientError("no_table", "there is no such table")
        if row.status == BROKEN:
            raise _broken_error()
        if row.status == EXPIRED:
            raise ClientError("expired", "this table expired: nobody sat at it for a long time")
        owner = True
        if self.cluster is not None and row.status not in OVER:
            owner = await self.cluster.claim(table_id)
            if not owner:  # read again, now that the owner's updates reach us
                row = await self.db.run(partial(storage.load_table, table_id=table_id)) or row
        try:
            table = Table(self, row)
            table.owner = owner
            table.leased = owner and self.cluster is not None
            table.restore()
        except Exception as exc:
            raise await self._broken(table_id, exc) from None
        self.tables[table_id] = table
        if not owner and self.cluster is not None:
            self.cluster.loaded(table)
        if row.status in OVER:
            self.finished(table)
        return table

    async def _broken(self, table_id: str, exc: Exception) -> ClientError:
        """Mark a table whose rows do not replay as broken, reporting it once."""
        if table_id in self.broken:
            return _broken_error()
        self.broken.add(table_id)
        log.error("table %s is broken (its stored game does not replay): %r", table_id, exc)
        try:
            await self.db.run(partial(storage.update_table, table_id=table_id, status=BROKEN))
        except Exception:
            log.exception("table %s: could not mark it broken", table_id)
        return _broken_error()

    async def create(
        self,
        game_name: str,
        players: int | None,
        options: dict[str, Any],
        *,
        turn_clock: float | None = None,
        on_timeout: str = "default",
        hints: bool = False,
        seed: int | None = None,
        decks: list[list[str]] | None = None,
        setup: dict[str, Any] | None = None,
        seats: dict[int, SeatRow] | None = None,
        rematch_of: str | None = None,
        start: bool = False,
        address: str | None = None,
        rated: bool | None = None,
    ) -> Table:
        """A new table, checked whole before anything is stored.

        The game and options are validated by the engine, ``seats`` (people sitting
        down at once) against its seats; ``address`` counts the table against that
        client's cap of open tables.
        """
        if not isinstance(options, dict):
            raise ClientError("bad_options", "options are an object of option names and values")
        try:
            cls = game_class(game_name)
            known = {option.name for option in cls.options_schema}
            unknown = sorted(str(name) for name in options if name not in known)
            if unknown:
                listed = ", ".join(sorted(known)) or "none"
                raise InvalidOptionError(
                    f"{cls.name} has no option {unknown[0]!r} (its options are: {listed})"
                )
            game = make_game(game_name, players, **options)
            if decks or setup:
                game.new_state(0, decks=decks, **(setup or {}))
        except TripleTopperError as exc:
            raise ClientError("bad_options", str(exc)) from None
        if turn_clock is not None and not 1 <= turn_clock <= 3600:
            raise ClientError("bad_options", "a turn clock is from 1 to 3600 seconds")
        if on_timeout not in ("default", "bot"):
            raise ClientError("bad_options", "on_timeout is 'default' or 'bot'")
        if not isinstance(hints, bool):
            raise ClientError("bad_options", "hints is true or false")
        if rated is not None and not isinstance(rated, bool):
            raise ClientError("bad_options", "rated is true, false or null")
        if rated and any(i.kind != BOT and i.user_id is None for i in (seats or {}).values()):
            raise ClientError("rated", "a rated table seats accounts only: sign in first")
        seats = seats or {}
        for seat in seats:
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.players:
                raise ClientError("bad_seat", f"seats are numbered 0 to {game.players - 1}")
        table_id = new_table_id()
        maker = address if not start else None  # an open table counts against its maker
        if address is not None:
            await self._hold_open_place(address, table_id if maker else None)
        now = time.time()
        row = TableRow(
            id=table_id,
            game=game.name,
            players=game.players,
            options=dict(game.options),
            seed=secrets.randbelow(2**53) if seed is None else seed,
            status=PLAYING if start else OPEN,
            created_at=now,
            turn_clock=turn_clock,
            on_timeout=on_timeout,
            hints=hints,
            decks=decks,
            setup=setup or {},
            started_at=now if start else None,
            rematch_of=rematch_of,
            seats=seats,
            rated=rated,
        )
        try:
            await self.db.run(partial(storage.insert_table, row=row))
        except BaseException:
            if maker is not None:
                await self._give_up_open_place(maker, table_id)
            raise
        finally:
            self.creating.discard(table_id)
        table = Table(self, row)
        if self.cluster is not None:
            table.leased = await self.cluster.claim(row.id)
        self.tables[row.id] = table
        if start:
            table._begin(now)
        self.table_changed()
        return table

    async def _hold_open_place(self, address: str, table_id: str | None) -> None:
        """Refuse a table to an address that has ``open_per_address`` open already (in the
        whole room, when it runs as several processes: the database says which are open);
        else hold a place for ``table_id`` (if given) in the same step, so that creations
        at the same instant cannot pass the cap together."""
        most = self.settings.open_per_address
        if self.cluster is not None:
            if await self.cluster.hold_open(address, table_id, most):
                return
            count = most
        else:
            mine = self.opened_by.setdefault(address, set())
            for held in list(mine):
                table = self.tables.get(held)
                if held not in self.creating and (table is None or table.row.status != OPEN):
                    mine.discard(held)
            count = len(mine)
            if count < most:
                if table_id is not None:
                    mine.add(table_id)
                    self.creating.add(table_id)
                elif not mine:
                    del self.opened_by[address]
                return
        raise ClientError(
            "too_many_tables",
            f"you have {count} open tables: start or leave one first",
            retry_after=60,
        )

    async def _give_up_open_place(self, address: str, table_id: str) -> None:
        """The table a place was held for was not made."""
        if self.cluster is not None:
            await self.cluster.not_open(address, table_id)
        else:
            self.opened_by.get(address, set()).discard(table_id)

    async def rematch(self, table: Table, by: str | None) -> Table:
        """Ask for a rematch, or accept the one asked for: a new table with the same game,
        options and bots, where each person of the game is offered their seat (same token).

        The first to ask sits down at once; the others are told (a ``rematch`` message)
        and accept by asking too, or decline (:meth:`decline_rematch`).  It starts once
        everyone has answered, or after ``Settings.rematch_wait`` seconds, with bots in
        the seats not accepted (their people may still take them back).  People who left
        the game to a bot are not asked: their bots play on."""
        if not table.owner and self.cluster is not None:
            return await self.get(await self.cluster.call(table, "rematch", [by]))
        async with table._run():
            finished = table.row.status == FINISHED
            asked = await self._rematch_of(table) if finished else None
            if table.seat_of(by) is None and (asked is None or table.held(by, BOT) is not None):
                table.require_seat(by)  # refused, saying why
            if not finished:
                raise ClientError("not_finished", "a rematch is possible once the game is over")
            if asked is not None:  # (a device that resumed its seat there has a token only there)
                await asked.accept(by)
                return asked
            seat = table.require_seat(by)
            row = table.row
            seats = {}
            for s, info in row.seats.items():
                if info.kind == HUMAN:
                    kind = HUMAN if s == seat else INVITED
                    seats[s] = replace(info, kind=kind)
                else:  # "Ann (bot)" plays on as "Ann bot"
                    name = info.name
                    if name.endswith(BOT_SUFFIX):
                        name = name.removesuffix(BOT_SUFFIX) + " bot"
                    seats[s] = SeatRow(s, name, BOT, info.bot, None)
            new = await self.create(
                row.game,
                row.players,
                dict(row.options),
                turn_clock=row.turn_clock,
                on_timeout=row.on_timeout,
                hints=row.hints,
                seats=seats,
                rematch_of=row.id,
                rated=row.rated,
            )
            record = partial(
                storage.set_rematch, table_id=row.id, rematch=new.id, known=row.rematch
            )
            other = await self.db.run(record)
            if other is not None:  # another process made one meanwhile: that is the rematch
                await self.db.run(partial(storage.update_table, table_id=new.id, status=EXPIRED))
                self.forget(new)
                row.rematch = other
                table._broadcast_table()
                asked = await self.get(other)
                await asked.accept(by)
                return asked
            row.rematch = new.id
            wait = self.settings.rematch_wait
            table.notify({"type": "rematch", "table": new.id, "by": seat, "wait": wait})
            table._broadcast_table()
            self._offer_bot_accounts(new, wait)
        async with new.lock:
            await new._rematch_ready()
            if new.row.status == OPEN:
                loop = asyncio.get_running_loop()
                new.rematch_timer = loop.call_later(wait, lambda: self.spawn(new.settle_rematch()))
        return new

    def _offer_bot_accounts(self, new: Table, wait: float) -> None:
        """Tell each connected bot account offered a seat of the rematch ``new`` (on its
        ``/ws/bot``, at whichever process it is connected: its game's connection may be
        closed by now); one not connected is not asked, and a bot takes its seat when the
        wait is over."""
        for info in new.row.seats.values():
            if info.kind == INVITED and info.bot_account and info.user_id is not None:
                self.spawn(
                    self.push_to_bot(
                        info.user_id,
                        encode(
                            {
                                "type": "rematch",
                                "table": new.id,
                                "of": new.row.rematch_of,
                                "seat": info.seat,
                                "game": new.row.game,
                                "players": new.row.players,
                                "wait": wait,
                            }
                        ),
                    )
                )

    async def _rematch_of(self, table: Table) -> Table | None:
        """The rematch asked for at ``table``, unless none was or it expired (nobody at it)."""
        if table.row.rematch is None:
            return None
        try:
            return await self.get(table.row.rematch)
        except ClientError as exc:
            if exc.code == "expired":
                return None
            raise

    async def decline_rematch(self, table: Table, by: str | None) -> Table:
        """Say no to the rematch of ``table``: a bot takes the seat offered."""
        new = await self._rematch_of(table)
        if new is None:
            raise ClientError("no_rematch", "no rematch of this game waits for an answer")
        await new.decline(by)
        return new

    async def settle_rematches(self) -> int:
        """Settle rematches whose wait is over and that nothing else settles (the server
        restarted while they waited)."""
        before = time.time() - self.settings.rematch_wait
        ids = await self.db.run(partial(storage.pending_rematches, before=before))
        for table_id in ids:
            with contextlib.suppress(ClientError):
                await (await self.get(table_id)).settle_rematch()
        return len(ids)

    def finished(self, table: Table) -> None:
        """A game ended: forget it (it stays stored) once nobody has watched it for a while."""
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.keep_finished, self._evict, table.id)

    def _evict(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is None or table.row.status not in OVER:
            return
        if table.clients:
            loop = asyncio.get_running_loop()
            loop.call_later(self.settings.keep_finished, self._evict, table_id)
            return
        self.forget(table)

    def forget(self, table: Table) -> None:
        """Drop a table from memory (it stays stored), with its lease or its replica's
        subscription."""
        table.close()
        if self.tables.get(table.id) is not table:
            return  # already replaced by a newer copy, which keeps the lease or subscription
        del self.tables[table.id]
        if self.cluster is None:
            return
        if table.leased:
            self.spawn(self.cluster.release(table.id))
        else:
            self.cluster.unfollow(table.id)

    async def lobby(self) -> list[dict[str, Any]]:
        rows = await self.db.run(partial(storage.list_tables, statuses=(OPEN, PLAYING)))
        out = []
        for row in rows:
            table = self.tables.get(row.id)
            try:
                out.append(table.summary() if table is not None else summarize(row))
            except TripleTopperError:  # a stored game this version does not know
                continue
        return out

    async def sweep(self) -> None:
        """Every ``sweep_every`` seconds, expire open tables that nobody sat at in time and
        start rematches that waited long enough."""
        while True:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.expire_open()
                await self.settle_rematches()
            except Exception:
                log.exception("expiring open tables failed")

    async def expire_open(self) -> int:
        """Expire open tables made over ``open_ttl`` seconds ago where no person sits."""
        before = time.time() - self.settings.open_ttl
        ids = await self.db.run(partial(storage.stale_open_tables, before=before))
        expired = 0
        for table_id in ids:
            try:
                table = await self.get(table_id)
            except ClientError:
                continue
            async with table.lock:
                row = table.row
                people = any(s.kind == "human" for s in row.seats.values())
                if not table.owner or row.status != OPEN or people:
                    continue
                await self.db.run(partial(storage.update_table, table_id=row.id, status=EXPIRED))
                row.status = EXPIRED
                table._broadcast_table()
                table.close()
                self.tables.pop(row.id, None)
                expired += 1
        return expired

    async def close(self) -> None:
        for table in self.tables.values():
            table.close()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task


def _broken_error() -> ClientError:
    return ClientError("broken", "this table's stored game is damaged and cannot be shown")


def summarize(row: TableRow, version: int = 0) -> dict[str, Any]:
    """A table's summary from its stored row (``version``: actions applied so far)."""
    cls = game_class(row.game)
    return {
        "id": row.id,
        "game": row.game,
        "title": cls.title,
        "players": row.players,
        "options": row.options,
        "status": row.status,
        "version": version,
        "turn_clock": row.turn_clock,
        "on_timeout": row.on_timeout,
        "hints": row.hints,
        "rated": row.rated,
        "score_unit": list(cls.score_unit(row.players)),
        "seats": [_seat_json(seat, row.seats.get(seat)) for seat in range(row.players)],
        "bots": bot_names(row.game),
        "created_at": row.created_at,
        "results": row.results,
        "rematch": row.rematch,
        "rematch_of": row.rematch_of,
    }


def _seat_json(seat: int, info: SeatRow | None) -> dict[str, Any]:
    if info is None:
        return {"seat": seat, "name": None, "kind": None, "bot": None, "bot_account": False}
    return {
        "seat": seat,
        "name": info.name,
        "kind": info.kind,
        "bot": info.bot,
        "bot_account": info.bot_account,
    }
