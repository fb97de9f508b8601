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

A rating is shown as OpenSkill's *ordinal*, ``mu - 3 sigma``: 0 for a newcomer, rising
as the player wins and as the model grows sure of them.
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


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


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
    """A rated game's changes by player: place, rating before and after."""
    c = schema.rating_changes
    return {
        row.player: {
            "place": row.place,
            "before": ordinal(row.mu_before, row.sigma_before),
            "after": ordinal(row.mu_after, row.sigma_after),
        }
        for row in conn.execute(select(c).where(c.c.table_id == table_id))
    }
