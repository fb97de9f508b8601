"""Bot accounts: made by a signed-in person, API tokens (revocable, expiring), invitations
over /ws/bot, a whole rated game played by the reference client; every misuse refused."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from websockets.asyncio.client import connect

from tests.server.helpers import live_server, play_randomly
from tripletopper.server import ratings, schema
from tripletopper.server.botclient import run
from tripletopper.server.client import TableClient
from tripletopper.server.storage import Database, sqlite_url

PASSWORD = "correct horse"


def person(base: str, name: str) -> tuple[httpx.Client, dict[str, str]]:
    http = httpx.Client(base_url=base, timeout=30)
    r = http.post("/api/account", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return http, {"X-CSRF-Token": r.json()["csrf"]}


def bot_with_token(http: httpx.Client, csrf: dict[str, str], name: str, **body) -> str:
    r = http.post("/api/bots", json={"name": name}, headers=csrf)
    assert r.status_code == 201, r.text
    r = http.post(f"/api/bots/{name}/tokens", json=body, headers=csrf)
    assert r.status_code == 201, r.text
    return r.json()["token"]


async def bot_hello(base: str, token: str) -> list[dict]:
    """Say hello on /ws/bot; the messages until the server closes or 1 s passes."""
    got = []
    async with connect(base.replace("http", "ws") + "/ws/bot") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        try:
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 1.0)))
        except (TimeoutError, Exception):
            pass
    return got


def test_bot_accounts_and_their_tokens_refuse_every_misuse(tmp_path):
    with live_server(str(tmp_path)) as base:
        guest = httpx.Client(base_url=base, timeout=30)
        r = guest.post("/api/bots", json={"name": "Sneaky"})
        assert r.status_code == 401 and r.json()["code"] == "not_signed_in"
        ann, csrf = person(base, "Ann")
        r = ann.post("/api/bots", json={"name": "Sneaky"})  # no CSRF token
        assert r.status_code == 403 and r.json()["code"] == "csrf"
        for name, code in (("Hard bot", "bad_name"), ("ANN", "name_taken"), ("", "bad_name")):
            r = ann.post("/api/bots", json={"name": name}, headers=csrf)
            assert r.json()["code"] == code, r.text
        token = bot_with_token(ann, csrf, "Deep Thought")
        listed = ann.get("/api/bots").json()["bots"]
        assert [b["name"] for b in listed] == ["Deep Thought"]
        assert token not in json.dumps(listed) and not listed[0]["online"]

        bob, bob_csrf = person(base, "Bob")  # another person cannot touch Ann's bot
        r = bob.post("/api/bots/Deep Thought/tokens", json={}, headers=bob_csrf)
        assert r.status_code == 404 and r.json()["code"] == "no_bot"

        # The API token is no session and no seat token.
        guest.cookies.set("tt_session", token)
        r = guest.get("/api/account")
        assert r.status_code == 401 and r.json()["code"] == "bad_session"
        guest.cookies.clear()
        r = ann.post("/api/tables", json={"game": "thirty-one", "name": "x"}, headers=csrf)
        table_id, seat_token = r.json()["table"]["id"], r.json()["token"]
        r = guest.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        assert r.status_code == 403 and r.json()["code"] == "not_seated"
        r = guest.post("/api/session", json={"name": "Deep Thought", "password": token})
        assert r.status_code == 401 and r.json()["code"] == "wrong_password"

        assert asyncio.run(bot_hello(base, "forged"))[0]["code"] == "bad_token"
        assert asyncio.run(bot_hello(base, token))[0] == {"type": "welcome", "bot": "Deep Thought"}
        token_id = ann.get("/api/bots").json()["bots"][0]["tokens"][0]["id"]
        r = ann.delete(f"/api/bots/Deep Thought/tokens/{token_id}", headers=csrf)
        assert r.status_code == 200
        assert asyncio.run(bot_hello(base, token))[0]["code"] == "revoked"
        r = ann.delete("/api/bots/Deep Thought/tokens/999", headers=csrf)
        assert r.status_code == 404 and r.json()["code"] == "no_token"

        short = ann.post("/api/bots/Deep Thought/tokens", json={"days": 1}, headers=csrf)
        db = Database(sqlite_url(str(tmp_path)))
        t = schema.bot_tokens
        db.run_now(
            lambda conn: conn.execute(
                update(t).where(t.c.id == short.json()["id"]).values(expires_at=time.time() - 1)
            )
        )
        db.engine.dispose()
        assert asyncio.run(bot_hello(base, short.json()["token"]))[0]["code"] == "expired_token"
        r = ann.post("/api/bots/Deep Thought/tokens", json={"days": 0}, headers=csrf)
        assert r.status_code == 422

        r = ann.post(
            f"/api/tables/{table_id}/seats/1/bot",
            json={"bot": "account:Deep Thought"},
            headers={**csrf, "X-Seat-Token": seat_token},
        )
        assert r.status_code == 409 and r.json()["code"] == "bot_offline"  # not connected
        r = guest.post(f"/api/tables/{table_id}/seats/1/bot", json={"bot": "account:Ann"})
        assert r.status_code == 403 and r.json()["code"] == "not_seated"
        for client in (guest, ann, bob):
            client.close()


def test_the_reference_client_plays_a_rated_game_as_a_bot_account(tmp_path, monkeypatch):
    import threading

    from tripletopper.server import botclient

    on_the_loop: list[bool] = []  # a long search must not stop the client's connections
    real = botclient.bot_factory

    def watched(spec: str, game: Any) -> Any:
        make = real(spec, game)

        def factory(seat: int, seed: int) -> Any:
            bot = make(seat, seed)
            choose = bot.choose

            def choosing(view: Any) -> Any:
                on_the_loop.append(threading.current_thread() is threading.main_thread())
                return choose(view)

            bot.choose = choosing
            return bot

        return factory

    monkeypatch.setattr(botclient, "bot_factory", watched)
    with live_server(str(tmp_path), bot_delay=0.02) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Deep Thought")
        said: list[str] = []

        async def main() -> tuple[str, str]:
            bot = asyncio.create_task(run(base, token, "medium", say=said.append, once=True))
            for _ in range(100):
                if ann.get("/api/bots/online").json()["bots"] == ["Deep Thought"]:
                    break
                await asyncio.sleep(0.05)
            r = ann.post(
                "/api/tables", json={"game": "thirty-one", "players": 3, "name": "x"}, headers=csrf
            )
            table_id, seat_token = r.json()["table"]["id"], r.json()["token"]
            mine = {**csrf, "X-Seat-Token": seat_token}
            r = ann.post(
                f"/api/tables/{table_id}/seats/1/bot",
                json={"bot": "account:Someone Else"},
                headers=mine,
            )
            assert r.status_code == 409 and r.json()["code"] == "bot_offline"
            r = ann.post(
                f"/api/tables/{table_id}/seats/1/bot",
                json={"bot": "account:deep thought"},
                headers=mine,
            )
            assert r.status_code == 200, r.text
            seat = r.json()["table"]["seats"][1]
            assert seat == {
                "seat": 1,
                "name": "Deep Thought",
                "kind": "human",
                "bot": None,
                "bot_account": True,
            }
            ann.post(f"/api/tables/{table_id}/seats/2/bot", json={"bot": "easy"}, headers=mine)
            r = ann.post(f"/api/tables/{table_id}/start", headers=mine)
            assert r.json()["table"]["rated"] is True  # two accounts and a bot level
            # a person cannot act for the bot account's seat
            r = ann.delete(f"/api/tables/{table_id}/seats/1", headers=mine)
            assert r.status_code == 403 and r.json()["code"] == "not_your_seat"
            client = TableClient(base, table_id, seat_token)
            await client.start()
            assert client.seat == 0
            await play_randomly([client], random.Random(2))
            await client.close()
            return await asyncio.wait_for(bot, 60), table_id

        reason, table_id = asyncio.run(main())
        assert reason == "played"
        assert on_the_loop and not any(on_the_loop)  # every decision in a worker thread
        assert any("connected as Deep Thought" in line for line in said)
        db = Database(sqlite_url(str(tmp_path)))
        changes = db.run_now(lambda conn: ratings.changes_of(conn, table_id))
        db.engine.dispose()
        assert set(changes) == {"u:1", "u:2", "b:easy"}  # Ann, Deep Thought, the easy level
        page = ann.get("/api/players/Deep Thought").json()
        assert page["ratings"][0]["games"] == 1 and page["games"][0]["table"] == table_id
        assert page["kind"] == "bot"  # marked as a bot, like the built-in levels
        board = {
            p["name"]: p["kind"] for p in ann.get("/api/leaderboard/thirty-one").json()["players"]
        }
        assert board == {"Ann": "person", "Deep Thought": "bot", "Easy bot": "bot"}
        ann.close()


@pytest.mark.parametrize("hello", ["not json", '{"type": "action"}', '{"type": "hello"}'])
def test_a_bot_connection_must_say_hello_with_a_token(tmp_path, hello):
    async def send() -> dict:
        async with connect(base.replace("http", "ws") + "/ws/bot") as ws:
            await ws.send(hello)
            return json.loads(await asyncio.wait_for(ws.recv(), 5))

    with live_server(str(tmp_path)) as base:
        assert asyncio.run(send())["code"] == "malformed"


@pytest.mark.parametrize(
    "game", ["thirty-one", "thirty-two", "toe", "three-up-three-down", "memo-match"]
)
def test_the_reference_client_decides_as_the_bot_would_at_the_server(game):
    """From what the seat is sent (observation, recall, legal actions) every bot decides
    exactly as on the server's own view, a search too: it searches worlds built from that
    view alone (``Game.world_from_view``), dealt as the server's resamples are."""
    from types import SimpleNamespace

    from tripletopper import make_game
    from tripletopper.bots import SeatView, bot_factory, bot_names
    from tripletopper.server.botclient import ObservedView
    from tripletopper.server.client import expand

    made = make_game(game, 3 if game != "toe" else 2)
    specs = [s for s in ("easy", "medium", "heuristic", "random") if s in bot_names(game)]
    state = made.new_state(7)
    rng = random.Random(1)
    for _ in range(12):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        legal = [{"action": made.action_to_wire(a)} for a in state.legal_actions(seat)]
        seen = SimpleNamespace(
            version=state.version,
            observation=state.observation(seat),
            recall=state.recall(seat),
            actions=expand(legal),
        )
        remote = ObservedView(made, seat, seen)
        for spec in (*specs, "ismcts:iterations=60"):
            there = bot_factory(spec, made)(seat, 3).choose(remote)
            assert there == bot_factory(spec, made)(seat, 3).choose(SeatView(state, seat)), spec
        state.apply(rng.choice(state.legal_actions(seat)), seat)


