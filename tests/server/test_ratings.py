"""Rated games: OpenSkill Plackett-Luce per game, checked against OpenSkill's own results and
hand-computed numbers; forfeits for leaving; guests kept out of rated tables; a whole rated
game through real websockets; leaving and coming back cannot improve a result."""

from __future__ import annotations

import asyncio
import math
import random
import time
import warnings

import httpx
import pytest
from openskill.models import PlackettLuce
from sqlalchemy import select

from tests.server.helpers import live_server, play_randomly
from tripletopper.engine import Results
from tripletopper.server import ratings, schema, storage
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.client import TableClient
from tripletopper.server.ratings import Place
from tripletopper.server.storage import Database, SeatRow, TableRow, sqlite_url
from tripletopper.server.tables import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PASSWORD = "correct horse"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request, tmp_path):
    url = (
        sqlite_url(tmp_path)
        if request.param == "sqlite"
        else request.getfixturevalue("postgres_url")
    )
    database = Database(url)
    database.migrate()
    yield database
    database.stop()


def add_table(db: Database, table_id: str) -> None:
    row = TableRow(
        id=table_id,
        game="thirty-one",
        players=3,
        options={},
        seed=1,
        status="finished",
        created_at=1.0,
    )
    db.run_now(lambda conn: storage.insert_table(conn, row))


def rate(db: Database, table_id: str, seated: list[Place]) -> None:
    add_table(db, table_id)
    db.run_now(lambda conn: ratings.rate_game(conn, table_id, "thirty-one", seated, 5.0))


def stored(db: Database) -> dict[str, tuple[float, float, int]]:
    r = schema.ratings
    rows = db.run_now(lambda conn: list(conn.execute(select(r))))
    return {row.player: (row.mu, row.sigma, row.games) for row in rows}


def test_two_newcomers_match_openskill_and_the_hand_computed_update(db):
    rate(db, "t1", [Place(0, "u:1", 1.0), Place(1, "b:hard", 2.0)])
    got = stored(db)
    model = PlackettLuce()
    (win,), (lose,) = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    # By hand (Weng and Lin's Plackett-Luce): sigma^2 grows by tau^2 first, beta = 25/6,
    # c^2 = sum of (sigma^2 + beta^2); the winner's chance is 1/2, so mu moves by
    # (sigma^2 / c) * (1 - 1/2), up for the winner and down for the loser.
    var = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * (var + (25 / 6) ** 2))
    assert got["u:1"][0] == pytest.approx(25 + var / c / 2) == pytest.approx(27.6354, abs=1e-4)
    assert got["b:hard"][0] == pytest.approx(25 - var / c / 2)
    assert got["u:1"][:2] == pytest.approx((win.mu, win.sigma), abs=1e-12)
    assert got["b:hard"][:2] == pytest.approx((lose.mu, lose.sigma), abs=1e-12)
    assert got["u:1"][2] == got["b:hard"][2] == 1
    changes = db.run_now(lambda conn: ratings.changes_of(conn, "t1"))
    assert changes["u:1"] == {
        "place": 1.0,
        "before": 1500,
        "after": ratings.shown(win.mu),
        "provisional": True,
    }
    assert changes["u:1"]["after"] == round(1500 + 48 * (win.mu - 25)) == 1626


