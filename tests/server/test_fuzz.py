"""Hostile clients against the card room: the HTTP API fuzzed from its own OpenAPI schema
(schemathesis) and the websocket fuzzed with Hypothesis, on real SQLite.

The contract under test (docs/protocol.md): no request ever gets a server error; every
refusal is a documented error (``{"type": "error", "code", "message"}``) and changes
nothing stored; a name the room shows is clean text; the room keeps answering and playing
for everyone else.  Example counts are fixed and generation is derandomized, so a run is
bounded and repeatable (the tables' seeds are the server's own, so the games differ).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import sqlite3
import time
import unicodedata
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
)
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.memo_match.test_rules import declared
from tests.server.helpers import live_server, open_table, play_randomly
from tripletopper.engine import TABLE
from tripletopper.engine.actions import ActionPattern
from tripletopper.games import GAMES
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.client import TableClient
from tripletopper.server.storage import sqlite_url
from tripletopper.server.tables import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

STATUSES = {200, 201, 400, 401, 403, 404, 409, 413, 422, 429}
"""Every status the HTTP API may answer with (docs/protocol.md; 413 and 429 for hostile load)."""
ERROR_CODES = {
    "malformed",
    "unknown_type",
    "hello_first",
    "already_joined",
    "bad_token",
    "not_seated",
    "not_playing",
    "stale",
    "illegal",
    "too_large",
    "rate_limited",
    "no_table",
    "storage",
    "bad_chat",
    "chat_full",
}
"""The websocket's documented error codes, less ``internal``: that one is a server bug."""
SUMMARY = {
    "id",
    "game",
    "title",
    "players",
    "options",
    "status",
    "version",
    "turn_clock",
    "on_timeout",
    "hints",
    "rated",
    "score_unit",
    "seats",
    "bots",
    "created_at",
    "results",
    "rematch",
    "rematch_of",
}
"""The fields of a table summary (docs/protocol.md)."""
MESSAGE_TYPES = {
    "welcome",
    "state",
    "update",
    "table",
    "rematch",
    "ack",
    "pong",
    "error",
    "seat",
    "chat",
}
FROZEN = 3600.0
"""The HTTP-fuzzed room's bot delay and timers: its bots never move, a rematch a case asked
for never starts by itself, a game its people left is never ended as abandoned, the sweep
never runs; so nothing changes behind a request, and a refusal that "stored a change"
really did.  (With the room's own 60 s rematch wait, a rematch asked by one operation's
cases started in the middle of a later operation's, and a refused sign-in failed.)"""
FUZZED_ROOM = Settings(
    bot_delay=FROZEN, rematch_wait=FROZEN, abandon_grace=FROZEN, sweep_every=FROZEN
)
UNSHOWABLE = {"Cc", "Cf", "Cs", "Zl", "Zp"}
"""Unicode categories no shown name may hold: controls, format (bidi, zero-width), surrogates,
line and paragraph separators."""
BOUNDED = settings(
    derandomize=True,
    database=None,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
)


def fuzz(examples: int) -> settings:
    """A fixed number of derandomized examples, no example database: bounded and repeatable.

    No shrinking: it would take most of the time, and the room keeps what earlier examples
    did, so a failure may not replay; each assertion says what was sent instead."""
    return settings(BOUNDED, max_examples=examples)


