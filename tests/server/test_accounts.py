"""Optional accounts: register, sign in and out, passwords, CSRF, sessions, linked seats,
deletion; every bad input refused with a clear error and nothing changed."""

from __future__ import annotations

import time
import warnings

import pytest
from sqlalchemy import select, update

from tests.server.conftest import seat_header
from tripletopper.server import schema
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.tables import Settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PASSWORD = "correct horse"


def make_client(tmp_path, db_url=None, **settings) -> TestClient:
    config = ServerConfig(
        data_dir=str(tmp_path), db_url=db_url, settings=Settings(bot_delay=0, **settings)
    )
    return TestClient(create_app(config))


def register(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> str:
    """Register (and so sign in); returns the CSRF token."""
    r = client.post("/api/account", json={"name": name, "password": password})
    assert r.status_code == 201, r.text
    return r.json()["csrf"]


def csrf(token: str) -> dict[str, str]:
    return {"X-CSRF-Token": token}


def run(client: TestClient, job):
    return client.app.state.room.db.run_now(job)


def seats_of(client: TestClient, table_id: str) -> list[tuple]:
    s = schema.seats
    query = select(s.c.seat, s.c.name, s.c.user_id).where(s.c.table_id == table_id)
    return sorted(run(client, lambda conn: list(conn.execute(query))))


def error(r, status: int, code: str) -> str:
    assert r.status_code == status, r.text
    assert r.json()["code"] == code, r.text
    return r.json()["message"]


def test_register_sign_out_and_in_with_a_session_cookie(db_url, tmp_path):
    with make_client(tmp_path, db_url) as client:
        r = client.post("/api/account", json={"name": "  Ann   Lee ", "password": PASSWORD})
        assert r.status_code == 201
        assert r.json()["account"]["name"] == "Ann Lee"
        cookie = r.headers["set-cookie"]
        assert cookie.startswith("tt_session=") and "HttpOnly" in cookie
        assert "SameSite=lax" in cookie and "Secure" not in cookie  # plain HTTP here
        token = client.cookies["tt_session"]
        users = run(client, lambda conn: list(conn.execute(select(schema.users))))
        assert len(users) == 1 and users[0].password_hash.startswith("$argon2id$")
        assert PASSWORD not in users[0].password_hash
        stored = run(client, lambda conn: list(conn.execute(select(schema.sessions))))
        assert [s.token_hash for s in stored] != [token]  # only its hash is kept
        me = client.get("/api/account").json()
        assert me["account"]["name"] == "Ann Lee" and me["csrf"] == r.json()["csrf"]

        r = client.delete("/api/session", headers=csrf(me["csrf"]))
        assert r.status_code == 200 and "tt_session" not in client.cookies
        assert client.get("/api/account").json() == {"account": None, "csrf": None}  # a guest
        client.cookies.set("tt_session", token)  # the old cookie is dead
        error(client.get("/api/account"), 401, "bad_session")
        client.cookies.clear()

        r = client.post("/api/session", json={"name": "ANN LEE", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["account"]["name"] == "Ann Lee"
        assert client.get("/api/account").status_code == 200


def test_the_cookie_is_secure_over_https(tmp_path):
    with make_client(tmp_path) as client:
        client.base_url = "https://testserver"
        r = client.post("/api/account", json={"name": "Ann", "password": PASSWORD})
        assert r.status_code == 201 and "Secure" in r.headers["set-cookie"]


@pytest.mark.parametrize(
    ("name", "code", "says"),
    [
        ("You", "bad_name", "reserved"),
        ("Hard bot", "bad_name", "reserved"),
        ("Hard b0t", "bad_name", "reserved"),
        ("Deleted player", "bad_name", "reserved"),
        ("An\u200bn", "bad_name", "U+200B"),
        ("Ann\u202e", "bad_name", "U+202E"),
        ("", "bad_name", "choose a name"),
        ("x" * 33, "bad_name", "at most 32"),
        ("Bob", "name_taken", "taken"),
        ("BOB", "name_taken", "taken"),
        ("Ｂｏｂ", "name_taken", "taken"),  # full width
        ("B\u043eb", "name_taken", "taken"),  # with a Cyrillic o
        ("B0b", "name_taken", "taken"),
    ],
)
def test_bad_and_lookalike_names_are_refused(client, name, code, says):
    register(client, "Bob")
    client.cookies.clear()
    r = client.post("/api/account", json={"name": name, "password": PASSWORD})
    assert says in error(r, 409 if code == "name_taken" else 400, code)
    assert run(client, lambda conn: conn.execute(select(schema.users.c.name)).scalars().all()) == [
        "Bob"
    ]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"name": "Ann", "password": "short"}, 400, "bad_password"),
        ({"name": "Ann", "password": "x" * 257}, 400, "bad_password"),
        ({"name": "Ann", "password": 12345678}, 422, "malformed"),
        ({"name": ["Ann"], "password": PASSWORD}, 422, "malformed"),
        ({"name": "Ann"}, 422, "malformed"),
    ],
)
def test_bad_registrations_are_refused_and_store_nothing(client, body, status, code):
    error(client.post("/api/account", json=body), status, code)
    assert run(client, lambda conn: conn.execute(select(schema.users)).all()) == []
    assert "tt_session" not in client.cookies


