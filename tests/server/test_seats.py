"""Seats after the start: leaving to a bot and taking the seat back with the same token,
and rematches that ask each person before seating them (docs/protocol.md)."""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path

from tests.server.conftest import TestClient, seat_header
from tests.server.test_hostile import hello, people_table, refusal, until, version_of
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.tables import Settings


@contextmanager
def room(tmp_path: Path, **settings: object):
    config = ServerConfig(data_dir=str(tmp_path), settings=Settings(**{"bot_delay": 0, **settings}))
    with TestClient(create_app(config)) as client:
        yield client


def seats(client, table_id):
    return client.get(f"/api/tables/{table_id}").json()["table"]["seats"]


def leave(client, table_id, seat, token):
    return client.delete(f"/api/tables/{table_id}/seats/{seat}", headers=seat_header(token))


def take_back(client, table_id, seat, token):
    headers = seat_header(token) if token else {}
    return client.post(f"/api/tables/{table_id}/seats/{seat}/return", headers=headers)


def first_to_act(client, table_id):
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        return hello(ws)["to_act"][0]


# --- leaving and coming back ---------------------------------------------------------------


def test_a_person_who_left_takes_the_seat_back_before_the_bot_moves(tmp_path):
    # the bot decides at once but waits 30 s before acting: it must not act once Bob is back
    with room(tmp_path, bot_delay=30) as client:
        table_id, tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        seat = first_to_act(client, table_id)
        token = tokens[seat]
        name = seats(client, table_id)[seat]["name"]
        assert leave(client, table_id, seat, token).status_code == 200
        left = seats(client, table_id)[seat]
        assert (left["kind"], left["name"], left["bot"]) == ("bot", f"{name} (bot)", "medium")
        time.sleep(0.3)  # the bot has its decision and waits out its delay
        r = take_back(client, table_id, seat, token)
        assert r.status_code == 200, r.text
        back = r.json()["table"]["seats"][seat]
        assert (back["kind"], back["name"], back["bot"]) == ("human", name, None)
        assert (
            client.get(f"/api/tables/{table_id}", headers=seat_header(token)).json()["seat"] == seat
        )
        table = client.app.state.room.tables[table_id]
        assert seat not in table.bots
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            state = hello(ws, token)
            assert state["seat"] == seat and state["legal"]
            assert state["version"] == 0  # the bot never played
            ws.send_json({"type": "action", "action": {"type": "draw"}, "version": 0})
            assert until(ws, "update")["actor"] == seat


def test_only_the_token_that_held_a_seat_takes_it_back(tmp_path):
    with room(tmp_path, bot_delay=30) as client:
        table_id, tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        _other, other_tokens = people_table(client, "thirty-two", ["Dan", "Eve", "Fay"])
        assert leave(client, table_id, 1, tokens[1]).status_code == 200
        before = seats(client, table_id)
        for token in (tokens[0], tokens[2], other_tokens[1], "forged", None):
            r = take_back(client, table_id, 1, token)
            assert r.status_code == 403 and r.json()["code"] == "not_your_seat", (token, r.text)
        r = take_back(client, table_id, 0, tokens[0])  # a seat still played by its person
        assert r.status_code == 400 and r.json()["code"] == "seated"
        assert take_back(client, table_id, 0, tokens[1]).json()["code"] == "not_your_seat"
        assert take_back(client, table_id, 7, tokens[1]).json()["code"] == "not_your_seat"
        assert take_back(client, table_id, -1, tokens[1]).json()["code"] == "not_your_seat"
        assert take_back(client, table_id, 1, tokens[1]).status_code == 200
        assert seats(client, table_id)[1] == {
            **before[1],
            "name": "Bob",
            "kind": "human",
            "bot": None,
        }
        # back once: the token holds the seat again, so a second return is refused
        assert take_back(client, table_id, 1, tokens[1]).json()["code"] == "seated"


def test_leaving_again_says_why_not_and_the_leaver_watches_under_their_name(tmp_path):
    with room(tmp_path, bot_delay=30) as client:
        table_id, tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        assert leave(client, table_id, 1, tokens[1]).status_code == 200
        r = leave(client, table_id, 1, tokens[1])
        assert r.status_code == 403 and r.json()["code"] == "left"
        assert r.json()["message"].startswith("you left seat 2: a bot plays it for you")
        assert r.json()["seat"] == 1
        me = client.get(f"/api/tables/{table_id}", headers=seat_header(tokens[1])).json()
        assert (me["seat"], me["away"], me["invited"]) == (None, 1, None)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[1]})  # no bad_token: watching
            assert ws.receive_json() == {
                "type": "welcome",
                "table": table_id,
                "seat": None,
                "away": 1,
                "invited": None,
            }
            state = ws.receive_json()
            assert state["seat"] is None and "hand" not in state["observation"]
            ws.send_json({"type": "action", "action": {"type": "draw"}, "version": 0})
            assert refusal(ws)["code"] == "not_seated"