def stored(data_dir: Path, table_id: str | None = None) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the room's SQLite database (or one table's), read beside the server."""
    path = sqlite_url(data_dir).removeprefix("sqlite:///")
    where, args = ("", ()) if table_id is None else (" WHERE {key} = ?", (table_id,))
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
        return {
            name: db.execute(
                f"SELECT * FROM {name}{where.format(key=key)} ORDER BY 1, 2", args
            ).fetchall()
            for name, key in (
                ("tables", "id"),
                ("seats", "table_id"),
                ("actions", "table_id"),
                ("users", "id"),
                ("sessions", "user_id"),
            )
        }


def post(client: TestClient, url: str, body: Any, **kw: Any) -> httpx.Response:
    """POST ``body`` as JSON text as any client may write it (lone surrogates as escapes)."""
    headers = {"Content-Type": "application/json", **kw.pop("headers", {})}
    return client.post(url, content=json.dumps(body, allow_nan=True), headers=headers, **kw)


def assert_error_body(body: Any, note: str = "") -> None:
    """``{"type": "error", "code": ..., "message": ...}``, the message for people."""
    assert isinstance(body, dict) and body.get("type") == "error", f"{body} {note}"
    assert isinstance(body.get("code"), str) and body["code"], f"{body} {note}"
    assert isinstance(body.get("message"), str) and body["message"], f"{body} {note}"
    assert "Traceback" not in body["message"], f"{body} {note}"


def assert_showable(name: str) -> None:
    """A name others see: NFKC-normal, no control, format (bidi, zero-width) or odd character."""
    assert unicodedata.normalize("NFKC", name) == name, f"{name!r} is not NFKC-normalized"
    odd = [c for c in name if unicodedata.category(c) in UNSHOWABLE]
    assert not odd, f"{name!r} holds {odd!r}"
    assert name == name.strip() and 1 <= len(name) <= 32, repr(name)


# --- the HTTP API ------------------------------------------------------------------------------
SCHEMA = schemathesis.openapi.from_dict(create_app(ServerConfig(data_dir="unused")).openapi())
OPERATIONS = [result.ok() for result in SCHEMA.get_all_operations()]


def _negatable(operation: Any) -> bool:
    """Whether an operation has an input a schema-violating value exists for."""

    def types(schema: dict[str, Any]) -> set[str]:
        return {s["type"] for s in [schema, *schema.get("anyOf", [])] if "type" in s}

    # a text parameter (a table id, a token) takes any text: nothing to violate
    return bool(operation.body) or any(
        types(p.definition.get("schema", {})) - {"string", "null"}
        for p in operation.iter_parameters()
    )


RUNS = [(op, GenerationMode.POSITIVE) for op in OPERATIONS] + [
    (op, GenerationMode.NEGATIVE) for op in OPERATIONS if _negatable(op)
]


@dataclass
class Room:
    """An in-process room on a temporary SQLite data dir, with a table of each status."""

    data: Path
    client: TestClient
    tables: dict[str, str]  # open, playing, finished -> id
    tokens: dict[str, list[str]]  # the same -> seat tokens


def _prepare(data: Path) -> tuple[dict[str, str], dict[str, list[str]]]:
    """An open, a playing (people only) and a finished table, made on a live server."""
    with live_server(str(data)) as base:
        with httpx.Client(base_url=base, timeout=30) as http:
            body = http.post(
                "/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"}
            ).json()
        playing = open_table(base, players=3, humans=3)
        finished = open_table(base, players=3, humans=2, options={"counters": 1})

        async def finish() -> None:
            clients = [TableClient(base, finished[0], token) for token in finished[1]]
            for client in clients:
                await client.start()
            await play_randomly(clients, random.Random(3))
            for client in clients:
                await client.close()

        asyncio.run(finish())
    tables = {"open": body["table"]["id"], "playing": playing[0], "finished": finished[0]}
    tokens = {"open": [body["token"]], "playing": playing[1], "finished": finished[1]}
    return tables, tokens


def one_address_per_request(app: Any) -> Any:
    """The app, seeing each HTTP request come from its own loopback address: limits per
    client address (benchmarks/hostile.py shows them at work) then leave the fuzz its depth.
    No traffic: the address is only what the in-process app is told."""
    numbers = itertools.count(1 << 16)

    async def wrapped(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            n = next(numbers)
            scope = {**scope, "client": (f"127.{n >> 16 & 255}.{n >> 8 & 255}.{n & 255}", 50000)}
        await app(scope, receive, send)

    return wrapped


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    data = tmp_path_factory.mktemp("fuzz-http")
    tables, tokens = _prepare(data)
    app = create_app(ServerConfig(data_dir=str(data), settings=FUZZED_ROOM))
    with TestClient(one_address_per_request(app)) as client:
        yield Room(data, client, tables, tokens)


def _known_inputs(operation: Any, room: Room) -> list[dict[str, Any]]:
    """Fixed path parameters and tokens that reach the room's real tables and seats."""
    names = {p.name for p in operation.iter_parameters()}
    if "table_id" not in names:
        return []
    every_token = [t for tokens in room.tokens.values() for t in tokens]
    out = []
    for kind, table_id in room.tables.items():
        for seat in range(3) if "seat" in names else [None]:
            for token in [None, *room.tokens[kind], every_token[0]]:
                fixed: dict[str, Any] = {"path_parameters": {"table_id": table_id}}
                if seat is not None:
                    fixed["path_parameters"]["seat"] = seat
                if token is not None and "X-Seat-Token" in names:
                    fixed["headers"] = {"X-Seat-Token": token}
                out.append(fixed)
    return out