def test_ties_and_earlier_ratings_match_openskill(db):
    rate(db, "t1", [Place(0, "u:1", 1.0), Place(1, "u:2", 1.0), Place(2, "b:easy", 3.0)])
    model = PlackettLuce()
    tie = model.rate([[model.rating()] for _ in range(3)], ranks=[1, 1, 3])
    got = stored(db)
    assert got["u:1"][:2] == pytest.approx((tie[0][0].mu, tie[0][0].sigma), abs=1e-12)
    assert got["u:1"][:2] == got["u:2"][:2]  # a shared place, the same update
    # The second game starts from the first's ratings; u:1 finishes last this time.
    rate(db, "t2", [Place(0, "u:1", 3.0), Place(1, "b:easy", 1.0), Place(2, "u:3", 2.0)])
    u1, easy = tie[0][0], tie[2][0]
    again = model.rate(
        [[model.rating(u1.mu, u1.sigma)], [model.rating(easy.mu, easy.sigma)], [model.rating()]],
        ranks=[3, 1, 2],
    )
    got = stored(db)
    assert got["u:1"] == pytest.approx((again[0][0].mu, again[0][0].sigma, 2), abs=1e-12)
    assert got["b:easy"] == pytest.approx((again[1][0].mu, again[1][0].sigma, 2), abs=1e-12)
    assert got["u:3"] == pytest.approx((again[2][0].mu, again[2][0].sigma, 1), abs=1e-12)


def test_a_level_holding_two_seats_gets_the_mean_and_one_player_learns_nothing(db):
    rate(db, "t1", [Place(0, "u:1", 2.0), Place(1, "b:hard", 1.0), Place(2, "b:hard", 3.0)])
    model = PlackettLuce()
    new = model.rate([[model.rating()] for _ in range(3)], ranks=[2, 1, 3])
    got = stored(db)
    assert got["b:hard"][0] == pytest.approx((new[1][0].mu + new[2][0].mu) / 2, abs=1e-12)
    assert got["b:hard"][2] == 1
    changes = db.run_now(lambda conn: ratings.changes_of(conn, "t1"))
    assert changes["b:hard"]["place"] == 1.0  # its best seat
    rate(db, "t2", [Place(0, "b:hard", 1.0), Place(1, "b:hard", 2.0)])
    assert stored(db)["b:hard"][2] == 1  # only itself: nothing learned, nothing stored
    assert db.run_now(lambda conn: ratings.changes_of(conn, "t2")) == {}


def test_places_put_people_who_left_last_and_rate_no_guest_and_no_stand_in_bot():
    seats = {
        0: SeatRow(0, "Ann", "human", None, "h0", user_id=1),
        1: SeatRow(1, "Bob (bot)", "bot", "medium", "h1", user_id=2, forfeit=True),
        2: SeatRow(2, "Cat", "human", None, "h2", user_id=3, forfeit=True),  # came back
        3: SeatRow(3, "Hard bot", "bot", "hard"),
        4: SeatRow(4, "Gus", "human", None, "h4"),  # a guest
        5: SeatRow(5, "Dan (bot)", "bot", "medium", "h5"),  # a guest who left
    }
    results = Results.by_score([1, 9, 8, 5, 7, 6])  # Bob's bot and Cat did best...
    got = ratings.places(seats, 6, results)
    assert got == [  # ...but they left: both last, behind everyone who stayed
        Place(0, "u:1", 6.0),
        Place(1, "u:2", 7.0),
        Place(2, "u:3", 7.0),
        Place(3, "b:hard", 5.0),
    ]
    abandoned = ratings.places(seats, 6, None)
    assert [p.place for p in abandoned] == [1.0, 7.0, 7.0, 1.0]


def test_a_rematch_seat_declined_or_unanswered_is_not_rated():
    seats = {
        0: SeatRow(0, "Ann", "human", None, "h0", user_id=1),
        1: SeatRow(1, "Bob (bot)", "bot", "medium", "h1", user_id=2),  # declined: no forfeit
        2: SeatRow(2, "Robo (bot)", "bot", "medium", "h2", user_id=3, bot_account=True),
        3: SeatRow(3, "Easy bot", "bot", "easy"),
    }
    got = ratings.places(seats, 4, Results.by_score([1, 9, 8, 5]))
    assert got == [Place(0, "u:1", 4.0), Place(3, "b:easy", 3.0)]


# --- through the room -------------------------------------------------------------------------


def account(http: httpx.Client, name: str) -> dict[str, str]:
    """Register ``name`` on this client (its cookie jar signs it in); the CSRF header."""
    r = http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def changes(data_dir: str, table_id: str) -> dict[str, dict]:
    db = Database(sqlite_url(data_dir))
    out = db.run_now(lambda conn: ratings.changes_of(conn, table_id))
    db.engine.dispose()
    return out


