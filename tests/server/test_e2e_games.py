"""Each game's table page in a real browser: one person plays bots (or, for Memo Match, a
friend) by clicking on the game's own drawing (web/games/<game>.js, not the generic
fallback) until the game is over or for a good number of moves.  A spectator watches and is
never sent a hidden card; Memo Match's page never shows a card that lies face down, however
well the seat remembers it.  Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.server.helpers import live_server, open_table
from tests.server.test_e2e import ARTIFACTS, answer_questions, play_by_clicking
from tests.server.test_play import CARD, allowed_cards, cards_in, stored_record
from tripletopper.games.memo_match.layout import MATCH, matching_variables

pytestmark = pytest.mark.e2e

DRAWING = "#game .clickable, #game button"


class Seat:
    """A page at the table, with every websocket message it received."""

    def __init__(self, browser: Any, url: str, width: int = 1000) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.sizes: list[int] = []  # of each message, in bytes
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._received))
        self.page.goto(url)
        self.page.wait_for_selector("#conn:has-text('connected')")

    def _received(self, payload: str | bytes) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        self.messages.append(json.loads(data))
        self.sizes.append(len(data))

    def view(self) -> dict[str, Any]:
        """The last state or update received."""
        views = [m for m in self.messages if "observation" in m]
        return views[-1] if views else {}

    def observation(self) -> dict[str, Any]:
        return dict(self.view().get("observation", {}))

    def version(self) -> int:
        return max((m["version"] for m in self.messages if "observation" in m), default=-1)

    def finished(self) -> bool:
        return self.page.is_visible("#results-panel")

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / name), full_page=True)


@contextmanager
def table(tmp_path: Any, game: str, players: int, **kwargs: Any) -> Iterator[Any]:
    """A running table of ``game``: yields (base URL, table id, the seat tokens)."""
    ARTIFACTS.mkdir(exist_ok=True)
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        table_id, tokens = open_table(base, game=game, players=players, **kwargs)
        yield base, table_id, tokens


def click_drawing(seat: Seat, rng: random.Random, *, clicks: int, seconds: float = 40) -> int:
    """Click random clickable things of the game's drawing (cards, cells, piles, its own
    buttons) until ``clicks`` were made, the game is over or time is up; returns the clicks.
    Time limits are generous: CI machines may be busy, and a finished game ends the loop."""
    made = 0
    ends = time.monotonic() + seconds
    while made < clicks and time.monotonic() < ends and not seat.finished():
        answer_questions(seat.page, rng)
        targets = seat.page.locator(DRAWING)
        count = targets.count()
        if count:
            try:
                targets.nth(rng.randrange(count)).click(timeout=2000)
                made += 1
            except Exception:  # the page re-rendered under the click: look again
                pass
        time.sleep(0.05)
    return made


def assert_no_generic_drawing(seat: Seat) -> None:
    assert seat.page.locator("#game > dl").count() == 0, "the generic renderer drew the game"


def assert_spectator_saw_only_public_cards(spy: Seat, tmp_path: Any, table_id: str) -> None:
    allowed = allowed_cards(stored_record(str(tmp_path), table_id), None)
    assert spy.messages
    for message in spy.messages:
        version = message.get("version")
        leaked = cards_in(message) - (allowed[version] if version is not None else set())
        assert not leaked, f"the spectator saw {leaked} at version {version}"


def test_toe_is_played_on_the_cube_by_clicking_cells(browser, tmp_path):
    options = {"max_turns": 80}
    with table(tmp_path, "toe", 2, humans=1, bots="heuristic", options=options) as opened:
        base, table_id, tokens = opened
        ann = Seat(browser, f"{base}/t/{table_id}#seat={tokens[0]}")
        spy = Seat(browser, f"{base}/t/{table_id}", width=375)
        ann.page.wait_for_selector("#game .toe-cell")
        assert_no_generic_drawing(ann)
        assert ann.page.locator("#game .toe-layer").count() == 4
        assert ann.page.locator("#game .toe-cell").count() == 64
        assert ann.page.locator("#game .toe-hand .card").count() in (3, 4)
        assert ann.page.locator("#actions button[data-action*='play']").count() == 0

        made = click_drawing(ann, random.Random(5), clicks=6)
        ann.shot("e2e-toe-table.png")
        made += click_drawing(ann, random.Random(6), clicks=400, seconds=150)
        assert ann.finished(), "the game did not finish in time"
        # No clock plays for Ann here: the game finished because her clicks played it.  A
        # click that raced a redraw may count as failed though it played, so only a few are
        # asked for (a CI run under load counted 4).
        assert made >= 2
        marks = ann.page.locator("#game .toe-cell:not([data-mark='.'])").count()
        assert marks == sum(ann.observation()["marks"]) > 0
        result = ann.observation()["result"]
        if result["winners"]:  # four in a line, drawn in the line's colors
            assert ann.page.locator("#game .toe-cell.win").count() == 4
        ann.shot("e2e-toe-over.png")
        spy.page.wait_for_selector("#results-panel:not([hidden])")
        assert spy.page.locator("#game .toe-cell").count() == 64
        assert spy.page.locator("#game .toe-hand").count() == 0  # a spectator has no hand
        spy.shot("e2e-toe-phone-spectator.png")
        assert not ann.errors + spy.errors
    assert_spectator_saw_only_public_cards(spy, tmp_path, table_id)


def test_the_quiz_show_is_answered_on_the_page(browser, tmp_path):
    options = {"quiz": True, "buzz_seconds": 30, "max_turns": 6}
    with table(tmp_path, "toe", 2, humans=1, bots="heuristic:buzz=4", options=options) as opened:
        base, table_id, tokens = opened
        ann = Seat(browser, f"{base}/t/{table_id}#seat={tokens[0]}", width=375)
        ann.page.wait_for_selector("#game .quiz-question")
        assert ann.page.locator("#game .quiz-choices li").count() >= 2
        ann.page.click("#game button:has-text('Buzz in')")  # the bot waits 4 s or so
        ann.page.wait_for_selector("#game .quiz-choices button")
        ann.shot("e2e-toe-quiz.png")
        ann.page.locator("#game .quiz-choices button").first.click()
        ann.page.wait_for_selector("#game :text('Last question: You answered A')")
        made = click_drawing(ann, random.Random(7), clicks=20, seconds=90)
        assert made >= 5
        assert "You buzz" in ann.page.inner_text("#log")
        assert not ann.errors


def memo_pair(seat: Seat) -> tuple[str, str]:
    """Two face-up cards on the page that match (positions)."""
    up = seat.page.eval_on_selector_all(
        "#game .memo-grid .memo-up", "nodes => nodes.map(n => [n.dataset.pos, n.dataset.card])"
    )
    for i, (p, a) in enumerate(up):
        for q, b in up[i + 1 :]:
            if matching_variables(a, b) >= MATCH:
                return p, q
    raise AssertionError("no pair on the table")


WITHOUT_MISSED_PAIR = """() => {
  const copy = document.querySelector("#game").cloneNode(true);
  copy.querySelectorAll(".missed").forEach((node) => node.remove());
  return copy.innerHTML;
}"""


def seen_face_down(seat: Seat) -> set[str]:
    """Cards the seat saw flipped (in any update) that are neither taken nor face up now."""
    seen = {
        card
        for message in seat.messages
        for event in message.get("events", [])
        for card in ([event["card"]] if event["type"] == "flipped" and "card" in event else [])
    }
    obs = seat.observation()
    gone = {code for pile in obs["captured_cards"] + (obs["playoff_cards"] or []) for code in pile}
    return seen - gone - set(obs["face_up"].values())


def assert_memo_shows_only_face_up_cards(seat: Seat) -> None:
    """Nothing in the drawing or the log names a card that lies face down, even one the seat
    has seen, but for the pair just missed (drawn until the next update, as on a real
    table); the observation holds no recall."""
    obs = seat.observation()
    assert "recall" not in obs
    hidden = seen_face_down(seat)
    drawn = set(CARD.findall(seat.page.evaluate(WITHOUT_MISSED_PAIR)))
    assert not hidden & drawn, f"the page shows face-down cards {hidden & drawn}"
    logged = set(CARD.findall(seat.page.inner_text("#log")))
    assert not hidden & logged, f"the log names face-down cards {hidden & logged}"
    face_up = {code for code in obs["face_up"].values() if code}
    assert face_up <= drawn


def test_memo_match_flips_declares_and_spots_by_clicking(browser, tmp_path):
    with table(tmp_path, "memo-match", 2, humans=2, options={"max_turns": 12}) as opened:
        base, table_id, tokens = opened
        seats = [Seat(browser, f"{base}/t/{table_id}#seat={token}") for token in tokens]
        spy = Seat(browser, f"{base}/t/{table_id}", width=375)
        everyone = [*seats, spy]
        seats[0].page.wait_for_selector("#game .memo-grid")
        assert_no_generic_drawing(seats[0])
        assert seats[0].page.locator("#game .memo-down").count() == 125
        assert seats[0].page.locator("#actions button[data-action*='flip']").count() == 0

        def settle(after: int) -> None:
            ends = time.monotonic() + 10
            while any(s.version() <= after for s in everyone) and time.monotonic() < ends:
                spy.page.wait_for_timeout(20)  # Playwright hands over websocket frames meanwhile
            spy.page.wait_for_timeout(250)  # let the pages draw them
            for s in everyone:
                assert_memo_shows_only_face_up_cards(s)

        rng = random.Random(8)
        declared = saw_spotting = saw_miss = False
        for _ in range(60):
            obs = seats[0].observation()
            if obs.get("result") or seats[0].finished():
                break
            actor = seats[obs["to_act"][0]] if obs["phase"] != "spot" else seats[0]
            version = actor.version()
            page = actor.page
            if obs["phase"] == "spot":
                p, q = memo_pair(actor)
                page.click(f"#game [data-pos='{p}']")
                page.wait_for_selector(f"#game [data-pos='{p}'].picked")
                page.click(f"#game [data-pos='{q}']")
            elif actor is seats[1] and obs["phase"] == "flip" and not declared and obs["turns"] > 2:
                page.click("#actions button[data-action*='declare']")
                page.click("#ask button:has-text('Declare no matches')")  # it asks first
                declared = True
            else:
                downs = page.locator("#game .memo-down.clickable")
                downs.nth(rng.randrange(downs.count())).click()
            settle(version)
            missed = [e for e in seats[0].view().get("events", []) if e["type"] == "missed"]
            if missed:
                faces = dict(zip(missed[-1]["positions"], missed[-1]["cards"], strict=True))
                shown = seats[0].page.eval_on_selector_all(
                    "#game .missed", "nodes => nodes.map(n => [n.dataset.pos, n.dataset.card])"
                )
                assert len(shown) == 2 and all(faces[p] == card for p, card in shown), shown
                saw_miss = True
            if not saw_spotting and seats[0].observation()["phase"] == "spot":
                saw_spotting = True
                seats[0].shot("e2e-memo-match-spotting.png")
        assert declared and saw_spotting and saw_miss
        spotting = [
            (size, message)
            for s in seats
            for size, message in zip(s.sizes, s.messages, strict=True)
            if message.get("observation", {}).get("phase") == "spot"
        ]
        assert max(size for size, _ in spotting) <= 50_000  # the claims are one pattern
        assert any("pattern" in entry for _, message in spotting for entry in message["legal"])
        seats[0].page.wait_for_selector("#results-panel:not([hidden])")  # the turn limit ends it
        log = seats[0].page.inner_text("#log")
        assert "no matches" in log and "spot" in log
        seats[0].shot("e2e-memo-match-table.png")
        spy.shot("e2e-memo-match-phone-spectator.png")
        assert not [e for s in everyone for e in s.errors]
    assert_spectator_saw_only_public_cards(spy, tmp_path, table_id)


def test_a_card_stays_put_under_a_resting_pointer(browser, tmp_path):
    """Hovering never moves a card.  A card that rose under the pointer once let a pointer
    resting on its bottom edge make it jump up and down every frame: a click aimed at it
    waited for it to hold still and never landed (a CI run stuck on its one legal card)."""
    with table(tmp_path, "three-up-three-down", 3, humans=1, bots="heuristic") as opened:
        base, table_id, tokens = opened
        ann = Seat(browser, f"{base}/t/{table_id}#seat={tokens[0]}", width=375)
        hand = ann.page.locator("#game [aria-label='Your hand'] .card.clickable")
        hand.first.wait_for()
        hand.nth(1).click()  # picked: it rises, and stays risen under the pointer
        for card in (hand.nth(0), hand.nth(1)):
            ann.page.mouse.move(0, 0)
            box = card.bounding_box()
            assert box
            ann.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] - 1)
            ann.page.wait_for_timeout(100)
            assert card.bounding_box() == box, "the card moved under the pointer"
            card.click(timeout=5000)  # lands: the card holds still
        assert not ann.errors


def test_three_up_three_down_from_the_choice_to_the_end(browser, tmp_path):
    options = {"max_turns": 90}
    with table(
        tmp_path, "three-up-three-down", 3, humans=1, bots="heuristic", options=options
    ) as opened:
        base, table_id, tokens = opened
        ann = Seat(browser, f"{base}/t/{table_id}#seat={tokens[0]}", width=375)
        ann.page.wait_for_selector("#game .your-cards")
        assert_no_generic_drawing(ann)
        assert ann.page.locator("#actions button[data-action*='choose']").count() == 0
        hand = ann.page.locator("#game [aria-label='Your hand'] .card.clickable")
        assert hand.count() == 6
        for i in (0, 2, 4):
            hand.nth(i).click()
        ann.page.click("#game button:has-text('Lay these three face up')")
        ann.page.wait_for_function(
            "() => !document.querySelector('#game').innerText.includes('choosing')"
        )
        ann.page.wait_for_selector("#game .fan")
        ann.shot("e2e-three-up-three-down-phone.png")
        made = click_drawing(ann, random.Random(9), clicks=1000, seconds=150)
        if not ann.finished():
            ann.shot("e2e-three-up-three-down-stuck.png")
        assert ann.finished(), f"the game did not finish in time: {ann.view()}"
        assert made >= 10
        ann.shot("e2e-three-up-three-down-over.png")
        assert not ann.errors


def wait_for_move(seat: Seat, me: int, seconds: float = 30) -> dict[str, Any] | None:
    """Seat ``me``'s observation once it must act and nothing has changed for half a second
    (the table waits for it, and the update of its own last click is in); None if the game
    ended first."""
    ends = time.monotonic() + seconds
    since, version = time.monotonic(), seat.version()
    while not seat.finished():
        if seat.version() != version:
            since, version = time.monotonic(), seat.version()
        obs = seat.observation()
        if obs.get("to_act") == [me] and time.monotonic() - since > 0.5:
            return obs
        assert time.monotonic() < ends, "the seat was never to act"
        time.sleep(0.05)
    return None


def assert_squared_pile(seat: Seat) -> int:
    """The page draws the discard pile squared: its top card alone, labelled with the pile's
    size (both from the seat's last observation); no other discard is drawn.  The size."""
    expect = pytest.importorskip("playwright.sync_api").expect
    obs = seat.observation()
    pile = seat.page.locator("#game .discard-pile")
    expect(pile.locator(".pile-label")).to_contain_text(f"iscard pile: {obs['discard_size']}")
    expect(pile.locator("[data-card]")).to_have_attribute("data-card", obs["discard_top"])
    expect(seat.page.locator("#game .center [data-card]")).to_have_count(1)
    return int(obs["discard_size"])


def test_thirty_two_draws_the_discard_pile_squared(browser, tmp_path):
    options = {"counters": 40}
    with table(tmp_path, "thirty-two", 3, humans=1, bots="heuristic", options=options) as opened:
        base, table_id, tokens = opened
        ann = Seat(browser, f"{base}/t/{table_id}#seat={tokens[0]}")
        spy = Seat(browser, f"{base}/t/{table_id}")
        ann.page.wait_for_selector("#game .discard-pile")
        assert_no_generic_drawing(ann)
        rng = random.Random(3)
        sizes = []
        for _ in range(80):
            obs = wait_for_move(ann, 0)
            if obs is None or sum(size > 2 for size in sizes) >= 3:
                break
            if obs["phase"] == "turn":  # before taking: the pile holds at least its top
                sizes.append(assert_squared_pile(ann))
                spy.page.wait_for_function(
                    "(size) => document.querySelector('#game .discard-pile')"
                    "?.innerText.includes(`discard pile: ${size}`)",
                    arg=sizes[-1],
                )
                assert assert_squared_pile(spy) == sizes[-1]
            play_by_clicking([ann.page], rng, clicks=1, seconds=20)
        ann.shot("e2e-thirty-two-squared-pile.png")
        assert sum(size > 2 for size in sizes) >= 3, sizes
        assert not ann.errors and not spy.errors


def test_thirty_one_with_organs_to_the_last_player_standing(browser, tmp_path):
    with table(tmp_path, "thirty-one", 3, humans=1, bots="heuristic") as opened:
        base, table_id, tokens = opened
        ann = Seat(browser, f"{base}/t/{table_id}#seat={tokens[0]}")
        ann.page.wait_for_selector("#game .organs")
        assert_no_generic_drawing(ann)
        assert ann.page.locator("#game .organ:not(.gone)").count() == 9  # 3 players, 3 organs
        assert re.search(r"worth \d+", ann.page.inner_text("#hand-score"))
        made = click_drawing(ann, random.Random(10), clicks=6)
        obs = wait_for_move(ann, 0)
        if obs is not None and obs["phase"] == "turn":
            assert_squared_pile(ann)
        ann.shot("e2e-thirty-one-table.png")
        made += click_drawing(ann, random.Random(11), clicks=1000, seconds=150)
        assert ann.finished(), "the game did not finish in time"
        # No clock plays for Ann here: the game finished because her clicks played it.  A
        # click that raced a redraw may count as failed though it played, so only a few are
        # asked for (a CI run under load counted 4).
        assert made >= 2
        assert ann.page.locator("#game .player .organs").count() == 3
        ann.shot("e2e-thirty-one-over.png")
        assert not ann.errors


def test_cards_are_drawn_from_every_decks_notation(browser, tmp_path):
    """Wild Triple Topper values, 3UP 3DOWN values and Clears, standard cards: each drawn
    with its notation in data-card and its long name as the label; anything else as text."""
    with live_server(str(tmp_path)) as base:
        page = browser.new_page()
        page.goto(base + "/")
        drawn = page.evaluate(
            """async (codes) => {
                const cards = await import("/static/cards.js");
                return codes.map((code) => {
                    const node = cards.card(code, "small");
                    return [node.dataset.card || null, node.getAttribute("aria-label"),
                            node.querySelectorAll("path, circle, rect").length];
                });
            }""",
            ["KH?", "KB?", "RC1", "7R1", "10G2", "C+1R2", "C+2G1", "CB1", "10H", "QS", "XX"],
        )
        page.close()
    labels = {label.split(": ")[0]: label for _code, label, _shapes in drawn}
    assert labels["KH?"] == "KH?: black heart ?"
    assert labels["KB?"] == "KB?: black blob ?"
    assert labels["7R1"] == "7R1: red 7 (copy 1)"
    assert labels["C+1R2"] == "C+1R2: red Clear+1 (copy 2)"
    assert labels["CB1"] == "CB1: blue Clear (copy 1)"
    assert labels["10H"] == "10H: 10 of hearts"
    assert [code for code, _label, _shapes in drawn] == [
        "KH?",
        "KB?",
        "RC1",
        "7R1",
        "10G2",
        "C+1R2",
        "C+2G1",
        "CB1",
        "10H",
        "QS",
        None,
    ]
    assert all(shapes >= 2 for _code, _label, shapes in drawn[:3])  # a frame and a shape
