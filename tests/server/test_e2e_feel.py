"""How the room feels to a newcomer, in a real browser (Playwright on Debian's Chromium):

- one click from the lobby's first screen to a started game against bots, for every game;
  "Play with friends" opens a table with its invite link; the play buttons on the first
  screen at 1280x800 and 390x844, a few Tabs from the top; options in plain words with
  their defaults shown as defaults; no "null" in an open table's summary;
- every game's end screen, played to the end (a websocket client plays the seat's random
  legal moves while the page holding the same seat watches): winner and reason on the first
  screen at both sizes, the deciding moment, what the scores count, the defects of old
  (3UP's winner struck through, Thirty-One's hands half face down at the end, Memo Match's
  empty grid), and never the text "null" or "undefined" on the page during the whole game;
- cards that move (animations started), none under prefers-reduced-motion; the table's
  sounds with Sound on; light and dark themes, both without a serious or critical axe
  violation; a replay that opens on the seat's own view; the Quiz Show's buzz that a press
  meant for the question before cannot send.

Screenshots go to test-artifacts/."""

from __future__ import annotations

import asyncio
import random
import re
import threading
import time
from typing import Any

import httpx
import pytest

from tests.server.helpers import live_server, open_table
from tests.server.test_e2e import ARTIFACTS
from tests.test_narration import BAD as ENGLISH
from tripletopper.server.client import TableClient

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
GAMES = ["thirty-two", "thirty-one", "toe", "memo-match", "three-up-three-down"]
# Every text node change is checked for a value that leaked into words.
WATCH_WORDS = """(() => {
  window.__bad = [];
  const look = () => {
    const text = document.body ? document.body.innerText : "";
    const found = text.match(/.{0,40}\\b(null|undefined|NaN)\\b.{0,20}/);
    if (found && window.__bad.length < 5) window.__bad.push(found[0]);
  };
  const all = { childList: true, subtree: true, characterData: true };
  new MutationObserver(look).observe(document, all);
})();"""


def page_of(
    browser: Any, viewport: dict[str, int] = DESKTOP, **options: Any
) -> tuple[Any, list[str]]:
    context = browser.new_context(viewport=viewport, **options)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return page, errors


BOTTOM = """(selector) => Math.max(...[...document.querySelectorAll(selector)]
  .map((node) => node.getBoundingClientRect().bottom + scrollY))"""


def bottom(page: Any, selector: str) -> float:
    """Where the lowest element matching ``selector`` ends, from the top of the page."""
    return float(page.evaluate(BOTTOM, selector))


