"""Memo Match's spotting race through the real server: every seat's message stays small
(the thousands of pair claims travel as one pattern, not one by one), and a claim that
names no two face-up cards is refused with a clear error and changes nothing."""

from __future__ import annotations

import asyncio
from contextlib import ExitStack
from typing import Any

from tests.server.conftest import seat_header
from tests.server.helpers import live_server, open_table
from tripletopper.games.memo_match.layout import MATCH, matching_variables
from tripletopper.server.client import TableClient

MAX_BYTES = 50_000
"""What one seat may be sent for one update of an 8-seat table, at most."""


def sizes(client: TableClient, version: int, kind: str = "update") -> list[int]:
    return [
        len(text.encode())
        for text, message in zip(client.raw, client.messages, strict=True)
        if message["type"] == kind and message["version"] == version
    ]


def test_an_8_seat_spotting_update_is_at_most_50_kB_per_seat(tmp_path):
    async def scenario(base: str, table_id: str, tokens: list[str]) -> dict[str, Any]:
        clients = [TableClient(base, table_id, token, record=True) for token in tokens]
        for client in clients:
            await client.start()
        turn = clients[0].observation["turn"]
        first_turn = sizes(clients[turn], 0, "state")
        await clients[turn].act({"type": "declare"})
        for client in clients:
            await client.wait(lambda c: c.version == 1)
        spotters = [c for c in clients if c.seat != turn]
        assert all(c.observation["phase"] == "spot" and c.legal for c in spotters)
        again = TableClient(base, table_id, tokens[spotters[0].seat], record=True)
        await again.start()  # a spotter reconnecting: a full state with the recent log
        for client in [*clients, again]:
            await client.close()
        return {
            "turn": first_turn,
            "spotting": [size for c in spotters for size in sizes(c, 1)],
            "declarer": sizes(clients[turn], 1),
            "resync": sizes(again, 1, "state"),
            "legal": spotters[0].legal,
        }

    with live_server(str(tmp_path)) as base:
        table_id, tokens = open_table(base, game="memo-match", players=8, humans=8)
        found = asyncio.run(scenario(base, table_id, tokens))
    print({key: value for key, value in found.items() if key != "legal"})
    assert len(found["spotting"]) == 7 and len(found["resync"]) == 1
    claims, passing = found["legal"]
    assert claims["count"] == 7750 and len(claims["pattern"]["from"]) == 125
    assert passing["action"] == {"type": "pass"}
    for key in ("turn", "spotting", "declarer", "resync"):
        assert max(found[key]) <= MAX_BYTES, (key, found[key])


def memo_table(client, players: int) -> tuple[str, list[str]]:
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    body = client.post(
        "/api/tables", json={"game": "memo-match", "players": players, "name": names[0]}
    ).json()
    tid, tokens = body["table"]["id"], [body["token"]]
    for seat, name in enumerate(names[1:], 1):
        answer = client.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name}).json()
        tokens.append(answer["token"])
    client.post(f"/api/tables/{tid}/start", headers=seat_header(tokens[0]))
    return tid, tokens


def receive(ws, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] in (kind, "error"):
            return message


def a_pair(face_up: dict[str, str]) -> list[str]:
    up = list(face_up.items())
    return next(
        [p, q]
        for i, (p, a) in enumerate(up)
        for q, b in up[i + 1 :]
        if matching_variables(a, b) >= MATCH
    )


def test_a_claim_of_no_two_face_up_cards_is_refused_and_changes_nothing(client):
    """Seat A declares, seat B spots a pair (A is out, 123 cards are laid out again), the
    next seat declares: D11 and E11 are empty now, and bad claims of them are refused."""
    tid, tokens = memo_table(client, 3)
    with ExitStack() as stack:
        seats = [stack.enter_context(client.websocket_connect(f"/ws/tables/{tid}")) for _ in tokens]
        for ws, token in zip(seats, tokens, strict=True):
            ws.send_json({"type": "hello", "token": token})
            receive(ws, "welcome")
            view = receive(ws, "state")
        version = 0

        def act(seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
            nonlocal version
            seats[seat].send_json({"type": "action", "action": action, "version": version})
            views = [receive(ws, "update") for ws in seats]
            version = views[seat]["version"]
            return views

        declarer = view["observation"]["turn"]
        views = act(declarer, {"type": "declare"})
        spotter = next(s for s in range(3) if s != declarer)
        claim = {"type": "claim", "positions": a_pair(views[spotter]["observation"]["face_up"])}
        views = act(spotter, claim)
        assert views[spotter]["events"][0]["type"] == "spotted"
        turn = views[0]["observation"]["turn"]
        views = act(turn, {"type": "declare"})
        other = next(s for s in range(3) if s not in (declarer, turn))
        before = views[other]
        assert before["observation"]["phase"] == "spot" and before["to_act"] == [other]
        on_table = before["observation"]["table"]
        assert len(on_table) == 123 and "D11" not in on_table and "E11" not in on_table
        assert before["legal"] == [
            {
                "pattern": {
                    "action": {"type": "claim"},
                    "field": "positions",
                    "pick": 2,
                    "from": on_table,
                },
                "label": "claim a pair while spotting ('claim A1 C7')",
                "count": 123 * 122 // 2,
            },
            {"action": {"type": "pass"}, "label": "stop spotting", "text": "pass"},
        ]
        refused = [
            (["A1", "E11"], "illegal", "'claim A1 E11' is not allowed: there is no card at E11"),
            (["D11", "E11"], "illegal", "there is no card at D11"),
            (["A1", "A1"], "malformed", "positions must be two different positions"),
            (["A1"], "malformed", "positions must be two positions like ['A1', 'C7']"),
            (["A1", "B1", "C1"], "malformed", "two positions like"),
            (["A1", "M1"], "malformed", "'M1' is not a position"),
            ("A1 B1", "malformed", "two positions like"),
            ([1, 2], "malformed", "positions must be a position like 'C7'"),
        ]
        for positions, code, message in refused:
            action = {"type": "claim", "positions": positions}
            seats[other].send_json({"type": "action", "action": action, "version": version})
            error = receive(seats[other], "update")
            assert error["type"] == "error" and error["code"] == code, (positions, error)
            assert message in error["message"] and error["version"] == version
        seats[other].send_json({"type": "sync", "version": version})
        after = receive(seats[other], "state")
        assert after["version"] == version and after["log"] == []
        assert {k: after[k] for k in ("observation", "legal", "to_act")} == {
            k: before[k] for k in ("observation", "legal", "to_act")
        }
        views = act(other, {"type": "claim", "positions": ["E10", "A1"]})  # either order
        assert views[other]["events"][0]["type"] in ("spotted", "wrong_claim")
