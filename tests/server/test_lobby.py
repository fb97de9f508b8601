"""The lobby's three lists: over HTTP (with an ETag) and pushed over ``/ws/lobby`` when a
table opens, changes seats, starts or ends; rebuilt at most once per interval."""

from __future__ import annotations

import asyncio

from tests.server.conftest import seat_header
from tests.server.test_hostile import people_table
from tests.server.test_seats import ask, finished_table, leave, room
from tripletopper.server.lobby import Lobby
from tripletopper.server.storage import Database, sqlite_url


def ids(lists):
    return {name: [t["id"] for t in lists[name]] for name in ("open", "playing", "finished")}


def test_the_lobby_lists_open_running_and_finished_games(tmp_path):
    with room(tmp_path, bot_delay=30) as client:
        finished, _ = finished_table(client, ["Ann", "Bob"], bots=1)
        playing, tokens = people_table(client, "toe", ["Cat", "Dan"])
        r = client.post(
            "/api/tables",
            json={
                "game": "memo-match",
                "players": 3,
                "name": "Eve",
                "options": {"reveal": "private"},
            },
        )
        waiting = r.json()["table"]["id"]
        lists = client.get("/api/lobby").json()
        assert ids(lists) == {"open": [waiting], "playing": [playing], "finished": [finished]}
        entry = lists["open"][0]
        assert entry["title"] == "Memo Match" and entry["options"]["reveal"] == "private"
        assert entry["seats"] == [{"name": "Eve", "kind": "human"}, None, None]
        assert entry["created_at"] > 0 and entry["started_at"] is None
        done = lists["finished"][0]
        assert [s["kind"] for s in done["seats"]] == ["human", "human", "bot"]
        assert done["finished_at"] >= done["started_at"] and done["winners"] is not None
        text = str(lists)
        assert "token" not in text and "hand" not in text and "version" not in text
        # an ETag spares a reader the unchanged lists
        r = client.get("/api/lobby")
        etag = r.headers["etag"]
        assert client.get("/api/lobby", headers={"If-None-Match": etag}).status_code == 304
        leave(client, playing, 1, tokens[1])  # a seat changes hands: the lists change
        asyncio_sleep(client, 1.1)
        r = client.get("/api/lobby", headers={"If-None-Match": etag})
        assert r.status_code == 200 and r.json()["playing"][0]["seats"][1]["kind"] == "bot"


def asyncio_sleep(client, seconds):
    client.portal.call(asyncio.sleep, seconds)


def test_browsers_on_the_lobby_socket_get_each_change_but_not_moves(tmp_path):
    with room(tmp_path, bot_delay=30) as client, client.websocket_connect("/ws/lobby") as ws:
        first = ws.receive_json()
        assert first["type"] == "lobby" and ids(first) == {
            "open": [],
            "playing": [],
            "finished": [],
        }
        assert isinstance(first["now"], float)
        r = client.post("/api/tables", json={"game": "toe", "name": "Ann"})
        table_id, token = r.json()["table"]["id"], r.json()["token"]
        assert ids(ws.receive_json())["open"] == [table_id]
        bob = client.post(f"/api/tables/{table_id}/seats/1", json={"name": "Bob"}).json()
        assert ws.receive_json()["open"][0]["seats"][1] == {"name": "Bob", "kind": "human"}
        client.post(f"/api/tables/{table_id}/start", headers=seat_header(token))
        assert ids(ws.receive_json()) == {"open": [], "playing": [table_id], "finished": []}
        with client.websocket_connect(f"/ws/tables/{table_id}") as table_ws:
            first = client.app.state.room.tables[table_id].state.to_act()[0]
            table_ws.send_json({"type": "hello", "token": [token, bob["token"]][first]})
            table_ws.receive_json()
            state = table_ws.receive_json()
            move = next(x for x in state["legal"] if x["action"]["type"] == "draw")
            table_ws.send_json({"type": "action", "action": move["action"], "version": 0})
            table_ws.receive_json()  # the update
        client.post("/api/tables", json={"game": "thirty-two"})  # the next change...
        message = ws.receive_json()  # ...is the next message: the move sent nothing
        assert len(message["open"]) == 1 and message["playing"][0]["id"] == table_id


def test_the_lobby_socket_reads_nothing(tmp_path):
    with room(tmp_path) as client, client.websocket_connect("/ws/lobby") as ws:
        ws.receive_json()
        ws.send_text("x" * 100)
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "read_only"


def test_rebuilds_are_coalesced_however_many_tables_change(tmp_path):
    async def run() -> tuple[int, int]:
        db = Database(sqlite_url(tmp_path))
        db.migrate()
        db.start()
        tasks: list[asyncio.Task[None]] = []
        lobby = Lobby(db, lambda coro: tasks.append(asyncio.ensure_future(coro)), interval=3600)
        try:
            await lobby.lists()
            for _ in range(50):
                lobby.changed()
                await lobby.lists()
            first = lobby.builds
            lobby.interval = 0
            await lobby.lists()
            return first, lobby.builds
        finally:
            for task in tasks:
                task.cancel()
            db.stop()

    assert asyncio.run(run()) == (1, 2)


def test_a_rematch_waiting_for_answers_is_listed_open(tmp_path):
    with room(tmp_path, rematch_wait=3600) as client:
        finished, tokens = finished_table(client, ["Ann", "Bob"], bots=1)
        new = ask(client, finished, tokens[0]).json()["table"]["id"]
        lists = client.get("/api/lobby").json()
        assert ids(lists)["open"] == [new]
        entry = lists["open"][0]
        assert entry["rematch_of"] == finished
        assert [s["kind"] for s in entry["seats"]] == ["human", "invited", "bot"]


def test_lobby_sockets_count_against_the_connection_cap_with_table_sockets(tmp_path, monkeypatch):
    monkeypatch.setattr("tripletopper.server.protocol.MAX_CONNECTIONS", 2)
    with room(tmp_path) as client:
        table_id = client.post("/api/tables", json={"game": "toe"}).json()["table"]["id"]
        with (
            client.websocket_connect(f"/ws/tables/{table_id}"),
            client.websocket_connect("/ws/lobby") as first,
        ):
            assert first.receive_json()["type"] == "lobby"
            with client.websocket_connect("/ws/lobby") as third:
                assert third.receive_json()["code"] == "too_many_connections"
        with client.websocket_connect("/ws/lobby") as again:  # closed ones are counted out
            assert again.receive_json()["type"] == "lobby"