def test_guests_are_kept_out_of_rated_tables_and_the_default_follows_the_people(tmp_path):
    with live_server(str(tmp_path)) as base, httpx.Client(base_url=base, timeout=30) as http:
        r = http.post("/api/tables", json={"game": "thirty-one", "name": "Gus", "rated": True})
        assert r.status_code == 403 and r.json()["code"] == "rated"
        r = http.post("/api/tables", json={"game": "thirty-one", "rated": "maybe"})
        assert r.status_code == 422
        ann = account(http, "Ann")
        r = http.post(
            "/api/tables", json={"game": "thirty-one", "name": "x", "rated": True}, headers=ann
        )
        rated_id = r.json()["table"]["id"]
        assert r.json()["table"]["rated"] is True
        r = http.post(
            "/api/tables", json={"game": "thirty-one", "players": 2, "name": "x"}, headers=ann
        )
        auto_id, auto_token = r.json()["table"]["id"], r.json()["token"]
        assert r.json()["table"]["rated"] is None
        with httpx.Client(base_url=base, timeout=30) as guest:
            r = guest.post(f"/api/tables/{rated_id}/seats/1", json={"name": "Gus"})
            assert r.status_code == 403 and "sign in" in r.json()["message"]
            r = guest.post(f"/api/tables/{auto_id}/seats/1", json={"name": "Gus"})
            assert r.status_code == 200
        r = http.post(f"/api/tables/{auto_id}/start", headers={"X-Seat-Token": auto_token})
        assert r.json()["table"]["rated"] is False  # a guest sat down: not rated
        r = http.get(f"/api/tables/{rated_id}")
        assert [s["name"] for s in r.json()["table"]["seats"]] == ["Ann", None]


def play_rated_game(base: str, data_dir: str, *, leave_and_return: bool) -> dict:
    """Ann and Bob (accounts) and an easy bot play a rated Thirty-One by random moves; with
    ``leave_and_return``, Bob leaves after a few moves and takes his seat back."""
    with (
        httpx.Client(base_url=base, timeout=30) as ann,
        httpx.Client(base_url=base, timeout=30) as bob,
    ):
        ann_csrf, bob_csrf = account(ann, "Ann"), account(bob, "Bob")
        r = ann.post(
            "/api/tables", json={"game": "thirty-one", "players": 3, "name": "x"}, headers=ann_csrf
        )
        table_id, ann_token = r.json()["table"]["id"], r.json()["token"]
        r = bob.post(f"/api/tables/{table_id}/seats/1", json={}, headers=bob_csrf)
        bob_token = r.json()["token"]
        ann.post(
            f"/api/tables/{table_id}/seats/2/bot",
            json={"bot": "easy"},
            headers={**ann_csrf, "X-Seat-Token": ann_token},
        ).raise_for_status()
        r = ann.post(
            f"/api/tables/{table_id}/start", headers={**ann_csrf, "X-Seat-Token": ann_token}
        )
        assert r.json()["table"]["rated"] is True

        async def game() -> None:
            rng = random.Random(3)
            clients = [TableClient(base, table_id, t) for t in (ann_token, bob_token)]
            for c in clients:
                await c.start()
            if leave_and_return:
                await play_randomly(clients, rng, until_version=4)
                bob.delete(
                    f"/api/tables/{table_id}/seats/1",
                    headers={**bob_csrf, "X-Seat-Token": bob_token},
                ).raise_for_status()
                await asyncio.sleep(0.3)  # the bot plays a move or two for him
                bob.post(
                    f"/api/tables/{table_id}/seats/1/return",
                    headers={**bob_csrf, "X-Seat-Token": bob_token},
                ).raise_for_status()
                await clients[1].close()  # back as the seat's player, as the page does
                clients[1] = TableClient(base, table_id, bob_token)
                await clients[1].start()
                await clients[1].wait(lambda c: c.seat == 1, timeout=30)
            await play_randomly(clients, rng)
            for c in clients:
                await c.close()

        asyncio.run(game())
        summary = ann.get(f"/api/tables/{table_id}").json()["table"]
        shown = ann.get(f"/api/tables/{table_id}/ratings").json()
    return {"table": summary, "changes": changes(data_dir, table_id), "shown": shown}


