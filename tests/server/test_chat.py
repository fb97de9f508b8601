"""Chat at a table: who a line is from is the server's to say, lines are plain text within
limits, floods are refused, and every line is stored with the game (docs/protocol.md)."""

from __future__ import annotations

import sqlite3

import pytest

from tests.server.conftest import seat_header
from tests.server.test_hostile import hello, people_table, refusal, until
from tests.server.test_seats import room
from tripletopper.server.chat import CHAT_KEEP, MAX_CHAT, MAX_CHAT_LINES, MAX_SPECTATOR_LINES


def say(ws, text, **extra):
    ws.send_json({"type": "chat", "text": text, **extra})


def heard(ws):
    return until(ws, "chat", skip=("table", "pong", "state", "update"))["lines"]


def stored_chat(tmp_path):
    with sqlite3.connect(tmp_path / "tripletopper.sqlite3") as db:
        return db.execute("SELECT table_id, n, seat, name, text, version FROM chat").fetchall()


def test_lines_carry_the_seats_name_or_a_spectator_number_never_the_clients(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as bob,
            client.websocket_connect(f"/ws/tables/{table_id}") as spy,
        ):
            hello(bob, tokens[1])
            hello(spy)
            say(bob, "good luck <b>all</b>")
            line = heard(bob)[0]
            assert heard(spy) == [line]
            assert {k: line[k] for k in ("n", "seat", "name", "text", "version")} == {
                "n": 0,
                "seat": 1,
                "name": "Bob",
                "text": "good luck <b>all</b>",
                "version": 0,
            }
            say(spy, "hello players")
            assert heard(bob)[0]["name"] == "Spectator 1" and heard(spy)[0]["seat"] is None
            # a name given by the client is refused, not shown
            say(spy, "I am Ann", name="Ann")
            assert refusal(spy)["code"] == "malformed"
            say(bob, "I am Ann", seat=0)
            assert refusal(bob)["code"] == "malformed"
        assert [row[2:5] for row in stored_chat(tmp_path)] == [
            (1, "Bob", "good luck <b>all</b>"),
            (None, "Spectator 1", "hello players"),
        ]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "say something"),
        ("   \n\t ", "say something"),
        (None, "is text"),
        (7, "is text"),
        (["hi"], "is text"),
        ("x" * (MAX_CHAT + 1), f"at most {MAX_CHAT}"),
        ("x" * 3000, f"at most {MAX_CHAT}"),
        ("\u202eeno dog", "U+202E"),
        ("hi\u200bthere", "U+200B"),
        ("\x1b[31mred", "U+001B"),
        ("\ue000", "U+E000"),
        ("\U000e0041", "U+E0041"),
    ],
)
def test_a_line_that_is_no_plain_text_is_refused_and_nothing_stored(tmp_path, text, why):
    with room(tmp_path) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            say(ws, text, ref="r1")
            error = refusal(ws)
            assert (error["code"], error["ref"]) == ("bad_chat", "r1")
            assert why in error["message"], error
        assert stored_chat(tmp_path) == []


