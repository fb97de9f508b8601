"""Events: what an applied action made happen, with per-seat secrets kept apart.

An :class:`Event` has public fields, seen by everyone, and optionally secret
fields for particular seats (the card a player drew).  :meth:`Event.view` is the
only way an event leaves the engine, so a seat never receives another seat's
secret.
"""

from __future__ import annotations

from typing import Any


class Event:
    __slots__ = ("data", "secret", "type")

    def __init__(
        self,
        type: str,
        data: dict[str, Any] | None = None,
        secret: dict[int, dict[str, Any]] | None = None,
    ) -> None:
        self.type = type
        self.data = data or {}
        self.secret = secret

    def view(self, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` sees it (``None``: a spectator, public fields only)."""
        out = {"type": self.type, **self.data}
        if self.secret and seat is not None and seat in self.secret:
            out.update(self.secret[seat])
        return out

    def __repr__(self) -> str:
        return f"Event({self.type!r}, {self.data!r}, secret={self.secret!r})"


YOU = "You"
"""The name a terminal or browser gives the seat it shows; narration then says "you"."""


def phrase(name: str, third_person: str, second_person: str) -> str:
    """``"Ann draws"`` or ``"You draw"``: narration agrees with the viewer's own name."""
    return f"{name} {second_person if name == YOU else third_person}"


def named(name: str) -> str:
    """A name inside a sentence: ``"you"`` for the viewer's own seat, else the name."""
    return "you" if name == YOU else name


def counted(n: float, one: str, many: str | None = None) -> str:
    """``"1 card"``, ``"3 cards"``, ``"1 card left"`` / ``"2 cards left"`` (``many`` when
    the plural is not ``one`` + s)."""
    number = f"{n:g}" if isinstance(n, float) else str(n)
    return f"{number} {one if n == 1 else (many or one + 's')}"
