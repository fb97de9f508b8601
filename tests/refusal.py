"""A shared check of the contract: a refused action raises exactly the error and changes nothing."""

from __future__ import annotations

from tripletopper.engine import Action, State
from tripletopper.errors import IllegalActionError


def refused(state: State, action: Action, seat: int, message: str) -> None:
    """``action`` is refused for ``seat`` with exactly an IllegalActionError, changing nothing."""
    before = (state.dump(), list(state.history), state.to_act())
    try:
        state.apply(action, seat)
    except IllegalActionError as exc:
        assert type(exc) is IllegalActionError and message in str(exc), exc
    else:  # pragma: no cover - the failure message
        raise AssertionError(f"{action} was accepted for seat {seat}")
    assert (state.dump(), list(state.history), state.to_act()) == before