def test_wrong_passwords_and_unknown_names_get_the_same_answer(client):
    register(client)
    client.cookies.clear()
    wrong = client.post("/api/session", json={"name": "Ann", "password": "not my password"})
    unknown = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
    assert error(wrong, 401, "wrong_password") == error(unknown, 401, "wrong_password")
    assert "tt_session" not in client.cookies
    assert len(run(client, lambda conn: conn.execute(select(schema.sessions)).all())) == 1


def test_sign_in_attempts_are_limited_per_name_and_per_address(tmp_path):
    rates = {"signin": "6/minute", "signin_name": "3/minute"}
    with make_client(tmp_path, rates=rates) as client:
        for _ in range(3):
            r = client.post("/api/session", json={"name": "ann", "password": "guess it"})
            error(r, 401, "wrong_password")
        r = client.post("/api/session", json={"name": "ANN", "password": "guess again"})
        message = error(r, 429, "rate_limited")
        assert "too many requests from this name" in message and r.headers["Retry-After"]
        r = client.post("/api/session", json={"name": "Bob", "password": "guess it"})
        error(r, 401, "wrong_password")  # another name is still tried...
        client.post("/api/session", json={"name": "Cat", "password": "guess it"})
        r = client.post("/api/session", json={"name": "Dan", "password": "guess it"})
        assert "from your address" in error(r, 429, "rate_limited")  # ...up to the address's


def test_password_confirmations_count_as_sign_in_attempts(tmp_path):
    """Changing the password or deleting the account checks the password (an Argon2 check
    each): a signed-in client cannot try passwords, or spend the server's CPU, without
    limit."""
    with make_client(tmp_path, rates={"signin": "30/minute", "signin_name": "3/minute"}) as c:
        token = register(c)
        for _ in range(3):
            r = c.post(
                "/api/account/password",
                json={"password": "wrong one!", "new_password": "a new secret"},
                headers=csrf(token),
            )
            error(r, 401, "wrong_password")
        r = c.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(token))
        assert "too many requests from this name" in error(r, 429, "rate_limited")
        assert c.get("/api/account").json()["account"]["name"] == "Ann"  # not deleted


def test_signed_in_writes_need_the_csrf_token_and_change_nothing_without_it(client):
    token = register(client)
    for headers in ({}, csrf("0" * 64), csrf(token[:-1])):
        r = client.post(
            "/api/account/password",
            json={"password": PASSWORD, "new_password": "another secret"},
            headers=headers,
        )
        assert "X-CSRF-Token" in error(r, 403, "csrf")
        error(
            client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=headers),
            403,
            "csrf",
        )
        error(
            client.post("/api/tables", json={"game": "toe", "name": "Ann"}, headers=headers),
            403,
            "csrf",
        )
        error(client.delete("/api/session", headers=headers), 403, "csrf")
    assert client.get("/api/account").status_code == 200  # still signed in, same password
    assert run(client, lambda conn: conn.execute(select(schema.tables)).all()) == []
    client.cookies.clear()
    r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    assert r.status_code == 200