REMOTE_GAMES = [
    ("thirty-one", {}, "hard:iterations=40"),
    ("thirty-two", {"counters": 4}, "hard:iterations=30"),
    ("toe", {"max_turns": 40}, "hard:iterations=30"),
    ("three-up-three-down", {"colors": "G", "max_turns": 40}, "hard:iterations=30"),
    ("memo-match", {"reveal": "private", "max_turns": 30}, "ismcts:iterations=30"),
    ("memo-match", {"swap_on_miss": True, "max_turns": 30}, "hard"),  # reads its recall
]


@pytest.mark.parametrize(("name", "options", "spec"), REMOTE_GAMES)
def test_a_remote_hard_bot_plays_a_whole_game_deciding_as_a_local_one(
    tmp_path, name, options, spec
):
    """``bot connect --bot hard`` searches worlds built from its seat's view: replayed at
    home, a local bot of the same spec and seed, fed the same events, chooses every move
    the remote one played."""
    from tripletopper import make_game
    from tripletopper.bots import SeatView, bot_factory
    from tripletopper.games import GAMES
    from tripletopper.server.storage import load_table

    seed = 5
    players = max(2, GAMES[name].min_players)
    with live_server(str(tmp_path)) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Deep Blue")
        said: list[str] = []

        async def main() -> str:
            bot = asyncio.create_task(run(base, token, spec, say=said.append, once=True, seed=seed))
            for _ in range(100):
                if ann.get("/api/bots/online").json()["bots"] == ["Deep Blue"]:
                    break
                await asyncio.sleep(0.05)
            body = {"game": name, "players": players, "options": options, "name": "x"}
            r = ann.post("/api/tables", json=body, headers=csrf)
            assert r.status_code == 201, r.text
            table_id, seat_token = r.json()["table"]["id"], r.json()["token"]
            mine = {**csrf, "X-Seat-Token": seat_token}
            r = ann.post(
                f"/api/tables/{table_id}/seats/1/bot",
                json={"bot": "account:Deep Blue"},
                headers=mine,
            )
            assert r.status_code == 200, r.text
            for other in range(2, players):
                r = ann.post(
                    f"/api/tables/{table_id}/seats/{other}/bot",
                    json={"bot": "random"},
                    headers=mine,
                )
                assert r.status_code == 200, r.text
            for _ in range(200):  # the bot sits at its table before the game starts
                if any(line.startswith("playing seat 2") for line in said):
                    break
                await asyncio.sleep(0.05)
            r = ann.post(f"/api/tables/{table_id}/start", headers=mine)
            assert r.status_code == 200, r.text
            client = TableClient(base, table_id, seat_token)
            await client.start()
            await play_randomly([client], random.Random(4), timeout=240)
            assert client.recall == {}  # a recall is sent to a bot account's own seat only
            await client.close()
            assert await asyncio.wait_for(bot, 240) == "played"
            return table_id

        table_id = asyncio.run(main())
        ann.close()
    db = Database(sqlite_url(str(tmp_path)))
    row = db.run_now(lambda conn: load_table(conn, table_id))
    db.engine.dispose()
    assert row is not None and row.status == "finished"
    game = make_game(name, players, **options)
    state = game.new_state(row.seed, decks=row.decks, **row.setup)
    local = bot_factory(spec, game)(1, seed)
    decided = 0
    for played in row.actions:
        action = game.action_from_wire(played.action)
        if played.seat == 1:
            assert local.choose(SeatView(state, 1)) == action, f"move {played.n}"
            decided += 1
        events = state.apply(action, played.seat)
        if local.wants_events:
            local.observe([event.view(1) for event in events])
    assert state.is_terminal() and decided  # the game is short when counters run out early


