"""Accounts in real browsers: sign up in the lobby, sit under the account's name; a guest
who signs in keeps their seat, now linked to the account; sign out and in again; a rated
Thirty-One against two bots, then its rating change on the player page, the game in "my
games" and its replay, and the leaderboard."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from tests.server.helpers import live_server
from tests.server.test_e2e import ARTIFACTS
from tests.server.test_e2e_games import click_drawing
from tripletopper.server import schema
from tripletopper.server.storage import Database, sqlite_url

pytestmark = pytest.mark.e2e


def stored_seats(data_dir: str) -> list[tuple[Any, ...]]:
    db = Database(sqlite_url(data_dir))
    s, u = schema.seats, schema.users
    query = select(s.c.seat, s.c.name, u.c.name).join(u, u.c.id == s.c.user_id, isouter=True)
    rows = db.run_now(lambda conn: sorted(conn.execute(query.order_by(s.c.seat))))
    db.engine.dispose()
    return [tuple(r) for r in rows]


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/")
    page.fill("#sign-in-form input[name=name]", name)
    page.fill("#sign-in-form input[name=password]", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector(f"#signed-in-as:has-text('{name}')")


def ann_plays_toe_against_an_easy_bot(page: Any, base: str) -> str:
    """Ann signs up, opens a Toe table with an easy bot in seat 2 and starts it; its id."""
    sign_up(page, base, "Ann")
    page.select_option("#game", "toe")
    page.click("#open-table")
    page.wait_for_url(f"{base}/t/*")
    box = "#seats [data-seat='1']"
    page.select_option(f"{box} select", "easy")
    page.click(f"{box} button:has-text('Add bot')")
    page.wait_for_selector(f"{box}:has-text('Easy bot')")
    page.click("#start")
    page.wait_for_selector("#game .toe-cell")
    return str(page.url.rsplit("/", 1)[1])


def test_sign_up_sit_as_the_account_and_a_guest_keeps_their_seat(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        ann = browser.new_context().new_page()
        bob = browser.new_context().new_page()
        errors: list[str] = []
        for page in (ann, bob):
            page.on("pageerror", lambda exc: errors.append(str(exc)))

        sign_up(ann, base, "Ann")
        assert ann.input_value("#your-name") == "Ann"
        assert ann.locator("#your-name").get_attribute("readonly") is not None
        ann.select_option("#game", "thirty-two")
        assert ann.is_checked("#rated")  # signed in: rated by default...
        ann.uncheck("#rated")  # ...but a guest is to sit here
        ann.click("#open-table")
        ann.wait_for_url(f"{base}/t/*")
        ann.wait_for_selector("#seats [data-seat='0']:has-text('Ann - you')")
        table_url = ann.url

        bob.goto(table_url)  # a guest sits down...
        bob.fill("#seats [data-seat='1'] input", "Bob")
        bob.click("#seats [data-seat='1'] button:has-text('Sit here')")
        bob.wait_for_selector("#seats [data-seat='1']:has-text('Bob - you')")
        assert bob.is_visible("#sign-in-hint")
        assert stored_seats(str(tmp_path)) == [(0, "Ann", "Ann"), (1, "Bob", None)]

        bob.click("#sign-in-link")  # ...signs up from the table's hint and is sent back:
        bob.fill("#sign-in-form input[name=name]", "Bobby")
        bob.fill("#sign-in-form input[name=password]", "correct horse")
        bob.click("#sign-up")
        bob.wait_for_url(table_url)
        bob.wait_for_selector("#seats [data-seat='1']:has-text('Bob - you')")  # the same seat
        assert bob.locator("#sign-in-hint").is_hidden()
        for _ in range(50):
            if stored_seats(str(tmp_path))[1] == (1, "Bob", "Bobby"):
                break
            bob.wait_for_timeout(100)
        assert stored_seats(str(tmp_path)) == [(0, "Ann", "Ann"), (1, "Bob", "Bobby")]

        ann.goto(f"{base}/")  # still signed in after a reload; then out and in again
        ann.wait_for_selector("#signed-in-as:has-text('Ann')")
        ann.click("#sign-out")
        ann.wait_for_selector("#sign-in-form")
        assert ann.locator("#your-name").get_attribute("readonly") is None
        ann.fill("#sign-in-form input[name=name]", "ann")
        ann.fill("#sign-in-form input[name=password]", "wrong password")
        ann.click("#sign-in")
        ann.wait_for_selector("#account-error:has-text('wrong name or password')")
        ann.fill("#sign-in-form input[name=password]", "correct horse")
        ann.click("#sign-in")
        ann.wait_for_selector("#signed-in-as:has-text('Ann')")
        assert errors == []


def axe_violations(page: Any) -> list[Any]:
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_a_rated_thirty_one_against_two_bots_shows_on_the_player_page(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, base, "Ann")
        page.select_option("#game", "thirty-one")
        page.select_option("#players", "3")
        assert page.is_checked("#rated")
        page.click("#open-table")
        page.wait_for_url(f"{base}/t/*")
        table_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#conn:has-text('connected')")  # drawn as signed in
        for seat in (1, 2):
            box = f"#seats [data-seat='{seat}']"
            page.select_option(f"{box} select", "easy")
            page.click(f"{box} button:has-text('Add bot')")
            page.wait_for_selector(f"{box}:has-text('Easy bot')")
        page.click("#start")
        seat = SimpleNamespace(page=page, finished=lambda: page.is_visible("#results-panel"))
        ARTIFACTS.mkdir(exist_ok=True)
        click_drawing(seat, random.Random(5), clicks=2000, seconds=240)
        if not seat.finished():  # for the post-mortem: what the page showed when time was up
            page.screenshot(path=str(ARTIFACTS / "rated-game-unfinished.png"), full_page=True)
        assert seat.finished(), f"the game did not finish in time: {page.inner_text('#turn')!r}"
        # the end of a rated game shows each rating's change, on the shown scale
        page.wait_for_selector("#rating-changes li[data-seat='0']")
        mine = page.inner_text("#rating-changes li[data-seat='0']")
        assert re.fullmatch(r"You: 1500\? → \d+\? \([+-]\d+\)", mine), mine

        page.goto(f"{base}/")  # my games: the finished game, with its replay
        page.wait_for_selector(f"#my-list tr[data-table='{table_id}'] a:has-text('Replay')")
        assert "rated" in page.inner_text(f"#my-list tr[data-table='{table_id}']")
        page.click("#my-page")
        page.wait_for_selector(".rating[data-game='thirty-one'] svg.rating-chart polyline")
        api = page.request.get(f"{base}/api/players/Ann").json()
        (rating,) = api["ratings"]
        shown = page.inner_text(".rating[data-game='thirty-one'] .value")
        assert shown == f"{rating['rating']}?"  # 1500 and up or down; provisional at first
        row = page.locator(f"#games tr[data-table='{table_id}']")
        change = api["games"][0]["rating"]
        delta = change["after"] - change["before"]
        assert change["before"] == 1500
        after, moved = re.fullmatch(
            r"(\d+) \(([+-]\d+)\)", row.locator(".change").inner_text()
        ).groups()
        assert int(after) == change["after"]
        assert int(moved) == delta and delta != 0
        assert not axe_violations(page)
        row.locator("a:has-text('Replay')").click()
        page.wait_for_url(f"{base}/r/{table_id}")
        page.wait_for_selector("#where:has-text('step')")

        page.goto(f"{base}/leaderboard/thirty-one")
        page.wait_for_selector("#players tr[data-player='Ann']")
        bot = page.locator("#players tr[data-player='Easy bot']")
        assert bot.locator(".badge").inner_text() == "bot"
        assert page.locator("#players tr").count() == 2
        assert not axe_violations(page)
        assert errors == []


def test_a_bot_account_made_in_the_lobby_is_added_from_the_table_page(browser, tmp_path):
    import asyncio
    import threading

    from tripletopper.server.botclient import run

    with live_server(str(tmp_path), bot_delay=0.05) as base:
        page = browser.new_context().new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        sign_up(page, base, "Ann")
        page.click("#bots-panel summary")
        page.fill("#new-bot-form input[name=name]", "Robo")
        page.click("#new-bot-form button")
        page.click("#bot-list li[data-bot='Robo'] button:has-text('New token')")
        token = page.inner_text("#new-token code")
        said: list[str] = []
        played: list[str] = []
        thread = threading.Thread(
            target=lambda: played.append(
                asyncio.run(run(base, token, "heuristic", say=said.append, once=True))
            ),
            daemon=True,
        )
        thread.start()
        page.goto(f"{base}/")
        page.wait_for_selector(
            "#bot-list li[data-bot='Robo'] .badge:has-text('online')", state="attached"
        )  # in the folded "Your bots"
        page.select_option("#game", "thirty-one")
        page.select_option("#players", "3")
        page.click("#open-table")
        page.wait_for_url(f"{base}/t/*")
        page.wait_for_selector("#conn:has-text('connected')")
        box = "#seats [data-seat='1']"
        page.wait_for_selector(f"{box} option[value='account:Robo']", state="attached")
        page.select_option(f"{box} select", "account:Robo")
        page.click(f"{box} button:has-text('Add bot')")
        page.wait_for_selector(f"{box}:has-text('Robo')")
        page.select_option("#seats [data-seat='2'] select", "easy")
        page.click("#seats [data-seat='2'] button:has-text('Add bot')")
        page.wait_for_selector("#seats [data-seat='2']:has-text('Easy bot')")
        page.click("#start")
        seat = SimpleNamespace(page=page, finished=lambda: page.is_visible("#results-panel"))
        click_drawing(seat, random.Random(6), clicks=2000, seconds=240)
        assert seat.finished()
        thread.join(timeout=60)
        assert played == ["played"], said
        assert errors == []


def seat_actions(data_dir: str, table_id: str, seat: int) -> int:
    db = Database(sqlite_url(data_dir))
    a = schema.actions
    query = select(a.c.n).where(a.c.table_id == table_id, a.c.seat == seat)
    count = db.run_now(lambda conn: len(conn.execute(query).all()))
    db.engine.dispose()
    return count


def test_my_games_resumes_the_seat_on_another_browser_which_plays_a_move(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        laptop = browser.new_context().new_page()
        errors: list[str] = []
        table_id = ann_plays_toe_against_an_easy_bot(laptop, base)

        phone = browser.new_context(viewport={"width": 375, "height": 800}).new_page()
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        phone.goto(f"{base}/")
        phone.fill("#sign-in-form input[name=name]", "Ann")
        phone.fill("#sign-in-form input[name=password]", "correct horse")
        phone.click("#sign-in")
        phone.wait_for_selector("#signed-in-as:has-text('Ann')")
        phone.click(f"#my-list tr[data-table='{table_id}'] button:has-text('Resume my seat')")
        phone.wait_for_url(f"{base}/t/{table_id}")
        phone.wait_for_selector("#conn:has-text('connected')")
        phone.wait_for_selector("#seats [data-seat='0'].mine", state="attached")  # her seat
        seat = SimpleNamespace(page=phone, finished=lambda: phone.is_visible("#results-panel"))
        rng = random.Random(7)
        for _ in range(60):  # click cells until the server stored a move of Ann's seat
            if seat_actions(str(tmp_path), table_id, 0) or seat.finished():
                break
            click_drawing(seat, rng, clicks=1, seconds=5)
        assert seat_actions(str(tmp_path), table_id, 0) >= 1
        laptop.reload()  # the first browser holds the seat still
        laptop.wait_for_selector("#conn:has-text('connected')")
        laptop.wait_for_selector("#seats [data-seat='0'].mine", state="attached")
        assert errors == []


def test_the_table_page_offers_a_signed_in_watcher_to_resume_the_accounts_seat(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        laptop = browser.new_context().new_page()
        errors: list[str] = []
        table_id = ann_plays_toe_against_an_easy_bot(laptop, base)
        table_url = laptop.url

        def signed_in_at_the_table() -> Any:
            page = browser.new_context().new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.goto(f"{base}/")
            page.fill("#sign-in-form input[name=name]", "Ann")
            page.fill("#sign-in-form input[name=password]", "correct horse")
            page.click("#sign-in")
            page.wait_for_selector("#signed-in-as:has-text('Ann')")
            page.goto(table_url)  # straight to the table, not through "My games"
            page.wait_for_selector("#standing:has-text('your account holds seat 1 here')")
            return page

        phone, tablet = signed_in_at_the_table(), signed_in_at_the_table()
        # a new state that changes nothing the banner says leaves its button in place (it
        # was drawn anew at every move, and two bots playing fast made it unclickable)
        kept = tablet.evaluate("""async () => {
            const { renderStanding } = await import("/static/seating.js");
            const page = { table: { id: "x", status: "playing", seats: [] }, seat: null,
                           resumable: 0, away: null, invited: null };
            renderStanding(page, () => {}, () => {});
            const button = document.getElementById("resume-seat");
            page.table = { ...page.table, version: 7 };
            renderStanding(page, () => {}, () => {});
            const same = button === document.getElementById("resume-seat") && button.isConnected;
            page.resumable = null;  // what it says changed: drawn anew
            renderStanding(page, () => {}, () => {});
            return [same, document.getElementById("resume-seat") === null];
        }""")
        assert kept == [True, True]
        tablet.reload()
        tablet.wait_for_selector("#standing:has-text('your account holds seat 1 here')")
        phone.click("#resume-seat")
        phone.wait_for_selector("#seats [data-seat='0'].mine", state="attached")  # her seat
        assert phone.locator("#resume-seat").count() == 0
        assert phone.evaluate(f"localStorage.getItem('tt-token-{table_id}')")

        # the same refusals as "My games": her seat left to a bot is not resumed
        token = laptop.evaluate(f"localStorage.getItem('tt-token-{table_id}')")
        r = httpx.delete(f"{base}/api/tables/{table_id}/seats/0", headers={"X-Seat-Token": token})
        assert r.status_code == 200, r.text
        laptop.wait_for_selector("#standing:has-text('you finish last, even if you take it back')")
        said: list[str] = []  # a refusal is said whatever panels show

        def answer(dialog: Any) -> None:  # at once: an open alert freezes the page's clicks
            said.append(dialog.message)
            dialog.dismiss()

        tablet.once("dialog", answer)
        tablet.click("#resume-seat")
        for _ in range(600):  # up to 30 s
            if said:
                break
            tablet.wait_for_timeout(50)
        assert said and "you left seat 1: a bot plays it" in said[0]
        assert tablet.evaluate(f"localStorage.getItem('tt-token-{table_id}')") is None
        assert errors == []