def axe_bad(page: Any) -> list[Any]:
    from axe_playwright_python.sync_playwright import Axe

    violations = Axe().run(page).response["violations"]
    return [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


# --- the lobby ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_one_click_from_the_lobby_starts_a_game_against_bots(browser, tmp_path, game):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        page, errors = page_of(browser)
        page.goto(base + "/")
        button = page.locator(f"button[data-quick='{game}']")
        button.wait_for()
        assert bottom(page, f"button[data-quick='{game}']") <= DESKTOP["height"]
        requests: list[str] = []
        page.on(
            "request",
            lambda r: requests.append(f"{r.method} {r.url}") if "/api/" in r.url else None,
        )
        button.click()  # the one click
        page.wait_for_url("**/t/*")
        table_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#conn:has-text('connected')")
        table = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
        assert table["status"] in ("playing", "finished") and table["game"] == game
        seats = table["seats"]
        assert seats[0]["kind"] == "human" and all(
            s["kind"] == "bot" and s["bot"] == "medium" for s in seats[1:]
        )
        assert sum(r.startswith("POST") for r in requests) == len(seats) + 1  # open, bots, start
        page.wait_for_function(  # the game drawn
            "() => [...document.querySelectorAll('#game .card, #game .toe-cell, #game .memo-down')]"
            ".some((n) => n.getBoundingClientRect().width > 0)"
        )
        assert page.locator("#table-info").get_attribute("open") is None  # seats folded away
        page.context.close()
    assert not errors, errors


def test_the_first_screen_shows_every_game_with_its_buttons_a_few_tabs_away(browser, tmp_path):
    with live_server(str(tmp_path)) as base:
        for viewport in (DESKTOP, PHONE):
            page, errors = page_of(browser, viewport)
            page.goto(base + "/")
            page.wait_for_selector("button[data-quick]")
            assert "family of card games" in page.inner_text("#intro")
            cards = page.locator(".game-card")
            assert cards.count() == 5
            for i in range(5):
                assert cards.nth(i).locator(".pitch").inner_text().strip()
            for selector in ("button[data-quick]", "button[data-friends]"):
                lowest = bottom(page, selector)
                assert lowest <= viewport["height"], (viewport, selector, lowest)
            assert bottom(page, "#create-title") > bottom(
                page, "#game-cards"
            )  # the form comes below
            assert bottom(page, "#account") > bottom(page, "#open-list")  # accounts after the lists
            page.screenshot(path=str(ARTIFACTS / f"e2e-feel-lobby-{viewport['width']}.png"))
            page.context.close()
            assert not errors, errors
        page, _ = page_of(browser)
        page.goto(base + "/")
        page.wait_for_selector("button[data-quick]")
        tabs = 0
        while not page.evaluate("() => document.activeElement.matches('button[data-quick]')"):
            page.keyboard.press("Tab")
            tabs += 1
            assert tabs <= 6, "more than six Tabs to the first Play"
        page.keyboard.press("Enter")  # and Enter plays
        page.wait_for_url("**/t/*")
        page.context.close()


def test_play_with_friends_opens_a_table_with_its_invite_link(browser, tmp_path):
    with live_server(str(tmp_path)) as base:
        page, errors = page_of(browser)
        page.goto(base + "/")
        page.fill("#your-name", "Ann")
        page.click("button[data-friends='thirty-one']")
        page.wait_for_url("**/t/*")
        table_id = page.url.rsplit("/", 1)[1]
        page.wait_for_selector("#seats [data-seat]")
        assert page.input_value("#invite").endswith(f"/t/{table_id}")
        assert page.locator("#invite").is_visible()
        summary = page.inner_text("#table-summary")
        assert (
            summary.strip() == "Invite and seats" and "null" not in summary
        )  # was "Invite and seats null"
        table = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
        assert table["status"] == "open" and table["seats"][0]["name"] == "Ann"
        page.context.close()
    assert not errors, errors


def test_options_are_in_plain_words_with_their_defaults(browser, tmp_path):
    with live_server(str(tmp_path)) as base:
        page, errors = page_of(browser)
        page.goto(base + "/")
        page.wait_for_selector("#game option", state="attached")
        page.select_option("#game", "thirty-two")
        form = page.inner_text("#options")
        for jargon in ("first_elimination", "no_wilds", "cap_at_32", "(off:"):
            assert jargon not in form, jargon
        assert "when the first player runs out of counters (default)" in form
        assert page.get_attribute("input[data-option=counters]", "placeholder") == "8 (default)"
        page.select_option("#players", "3")
        assert page.get_attribute("input[data-option=counters]", "placeholder") == "6 (default)"
        page.select_option("#game", "toe")
        page.check("input[data-option=quiz]")
        quiz = page.inner_text("#options")
        assert "name@digest" not in quiz and "--questions" not in quiz
        assert page.locator("[data-option=questions]").count() == 0
        assert "Seconds to buzz in" in quiz
        # the open tables' list names only what a table changed, in words
        table_id, _ = open_table(base, players=3, humans=1, start=False, options={"counters": 6})
        row = f"#open-tables tr[data-table='{table_id}']"
        page.wait_for_selector(row)
        assert page.inner_text(f"{row} td.options") == "standard rules"  # 6 is 3 players' default
        other, _ = open_table(
            base, players=3, humans=1, start=False, options={"end": "open", "counters": 9}
        )
        text = page.locator(f"#open-tables tr[data-table='{other}'] td.options").inner_text()
        assert text == "9 counters each · played to the last counter"
        page.context.close()
    assert not errors, errors


# --- whole games to their end --------------------------------------------------------------
END_GAMES = [
    ("thirty-two", 3, {}),
    ("thirty-one", 3, {}),
    ("toe", 2, {"max_turns": 80}),  # against a medium bot: four in a line before the limit
    ("toe", 2, {"quiz": True, "buzz_seconds": 1, "max_turns": 12}),
    ("memo-match", 2, {"max_turns": 160}),
    ("three-up-three-down", 3, {}),
]


def play_seat(base: str, table_id: str, token: str, seed: int) -> threading.Thread:
    """A websocket client plays the seat's random legal moves until the game ends (a move
    refused because a bot raced it to a question or a pair is simply chosen again)."""

    async def run() -> None:
        rng = random.Random(seed)
        async with TableClient(base, table_id, token) as client:
            ends = time.monotonic() + 240
            while not client.finished and time.monotonic() < ends:
                await client.wait(
                    lambda c: bool(c.legal) or c.finished, timeout=ends - time.monotonic()
                )
                if client.finished:
                    return
                seen = client.version
                await asyncio.sleep(0.025)  # under the per-connection rate limit
                if client.version == seen and client.legal:
                    client.errors.clear()
                    await client.act(rng.choice(client.actions))
                    await client.wait(
                        lambda c, v=seen: c.version != v or bool(c.errors) or c.finished
                    )

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    return thread


@pytest.mark.parametrize(("game", "players", "options"), END_GAMES, ids=lambda v: str(v))
def test_every_end_screen_says_who_won_and_why_on_the_first_screen(
    browser, tmp_path, game, players, options
):
    ARTIFACTS.mkdir(exist_ok=True)
    with live_server(str(tmp_path), bot_delay=0.02) as base:
        bots = "medium" if game == "toe" and not options.get("quiz") else "random"
        table_id, tokens = open_table(
            base, game=game, players=players, humans=1, bots=bots, options=options
        )
        page, errors = page_of(browser)
        page.add_init_script(WATCH_WORDS)
        page.goto(f"{base}/t/{table_id}#seat={tokens[0]}")
        page.wait_for_selector("#conn:has-text('connected')")
        page.click("#sound-toggle")  # the table's sounds, to hear the end
        player = play_seat(base, table_id, tokens[0], 7)
        page.wait_for_selector("#results-panel:not([hidden]) #verdict", timeout=240_000)
        player.join(timeout=60)
        page.wait_for_timeout(400)  # the last update drawn (and its cards moved)
        name = f"{game}{'-quiz' if options.get('quiz') else ''}"
        verdict = page.inner_text("#verdict")
        # who won, then why: "You won: ...", "Random bot 2 won: ...", "A draw: nobody won: ..."
        assert re.fullmatch(r"(A draw: nobody won|.+ share the win|.+ won): .{6,}", verdict), (
            verdict
        )
        assert page.evaluate("scrollY") == 0
        assert bottom(page, "#verdict") <= DESKTOP["height"]
        assert page.locator("#results .ranking li").count() == players
        assert page.inner_text("#results .unit")
        page.screenshot(path=str(ARTIFACTS / f"e2e-feel-end-{name}-desktop.png"))
        obs = httpx.get(f"{base}/api/tables/{table_id}").json()["table"]
        assert obs["status"] == "finished"
        ranking = page.locator("#results .ranking li").all_inner_texts()
        if game == "thirty-one":  # the knocker named; lives in words, not "2 lives" by one heart
            moment = page.inner_text("#results .moment")
            assert re.search(
                r"ended with (a showdown after (your|.+'s) knock|the stock running out|.*31)",
                moment,
            ), moment
            assert all(
                re.search(r": (\d+ li(fe|ves): .*drain|0 lives: out)$", line) for line in ranking
            ), ranking
        if game in ("thirty-two", "thirty-one"):
            assert "The last hand" in page.inner_text("#results .moment")
            assert page.locator("#game .players .card").count() == 0  # no hand half face down
            assert "pays" not in page.inner_text("#results") or " to " in page.inner_text(
                "#results"
            )
        if game == "toe" and not options.get("quiz"):
            assert "four in a line, " in verdict, verdict  # the winning line named
            assert page.locator("#results .cell-chip").count() == 4
            assert page.locator("#game .toe-cell.win").count() == 4
            assert "marks vs" not in page.inner_text("#results")
        if game == "three-up-three-down":
            assert (
                page.locator("#game .player.out").count() == 0
            )  # going out is not being struck out
            assert page.locator("#game .player.done").count() >= 1
        if game == "memo-match":
            assert page.locator("#game details.taken[open]").count() == 0
        page.set_viewport_size(PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_timeout(200)
        assert bottom(page, "#verdict") <= PHONE["height"]
        page.screenshot(path=str(ARTIFACTS / f"e2e-feel-end-{name}-phone.png"))
        bad = page.evaluate("() => window.__bad")
        assert not bad, f"words that are values: {bad}"
        sounds = page.evaluate("() => document.body.dataset.sounds || ''").split()
        you_won = verdict.startswith("You won")
        assert sounds[-1] == ("win" if you_won else "loss"), sounds  # the end's own sound
        if game in ("thirty-two", "thirty-one"):
            assert {"draw", "discard", "knock"} <= set(sounds), sounds
        # the end and the whole log read as English with names ending in digits and "You"
        for line in page.locator(
            "#results p, #results li, #results div, #log .line"
        ).all_inner_texts():
            for pattern in ENGLISH:
                assert not pattern.search(line), f"{line!r} ({pattern.pattern})"
        page.context.close()
    assert not errors, errors


# --- motion, sound, themes ----------------------------------------------------------------
def test_cards_move_and_sound_and_not_under_reduced_motion(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.3) as base:
        with httpx.Client(base_url=base, timeout=30) as http:
            r = http.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"})
            table_id, token = r.json()["table"]["id"], r.json()["token"]
            for seat in (1, 2):
                http.post(
                    f"/api/tables/{table_id}/seats/{seat}/bot",
                    json={"bot": "random"},
                    headers={"X-Seat-Token": token},
                )
        pages = {}
        for motion in ("no-preference", "reduce"):
            page, errors = page_of(browser, reduced_motion=motion)
            page.goto(f"{base}/t/{table_id}")  # watching: the bots' moves and Ann's
            page.wait_for_selector("#conn:has-text('connected')")
            assert page.locator("#volume").is_hidden()  # sound is off until asked for
            page.click("#sound-toggle")
            assert page.locator("#volume").is_visible()
            pages[motion] = (page, errors)
        with httpx.Client(base_url=base, timeout=30) as http:
            http.post(f"/api/tables/{table_id}/start", headers={"X-Seat-Token": token})
        seat = TableClient(base, table_id, token)

        async def ann() -> None:  # Ann plays a dozen random moves; the bots answer
            async with seat:
                rng = random.Random(3)
                for _ in range(12):
                    await seat.wait(lambda c: bool(c.legal) or c.finished, timeout=60)
                    if seat.finished:
                        return
                    version = seat.version
                    await seat.act(rng.choice(seat.actions))
                    await seat.wait(lambda c, v=version: c.version != v, timeout=30)

        thread = threading.Thread(
            target=lambda: asyncio.run(ann())
        )  # (Playwright owns a loop here)
        thread.start()
        thread.join(timeout=120)
        moving, still = pages["no-preference"][0], pages["reduce"][0]
        moving.wait_for_function(
            "() => Number(document.body.dataset.animations || 0) > 3", timeout=30_000
        )
        still.wait_for_timeout(500)
        assert still.evaluate("() => document.body.dataset.animations") is None  # nothing moved
        sounds = moving.evaluate("() => document.body.dataset.sounds || ''").split()
        assert {"draw", "discard"} <= set(sounds), sounds
        # both pages show the same table in the end
        for page in (moving, still):
            page.wait_for_function(
                "() => document.querySelectorAll('#log .line').length >= 12", timeout=30_000
            )
        for page, errors in pages.values():
            page.context.close()
            assert not errors, errors


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_both_themes_pass_axe_in_the_lobby_at_a_table_and_at_the_end(browser, tmp_path, theme):
    with live_server(str(tmp_path), bot_delay=0.02) as base:
        table_id, tokens = open_table(
            base, game="toe", players=2, humans=1, bots="random", options={"max_turns": 30}
        )
        page, errors = page_of(browser)
        page.add_init_script(WATCH_WORDS)  # no "null" or "undefined" on any of these pages
        page.goto(base + "/")
        page.select_option("select.theme-choice", theme)
        assert page.evaluate("() => document.documentElement.dataset.theme") == theme
        page.wait_for_selector("button[data-quick]")
        assert not axe_bad(page), f"lobby ({theme}): {axe_bad(page)}"
        assert not page.evaluate("() => window.__bad"), page.evaluate("() => window.__bad")
        page.goto(f"{base}/t/{table_id}#seat={tokens[0]}")  # remembered across pages
        assert page.evaluate("() => document.documentElement.dataset.theme") == theme
        page.wait_for_selector("#game .toe-cell")
        assert not axe_bad(page), f"table ({theme}): {axe_bad(page)}"
        assert not page.evaluate("() => window.__bad"), page.evaluate("() => window.__bad")
        play_seat(base, table_id, tokens[0], 5).join(timeout=120)
        page.wait_for_selector("#results-panel:not([hidden]) #verdict")
        page.wait_for_timeout(300)
        assert not axe_bad(page), f"end ({theme}): {axe_bad(page)}"
        assert not page.evaluate("() => window.__bad"), page.evaluate("() => window.__bad")
        page.screenshot(path=str(ARTIFACTS / f"e2e-feel-theme-{theme}.png"))
        page.goto(f"{base}/r/{table_id}")
        page.wait_for_selector("#where:has-text('step')")
        assert not axe_bad(page), f"replay ({theme}): {axe_bad(page)}"
        assert not page.evaluate("() => window.__bad"), page.evaluate("() => window.__bad")
        page.goto(f"{base}/leaderboard/toe")
        page.wait_for_selector("#title:has-text('Leaderboard')")
        assert not axe_bad(page), f"leaderboard ({theme}): {axe_bad(page)}"
        assert not page.evaluate("() => window.__bad")
        page.context.close()
    assert not errors, errors


def test_a_replay_opens_on_the_seats_own_view_for_its_player(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.02) as base:
        table_id, tokens = open_table(
            base, game="toe", players=2, humans=1, bots="random", options={"max_turns": 20}
        )
        play_seat(base, table_id, tokens[0], 2).join(timeout=120)
        page, errors = page_of(browser)
        page.goto(f"{base}/t/{table_id}#seat={tokens[0]}")  # this browser holds the seat
        page.wait_for_selector("#results-panel:not([hidden])")
        page.goto(f"{base}/r/{table_id}")
        page.wait_for_selector("#where:has-text('step')")
        assert page.input_value("#viewer") == "0"
        page.click("#first")
        page.wait_for_selector("#game .toe-hand")  # the seat's own hand: its view
        page.select_option("#viewer", "public")
        page.wait_for_function("() => !document.querySelector('#game .toe-hand')")
        spectator, more = page_of(browser)
        spectator.goto(f"{base}/r/{table_id}")
        spectator.wait_for_selector("#where:has-text('step')")
        assert spectator.input_value("#viewer") == "public"
        page.context.close()
        spectator.context.close()
    assert not errors + more, errors + more


def test_a_buzz_pressed_as_a_new_question_appears_is_not_sent(browser, tmp_path):
    """Question 1 goes unanswered and question 2 takes its place: a press meant for question 1
    that lands as question 2 appears sends nothing; a press a moment later buzzes."""
    options = {"quiz": True, "buzz_seconds": 5, "max_turns": 6}
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        table_id, tokens = open_table(
            base, game="toe", players=2, humans=1, bots="heuristic:accuracy=0", options=options
        )
        page, errors = page_of(browser)
        sent: list[str] = []
        page.on("websocket", lambda ws: ws.on("framesent", lambda data: sent.append(str(data))))
        # the moment a second question replaces the first, press B (buzz), as if for the first
        page.add_init_script(
            """new MutationObserver(() => {
                 const q = document.querySelector('#game .quiz-question');
                 if (!q) return;
                 const number = q.textContent.match(/Question (\\d+)/);
                 if (!number || number[1] === window.__question) return;
                 window.__question = number[1];
                 window.__changedAt = performance.now();
                 if (number[1] === '2' && !window.__pressed) {
                   window.__pressed = true;
                   const press = new KeyboardEvent('keydown', { key: 'b', bubbles: true });
                   document.dispatchEvent(press);
                 }
               }).observe(document, { childList: true, subtree: true });"""
        )
        page.goto(f"{base}/t/{table_id}#seat={tokens[0]}")
        page.wait_for_selector("#game .quiz-question")
        page.wait_for_function("() => window.__pressed === true", timeout=30_000)
        page.wait_for_function("() => performance.now() - window.__changedAt > 500")
        assert not [m for m in sent if '"buzz"' in m], sent
        page.keyboard.press("b")  # a moment later: it counts
        page.wait_for_selector("#game .quiz-choices button")
        assert [m for m in sent if '"buzz"' in m]
        page.context.close()
    assert not errors, errors
