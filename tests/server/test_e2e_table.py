"""The table page as players expect it, in a real browser (Playwright on Debian's Chromium):
every game played to its end with the keyboard alone (focus staying in the play area, the
play area and the move buttons fitting the screen on every turn, two of the games on a
phone), axe-core finding no serious or critical accessibility violation on any game's page
during play and at the end nor on the replay page, the tab title and favicon calling a
player, the Thirty-Two and Memo Match safety nets, moves a clock played said to be the
clock's, showdowns held on screen, and the undo setting.  Screenshots of every game's table
at 1280x800 and 390x844 go to test-artifacts/."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.server.helpers import live_server, open_table, stored_table
from tests.server.test_e2e import ARTIFACTS
from tests.server.test_e2e_games import Seat

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DRAWN = "() => (document.body.dataset.pending || '0') === '0'"
"""The page shows the newest update (none waits behind a move still being animated)."""
PLAY_AREA = (
    "['game', 'actions-panel', 'showdown']"
    ".some((id) => document.getElementById(id).contains(document.activeElement))"
)


class Player(Seat):
    """A seat's page at a given viewport, with what it received."""

    def __init__(self, browser: Any, url: str, viewport: dict[str, int]) -> None:
        self.context = browser.new_context(viewport=viewport)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.messages: list[dict[str, Any]] = []
        self.sizes: list[int] = []
        self.page.on("pageerror", lambda exc: self.errors.append(str(exc)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("websocket", lambda ws: ws.on("framereceived", self._received))
        self.page.goto(url)
        self.page.wait_for_selector("#conn:has-text('connected')")

    def legal(self) -> list[dict[str, Any]]:
        return list(self.view().get("legal", []))

    def types(self) -> set[str]:
        return {e["action"]["type"] for e in self.legal() if "action" in e}

    def my_turn(self, me: int, seconds: float = 40) -> dict[str, Any] | None:
        """The observation once this seat may act and the page stands still (its own last
        move answered and drawn); None once the game is over."""
        ends = time.monotonic() + seconds
        since, version = time.monotonic(), self.version()
        while not self.finished():
            if self.version() != version:
                since, version = time.monotonic(), self.version()
            if self.page.is_visible("#showdown"):
                self.page.keyboard.press("Enter")  # Continue: the focus is on it
                self.page.wait_for_selector("#showdown", state="hidden")
                continue
            if (
                me in self.observation().get("to_act", [])
                and self.legal()
                and time.monotonic() - since > 0.3
                and self.page.evaluate(DRAWN)
            ):
                return self.observation()
            assert time.monotonic() < ends, "the seat was never to act"
            time.sleep(0.05)
        return None

    def press(self, *keys: str) -> None:
        for key in keys:
            self.page.keyboard.press(key)
            self.page.wait_for_timeout(60)

    def moved(self, version: int, seconds: float = 10) -> None:
        """Wait for the move made at ``version`` to be answered and drawn."""
        ends = time.monotonic() + seconds
        while self.version() <= version and not self.finished():
            assert time.monotonic() < ends, "the move was not played"
            self.page.wait_for_timeout(30)
        self.page.wait_for_timeout(150)

    def assert_fits(self) -> None:
        """Everything the player can click now, and the move buttons, are on the first screen."""
        bottom, height = self.page.evaluate(
            """() => [Math.max(0, ...[...document.querySelectorAll(
                '#game .clickable, #game button, #actions button, #showdown button')]
                .filter((n) => n.offsetParent !== null)
                .map((n) => n.getBoundingClientRect().bottom + scrollY)), innerHeight]"""
        )
        if bottom > height:
            self.page.screenshot(path=str(ARTIFACTS / "table-does-not-fit.png"), full_page=True)
        assert bottom <= height, f"the moves reach {bottom:.0f} px on a {height} px screen"

    def assert_focus_in_play(self) -> None:
        assert self.page.evaluate(f"() => {PLAY_AREA}"), "the focus left the play area"

    def assert_accessible(self, name: str) -> None:
        from axe_playwright_python.sync_playwright import Axe

        violations = Axe().run(self.page).response["violations"]
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in violations
            if v["impact"] in ("serious", "critical")
        ]
        assert not bad, f"{name}: {bad}"

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(ARTIFACTS / name))


