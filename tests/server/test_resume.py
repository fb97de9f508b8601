"""A signed-in person resumes their seat from another device ("My games"): that device gets
a seat token of its own and plays; every other asker is refused with a clear error and
nothing changes."""

from __future__ import annotations

import asyncio
import random
import time
import warnings

import httpx
from sqlalchemy import select, update

from tests.server.conftest import seat_header
from tests.server.helpers import live_server, play_randomly
from tests.server.test_accounts import PASSWORD, csrf, error, make_client, register, run
from tripletopper.server import schema
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.client import TableClient
from tripletopper.server.tables import Settings, hash_token

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def stored_keys(client, table_id: str) -> list[tuple]:
    """Each seat's stored tokens: (seat, kind, token hash, other devices' hashes, forfeit)."""
    s = schema.seats
    query = select(s.c.seat, s.c.kind, s.c.token_hash, s.c.device_keys, s.c.forfeit)
    query = query.where(s.c.table_id == table_id).order_by(s.c.seat)
    return [tuple(r) for r in run(client, lambda conn: conn.execute(query).all())]


def sign_in(client) -> tuple[str, str]:
    """A new sign-in of Ann (another device): its cookie and CSRF token."""
    client.cookies.clear()
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 200, r.text
    return client.cookies["tt_session"], r.json()["csrf"]


def as_device(client, cookie: str | None) -> None:
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set("tt_session", cookie)


def ann_at_a_table(
    client, *, game: str = "thirty-two", players: int = 3, start: bool = True
) -> tuple[str, str, str]:
    """Ann signs up, opens a table with bots in the other seats (started); the table id, her
    first device's seat token and its cookie."""
    token = register(client, "Ann")
    r = client.post(
        "/api/tables", json={"game": game, "players": players, "name": "x"}, headers=csrf(token)
    )
    table_id, seat_token = r.json()["table"]["id"], r.json()["token"]
    mine = {**csrf(token), **seat_header(seat_token)}
    for seat in range(1, players):
        r = client.post(
            f"/api/tables/{table_id}/seats/{seat}/bot", json={"bot": "random"}, headers=mine
        )
        assert r.status_code == 200, r.text
    if start:
        assert client.post(f"/api/tables/{table_id}/start", headers=mine).status_code == 200
    return table_id, seat_token, client.cookies["tt_session"]


