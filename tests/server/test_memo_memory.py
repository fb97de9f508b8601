"""Memo Match through the real server: a miss's faces travel only in the live update that
turns the cards over; no observation, log line, catch-up or seat's replay names them later."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from tests.server.conftest import seat_header
from tests.server.test_memo_spotting import receive
from tests.server.test_play import CARD

TURNS = 12


def named(lines: list[dict[str, Any]]) -> set[str]:
    return {card for line in lines for card in CARD.findall(line["text"])}


def open_memo(client) -> tuple[str, list[str]]:
    body = client.post(
        "/api/tables",
        json={"game": "memo-match", "players": 2, "name": "Ann", "options": {"max_turns": TURNS}},
    ).json()
    tid, tokens = body["table"]["id"], [body["token"]]
    tokens.append(client.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"}).json()["token"])
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    return tid, tokens


def test_a_missed_pair_is_shown_while_it_is_up_and_never_named_again(client):
    tid, tokens = open_memo(client)
    updates: list[list[dict[str, Any]]] = [[], [], []]  # seat 0, seat 1, a spectator
    missed: set[str] = set()
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{tid}")) for _ in "abc"
        ]
        views = []
        for ws, token in zip(sockets, [*tokens, None], strict=True):
            ws.send_json({"type": "hello", **({"token": token} if token else {})})
            receive(ws, "welcome")
            views.append(receive(ws, "state"))
        flips = 0
        while views[0]["observation"]["result"] is None:  # the turn limit ends the game
            turn = views[0]["observation"]["turn"]
            cards = [e["action"] for e in views[turn]["legal"] if e["action"]["type"] != "declare"]
            action = cards[(flips * 7) % len(cards)]  # a flip (or a triple's bonus card)
            version = views[turn]["version"]
            sockets[turn].send_json({"type": "action", "action": action, "version": version})
            views = [receive(ws, "update") for ws in sockets]
            for box, update in zip(updates, views, strict=True):
                box.append(update)
                for event in update["events"]:  # everyone sees a miss live (public reveal)
                    if event["type"] == "missed":
                        missed |= set(event["cards"])
            flips += 1
        again = stack.enter_context(client.websocket_connect(f"/ws/tables/{tid}"))
        again.send_json({"type": "hello", "token": tokens[0]})  # reconnecting: the recent log
        receive(again, "welcome")
        catch_up = receive(again, "state")
    taken = {card for pile in views[0]["observation"]["captured_cards"] for card in pile}
    hidden = missed - taken
    assert hidden, "no missed card was left on the table"
    for box in updates:
        for update in box:
            obs = update["observation"]
            assert "recall" not in obs
            down = hidden - set(obs["face_up"].values())  # (one may be flipped up again)
            assert not down & set(CARD.findall(str(obs)))
            assert named(update["log"]) <= taken, update["log"]  # only pairs taken are named
    assert any("No match: the cards at" in line["text"] for line in catch_up["log"])
    assert named(catch_up["log"]) <= taken
    for seat, token in [(0, tokens[0]), (1, tokens[1]), (None, None)]:
        query = "" if seat is None else f"?seat={seat}"
        headers = seat_header(token) if token else {}
        replay = client.get(f"/api/tables/{tid}/replay{query}", headers=headers).json()
        assert len(replay["steps"]) == flips + 1
        for step in replay["steps"]:
            assert "recall" not in step["observation"]
            assert not hidden & {c for text in step["log"] for c in CARD.findall(text)}
