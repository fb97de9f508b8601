"""Who played what, and how strong they are: leaderboards, player pages, "my games".

- ``GET /api/leaderboard/{game}``: the rated players of a game (people, and bots: levels
  and bot accounts, marked),
  best rating first, a page at a time;
- ``GET /api/players/{name}``: a player's rating per game with its recent history
  (for the rating-over-time chart) and their recent games with place, rating change
  and replay link; a name ending in " bot" is a bot level ("Hard bot"), any other an
  account (account names cannot end so: :mod:`.names`);
- ``GET /api/account/games``: the signed-in person's games, unfinished ones first.

Only public names and ratings are shown: no account id, no token, no address.
Every list is bounded (docs/protocol.md, "Limits").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import APIRouter, Query, Request
from sqlalchemy import Connection, case, func, select

from tripletopper.engine import Results
from tripletopper.games import GAMES
from tripletopper.server import names, ratings, schema, storage
from tripletopper.server.account_api import Accounts
from tripletopper.server.accounts import DELETED, user_by_name
from tripletopper.server.guards import AddressLimits, client_address
from tripletopper.server.storage import TableRow
from tripletopper.server.tables import OVER, ClientError, summarize

MAX_PAGE = 100
"""Leaderboard rows one call returns at most..."""
MAX_OFFSET = 10_000
"""...and how deep it may page."""
RECENT = 20
"""Recent games on a player page."""
HISTORY = 50
"""Rating changes per game in a player's chart."""
MY_GAMES = 50
"""Games in "my games"."""


@dataclass(frozen=True)
class Shown:
    """A player as pages show them: a public name, and whether a bot plays (a bot level,
    or a bot account)."""

    name: str
    bot: bool


def _shown(conn: Connection, players: list[str]) -> dict[str, Shown]:
    ids = [int(p[2:]) for p in players if p.startswith("u:")]
    u = schema.users
    people = {
        f"u:{r.id}": Shown(r.name, r.owner_id is not None)
        for r in conn.execute(select(u).where(u.c.id.in_(ids)))
    }
    return {
        p: people.get(p, Shown(DELETED, False))
        if p.startswith("u:")
        else Shown(ratings.bot_label(p[2:]), True)
        for p in players
    }


def _entry(shown: Shown, row: Any) -> dict[str, Any]:
    return {
        "name": shown.name,
        "kind": "bot" if shown.bot else "person",
        "rating": ratings.shown(row.mu),
        "provisional": ratings.provisional(row.games),
        "ordinal": ratings.ordinal(row.mu, row.sigma),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.games,
        "page": f"/players/{shown.name}",
    }


def leaderboard(conn: Connection, game: str, limit: int, offset: int) -> list[dict[str, Any]]:
    r = schema.ratings
    query = (
        select(r)
        .where(r.c.game == game)
        .order_by(
            case((r.c.games < ratings.PROVISIONAL_GAMES, 1), else_=0),  # established first
            r.c.mu.desc(),
            r.c.player,
        )
        .limit(limit)
        .offset(offset)
    )
    rows = list(conn.execute(query))
    shown = _shown(conn, [row.player for row in rows])
    return [
        {"rank": offset + i + 1, **_entry(shown[row.player], row)} for i, row in enumerate(rows)
    ]


def player_key(conn: Connection, name: str) -> str | None:
    """The player a page name stands for (None: nobody)."""
    folded = " ".join(name.split())
    if names.name_key(folded).endswith(" bot"):
        player = ratings.bot_player(folded[:-4].strip().lower())
        r = schema.ratings
        known = conn.execute(select(r.c.player).where(r.c.player == player)).first()
        return player if known else None
    found = user_by_name(conn, folded)
    return None if found is None else ratings.person(found[0].id)


def _place(row: TableRow, seat: int) -> float | None:
    if not row.results:
        return None
    results = Results(
        tuple(row.results["winners"]),
        tuple(row.results["scores"]),
        tuple(tuple(group) for group in row.results["ranking"]),
    )
    return results.rank_of(seat)


def _game_line(row: TableRow, seat: int, change: Any) -> dict[str, Any]:
    return {
        "table": row.id,
        "game": row.game,
        "title": GAMES[row.game].title,
        "status": row.status,
        "at": row.finished_at or row.started_at or row.created_at,
        "seat": seat,
        "names": [row.seats[s].name if s in row.seats else None for s in range(row.players)],
        "place": change.place if change is not None else _place(row, seat),
        "rating": None
        if change is None
        else {
            "before": ratings.shown(change.mu_before),
            "after": ratings.shown(change.mu_after),
        },
        "replay": f"/r/{row.id}" if row.status in OVER else None,
    }


