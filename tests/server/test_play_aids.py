"""What the room adds to the engine's view to help people play: moves a turn clock played
are said to be the clock's (live, after a restart and in the replay), the score each
discard would keep, the game's hints at tables that turn them on, and the unit of scores."""

from __future__ import annotations

import pytest

from tests.server.conftest import seat_header
from tests.server.test_clocks import hello, next_update, seated
from tripletopper.server.app import ServerConfig, create_app
from tripletopper.server.tables import Settings

from .conftest import TestClient
from .helpers import stored_table


def app_on(data_dir) -> TestClient:
    return TestClient(
        create_app(ServerConfig(data_dir=str(data_dir), settings=Settings(bot_delay=0)))
    )


def lines(message) -> list[str]:
    return [line["text"] for line in message["log"]]


def test_moves_a_turn_clock_played_are_the_clocks_live_after_a_restart_and_in_the_replay(
    tmp_path,
):
    # Toe with one turn: the clock draws and plays for X, and the game is over (a draw).
    table_id, tokens = stored_table(
        str(tmp_path),
        "toe",
        2,
        people={0: "Ann", 1: "Bob"},
        options={"max_turns": 1},
        setup={"x": 0},
        turn_clock=1,
    )
    with (
        app_on(tmp_path) as client,
        client.websocket_connect(f"/ws/tables/{table_id}") as ann,
        client.websocket_connect(f"/ws/tables/{table_id}") as bob,
    ):
        assert hello(ann, tokens[0])["version"] == 0
        hello(bob, tokens[1])
        drew, bob_drew = next_update(ann), next_update(bob)
        assert drew["actor"] == 0 and drew["by_clock"] is True
        assert lines(drew)[0] == "Time ran out: the clock played for you."
        assert lines(drew)[1].startswith("You draw ")
        assert lines(bob_drew)[:2] == [
            "Time ran out: the clock played for Ann.",
            "Ann draws a card.",
        ]
        played = next_update(ann)
        assert played["by_clock"] is True and played["status"] == "finished"
    with app_on(tmp_path) as client:  # the stored actions say who played them
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[1], "version": 0})
            assert ws.receive_json()["type"] == "welcome"
            caught_up = ws.receive_json()
        assert caught_up["resync"] is False
        said = lines(caught_up)
        assert said.count("Time ran out: the clock played for Ann.") == 2
        replay = client.get(f"/api/tables/{table_id}/replay").json()
        assert [step["log"][0] for step in replay["steps"][1:]] == [
            "Time ran out: the clock played for Ann.",
            "Time ran out: the clock played for Ann.",
        ]


def test_a_move_the_player_made_is_not_the_clocks(client):
    tid, tokens = seated(client, "thirty-two", 3, ["Ann", "Bob", "Cat"], turn_clock=600)
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        seat = hello(ws, tokens[0])["to_act"][0]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        hello(ws, tokens[seat])
        ws.send_json({"type": "action", "action": {"type": "draw"}, "version": 0})
        update = next_update(ws)
        assert update["by_clock"] is False and lines(update)[0].startswith("You draw ")


def test_each_discard_in_the_legal_list_says_what_it_keeps(tmp_path):
    hands = {0: "RC1 YH2 GT3", 1: "BS4 BB4 RC2", 2: "YC1 GS2 BT1"}
    order = [hands[seat].split()[i] for i in range(3) for seat in (0, 1, 2)]
    table_id, tokens = stored_table(
        str(tmp_path),
        "thirty-two",
        3,
        people={0: "Ann", 1: "Bob", 2: "Cat"},
        options={"counters": 20},
        decks=[[*order, "RS1", "KB?"]],
        setup={"dealer": 2},
    )
    with app_on(tmp_path) as client:
        with client.websocket_connect(f"/ws/tables/{table_id}") as ann:
            assert [e.get("preview") for e in hello(ann, tokens[0])["legal"]] == [None] * 3
            ann.send_json({"type": "action", "action": {"type": "knock"}, "version": 0})
            next_update(ann)
        with client.websocket_connect(f"/ws/tables/{table_id}") as bob:
            hello(bob, tokens[1])
            bob.send_json({"type": "action", "action": {"type": "draw"}, "version": 1})
            legal = next_update(bob)["legal"]
    assert [(e["text"], e["preview"]) for e in legal] == [
        ("discard BS4", "keeps 26, 4 wilds"),
        ("discard BB4", "keeps 21, 3 wilds"),
        ("discard RC2", "keeps 32, 4 wilds"),
        ("discard KB?", "keeps 20, 1 wild"),
        ("discard RC2 declare", "keeps 32, 4 wilds"),
    ]


def test_hints_are_in_the_view_only_at_tables_that_turn_them_on(client):
    tid, tokens = seated(client, "toe", 2, ["Ann", "Bob"], hints=True)
    assert client.get(f"/api/tables/{tid}").json()["table"]["hints"] is True
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert hello(ws, tokens[0])["hints"] == {"threats": []}
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # a spectator: public hints
        ws.send_json({"type": "hello"})
        ws.receive_json()
        assert ws.receive_json()["hints"] == {"threats": []}
    plain, tokens = seated(client, "toe", 2, ["Ann", "Bob"])
    assert client.get(f"/api/tables/{plain}").json()["table"]["hints"] is False
    client.post(f"/api/tables/{plain}/start", headers=seat_header(tokens[0]))
    with client.websocket_connect(f"/ws/tables/{plain}") as ws:
        assert "hints" not in hello(ws, tokens[0])
    refused = client.post("/api/tables", json={"game": "toe", "hints": [1]})
    assert refused.status_code == 422 and refused.json()["code"] == "malformed"


@pytest.mark.parametrize(
    ("game", "players", "unit"),
    [
        ("thirty-two", 3, ["counter", "counters"]),
        ("thirty-one", 2, ["life", "lives"]),
        ("toe", 2, ["mark", "marks"]),
        ("three-up-three-down", 2, ["card left", "cards left"]),
        ("memo-match", 2, ["card taken", "cards taken"]),
        ("memo-match", 1, ["turn", "turns"]),  # solitaire counts the turns it took
    ],
)
def test_a_table_says_what_its_scores_count(client, game, players, unit):
    table = client.post("/api/tables", json={"game": game, "players": players}).json()["table"]
    assert table["score_unit"] == unit


def test_a_rematch_keeps_the_tables_hints(tmp_path):
    table_id, tokens = stored_table(
        str(tmp_path),
        "toe",
        2,
        people={0: "Ann", 1: "Bob"},
        options={"max_turns": 1},
        setup={"x": 0},
        turn_clock=1,
        hints=True,
    )
    with app_on(tmp_path) as client, client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        hello(ws, tokens[0])
        while next_update(ws)["status"] != "finished":
            pass
        made = client.post(f"/api/tables/{table_id}/rematch", headers=seat_header(tokens[0]))
        assert made.json()["table"]["hints"] is True
