"""Help in the browser: each game's rules page, rendered from the project's own rules
Markdown, its "how to play this table" panel, and the option schema forms explain."""

from __future__ import annotations

import re
from html import escape
from importlib import resources

import pytest

from tripletopper.games import GAMES


def rules_source(game: str) -> str:
    return resources.files("tripletopper.rules").joinpath(f"{game}.md").read_text("utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_has_its_rules_page(client, game):
    r = client.get(f"/rules/{game}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    page = r.text
    title = rules_source(game).splitlines()[0].removeprefix("# ")
    assert f"<h1>{title}</h1>" in page
    headings = re.findall(r"^## (.+)$", rules_source(game), re.M)
    shown = re.sub("</?code>", "", page)
    assert headings and all(f"<h2>{escape(h.replace('`', ''))}" in shown for h in headings)
    assert "<table>" in page or "|" not in rules_source(game)  # Markdown tables rendered
    assert 'id="how-to"' in page and "What you click" in page
    assert 'href="/"' in page  # back to the lobby
    for other in GAMES:
        assert f'href="/rules/{other}"' in page


def test_the_rules_index_and_an_unknown_game(client):
    index = client.get("/rules").text
    for game in GAMES:
        assert f'href="/rules/{game}"' in index
    r = client.get("/rules/<script>")
    assert r.status_code == 404 and "<script>" not in r.text


def test_markdown_cannot_inject_markup():
    from tripletopper.server.guide import _MARKDOWN

    html = _MARKDOWN.render("<script>alert(1)</script>\n\n[x](javascript:alert(1))")
    assert "<script>" not in html and "href" not in html


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_tables_how_to_panel(client, game):
    r = client.get(f"/api/games/{game}/help")
    body = r.json()
    assert (body["game"], body["rules"]) == (game, f"/rules/{game}")
    assert "<h3>What you click</h3>" in body["html"]
    assert "<h3>What the symbols mean</h3>" in body["html"]


def test_no_help_for_a_game_that_does_not_exist(client):
    r = client.get("/api/games/chess/help")
    assert r.status_code == 404 and r.json()["code"] == "no_game"


def test_games_link_their_rules_and_say_which_options_need_others(client):
    games = {g["name"]: g for g in client.get("/api/games").json()}
    assert games["toe"]["rules"] == "/rules/toe"
    options = {o["name"]: o for o in games["toe"]["options"]}
    assert options["buzz_seconds"]["requires"] == {"quiz": True}
    assert "requires" not in options["max_turns"]
    assert options["buzz_seconds"]["help"].startswith("Quiz Show:")


def test_the_help_says_what_a_card_does_under_the_pointer(client):
    """Cards no longer rise under the pointer (a resting pointer made one jitter): the help
    says what the page does, a ring, and never that a card lifts."""
    html = client.get("/api/games/thirty-two/help").json()["html"]
    assert "lifts" not in html and "dashed ring" in html
