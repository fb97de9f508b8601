"""Ratings of rated games: OpenSkill's Plackett-Luce model, one rating per game and player.

A *player* is an account (``u:<user id>``) or a bot level (``b:<spec>``, shown as
"Hard bot"), so a level gets a number people can compare with their own.  When a
rated game ends, every seat takes part with its place from the game's results:

- a person who left the game (their seat ``forfeit``) finishes last, behind
  everyone who did not leave (ties among the leavers), whatever the bot that took
  the seat did and even if they came back; that bot is not rated; so does one who
  declined a rematch (or did not answer) and took the seat from its bot after the
  start (else they could let a strong bot play and come in only when it does well);
- a game abandoned by all its people has no results: the seats nobody left share
  first place;
- a guest's seat is not rated (rated tables seat accounts only), nor a rematch's seat
  its person (or bot account) declined or did not answer: the bot playing it is not
  them (else asking for rematches of an absent player would farm their losses).

Each seat is one team of the model; a player holding several seats (two "hard" bots)
gets the mean of its seats' new ratings.  The update runs inside the job that stores
the finish, so a game is rated exactly once, together with its last action.

The stored model is OpenSkill's; people see it on a scale they know from lichess and Board
Game Arena (:func:`shown`): ``1500 + 48 (mu - 25)``, so a newcomer is 1500 and one
OpenSkill *beta* of skill (25/6, a 76% chance to beat an equal-sigma player head to head)
is 200 points, as 200 Elo points are.  The first :data:`PROVISIONAL_GAMES` rated games of
a game are *provisional* (pages mark the rating "?"), as lichess marks a rating it is not
sure of yet.  Leaderboards list established ratings first, provisional ones after.
OpenSkill's *ordinal*, ``mu - 3 sigma`` (0 for a newcomer), stays in the API for those who
want the conservative figure.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import fmean
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, select

from tripletopper.engine import Results
from tripletopper.server import schema
from tripletopper.server.storage import SeatRow

MODEL = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, tau 25/300."""


@dataclass(frozen=True)
class Place:
    """One seat of a rated game: who is rated for it and where they finished."""

    seat: int
    player: str
    place: float


def person(user_id: int) -> str:
    return f"u:{user_id}"


def bot_player(spec: str) -> str:
    return f"b:{spec}"


def bot_label(spec: str) -> str:
    """How a bot level is shown on leaderboards ("Hard bot")."""
    return f"{spec.capitalize()} bot"


SHOWN_START = 1500
"""The rating a newcomer is shown."""
SHOWN_PER_MU = 48
"""Shown points per point of OpenSkill's mu: 200 per beta (25/6), as 200 Elo points."""
PROVISIONAL_GAMES = 10
"""A rating is provisional (shown with "?") until this many rated games of the game."""


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


def shown(mu: float) -> int:
    """The rating people see: 1500 for a newcomer (mu 25), 200 points per beta."""
    return round(SHOWN_START + SHOWN_PER_MU * (mu - MODEL.mu))


def provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def places(seats: dict[int, SeatRow], players: int, results: Results | None) -> list[Place]:
    """Who is rated for each seat of a finished (or abandoned) rated game, and their place."""
    out = []
    for seat in range(players):
        info = seats.get(seat)
        if info is None:
            continue
        if info.user_id is not None and info.kind != "human" and not info.forfeit:
            continue  # a rematch's seat its person declined or left unanswered: not theirs
        if info.user_id is not None:
            player = person(info.user_id)
            stayed = info.kind == "human" and not info.forfeit
        elif info.kind == "bot" and info.token_hash is None and info.bot:
            player, stayed = bot_player(info.bot), True
        else:  # a guest, or the bot playing for a guest who left
            continue
        if not stayed:
            place = float(players + 1)  # behind everyone who stayed
        elif results is None:
            place = 1.0
        else:
            place = results.rank_of(seat)
        out.append(Place(seat, player, place))
    return out


def rate_game(conn: Connection, table_id: str, game: str, seated: list[Place], at: float) -> None:
    """Update the ratings of a rated game's players and store each one's change (a job).

    Fewer than two different players: nothing to learn, nothing stored."""
    players = list(dict.fromkeys(p.player for p in seated))
    if len(players) < 2:
        return
    r = schema.ratings
    query = select(r).where(r.c.game == game, r.c.player.in_(players))
    stored = {row.player: row for row in conn.execute(query)}
    before = {
        p: (stored[p].mu, stored[p].sigma) if p in stored else (MODEL.mu, MODEL.sigma)
        for p in players
    }
    teams = [[MODEL.rating(*before[one.player])] for one in seated]
    rated = MODEL.rate(teams, ranks=[one.place for one in seated])
    new: dict[str, list[tuple[float, float]]] = {}
    for one, (rating,) in zip(seated, rated, strict=True):
        new.setdefault(one.player, []).append((rating.mu, rating.sigma))
    for player in players:
        mu = fmean(m for m, _ in new[player])
        sigma = fmean(s for _, s in new[player])
        place = min(one.place for one in seated if one.player == player)
        old = stored.get(player)
        if old is not None:
            where = (r.c.game == game) & (r.c.player == player)
            values = {"mu": mu, "sigma": sigma, "games": old.games + 1, "updated_at": at}
            conn.execute(r.update().where(where).values(**values))
        else:
            conn.execute(
                r.insert().values(
                    game=game, player=player, mu=mu, sigma=sigma, games=1, updated_at=at
                )
            )
        conn.execute(
            schema.rating_changes.insert().values(
                table_id=table_id,
                player=player,
                game=game,
                place=place,
                mu_before=before[player][0],
                sigma_before=before[player][1],
                mu_after=mu,
                sigma_after=sigma,
                at=at,
            )
        )


def changes_of(conn: Connection, table_id: str) -> dict[str, dict[str, Any]]:
    """A rated game's changes by player: place, the shown rating before and after, and
    whether the rating is still provisional (by the player's rated games of it now)."""
    c, r = schema.rating_changes, schema.ratings
    rows = list(conn.execute(select(c).where(c.c.table_id == table_id)))
    players = [row.player for row in rows]
    games = {
        (row.game, row.player): row.games
        for row in conn.execute(select(r).where(r.c.player.in_(players)))
    }
    return {
        row.player: {
            "place": row.place,
            "before": shown(row.mu_before),
            "after": shown(row.mu_after),
            "provisional": provisional(games.get((row.game, row.player), 0)),
        }
        for row in rows
    }


def player_of(info: SeatRow) -> str | None:
    """Who a seat's ratings belong to: its account, or a built-in bot level (None: a
    guest, or a guest's seat a bot plays)."""
    if info.user_id is not None:
        return person(info.user_id)
    if info.kind == "bot" and info.token_hash is None and info.bot:
        return bot_player(info.bot)
    return None
