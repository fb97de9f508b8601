"""Question banks read from files, and games made with the bank their options name.

The rules core never reads files, so the Quiz Show's bank is loaded here and
handed to the game.  The ``questions`` option of a game names its bank:
``builtin`` is the bank shipped in the package (``tripletopper/data/questions.jsonl``),
any other value is ``name@digest`` of a user bank, which must have been loaded
(:func:`load_bank`, the CLI's ``--questions FILE``) before a game or a saved
record naming it can be made.  Because the digest hashes the questions, a
record replays only with exactly the bank it was played with.

>>> game = make_game("toe", quiz=True)
>>> game.bank is builtin_bank() and len(game.bank) >= 200
True
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from tripletopper.engine import Game
from tripletopper.games import game_class
from tripletopper.games.toe.questions import (
    BUILTIN,
    QuestionBank,
    QuestionBankError,
    bank_name,
    parse_bank,
)

_loaded: dict[str, QuestionBank] = {}
"""User banks loaded in this process, by id (a cache of files read, not game state)."""


@lru_cache(maxsize=1)
def builtin_bank() -> QuestionBank:
    """The question bank shipped with the project."""
    text = resources.files("tripletopper.data").joinpath("questions.jsonl").read_text("utf-8")
    return parse_bank(text, BUILTIN)


def load_bank(path: str | Path) -> QuestionBank:
    """Read a user bank (``.csv`` is CSV, anything else JSON lines) and remember it."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise QuestionBankError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise QuestionBankError(f"{path} is not UTF-8 text") from None
    name = bank_name(path.stem)
    if name == BUILTIN:
        name = "builtin-user"
    fmt = "csv" if path.suffix.lower() == ".csv" else "jsonl"
    try:
        bank = parse_bank(text, name, fmt)
    except QuestionBankError as exc:
        raise QuestionBankError(f"{path}: {exc}") from None
    _loaded[bank.ident] = bank
    return bank


def find_bank(ident: str) -> QuestionBank:
    """The bank named by a ``questions`` option value."""
    if ident == BUILTIN:
        return builtin_bank()
    bank = _loaded.get(ident)
    if bank is None:
        raise QuestionBankError(
            f"this game uses the question bank {ident!r}: give its file with --questions FILE"
        )
    return bank


def make_game(name: str, players: int | None = None, **options: object) -> Game:
    """A game by registry name, with the question bank its options name (if any)."""
    return new_game(game_class(name), players, **options)


def new_game(cls: type[Game], players: int | None = None, **options: object) -> Game:
    """A game of class ``cls``, with the question bank its options name (if any)."""
    count = cls.min_players if players is None else players
    needed = getattr(cls, "bank_needed", None)
    ident = needed(cls.check_players(count), options) if needed is not None else None
    if ident is None:
        return cls(count, **options)
    return cls(count, bank=find_bank(ident), **options)