def play_one_move(client, table_id: str, token: str) -> int:
    """Say hello with ``token``, play its seat's first legal action when its turn comes;
    the version after it."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": token})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
        while not (m := ws.receive_json()).get("legal"):
            assert m["type"] != "error", m
        ws.send_json({"type": "action", "action": m["legal"][0]["action"], "version": m["version"]})
        while (m := ws.receive_json())["type"] != "update" or m["actor"] != 0:
            assert m["type"] != "error", m
        return int(m["version"])


def test_another_device_resumes_the_seat_and_both_devices_hold_it(db_url, tmp_path):
    with make_client(tmp_path, db_url) as client:
        table_id, first, _ = ann_at_a_table(client)
        phone_cookie, phone = sign_in(client)
        r = client.post(f"/api/tables/{table_id}/resume", headers=csrf(phone))
        assert r.status_code == 200, r.text
        second = r.json()["token"]
        assert r.json()["seat"] == 0 and second != first
        assert r.json()["table"]["id"] == table_id and "token" not in str(r.json()["table"])
        ((_, kind, token_hash, keys, _), *_bots) = stored_keys(client, table_id)
        device = f"{hash_token(second)}:{hash_token(phone_cookie)}"  # and the session's
        assert (kind, token_hash, keys) == ("human", hash_token(first), device)
        as_device(client, None)  # a seat token needs no cookie
        for token in (first, second):
            standing = client.get(f"/api/tables/{table_id}", headers=seat_header(token)).json()
            assert (standing["seat"], standing["away"]) == (0, None)
        version = play_one_move(client, table_id, second)
        assert version >= 1
        assert client.app.state.room.tables[table_id].version >= version

    with make_client(tmp_path, db_url) as client:  # kept across a restart
        r = client.get(f"/api/tables/{table_id}", headers=seat_header(second))
        assert r.json()["seat"] == 0


def test_resuming_again_adds_a_device_and_drops_the_oldest_beyond_the_cap(client):
    from tripletopper.server.tables import MAX_DEVICE_KEYS

    table_id, first, _ = ann_at_a_table(client, start=False)
    phone_cookie, phone = sign_in(client)
    tokens = [
        client.post(f"/api/tables/{table_id}/resume", headers=csrf(phone)).json()["token"]
        for _ in range(MAX_DEVICE_KEYS + 1)
    ]
    keys = stored_keys(client, table_id)[0][3].split()
    assert keys == [f"{hash_token(t)}:{hash_token(phone_cookie)}" for t in tokens[1:]]
    as_device(client, None)
    seats = [
        client.get(f"/api/tables/{table_id}", headers=seat_header(t)).json()["seat"]
        for t in (first, tokens[0], tokens[-1])
    ]
    assert seats == [0, None, 0]  # the seat's own token is never dropped


def test_resuming_is_rate_limited_per_address_and_a_refused_one_adds_no_device(tmp_path):
    with make_client(tmp_path, rates={"seat": "2/minute"}) as client:
        table_id, _first, _ = ann_at_a_table(client, start=False)  # its bots took the 2
        before = stored_keys(client, table_id)
        _cookie, phone = sign_in(client)
        r = client.post(f"/api/tables/{table_id}/resume", headers=csrf(phone))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert "Retry-After" in r.headers
        assert stored_keys(client, table_id) == before


def refused(client, table_id: str, headers: dict[str, str], status: int, code: str) -> str:
    before = stored_keys(client, table_id)
    message = error(client.post(f"/api/tables/{table_id}/resume", headers=headers), status, code)
    assert stored_keys(client, table_id) == before
    return message


def test_another_account_is_refused(client):
    table_id, _, _ = ann_at_a_table(client)
    client.cookies.clear()
    lou = register(client, "Lou")
    assert "holds no seat" in refused(client, table_id, csrf(lou), 403, "not_seated")


def test_a_guest_is_refused_even_with_the_seat_token(client):
    table_id, first, _ = ann_at_a_table(client)
    as_device(client, None)
    message = refused(client, table_id, seat_header(first), 401, "not_signed_in")
    assert "sign in" in message


def test_a_signed_out_cookie_is_refused(client):
    table_id, _, _ = ann_at_a_table(client)
    cookie, phone = sign_in(client)
    assert client.request("DELETE", "/api/session", headers=csrf(phone)).status_code == 200
    as_device(client, cookie)
    assert "sign in again" in refused(client, table_id, csrf(phone), 401, "bad_session")


def test_a_forged_or_expired_cookie_is_refused(client):
    table_id, _, cookie = ann_at_a_table(client)
    as_device(client, "forged" + cookie[6:])
    refused(client, table_id, {}, 401, "bad_session")
    as_device(client, cookie)
    me = client.get("/api/account").json()["csrf"]
    run(client, lambda conn: conn.execute(update(schema.sessions).values(expires_at=time.time())))
    refused(client, table_id, csrf(me), 401, "bad_session")


def test_a_signed_in_resume_needs_the_csrf_token(client):
    table_id, _, _ = ann_at_a_table(client)
    sign_in(client)
    refused(client, table_id, {}, 403, "csrf")
    refused(client, table_id, {"X-CSRF-Token": "0" * 64}, 403, "csrf")


def test_a_deleted_account_is_refused_and_its_devices_keys_are_revoked(client):
    table_id, first, laptop = ann_at_a_table(client)
    laptop_csrf = client.get("/api/account").json()["csrf"]
    phone_cookie, phone = sign_in(client)
    second = client.post(f"/api/tables/{table_id}/resume", headers=csrf(phone)).json()["token"]
    as_device(client, laptop)
    r = client.request(
        "DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(laptop_csrf)
    )
    assert r.status_code == 200
    as_device(client, phone_cookie)
    refused(client, table_id, csrf(phone), 401, "bad_session")
    ((_, kind, token_hash, keys, _), *_bots) = stored_keys(client, table_id)
    assert (kind, token_hash, keys) == ("human", hash_token(first), None)
    as_device(client, None)
    seats = [
        client.get(f"/api/tables/{table_id}", headers=seat_header(t)).json()["seat"]
        for t in (first, second)
    ]
    assert seats == [0, None]


def test_a_seat_left_to_a_bot_in_a_rated_game_is_not_taken_back_and_stays_forfeit(tmp_path):
    settings = Settings(bot_delay=30.0, abandon_grace=60.0)  # the game goes on, slowly
    with TestClient(create_app(ServerConfig(data_dir=str(tmp_path), settings=settings))) as client:
        left_to_a_bot(client)


def left_to_a_bot(client) -> None:
    table_id, first, _ = ann_at_a_table(client, game="thirty-one", players=2)
    assert client.get(f"/api/tables/{table_id}").json()["table"]["rated"] is True
    me = client.get("/api/account").json()["csrf"]
    r = client.delete(f"/api/tables/{table_id}/seats/0", headers={**csrf(me), **seat_header(first)})
    assert r.status_code == 200
    assert stored_keys(client, table_id)[0][1::3] == ("bot", True)  # forfeit
    _, phone = sign_in(client)
    message = refused(client, table_id, csrf(phone), 403, "left")
    assert "you left seat 1: a bot plays it" in message
    info = client.app.state.room.tables[table_id].row.seats[0]
    assert (info.kind, info.forfeit, info.device_keys) == ("bot", True, ())


def test_a_bot_accounts_token_is_no_session(client):
    table_id, _, _ = ann_at_a_table(client)
    me = client.get("/api/account").json()["csrf"]
    r = client.post("/api/bots", json={"name": "Robo"}, headers=csrf(me))
    assert r.status_code == 201, r.text
    r = client.post("/api/bots/Robo/tokens", json={}, headers=csrf(me))
    assert r.status_code == 201, r.text
    as_device(client, r.json()["token"])
    refused(client, table_id, csrf(me), 401, "bad_session")


def test_an_unknown_table_is_refused(client):
    me = register(client, "Ann")
    error(client.post("/api/tables/nosuchtable/resume", headers=csrf(me)), 404, "no_table")


def test_a_finished_table_is_refused(tmp_path):
    with live_server(str(tmp_path), bot_delay=0.01) as base, httpx.Client(base_url=base) as http:
        r = http.post("/api/account", json={"name": "Ann", "password": PASSWORD})
        mine = {"X-CSRF-Token": r.json()["csrf"]}
        r = http.post(
            "/api/tables", json={"game": "thirty-one", "players": 2, "name": "x"}, headers=mine
        )
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        seat = {**mine, **seat_header(token)}
        http.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "easy"}, headers=seat)
        http.post(f"/api/tables/{table_id}/start", headers=seat).raise_for_status()

        async def play() -> None:
            async with TableClient(base, table_id, token) as ann:
                await play_randomly([ann], random.Random(1))

        asyncio.run(play())
        assert http.get(f"/api/tables/{table_id}").json()["table"]["status"] == "finished"
        http.cookies.clear()
        r = http.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        r = http.post(f"/api/tables/{table_id}/resume", headers={"X-CSRF-Token": r.json()["csrf"]})
        assert r.status_code == 400 and r.json()["code"] == "not_playing", r.text
        assert "over" in r.json()["message"]


def test_migration_0010_keeps_stored_seats_with_no_other_devices(db_url):
    from tripletopper.server import storage
    from tripletopper.server.storage import SeatRow

    engine = storage.make_engine(db_url)
    storage.migrate(engine, "0009")
    with engine.begin() as conn:
        conn.execute(
            schema.tables.insert().values(
                id="old",
                game="thirty-two",
                players=3,
                options="{}",
                seed=1,
                status="open",
                on_timeout="default",
                created_at=1.0,
            )
        )
        conn.exec_driver_sql(
            "INSERT INTO seats (table_id, seat, name, kind, token_hash) "
            "VALUES ('old', 0, 'Ann', 'human', 'h0')"
        )
    storage.migrate(engine)
    with engine.begin() as conn:
        row = storage.load_table(conn, "old")
        assert row is not None and row.seats[0] == SeatRow(0, "Ann", "human", None, "h0")
        assert row.seats[0].device_keys == ()
        storage.put_seat(
            conn, "old", SeatRow(0, "Ann", "human", None, "h0", device_keys=("k1", "k2"))
        )
        row = storage.load_table(conn, "old")
        assert row is not None and row.seats[0].device_keys == ("k1", "k2")
    engine.dispose()


def test_a_device_that_resumed_a_rematch_seat_joins_the_rematch(tmp_path):
    with (
        live_server(str(tmp_path), bot_delay=0.01, rematch_wait=600.0) as base,
        httpx.Client(base_url=base) as ann,
        httpx.Client(base_url=base) as bob,
    ):
        heads = []
        for http, name in ((ann, "Ann"), (bob, "Bob")):
            r = http.post("/api/account", json={"name": name, "password": PASSWORD})
            heads.append({"X-CSRF-Token": r.json()["csrf"]})
        r = ann.post(
            "/api/tables", json={"game": "thirty-one", "players": 2, "name": "x"}, headers=heads[0]
        )
        first, ann_token = r.json()["table"]["id"], r.json()["token"]
        r = bob.post(f"/api/tables/{first}/seats/1", json={}, headers=heads[1])
        bob_token = r.json()["token"]
        ann.post(f"/api/tables/{first}/start", headers=seat_header(ann_token)).raise_for_status()

        async def play() -> None:
            clients = [TableClient(base, first, t) for t in (ann_token, bob_token)]
            for c in clients:
                await c.start()
            await play_randomly(clients, random.Random(2))
            for c in clients:
                await c.close()

        asyncio.run(play())
        r = ann.post(f"/api/tables/{first}/rematch", headers=seat_header(ann_token))
        new = r.json()["table"]["id"]
        with httpx.Client(base_url=base) as phone:  # Bob, on his phone
            r = phone.post("/api/session", json={"name": "Bob", "password": PASSWORD})
            phone_csrf = {"X-CSRF-Token": r.json()["csrf"]}
            r = phone.post(f"/api/tables/{new}/resume", headers=phone_csrf)
            assert r.status_code == 200 and r.json()["seat"] == 1, r.text
            token = r.json()["token"]
            assert (
                phone.get(f"/api/tables/{new}", headers=seat_header(token)).json()["invited"] == 1
            )
            r = phone.post("/api/tables/nosuchtable/rematch", headers=seat_header(token))
            assert r.status_code == 404
            r = phone.post(f"/api/tables/{first}/rematch", headers=seat_header("forged"))
            assert r.status_code == 403 and r.json()["code"] == "not_seated"
            assert phone.get(f"/api/tables/{new}").json()["table"]["status"] == "open"
            r = phone.post(f"/api/tables/{first}/rematch", headers=seat_header(token))
            assert r.status_code == 200 and r.json()["table"]["id"] == new, r.text
            assert r.json()["table"]["status"] == "playing"  # both answered: it starts
            assert phone.get(f"/api/tables/{new}", headers=seat_header(token)).json()["seat"] == 1