def play_with_keys(
    player: Player,
    me: int,
    turn: Callable[[Player, dict[str, Any]], None],
    *,
    moves: int = 400,
    seconds: float = 240,
) -> int:
    """Play ``me``'s turns with ``turn`` (keys only) until the game is over; after each move
    the focus is still in the play area, and on each turn the moves fit the screen."""
    made = 0
    ends = time.monotonic() + seconds
    while made < moves and time.monotonic() < ends:
        obs = player.my_turn(me)
        if obs is None:
            return made
        player.assert_fits()
        version = player.version()
        turn(player, obs)
        player.moved(version)
        if not player.finished():
            player.assert_focus_in_play()
        made += 1
    raise AssertionError(f"the game did not end ({made} moves)")


# --- one keyboard turn per game -------------------------------------------------------------


def thirty_two_turn(p: Player, obs: dict[str, Any]) -> None:
    if obs["phase"] == "turn":
        p.press("d" if "draw" in p.types() else "t")
        return
    p.press("1", "Enter")
    if p.page.is_visible("#ask"):  # the card kept a Thirty-two: declare it
        p.press("Enter")


def thirty_one_turn(p: Player, obs: dict[str, Any]) -> None:
    kinds = p.types()
    if obs["phase"] == "check":
        p.press("x" if "declare" in kinds else "p")
    elif obs["phase"] == "turn":
        p.press("k" if "knock" in kinds else "d" if "draw" in kinds else "s")
    else:
        p.press("1", "Enter")


def toe_turn(p: Player, obs: dict[str, Any]) -> None:
    if obs["phase"] == "turn":
        p.press("d")
        return
    p.press("1", "Enter")  # a card with one play plays; a wild card shows its cells...
    if p.page.evaluate("() => document.activeElement.classList.contains('toe-cell')"):
        p.press("Enter")  # ...and the first of them has the focus: mark it


def memo_turn(p: Player, obs: dict[str, Any]) -> None:
    if obs["phase"] == "spot":
        p.press("p")
        return
    for _ in range(130):  # walk the grid to a card that can be flipped (or taken)
        focused = p.page.evaluate(
            "() => [document.activeElement.getAttribute('role'),"
            " document.activeElement.getAttribute('aria-disabled')]"
        )
        if focused == ["gridcell", None]:
            break
        p.press("ArrowRight" if focused[0] == "gridcell" else "Tab")
    p.press("Enter")


def three_up_turn(p: Player, obs: dict[str, Any]) -> None:
    kinds = p.types()
    if obs["phase"] == "choose":
        p.press("1", "Enter", "2", "Enter", "3", "Enter", "l")
    elif kinds == {"pickup"}:
        p.press("u")
    elif "flip" in kinds:
        p.press("f")
    elif "play" not in kinds:
        p.press("d" if "draw" in kinds else "u")
    else:
        p.press("1", "Enter")


KEYBOARD_GAMES = [
    # game, players, options, the viewport, the turn's keys
    ("thirty-two", 3, {"counters": 1}, DESKTOP, thirty_two_turn),
    ("thirty-one", 2, {}, DESKTOP, thirty_one_turn),
    ("toe", 2, {"max_turns": 8}, DESKTOP, toe_turn),
    ("memo-match", 2, {"max_turns": 6}, PHONE, memo_turn),
    ("three-up-three-down", 2, {"colors": "R", "max_turns": 30}, PHONE, three_up_turn),
]


