"""Clocks run on the server: turn clocks play a safe default (or a bot's move), timed
phases end with the game's timeout action, and phases where several seats may act
are raced fairly (the first valid action wins, the other is told it is stale)."""

from __future__ import annotations

import json
import time

import pytest

from tests.server.conftest import seat_header
from tests.test_simultaneous import Buzzer, BuzzerState
from tripletopper.engine import CLOCK, CLOCK_ONLY, Action
from tripletopper.games import GAMES


class QuickBuzzerState(BuzzerState):
    def timeout(self) -> tuple[float, Action] | None:
        return (0.3, ("timeout",)) if self.winner == -1 else None


class QuickBuzzer(Buzzer):
    def new_state(self, seed=0, *, decks=None, **setup):
        return QuickBuzzerState(self, {"seed": seed, "decks": None, "setup": {}})


@pytest.fixture
def buzzer(monkeypatch):
    monkeypatch.setitem(GAMES, "buzzer", QuickBuzzer)


def seated(client, game, players, names, **extra):
    body = client.post(
        "/api/tables", json={"game": game, "players": players, "name": names[0], **extra}
    ).json()
    tid, tokens = body["table"]["id"], [body["token"]]
    for seat, name in enumerate(names[1:], 1):
        tokens.append(
            client.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name}).json()["token"]
        )
    return tid, tokens


def next_update(ws):
    while True:
        message = ws.receive_json()
        if message["type"] in ("update", "error"):
            return message


def hello(ws, token):
    ws.send_json({"type": "hello", "token": token})
    assert ws.receive_json()["type"] == "welcome"
    return ws.receive_json()


def test_a_timed_phase_ends_with_the_tables_timeout_action(client, buzzer):
    tid, tokens = seated(client, "buzzer", 2, ["Ann", "Bob"])
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, tokens[0])
        started = time.monotonic()
        client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
        first = next_update(ws)
        assert first["version"] == 0 and first["to_act"] == [0, 1]
        assert first["clock"]["phase_deadline"] > first["clock"]["now"]
        over = next_update(ws)
        assert time.monotonic() - started >= 0.25
        assert over["actor"] == CLOCK and over["status"] == "finished"
        assert over["events"] == [{"type": "timeout", "seat": CLOCK}]
        assert over["results"]["winners"] == []


@pytest.mark.parametrize("as_table", [True, False])
def test_no_player_may_play_the_clocks_timeout(client, as_table):
    """Not even as the table (``"table": true``, which closes an open Thirty-Two table)."""
    options = {"quiz": True, "buzz_seconds": 600}
    tid, tokens = seated(client, "toe", 2, ["Ann", "Bob"], options=options)
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws, tokens[0])["observation"]["phase"] == "buzz"
        ws.send_json(
            {"type": "action", "version": 0, "table": as_table, "action": {"type": "timeout"}}
        )
        refused = next_update(ws)
        assert refused["type"] == "error" and refused["code"] == "illegal"
        assert CLOCK_ONLY in refused["message"] and refused["version"] == 0
        ws.send_json({"type": "sync", "version": 0})
        again = ws.receive_json()
        assert again["type"] == "state" and again["version"] == 0  # nothing changed


def test_several_seats_race_and_the_slower_one_is_told_it_is_stale(client, buzzer):
    tid, tokens = seated(client, "buzzer", 2, ["Ann", "Bob"])
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    with (
        client.websocket_connect(f"/ws/tables/{tid}") as ann,
        client.websocket_connect(f"/ws/tables/{tid}") as bob,
    ):
        assert hello(ann, tokens[0])["legal"] == [
            {"action": {"type": "buzz"}, "label": "buzz", "text": "buzz"}
        ]
        assert hello(bob, tokens[1])["legal"]
        ann.send_json({"type": "action", "version": 0, "action": {"type": "buzz"}})
        bob.send_json({"type": "action", "version": 0, "action": {"type": "buzz"}})
        assert next_update(ann)["results"]["winners"] == [0]
        assert next_update(bob)["version"] == 1
        late = next_update(bob)
        assert late["type"] == "error" and late["code"] in ("stale", "not_playing")


