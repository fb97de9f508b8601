"""A seat token revoked while its websocket is open loses the seat at once: the connection is
told (``error`` ``revoked``, then ``seat`` null), watches from then on and may not act; the
seat's other tokens play on."""

from __future__ import annotations

import asyncio

import httpx

from tests.server.conftest import seat_header
from tests.server.helpers import live_server
from tests.server.test_accounts import PASSWORD, csrf
from tests.server.test_resume import ann_at_a_table, as_device, sign_in
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
                    http.request, "DELETE", "/api/account", json={"password": PASSWORD},
                    headers=csrf(laptop_csrf),
                )  # fmt: skip
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
        r = http.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann",
                                           "seat": 0})  # fmt: skip
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
