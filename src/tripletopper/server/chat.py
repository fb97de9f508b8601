"""Chat at a table: what a line may hold, who it is said to be from, and its limits.

A line is plain text: one line of at most :data:`MAX_CHAT` characters, white space
folded, refused if it holds a character that prints nothing or changes how the text
around it is drawn (controls, bidi overrides and isolates, zero-width characters other
than the joiner of emoji sequences, private-use and unassigned code points).  Browsers
show it as text, never as markup.  Who said it is the server's to say: the name of the
speaker's seat, or "Spectator N" (numbered per client address at each table); a client
never names itself.  The limits (docs/protocol.md, "Limits") bound what a flood of
spectators can cost: per address and per table.

>>> clean_chat("  good   game ")
'good game'
>>> clean_chat("<b>hi</b>")
'<b>hi</b>'
"""

from __future__ import annotations

import unicodedata

MAX_CHAT = 300
"""Characters in one line, after white space is folded."""
MAX_CHAT_LINES = 2000
"""Lines stored at one table; then its chat is full..."""
MAX_SPECTATOR_LINES = 500
"""...and of those, lines said by spectators (a crowd cannot fill the players' chat)."""
CHAT_KEEP = 100
"""Latest lines a client gets when it says hello (a replay has them all)."""

_REFUSED = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
_JOINER = "\u200d"
"""The zero-width joiner, a format character that emoji sequences need."""


class BadChat(ValueError):
    """A line the room refuses; the message says why, for people."""


def clean_chat(text: object) -> str:
    """The line as it is shown, or :class:`BadChat`."""
    if not isinstance(text, str):
        raise BadChat("a chat line is text")
    if len(text) > 4 * MAX_CHAT:  # no work on a huge line: refused whatever it folds to
        raise BadChat(f"a chat line has at most {MAX_CHAT} characters")
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    for char in text:
        if unicodedata.category(char) in _REFUSED and char != _JOINER:
            raise BadChat(
                f"a chat line cannot hold invisible or control characters (U+{ord(char):04X})"
            )
    if not text:
        raise BadChat("say something")
    if len(text) > MAX_CHAT:
        raise BadChat(f"a chat line has at most {MAX_CHAT} characters")
    return text


def spectator_name(number: int) -> str:
    """How a spectator's lines are signed (names.py reserves these for seats)."""
    return f"Spectator {number}"
