"""Cards drawn in the terminal: letter, shape symbol and number carry the meaning, color helps.

``R●1`` is a red circle 1, ``K✱?`` the black blob ? (black shown in reverse
video).  Standard cards read ``10♥``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from rich.text import Text

SHAPE_SYMBOLS = {"C": "●", "H": "♥", "T": "▲", "S": "■", "B": "✱"}
COLOR_STYLES = {
    "R": "bold red",
    "Y": "bold yellow",
    "G": "bold green",
    "B": "bold blue",
    "K": "bold reverse",
}
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_STYLES = {"C": "bold", "D": "bold red", "H": "bold red", "S": "bold"}


def card_text(name: str) -> Text:
    """A card name in the project's notation, drawn for the terminal."""
    if len(name) == 3 and name[0] in COLOR_STYLES and name[1] in SHAPE_SYMBOLS:
        color, shape, number = name[0], name[1], name[2]
        return Text(f"{color}{SHAPE_SYMBOLS[shape]}{number}", style=COLOR_STYLES[color])
    if name and name[-1] in SUIT_SYMBOLS:
        return Text(f"{name[:-1]}{SUIT_SYMBOLS[name[-1]]}", style=SUIT_STYLES[name[-1]])
    return Text(name)


def cards_text(names: Iterable[str], sep: str = " ") -> Text:
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(sep)
        out.append_text(card_text(name))
    return out


def squared_pile_text(label: str, top: str | None, size: int) -> Text:
    """A squared pile: only its top card shows, and how many cards lie in it."""
    out = Text(f"{label}: ")
    if top is None:
        return out.append("(empty)")
    out.append_text(card_text(top))
    if size > 1:
        out.append(f"  on a pile of {size} cards (only the top one shows)", style="dim")
    return out


_CARD_TOKEN = re.compile(r"\b([RYGBK][CHTSB][1-4?])(?![\w?])|\b((?:10|[2-9JQKA])[CDHS])\b")


def narration(text: str) -> Text:
    """A line of narration with the card names in it drawn as cards."""
    out = Text()
    at = 0
    for match in _CARD_TOKEN.finditer(text):
        out.append(text[at : match.start()])
        out.append_text(card_text(match.group(0)))
        at = match.end()
    out.append(text[at:])
    return out