def test_lines_are_folded_to_one_line_and_emoji_sequences_kept(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            say(ws, "  well\n\nplayed\t ")
            assert heard(ws)[0]["text"] == "well played"
            family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
            say(ws, family)
            assert heard(ws)[0]["text"] == family
            say(ws, "x" * MAX_CHAT)
            assert heard(ws)[0]["text"] == "x" * MAX_CHAT


def test_a_message_too_large_for_the_socket_is_refused_before_it_is_read(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            say(ws, "x" * 5000)
            assert refusal(ws)["code"] == "too_large"
        assert stored_chat(tmp_path) == []


def test_chat_is_rate_limited_per_address(tmp_path):
    with room(tmp_path, rates={"chat": "3/minute"}) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            for i in range(3):
                say(ws, f"line {i}")
                heard(ws)
            say(ws, "one too many")
            error = refusal(ws)
            assert error["code"] == "rate_limited" and error["retry_after"] >= 1
        assert len(stored_chat(tmp_path)) == 3


def test_a_crowd_of_spectators_shares_one_rate_and_leaves_the_players_theirs(tmp_path):
    with room(tmp_path, rates={"chat": "100/minute", "spectator_chat": "2/minute"}) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ann,
            client.websocket_connect(f"/ws/tables/{table_id}") as spy,
        ):
            hello(ann, tokens[0])
            hello(spy)
            say(spy, "first")
            heard(spy)
            say(spy, "second")
            heard(spy)
            say(spy, "third")
            assert refusal(spy)["code"] == "rate_limited"
            say(ann, "players still talk")
            assert [heard(ann)[0]["text"] for _ in range(3)] == [
                "first",
                "second",
                "players still talk",
            ]


def test_a_full_chat_refuses_more_and_spectators_have_a_smaller_share(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        table = client.app.state.room.tables[table_id]
        with (
            client.websocket_connect(f"/ws/tables/{table_id}") as ann,
            client.websocket_connect(f"/ws/tables/{table_id}") as spy,
        ):
            hello(ann, tokens[0])
            hello(spy)
            table.chat_counts = (MAX_SPECTATOR_LINES, MAX_SPECTATOR_LINES)
            say(spy, "more")
            assert refusal(spy)["code"] == "chat_full"
            say(ann, "fine")
            assert heard(ann)[0]["n"] == MAX_SPECTATOR_LINES  # the players' share is left
            table.chat_counts = (MAX_CHAT_LINES, 0)
            say(ann, "more")
            assert refusal(ann)["code"] == "chat_full"
        assert len(stored_chat(tmp_path)) == 1


def test_a_seat_name_cannot_pass_for_a_spectator(client):
    table = client.post("/api/tables", json={"game": "toe", "name": "Ann"}).json()["table"]
    for name in ("Spectator 1", "spectator", "ＳＰＥＣＴＡＴＯＲ ２", "Spectator  3"):
        r = client.post(f"/api/tables/{table['id']}/seats/1", json={"name": name})
        assert r.json()["code"] == "bad_name", name


def test_chat_is_stored_with_the_game_sent_on_hello_and_in_the_replay(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = people_table(
            client, "thirty-two", ["Ann", "Bob", "Cat"], options={"end": "open"}
        )
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws, tokens[0])
            say(ws, "before")
            heard(ws)
            ws.send_json(
                {"type": "action", "action": {"type": "close"}, "table": True, "version": 0}
            )
            until(ws, "update")
            say(ws, "gg")
            heard(ws)
    with room(tmp_path) as client:  # a restart: the lines come from the database
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws)
            lines = heard(ws)
            assert [(x["name"], x["text"], x["version"]) for x in lines] == [
                ("Ann", "before", 0),
                ("Ann", "gg", 1),
            ]
            say(ws, "nice game")  # spectators keep counting after the restart
            assert heard(ws)[0]["n"] == 2
        replay = client.get(f"/api/tables/{table_id}/replay").json()
        assert [x["text"] for x in replay["chat"]] == ["before", "gg", "nice game"]
        mine = client.get(
            f"/api/tables/{table_id}/replay", params={"seat": 0}, headers=seat_header(tokens[0])
        ).json()
        assert [x["text"] for x in mine["chat"]] == ["before", "gg", "nice game"]


def test_a_hello_sends_only_the_latest_lines(tmp_path):
    with room(tmp_path, rates={}) as client:
        table_id, tokens = people_table(client, "toe", ["Ann", "Bob"])
        for part in range(0, CHAT_KEEP + 5, 50):  # (under a connection's message rate)
            with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
                hello(ws, tokens[0])
                for i in range(part, min(part + 50, CHAT_KEEP + 5)):
                    say(ws, f"line {i}")
                    while heard(ws)[-1]["text"] != f"line {i}":
                        pass
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            hello(ws)
            lines = heard(ws)
            assert len(lines) == CHAT_KEEP and lines[-1]["text"] == f"line {CHAT_KEEP + 4}"
            assert lines[0]["n"] == 5
