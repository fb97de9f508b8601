"""The websocket protocol against bad clients: every refusal is an error to that
client only, and nothing changes."""

from __future__ import annotations

import json

from tests.server.conftest import seat_header
from tripletopper.server.protocol import BURST


def three_humans(client):
    body = client.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"})
    tid, tokens = body.json()["table"]["id"], [body.json()["token"]]
    for seat, name in ((1, "Bob"), (2, "Cat")):
        tokens.append(
            client.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name}).json()["token"]
        )
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    return tid, tokens


def hello(ws, token=None, version=None):
    ws.send_json({"type": "hello", "token": token, "version": version})
    welcome = ws.receive_json()
    assert welcome["type"] == "welcome"
    state = ws.receive_json()
    assert state["type"] == "state"
    return welcome, state


def test_a_seat_sees_its_hand_and_its_legal_actions_a_spectator_neither(client):
    tid, tokens = three_humans(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        welcome, state = hello(ws, tokens[1])
        assert welcome["seat"] == 1
        assert len(state["observation"]["hand"]) == 3
        if 1 in state["to_act"]:
            labels = {a["label"] for a in state["legal"]}
            assert {"take the face-up card", "draw from the stock", "knock"} <= labels
        else:
            assert state["legal"] == []
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        welcome, state = hello(ws)
        assert welcome["seat"] is None
        assert "hand" not in state["observation"] and state["legal"] == []


def test_bad_messages_get_errors_and_change_nothing(client):
    tid, tokens = three_humans(client)
    errors = []
    with client.websocket_connect(f"/ws/tables/{tid}") as probe:
        _, state = hello(probe)
    turn = state["to_act"][0]
    other = (turn + 1) % 3
    with (
        client.websocket_connect(f"/ws/tables/{tid}") as mover,
        client.websocket_connect(f"/ws/tables/{tid}") as idle,
    ):
        mover.send_json({"type": "action", "action": {"type": "draw"}, "version": 0})
        errors.append(mover.receive_json())  # hello first
        hello(mover, tokens[turn])
        hello(idle, tokens[other])

        def refused(ws, text):
            ws.send_text(text)
            reply = ws.receive_json()
            assert reply["type"] == "error", reply
            errors.append(reply)
            return reply["code"]

        assert refused(mover, "{not json") == "malformed"
        assert refused(mover, "[1, 2]") == "malformed"
        assert refused(mover, json.dumps({"type": "dance"})) == "unknown_type"
        assert refused(mover, json.dumps({"type": "hello"})) == "already_joined"
        act = {"type": "action", "version": 0}
        assert refused(mover, json.dumps({**act, "action": {"type": "fly"}})) == "malformed"
        assert refused(mover, json.dumps({**act, "action": "draw"})) == "malformed"
        assert (
            refused(mover, json.dumps({**act, "action": {"type": "discard", "card": "RC1"}}))
            == "illegal"
        )
        assert refused(mover, json.dumps({**act, "version": 5, "action": {"type": "draw"}})) == (
            "stale"
        )
        assert (
            refused(mover, json.dumps({**act, "version": None, "action": {"type": "draw"}}))
            == "malformed"
        )
        assert refused(mover, json.dumps({**act, "action": {"type": "draw"}, "x": 1})) == (
            "malformed"
        )
        assert (
            refused(mover, json.dumps({**act, "action": {"type": "close"}, "table": True}))
            == "illegal"
        )
        assert refused(idle, json.dumps({**act, "action": {"type": "draw"}})) == "illegal"
        assert refused(mover, json.dumps({"type": "ping", "pad": "x" * 5000})) == "too_large"
        with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
            hello(spectator)
            assert refused(spectator, json.dumps({**act, "action": {"type": "draw"}})) == (
                "not_seated"
            )
        with client.websocket_connect(f"/ws/tables/{tid}") as stranger:
            stranger.send_json({"type": "hello", "token": "forged"})
            assert stranger.receive_json()["code"] == "bad_token"
        # nothing changed: the version is still 0 and the mover may still draw
        mover.send_json({**act, "action": {"type": "draw"}, "ref": "r1"})
        update = mover.receive_json()
        assert update["type"] == "update" and update["version"] == 1
        assert mover.receive_json() == {"type": "ack", "ref": "r1", "version": 1}
        assert idle.receive_json()["version"] == 1  # the other seat hears of it once
    for error in errors:
        assert "Traceback" not in error["message"] and error["message"]
    assert errors[0]["code"] == "hello_first"


def test_flooding_is_rate_limited_then_cut_off(client):
    tid, tokens = three_humans(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, tokens[0])
        for _ in range(400):
            ws.send_json({"type": "ping"})
        kinds = []
        try:
            while True:
                message = ws.receive()
                if message["type"] == "websocket.close":
                    break
                kinds.append(json.loads(message["text"]).get("code") or "pong")
        except Exception:
            pass
    assert kinds.count("pong") <= BURST + 10
    assert "rate_limited" in kinds
    assert len(kinds) < 400  # cut off before the end of the flood


def test_catch_up_sends_only_what_was_missed(client):
    tid, tokens = three_humans(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _, state = hello(ws, tokens[0])
    turn = state["to_act"][0]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, tokens[turn])
        ws.send_json({"type": "action", "version": 0, "action": {"type": "knock"}})
        assert ws.receive_json()["version"] == 1
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _, caught_up = hello(ws, tokens[0], version=0)
        assert not caught_up["resync"] and [line["version"] for line in caught_up["log"]] == [1]
        assert "knock" in caught_up["log"][0]["text"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _, fresh = hello(ws, tokens[0], version=None)
        assert fresh["resync"] and fresh["version"] == 1