def test_a_bot_connection_pings_is_replaced_by_a_newer_one_and_must_hello_in_time(
    tmp_path, monkeypatch
):
    from tripletopper.server import bot_accounts

    monkeypatch.setattr(bot_accounts, "HELLO_SECONDS", 0.3)
    with live_server(str(tmp_path)) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Pinger")
        url = base.replace("http", "ws") + "/ws/bot"

        async def main() -> None:
            async with connect(url) as first, connect(url) as second, connect(url) as silent:
                await first.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(await first.recv())["type"] == "welcome"
                await first.send(json.dumps({"type": "ping"}))
                assert json.loads(await first.recv()) == {"type": "pong"}
                await first.send(json.dumps({"type": "action", "action": {}}))
                assert json.loads(await first.recv())["code"] == "bad_type"
                await second.send(json.dumps({"type": "hello", "token": token}))
                assert json.loads(await second.recv())["type"] == "welcome"
                assert json.loads(await first.recv())["code"] == "replaced"
                assert ann.get("/api/bots/online").json()["bots"] == ["Pinger"]
                said = json.loads(await asyncio.wait_for(silent.recv(), 5))
                assert said["code"] == "malformed" and "within" in said["message"]

        asyncio.run(main())
        ends = time.monotonic() + 5
        while ann.get("/api/bots/online").json()["bots"]:  # all closed: none online
            assert time.monotonic() < ends
            time.sleep(0.05)
        ann.close()


def test_bot_connect_stops_for_good_on_a_refused_token(tmp_path):
    from click.testing import CliRunner

    from tripletopper.cli import cli

    with live_server(str(tmp_path)) as base:
        result = CliRunner().invoke(
            cli, ["bot", "connect", "--server", base, "--token", "forged", "--bot", "easy"]
        )
    assert result.exit_code == 1
    assert "refused: that is not a bot token" in result.output
    assert "stopped: bad_token" in result.output


def test_bot_connect_retries_with_growing_waits_while_the_room_is_down():
    from tests.server.helpers import free_port

    said: list[str] = []

    async def main() -> None:
        base = f"http://127.0.0.1:{free_port()}"  # nothing listens there
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(run(base, "token", "easy", say=said.append), 2.0)

    asyncio.run(main())
    waits = [line.rsplit("in ", 1)[1] for line in said if "retrying" in line]
    assert waits[:2] == ["0.5 s", "1.0 s"]
