"""Player names at the card room: one canonical form, and no name that can pass for another.

A name is NFKC-normalized first (full-width letters become plain ones, so
``Ｙｏｕ`` is ``You``), white space is folded, and then refused if it holds a
character that prints nothing or changes how text around it is drawn:
control characters, format characters (zero-width spaces and joiners, bidi
overrides and isolates), line and paragraph separators, private-use and
unassigned code points.  Only then are the length, the reserved names and
duplicates at the table checked, case-insensitively (``casefold``) and with the
Cyrillic and Greek letters that look like Latin ones read as those, so a lookalike
of a name already seated (or, for accounts, registered) is refused too.

>>> clean_name("  Ann   Lee ")
'Ann Lee'
>>> clean_name("Ｂｏｂ")
'Bob'
>>> name_key("ANN") == name_key("ann")
True
>>> name_key("\u0410nn") == name_key("Ann")  # a Cyrillic A
True
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

MAX_NAME = 32
"""Characters in a name, after normalization."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
"""Control, format (zero-width, bidi), surrogate, private-use, unassigned, separators."""

_RESERVED = re.compile(
    r"(you|the clock|clock|table|seat \d+|spectator( \d+)?|deleted player|.*\bbot( \d+)?"
    r"|.*\(bot\))",
    re.I,
)
"""Names the room itself uses: the viewer's "You" (``engine.YOU``), the clock and the
table in narration, empty seats ("Seat 3"), bots ("Hard bot", "Ann (bot)") and the
spectators who chat ("Spectator 2") and the accounts deleted ("Deleted player")."""

_LOOKALIKES = str.maketrans("аеорсухіјѕһԁԛԝӏαονρικτυχ0", "aeopcyxijshdqwlaovpiktuxo")
"""Lowercase Cyrillic and Greek letters (and the digit 0) read as the Latin letters they
look like, so "Аnn" with a Cyrillic A is "Ann" for :func:`name_key`."""


class BadName(ValueError):
    """A name the room refuses; the message says why, for people."""


def clean_name(name: object) -> str:
    """The canonical form of a name a person chose, or :class:`BadName`."""
    if not isinstance(name, str):
        raise BadName("choose a name to sit down with")
    text = unicodedata.normalize("NFKC", name)
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES and char not in "\t\n\r":
            code = f"U+{ord(char):04X}"
            raise BadName(f"a name cannot hold invisible or control characters ({code})")
    text = " ".join(text.split())
    if not text:
        raise BadName("choose a name to sit down with")
    if len(text) > MAX_NAME:
        raise BadName(f"a name has at most {MAX_NAME} characters")
    if not any(char.isalnum() for char in text):
        raise BadName("a name needs at least one letter or digit")
    if _RESERVED.fullmatch(name_key(text)):  # "Hard b0t" passes for a bot too
        raise BadName(f"{text!r} is reserved: choose another name")
    return text


def name_key(name: str) -> str:
    """What two names must not share at one table, or two accounts (case, width and
    lookalike letters folded)."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOKALIKES)


def check_unique(name: str, taken: Iterable[str]) -> None:
    """Refuse ``name`` if a seated name is the same up to case and width."""
    key = name_key(name)
    if any(name_key(other) == key for other in taken):
        raise BadName(f"{name!r} already sits at this table")
