"""Game options: a declared schema, parsed from text and validated with clear errors.

Every game lists its options as :class:`Option` values.  The same schema serves
the engine (validation), the CLI (``--option name=value``), the web lobby (the
JSON schema of :meth:`Option.schema`) and the docs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tripletopper.errors import InvalidOptionError

OptionValue = bool | int | float | str

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Option:
    """One named option of a game.

    ``kind`` is ``"bool"``, ``"int"``, ``"float"``, ``"choice"`` or ``"text"`` (a
    short name such as a question bank's id: non-empty, at most 100 characters,
    no spaces).  ``default`` may be a function of the number of players (e.g.
    Thirty-Two's counters).  ``requires`` names other options and the values under
    which this one matters (the Quiz Show's timings only with ``quiz`` on): forms
    hide it otherwise; the engine accepts it either way.
    """

    name: str
    kind: str
    default: OptionValue | Callable[[int], OptionValue]
    help: str
    choices: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    default_text: str = ""
    requires: Mapping[str, OptionValue] = field(default_factory=dict, hash=False)

    def default_for(self, players: int) -> OptionValue:
        return self.default(players) if callable(self.default) else self.default

    def allowed(self) -> str:
        """The allowed values, in words."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(self.choices)
        if self.kind == "text":
            return "a name without spaces (at most 100 characters)"
        low = "" if self.minimum is None else f"{self.minimum:g}"
        high = "" if self.maximum is None else f"{self.maximum:g}"
        noun = "a whole number" if self.kind == "int" else "a number"
        if low and high:
            return f"{noun} from {low} to {high}"
        if low:
            return f"{noun} of at least {low}"
        if high:
            return f"{noun} of at most {high}"
        return noun

    def parse(self, text: str) -> OptionValue:
        """Read a value typed by a person (``--option counters=12``)."""
        raw = text.strip()
        if self.kind == "bool":
            low = raw.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
        elif self.kind == "int":
            try:
                return int(raw)
            except ValueError:
                pass
        elif self.kind == "float":
            try:
                return float(raw)
            except ValueError:
                pass
        else:
            return raw
        raise self._error(text)

    def validate(self, value: object) -> OptionValue:
        """Check a value given as a Python/JSON value; strings are parsed."""
        if isinstance(value, str) and self.kind not in ("choice", "text"):
            value = self.parse(value)
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
        elif self.kind == "int":
            if isinstance(value, int) and not isinstance(value, bool) and self._in_range(value):
                return value
        elif self.kind == "float":
            if (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and self._in_range(value)
            ):
                return float(value)
        elif self.kind == "text":
            if isinstance(value, str) and 0 < len(value) <= 100 and value.split() == [value]:
                return value
        elif isinstance(value, str) and value in self.choices:
            return value
        raise self._error(value)

    def _in_range(self, value: float) -> bool:
        return (self.minimum is None or value >= self.minimum) and (
            self.maximum is None or value <= self.maximum
        )

    def _error(self, value: object) -> InvalidOptionError:
        return InvalidOptionError(f"option {self.name!r} must be {self.allowed()} (got {value!r})")

    def schema(self, players: int | None = None) -> dict[str, Any]:
        """A JSON description for forms and the HTTP API."""
        out: dict[str, Any] = {"name": self.name, "type": self.kind, "help": self.help}
        if players is not None or not callable(self.default):
            out["default"] = self.default_for(players or 0)
        else:
            out["default_text"] = self.default_text
        if self.choices:
            out["choices"] = list(self.choices)
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.requires:
            out["requires"] = dict(self.requires)
        return out


def validate_options(
    game_name: str, schema: Sequence[Option], players: int, given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """Every option's value: the given ones checked, the rest at their defaults."""
    by_name = {opt.name: opt for opt in schema}
    unknown = [name for name in given if name not in by_name]
    if unknown:
        known = ", ".join(by_name) or "none"
        raise InvalidOptionError(
            f"{game_name} has no option {unknown[0]!r} (its options are: {known})"
        )
    values: dict[str, OptionValue] = {}
    for opt in schema:
        values[opt.name] = (
            opt.validate(given[opt.name]) if opt.name in given else opt.default_for(players)
        )
    return values


def parse_option_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """``["counters=10", "end=open"]`` -> ``{"counters": "10", "end": "open"}``."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise InvalidOptionError(f"write options as name=value (got {pair!r})")
        out[name.strip().replace("-", "_")] = value.strip()
    return out
