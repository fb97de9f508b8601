"""The HTTP API: games, opening tables, seats, bots, start, leave, rematch, errors."""

from __future__ import annotations

from tests.server.conftest import seat_header


def new_table(client, **body):
    body.setdefault("game", "thirty-two")
    body.setdefault("players", 3)
    return client.post("/api/tables", json=body)


def test_games_list_their_options_and_bots(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    tt = games["thirty-two"]
    assert (tt["min_players"], tt["max_players"]) == (3, 6)
    assert [o["name"] for o in tt["options"]] == ["counters", "no_wilds", "cap_at_32", "end"]
    names = [b["name"] for b in tt["bots"]]
    assert names[:4] == ["easy", "medium", "hard", "expert"]  # levels first, weakest first
    assert {"heuristic", "random", "ismcts"} <= set(names)


def test_a_table_is_created_with_engine_validated_options(client):
    r = new_table(client, options={"counters": 9, "end": "open"}, name="Ann")
    assert r.status_code == 201
    body = r.json()
    assert body["table"]["options"]["counters"] == 9
    assert body["seat"] == 0 and len(body["token"]) > 20
    assert body["table"]["seats"][0] == {
        "seat": 0,
        "name": "Ann",
        "kind": "human",
        "bot": None,
        "bot_account": False,
    }
    assert "token" not in str(body["table"])  # the summary holds no secret
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [body["table"]["id"]]


def test_a_quiz_show_table_gets_its_question_bank(client):
    r = new_table(client, game="toe", players=2, options={"quiz": True}, name="Ann")
    assert r.status_code == 201, r.text
    assert r.json()["table"]["options"]["questions"] == "builtin"
    r = new_table(client, game="toe", players=2, options={"quiz": True, "questions": "x@1"})
    assert r.status_code == 400
    assert "give its file with --questions" in r.json()["message"]


def test_bad_options_are_refused_with_the_engines_message(client):
    r = new_table(client, options={"end": "never"})
    assert r.status_code == 400
    assert r.json()["message"] == (
        "option 'end' must be one of first_elimination, open (got 'never')"
    )
    assert new_table(client, players=9).json()["code"] == "bad_options"
    assert new_table(client, game="chess").json()["message"].startswith("unknown game 'chess'")
    assert new_table(client, options={"colour": 1}).status_code == 400
    assert new_table(client, turn_clock=0.1).status_code == 400
    r = client.post("/api/tables", json={"players": "three"})
    assert r.status_code == 422 and r.json()["code"] == "malformed"
    assert client.get("/api/tables").json() == []


def test_seats_bots_and_start(client):
    body = new_table(client, name="Ann").json()
    tid, ann = body["table"]["id"], body["token"]
    # a bot needs someone seated to add it
    assert client.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "random"}).status_code == 403
    r = client.post(
        f"/api/tables/{tid}/seats/1/bot", json={"bot": "genius"}, headers=seat_header(ann)
    )
    assert r.status_code == 400 and "no bot 'genius'" in r.json()["message"]
    r = client.post(
        f"/api/tables/{tid}/seats/1/bot", json={"bot": "heuristic"}, headers=seat_header(ann)
    )
    assert r.json()["table"]["seats"][1]["kind"] == "bot"
    # seats taken, names unique, "You" reserved
    assert client.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"}).json()["code"] == (
        "seat_taken"
    )
    assert client.post(f"/api/tables/{tid}/seats/2", json={"name": "Ann"}).status_code == 400
    assert client.post(f"/api/tables/{tid}/seats/2", json={"name": "you"}).status_code == 400
    assert client.post(f"/api/tables/{tid}/seats/7", json={"name": "Bob"}).status_code == 400
    # cannot start with an empty seat
    r = client.post(f"/api/tables/{tid}/start", headers=seat_header(ann))
    assert r.json()["code"] == "seats_empty"
    bob = client.post(f"/api/tables/{tid}/seats/2", json={"name": "Bob"}).json()["token"]
    # Bob leaves and comes back
    assert client.delete(f"/api/tables/{tid}/seats/2", headers=seat_header(ann)).status_code == 403
    assert client.delete(f"/api/tables/{tid}/seats/2", headers=seat_header(bob)).status_code == 200
    bob = client.post(f"/api/tables/{tid}/seats/2", json={"name": "Bob"}).json()["token"]
    me = client.get(f"/api/tables/{tid}", headers=seat_header(bob)).json()
    assert me["seat"] == 2
    assert client.post(f"/api/tables/{tid}/start").status_code == 403
    r = client.post(f"/api/tables/{tid}/start", headers=seat_header(bob))
    assert r.json()["table"]["status"] == "playing"
    assert client.post(f"/api/tables/{tid}/start", headers=seat_header(bob)).status_code == 400
    assert (
        client.post(
            f"/api/tables/{tid}/seats/1/bot", json={"bot": "random"}, headers=seat_header(ann)
        ).json()["code"]
        == "not_open"
    )


def test_leaving_during_play_hands_the_seat_to_a_bot(client):
    body = new_table(client, name="Ann").json()
    tid, ann = body["table"]["id"], body["token"]
    bob = client.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"}).json()["token"]
    client.post(f"/api/tables/{tid}/seats/2/bot", json={"bot": "random"}, headers=seat_header(ann))
    client.post(f"/api/tables/{tid}/start", headers=seat_header(ann))
    r = client.delete(f"/api/tables/{tid}/seats/1", headers=seat_header(bob))
    seat = r.json()["table"]["seats"][1]
    assert seat["kind"] == "bot" and seat["name"] == "Bob (bot)"
    assert seat["bot"] == "medium"  # the game's medium level, in every game


def test_a_memo_match_leaver_is_replaced_by_its_medium_level_not_random(client):
    body = new_table(client, game="memo-match", players=2, name="Ann").json()
    tid, ann = body["table"]["id"], body["token"]
    client.post(f"/api/tables/{tid}/seats/1/bot", json={"bot": "easy"}, headers=seat_header(ann))
    client.post(f"/api/tables/{tid}/start", headers=seat_header(ann))
    seat = client.delete(f"/api/tables/{tid}/seats/0", headers=seat_header(ann)).json()
    assert seat["table"]["seats"][0]["bot"] == "medium"


def test_unknown_tables_and_replays_of_unfinished_games(client):
    assert client.get("/api/tables/nope").status_code == 404
    body = new_table(client, name="Ann").json()
    r = client.get(f"/api/tables/{body['table']['id']}/replay")
    assert r.status_code == 400 and r.json()["code"] == "not_finished"


def test_the_pages_and_the_openapi_schema(client):
    assert "<html" in client.get("/").text.lower()
    assert "<html" in client.get("/t/abc").text.lower()
    assert "<html" in client.get("/r/abc").text.lower()
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/tables/{table_id}/seats/{seat}/bot" in paths
    assert client.get("/static/games/thirty-two.js").status_code == 200


def test_the_serve_command_is_registered():
    from click.testing import CliRunner

    from tripletopper.cli import cli

    result = CliRunner().invoke(cli, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--db" in result.output and "--data-dir" in result.output
    assert "--bot-workers" in result.output and "--bot-deadline" in result.output
