"""Post-game reviews at the card room: computed once in the background, stored with the
game, shown only to the seat's player, and refused clearly to anyone else."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any

from tests.server.conftest import TestClient, seat_header
from tests.server.test_hostile import hello, people_table, until
from tripletopper.review import review
from tripletopper.server import storage
from tripletopper.server.app import ServerConfig, create_app, table_record


@contextmanager
def room(tmp_path: Path, **settings: Any) -> Iterator[TestClient]:
    from tripletopper.server.tables import Settings

    values = {"bot_delay": 0, "review_iterations": 40, **settings}
    config = ServerConfig(data_dir=str(tmp_path), settings=Settings(**values))
    with TestClient(create_app(config)) as client:
        yield client


def short_game(
    client: TestClient, moves: int = 8, leaver: int | None = None
) -> tuple[str, list[str]]:
    """Ann, Bob and Cat play ``moves`` actions of open-ended Thirty-Two (the first legal
    move each time), then (``leaver``: that seat's person leaves it to a bot and) Ann
    closes the table: a finished game."""
    names = ["Ann", "Bob", "Cat"]
    table_id, tokens = people_table(client, "thirty-two", names, options={"end": "open"})
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}")) for _ in names
        ]
        seen = [hello(ws, token) for ws, token in zip(sockets, tokens, strict=True)]
        for _ in range(moves):
            seat = next(s for s in range(len(names)) if seen[s]["legal"])
            move = seen[seat]["legal"][0]["action"]
            sockets[seat].send_json(
                {"type": "action", "action": move, "version": seen[seat]["version"]}
            )
            seen = [until(ws, "update") for ws in sockets]
        if leaver is not None:
            left = client.delete(
                f"/api/tables/{table_id}/seats/{leaver}", headers=seat_header(tokens[leaver])
            )
            assert left.status_code == 200, left.text
        while True:  # the leaver's bot may move first: then the close is refused, try again
            version = client.get(f"/api/tables/{table_id}").json()["table"]["version"]
            sockets[0].send_json(
                {"type": "action", "action": {"type": "close"}, "table": True, "version": version}
            )
            answer = sockets[0].receive_json()
            while answer["type"] not in ("error", "update") or (
                answer["type"] == "update" and answer["status"] != "finished"
            ):
                answer = sockets[0].receive_json()
            if answer["type"] == "update":
                return table_id, tokens


def url(table_id: str) -> str:
    return f"/api/tables/{table_id}/review"


def wait_done(client: TestClient, table_id: str, seat: int, token: str) -> dict[str, Any]:
    statuses = set()
    for _ in range(2000):
        r = client.get(url(table_id), params={"seat": seat}, headers=seat_header(token))
        assert r.status_code == 200, r.text
        body = r.json()
        statuses.add(body["status"])
        if body["status"] == "done":
            return body
        assert body["status"] in ("waiting", "running")
        if body["status"] == "running":
            assert 0 <= body["done"] <= body["total"]
        time.sleep(0.02)
    raise AssertionError(f"the review did not finish (saw {statuses})")


def test_a_review_is_computed_once_stored_and_answered_at_once(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = short_game(client)
        ann = seat_header(tokens[0])
        first = client.post(url(table_id), params={"seat": 0}, headers=ann)
        assert first.status_code == 200 and first.json()["status"] in ("waiting", "running")
        again = client.post(url(table_id), params={"seat": 0}, headers=ann)  # no second job
        reviews = client.app.state.reviews
        assert again.status_code == 200 and len(reviews.running) <= 1
        body = wait_done(client, table_id, 0, tokens[0])
        record = table_record(client.app.state.room.tables[table_id])
        expected = review(record, 0, iterations=40).to_json()
        assert body["review"] == expected and expected["decisions"]
        assert body["review"]["decisions"][0]["loss"] == max(
            d["loss"] for d in expected["decisions"]
        )
        done = client.post(url(table_id), params={"seat": 0}, headers=ann)
        assert done.status_code == 200 and done.json() == body
        assert reviews.computed == 1
        db = client.app.state.room.db
        stored = db.run_now(partial(storage.load_review, table_id=table_id, seat=0))
        assert stored is not None
    # after a restart the stored review answers at once, nothing is computed again
    with room(tmp_path) as client:
        r = client.get(url(table_id), params={"seat": 0}, headers=ann)
        assert r.status_code == 200 and r.json() == body
        assert client.app.state.reviews.computed == 0


def test_hostile_review_requests_get_clear_refusals(tmp_path):
    with room(tmp_path, rates={"review": "3/minute"}) as client:
        table_id, tokens = short_game(client, moves=2)
        ann, bob = seat_header(tokens[0]), seat_header(tokens[1])

        def refused(method: str, status: int, code: str, **kwargs: Any) -> None:
            r = client.request(method, kwargs.pop("at", url(table_id)), **kwargs)
            assert (r.status_code, r.json()["code"]) == (status, code), r.text

        refused("POST", 404, "no_table", at=url("nosuchtable"), params={"seat": 0}, headers=ann)
        refused("POST", 400, "bad_seat", params={"seat": 3}, headers=ann)
        refused("POST", 400, "bad_seat", params={"seat": -1}, headers=ann)
        refused("POST", 400, "bad_seat", params={"seat": 10**30}, headers=ann)
        refused("POST", 422, "malformed", params={"seat": "x"}, headers=ann)
        refused("POST", 422, "malformed", headers=ann)
        refused("POST", 403, "not_your_seat", params={"seat": 1}, headers=ann)
        refused("POST", 403, "not_your_seat", params={"seat": 0})
        refused("GET", 403, "not_your_seat", params={"seat": 0}, headers=bob)
        never = client.get(url(table_id), params={"seat": 0}, headers=ann)
        assert (never.status_code, never.json()) == (200, {"status": "none"})
        assert not client.app.state.reviews.running  # nothing refused started anything
        # an unfinished game has no review yet
        other, other_tokens = people_table(client, "thirty-two", ["Ann", "Bob", "Cat"])
        refused(
            "POST",
            400,
            "not_finished",
            at=url(other),
            params={"seat": 0},
            headers=seat_header(other_tokens[0]),
        )
        # asking again and again starts one computation, then the rate limit answers
        for _ in range(3):
            assert client.post(url(table_id), params={"seat": 1}, headers=bob).status_code == 200
        refused("POST", 429, "rate_limited", params={"seat": 1}, headers=bob)
        wait_done(client, table_id, 1, tokens[1])
        assert client.app.state.reviews.computed == 1


def test_the_room_takes_on_a_bounded_number_of_reviews(tmp_path):
    with room(tmp_path, review_queue=1, review_iterations=3000) as client:
        table_id, tokens = short_game(client, moves=6)
        ann, bob = seat_header(tokens[0]), seat_header(tokens[1])
        assert client.post(url(table_id), params={"seat": 0}, headers=ann).status_code == 200
        r = client.post(url(table_id), params={"seat": 1}, headers=bob)
        assert (r.status_code, r.json()["code"]) == (429, "busy")
        assert r.headers["Retry-After"] == "60"


def test_serve_takes_a_number_of_review_workers():
    from click.testing import CliRunner

    from tripletopper.cli import cli

    assert "--review-workers" in CliRunner().invoke(cli, ["serve", "--help"]).output
    refused = CliRunner().invoke(cli, ["serve", "--review-workers", "0", "--port", "1"])
    assert refused.exit_code == 2 and "--review-workers" in refused.output


def test_a_seat_left_to_a_bot_is_reviewed_for_its_person_as_its_replay_is(tmp_path):
    with room(tmp_path) as client:
        table_id, tokens = short_game(client, moves=4, leaver=1)
        bob, cat = seat_header(tokens[1]), seat_header(tokens[2])
        replay = client.get(f"/api/tables/{table_id}/replay", params={"seat": 1}, headers=bob)
        assert replay.status_code == 200
        assert client.post(url(table_id), params={"seat": 1}, headers=bob).status_code == 200
        r = client.post(url(table_id), params={"seat": 1}, headers=cat)
        assert (r.status_code, r.json()["code"]) == (403, "not_your_seat")
        assert wait_done(client, table_id, 1, tokens[1])["review"]["seat"] == 1


def test_a_review_asked_of_two_processes_at_once_is_computed_once(tmp_path, redis_server):
    """Two processes of a room (here two review services on one database and one Redis)
    are asked for the same review: the first claims it in Redis and computes it, the other
    answers ``waiting`` and computes nothing, then answers the stored review."""
    from tripletopper.server.reviews import Reviews

    with room(tmp_path) as client:
        table_id, _tokens = short_game(client)
        record = table_record(client.app.state.room.tables[table_id])
        db, settings = client.app.state.room.db, client.app.state.reviews.settings
        key = (table_id, 0)

        async def both() -> tuple[int, int, str]:
            one, two = Reviews(db, settings, redis_server), Reviews(db, settings, redis_server)
            try:
                assert (await one.request(key, record))[1] == "waiting"
                assert (await two.request(key, record))[1] == "waiting" and not two.running
                assert (await two.status(key) or ("", ""))[1] == "waiting"
                while one.running:
                    await asyncio.sleep(0.05)
                found = await two.status(key)
                assert found is not None and found[1] == "done"
                assert (await one.request((table_id, 1), record))[1] == "waiting"  # its own
                return one.computed, two.computed, found[0]
            finally:
                await one.close()
                await two.close()

        computed_one, computed_two, text = client.portal.call(both)
        assert (computed_one, computed_two) == (1, 0)
        assert json.loads(text)["review"] == review(record, 0, iterations=40).to_json()


def test_a_review_claim_lives_while_its_process_computes_and_lapses_when_it_dies(
    tmp_path, redis_server, monkeypatch
):
    """A process computing a review renews its claim, so the other processes wait for it
    however long it takes; one that dies mid-review leaves a claim that soon lapses, and
    then another process computes the review (it was held 900 s)."""
    import redis.asyncio as aioredis

    from tripletopper.server import reviews
    from tripletopper.server.redis_keys import RedisKeys
    from tripletopper.server.reviews import Reviews

    monkeypatch.setattr(reviews, "CLAIM_SECONDS", 0.4)
    with room(tmp_path, review_iterations=3000) as client:
        table_id, _tokens = short_game(client, moves=20)
        record = table_record(client.app.state.room.tables[table_id])
        db, settings = client.app.state.room.db, client.app.state.reviews.settings
        key = (table_id, 0)

        async def run() -> None:
            one, two = Reviews(db, settings, redis_server), Reviews(db, settings, redis_server)
            shared = aioredis.Redis.from_url(redis_server)
            try:
                assert (await one.request(key, record))[1] == "waiting"
                await asyncio.sleep(1.0)  # more than two claims' lives
                assert one.running, "the review ended too soon to tell"
                assert (await two.request(key, record))[1] == "waiting" and not two.running
                # `one` dies: its work stops and nobody lets its claim go.
                monkeypatch.setattr(one, "_let_go", lambda key: asyncio.sleep(0))
                for task in list(one._tasks):
                    task.cancel()
                await asyncio.sleep(0.1)
                assert await shared.exists(RedisKeys().review(*key))
                ends = time.monotonic() + 5
                while await shared.exists(RedisKeys().review(*key)):
                    assert time.monotonic() < ends, "the dead process's claim does not lapse"
                    await asyncio.sleep(0.05)
                assert (await two.request(key, record))[1] == "waiting" and two.running
            finally:
                await one.close()
                await two.close()
                await shared.aclose()

        client.portal.call(run)
