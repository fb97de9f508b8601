"""The typed errors every part of the project raises for bad input.

All of them are ``ValueError`` subclasses whose message is written for the person
who gave the bad input (a player, a bot author, an API client): it says what was
wrong and what would have been accepted.
"""


class TripleTopperError(ValueError):
    """Base class of every error about bad input to the games."""


class CardError(TripleTopperError):
    """A card notation that names no card of the deck."""


class InvalidOptionError(TripleTopperError):
    """An unknown game option, or a value the option does not allow."""


class MalformedActionError(TripleTopperError):
    """An action that cannot be read at all (bad text, JSON or shape)."""


class IllegalActionError(TripleTopperError):
    """A well-formed action that the rules do not allow now, or not for this seat."""


class InvalidRecordError(TripleTopperError):
    """A saved game file that cannot be read or does not replay."""
