"""The names of everything a room keeps in a shared Redis, all under the room's prefix.

Several rooms may share one Redis server (and Redis's publish/subscribe channels ignore
its numbered databases): every key and channel of a room starts with its prefix
(``serve --redis-prefix``), so two rooms never count each other's connections, share a
rate limit, read each other's messages or claim each other's reviews.  The default
prefix comes from the database's name: the processes of one room share a database, so
they agree on it without being told, and two rooms on one PostgreSQL server have two
databases.  Rooms on different database servers whose databases have the same name
need a prefix each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy.engine import make_url

MAX_PREFIX = 64
"""Characters a prefix may have."""


def default_prefix(db_url: str) -> str:
    """``tt:NAME:``, NAME the database's name (letters, digits, ``_ . -``)."""
    name = make_url(db_url).database or ""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]", "_", name.rsplit("/", 1)[-1])[:40]
    return f"tt:{cleaned}:" if cleaned else "tt:"


def check_prefix(prefix: str) -> str:
    """A prefix as given, or ValueError: 1-64 printable ASCII characters, no space."""
    if not 1 <= len(prefix) <= MAX_PREFIX or not re.fullmatch(r"[!-~]+", prefix):
        raise ValueError(f"a Redis prefix is 1 to {MAX_PREFIX} printable characters, no space")
    return prefix


@dataclass(frozen=True)
class RedisKeys:
    """One room's keys and channels."""

    prefix: str = "tt:"

    def table(self, table_id: str) -> str:
        """The channel of a table's changes."""
        return f"{self.prefix}table:{table_id}"

    def process(self, name: str) -> str:
        """The channel of requests to one process."""
        return f"{self.prefix}process:{name}"

    def connections(self, address: str) -> str:
        """An address's websocket connections, a field per process."""
        return f"{self.prefix}connections:{address}"

    def opened(self, address: str) -> str:
        """The tables an address opened."""
        return f"{self.prefix}opened:{address}"

    def alive(self, name: str) -> str:
        """That a process is alive (its counts count while this lives)."""
        return f"{self.prefix}alive:{name}"

    def bot(self, user_id: int | str) -> str:
        """Which process a bot account's ``/ws/bot`` connection reached."""
        return f"{self.prefix}bot:{user_id}"

    @property
    def bots(self) -> str:
        """The user ids of the bot accounts that may be connected."""
        return f"{self.prefix}bots"

    def review(self, table_id: str, seat: int) -> str:
        """A process's claim on computing a post-game review."""
        return f"{self.prefix}review:{table_id}:{seat}"

    @property
    def limits(self) -> str:
        """The prefix of the rate limits' windows (the ``limits`` library adds its own)."""
        return f"{self.prefix}limits"
