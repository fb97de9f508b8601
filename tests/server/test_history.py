"""Leaderboards, player pages and "my games": ordered, bounded, public data only."""

from __future__ import annotations

import json

import pytest

from tests.server.test_accounts import PASSWORD, csrf, make_client, register
from tripletopper.engine import Results
from tripletopper.server import ratings, schema, storage
from tripletopper.server.ratings import Place
from tripletopper.server.storage import SeatRow, TableRow


def put_table(
    client,
    table_id: str,
    status: str,
    at: float,
    seats: dict[int, SeatRow],
    results: Results | None = None,
) -> TableRow:
    row = TableRow(
        id=table_id,
        game="thirty-one",
        players=len(seats),
        options={},
        seed=1,
        status=status,
        created_at=at,
        started_at=at if status != "open" else None,
        finished_at=at + 1 if status == "finished" else None,
        results=results.to_json() if results else None,
        rated=status == "finished",
        seats=seats,
    )

    def job(conn) -> None:
        storage.insert_table(conn, row)
        if results is not None:
            storage.update_table(conn, table_id, results=row.results, finished_at=at + 1)

    client.app.state.room.db.run_now(job)
    return row


@pytest.fixture
def room(tmp_path, db_url):
    """Ann (id 1) and Bob (id 2); two rated games of Thirty-One with an easy bot, one running
    and one open table of Ann's. Ann is signed in."""
    with make_client(tmp_path, db_url) as client:
        register(client, "Ann")
        client.cookies.clear()
        register(client, "Bob")
        client.cookies.clear()
        r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        token = r.json()["csrf"]
        ann = lambda s: SeatRow(s, "Ann", "human", None, f"a{s}", user_id=1)  # noqa: E731
        bob = lambda s: SeatRow(s, "Bob", "human", None, f"b{s}", user_id=2)  # noqa: E731
        easy = lambda s: SeatRow(s, "Easy bot", "bot", "easy")  # noqa: E731
        db = client.app.state.room.db
        for n, scores in enumerate(([9, 5, 1], [2, 8, 5])):  # Ann wins, then Bob does
            results = Results.by_score(scores)
            put_table(
                client,
                f"g{n}",
                "finished",
                100.0 + n * 10,
                {0: ann(0), 1: bob(1), 2: easy(2)},
                results,
            )
            seated = [
                Place(s, p, results.rank_of(s)) for s, p in enumerate(["u:1", "u:2", "b:easy"])
            ]
            db.run_now(
                lambda conn, n=n, seated=seated: ratings.rate_game(
                    conn, f"g{n}", "thirty-one", seated, 101.0 + n * 10
                )
            )
        put_table(client, "run", "playing", 50.0, {0: ann(0), 1: easy(1)})
        put_table(client, "wait", "open", 40.0, {0: ann(0)})
        put_table(client, "other", "playing", 200.0, {0: bob(0), 1: easy(1)})
        client.headers.update(csrf(token))
        yield client


def test_the_leaderboard_ranks_people_and_bots_by_rating(room):
    r = room.get("/api/leaderboard/thirty-one")
    assert r.status_code == 200
    board = r.json()["players"]
    assert [(p["rank"], p["games"]) for p in board] == [(1, 2), (2, 2), (3, 2)]
    shown = [p["rating"] for p in board]
    assert shown == sorted(shown, reverse=True) and len(set(shown)) == 3
    assert {p["name"]: p["kind"] for p in board} == {
        "Ann": "person",
        "Bob": "person",
        "Easy bot": "bot",
    }
    assert board[0]["page"] == f"/players/{board[0]['name']}"
    page = room.get("/api/leaderboard/thirty-one?limit=1&offset=1").json()["players"]
    assert [(p["rank"], p["name"]) for p in page] == [(2, board[1]["name"])]
    assert room.get("/api/leaderboard/toe").json()["players"] == []


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ("?limit=101", 422),
        ("?limit=0", 422),
        ("?offset=-1", 422),
        ("?offset=10001", 422),
        ("?limit=x", 422),
    ],
)
def test_leaderboard_pages_are_bounded(room, query, status):
    r = room.get(f"/api/leaderboard/thirty-one{query}")
    assert r.status_code == status and r.json()["code"] == "malformed"


