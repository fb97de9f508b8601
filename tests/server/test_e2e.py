"""End to end in real browsers (Playwright on Debian's Chromium, the ``browser`` fixture of
conftest.py): two people open a table, invite each other, add a bot and play a whole game of
Thirty-Two by clicking; a spectator watches and never sees a hidden card; screenshots go to
test-artifacts/.  The other games' table pages are in test_e2e_games.py."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.helpers import live_server
from tests.server.test_play import allowed_cards, cards_in, stored_record

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def answer_questions(page: Any, rng: random.Random) -> None:
    """Answer the page's question (a safety net, a held showdown) with any of its buttons."""
    for question in ("#ask[open] button", "#showdown:not([hidden]) button"):
        buttons = page.locator(question)
        if buttons.count():
            with contextlib.suppress(Exception):  # it closed under the click
                buttons.nth(rng.randrange(buttons.count())).click(timeout=2000)


def play_by_clicking(pages, rng, *, clicks=None, seconds=240, shot=None) -> bool:
    """Click random legal moves (buttons or hand cards) until every page shows the results
    (True) or ``clicks`` clicks were made (False)."""
    made = 0
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        finished = 0
        for page in pages:
            if page.is_visible("#results-panel"):
                finished += 1
                continue
            answer_questions(page, rng)
            cards = page.locator("#game .card.clickable")
            buttons = page.locator("#actions button:enabled")
            try:
                if cards.count() and rng.random() < 0.5:
                    cards.nth(rng.randrange(cards.count())).click(timeout=2000)
                    made += 1
                elif buttons.count():
                    if shot is not None:
                        page.screenshot(path=str(shot))
                        shot = None
                    buttons.nth(rng.randrange(buttons.count())).click(timeout=2000)
                    made += 1
            except Exception:  # the page re-rendered under the click: look again
                pass
        if finished == len(pages):
            return True
        if clicks is not None and made >= clicks:
            return False
        time.sleep(0.05)
    return False


