"""Rematches for bot accounts over /ws/bot, through real websockets: the offer, accepting
(the seat's invite follows and the bot plays the rematch), declining (a built-in bot takes
the seat), and every answer the bot may not give refused with nothing changed."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.server.helpers import live_server, play_randomly
from tests.server.test_bot_accounts import bot_with_token, person
from tripletopper.server.botclient import run
from tripletopper.server.client import TableClient

WAIT = 600.0
"""The rematch's wait: far longer than the tests, so only an answer settles a seat."""


def open_with_bot(ann: httpx.Client, csrf: dict[str, str], bot: str) -> tuple[str, str]:
    """Ann opens a two-seat Thirty-One, invites the connected bot account ``bot`` and
    starts: the table id and her seat token."""
    r = ann.post(
        "/api/tables", json={"game": "thirty-one", "players": 2, "name": "x"}, headers=csrf
    )
    table_id, token = r.json()["table"]["id"], r.json()["token"]
    mine = {**csrf, "X-Seat-Token": token}
    r = ann.post(
        f"/api/tables/{table_id}/seats/1/bot", json={"bot": f"account:{bot}"}, headers=mine
    )
    assert r.status_code == 200, r.text
    assert ann.post(f"/api/tables/{table_id}/start", headers=mine).status_code == 200
    return table_id, token


async def online(ann: httpx.Client, *bots: str) -> None:
    for _ in range(200):
        if sorted(ann.get("/api/bots/online").json()["bots"]) == sorted(bots):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{bots} did not come online")


async def play(base: str, table_id: str, token: str, seed: int) -> None:
    """Ann plays her seat to the end of the game."""
    client = TableClient(base, table_id, token)
    await client.start()
    await play_randomly([client], random.Random(seed))
    await client.close()


def ask_rematch(ann: httpx.Client, csrf: dict[str, str], table_id: str, token: str) -> str:
    r = ann.post(f"/api/tables/{table_id}/rematch", headers={**csrf, "X-Seat-Token": token})
    assert r.status_code == 200, r.text
    return str(r.json()["table"]["id"])


def seat_of(ann: httpx.Client, table_id: str, seat: int) -> dict[str, Any]:
    table = ann.get(f"/api/tables/{table_id}").json()["table"]
    return {"status": table["status"], **table["seats"][seat]}


def test_the_reference_client_accepts_a_rematch_and_plays_it(tmp_path):
    with live_server(str(tmp_path), bot_delay=0.02, rematch_wait=WAIT) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Deep Thought")
        said: list[str] = []

        async def main() -> tuple[str, str]:
            bot = asyncio.create_task(run(base, token, "random", say=said.append))
            await online(ann, "Deep Thought")
            first, mine = open_with_bot(ann, csrf, "Deep Thought")
            await play(base, first, mine, 1)
            new = ask_rematch(ann, csrf, first, mine)
            for _ in range(200):  # the bot accepts at once: nobody waits for the timer
                if seat_of(ann, new, 1)["status"] == "playing":
                    break
                await asyncio.sleep(0.05)
            await play(base, new, mine, 2)  # the bot plays its seat of the rematch
            bot.cancel()
            return first, new

        first, new = asyncio.run(main())
        assert seat_of(ann, new, 1) == {
            "status": "finished",
            "seat": 1,
            "name": "Deep Thought",
            "kind": "human",
            "bot": None,
            "bot_account": True,
        }
        assert f"accept the rematch {new} of {first}" in said
        assert sum(line.startswith("playing seat 2 of thirty-one") for line in said) == 2
        ann.close()


