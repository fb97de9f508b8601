"""Help in the browser: each game's rules page and its "how to play this table" panel.

Both are rendered once per game from Markdown shipped in the package: the
players' rules pages (``tripletopper/rules/<game>.md``, the same text the
terminal's ``tripletopper rules`` prints) and a short page per game of what to
click and what the symbols mean at the card room (``tripletopper/web/help/<game>.md``).
markdown-it-py renders them with raw HTML off, so nothing in a page can become markup
it does not spell in Markdown.
"""

from __future__ import annotations

from functools import cache
from html import escape
from importlib import resources

from markdown_it import MarkdownIt

from tripletopper.games import GAMES

_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
GENERIC_HOW_TO = (
    "<p>What you may play is highlighted on the table: click it. Other moves are the "
    "buttons under the table.</p>"
)
"""The panel of a game that has no page of its own yet."""


def _text(package: str, name: str) -> str | None:
    path = resources.files(package).joinpath(name)
    return path.read_text("utf-8") if path.is_file() else None


@cache
def how_to_html(game: str) -> str:
    """What to click and what the symbols mean at the card room's table of ``game``."""
    text = _text("tripletopper.web", f"help/{game}.md") if game in GAMES else None
    return _MARKDOWN.render(text) if text else GENERIC_HOW_TO


@cache
def rules_html(game: str) -> str | None:
    """The rules page of ``game`` as an HTML fragment (None: no such game or page)."""
    text = _text("tripletopper.rules", f"{game}.md") if game in GAMES else None
    return _MARKDOWN.render(text) if text else None


def _page(title: str, body: str) -> str:
    others = " · ".join(
        f'<a href="/rules/{name}">{escape(GAMES[name].title)}</a>' for name in sorted(GAMES)
    )
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{escape(title)} - Triple Topper card room</title>
  <link rel="icon" href="/favicon.ico" type="image/svg+xml">
  <link rel="stylesheet" href="/static/app.css">
  <script src="/static/theme.js"></script>
</head>
<body>
  <header class="bar"><a href="/">Lobby</a><span class="grow"></span>
    <nav aria-label="Rules of every game">Rules: {others}</nav>
    <span data-theme-control></span></header>
  <main class="rules">
{body}
  </main>
</body>
</html>
"""


@cache
def rules_page(game: str) -> str | None:
    """The whole page at ``/rules/{game}``: the rules, then how to play them here."""
    rules = rules_html(game)
    if rules is None:
        return None
    how_to = how_to_html(game)
    body = (
        f'<article class="panel" id="rules">{rules}</article>\n'
        f'<section class="panel" id="how-to"><h2>Playing it at this card room</h2>'
        f"{how_to}</section>"
    )
    return _page(f"Rules of {GAMES[game].title}", body)


@cache
def rules_index() -> str:
    """``/rules``: every game's rules page."""
    items = "".join(
        f'<li><a href="/rules/{name}">{escape(cls.title)}</a> '
        f"({cls.min_players}-{cls.max_players} players)</li>"
        for name, cls in sorted(GAMES.items())
    )
    body = f'<section class="panel"><h1>Rules of the games</h1><ul>{items}</ul></section>'
    return _page("Rules", body)
