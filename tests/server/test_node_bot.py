"""The JavaScript bot of docs/bots-api.md (Node's standard library only) plays a whole game
as a bot account against a live server (skipped without ``node``: scripts/test installs
Debian's nodejs)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.server.helpers import live_server
from tests.server.test_bot_accounts import bot_with_token, person

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "docs" / "examples" / "bot.mjs"


def test_the_documented_bot_is_the_example_file():
    assert BOT.read_text() in (ROOT / "docs" / "bots-api.md").read_text()


def test_the_javascript_bot_plays_a_whole_game(tmp_path):
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node: scripts/test installs Debian's nodejs")
    with live_server(str(tmp_path), bot_delay=0.02) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Node Runner")
        proc = subprocess.Popen(
            [node, str(BOT), base, token, "--once"],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            ends = time.monotonic() + 30
            while ann.get("/api/bots/online").json()["bots"] != ["Node Runner"]:
                assert time.monotonic() < ends and proc.poll() is None, "the bot did not connect"
                time.sleep(0.05)
            r = ann.post(
                "/api/tables", json={"game": "thirty-one", "players": 3, "name": "x"}, headers=csrf
            )
            table_id = r.json()["table"]["id"]
            mine = {**csrf, "X-Seat-Token": r.json()["token"]}
            for seat, bot in ((1, "account:Node Runner"), (2, "easy")):
                ann.post(
                    f"/api/tables/{table_id}/seats/{seat}/bot", json={"bot": bot}, headers=mine
                ).raise_for_status()
            ann.post(f"/api/tables/{table_id}/start", headers=mine).raise_for_status()
            ann.delete(f"/api/tables/{table_id}/seats/0", headers=mine).raise_for_status()
            out, _ = proc.communicate(timeout=120)  # Ann's seat is played by a bot now
        finally:
            if proc.poll() is None:
                proc.kill()
        table = ann.get(f"/api/tables/{table_id}").json()["table"]
        ann.close()
    assert proc.returncode == 0, out
    assert "connected as Node Runner" in out and f"table {table_id}: finished" in out
    assert "refused" not in out, out
    assert table["status"] == "finished" and table["seats"][1]["bot_account"]


def test_the_javascript_bot_accepts_a_rematch_and_plays_it(tmp_path):
    import asyncio

    from tests.server.test_bot_rematch import ask_rematch, open_with_bot, play, seat_of

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node: scripts/test installs Debian's nodejs")
    with live_server(str(tmp_path), bot_delay=0.02, rematch_wait=600.0) as base:
        ann, csrf = person(base, "Ann")
        token = bot_with_token(ann, csrf, "Node Runner")
        proc = subprocess.Popen(
            [node, str(BOT), base, token],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            ends = time.monotonic() + 30
            while ann.get("/api/bots/online").json()["bots"] != ["Node Runner"]:
                assert time.monotonic() < ends and proc.poll() is None, "the bot did not connect"
                time.sleep(0.05)
            first, mine = open_with_bot(ann, csrf, "Node Runner")
            asyncio.run(play(base, first, mine, 5))
            new = ask_rematch(ann, csrf, first, mine)
            asyncio.run(play(base, new, mine, 6))  # the bot accepted: the rematch ends
            finished = seat_of(ann, new, 1)
        finally:
            proc.kill()
        out, _ = proc.communicate(timeout=30)
        ann.close()
    assert f"accept the rematch {new}" in out and f"table {new}: finished" in out, out
    assert "refused" not in out, out
    assert finished == {
        "status": "finished",
        "seat": 1,
        "name": "Node Runner",
        "kind": "human",
        "bot": None,
        "bot_account": True,
    }