def _with_a_real_game(case: Any, game: str) -> Any:
    if isinstance(case.body, dict) and "game" in case.body:
        case.body["game"] = game
    return case


def send(client: TestClient, case: Any) -> httpx.Response:
    kw = case.as_transport_kwargs(base_url=str(client.base_url))
    try:
        return client.request(
            kw["method"],
            kw["url"],
            headers=kw.get("headers"),
            params=kw.get("params"),
            json=kw.get("json"),
            content=kw.get("data"),
        )
    finally:  # an account a case registered does not sign in the cases after it
        client.cookies.clear()


def lobby(room: Room) -> list[dict[str, Any]]:
    """``GET /api/tables``: each table's id, game, seats, status... (test_the_lobby_shows_full_
    summaries checks the rest, which today depends on whether the table is in memory)."""
    keys = ("id", "game", "players", "options", "status", "seats", "created_at")
    return [
        {key: table.get(key) for key in keys} for table in room.client.get("/api/tables").json()
    ]


def now(room: Room) -> dict[str, Any]:
    """What a refusal must leave as it was: the database and the lobby."""
    return {"db": stored(room.data), "lobby": lobby(room)}


def check_answer(room: Room, response: httpx.Response, before: dict[str, Any]) -> None:
    """The documented contract of every answer; a refusal changes nothing stored."""
    request = f"{response.request.method} {response.request.url} {response.request.content!r}"
    assert response.status_code in STATUSES, f"{response.status_code} for {request}"
    if response.status_code >= 400:
        assert_error_body(response.json(), f"answered {response.status_code} to {request}")
        if response.status_code == 429:
            assert "retry-after" in response.headers, request
        assert stored(room.data) == before["db"], (
            f"{response.status_code} stored a change: {request}"
        )
        after = lobby(room)
        assert after == before["lobby"], f"{response.status_code} changed the lobby: {request}"
    for row in stored(room.data)["seats"]:
        assert_showable(row[2])


def test_the_lobby_shows_full_summaries(room):
    """Every table of ``GET /api/tables`` is a whole summary, loaded in memory or not (the
    open table was made by another server process: this one has not loaded it yet)."""
    tables = room.client.get("/api/tables").json()
    assert room.tables["open"] in {table["id"] for table in tables}
    for table in tables:
        assert set(table) == SUMMARY, f"{table['id']} lacks {sorted(SUMMARY - set(table))}"


@pytest.mark.parametrize(
    ("operation", "mode"), RUNS, ids=[f"{op.label}-{mode.value}" for op, mode in RUNS]
)
def test_the_api_never_fails_and_a_refusal_changes_nothing(room, operation, mode):
    """Schemathesis cases of each operation, with random and with real tables, seats, tokens."""
    strategy = operation.as_strategy(generation_mode=mode)
    if mode is GenerationMode.POSITIVE:
        known = _known_inputs(operation, room)
        if known:
            fixed = st.sampled_from(known).flatmap(
                lambda kw: operation.as_strategy(generation_mode=mode, **kw)
            )
            strategy = st.one_of(strategy, fixed, fixed)
        if operation.label == "POST /api/tables":
            strategy = st.one_of(
                strategy, st.builds(_with_a_real_game, strategy, st.sampled_from(sorted(GAMES)))
            )

    @fuzz(25)
    @given(case=strategy)
    def run(case: Any) -> None:
        before = now(room)
        response = send(room.client, case)
        case.validate_response(
            response,
            checks=[not_a_server_error, response_schema_conformance, content_type_conformance],
        )
        check_answer(room, response, before)

    run()