def test_a_rated_game_is_rated_once_when_it_ends_by_its_results(tmp_path):
    with live_server(str(tmp_path)) as base:
        out = play_rated_game(base, str(tmp_path), leave_and_return=False)
    results = out["table"]["results"]
    ranking = Results(
        tuple(results["winners"]),
        tuple(results["scores"]),
        tuple(tuple(g) for g in results["ranking"]),
    )
    got = out["changes"]
    assert set(got) == {"u:1", "u:2", "b:easy"}
    assert [got[p]["place"] for p in ("u:1", "u:2", "b:easy")] == [
        ranking.rank_of(seat) for seat in range(3)
    ]
    model = PlackettLuce()
    new = model.rate(
        [[model.rating()] for _ in range(3)], ranks=[ranking.rank_of(s) for s in range(3)]
    )
    assert got["u:1"]["after"] == ratings.shown(new[0][0].mu)
    assert all(change["before"] == 1500 for change in got.values())
    # the table's own answer, as its page shows it at the end: one line per rated seat
    shown = out["shown"]
    assert shown["rated"] is True
    assert [(s["seat"], s["name"]) for s in shown["seats"]] == [
        (0, "Ann"),
        (1, "Bob"),
        (2, "Easy bot"),
    ]
    by_player = dict(zip(("u:1", "u:2", "b:easy"), shown["seats"], strict=True))
    for player, seat in by_player.items():
        assert {k: seat[k] for k in ("before", "after", "place")} == {
            k: got[player][k] for k in ("before", "after", "place")
        }
        assert seat["provisional"] is True