def test_a_bot_races_people_in_a_simultaneous_phase(client, monkeypatch):
    monkeypatch.setitem(GAMES, "buzzer", Buzzer)  # 3 s: time to start a bot worker process
    tid, tokens = seated(client, "buzzer", 2, ["Ann"])
    client.post(
        f"/api/tables/{tid}/seats/1/bot", json={"bot": "random"}, headers=seat_header(tokens[0])
    )
    with client.websocket_connect(f"/ws/tables/{tid}") as ann:
        hello(ann, tokens[0])
        client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
        next_update(ann)
        assert next_update(ann)["results"]["winners"] == [1]  # the bot buzzed at once


@pytest.mark.parametrize("on_timeout", ["default", "bot"])
def test_a_turn_clock_plays_for_a_player_who_does_not_act(client, on_timeout):
    tid, tokens = seated(
        client, "thirty-two", 3, ["Ann", "Bob", "Cat"], turn_clock=1, on_timeout=on_timeout
    )
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, tokens[0])
        client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
        start = next_update(ws)
        turn = start["to_act"][0]
        deadline = start["clock"]["deadlines"][str(turn)]
        assert deadline - start["clock"]["now"] == pytest.approx(1, abs=0.2)
        first = next_update(ws)
        assert first["actor"] == turn and first["version"] == 1
        assert time.time() >= deadline - 0.05
        if on_timeout == "default":  # Thirty-Two's safe default: draw, then the best discard
            assert first["events"][0]["type"] == "drew"
    table = client.get(f"/api/tables/{tid}").json()["table"]
    assert json.dumps(table).count("deadline") == 0


class SlowBuzzerState(BuzzerState):
    def timeout(self) -> tuple[float, Action] | None:
        return (1.5, ("timeout",)) if self.winner == -1 else None


class SlowBuzzer(Buzzer):
    def new_state(self, seed=0, *, decks=None, **setup):
        return SlowBuzzerState(self, {"seed": seed, "decks": None, "setup": {}})


@pytest.mark.parametrize("game", ["buzzer", "thirty-two"])
def test_clocks_resume_after_a_restart(tmp_path, monkeypatch, game):
    """A phase clock (buzzer) or a turn clock (thirty-two) that was running when the
    server stopped fires after the restart, from the stored time of the last action."""
    import asyncio

    import httpx

    from tests.server.helpers import free_port, live_server
    from tripletopper.server.client import TableClient

    monkeypatch.setitem(GAMES, "buzzer", SlowBuzzer)
    port = free_port()
    players = 2 if game == "buzzer" else 3
    clock = None if game == "buzzer" else 2
    with live_server(str(tmp_path), port=port) as base, httpx.Client(base_url=base) as http:
        body = http.post(
            "/api/tables",
            json={"game": game, "players": players, "name": "Ann", "turn_clock": clock},
        ).json()
        tid, ann = body["table"]["id"], body["token"]
        for seat in range(1, players):
            http.post(f"/api/tables/{tid}/seats/{seat}", json={"name": f"P{seat}"})
        http.post(f"/api/tables/{tid}/start", headers={"X-Seat-Token": ann})
        started = time.monotonic()
    assert time.monotonic() - started < 1.0  # stopped before the clock ran out
    with live_server(str(tmp_path), port=port) as base:

        async def watch() -> TableClient:
            async with TableClient(base, tid, ann) as client:
                await client.wait(lambda c: c.version >= 1, timeout=10)
                return client

        client = asyncio.run(watch())
    assert time.monotonic() - started >= 1.4
    if game == "buzzer":
        assert client.finished and client.results["winners"] == []
    else:
        assert client.version >= 1 and not client.finished