@pytest.mark.parametrize(
    ("game", "players", "options", "viewport", "turn"),
    KEYBOARD_GAMES,
    ids=[g[0] for g in KEYBOARD_GAMES],
)
def test_a_whole_game_with_the_keyboard_alone(
    browser, tmp_path, game, players, options, viewport, turn
):
    ARTIFACTS.mkdir(exist_ok=True)
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        for _ in range(5):  # a bot dealt a Thirty-two may declare it before Ann ever acts
            table_id, tokens = open_table(
                base, game=game, players=players, humans=1, bots="medium", options=options
            )
            url = f"{base}/t/{table_id}#seat={tokens[0]}"
            ann = Player(browser, url, viewport)
            if ann.my_turn(0) is not None:
                break
            ann.context.close()
        else:
            pytest.fail("five games in a row ended before seat 0 could act")
        other = PHONE if viewport is DESKTOP else DESKTOP
        twin = Player(browser, url, other)  # the same seat on the other screen, for its picture
        ann.page.wait_for_timeout(300)
        ann.assert_accessible(f"{game} during play")
        size = lambda v: f"{v['width']}x{v['height']}"  # noqa: E731
        ann.shot(f"table-{game}-{size(viewport)}.png")
        twin.page.wait_for_timeout(300)
        twin.shot(f"table-{game}-{size(other)}.png")
        twin.context.close()
        made = play_with_keys(ann, 0, turn)
        assert made >= 2 and ann.finished()
        ann.page.wait_for_selector("#results-panel:not([hidden])")
        ann.assert_accessible(f"{game} at the end")
        ann.page.screenshot(
            path=str(ARTIFACTS / f"table-{game}-{size(viewport)}-over.png"), full_page=True
        )
        unit = {
            "thirty-two": "counter",
            "thirty-one": "li",
            "toe": "mark",
            "memo-match": "card",
            "three-up-three-down": "card",
        }[game]
        assert all(unit in line for line in ann.page.locator("#results li").all_inner_texts())
        assert not ann.errors, ann.errors
        ann.context.close()


def test_the_replay_page_passes_axe_and_says_which_moves_the_clock_played(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0) as base:
        table_id, tokens = open_table(
            base,
            game="toe",
            players=2,
            humans=1,
            bots="random",
            options={"max_turns": 4},
            turn_clock=1,
        )
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        ann.page.wait_for_selector("#results-panel:not([hidden])", timeout=30000)
        ann.page.goto(f"{base}/r/{table_id}")
        ann.page.wait_for_selector("#viewer option[value='0']", state="attached")
        ann.page.select_option("#viewer", "0")
        ann.page.wait_for_selector("#where:has-text('step')")
        said = []
        for _ in range(4):
            ann.page.click("#next")
            said.append(ann.page.inner_text("#log"))
        assert any("Time ran out: the clock played for you." in text for text in said), said
        ann.page.wait_for_selector("#game .toe-cell")
        ann.assert_accessible("the replay page")
        assert ann.page.locator("#first svg.icon").count() == 1  # an SVG, not a font glyph
        assert not ann.errors


def test_the_title_and_favicon_call_the_player_and_the_sound_and_alerts_are_remembered(
    browser, tmp_path
):
    with live_server(str(tmp_path), bot_delay=0.3) as base:
        table_id, tokens = open_table(
            base, game="thirty-two", players=3, humans=1, bots="medium", options={"counters": 20}
        )
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        ann.page.add_init_script("""  // count the notifications the page shows
            window.shown = [];
            window.Notification = class { constructor(title, options) { window.shown.push(title); }
                static get permission() { return "granted"; }
                static requestPermission() { return Promise.resolve("granted"); } };
        """)
        ann.page.reload()
        ann.page.wait_for_selector("#conn:has-text('connected')")
        ann.page.click("#sound-toggle")
        ann.page.click("#notify-toggle")
        assert ann.page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        ann.page.reload()  # remembered
        ann.page.wait_for_selector("#conn:has-text('connected')")
        assert ann.page.get_attribute("#sound-toggle", "aria-pressed") == "true"
        title = "Thirty-Two - Triple Topper card room"
        for _ in range(3):  # the others' turns and ours, as they come
            obs = ann.my_turn(0)
            assert obs is not None
            ann.page.wait_for_function("() => document.title.startsWith('Your turn!')")
            assert ann.page.title() == f"Your turn! · {title}"
            assert ann.page.get_attribute("link[rel~='icon']", "href").startswith(
                "data:image/svg+xml"
            )
            # the tab is hidden while the others play: the next call is a notification
            ann.page.evaluate(
                "() => Object.defineProperty(document, 'hidden', {value: true, configurable: true})"
            )
            version = ann.version()
            ann.press("d" if obs["phase"] == "turn" else "1")
            if obs["phase"] != "turn":
                ann.press("Enter")
            ann.moved(version)
            if ann.observation()["to_act"] != [0]:
                ann.page.wait_for_function("() => !document.title.startsWith('Your turn')")
                assert ann.page.title() == title
                assert ann.page.get_attribute("link[rel~='icon']", "href").endswith("/favicon.ico")
        chimes = int(ann.page.get_attribute("#sound-toggle", "data-chimes") or 0)
        shown = ann.page.evaluate("() => window.shown")
        assert chimes >= 1 and shown and all(t == "Your turn!" for t in shown)
        assert not ann.errors, ann.errors