def test_the_leavers_page_stops_calling_the_bot_you(tmp_path):
    """Bob's open connection is told he now watches, gets the public view, and the bot's
    moves are narrated under its name."""
    with room(tmp_path, bot_delay=0) as client:
        table_id, tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        seat = first_to_act(client, table_id)
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert "hand" in hello(ws, tokens[seat])["observation"]
            leave(client, table_id, seat, tokens[seat])
            told = until(ws, "seat")
            assert told == {"type": "seat", "seat": None, "away": seat}
            state = until(ws, "state")
            assert state["seat"] is None and "hand" not in state["observation"]
            assert state["table"]["seats"][seat]["kind"] == "bot"  # the new summary
            update = until(ws, "update")  # the bot plays the seat's turn
            assert update["actor"] == seat
            name = seats(client, table_id)[seat]["name"]
            texts = [line["text"] for line in update["log"]]
            assert texts and all(text.startswith(name) for text in texts), texts
            assert not any("You" in text for text in texts)


def test_a_seat_is_not_taken_back_after_the_game(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = people_table(
            client, "thirty-two", ["Ann", "Bob", "Cat"], options={"end": "open"}
        )
        leave(client, table_id, 2, tokens[2])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            ws.send_json(
                {
                    "type": "action",
                    "action": {"type": "close"},
                    "table": True,
                    "version": version_of(client, table_id),
                }
            )
            while until(ws, "table")["table"]["status"] != "finished":
                pass
        r = take_back(client, table_id, 2, tokens[2])
        assert r.status_code == 400 and r.json()["code"] == "not_playing"
        # the leaver may still replay the game from the seat they left
        mine = client.get(
            f"/api/tables/{table_id}/replay", params={"seat": 2}, headers=seat_header(tokens[2])
        )
        assert mine.status_code == 200 and "hand" in mine.json()["steps"][0]["observation"]


# --- rematches ask each person -------------------------------------------------------------


def finished_table(client, names, *, bots=0, leavers=()):
    """A finished Thirty-Two game of ``names`` and ``bots`` medium bots (closed at once;
    the people of seats ``leavers`` left it to bots first)."""
    players = len(names) + bots
    r = client.post(
        "/api/tables",
        json={
            "game": "thirty-two",
            "players": players,
            "name": names[0],
            "options": {"end": "open"},
        },
    )
    table_id, tokens = r.json()["table"]["id"], [r.json()["token"]]
    for seat, name in enumerate(names[1:], 1):
        tokens.append(
            client.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": name}).json()["token"]
        )
    for seat in range(len(names), players):
        client.post(
            f"/api/tables/{table_id}/seats/{seat}/bot",
            json={"bot": "medium"},
            headers=seat_header(tokens[0]),
        )
    client.post(f"/api/tables/{table_id}/start", headers=seat_header(tokens[0]))
    for seat in leavers:
        leave(client, table_id, seat, tokens[seat])
    table = client.app.state.room.tables[table_id]
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[0])
        ws.send_json(
            {"type": "action", "action": {"type": "close"}, "table": True, "version": table.version}
        )
        while until(ws, "table")["table"]["status"] != "finished":
            pass
    return table_id, tokens


def ask(client, table_id, token):
    return client.post(f"/api/tables/{table_id}/rematch", headers=seat_header(token))


def decline(client, table_id, token):
    return client.delete(f"/api/tables/{table_id}/rematch", headers=seat_header(token))


def test_a_rematch_seats_only_who_asked_and_offers_the_others_their_seat(tmp_path):
    with room(tmp_path, bot_delay=30, rematch_wait=3600) as client:
        table_id, tokens = finished_table(client, ["Ann", "Bob", "Cat"], bots=1)
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as bob,
            client.websocket_connect(f"/ws/tables/{table_id}") as spy,
        ):
            hello(bob, tokens[1])
            hello(spy)
            r = ask(client, table_id, tokens[0])
            new = r.json()["table"]
            assert new["status"] == "open" and new["rematch_of"] == table_id
            assert [s["kind"] for s in new["seats"]] == ["human", "invited", "invited", "bot"]
            assert [s["name"] for s in new["seats"]] == ["Ann", "Bob", "Cat", "Medium bot"]
            offer = {"type": "rematch", "table": new["id"], "by": 0, "wait": 3600}
            assert until(bob, "rematch") == offer
            assert until(spy, "rematch") == offer  # told, not moved: they choose to follow
        # an invited person does not play yet: not seated, not able to start
        me = client.get(f"/api/tables/{new['id']}", headers=seat_header(tokens[1])).json()
        assert (me["seat"], me["invited"]) == (None, 1)
        r = client.post(f"/api/tables/{new['id']}/start", headers=seat_header(tokens[0]))
        assert r.json()["code"] == "seats_empty" and "not answered" in r.json()["message"]
        # nobody else may take an offered seat
        r = client.post(f"/api/tables/{new['id']}/seats/1", json={"name": "Mallory"})
        assert r.json()["code"] == "seat_taken"
        # Bob accepts; Cat declines: the game starts with a bot for Cat
        assert ask(client, table_id, tokens[1]).json()["table"]["status"] == "open"
        assert ask(client, table_id, tokens[1]).json()["table"]["id"] == new["id"]  # again
        r = decline(client, table_id, tokens[2])
        table = r.json()["table"]
        assert table["status"] == "playing"
        assert [(s["kind"], s["name"]) for s in table["seats"]] == [
            ("human", "Ann"),
            ("human", "Bob"),
            ("bot", "Cat (bot)"),
            ("bot", "Medium bot"),
        ]
        # Cat changes her mind: asking now takes her seat back from the bot
        r = ask(client, table_id, tokens[2])
        assert r.json()["table"]["seats"][2] == {
            "seat": 2,
            "name": "Cat",
            "kind": "human",
            "bot": None,
            "bot_account": False,
        }