OPTION_NAMES = sorted({option.name for cls in GAMES.values() for option in cls.options_schema})
RESERVED = ["players", "name", "self", "bank", "cls", "seed", "decks", "setup", "__class__"]
"""Option names that are no option but could collide with how a game is made."""
OPTION_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=20),
    st.sampled_from(["builtin", "open", "x@1", "first_elimination", "bot"]),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
)


@fuzz(60)
@given(
    game=st.sampled_from(sorted(GAMES)) | st.text(max_size=12),
    players=st.none() | st.integers(1, 9) | st.integers() | st.sampled_from([2**31, 10**20]),
    options=st.just({})
    | st.dictionaries(
        st.sampled_from(OPTION_NAMES) | st.text(max_size=10), OPTION_VALUES, max_size=3
    ),
    extra=st.fixed_dictionaries(
        {},
        optional={
            "turn_clock": st.none() | st.floats() | st.integers(-5, 5000),
            "on_timeout": st.sampled_from(["default", "bot", "", "Bot"]),
            "name": st.sampled_from(["Ann", "", " ", "You", "x" * 33, "B\udfff"])
            | st.text(max_size=40),
            "seat": st.integers(-3, 9),
        },
    ),
)
@example(game="thirty-two", players=None, options={}, extra={"name": " "})
@example(game="thirty-two", players=3, options={}, extra={"name": "Ann", "seat": 3})
@example(game="thirty-two", players=3, options={}, extra={"name": "B\udfff"})
def test_new_tables_with_any_game_players_and_options(room, game, players, options, extra):
    """Bodies an engine has to judge (reserved and unknown option names, odd values)."""
    body = {"game": game, "players": players, "options": options, **extra}
    before = now(room)
    response = post(room.client, "/api/tables", body)
    check_answer(room, response, before)
    if response.status_code == 201:
        assert set(response.json()["table"]["options"]) == {
            option.name for option in GAMES[game].options_schema
        }, f"unknown options were kept: {body}"


@pytest.mark.parametrize("reserved", RESERVED)
def test_a_reserved_option_name_is_refused(room, reserved):
    """400 bad_options at every game (the quiz on, for the Quiz Show's bank), nothing stored."""
    wrong = {}
    for game in sorted(GAMES):
        options: dict[str, Any] = {reserved: 3, **({"quiz": True} if game == "toe" else {})}
        before = now(room)
        try:
            response = room.client.post("/api/tables", json={"game": game, "options": options})
        except Exception as exc:  # the in-process client raises what the server did not handle
            wrong[game] = repr(exc)
            continue
        check_answer(room, response, before)
        if response.status_code != 400 or response.json()["code"] != "bad_options":
            wrong[game] = response.text
    assert not wrong, wrong


HOSTILE_NAMES = [
    "Ann\u200b",
    "\u202eAnn",
    "A\u0000nn",
    "\x1b[31mAnn",
    "Ａｎｎ",
    "ＡＮＮ",
    "Ann\u2028",
    "\ufeffAnn",
    "ﬀ",
    "A\u0301nn",
    "Ann\u2066",
    "\U000e0041Ann",
    "\u00adAnn",
    "B\ud800b",
    "\u00b4B",
]
"""Zero-width, bidi, control, full-width (NFKC: "Ann"), separator, BOM, ligature, combining,
tag, soft-hyphen and lone-surrogate names."""