def thirty_two_with_a_32_to_declare(data_dir: str) -> tuple[str, dict[int, str]]:
    """Ann (seat 0, first to act) holds BS4 BB4 RC2; the stock's top is KB?: drawing it, the
    discard of RC2 keeps a Thirty-two."""
    hands = {0: "BS4 BB4 RC2", 1: "RC1 YH2 GT3", 2: "YC1 GS2 BT1"}
    order = [hands[seat].split()[i] for i in range(3) for seat in (0, 1, 2)]
    return stored_table(
        data_dir,
        "thirty-two",
        3,
        people={0: "Ann", 1: "Bob", 2: "Cat"},
        options={"counters": 20},
        decks=[[*order, "RS1", "KB?"]],
        setup={"dealer": 2},
    )


def test_thirty_two_asks_before_a_click_throws_a_declarable_32_away(browser, tmp_path):
    table_id, tokens = thirty_two_with_a_32_to_declare(str(tmp_path))
    with live_server(str(tmp_path)) as base:
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        ann.my_turn(0)
        ann.press("d")
        ann.moved(0)
        rc2 = ann.page.locator("#game [data-card='RC2'].clickable")
        assert "keeps 32, 4 wilds" in ann.page.inner_text("#game .hand")  # each card's preview
        ann.shot("table-thirty-two-discard.png")
        rc2.click()
        ann.page.wait_for_selector("#ask[open]")
        assert "leaves a Thirty-two" in ann.page.inner_text("#ask")
        ann.press("Escape")  # nothing is played
        ann.page.wait_for_selector("#ask", state="hidden")
        ann.page.wait_for_timeout(300)
        assert ann.version() == 1
        rc2.click()
        ann.page.click("#ask button:has-text('Declare a Thirty-two')")
        ann.moved(1)
        events = [e["type"] for e in ann.view()["events"]]
        assert "hand_over" in events
        settled = next(e for e in ann.view()["events"] if e["type"] == "hand_over")
        assert settled["ended_by"] == "thirty-two" and settled["declarer"] == 0
        # the showdown is held on screen, the next hand waits behind it
        ann.page.wait_for_selector("#showdown:not([hidden])")
        assert "declared a Thirty-two" in ann.page.inner_text("#showdown")
        assert "Bob pays 6 counters to you" in ann.page.inner_text("#showdown")
        assert not ann.page.is_visible("#game")
        ann.shot("table-thirty-two-showdown.png")
        ann.press("Enter")
        ann.page.wait_for_selector("#showdown", state="hidden")
        assert ann.page.is_visible("#game")
        assert not ann.errors, ann.errors


def test_declaring_no_matches_asks_first(browser, tmp_path):
    with live_server(str(tmp_path)) as base:
        table_id, tokens = open_table(base, game="memo-match", players=2, humans=1, bots="medium")
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", PHONE)
        obs = ann.my_turn(0)
        obs_version = ann.version()
        assert obs["phase"] == "flip" and "declare" in ann.types()
        ann.press("n")
        ann.page.wait_for_selector("#ask[open]")
        assert "you are out" in ann.page.inner_text("#ask")
        ann.press("Escape")
        ann.page.wait_for_selector("#ask", state="hidden")
        ann.page.click("#actions button[data-action*='declare']")
        ann.page.wait_for_selector("#ask[open]")
        ann.page.click("#ask button:has-text('Cancel')")
        ann.page.wait_for_timeout(300)
        assert ann.version() == obs_version  # nothing was sent
        version = ann.version()
        ann.press("n", "Enter")  # the first choice: declare
        ann.moved(version)
        declared = next(m for m in ann.messages if m.get("version") == version + 1)
        assert declared["actor"] == 0 and declared["observation"]["phase"] == "spot"
        assert not ann.errors, ann.errors