def test_people_who_do_not_answer_in_time_get_bots_and_may_come_back(tmp_path):
    with room(tmp_path, bot_delay=30, rematch_wait=0.2) as client:
        table_id, tokens = finished_table(client, ["Ann", "Bob", "Cat"])
        new = ask(client, table_id, tokens[2]).json()["table"]["id"]
        ends = time.monotonic() + 10
        while seats(client, new)[0]["kind"] == "invited" and time.monotonic() < ends:
            time.sleep(0.05)
        summary = client.get(f"/api/tables/{new}").json()["table"]
        assert summary["status"] == "playing"
        assert [s["kind"] for s in summary["seats"]] == ["bot", "bot", "human"]
        assert take_back(client, new, 1, tokens[1]).status_code == 200
        assert client.get(f"/api/tables/{new}", headers=seat_header(tokens[1])).json()["seat"] == 1


def test_a_rematch_waiting_when_the_server_stopped_is_settled_by_the_sweep(tmp_path):
    with room(tmp_path, rematch_wait=3600) as client:
        table_id, tokens = finished_table(client, ["Ann", "Bob", "Cat"])
        new = ask(client, table_id, tokens[0]).json()["table"]["id"]
    with room(tmp_path, rematch_wait=0.0, bot_delay=30) as client:
        assert client.get(f"/api/tables/{new}").json()["table"]["status"] == "open"
        room_ = client.app.state.room
        assert client.portal.call(room_.settle_rematches) == 1
        summary = client.get(f"/api/tables/{new}").json()["table"]
        assert summary["status"] == "playing"
        assert [s["kind"] for s in summary["seats"]] == ["human", "bot", "bot"]


def test_a_rematch_nobody_stays_for_expires_and_can_be_asked_again(tmp_path):
    with room(tmp_path, rematch_wait=3600) as client:
        table_id, tokens = finished_table(client, ["Ann", "Bob"], bots=1)
        new = ask(client, table_id, tokens[0]).json()["table"]["id"]
        assert leave(client, new, 0, tokens[0]).status_code == 200  # Ann changes her mind
        assert decline(client, table_id, tokens[1]).status_code == 200
        assert client.get(f"/api/tables/{new}").json()["code"] == "expired"
        again = ask(client, table_id, tokens[1]).json()["table"]
        assert again["id"] != new and [s["kind"] for s in again["seats"]] == [
            "invited",
            "human",
            "bot",
        ]


def test_who_may_ask_or_decline_a_rematch(tmp_path):
    with room(tmp_path, rematch_wait=3600, bot_delay=30) as client:
        table_id, tokens = finished_table(client, ["Ann", "Bob", "Cat"])
        playing, playing_tokens = people_table(client, "thirty-two", ["Dan", "Eve", "Fay"])
        assert ask(client, table_id, "forged").json()["code"] == "not_seated"
        assert client.post(f"/api/tables/{table_id}/rematch").json()["code"] == "not_seated"
        assert ask(client, playing, playing_tokens[0]).json()["code"] == "not_finished"
        r = decline(client, table_id, tokens[1])
        assert r.status_code == 400 and r.json()["code"] == "no_rematch"
        ask(client, table_id, tokens[0])
        for token in ("forged", tokens[0], playing_tokens[1]):
            assert decline(client, table_id, token).json()["code"] == "not_seated", token
        # a person who left the game to a bot is not asked: the bot plays on
        left, left_tokens = finished_table(client, ["Dan", "Eve", "Fay"], leavers=[2])
        new = ask(client, left, left_tokens[0]).json()["table"]
        assert [(s["kind"], s["name"]) for s in new["seats"]] == [
            ("human", "Dan"),
            ("invited", "Eve"),
            ("bot", "Fay bot"),
        ]
        assert ask(client, left, left_tokens[2]).json()["code"] == "left"