@fuzz(40)
@given(name=st.text(max_size=40) | st.sampled_from(HOSTILE_NAMES))
def test_a_name_is_shown_clean_or_refused(room, name):
    """Seat names are NFKC-normalized; controls, format characters (bidi, zero-width) refused;
    no name passes for one already seated (Ann, at a new table)."""
    table = room.client.post("/api/tables", json={"game": "thirty-two", "name": "Ann"}).json()
    table_id = table["table"]["id"]
    before = now(room)
    response = post(room.client, f"/api/tables/{table_id}/seats/1", {"name": name})
    check_answer(room, response, before)
    if response.status_code == 200:
        seats = response.json()["table"]["seats"]
        shown = seats[1]["name"]
        assert shown.split() == unicodedata.normalize("NFKC", name).split(), (name, shown)
        assert shown != seats[0]["name"], f"{name!r} passes for {seats[0]['name']}, seated"
    else:
        assert response.json()["code"] in ("bad_name", "rate_limited"), response.text


def test_a_body_over_64_kb_is_refused_and_stores_nothing(room):
    """413 before anything is read into the room: a big pad beside a valid new table."""
    before = now(room)
    big = {"game": "thirty-two", "players": 3, "name": "Pad", "pad": "x" * 70_000}
    response = room.client.post("/api/tables", json=big)
    assert response.status_code == 413, response.text
    check_answer(room, response, before)
    table_id = room.tables["open"]
    response = room.client.post(f"/api/tables/{table_id}/seats/2", json={"name": "y" * 70_000})
    assert response.status_code == 413, response.text
    check_answer(room, response, before)


# --- the websocket ---------------------------------------------------------------------------
KINDS = sorted({kind for cls in GAMES.values() for kind in cls.codec.kinds})
FIELDS = sorted(
    {p.name for cls in GAMES.values() for kind in cls.codec.kinds.values() for p in kind.params}
)
LEAF = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(max_size=12),
    st.sampled_from(["RC1", "GS1", "KB?", "A1", "C7", "7", "C", "wasted", "²", "-0", " 1 ", "١"]),
)
JSON = st.recursive(
    LEAF,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
HUGE = st.sampled_from(
    [
        2**63,
        -(2**63) - 1,
        2**64 + 1,
        10**40,
        2**53 + 1,
        1e308,
        -1e308,
        5e-324,
        float("inf"),
        float("nan"),
        -0.0,
    ]
) | st.integers(min_value=2**63)


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


DEEP = st.integers(240, 420).map(nested)
"""Values nested deeper than some JSON encoders allow (orjson: 255), still under 4096 chars."""
ODD = st.one_of(JSON, HUGE, DEEP)


def brief(text: str | bytes) -> str:
    return repr(text) if len(text) <= 300 else f"{text[:150]!r}...{text[-150:]!r}"


def dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=True)


def one_action(entry: dict[str, Any]) -> Any:
    """A legal entry's action, or the first of the actions a pattern entry stands for (Memo
    Match's spotting claims come as one pattern)."""
    if "pattern" not in entry:
        return entry["action"]
    pattern = entry["pattern"]
    return {**pattern["action"], pattern["field"]: pattern["from"][: pattern["pick"]]}


@dataclass(frozen=True)
class Seen:
    """A value made from what the sender last saw (drawn before it is known, so that
    Hypothesis draws the same way whatever the game did): its version plus ``offset``,
    or one of its legal actions with ``key`` set to ``value``."""

    offset: int = 0
    key: str | None = None
    value: Any = None

    def version(self, sender: Socket) -> int:
        return (sender.version or 0) + self.offset

    def action(self, sender: Socket) -> Any:
        legal = [one_action(entry) for entry in sender.legal] or [{"type": "draw"}]
        wire = legal[self.offset % len(legal)]
        return wire if self.key is None else {**wire, self.key: self.value}