def test_a_move_the_clock_played_is_said_to_be_the_clocks(browser, tmp_path):
    with live_server(str(tmp_path)) as base:
        table_id, tokens = open_table(
            base, game="thirty-two", players=3, humans=1, bots="medium", turn_clock=2
        )
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        ann.page.wait_for_selector(
            "#log :text('Time ran out: the clock played for you.')", timeout=20000
        )
        assert ann.page.locator("#clock svg.icon").count() == 1
        said = ann.page.evaluate("() => document.getElementById('announce').textContent")
        clock_moves = [m for m in ann.messages if m.get("by_clock")]
        assert clock_moves and all(m["actor"] == 0 for m in clock_moves)
        assert said  # the narration is announced to screen readers
        assert not ann.errors, ann.errors


def test_a_held_move_can_be_undone_before_it_is_sent(browser, tmp_path):
    table_id, tokens = thirty_two_with_a_32_to_declare(str(tmp_path))
    with live_server(str(tmp_path)) as base:
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        ann.my_turn(0)
        ann.page.select_option("#move-check", "undo")
        ann.press("d")
        ann.page.wait_for_selector("#pending:not([hidden]):has-text('Playing draw from the stock')")
        ann.press("Enter")  # the focus is on Undo
        ann.page.wait_for_selector("#pending", state="hidden")
        ann.page.wait_for_timeout(3500)
        assert ann.version() == 0  # never sent
        ann.page.select_option("#move-check", "confirm")
        ann.press("d")
        ann.page.wait_for_selector("#ask[open]:has-text('Play: draw from the stock?')")
        ann.press("Enter")
        ann.moved(0)
        assert ann.observation()["phase"] == "discard"
        assert not ann.errors, ann.errors


def test_threats_are_marked_at_a_toe_table_with_hints(browser, tmp_path):
    rng = random.Random(4)
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        table_id, tokens = open_table(
            base,
            game="toe",
            players=2,
            humans=1,
            bots="random",
            options={"max_turns": 60},
            hints=True,
        )
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        seen = False
        for _ in range(60):
            if ann.my_turn(0) is None:
                break
            threats = ann.view().get("hints", {}).get("threats", [])
            if threats:
                cells = ann.page.eval_on_selector_all(
                    "#game .toe-cell.threat", "ns => ns.map(n => n.dataset.cell)"
                )
                assert sorted(set(cells)) == sorted({t["cell"] for t in threats})
                assert "wins at" in ann.page.inner_text("#game .threats")
                ann.shot("table-toe-hints.png")
                seen = True
                break
            version = ann.version()
            toe_turn(ann, ann.observation())
            ann.moved(version)
            rng.random()
        assert seen, "no threat came up"
        assert not ann.errors, ann.errors


