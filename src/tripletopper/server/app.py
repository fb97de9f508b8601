"""The card room's web application: HTTP API, websocket endpoint and the browser client.

``create_app(config)`` builds a FastAPI app.  On start it migrates the
database, rebuilds every unfinished game by replay (bots and clocks resume)
and serves:

- the pages (lobby ``/``, table ``/t/{id}``, replay ``/r/{id}``, rules
  ``/rules/{game}``) and their static ES modules from :mod:`tripletopper.web`;
- the JSON API under ``/api`` (post-game reviews computed in the background:
  :mod:`tripletopper.server.reviews`) (documented by the OpenAPI schema at
  ``/openapi.json`` and ``/docs``);
- the websocket of each table at ``/ws/tables/{id}`` and the lobby's at ``/ws/lobby``
  (``docs/protocol.md``);
- for its operator, ``/healthz`` and ``/readyz`` (:mod:`.health`) and the Prometheus
  metrics at ``/metrics`` (:mod:`.metrics`), none of them in the OpenAPI schema.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from importlib import resources
from typing import Annotated, Any

from fastapi import FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi_offline import FastAPIOffline
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from tripletopper import __version__
from tripletopper.bots import bot_class, bot_names
from tripletopper.engine import YOU, Game, Option, State
from tripletopper.games import GAMES
from tripletopper.record import Record
from tripletopper.server import bot_accounts, guide, health, history, metrics
from tripletopper.server.account_api import Accounts
from tripletopper.server.botpool import BotPool
from tripletopper.server.cluster import Cluster
from tripletopper.server.guards import (
    AddressLimits,
    BodyLimit,
    WebAssets,
    client_address,
    error_response,
)
from tripletopper.server.lobby import Lobby, LobbyConnection
from tripletopper.server.protocol import Connection
from tripletopper.server.redis_keys import RedisKeys, default_prefix
from tripletopper.server.reviews import Reviews
from tripletopper.server.storage import SeatRow, load_chat, open_database, sqlite_url
from tripletopper.server.tables import (
    OVER,
    ClientError,
    Room,
    Settings,
    Table,
    encode,
    hash_token,
    join_json,
    new_token,
    person_name,
)

log = logging.getLogger("tripletopper.server")

WEB = resources.files("tripletopper.web")


@dataclass
class ServerConfig:
    data_dir: str = "data"
    db_url: str | None = None
    settings: Settings = field(default_factory=Settings)
    bot_workers: int | None = None
    """Worker processes for bot decisions (None: one per core)."""
    redis_url: str | None = None
    """With a Redis URL, this process is one of several running the room together
    (:mod:`tripletopper.server.cluster`; the database must be shared: PostgreSQL)."""
    redis_prefix: str | None = None
    """What every key and channel of this room in Redis starts with (None: from the
    database's name, :func:`.redis_keys.default_prefix`)."""
    freeze_gc: bool = False
    """After start-up, move every object made so far out of the garbage collector's sight
    (``gc.freeze``): long-lived modules and tables then cost nothing at each collection."""
    migrate: bool = True
    """Bring the database's schema up to date on start (under the database's lock); False:
    refuse to start on a schema that is not current (``tripletopper db upgrade``)."""
    metrics_token: str | None = None
    """Who may read ``/metrics``: with a token, a client that bears it; without, only a
    client on this machine that reaches the process directly."""

    def url(self) -> str:
        return self.db_url or sqlite_url(self.data_dir)

    def redis_keys(self) -> RedisKeys:
        return RedisKeys(self.redis_prefix or default_prefix(self.url()))


CONFIG_VARIABLE = "TT_SERVE_CONFIG"
"""Where ``serve --workers`` leaves the configuration for its processes (JSON)."""


def tune_interpreter() -> None:
    """Settings of a room process's interpreter (each process of ``--workers`` too)."""
    # The database thread hands the GIL back to the event loop sooner (default 5 ms).
    sys.setswitchinterval(0.001)
    # Fewer young-generation collections (the default, 700, means one every few actions
    # with a thousand connections); start-up objects are frozen out of sight (freeze_gc).
    gc.set_threshold(10_000, 20, 20)


def config_to_environment(config: ServerConfig) -> None:
    os.environ[CONFIG_VARIABLE] = json.dumps(dataclasses.asdict(config))


def app_from_environment() -> FastAPI:
    """The app of one of the processes ``serve --workers`` starts (uvicorn's factory)."""
    tune_interpreter()
    data = json.loads(os.environ[CONFIG_VARIABLE])
    data["settings"] = Settings(**data["settings"])
    return create_app(ServerConfig(**data))


class NewTable(BaseModel):
    """A table to open: any registered game with options its engine accepts."""

    game: str = Field(description="registry name, e.g. thirty-two")
    players: int | None = Field(None, description="number of seats (default: the game's fewest)")
    options: dict[str, Any] = Field(default_factory=dict, description="game options by name")
    turn_clock: float | None = Field(None, description="seconds per turn; none: no turn clock")
    on_timeout: str = Field("default", description="'default' (a safe move) or 'bot'")
    hints: bool = Field(
        False, description="show each seat the game's hints (threats, playable cards)"
    )
    name: str | None = Field(
        None, description="take a seat at once with this name (signed in: your account's)"
    )
    seat: int = Field(0, description="the seat to take with `name`")
    rated: bool | None = Field(
        None,
        description="a rated game (accounts only); null: rated if every person seated "
        "at the start has an account",
    )


class TakeSeat(BaseModel):
    name: str | None = Field(
        None, description="the name others see (1-32 characters); signed in: your account's"
    )


class AddBot(BaseModel):
    bot: str = Field(description="a bot spec, e.g. medium or hard (GET /api/games lists them)")


STATUS = {
    "no_table": 404,
    "not_seated": 403,
    "not_your_seat": 403,
    "rate_limited": 429,
    "too_many_tables": 429,
    "too_large": 413,
    "broken": 409,
    "expired": 410,
    "left": 403,
    "no_game": 404,
    "busy": 429,
    "starting": 503,
    "bad_session": 401,
    "not_signed_in": 401,
    "wrong_password": 401,
    "csrf": 403,
    "name_taken": 409,
    "already_seated": 409,
    "rated": 403,
    "no_player": 404,
    "no_bot": 404,
    "no_token": 404,
    "bot_offline": 409,
    "too_many_bots": 429,
    "too_many_tokens": 429,
}
"""HTTP status of each refusal code (others are 400)."""

Token = Annotated[str | None, Header(alias="X-Seat-Token", description="your seat token")]


def create_app(config: ServerConfig | None = None) -> FastAPI:
    config = config or ServerConfig()
    state: dict[str, Any] = {}

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        db = open_database(config.url(), upgrade=config.migrate)
        db.start()
        pool = BotPool(config.bot_workers, config.settings.bot_deadline)
        room = Room(db, pool, config.settings)
        state["lobby"] = app.state.lobby = lobby = Lobby(db, room.spawn)
        state["reviews"] = app.state.reviews = reviews = Reviews(
            db, config.settings, config.redis_url, keys
        )
        room.watchers.append(lobby.changed)
        if config.redis_url is not None:
            room.cluster = Cluster(room, config.redis_url, keys=keys)
            await room.cluster.start()
        restored = await room.restore()
        if restored:
            log.info("restored %d unfinished game(s)", restored)
        state["room"] = app.state.room = room  # ready from here on (/readyz)
        room.spawn(room.sweep())
        if config.freeze_gc:
            gc.collect()
            gc.freeze()
        try:
            yield
        finally:
            state.pop("room", None)
            lobby.close()
            await readiness.close()
            if room.cluster is not None:
                await room.cluster.stop()
            await reviews.close()
            await room.close()
            pool.close()
            db.stop()

    app = FastAPIOffline(  # /docs with Swagger UI served from the package, not a CDN
        title="Triple Topper card room",
        version=__version__,
        description="Tables for the Triple Topper games: open one, invite friends, add bots, "
        "play. Play itself goes through the websocket at `/ws/tables/{id}` (docs/protocol.md).",
        lifespan=lifespan,
        static_url="/docs-assets",
        favicon_url="/favicon.ico",
    )
    app.state.config = config
    app.add_middleware(BodyLimit)
    keys = config.redis_keys()
    address_limits = AddressLimits(config.settings.rates, config.redis_url, keys.limits)

    def room() -> Room:
        found = state.get("room")
        if found is None:
            raise ClientError("starting", "the room is starting or stopping: try again shortly")
        return found  # type: ignore[no-any-return]

    def room_if_ready() -> Room | None:
        return state.get("room")

    readiness = health.Readiness(room_if_ready, config.redis_url)
    app.include_router(health.router(readiness))
    app.include_router(metrics.router(room_if_ready, config.metrics_token))

    accounts = Accounts(room, address_limits, config.settings.session_days)

    def lobby() -> Lobby:
        return state["lobby"]  # type: ignore[no-any-return]

    def reviews() -> Reviews:
        return state["reviews"]  # type: ignore[no-any-return]

    @app.exception_handler(ClientError)
    async def client_error(request: Request, exc: ClientError) -> Response:
        metrics.refused(exc.code)
        status = STATUS.get(exc.code, 400)
        headers = {}
        if "retry_after" in exc.extra:
            headers["Retry-After"] = str(exc.extra["retry_after"])
        return Response(encode(exc.to_json()), status, headers, "application/json")

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p != "body")
        text = f"{where}: {first.get('msg', 'invalid')}" if where else "invalid request"
        return error_response(422, "malformed", text)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 400:  # FastAPI's own: a body that is not JSON text
            return error_response(422, "malformed", "the request body is not readable JSON")
        code = {404: "not_found", 405: "bad_method", 413: "too_large"}.get(exc.status_code, "bad")
        return error_response(exc.status_code, code, str(exc.detail), **(exc.headers or {}))

    @app.exception_handler(Exception)
    async def server_error(request: Request, exc: Exception) -> Response:
        log.exception("%s %s: unexpected error", request.method, request.url.path)
        return error_response(500, "internal", "the server could not handle that request")

    # --- pages -----------------------------------------------------------------------
    def page(name: str) -> FileResponse:
        return FileResponse(str(WEB / name), media_type="text/html")

    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return page("index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return page("table.html")

    @app.get("/r/{table_id}", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> FileResponse:
        return page("player.html")

    @app.get("/leaderboard/{game}", include_in_schema=False)
    async def leaderboard_page(game: str) -> FileResponse:
        return page("leaderboard.html")

    @app.get("/rules", include_in_schema=False)
    async def rules_index() -> HTMLResponse:
        return HTMLResponse(guide.rules_index())

    @app.get("/rules/{game}", include_in_schema=False)
    async def rules_page(game: str) -> HTMLResponse:
        text = guide.rules_page(game)
        if text is None:
            return HTMLResponse(guide.rules_index(), status_code=404)
        return HTMLResponse(text)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(str(WEB / "favicon.svg"), media_type="image/svg+xml")

    app.mount("/static", WebAssets(directory=str(WEB)), name="static")

    # --- API ---------------------------------------------------------------------------
    @app.get("/api/games", tags=["lobby"])
    async def list_games() -> list[dict[str, Any]]:
        """Every registered game: seats, options (as forms need them) and bots."""
        out = []
        for name in sorted(GAMES):
            cls = GAMES[name]
            out.append(
                {
                    "name": name,
                    "title": cls.title,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "options": [option_form(option, cls) for option in cls.options_schema],
                    "bots": [
                        {"name": b, "description": bot_class(b, name).description}
                        for b in bot_names(name)
                    ],
                    "rules": f"/rules/{name}",
                }
            )
        return out

    @app.get("/api/games/{game}/help", tags=["lobby"])
    async def game_help(game: str) -> dict[str, Any]:
        """How to play a game's table at the room (what you click, what the symbols mean),
        as HTML rendered from the project's own page, and where its rules page is."""
        if game not in GAMES:
            raise ClientError("no_game", f"there is no game {game[:40]!r}")
        return {
            "game": game,
            "title": GAMES[game].title,
            "rules": f"/rules/{game}",
            "html": guide.how_to_html(game),
        }

    @app.get("/api/lobby", tags=["lobby"])
    async def lobby_lists(request: Request) -> Response:
        """Open tables to join, games in progress to watch and recently finished games to
        replay (rebuilt at most once a second; send `If-None-Match` for a 304)."""
        address_limits.hit("lobby", client_address(request))
        body = await lobby().lists()
        etag = lobby().etag
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers={"ETag": etag})
        return Response(body, media_type="application/json", headers={"ETag": etag})

    @app.get("/api/tables", tags=["lobby"])
    async def list_tables(request: Request) -> list[dict[str, Any]]:
        """Tables waiting for players or being played, newest first (at most 200)."""
        address_limits.hit("lobby", client_address(request))
        return await room().lobby()

    @app.post("/api/tables", tags=["lobby"], status_code=201)
    async def create_table(body: NewTable, request: Request) -> dict[str, Any]:
        """Open a table; with `name`, also take `seat` (the answer holds its token).

        Nothing is stored unless everything is valid; creations are rate-limited and
        open tables capped per client address."""
        address = client_address(request)
        signed = await accounts.session(request, write=True)
        address_limits.hit("create", address)
        seats, token = {}, None
        if body.name is not None:
            token = new_token()
            name, user_id = body.name, None
            if signed is not None:
                name, user_id = signed.user.name, signed.user.id
            seats[body.seat] = SeatRow(
                body.seat, person_name(name), "human", None, hash_token(token), user_id
            )
        table = await room().create(
            body.game,
            body.players,
            body.options,
            turn_clock=body.turn_clock,
            on_timeout=body.on_timeout,
            hints=body.hints,
            address=address,
            seats=seats,
            rated=body.rated,
        )
        out: dict[str, Any] = {"table": table.summary()}
        if token is not None:
            out["token"] = token
            out["seat"] = body.seat
        return out

    @app.get("/api/tables/{table_id}", tags=["table"])
    async def get_table(table_id: str, token: Token = None) -> dict[str, Any]:
        """A table's seats and status, and where your token stands: `seat` (the seat you
        play), `away` (the seat a bot plays since you left), `invited` (a rematch's seat
        offered to you)."""
        table = await room().get(table_id)
        return {"table": table.summary(), **table.standing(token)}

    @app.post("/api/tables/{table_id}/seats/{seat}", tags=["table"])
    async def take_seat(
        table_id: str, seat: int, body: TakeSeat, request: Request
    ) -> dict[str, Any]:
        """Sit down; the answer's `token` is the seat's secret (keep it).  Signed in, you
        sit under your account's name (one seat per account at a table)."""
        table = await room().get(table_id)
        signed = await accounts.session(request, write=True)
        address_limits.hit("seat", client_address(request))
        if signed is None:
            token = await table.take_seat(seat, body.name)
        else:
            token = await table.take_seat(seat, None, signed.user.id, signed.user.name)
        return {"token": token, "seat": seat, "table": table.summary()}

    @app.post("/api/tables/{table_id}/account", tags=["table"])
    async def link_seat(table_id: str, request: Request, token: Token = None) -> Any:
        """Signed in after sitting down as a guest: your seat (the one your token holds, or
        left to a bot) becomes your account's.  Its name and token stay."""
        table = await room().get(table_id)
        signed = await accounts.require(request)
        address_limits.hit("seat", client_address(request))
        seat = await table.link_account(token, signed.user.id)
        return {"seat": seat, "table": table.summary()}

    @app.post("/api/tables/{table_id}/resume", tags=["table"])
    async def resume_seat(table_id: str, request: Request) -> Any:
        """Signed in, on another device: go back to the seat your account holds here (from
        "My games").  The answer's `token` is this device's own seat token; the tokens of
        your other devices stay valid.  A seat you left to a bot, or a game that is over,
        is refused."""
        table = await room().get(table_id)
        signed = await accounts.require(request)
        address_limits.hit("seat", client_address(request))
        seat, token = await table.resume(signed.user.id, signed.token)
        return {"token": token, "seat": seat, "table": table.summary()}

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["table"])
    async def add_bot(
        table_id: str, seat: int, body: AddBot, request: Request, token: Token = None
    ) -> Any:
        """Put a bot in an empty seat (you must hold a seat at the table): a built-in bot,
        or `account:NAME`, a connected bot account (it is sent an invitation)."""
        table = await room().get(table_id)
        address_limits.hit("seat", client_address(request))
        if isinstance(body.bot, str) and body.bot.startswith(bot_accounts.ACCOUNT_PREFIX):
            name = body.bot.removeprefix(bot_accounts.ACCOUNT_PREFIX)
            await bot_accounts.invite(room(), table, seat, token, name)
        else:
            await table.add_bot(seat, body.bot, token)
        return {"table": table.summary()}

    @app.delete("/api/tables/{table_id}/seats/{seat}", tags=["table"])
    async def leave_seat(table_id: str, seat: int, request: Request, token: Token = None) -> Any:
        """Leave your seat, or remove a bot, before the start; during play a bot takes over
        (and gives the seat back if you return with the same token)."""
        table = await room().get(table_id)
        address_limits.hit("seat", client_address(request))
        await table.leave(seat, token)
        return {"table": table.summary()}

    @app.post("/api/tables/{table_id}/seats/{seat}/return", tags=["table"])
    async def take_seat_back(
        table_id: str, seat: int, request: Request, token: Token = None
    ) -> Any:
        """Take back the seat you left during the game: only the token that held it can."""
        table = await room().get(table_id)
        address_limits.hit("seat", client_address(request))
        await table.take_back(seat, token)
        return {"table": table.summary()}

    @app.post("/api/tables/{table_id}/start", tags=["table"])
    async def start(table_id: str, token: Token = None) -> Any:
        """Start the game once every seat is filled."""
        table = await room().get(table_id)
        await table.start(token)
        return {"table": table.summary()}

    @app.post("/api/tables/{table_id}/rematch", tags=["table"])
    async def rematch(table_id: str, request: Request, token: Token = None) -> Any:
        """After the game: ask for a rematch (a new table, same game, options and bots,
        where each person of this game is offered their seat), or accept the one asked."""
        table = await room().get(table_id)
        address_limits.hit("seat", client_address(request))
        new = await room().rematch(table, token)
        return {"table": new.summary()}

    @app.delete("/api/tables/{table_id}/rematch", tags=["table"])
    async def decline_rematch(table_id: str, request: Request, token: Token = None) -> Any:
        """Decline the rematch of this game: a bot takes the seat you were offered."""
        table = await room().get(table_id)
        address_limits.hit("seat", client_address(request))
        new = await room().decline_rematch(table, token)
        return {"table": new.summary()}

    @app.get("/api/tables/{table_id}/replay", tags=["replay"])
    async def replay(
        table_id: str, request: Request, seat: int | None = None, token: Token = None
    ) -> Any:
        """A finished game step by step: the public view, or your own seat's view."""
        table = await room().get(table_id)
        if table.row.status not in OVER:
            raise ClientError("not_finished", "replays open once the game is over")
        if seat is not None and seat not in (table.seat_of(token), table.held(token, "bot")):
            raise ClientError("not_your_seat", "a seat's view is for that seat's player only")
        address_limits.hit("replay", client_address(request))
        text = table.replays.get(seat)
        if text is None:  # a finished game never changes: built once per viewer
            text = table.replays[seat] = encode(replay_steps(table, seat))
        chat = await room().db.run(partial(load_chat, table_id=table.id))  # said after, too
        return Response(
            join_json(text, encode({"chat": [line.to_json() for line in chat]})),
            media_type="application/json",
        )

    async def reviewable(table_id: str, seat: int, token: str | None) -> Table:
        """The table whose seat's review this token may see (as the seat's replay)."""
        table = await room().get(table_id)
        if table.row.status not in OVER:
            raise ClientError("not_finished", "reviews open once the game is over")
        if not 0 <= seat < table.game.players:
            raise ClientError("bad_seat", f"there is no seat {seat} at this table")
        if seat not in (table.seat_of(token), table.held(token, "bot")):
            raise ClientError("not_your_seat", "a seat's review is for that seat's player only")
        return table

    @app.post("/api/tables/{table_id}/review", tags=["replay"])
    async def ask_review(
        table_id: str, seat: int, request: Request, token: Token = None
    ) -> Response:
        """Ask for the post-game review of your seat: the expert's move and the loss of each
        of your decisions.  Computed in the background: the answer is its progress
        (`status` waiting or running, `done`, `total`; asking again starts nothing new), or
        the review once done (`status` done, `review`), kept with the game."""
        table = await reviewable(table_id, seat, token)
        address_limits.hit("review", client_address(request))
        text, _status = await reviews().request((table.id, seat), table_record(table))
        return Response(text, media_type="application/json")

    @app.get("/api/tables/{table_id}/review", tags=["replay"])
    async def review_status(
        table_id: str, seat: int, request: Request, token: Token = None
    ) -> Response:
        """The progress of your seat's review, the review once done, or `status` none if
        nobody asked for it yet."""
        table = await reviewable(table_id, seat, token)
        address_limits.hit("review_status", client_address(request))
        found = await reviews().status((table.id, seat))
        text = '{"status":"none"}' if found is None else found[0]
        return Response(text, media_type="application/json")

    app.include_router(accounts.router())
    app.include_router(history.router(accounts, address_limits))
    app.include_router(bot_accounts.router(accounts, address_limits))

    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await Connection(websocket, room(), table_id, address_limits).serve()

    @app.websocket("/ws/bot")
    async def bot_socket(websocket: WebSocket) -> None:
        await bot_accounts.BotConnection(websocket, room()).serve()

    @app.websocket("/ws/lobby")
    async def lobby_socket(websocket: WebSocket) -> None:
        await LobbyConnection(websocket, room(), lobby()).serve()

    return app


