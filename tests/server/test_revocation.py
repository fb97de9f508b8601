"""A seat token revoked while its websocket is open loses the seat at once: the connection is
told (``error`` ``revoked``, then ``seat`` null), watches from then on and may not act; the
seat's other tokens play on."""

from __future__ import annotations

import asyncio

import httpx

from tests.server.conftest import seat_header
from tests.server.helpers import live_server
from tests.server.test_accounts import PASSWORD, csrf, make_client
from tests.server.test_resume import ann_at_a_table, as_device, sign_in, stored_keys
from tripletopper.server.client import TableClient
from tripletopper.server.tables import MAX_DEVICE_KEYS


def revoked(client: TableClient) -> list[dict]:
    return [e for e in client.errors if e["code"] == "revoked"]


async def watches_now(base: str, table_id: str, phone: TableClient) -> None:
    """``phone`` was told its seat is gone, sees what a spectator sees, and may not act."""
    await phone.wait(lambda c: bool(revoked(c)) and c.seat is None)
    assert "no longer holds seat 1" in revoked(phone)[0]["message"]
    async with TableClient(base, table_id) as spectator:
        await phone.wait(lambda c: c.observation == spectator.observation)
    kinds = [m["type"] for m in phone.messages]
    assert kinds[kinds.index("seat") - 1 :][:3] == ["error", "seat", "state"]
    await phone.act({"type": "pass"})
    await phone.wait(lambda c: c.errors[-1]["code"] == "not_seated")


def test_deleting_the_account_takes_the_seat_from_a_resumed_device_connected_now(tmp_path):
    with live_server(str(tmp_path), bot_delay=30.0) as base, httpx.Client(base_url=base) as http:
        table_id, first, laptop = ann_at_a_table(http)
        laptop_csrf = http.get("/api/account").json()["csrf"]
        _, phone_csrf = sign_in(http)
        second = http.post(f"/api/tables/{table_id}/resume", headers=csrf(phone_csrf))
        as_device(http, laptop)

        async def scene() -> None:
            async with (
                TableClient(base, table_id, first, record=True) as desk,
                TableClient(base, table_id, second.json()["token"], record=True) as phone,
            ):
                assert phone.seat == desk.seat == 0
                r = await asyncio.to_thread(
                    http.request,
                    "DELETE",
                    "/api/account",
                    json={"password": PASSWORD},
                    headers=csrf(laptop_csrf),
                )
                assert r.status_code == 200, r.text
                await watches_now(base, table_id, phone)
                assert desk.seat == 0 and not revoked(desk)  # the seat's own token plays on

        asyncio.run(scene())


def test_the_device_dropped_by_a_ninth_resume_loses_the_seat_at_once(tmp_path):
    with live_server(str(tmp_path), bot_delay=30.0) as base, httpx.Client(base_url=base) as http:
        table_id, first, _ = ann_at_a_table(http)
        _, phone_csrf = sign_in(http)

        def resume() -> str:
            r = http.post(f"/api/tables/{table_id}/resume", headers=csrf(phone_csrf))
            assert r.status_code == 200, r.text
            return str(r.json()["token"])

        async def scene() -> None:
            oldest = resume()
            async with (
                TableClient(base, table_id, first, record=True) as desk,
                TableClient(base, table_id, oldest, record=True) as phone,
            ):
                for _ in range(MAX_DEVICE_KEYS - 1):
                    await asyncio.to_thread(resume)
                await asyncio.sleep(0.3)
                assert phone.seat == 0 and not revoked(phone)  # eight devices: all hold it
                await asyncio.to_thread(resume)
                await watches_now(base, table_id, phone)
                assert desk.seat == 0 and not revoked(desk)

        asyncio.run(scene())


def test_a_seat_freed_before_the_start_is_no_longer_played_by_its_open_connection(tmp_path):
    with live_server(str(tmp_path)) as base, httpx.Client(base_url=base) as http:
        r = http.post(
            "/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann", "seat": 0}
        )
        table_id, ann = r.json()["table"]["id"], r.json()["token"]
        bob = http.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bob"}).json()["token"]

        async def scene() -> None:
            async with TableClient(base, table_id, bob, record=True) as client:
                assert client.seat == 1
                r = await asyncio.to_thread(
                    http.delete, f"/api/tables/{table_id}/seats/1", headers=seat_header(bob)
                )
                assert r.status_code == 200, r.text
                await client.wait(lambda c: c.seat is None and bool(revoked(c)))
                assert "holds seat 2" in revoked(client)[0]["message"]
                # the seat's next person is theirs alone: the old connection still watches
                r = await asyncio.to_thread(
                    http.post, f"/api/tables/{table_id}/seats/1", json={"name": "Cy"}
                )
                assert r.status_code == 200, r.text
                await client.wait(lambda c: c.table["seats"][1] is not None)
                assert client.seat is None

        assert ann
        asyncio.run(scene())