def test_leaving_and_coming_back_still_finishes_last(tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        out = play_rated_game(base, str(tmp_path), leave_and_return=True)
    got = out["changes"]
    assert got["u:2"]["place"] == 4.0  # behind all three seats' results
    assert got["u:2"]["after"] < got["u:2"]["before"]
    assert got["u:1"]["place"] < 4.0 and got["b:easy"]["place"] < 4.0
    db = Database(sqlite_url(str(tmp_path)))
    s = schema.seats
    seat = db.run_now(lambda conn: conn.execute(select(s).where(s.c.seat == 1)).one())
    db.engine.dispose()
    assert seat.kind == "human" and seat.forfeit  # back in the seat, the forfeit stands


def test_a_rated_game_everyone_left_is_rated_when_it_is_abandoned(tmp_path):
    settings = Settings(bot_delay=5.0, abandon_grace=0.05)
    app = create_app(ServerConfig(data_dir=str(tmp_path), settings=settings))
    with TestClient(app) as http:
        ann = account(http, "Ann")
        r = http.post(
            "/api/tables", json={"game": "thirty-one", "name": "x", "rated": True}, headers=ann
        )
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        seat = {**ann, "X-Seat-Token": token}
        http.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"}, headers=seat)
        http.post(f"/api/tables/{table_id}/start", headers=seat).raise_for_status()
        http.delete(f"/api/tables/{table_id}/seats/0", headers=seat).raise_for_status()
        ends = time.monotonic() + 10
        while http.get(f"/api/tables/{table_id}").json()["table"]["status"] == "playing":
            assert time.monotonic() < ends
            time.sleep(0.05)
        assert http.get(f"/api/tables/{table_id}").json()["table"]["status"] == "abandoned"
    got = changes(str(tmp_path), table_id)
    assert got["u:1"]["place"] == 3.0 and got["b:random"]["place"] == 1.0
    assert got["u:1"]["after"] < 1500 < got["b:random"]["after"]


@pytest.mark.parametrize("comes_back", ["accepts", "takes_back"])
def test_declining_a_rated_rematch_and_coming_after_its_start_finishes_last(tmp_path, comes_back):
    """Bob declines a rated rematch: it starts with a bot in his seat.  Coming after the
    start (accepting after all, or taking the seat back with its link) is leaving: last."""
    from tests.server.test_hostile import hello, until

    app = create_app(
        ServerConfig(data_dir=str(tmp_path), settings=Settings(bot_delay=30, rematch_wait=3600))
    )
    with TestClient(app) as http:
        ann = account(http, "Ann")
        r = http.post(
            "/api/tables",
            json={"game": "thirty-two", "players": 3, "name": "x", "options": {"end": "open"}},
            headers=ann,
        )
        first, tokens = r.json()["table"]["id"], [r.json()["token"]]
        cookies = [http.cookies["tt_session"]]
        http.cookies.clear()
        bob = account(http, "Bob")
        tokens.append(
            http.post(f"/api/tables/{first}/seats/1", json={}, headers=bob).json()["token"]
        )
        cookies.append(http.cookies["tt_session"])

        def as_(who: int) -> dict[str, str]:
            """Requests as Ann (0) or Bob (1) from here: their cookie, CSRF and seat token."""
            http.cookies.clear()
            http.cookies.set("tt_session", cookies[who])
            return {**(ann, bob)[who], "X-Seat-Token": tokens[who]}

        mine = as_(0)
        http.post(f"/api/tables/{first}/seats/2/bot", json={"bot": "medium"}, headers=mine)
        assert http.post(f"/api/tables/{first}/start", headers=mine).json()["table"]["rated"]

        def close(table_id: str) -> None:
            table = http.app.state.room.tables[table_id]
            with http.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws, tokens[0])
                ws.send_json(
                    {
                        "type": "action",
                        "action": {"type": "close"},
                        "table": True,
                        "version": table.version,
                    }
                )
                while until(ws, "table")["table"]["status"] != "finished":
                    pass

        close(first)
        r = http.post(f"/api/tables/{first}/rematch", headers=mine)
        assert r.status_code == 200, r.text
        new = r.json()["table"]["id"]
        bobs = as_(1)
        r = http.delete(f"/api/tables/{first}/rematch", headers=bobs)
        assert r.json()["table"]["status"] == "playing" and r.json()["table"]["rated"] is True
        if comes_back == "accepts":
            r = http.post(f"/api/tables/{first}/rematch", headers=bobs)
        else:
            r = http.post(f"/api/tables/{new}/seats/1/return", headers=bobs)
        assert r.status_code == 200 and r.json()["table"]["seats"][1]["kind"] == "human"
        assert http.app.state.room.tables[new].row.seats[1].forfeit
        as_(0)
        close(new)
    got = changes(str(tmp_path), new)
    assert got["u:2"]["place"] == 4.0  # behind every seat's result, whatever they were
    assert got["u:1"]["place"] < 4.0 and got["b:medium"]["place"] < 4.0


def test_the_shown_scale_starts_at_1500_and_is_provisional_for_ten_games():
    assert ratings.shown(25.0) == 1500
    assert ratings.shown(25 + 25 / 6) == 1700  # one beta: 200 points, as in Elo
    assert ratings.shown(20.0) == 1260
    assert [ratings.provisional(n) for n in (0, 1, 9, 10, 50)] == [True] * 3 + [False] * 2


def test_an_unrated_or_unfinished_table_has_no_rating_changes(tmp_path):
    app = create_app(ServerConfig(data_dir=str(tmp_path), settings=Settings(bot_delay=30)))
    with TestClient(app) as http:
        r = http.post("/api/tables", json={"game": "thirty-one", "name": "Gus"})
        table_id = r.json()["table"]["id"]
        assert http.get(f"/api/tables/{table_id}/ratings").json() == {"rated": False, "seats": []}
        r = http.get("/api/tables/nope/ratings")
        assert r.status_code == 404 and r.json()["code"] == "no_table"
