"""The room around the game in real browsers (Playwright on Debian's Chromium): rules pages
and help reached from the lobby and the table, option help and options shown only when they
apply, taking a seat back after leaving, a rematch each person accepts, the banner that says
you are watching, chat shown as text with a mute, and the lobby's three lists updating live.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from tests.server.helpers import live_server, open_table

pytestmark = pytest.mark.e2e

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
WIDE = {"width": 1280, "height": 800}


def page_of(browser, errors, viewport=WIDE):
    page = browser.new_context(viewport=viewport).new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())  # "Leave the game?": yes
    return page


def close_table(base: str, table_id: str, token: str) -> None:
    """End an open-ended Thirty-Two game at once (a table action any seated player has);
    a bot moving first makes the close stale: it is sent again on the newest version."""
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=10))
            if message["type"] not in ("state", "update"):
                continue
            if message["status"] == "finished":
                return
            ws.send(
                json.dumps(
                    {
                        "type": "action",
                        "action": {"type": "close"},
                        "table": True,
                        "version": message["version"],
                    }
                )
            )


def test_rules_and_help_are_reached_from_the_lobby_the_form_and_the_table(browser, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    errors: list[str] = []
    with live_server(str(tmp_path)) as base:
        page = page_of(browser, errors)
        page.goto(base + "/")
        page.wait_for_selector(".game-card a.rules-link")
        assert page.locator(".game-card a.rules-link").count() == 5
        assert page.get_attribute("header a:has-text('Rules')", "href") == "/rules"
        # each option explained in plain words, not by its name, its default shown
        page.select_option("#game", "thirty-two")
        cap = page.locator("[data-option-box=cap_at_32]")
        assert cap.inner_text().strip() == "Scores above 32 count as 32 (default: on)"
        assert "Counters each player starts with" in page.inner_text("[data-option-box=counters]")
        assert page.get_attribute("#game-rules", "href") == "/rules/thirty-two"
        # the Quiz Show's own fields only with the Quiz Show
        page.select_option("#game", "toe")
        assert page.get_attribute("#game-rules", "href") == "/rules/toe"
        quiz_only = ["buzz_seconds", "answer_seconds", "max_questions"]
        assert page.locator("[data-option-box=questions]").count() == 0  # the room's bank only
        for name in quiz_only:
            assert page.locator(f"[data-option-box={name}]").is_hidden()
        assert page.locator("[data-option-box=max_turns]").is_visible()
        page.check("input[data-option=quiz]")
        for name in quiz_only:
            assert page.locator(f"[data-option-box={name}]").is_visible()
        page.screenshot(path=str(ARTIFACTS / "e2e-room-lobby-form.png"), full_page=True)
        page.uncheck("input[data-option=quiz]")
        assert page.locator("[data-option-box=buzz_seconds]").is_hidden()
        page.check("input[data-option=quiz]")
        page.fill("input[data-option=buzz_seconds]", "5")
        page.fill("#your-name", "Ann")
        page.click("#open-table")
        page.wait_for_url("**/t/*")
        table_id = page.url.rsplit("/", 1)[1]
        options = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]["options"]
        assert options["quiz"] is True and options["buzz_seconds"] == 5
        # the table page: its rules link and its how-to panel
        page.wait_for_selector("#rules-link[href='/rules/toe']")
        page.click("#help-panel summary")
        page.wait_for_selector("#help-howto h3:has-text('What you click')")
        assert "Buzz in" in page.inner_text("#help-howto")
        assert page.get_attribute("#help-rules", "href") == "/rules/toe"
        # the keyboard shortcuts in the help too: the same list as the Keys panel's
        keys = page.text_content("#help-keys dl")
        assert "show or hide these shortcuts" in keys and keys == page.text_content("#keys-list dl")
        assert page.locator("#help-keys").is_visible()
        page.screenshot(path=str(ARTIFACTS / "e2e-room-table-help.png"), full_page=True)
        # the rules page itself, and back to the lobby from it
        page.goto(base + "/rules/toe")
        assert page.inner_text("main h1") == "Triple Topper Toe"
        assert page.locator("main table").count() >= 1
        page.screenshot(path=str(ARTIFACTS / "e2e-room-rules.png"), full_page=True)
        page.click("header a:has-text('Lobby')")
        page.wait_for_selector("#create-form")
        # a table opened without the Quiz Show sends none of its fields
        page.select_option("#game", "toe")
        page.fill("input[data-option=max_turns]", "300")
        page.click("#open-table")
        page.wait_for_url("**/t/*")
        other = page.url.rsplit("/", 1)[1]
        options = httpx.get(f"{base}/api/tables/{other}").json()["table"]["options"]
        assert options["quiz"] is False and options["max_turns"] == 300
        assert options["buzz_seconds"] == 3.0  # its default: the hidden field was not sent
        page.context.close()
    assert not errors, errors


def first_to_act(base: str, table_id: str) -> int:
    url = base.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello"}))
        while (message := json.loads(ws.recv(timeout=10)))["type"] != "state":
            pass
    return int(message["to_act"][0])


def test_a_person_who_left_takes_the_seat_back_from_the_page(browser, tmp_path):
    errors: list[str] = []
    with live_server(str(tmp_path), bot_delay=0.3) as base:
        table_id, tokens = open_table(base, players=3, humans=3, options={"counters": 30})
        seat = first_to_act(base, table_id)  # they leave: their bot plays at once
        name = ["Ann", "Bob", "Cat"][seat]
        mine = f"#seats [data-seat='{seat}']"
        other, leaver = (page_of(browser, errors) for _ in range(2))
        for page, token in ((other, tokens[(seat + 1) % 3]), (leaver, tokens[seat])):
            page.goto(f"{base}/t/{table_id}#seat={token}")
            page.wait_for_selector("#conn:has-text('connected')")
        assert leaver.locator("#standing").is_hidden()
        leaver.evaluate("document.getElementById('table-info').open = true")  # the folded bar
        leaver.click(f"{mine} button:has-text('Leave')")
        leaver.wait_for_selector("#take-back")
        standing = leaver.inner_text("#standing")
        assert f"You left seat {seat + 1}: a bot plays it for you" in standing
        assert leaver.locator("button:has-text('Leave (a bot takes over)')").count() == 0
        assert leaver.locator("#hand-score").count() == 0  # they watch: the public view
        # the bot's moves are narrated under its name, never as "You"
        by_bot = (
            "() => [...document.querySelectorAll('#log .line')].some(l => "
            f"l.textContent.startsWith('{name} (bot)'))"
        )
        other.wait_for_function(by_bot)
        leaver.wait_for_function(by_bot)
        assert not re.search(r"^You ", leaver.inner_text("#log"), re.M)
        leaver.screenshot(path=str(ARTIFACTS / "e2e-room-left-seat.png"), full_page=True)
        leaver.click("#take-back")
        leaver.wait_for_selector(f"{mine}.mine")
        leaver.wait_for_selector("#hand-score")
        assert leaver.locator("#standing").is_hidden()
        other.wait_for_function(
            f"() => document.querySelector(\"{mine}\").textContent === 'Seat {seat + 1}: {name}'"
        )
        info = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]["seats"][seat]
        assert (info["name"], info["kind"]) == (name, "human")
        for page in (other, leaver):
            page.context.close()
    assert not errors, errors


def test_a_rematch_asks_each_person_and_spectators_choose_to_follow(browser, tmp_path):
    errors: list[str] = []
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        table_id, tokens = open_table(base, players=3, humans=2, options={"end": "open"})
        ann, bob, spy = (page_of(browser, errors) for _ in range(3))
        for page, token in ((ann, tokens[0]), (bob, tokens[1]), (spy, None)):
            page.goto(f"{base}/t/{table_id}" + (f"#seat={token}" if token else ""))
            page.wait_for_selector("#conn:has-text('connected')")
        # a spectator is told so
        assert "You are watching" in spy.inner_text("#standing")
        assert ann.locator("#standing").is_hidden()
        spy.screenshot(path=str(ARTIFACTS / "e2e-room-watching.png"))
        close_table(base, table_id, tokens[0])
        for page in (ann, bob, spy):
            page.wait_for_selector("#results-panel:not([hidden])")
        ann.click("#rematch")
        ann.wait_for_url(re.compile(r".*/t/(?!" + table_id + ")"))
        new_id = ann.url.rsplit("/", 1)[1]
        ann.wait_for_selector("#seats [data-seat='1']:has-text('answering')")
        # Bob is asked, not moved; the spectator may follow
        bob.wait_for_selector("#join-rematch")
        assert "you are offered your seat" in bob.inner_text("#standing")
        spy.wait_for_selector("#watch-rematch")
        bob.screenshot(path=str(ARTIFACTS / "e2e-room-rematch-offer.png"))
        assert bob.url.endswith(table_id) and spy.url.endswith(table_id)
        assert httpx.get(f"{base}/api/tables/{new_id}").json()["table"]["status"] == "open"
        bob.click("#join-rematch")
        bob.wait_for_url(f"**/t/{new_id}")
        for page in (ann, bob):
            page.wait_for_selector("#turn:not(:has-text('Waiting for players'))")
        # started; a deal the bot declares at once (a dealt Thirty-two, about 1 in 1,000)
        # has already finished it
        status = httpx.get(f"{base}/api/tables/{new_id}").json()["table"]["status"]
        assert status in ("playing", "finished")
        spy.click("#watch-rematch")
        spy.wait_for_url(f"**/t/{new_id}")
        spy.wait_for_selector("#standing:has-text('You are watching')")
        bob.wait_for_selector("#seats [data-seat='1'].mine", state="attached")  # folded bar
        for page in (ann, bob, spy):
            page.context.close()
    assert not errors, errors


def test_chat_shows_html_as_text_mutes_and_lands_in_the_replay(browser, tmp_path):
    errors: list[str] = []
    hostile = '<img src=x onerror="window.pwned=1"><b>bold</b> & <script>x</script>'
    with live_server(str(tmp_path), bot_delay=30) as base:  # (the lines are said at version 0)
        table_id, tokens = open_table(base, players=3, humans=2, options={"end": "open"})
        ann, spy = page_of(browser, errors), page_of(browser, errors, {"width": 390, "height": 844})
        ann.goto(f"{base}/t/{table_id}#seat={tokens[0]}")
        spy.goto(f"{base}/t/{table_id}")
        for page in (ann, spy):
            page.wait_for_selector("#conn:has-text('connected')")
        spy.fill("#chat-input", hostile)
        spy.press("#chat-input", "Enter")
        ann.wait_for_selector("#chat-lines .chat-line")
        line = ann.locator("#chat-lines .chat-line").first
        assert line.locator(".who").inner_text() == "Spectator 1"
        assert line.locator(".said").inner_text() == hostile
        assert ann.locator("#chat-lines img, #chat-lines b, #chat-lines script").count() == 0
        assert ann.evaluate("() => window.pwned") is None
        ann.fill("#chat-input", "hello watcher")
        ann.click("#chat-form button")
        said = spy.locator("#chat-lines .chat-line", has_text="hello watcher")
        said.wait_for()
        assert said.locator(".who").inner_text() == "Ann"
        # too long: refused, said why, and the text comes back to be sent again
        spy.evaluate("() => document.getElementById('chat-input').removeAttribute('maxlength')")
        spy.fill("#chat-input", "y" * 301)
        spy.press("#chat-input", "Enter")
        spy.wait_for_selector("#chat-error:has-text('at most 300 characters')")
        assert spy.input_value("#chat-input") == "y" * 301
        spy.screenshot(path=str(ARTIFACTS / "e2e-room-chat-phone.png"), full_page=True)
        # Ann mutes the spectator; it lasts a reload
        ann.click("#chat-lines button[aria-label='Mute Spectator 1']")
        ann.wait_for_selector("#chat-lines button:has-text('Spectator 1 (unmute)')")
        assert ann.locator("#chat-lines .chat-line").count() == 1
        ann.reload()
        ann.wait_for_selector("#chat-lines .chat-line:has-text('hello watcher')")
        assert ann.locator("#chat-lines .chat-line").count() == 1
        ann.click("#chat-lines button:has-text('Spectator 1 (unmute)')")
        assert ann.locator("#chat-lines .chat-line").count() == 2
        # the lines are stored with the game and shown in its replay, still as text
        close_table(base, table_id, tokens[0])
        ann.goto(f"{base}/r/{table_id}")
        ann.wait_for_selector("#chat-lines .chat-line")
        ann.click("#first")
        assert ann.locator("#chat-lines .chat-line").count() == 2  # both said at version 0
        assert ann.locator("#chat-lines .said").first.inner_text() == hostile
        assert ann.locator("#chat-lines img, #chat-lines b").count() == 0
        ann.screenshot(path=str(ARTIFACTS / "e2e-room-replay-chat.png"), full_page=True)
        for page in (ann, spy):
            page.context.close()
    assert not errors, errors


def test_the_lobbys_three_lists_update_without_a_reload(browser, tmp_path):
    errors: list[str] = []
    with live_server(str(tmp_path)) as base:
        page = page_of(browser, errors)
        page.goto(base + "/")
        page.wait_for_selector("#lobby-conn:has-text('live')")
        for list_id in ("open-list", "playing-list", "finished-list"):
            page.wait_for_selector(f"#{list_id} .empty")  # (visible once the lists came)
        table_id, tokens = open_table(
            base, players=3, humans=1, options={"end": "open"}, start=False
        )
        row = f"#open-tables tr[data-table='{table_id}']"
        page.wait_for_selector(row)
        assert "Ann" in page.inner_text(row) and "Heuristic bot" in page.inner_text(row)
        assert "played to the last counter" in page.inner_text(
            row
        ) and "just now" in page.inner_text(row)
        assert page.get_attribute(f"{row} a", "href") == f"/t/{table_id}"
        started = httpx.post(
            f"{base}/api/tables/{table_id}/start", headers={"X-Seat-Token": tokens[0]}
        )
        assert started.status_code == 200, started.text
        row = f"#playing-tables tr[data-table='{table_id}']"
        page.wait_for_selector(row)
        assert page.locator(f"#open-tables tr[data-table='{table_id}']").count() == 0
        assert page.inner_text(f"{row} a") == "Watch"
        close_table(base, table_id, tokens[0])
        row = f"#finished-tables tr[data-table='{table_id}']"
        page.wait_for_selector(row)
        assert page.get_attribute(f"{row} a", "href") == f"/r/{table_id}"
        assert page.locator("#playing-list .empty").is_visible()
        page.screenshot(path=str(ARTIFACTS / "e2e-room-lobby.png"), full_page=True)
        page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("path", ["/", "/rules", "/rules/thirty-two", "/rules/toe"])
def test_the_lobby_and_the_rules_pages_pass_axe(browser, tmp_path, path):
    from axe_playwright_python.sync_playwright import Axe

    errors: list[str] = []
    with live_server(str(tmp_path)) as base:
        page = page_of(browser, errors)
        page.goto(f"{base}{path}")
        page.wait_for_load_state("networkidle")
        violations = Axe().run(page).response["violations"]
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in violations
            if v["impact"] in ("serious", "critical")
        ]
        page.context.close()
    assert not bad, f"{path}: {bad}"
    assert not errors, errors


def test_an_abandoned_game_says_so_and_offers_its_replay(browser, tmp_path):
    errors: list[str] = []
    with live_server(str(tmp_path), bot_delay=30, abandon_grace=0.2) as base:
        table_id, tokens = open_table(base, players=3, humans=1)
        with httpx.Client(base_url=base, timeout=30) as http:
            r = http.delete(f"/api/tables/{table_id}/seats/0", headers={"X-Seat-Token": tokens[0]})
            assert r.status_code == 200, r.text
        page = page_of(browser, errors)
        page.goto(f"{base}/t/{table_id}")
        page.wait_for_selector("#results-panel:not([hidden])")
        assert page.inner_text("#turn") == "Game abandoned"
        assert "nobody was left at the table" in page.inner_text("#results")
        assert page.locator("#rematch").is_hidden()
        page.click("#replay-link")
        page.wait_for_url(f"**/r/{table_id}")
    assert errors == []