def change_password(http: httpx.Client, cookie: str, new: str = "a new password") -> None:
    as_device(http, cookie)
    me = http.get("/api/account").json()["csrf"]
    r = http.post(
        "/api/account/password", json={"password": PASSWORD, "new_password": new}, headers=csrf(me)
    )
    assert r.status_code == 200, r.text


def test_changing_the_password_revokes_the_other_devices_resumed_tokens(db_url, tmp_path):
    with make_client(tmp_path, db_url) as client:
        table_id, first, laptop = ann_at_a_table(client)
        here = client.post(
            f"/api/tables/{table_id}/resume",
            headers=csrf(client.get("/api/account").json()["csrf"]),
        ).json()["token"]
        phone_cookie, phone_csrf = sign_in(client)
        phone = client.post(f"/api/tables/{table_id}/resume", headers=csrf(phone_csrf))
        phone = phone.json()["token"]
        # a second table, which this process does not hold in memory: only its stored row
        client.cookies.clear()
        other, other_first, _ = ann_at_a_table_as(client, phone_cookie)
        r = client.post(f"/api/tables/{other}/resume", headers=csrf(phone_csrf))
        other_phone = r.json()["token"]
        client.app.state.room.tables.pop(other).close()
        before = stored_keys(client, table_id)
        as_device(client, laptop)
        me = client.get("/api/account").json()["csrf"]
        wrong = {"password": "wrong password", "new_password": "a new password"}
        r = client.post("/api/account/password", headers=csrf(me), json=wrong)
        assert r.status_code == 401 and stored_keys(client, table_id) == before  # nothing changed

        change_password(client, laptop)
        as_device(client, None)
        seats = [
            client.get(f"/api/tables/{table_id}", headers=seat_header(t)).json()["seat"]
            for t in (first, here, phone)
        ]
        assert seats == [0, 0, None]  # the seat's own token and this device's stay
        seats = [
            client.get(f"/api/tables/{other}", headers=seat_header(t)).json()["seat"]
            for t in (other_first, other_phone)
        ]
        assert seats == [0, None]
        assert stored_keys(client, other)[0][3] is None
        as_device(client, phone_cookie)
        r = client.post(f"/api/tables/{table_id}/resume", headers=csrf(phone_csrf))
        assert r.status_code == 401 and r.json()["code"] == "bad_session"  # signed out


def ann_at_a_table_as(client, cookie: str) -> tuple[str, str, str]:
    """Ann (already registered, signed in with ``cookie``) opens a started table with bots."""
    as_device(client, cookie)
    me = client.get("/api/account").json()["csrf"]
    r = client.post(
        "/api/tables", json={"game": "thirty-one", "players": 2, "name": "x"}, headers=csrf(me)
    )
    table_id, token = r.json()["table"]["id"], r.json()["token"]
    mine = {**csrf(me), **seat_header(token)}
    r = client.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "random"}, headers=mine)
    assert r.status_code == 200, r.text
    assert client.post(f"/api/tables/{table_id}/start", headers=mine).status_code == 200
    return table_id, token, cookie


def test_a_password_change_takes_the_seat_from_another_devices_open_connection(tmp_path):
    with live_server(str(tmp_path), bot_delay=30.0) as base, httpx.Client(base_url=base) as http:
        table_id, first, laptop = ann_at_a_table(http)
        _, phone_csrf = sign_in(http)
        phone = http.post(f"/api/tables/{table_id}/resume", headers=csrf(phone_csrf))

        async def scene() -> None:
            async with (
                TableClient(base, table_id, first, record=True) as desk,
                TableClient(base, table_id, phone.json()["token"], record=True) as client,
            ):
                await asyncio.to_thread(change_password, http, laptop)
                await watches_now(base, table_id, client)
                assert desk.seat == 0 and not revoked(desk)

        asyncio.run(scene())
