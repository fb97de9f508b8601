"""Actions in three forms: compact tuples, JSON wire dicts and short text.

The compact form is what engines generate and compare: a tuple whose first item
is the action's kind and whose other items are ints, bools or tuples of ints
(``("discard", 17, False)``).  Each game declares its kinds once as
:class:`ActionKind` values; :class:`ActionCodec` then reads and writes

- the wire form ``{"type": "discard", "card": "GS1", "declare": false}`` and
- the text form ``discard GS1`` (``discard GS1 declare``), which parses back.
  Text also takes a card's long forms (``discard green square 1``, ``discard
  ten of hearts declare``); text is always written in the short form.

An :class:`ActionPattern` stands for many actions at once where listing them
would be too much (any two of 125 face-up cards is 7,750 claims).

Anything unreadable raises :class:`~tripletopper.errors.MalformedActionError`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from tripletopper.cards.deck import Deck
from tripletopper.errors import CardError, MalformedActionError

Action = tuple[Any, ...]


class Param:
    """One argument of an action kind, with its wire and text codecs."""

    name: str
    optional = False

    def to_wire(self, value: Any) -> Any:
        raise NotImplementedError

    def from_wire(self, raw: Any) -> Any:
        raise NotImplementedError

    def to_text(self, value: Any) -> str:
        raise NotImplementedError

    def from_text(self, tokens: list[str], at: int) -> tuple[Any, int]:
        """Read the value starting at ``tokens[at]``; return it and the next index."""
        raise NotImplementedError

    def _missing(self) -> MalformedActionError:
        return MalformedActionError(f"missing {self.name}")


class CardParam(Param):
    """One card of the game's deck; wire and text use the short notation, and read the
    long forms too (in text a long form spans several words: ``red circle 1``)."""

    def __init__(self, name: str, deck: Deck) -> None:
        self.name = name
        self.deck = deck

    def to_wire(self, value: int) -> str:
        return self.deck.format(value)

    def from_wire(self, raw: Any) -> int:
        if not isinstance(raw, str):
            raise MalformedActionError(f"{self.name} must be a card name like 'RC1'")
        try:
            return self.deck.parse(raw)
        except CardError as exc:
            raise MalformedActionError(str(exc)) from None

    def to_text(self, value: int) -> str:
        return self.deck.format(value)

    def from_text(self, tokens: list[str], at: int) -> tuple[int, int]:
        """The card named from ``tokens[at]`` on: the longest run of words that names a
        card (a short name is one word, a long form such as ``ten of hearts`` several)."""
        if at >= len(tokens):
            raise self._missing()
        parse = self.deck.parse
        for end in range(min(len(tokens), at + self.deck.max_words), at + 1, -1):
            try:
                return parse(" ".join(tokens[at:end])), end
            except CardError:
                continue
        return self.from_wire(tokens[at]), at + 1


class CardsParam(Param):
    """Several cards (kept in the given order); text takes the remaining tokens."""

    def __init__(self, name: str, deck: Deck, min_count: int = 1, max_count: int = 999) -> None:
        self.name = name
        self.deck = deck
        self.min_count = min_count
        self.max_count = max_count
        self._card = CardParam(name, deck)

    def _check(self, cards: tuple[int, ...]) -> tuple[int, ...]:
        if not self.min_count <= len(cards) <= self.max_count:
            raise MalformedActionError(
                f"{self.name} needs {self.min_count} to {self.max_count} cards (got {len(cards)})"
            )
        if len(set(cards)) != len(cards):
            raise MalformedActionError(f"{self.name} names a card twice")
        return cards

    def to_wire(self, value: tuple[int, ...]) -> list[str]:
        return self.deck.format_many(value)

    def from_wire(self, raw: Any) -> tuple[int, ...]:
        if not isinstance(raw, list):
            raise MalformedActionError(f"{self.name} must be a list of card names")
        return self._check(tuple(self._card.from_wire(item) for item in raw))

    def to_text(self, value: tuple[int, ...]) -> str:
        return " ".join(self.deck.format_many(value))

    def from_text(self, tokens: list[str], at: int) -> tuple[tuple[int, ...], int]:
        cards = []
        while at < len(tokens):
            card, at = self._card.from_text(tokens, at)
            cards.append(card)
        return self._check(tuple(cards)), at


class IntParam(Param):
    """A whole number within bounds."""

    def __init__(self, name: str, minimum: int, maximum: int) -> None:
        self.name = name
        self.minimum = minimum
        self.maximum = maximum

    def to_wire(self, value: int) -> int:
        return value

    def from_wire(self, raw: Any) -> int:
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            raw = int(raw)
        if not isinstance(raw, int) or isinstance(raw, bool):
            raise MalformedActionError(f"{self.name} must be a whole number")
        if not self.minimum <= raw <= self.maximum:
            raise MalformedActionError(
                f"{self.name} must be from {self.minimum} to {self.maximum} (got {raw})"
            )
        return raw

    def to_text(self, value: int) -> str:
        return str(value)

    def from_text(self, tokens: list[str], at: int) -> tuple[int, int]:
        if at >= len(tokens):
            raise self._missing()
        return self.from_wire(tokens[at]), at + 1


class FlagParam(Param):
    """A yes/no switch: in text, present as its word or absent."""

    optional = True

    def __init__(self, name: str, word: str | None = None) -> None:
        self.name = name
        self.word = word or name

    def to_wire(self, value: bool) -> bool:
        return bool(value)

    def from_wire(self, raw: Any) -> bool:
        if raw is None:
            return False
        if not isinstance(raw, bool):
            raise MalformedActionError(f"{self.name} must be true or false")
        return raw

    def to_text(self, value: bool) -> str:
        return self.word if value else ""

    def from_text(self, tokens: list[str], at: int) -> tuple[bool, int]:
        if at < len(tokens) and tokens[at].lower() == self.word:
            return True, at + 1
        return False, at


@dataclass(frozen=True)
class ActionKind:
    """An action kind: its name (the tuple's first item), params and a help line."""

    name: str
    params: tuple[Param, ...] = ()
    help: str = ""


@dataclass(frozen=True, slots=True)
class ActionPattern:
    """Every action ``(kind, items)`` whose one argument is ``pick`` different values of
    ``among``, kept in the order they have in ``among``.

    The kind must take exactly that one argument, a tuple whose wire form lists its
    items one by one (like :class:`CardsParam`).  :meth:`actions` lists them all.
    """

    kind: str
    among: tuple[int, ...]
    pick: int

    def actions(self) -> Iterator[Action]:
        """The actions, in the order of :func:`itertools.combinations` of ``among``."""
        kind = self.kind
        return ((kind, items) for items in combinations(self.among, self.pick))

    @property
    def count(self) -> int:
        """How many actions the pattern stands for."""
        return comb(len(self.among), self.pick)


class ActionCodec:
    """Converts a game's actions between compact, wire and text forms."""

    def __init__(self, kinds: Sequence[ActionKind]) -> None:
        self.kinds = {kind.name: kind for kind in kinds}

    def _kind(self, name: object) -> ActionKind:
        kind = self.kinds.get(name) if isinstance(name, str) else None
        if kind is None:
            known = ", ".join(self.kinds)
            raise MalformedActionError(f"unknown action {name!r} (actions are: {known})")
        return kind

    def check(self, action: object) -> Action:
        """Verify a compact action's shape (kind known, right number of items)."""
        if not isinstance(action, tuple) or not action:
            raise MalformedActionError(f"an action must be a non-empty tuple, not {action!r}")
        kind = self._kind(action[0])
        if len(action) != 1 + len(kind.params):
            raise MalformedActionError(
                f"{kind.name} takes {len(kind.params)} argument(s), got {len(action) - 1}"
            )
        return action

    def to_wire(self, action: Action) -> dict[str, Any]:
        kind = self._kind(action[0])
        out: dict[str, Any] = {"type": kind.name}
        for param, value in zip(kind.params, action[1:], strict=True):
            out[param.name] = param.to_wire(value)
        return out

    def pattern_to_wire(self, pattern: ActionPattern) -> dict[str, Any]:
        """``{"action": {"type": kind}, "field", "pick", "from"}``: an action is ``action``
        with ``field`` set to a list of ``pick`` different items of ``from``, in their order."""
        kind = self._kind(pattern.kind)
        (param,) = kind.params
        return {
            "action": {"type": kind.name},
            "field": param.name,
            "pick": pattern.pick,
            "from": param.to_wire(pattern.among),
        }

    def from_wire(self, raw: object) -> Action:
        if not isinstance(raw, Mapping):
            raise MalformedActionError('an action must be a JSON object like {"type": "draw"}')
        kind = self._kind(raw.get("type"))
        extra = set(raw) - {"type"} - {p.name for p in kind.params}
        if extra:
            raise MalformedActionError(f"{kind.name} has no field {sorted(extra)[0]!r}")
        values = []
        for param in kind.params:
            if param.name not in raw and not param.optional:
                raise MalformedActionError(f"{kind.name} needs {param.name!r}")
            values.append(param.from_wire(raw.get(param.name)))
        return (kind.name, *values)

    def to_text(self, action: Action) -> str:
        kind = self._kind(action[0])
        parts = [kind.name]
        for param, value in zip(kind.params, action[1:], strict=True):
            text = param.to_text(value)
            if text:
                parts.append(text)
        return " ".join(parts)

    def from_text(self, text: str) -> Action:
        if not isinstance(text, str) or not text.strip():
            raise MalformedActionError("empty action")
        tokens = text.split()
        kind = self._kind(tokens[0].lower())
        values = []
        at = 1
        for param in kind.params:
            value, at = param.from_text(tokens, at)
            values.append(value)
        if at != len(tokens):
            raise MalformedActionError(f"unexpected {' '.join(tokens[at:])!r} after {kind.name}")
        return (kind.name, *values)