def test_a_legal_pattern_is_fuzzed_as_actions_it_stands_for():
    """Memo Match's spotting claims come as one pattern entry, with no ``action`` key: the
    fuzz's "legal" frames play one of its claims (they failed with a KeyError)."""
    state, _ = declared()
    game = state.game
    legal = [
        {"pattern": game.pattern_to_wire(e)}
        if isinstance(e, ActionPattern)
        else {"action": game.action_to_wire(e)}
        for e in state.legal_summary(2)
    ]
    sender = Socket.__new__(Socket)
    sender.legal = legal
    played = {game.action_from_wire(Seen(i).action(sender)) for i in range(4)}
    assert played == {("claim", (0, 1)), ("pass",)}
    assert played <= set(state.legal_actions(2))


WIRE = st.one_of(
    ODD,
    st.fixed_dictionaries({"type": st.sampled_from(KINDS)}, optional=dict.fromkeys(FIELDS, ODD)),
    st.builds(
        Seen, st.integers(0, 99), st.sampled_from(["type", *FIELDS]) | st.text(max_size=5), ODD
    ),
)
"""Actions in random wire shapes: any JSON, any kind with any fields, mutated legal ones."""
VERSIONS = st.one_of(st.builds(Seen, st.integers(-2, 2)), ODD)
REFS = st.one_of(st.none(), st.text(max_size=8), ODD, DEEP)


@dataclass(frozen=True)
class Token:
    """The seat token of one of the arena's people (known once the tables exist)."""

    index: int


Frame = tuple[str, Any, bool]
"""How to send (``json``, ``text`` or ``bytes``), what, and whether it is an action."""


def _action(wire: Any, extra: dict[str, Any], junk: dict[str, Any]) -> Frame:
    return "json", {**junk, "type": "action", "action": wire, **extra}, True


def _legal(index: int, ref: Any) -> Frame:
    message = {"type": "action", "version": Seen(), "action": Seen(index)}
    return "json", message if ref is None else {**message, "ref": ref}, True


KINDS_OF_FRAME: dict[str, st.SearchStrategy[Frame]] = {
    "legal": st.builds(_legal, st.integers(0, 99), REFS),
    "action": st.builds(
        _action,
        WIRE,
        st.fixed_dictionaries(
            {}, optional={"version": VERSIONS, "ref": ODD, "table": st.just(True) | ODD}
        ),
        st.dictionaries(st.text(max_size=6), ODD, max_size=1) | st.just({}),
    ),
    "object": st.builds(
        lambda message, kind: ("json", {**message, "type": kind}, False),
        st.dictionaries(st.text(max_size=8), ODD, max_size=4),
        st.sampled_from([*sorted(MESSAGE_TYPES), "hello", "sync", "action"]) | ODD,
    ),
    "hello": st.builds(
        lambda token, version: (
            "json",
            {"type": "hello", "token": token, "version": version},
            False,
        ),
        st.builds(Token, st.integers(0, 3)) | st.sampled_from(["forged", ""]) | ODD,
        VERSIONS,
    ),
    "sync": VERSIONS.map(lambda version: ("json", {"type": "sync", "version": version}, False)),
    "ping": ODD.map(lambda ref: ("json", {"type": "ping", "ref": ref}, False)),
    "text": st.one_of(st.text(max_size=60), ODD.map(dumps), st.just("x" * 5000)).map(
        lambda text: ("text", text, False)
    ),
    "bytes": st.one_of(st.binary(max_size=60), ODD.map(lambda v: dumps(v).encode())).map(
        lambda raw: ("bytes", raw, False)
    ),
    "deep": st.integers(200, 1500).map(lambda depth: ("text", "[" * depth + "]" * depth, False)),
}
FRAMES = st.sampled_from(
    ["legal"] * 4
    + ["action"] * 4
    + [kind for kind in KINDS_OF_FRAME if kind not in ("legal", "action")]
).flatmap(KINDS_OF_FRAME.__getitem__)
"""Hostile frames: legal actions (with odd refs), actions in random shapes, objects of any
type, hellos with odd tokens and versions, syncs, pings, raw text and bytes, deep nesting."""