def test_a_sign_in_from_another_sites_page_is_refused(client):
    register(client)
    client.cookies.clear()
    r = client.post(
        "/api/session",
        json={"name": "Ann", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    error(r, 403, "csrf")
    r = client.post(
        "/api/account",
        json={"name": "Eve", "password": PASSWORD},
        headers={"Origin": "https://evil.example"},
    )
    error(r, 403, "csrf")
    assert "tt_session" not in client.cookies
    r = client.post(
        "/api/session",
        json={"name": "Ann", "password": PASSWORD},
        headers={"Origin": "http://testserver"},
    )
    assert r.status_code == 200


@pytest.mark.parametrize("cookie", ["forged", "x" * 5000, "", "A" * 32])
def test_forged_cookies_are_refused_everywhere_and_change_nothing(client, cookie):
    table = client.post("/api/tables", json={"game": "thirty-two", "players": 3}).json()
    table_id = table["table"]["id"]
    client.cookies.set("tt_session", cookie)
    if cookie:
        error(client.get("/api/account"), 401, "bad_session")
        r = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
        assert "sign in again" in error(r, 401, "bad_session")
        assert seats_of(client, table_id) == []
    else:  # an empty cookie is no cookie: a guest
        assert client.get("/api/account").json() == {"account": None, "csrf": None}
    r = client.delete("/api/session")  # sign out forgets a dead cookie
    assert r.status_code == 200 and 'tt_session=""' in r.headers["set-cookie"]
    assert "Max-Age=0" in r.headers["set-cookie"]
    client.cookies.clear()
    r = client.post(f"/api/tables/{table_id}/seats/0", json={"name": "Ann"})
    assert r.status_code == 200  # a guest again


def test_an_expired_session_is_refused(client):
    register(client)
    s = schema.sessions
    run(client, lambda conn: conn.execute(update(s).values(expires_at=time.time() - 1)))
    error(client.get("/api/account"), 401, "bad_session")


def test_change_password_signs_out_the_other_sessions(client, tmp_path):
    token = register(client)
    mine = client.cookies["tt_session"]
    other = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
    other_cookie = other.cookies["tt_session"]
    assert other_cookie != mine
    client.cookies.set("tt_session", mine)
    r = client.post(
        "/api/account/password",
        json={"password": "wrong one!", "new_password": "a new secret"},
        headers=csrf(token),
    )
    error(r, 401, "wrong_password")
    r = client.post(
        "/api/account/password",
        json={"password": PASSWORD, "new_password": "short"},
        headers=csrf(token),
    )
    error(r, 400, "bad_password")
    r = client.post(
        "/api/account/password",
        json={"password": PASSWORD, "new_password": "a new secret"},
        headers=csrf(token),
    )
    assert r.status_code == 200
    assert client.get("/api/account").status_code == 200  # this browser stays signed in
    client.cookies.set("tt_session", other_cookie)
    error(client.get("/api/account"), 401, "bad_session")
    client.cookies.clear()
    error(
        client.post("/api/session", json={"name": "Ann", "password": PASSWORD}),
        401,
        "wrong_password",
    )
    r = client.post("/api/session", json={"name": "Ann", "password": "a new secret"})
    assert r.status_code == 200


def test_a_signed_in_person_sits_under_their_account_once_per_table(client):
    token = register(client, "Ann")
    r = client.post(
        "/api/tables", json={"game": "thirty-two", "players": 3, "name": "Zed"}, headers=csrf(token)
    )
    assert r.status_code == 201
    table_id = r.json()["table"]["id"]
    user_id = client.get("/api/account").json()["account"]["id"]
    assert seats_of(client, table_id) == [(0, "Ann", user_id)]
    r = client.post(f"/api/tables/{table_id}/seats/1", json={}, headers=csrf(token))
    assert "already holds a seat" in error(r, 409, "already_seated")
    assert seats_of(client, table_id) == [(0, "Ann", user_id)]
    summary = client.get(f"/api/tables/{table_id}").json()["table"]
    assert set(summary["seats"][0]) == {"seat", "name", "kind", "bot", "bot_account"}
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:  # another player's view
        ws.send_json({"type": "hello"})
        texts = [ws.receive_text() for _ in range(2)]
    assert all("user_id" not in t and '"u:' not in t and "csrf" not in t for t in texts)
    assert '"name":"Ann"' in texts[1]  # the public name only


def test_a_guest_who_signs_in_keeps_their_seat_linked_to_the_account(client):
    r = client.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Kim"})
    table_id, seat_token = r.json()["table"]["id"], r.json()["token"]
    error(
        client.post(f"/api/tables/{table_id}/account", headers=seat_header(seat_token)),
        401,
        "not_signed_in",
    )
    token = register(client, "Kimberly")
    error(
        client.post(f"/api/tables/{table_id}/account", headers=seat_header(seat_token)), 403, "csrf"
    )
    r = client.post(f"/api/tables/{table_id}/account", headers=csrf(token))
    error(r, 403, "not_seated")
    assert seats_of(client, table_id) == [(0, "Kim", None)]
    r = client.post(
        f"/api/tables/{table_id}/account", headers={**csrf(token), **seat_header(seat_token)}
    )
    assert r.status_code == 200 and r.json()["seat"] == 0
    user_id = client.get("/api/account").json()["account"]["id"]
    assert seats_of(client, table_id) == [(0, "Kim", user_id)]
    r = client.get(f"/api/tables/{table_id}", headers=seat_header(seat_token))
    assert r.json()["seat"] == 0  # the seat token still plays it

    client.cookies.clear()
    other = register(client, "Lou")
    r = client.post(
        f"/api/tables/{table_id}/account", headers={**csrf(other), **seat_header(seat_token)}
    )
    error(r, 403, "not_your_seat")
    assert seats_of(client, table_id) == [(0, "Kim", user_id)]


def test_deleting_an_account_keeps_its_games_under_deleted_player(client):
    token = register(client, "Ann")
    r = client.post(
        "/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"}, headers=csrf(token)
    )
    table_id, seat_token = r.json()["table"]["id"], r.json()["token"]
    for seat in (1, 2):
        client.post(
            f"/api/tables/{table_id}/seats/{seat}/bot",
            json={"bot": "random"},
            headers={**csrf(token), **seat_header(seat_token)},
        )
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        ws.send_json({"type": "hello", "token": seat_token})
        assert ws.receive_json()["type"] == "welcome"
        ws.send_json({"type": "chat", "text": "hello all"})
        while (m := ws.receive_json())["type"] != "chat":
            pass
        assert m["lines"][-1]["name"] == "Ann"

    r = client.request(
        "DELETE", "/api/account", json={"password": "not it at all"}, headers=csrf(token)
    )
    error(r, 401, "wrong_password")
    assert client.get("/api/account").status_code == 200
    r = client.request("DELETE", "/api/account", json={"password": PASSWORD}, headers=csrf(token))
    assert r.status_code == 200 and "tt_session" not in client.cookies
    assert run(client, lambda conn: conn.execute(select(schema.users)).all()) == []
    assert run(client, lambda conn: conn.execute(select(schema.sessions)).all()) == []
    assert seats_of(client, table_id)[0] == (0, "Deleted player", None)
    summary = client.get(f"/api/tables/{table_id}").json()["table"]
    assert summary["seats"][0]["name"] == "Deleted player"
    chat = run(client, lambda conn: conn.execute(select(schema.chat.c.name)).scalars().all())
    assert chat == ["Deleted player"]
    error(
        client.post("/api/session", json={"name": "Ann", "password": PASSWORD}),
        401,
        "wrong_password",
    )
    register(client, "Ann")  # the name is free again


def test_migration_0006_keeps_seats_as_guests_and_refuses_lookalike_keys(db_url):
    from sqlalchemy.exc import IntegrityError

    from tripletopper.server import storage
    from tripletopper.server.storage import SeatRow

    engine = storage.make_engine(db_url)
    storage.migrate(engine, "0004")
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
            "INSERT INTO seats (table_id, seat, name, kind) VALUES ('old', 0, 'Ann', 'human')"
        )
    storage.migrate(engine)
    storage.migrate(engine)  # twice: no harm
    with engine.begin() as conn:
        row = storage.load_table(conn, "old")
        assert row is not None and row.seats[0] == SeatRow(0, "Ann", "human")
        conn.execute(schema.users.insert().values(name="Ann", name_key="ann", created_at=1.0))
    with pytest.raises(IntegrityError), engine.begin() as conn:
        conn.execute(schema.users.insert().values(name="ANN", name_key="ann", created_at=2.0))
    engine.dispose()