def option_form(option: Option, cls: type[Game]) -> dict[str, Any]:
    """An option's schema for forms; a default that depends on the number of players (as
    Thirty-Two's counters) also comes for each number (``defaults``), so the lobby can tell
    a changed value from the default."""
    out = option.schema()
    if callable(option.default):
        seats = range(cls.min_players, cls.max_players + 1)
        out["defaults"] = {str(n): option.default_for(n) for n in seats}
    return out


def table_record(table: Table) -> Record:
    """The table's game as a saved game (all-seeing: for the server's own use)."""
    row = table.row
    return Record(
        game=row.game,
        players=row.players,
        options=row.options,
        seed=row.seed,
        actions=table.wire_history(),
        decks=row.decks,
        setup=row.setup,
    )


def replay_steps(table: Table, seat: int | None) -> dict[str, Any]:
    """Every step of a finished game as one seat (or a spectator) saw it."""
    row = table.row
    names = table.names()
    record = table_record(table)
    start = record.new_state()
    game = start.game
    viewer_names = list(names)
    if seat is not None:
        viewer_names[seat] = YOU

    def observe(state: State) -> dict[str, Any]:
        return state.public_observation() if seat is None else state.observation(seat)

    steps = [{"version": 0, "log": [], "observation": observe(start)}]
    for state, actor, _action, events in record.steps():
        log = [game.describe_event(e.view(seat), viewer_names) for e in events]
        if state.version in table.clock_moves:
            log.insert(0, game.describe_clock_move(actor, viewer_names))
        steps.append({"version": state.version, "log": log, "observation": observe(state)})
    return {
        "table": row.id,
        "game": row.game,
        "seat": seat,
        "names": names,
        "results": row.results,
        "steps": steps,
    }