def test_the_toe_cube_is_four_labelled_grids_walked_with_the_keyboard(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        table_id, tokens = open_table(base, game="toe", players=2, humans=1, bots="medium")
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        ann.my_turn(0)
        grids = ann.page.eval_on_selector_all(
            "#game [role='grid']", "ns => ns.map(n => n.getAttribute('aria-label'))"
        )
        assert grids == [f"Layer {n} (number {n})" for n in (1, 2, 3, 4)]
        assert ann.page.locator("#game [role='grid'] [role='gridcell']").count() == 64
        label = ann.page.get_attribute("[data-cell='GT3']", "aria-label")
        assert label.startswith("GT3, green triangle 3: ")
        ann.page.focus("[data-cell='RC1']")
        walk = []
        for key in ["ArrowRight"] * 4 + [
            "ArrowDown",
            "PageDown",
            "PageUp",
            "PageUp",
            "End",
            "Home",
        ]:
            ann.press(key)
            walk.append(ann.page.evaluate("() => document.activeElement.dataset.cell"))
        assert walk == ["RH1", "RT1", "RS1", "RC2", "YC2", "YC3", "YC2", "YC1", "BS1", "RC1"]
        assert ann.page.locator("#game .toe-cell[tabindex='0']").count() == 1  # one tab stop
        assert not ann.errors, ann.errors


def test_a_big_hand_on_a_phone_overlaps_in_one_row_instead_of_pushing_the_moves_down(
    browser, tmp_path
):
    """3UP 3DOWN hands grow with every pickup: seven large cards are wider than a phone, and
    wrapped to a second row they once pushed the moves below an 844 px screen."""
    table_id, tokens = stored_table(
        str(tmp_path), "three-up-three-down", 2, people={0: "Ann"}, bots={1: "medium"}
    )
    with live_server(str(tmp_path), bot_delay=30) as base:
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", PHONE)
        ann.page.wait_for_selector("#game .cards.hand .card")
        rows, right, width = ann.page.evaluate(
            """() => {
                const hand = document.querySelector('#game .cards.hand');
                while (hand.children.length < 7) hand.append(hand.children[0].cloneNode(true));
                const tops = new Set([...hand.children].map((n) => n.getBoundingClientRect().top));
                const right = Math.max(...[...hand.querySelectorAll('.card')]
                    .map((n) => n.getBoundingClientRect().right));
                return [tops.size, right, innerWidth];
            }"""
        )
        ann.shot("e2e-phone-big-hand.png")
        assert rows == 1 and right <= width
        assert not ann.errors, ann.errors


def test_many_cards_known_in_an_opponents_hand_stay_one_row_on_a_phone(browser, tmp_path):
    """What is known of an opponent's 3UP 3DOWN hand grows with every pile they pick up; drawn
    as rows of small cards it once pushed the moves below an 844 px screen.  The server's
    states are rewritten on their way to the page so the opponent is known to hold 24 cards."""
    table_id, tokens = stored_table(
        str(tmp_path), "three-up-three-down", 2, people={0: "Ann"}, bots={1: "medium"}
    )
    known = [f"R{n}" for n in range(1, 11)] * 2 + ["RC", "RC", "RC", "RC"]

    def rewrite(ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(server.send)

        def to_page(message: str | bytes) -> None:
            data = json.loads(message)
            for seat in data.get("observation", {}).get("seats", [])[1:]:
                seat["known"] = known
                seat["hidden_at_most"] = ["9", "9", "9"]
            ws.send(json.dumps(data))

        server.on_message(to_page)

    with live_server(str(tmp_path), bot_delay=30) as base:
        context = browser.new_context(viewport=PHONE)
        page = context.new_page()
        page.route_web_socket("**/ws/**", rewrite)
        page.goto(f"{base}/t/{table_id}#seat={tokens[0]}")
        page.wait_for_selector("#game .cards.known .card")
        count, rows, right, box = page.evaluate(
            """() => {
                const row = document.querySelector('#game .cards.known');
                const cards = [...row.querySelectorAll('.card')];
                return [cards.length,
                        new Set(cards.map((n) => Math.round(n.getBoundingClientRect().top))).size,
                        Math.max(...cards.map((n) => n.getBoundingClientRect().right)),
                        row.closest('.player').getBoundingClientRect().right];
            }"""
        )
        page.screenshot(path=str(ARTIFACTS / "e2e-phone-known-cards.png"), full_page=True)
        assert count == len(known) and rows == 1 and right <= box
        # what the table knows of the unseen cards, in words (it read "hidden: at most 9, 9, 9")
        words = page.inner_text("#game .at-most")
        assert words == "3 unseen cards are 9 or lower (they could not beat the pile)."
        bottom = page.evaluate(
            """() => Math.max(...[...document.querySelectorAll('#game .clickable, #actions button')]
                .filter((n) => n.offsetParent !== null)
                .map((n) => n.getBoundingClientRect().bottom + scrollY))"""
        )
        assert bottom <= PHONE["height"]
        context.close()


def test_a_thirty_one_table_with_hints_says_what_a_draw_and_the_take_make(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        table_id, tokens = open_table(
            base, game="thirty-one", players=2, humans=1, bots="medium", hints=True
        )
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)
        for _ in range(20):
            obs = ann.my_turn(0)
            assert obs is not None, "the game ended before a turn to draw"
            if obs["phase"] == "turn":
                break
            version = ann.version()
            thirty_one_turn(ann, obs)
            ann.moved(version)
        hints = ann.view()["hints"]
        draw, take = hints["draw"], hints["take"]
        text = ann.page.inner_text("#draw-hint")
        assert f"with {draw['improve']} of {draw['unseen']} unseen cards" in text
        assert f"({draw['mean']:.2f} on average)" in text
        assert f"taking {take['card']} makes" in text
        assert not ann.errors, ann.errors