def player_page(conn: Connection, player: str) -> dict[str, Any]:
    r, c, t, s = schema.ratings, schema.rating_changes, schema.tables, schema.seats
    shown = _shown(conn, [player])[player]
    games = []
    for rating in conn.execute(select(r).where(r.c.player == player).order_by(r.c.game)):
        if rating.game not in GAMES:
            continue
        recent = select(c).where(c.c.player == player, c.c.game == rating.game)
        history = list(conn.execute(recent.order_by(c.c.at.desc()).limit(HISTORY)))[::-1]
        games.append(
            {
                "game": rating.game,
                "title": GAMES[rating.game].title,
                **_entry(shown, rating),
                "history": [
                    {
                        "at": h.at,
                        "rating": ratings.shown(h.mu_after),
                        "table": h.table_id,
                    }
                    for h in history
                ],
            }
        )
    if player.startswith("u:"):
        when = func.coalesce(t.c.finished_at, t.c.started_at, t.c.created_at)
        mine = select(s.c.table_id).where(s.c.user_id == int(player[2:]))
        query = select(t).where(t.c.id.in_(mine)).order_by(when.desc()).limit(RECENT)
    else:
        rated = select(c.c.table_id).where(c.c.player == player)
        query = select(t).where(t.c.id.in_(rated)).order_by(t.c.finished_at.desc()).limit(RECENT)
    rows = [row for row in storage.rows_with_seats(conn, query) if row.game in GAMES]
    changes = {
        ch.table_id: ch
        for ch in conn.execute(
            select(c).where(c.c.player == player, c.c.table_id.in_([row.id for row in rows]))
        )
    }
    lines = []
    for row in rows:
        seat = next((n for n, info in sorted(row.seats.items()) if _plays(info, player)), None)
        if seat is not None:
            lines.append(_game_line(row, seat, changes.get(row.id)))
    kind = "bot" if shown.bot else "person"
    return {"name": shown.name, "kind": kind, "ratings": games, "games": lines}


def _plays(info: storage.SeatRow, player: str) -> bool:
    if player.startswith("u:"):
        return info.user_id == int(player[2:])
    return info.kind == "bot" and info.token_hash is None and info.bot == player[2:]


def games_of(conn: Connection, user_id: int, limit: int) -> list[tuple[TableRow, int]]:
    """A person's tables, open and running ones first, then the newest."""
    t, s = schema.tables, schema.seats
    mine = select(s.c.table_id).where(s.c.user_id == user_id)
    running = case((t.c.status.in_(["open", "playing"]), 0), else_=1)
    when = func.coalesce(t.c.finished_at, t.c.started_at, t.c.created_at)
    query = select(t).where(t.c.id.in_(mine)).order_by(running, when.desc()).limit(limit)
    out = []
    for row in storage.rows_with_seats(conn, query):
        seat = next((n for n, info in row.seats.items() if info.user_id == user_id), None)
        if seat is not None and row.game in GAMES:
            out.append((row, seat))
    return out


def router(accounts: Accounts, limits: AddressLimits) -> APIRouter:
    api = APIRouter(tags=["history"])

    @api.get("/api/leaderboard/{game}")
    async def game_leaderboard(
        game: str,
        request: Request,
        limit: int = Query(50, ge=1, le=MAX_PAGE),
        offset: int = Query(0, ge=0, le=MAX_OFFSET),
    ) -> dict[str, Any]:
        """A game's rated players (people and bot levels, `kind`), best rating first."""
        limits.hit("lobby", client_address(request))
        if game not in GAMES:
            raise ClientError("no_game", f"there is no game {game[:40]!r}")
        job = partial(leaderboard, game=game, limit=limit, offset=offset)
        return {"game": game, "title": GAMES[game].title, "players": await accounts.db.run(job)}

    @api.get("/api/players/{name}")
    async def player(name: str, request: Request) -> dict[str, Any]:
        """A player's ratings per game (with the last changes, for a chart) and recent
        games; `Hard bot` and the like are bot levels."""
        limits.hit("lobby", client_address(request))
        found = await accounts.db.run(partial(player_key, name=name[: names.MAX_NAME * 4]))
        if found is None:
            raise ClientError("no_player", "there is no such player")
        return await accounts.db.run(partial(player_page, player=found))

    @api.get("/api/tables/{table_id}/ratings", tags=["table"])
    async def table_ratings(table_id: str, request: Request) -> dict[str, Any]:
        """How a finished rated game moved each rated seat's rating: `before`, `after` (the
        shown scale) and `provisional`; `rated` false and no seats for any other table."""
        limits.hit("lobby", client_address(request))
        table = await accounts.room().get(table_id)
        row = table.row
        if not row.rated or row.status not in OVER:
            return {"rated": False, "seats": []}
        changes = await accounts.db.run(partial(ratings.changes_of, table_id=row.id))
        seats = []
        for seat, info in sorted(row.seats.items()):
            player = ratings.player_of(info)
            change = changes.get(player) if player is not None else None
            if change is not None:
                seats.append({"seat": seat, "name": info.name, **change})
        return {"rated": True, "seats": seats}

    @api.get("/api/account/games", tags=["account"])
    async def my_games(request: Request) -> dict[str, Any]:
        """The signed-in person's games: open and running ones first, then the newest."""
        signed = await accounts.require(request, write=False)
        limits.hit("lobby", client_address(request))
        rows = await accounts.db.run(partial(games_of, user_id=signed.user.id, limit=MY_GAMES))
        room = accounts.room()
        out = []
        for row, seat in rows:
            table = room.tables.get(row.id)
            summary = table.summary() if table is not None else summarize(row)
            out.append({"table": summary, "seat": seat})
        return {"games": out}

    return api
