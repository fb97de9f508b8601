"""Whole games over real websockets: people and a bot play Thirty-Two to its end,
every message is captured, and no seat ever receives a card hidden from it."""

from __future__ import annotations

import asyncio
import json
import random
import re

import httpx
import pytest

from tests.server.helpers import live_server, open_table, play_randomly
from tripletopper.record import Record
from tripletopper.server import storage
from tripletopper.server.client import TableClient
from tripletopper.server.storage import Database, sqlite_url

CARD = re.compile(r"\b[RYGBK][CHTSB][1-4?](?![A-Za-z0-9])")


def cards_in(data: object) -> set[str]:
    return set(CARD.findall(json.dumps(data)))


def stored_record(data_dir: str, table_id: str) -> Record:
    db = Database(sqlite_url(data_dir))
    row = db.run_now(lambda conn: storage.load_table(conn, table_id))
    db.stop()
    assert row is not None
    return Record(
        game=row.game,
        players=row.players,
        options=row.options,
        seed=row.seed,
        actions=[(a.seat, a.action) for a in row.actions],
    )


def allowed_cards(record: Record, seat: int | None) -> list[set[str]]:
    """For each version, every card ``seat`` could have seen up to it."""
    state = record.new_state()

    def observe(s):
        return s.public_observation() if seat is None else s.observation(seat)

    seen = cards_in(observe(state))
    out = [set(seen)]
    for state, _actor, _action, events in record.steps():
        seen |= cards_in(observe(state))
        seen |= cards_in([e.view(seat) for e in events])
        out.append(set(seen))
    return out


async def full_game(base: str, seed: int, players: int = 4, humans: int = 2):
    table_id, tokens = open_table(base, players=players, humans=humans, options={"counters": 4})
    clients = [TableClient(base, table_id, token, record=True) for token in tokens]
    spectator = TableClient(base, table_id, record=True)
    for client in [*clients, spectator]:
        await client.start()
    await play_randomly(clients, random.Random(seed))
    await spectator.wait(lambda c: c.finished)
    for client in [*clients, spectator]:
        await client.close()
    return table_id, tokens, clients, spectator


@pytest.mark.parametrize("seed", [1, 2])
def test_no_seat_ever_receives_a_card_hidden_from_it(tmp_path, seed):
    with live_server(str(tmp_path)) as base:
        table_id, _tokens, clients, spectator = asyncio.run(full_game(base, seed))
    record = stored_record(str(tmp_path), table_id)
    final = record.replay()
    assert final.is_terminal()
    checked = 0
    for client, seat in [*((c, i) for i, c in enumerate(clients)), (spectator, None)]:
        allowed = allowed_cards(record, seat)
        assert client.messages, "the client received nothing"
        for _text, message in zip(client.raw, client.messages, strict=True):
            version = message.get("version")
            if version is None:
                assert not cards_in(message), message  # welcome, table, ack, error
                continue
            leaked = cards_in(message) - allowed[version]
            assert not leaked, f"seat {seat} got {leaked} at version {version}"
            checked += 1
        assert client.finished
    assert checked > len(record.actions)
    assert final.results().to_json() == clients[0].results


async def some_moves(base: str, versions: int):
    """Three people play Thirty-Two at random for ``versions`` actions; a spectator watches."""
    table_id, tokens = open_table(base, players=3, humans=3, options={"counters": 30})
    clients = [TableClient(base, table_id, token, record=True) for token in tokens]
    spectator = TableClient(base, table_id, record=True)
    for client in [*clients, spectator]:
        await client.start()
    await play_randomly(clients, random.Random(4), until_version=versions)
    await spectator.wait(lambda c: c.version >= versions)
    for client in [*clients, spectator]:
        await client.close()
    return table_id, [*clients, spectator]


def test_the_discard_pile_reaches_every_seat_squared(tmp_path):
    """Each observation sent names the pile's top card and its size, never a buried discard
    (every discard was named once, in the event of its being made)."""
    with live_server(str(tmp_path)) as base:
        table_id, clients = asyncio.run(some_moves(base, 80))
    record = stored_record(str(tmp_path), table_id)
    deck = record.new_state().game.deck
    piles = [deck.format_many(record.new_state().pile)]
    piles += [deck.format_many(state.pile) for state, *_ in record.steps()]
    checked = buried = 0
    for client in clients:
        for message in client.messages:
            obs = message.get("observation")
            if not obs:
                continue
            pile = piles[message["version"]]
            assert "discard_pile" not in obs
            top = pile[-1] if pile else None  # a lone face-up card was just taken
            assert (obs["discard_top"], obs["discard_size"]) == (top, len(pile))
            this_hand = {key: value for key, value in obs.items() if key != "last_hand"}
            assert not cards_in(this_hand) & set(pile[:-1])
            checked += 1
            buried += len(pile) - 1
    # The seats act concurrently, so the game's path depends on timing: a hand that ends
    # early starts a new pile (a loaded CI run buried 80 cards in 40 actions; 80 actions
    # bury 260-380).
    assert checked > 4 * 80 and buried > 100


def test_a_full_game_its_results_and_its_replays(tmp_path):
    with live_server(str(tmp_path)) as base:
        table_id, tokens, clients, _spectator = asyncio.run(full_game(base, 3, players=3))
        with httpx.Client(base_url=base) as http:
            summary = http.get(f"/api/tables/{table_id}").json()["table"]
            assert summary["status"] == "finished" and summary["results"]["winners"]
            # step 0, the deal: a game can be over at step 1 (a dealt thirty-two declared)
            public = http.get(f"/api/tables/{table_id}/replay").json()
            assert "hand" not in public["steps"][0]["observation"]
            mine = http.get(
                f"/api/tables/{table_id}/replay",
                params={"seat": 1},
                headers={"X-Seat-Token": tokens[1]},
            ).json()
            assert "hand" in mine["steps"][0]["observation"]
            assert len(mine["steps"]) == len(public["steps"]) == summary["version"] + 1
            refused = http.get(
                f"/api/tables/{table_id}/replay",
                params={"seat": 1},
                headers={"X-Seat-Token": tokens[0]},
            )
            assert refused.status_code == 403
            # a rematch keeps the seats and the tokens: Bob asks, Ann is offered her seat
            r = http.post(f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[1]})
            new = r.json()["table"]
            assert new["status"] == "open" and new["rematch_of"] == table_id
            assert [s["name"] for s in new["seats"]] == [s["name"] for s in summary["seats"]]
            assert [s["kind"] for s in new["seats"]] == ["invited", "human", "bot"]
            me = http.get(f"/api/tables/{new['id']}", headers={"X-Seat-Token": tokens[0]})
            assert (me.json()["seat"], me.json()["invited"]) == (None, 0)
            again = http.post(
                f"/api/tables/{table_id}/rematch", headers={"X-Seat-Token": tokens[0]}
            )
            assert again.json()["table"]["id"] == new["id"]
            assert again.json()["table"]["status"] == "playing"  # everyone asked has answered
            me = http.get(f"/api/tables/{new['id']}", headers={"X-Seat-Token": tokens[0]})
            assert me.json()["seat"] == 0
    lines = clients[0].log
    assert any("You" in line for line in lines) and lines[-1].startswith("Game over")