def test_established_ratings_lead_the_leaderboard_then_provisional_ones(room):
    """Ann's two games make her provisional; ten rated games make Bob established: he
    comes first even with the lower rating."""
    db = room.app.state.room.db
    r = schema.ratings
    db.run_now(
        lambda conn: conn.execute(r.update().where(r.c.player == "u:2").values(games=10, mu=20.0))
    )
    board = room.get("/api/leaderboard/thirty-one").json()["players"]
    assert (board[0]["name"], board[0]["provisional"]) == ("Bob", False)
    assert board[0]["rating"] == 1260 and all(p["provisional"] for p in board[1:])
    rest = [p["rating"] for p in board[1:]]
    assert rest == sorted(rest, reverse=True)


def test_a_player_page_has_ratings_history_and_recent_games(room):
    r = room.get("/api/players/ann")  # any case: the name's key
    assert r.status_code == 200
    page = r.json()
    assert page["name"] == "Ann" and page["kind"] == "person"
    (rating,) = page["ratings"]
    assert rating["game"] == "thirty-one" and rating["games"] == 2
    assert [h["table"] for h in rating["history"]] == ["g0", "g1"]  # oldest first
    assert rating["history"][-1]["rating"] == rating["rating"]
    games = {g["table"]: g for g in page["games"]}
    assert list(games) == ["g1", "g0", "run", "wait"]  # newest first
    assert games["g0"]["place"] == 1.0 and games["g1"]["place"] == 3.0
    assert games["g0"]["replay"] == "/r/g0" and games["run"]["replay"] is None
    assert games["g0"]["rating"]["before"] == 1500  # a newcomer, on the shown scale
    assert rating["provisional"] is True and rating["rating"] == ratings.shown(rating["mu"])
    assert games["g1"]["rating"]["after"] == rating["rating"]
    assert games["g0"]["names"] == ["Ann", "Bob", "Easy bot"]
    assert games["run"]["rating"] is None


def test_a_bot_level_has_a_page_and_unknown_players_do_not(room):
    page = room.get("/api/players/Easy bot").json()
    assert page["kind"] == "bot" and page["ratings"][0]["games"] == 2
    assert [g["table"] for g in page["games"]] == ["g1", "g0"]
    assert page["games"][0]["seat"] == 2
    for name in ("Nobody", "Hard bot", "Deleted player", "x" * 500):
        r = room.get(f"/api/players/{name}")
        assert r.status_code == 404 and r.json()["code"] == "no_player"


def test_my_games_put_unfinished_ones_first_and_need_a_sign_in(room):
    r = room.get("/api/account/games")
    assert r.status_code == 200
    got = [(g["table"]["id"], g["seat"]) for g in r.json()["games"]]
    assert got == [("run", 0), ("wait", 0), ("g1", 0), ("g0", 0)]
    room.cookies.clear()
    r = room.get("/api/account/games")
    assert r.status_code == 401 and r.json()["code"] == "not_signed_in"


def test_no_account_data_in_public_answers(room):
    registered = str(int(room.get("/api/account").json()["account"]["created_at"]))
    texts = [
        room.get(path).text
        for path in (
            "/api/leaderboard/thirty-one",
            "/api/players/Ann",
            "/api/players/Bob",
            "/api/tables/g0",
            "/api/tables/other",
            "/api/lobby",
        )
    ]
    for text in texts:
        assert "user_id" not in text and '"u:' not in text and "password" not in text
        assert "token_hash" not in text and registered not in text
    assert json.loads(texts[1])["name"] == "Ann"


def test_a_deleted_account_leaves_the_leaderboard_and_its_games_stay(room):
    r = room.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert r.status_code == 200
    board = room.get("/api/leaderboard/thirty-one").json()["players"]
    assert [p["name"] for p in board if p["kind"] == "person"] == ["Bob"]
    bob = room.get("/api/players/Bob").json()
    g0 = next(g for g in bob["games"] if g["table"] == "g0")
    assert g0["names"] == ["Deleted player", "Bob", "Easy bot"]