def test_the_reference_client_declines_rematches_when_told_to(tmp_path):
    with live_server(str(tmp_path), bot_delay=0.02, rematch_wait=WAIT) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Deep Thought")
        said: list[str] = []

        async def main() -> tuple[str, str]:
            bot = asyncio.create_task(run(base, token, "random", say=said.append, rematches=False))
            await online(ann, "Deep Thought")
            first, mine = open_with_bot(ann, csrf, "Deep Thought")
            await play(base, first, mine, 7)
            new = ask_rematch(ann, csrf, first, mine)
            for _ in range(200):
                if seat_of(ann, new, 1)["status"] == "playing":
                    break
                await asyncio.sleep(0.05)
            bot.cancel()
            return first, new

        first, new = asyncio.run(main())
        seat = seat_of(ann, new, 1)
        assert (seat["status"], seat["kind"], seat["name"]) == (
            "playing",
            "bot",
            "Deep Thought (bot)",
        )
        assert f"decline the rematch {new} of {first}" in said
        ann.close()


async def bot_socket(base: str, token: str) -> ClientConnection:
    ws = await connect(base.replace("http", "ws") + "/ws/bot")
    await ws.send(json.dumps({"type": "hello", "token": token}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def answer(ws: ClientConnection, message: dict[str, Any]) -> dict[str, Any]:
    await ws.send(json.dumps(message))
    return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))


def test_a_bot_account_declines_and_every_wrong_answer_is_refused(tmp_path):
    with live_server(str(tmp_path), bot_delay=0.02, rematch_wait=WAIT) as base:
        ann, csrf = person(base, "Ann")
        deep = bot_with_token(ann, csrf, "Deep Thought")
        other = bot_with_token(ann, csrf, "Robo")

        async def main() -> None:
            ws, robo = await bot_socket(base, deep), await bot_socket(base, other)
            await online(ann, "Deep Thought", "Robo")
            first, mine = open_with_bot(ann, csrf, "Deep Thought")
            invite = json.loads(await ws.recv())
            assert invite["type"] == "invite" and invite["rematch_of"] is None
            bot = TableClient(base, first, invite["token"])
            await bot.start()
            await asyncio.gather(play(base, first, mine, 3), play_randomly([bot], random.Random(4)))
            await bot.close()
            new = ask_rematch(ann, csrf, first, mine)
            offer = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert offer == {
                "type": "rematch",
                "table": new,
                "of": first,
                "seat": 1,
                "game": "thirty-one",
                "players": 2,
                "wait": WAIT,
            }
            offered = seat_of(ann, new, 1)
            assert (offered["status"], offered["kind"]) == ("open", "invited")
            wrong = [
                (ws, {"type": "accept"}, "malformed"),
                (ws, {"type": "accept", "table": ["x"]}, "malformed"),
                (ws, {"type": "decline", "table": "x" * 33}, "malformed"),
                (ws, {"type": "accept", "table": "nosuchtable"}, "no_table"),
                (ws, {"type": "accept", "table": first}, "no_rematch"),  # the old game
                (robo, {"type": "accept", "table": new}, "no_rematch"),  # another bot
                (robo, {"type": "decline", "table": new}, "no_rematch"),
                (ws, {"type": "answer", "table": new}, "bad_type"),
            ]
            for socket, message, code in wrong:
                got = await answer(socket, message)
                assert (got["type"], got["code"]) == ("error", code), (message, got)
                assert seat_of(ann, new, 1) == offered  # nothing changed
            # Ann's seat token cannot answer for the bot's seat either
            r = ann.delete(f"/api/tables/{first}/rematch", headers={"X-Seat-Token": mine})
            assert r.status_code == 403 and seat_of(ann, new, 1) == offered

            got = await answer(ws, {"type": "decline", "table": new})
            assert got == {"type": "declined", "table": new, "seat": 1}
            assert seat_of(ann, new, 1) == {
                "status": "playing",
                "seat": 1,
                "name": "Deep Thought (bot)",
                "kind": "bot",
                "bot": "medium",
                "bot_account": True,
            }
            got = await answer(ws, {"type": "accept", "table": new})  # too late: answered
            assert got["code"] == "no_rematch" and seat_of(ann, new, 1)["kind"] == "bot"
            await ws.close()
            await robo.close()

        asyncio.run(main())
        ann.close()