def test_two_friends_and_a_bot_play_thirty_two_in_browsers(browser, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    rng = random.Random(11)
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        ann_ctx = browser.new_context(viewport={"width": 1100, "height": 900})
        bob_ctx = browser.new_context(viewport={"width": 390, "height": 844})  # a phone
        spy_ctx = browser.new_context()
        ann, bob, spy = ann_ctx.new_page(), bob_ctx.new_page(), spy_ctx.new_page()
        errors: list[str] = []
        for page in (ann, bob, spy):
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        spy_frames: list[str] = []
        spy.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived",
                lambda payload: spy_frames.append(
                    payload if isinstance(payload, str) else payload.decode()
                ),
            ),
        )

        # Ann opens a table for three from the lobby's form
        ann.goto(base + "/")
        ann.fill("#your-name", "Ann")
        ann.select_option("#game", "thirty-two")
        ann.select_option("#players", "3")
        ann.fill("input[data-option=counters]", "3")
        ann.click("#open-table")
        ann.wait_for_url("**/t/*")
        ann.wait_for_function(  # the page fills the link in once it has loaded the table
            "() => (document.querySelector('#invite') || {}).value?.includes('/t/')"
        )
        invite = ann.input_value("#invite")
        table_id = invite.rsplit("/", 1)[1]

        # Bob follows the invite link and sits in seat 2
        bob.goto(invite)
        bob.wait_for_selector("#conn:has-text('connected')")
        bob.fill("[data-seat='1'] input", "Bob")
        bob.click("[data-seat='1'] button:has-text('Sit here')")
        ann.wait_for_selector("[data-seat='1']:has-text('Bob')")

        # Ann loads a bot into the last seat and starts; a spectator watches
        ann.select_option("[data-seat='2'] select", "heuristic")
        ann.click("[data-seat='2'] button:has-text('Add bot')")
        ann.wait_for_selector("#start:enabled")
        spy.goto(invite)
        spy.wait_for_selector("#conn:has-text('connected')")
        ann.click("#start")

        # both play by clicking until the game is over
        if not play_by_clicking([ann, bob], rng, shot=ARTIFACTS / "e2e-thirty-two-table.png"):
            ann.screenshot(path=str(ARTIFACTS / "e2e-thirty-two-stuck.png"))
            pytest.fail("the game did not finish in time")

        spy.wait_for_selector("#results-panel:not([hidden])")
        ann.screenshot(path=str(ARTIFACTS / "e2e-thirty-two-over.png"), full_page=True)
        bob.screenshot(path=str(ARTIFACTS / "e2e-thirty-two-phone.png"), full_page=True)
        assert " won: " in ann.inner_text("#verdict") or "share the win" in ann.inner_text(
            "#verdict"
        )
        assert ann.is_visible("#rematch") and not spy.is_visible("#rematch")
        assert spy.locator("#hand-score").count() == 0  # a spectator has no hand
        log = ann.inner_text("#log")
        assert "You" in log and "Game over" in log

        # the replay page steps through Ann's own view
        ann.click("#replay-link")
        ann.wait_for_selector("#where:has-text('step')")
        ann.wait_for_selector("#viewer option[value='0']", state="attached")
        ann.select_option("#viewer", "0")
        ann.click("#next")
        try:
            ann.wait_for_selector("#hand-score", timeout=10000)
        finally:
            ann.screenshot(path=str(ARTIFACTS / "e2e-thirty-two-replay.png"), full_page=True)
        assert not errors, errors
        for ctx in (ann_ctx, bob_ctx, spy_ctx):
            ctx.close()

    # the spectator's every websocket frame held only public cards
    record = stored_record(str(tmp_path), table_id)
    allowed = allowed_cards(record, None)
    assert spy_frames
    for frame in spy_frames:
        message = json.loads(frame)
        version = message.get("version")
        leaked = cards_in(message) - (allowed[version] if version is not None else set())
        assert not leaked, f"the spectator saw {leaked} at version {version}"


SETTLED = """() => (document.body.dataset.pending || "0") === "0"
  && document.getAnimations().length === 0"""
"""The page shows the newest update it has, and no card is moving."""


def test_browsers_reconnect_by_themselves_after_the_server_is_killed(browser, tmp_path):
    import signal

    from tests.server.helpers import free_port, open_table
    from tests.server.test_restart import start_server

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(str(tmp_path), port)
    try:
        # The server draws each table's seed: in about 1 deal in 1,000 a dealt
        # Thirty-two is declared and ends the game at once (each opponent pays 6 or
        # more). The test needs a game still running, so such a table is set aside.
        for attempt in range(5):
            table_id, tokens = open_table(base, players=3, humans=2, options={"counters": 6})
            pages = []
            for token in tokens:
                context = browser.new_context()
                page = context.new_page()
                page.goto(f"{base}/t/{table_id}#seat={token}")
                page.wait_for_selector("#conn:has-text('connected')")
                pages.append(page)
            if not play_by_clicking(pages, random.Random(3 + attempt), clicks=4):
                break
            for page in pages:
                page.context.close()
        else:
            pytest.fail("every table's game ended within four clicks")
        for page in pages:
            page.wait_for_function(SETTLED)
        before = [page.inner_text("#game") for page in pages]
        server.send_signal(signal.SIGKILL)
        server.wait()
        for page in pages:
            page.wait_for_selector("#conn.down")
        server = start_server(str(tmp_path), port)
        for page in pages:
            page.wait_for_selector("#conn:not(.down)", timeout=20000)
        for page in pages:
            page.wait_for_function(SETTLED)
        assert [page.inner_text("#game") for page in pages] == before
        assert play_by_clicking(pages, random.Random(4)), "the game did not finish"
        for page in pages:
            assert "won" in page.inner_text("#verdict") or "share the win" in page.inner_text(
                "#verdict"
            )
            page.context.close()
    finally:
        server.kill()
        server.wait()