class Socket:
    """One fuzzing client: every message it receives is checked as it arrives."""

    def __init__(self, url: str, probes: Iterator[int]) -> None:
        self.stack = contextlib.ExitStack()
        self.ws: ClientConnection = self.stack.enter_context(
            connect(url, open_timeout=10, max_size=2**22)
        )
        self.probes = probes
        self.seat: int | None = None
        self.version: int | None = None
        self.from_state = False
        self.legal: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []

    def hello(self, token: str | None) -> None:
        self.ws.send(dumps({"type": "hello", "token": token}))
        replies = self.settle()
        assert replies and replies[0]["type"] == "welcome", replies
        while not any(m["type"] == "state" for m in replies):
            # the state waits while an action is being saved: it comes after the pong then
            message = json.loads(self.ws.recv(timeout=10))
            self._see(message)
            replies.append(message)

    def settle(self) -> list[dict[str, Any]]:
        """Ping and read up to the pong: every answer to what was sent before it."""
        probe = f"probe-{next(self.probes)}"
        self.ws.send(dumps({"type": "ping", "ref": probe}))
        replies = []
        while True:
            try:
                text = self.ws.recv(timeout=10)
            except TimeoutError:
                raise AssertionError(f"no pong within 10 s after {replies}") from None
            message = json.loads(text)
            assert isinstance(message, dict) and message.get("type") in MESSAGE_TYPES, message
            if message["type"] == "pong" and message.get("ref") == probe:
                return replies
            self._see(message)
            replies.append(message)

    def _see(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "error":
            assert_error_body(message)
            assert message["code"] in ERROR_CODES, message
        elif kind == "welcome":
            self.seat = message["seat"]
        elif kind in ("state", "update"):
            version = message["version"]
            if kind == "update" and self.version is not None:
                # never a skipped action (an update may repeat one a state already showed)
                assert version == self.version + 1 or (
                    self.from_state and version <= self.version
                ), f"update {version} after {self.version}"
                self.updates.append(message)
            self.from_state = kind == "state"
            self.version = max(version, self.version or 0)
            self.legal = message.get("legal", [])

    def close(self) -> None:
        self.stack.close()


@dataclass
class Arena:
    """A live server with a game of two people and (but at Toe) a bot being fuzzed, and
    another table of Thirty-Two."""

    base: str
    data: Path
    table: str
    tokens: list[str]
    bots: set[int]
    other: str
    other_tokens: list[str]
    probes: Iterator[int] = field(default_factory=lambda: iter(range(10**9)))

    def url(self, table: str) -> str:
        return self.base.replace("http", "ws", 1) + f"/ws/tables/{table}"

    def actions(self) -> list[tuple[int, int]]:
        """(n, seat) of every stored action of the fuzzed table."""
        return [(row[1], row[2]) for row in stored(self.data, self.table)["actions"]]


FUZZED = {
    "thirty-two": (3, {"counters": 100_000}),
    "thirty-one": (3, {}),
    "three-up-three-down": (3, {}),
    "toe": (2, {}),
    "memo-match": (3, {"spot_seconds": 3600}),  # no timed phase ends during the run
}
"""Each game's seats (two people, the rest bots) and options for a long game."""


@pytest.fixture(scope="module", params=sorted(FUZZED))
def arena(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Arena]:
    game = request.param
    players, options = FUZZED[game]
    data = tmp_path_factory.mktemp("fuzz-ws")
    with live_server(str(data)) as base:
        table, tokens = open_table(
            base, game=game, players=players, humans=2, bots="easy", options=options
        )
        other, other_tokens = open_table(base, players=3, humans=2, options={"counters": 100})
        yield Arena(base, data, table, tokens, set(range(2, players)), other, other_tokens)


SENDERS = ["seat 0", "seat 1", "spectator", "a new connection", *["the seat to act"] * 2]


def render(frame: Frame, sender: Socket, tokens: list[str]) -> str | bytes:
    """The frame as sent, with what the sender has seen filled in."""
    form, payload, _is_action = frame
    if form != "json":
        return payload  # type: ignore[no-any-return]
    message = {}
    for key, value in payload.items():
        if isinstance(value, Seen):
            value = value.action(sender) if key == "action" else value.version(sender)
        elif isinstance(value, Token):
            value = tokens[value.index % len(tokens)]
        message[key] = value
    return dumps(message)


@fuzz(100)
@given(steps=st.lists(st.tuples(st.sampled_from(SENDERS), FRAMES), min_size=1, max_size=6))
@example(steps=[("the seat to act", _legal(0, nested(300)))] * 2)  # an ack no encoder can write
def test_hostile_messages_get_documented_errors_and_change_nothing(arena, steps):
    """Seats and spectators send anything; refused actions never reach the stored game."""
    sockets: dict[str, Socket] = {}
    tokens = [*arena.tokens, *arena.other_tokens]
    try:
        for name, token in (
            ("seat 0", arena.tokens[0]),
            ("seat 1", arena.tokens[1]),
            ("spectator", None),
        ):
            sockets[name] = Socket(arena.url(arena.table), arena.probes)
            sockets[name].hello(token)
        for who, frame in steps:
            if who == "the seat to act":
                for seat in ("seat 0", "seat 1"):
                    sockets[seat].settle()  # the newest view (the bot may have moved)
                movers = [s for s in ("seat 0", "seat 1") if sockets[s].legal]
                who = movers[0] if movers else "seat 0"
            sender = sockets.get(who) or Socket(arena.url(arena.table), arena.probes)
            text = render(frame, sender, tokens)
            note = f"{who} (seat {sender.seat}) sent {brief(text)}"
            before = arena.actions()
            sender.ws.send(text)
            try:
                replies = sender.settle()
            except (AssertionError, ConnectionClosed) as exc:
                raise AssertionError(f"{note}: {exc}") from None
            after = arena.actions()
            assert after[: len(before)] == before, f"{note}: stored actions were rewritten"
            people = [seat for _n, seat in after[len(before) :] if seat not in arena.bots]
            refused = [m for m in replies if m["type"] == "error"]
            note += f", got {replies}"
            for error in refused:  # an error's version is the table's, under its lock
                if isinstance(error.get("version"), int):
                    assert len(before) <= error["version"] <= len(after), note
            if frame[2] and not refused and sender.seat is not None:
                assert len(people) == 1 and people[0] in (sender.seat, TABLE), note
            else:
                assert people == [], note
            by_seat = dict(after)
            for update in sender.updates:
                if update["actor"] is not None:
                    assert by_seat.get(update["version"] - 1) == update["actor"], update["version"]
            sender.updates.clear()
            if who not in sockets:
                sender.close()
        for sock in sockets.values():
            sock.settle()  # still answering, nothing undocumented queued
    finally:
        for sock in sockets.values():
            with contextlib.suppress(Exception):
                sock.close()


def test_after_the_fuzz_the_room_still_answers_and_plays(arena):
    """The fuzzed table still answers pings; another table still applies a legal action."""
    try:
        fuzzed = Socket(arena.url(arena.table), arena.probes)
        fuzzed.hello(arena.tokens[0])
        fuzzed.close()
        sockets = [Socket(arena.url(arena.other), arena.probes) for _ in arena.other_tokens]
        for sock, token in zip(sockets, arena.other_tokens, strict=True):
            sock.hello(token)
        for _ in range(100):  # the bot may be thinking
            movers = [s for s in sockets if s.legal]
            if movers:
                break
            time.sleep(0.05)  # (pings count against the rate limit)
            for sock in sockets:
                sock.settle()
        assert movers, "nobody could act"
        mover = movers[0]
        seen = mover.version
        assert seen is not None
        mover.ws.send(
            dumps(
                {
                    "type": "action",
                    "version": seen,
                    "ref": "last",
                    "action": mover.legal[0]["action"],
                }
            )
        )
        replies = mover.settle()
        assert {"type": "ack", "ref": "last", "version": seen + 1} in replies, replies
        for sock in sockets:
            sock.close()
    except ConnectionClosed as exc:
        raise AssertionError(f"the room hung up: {exc}") from None
