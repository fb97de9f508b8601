"""The contract's several-seats-at-once phases and timeouts, on a tiny test game.

"Buzzer": both seats may buzz; the first buzz wins.  If nobody buzzes within
3 seconds the table's clock (the ``CLOCK`` seat) plays ``timeout`` and nobody
wins.  Real games (spotting in Memo Match, buzzing in Quiz Show, choosing 3UP
cards) rely on exactly this.
"""

from __future__ import annotations

from typing import Any

from tripletopper.bots import Bot, SeatView
from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.cli.play import TerminalTable
from tripletopper.engine import (
    CLOCK,
    TABLE,
    Action,
    ActionCodec,
    ActionKind,
    Event,
    Game,
    Results,
    Rng,
    State,
)
from tripletopper.runner import BotError, choose_next, play_game

from .refusal import refused


class Buzzer(Game):
    name = "buzzer"
    title = "Buzzer"
    min_players = max_players = 2
    deck = TRIPLE_TOPPER
    codec = ActionCodec([ActionKind("buzz"), ActionKind("timeout")])

    def new_state(self, seed: int = 0, *, decks: Any = None, **setup: Any) -> BuzzerState:
        return BuzzerState(self, {"seed": seed, "decks": None, "setup": {}})


class BuzzerState(State):
    __slots__ = ("winner",)

    def __init__(self, game: Game, origin: dict[str, Any]) -> None:
        self._init_base(game, origin)
        self.winner: int | None = -1

    def to_act(self) -> tuple[int, ...]:
        return (0, 1) if self.winner == -1 else ()

    def _legal_actions(self, seat: int) -> list[Action]:
        return [("buzz",)]

    def timeout(self) -> tuple[float, Action] | None:
        return (3.0, ("timeout",)) if self.winner == -1 else None

    def _apply(self, seat: int, action: Action, events: list[Event] | None) -> None:
        self.winner = seat if action == ("buzz",) else None
        if events is not None:
            events.append(Event(action[0], {"seat": seat}))

    def is_terminal(self) -> bool:
        return self.winner != -1

    def results(self) -> Results | None:
        if self.winner == -1:
            return None
        winners = () if self.winner is None else (self.winner,)
        scores = tuple(1.0 if s == self.winner else 0.0 for s in range(2))
        return Results(winners, scores, (winners, tuple(s for s in range(2) if s not in winners)))

    def _observe(self, seat: int | None) -> dict[str, Any]:
        return {"winner": self.winner}

    def clone(self) -> BuzzerState:
        twin = BuzzerState.__new__(BuzzerState)
        twin._copy_base(self)
        twin.winner = self.winner
        return twin

    def resample(self, seat: int, rng: Rng) -> BuzzerState:
        return self.clone()

    def dump(self) -> dict[str, Any]:
        return {"winner": self.winner}


class Buzz(Bot):
    name = "buzz"

    def __init__(self, game: Game, seat: int, seed: int = 0, delay: float | None = 1.0) -> None:
        super().__init__(game, seat, seed)
        self.delay = delay

    def choose(self, view: SeatView) -> Action | None:
        return None if self.delay is None else ("buzz",)

    def reaction_time(self, view: SeatView) -> float:
        return self.delay or 0.0


def test_both_seats_may_act_and_either_may_go_first():
    state = Buzzer(2).new_state()
    assert state.to_act() == (0, 1)
    assert state.legal_actions(0) == state.legal_actions(1) == [("buzz",)]
    assert state.legal_actions(CLOCK) == [("timeout",)] and state.legal_actions(TABLE) == []
    state.apply(("buzz",), 1)
    assert state.results().winners == (1,)
    assert state.legal_actions(CLOCK) == []  # the game is over: nothing is timed


def test_only_the_clock_plays_the_timeout():
    state = Buzzer(2).new_state()
    clock_only = "time-outs are played by the table's clock, not by a player"
    for seat in (0, 1, TABLE):
        refused(state, ("timeout",), seat, f"'timeout' is not allowed: {clock_only}")
    refused(state, ("buzz",), CLOCK, "'buzz' is not allowed: the clock plays only 'timeout'")
    refused(state, ("timeout",), -3, "there is no seat -3")
    state.apply(("timeout",), CLOCK)
    assert state.history == [(CLOCK, ("timeout",))] and state.results().winners == ()
    refused(state, ("timeout",), CLOCK, "the game is over")


def test_the_clock_has_nothing_to_play_when_no_phase_is_timed():
    class Untimed(BuzzerState):
        def timeout(self) -> tuple[float, Action] | None:
            return None

    state = Untimed(Buzzer(2), {"seed": 0, "decks": None, "setup": {}})
    assert state.legal_actions(CLOCK) == []
    refused(state, ("timeout",), CLOCK, "'timeout' is not the clock's: no timed phase is running")


def test_the_quickest_bot_acts_first():
    game = Buzzer(2)
    state = game.new_state()
    bots = [Buzz(game, 0, delay=2.0), Buzz(game, 1, delay=0.5)]
    views = [SeatView(state, s) for s in range(2)]
    assert choose_next(state, bots, views) == (1, ("buzz",))
    assert play_game(game, bots).results().winners == (1,)


def test_the_clock_plays_the_timeout_when_nobody_acts_in_time():
    game = Buzzer(2)
    slow = [Buzz(game, 0, delay=5.0), Buzz(game, 1, delay=None)]
    final = play_game(game, slow)
    assert final.history == [(CLOCK, ("timeout",))]
    assert final.results().winners == ()


def test_a_phase_without_a_time_limit_needs_someone_to_act():
    class Stuck(BuzzerState):
        def timeout(self) -> tuple[float, Action] | None:
            return None

    game = Buzzer(2)
    state = Stuck(game, {"seed": 0, "decks": None, "setup": {}})
    idle = [Buzz(game, 0, delay=None), Buzz(game, 1, delay=None)]
    try:
        choose_next(state, idle, [SeatView(state, s) for s in range(2)])
    except BotError as exc:
        assert "no bot acted" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("expected BotError")


def test_the_terminal_player_races_the_bots(monkeypatch):
    from rich.console import Console

    game = Buzzer(2)
    outputs = []
    for answer in ["1\n", ""]:  # buzz at once; or say nothing (end of input = leave)
        console = Console(file=open("/dev/null", "w"), force_terminal=False)  # noqa: SIM115
        table = TerminalTable.__new__(TerminalTable)
        table.game, table.seat, table.console, table.names = game, 0, console, ["You", "Bot"]
        table.state = game.new_state()
        table.bots = [None, Buzz(game, 1, delay=1.0)]
        table.views = [SeatView(table.state, s) for s in range(2)]

        class View:
            def table(self, obs: dict[str, Any], names: Any) -> str:
                return "buzzer"

            def action_label(self, action: Action, obs: dict[str, Any]) -> str:
                return action[0]

        table.view = View()
        monkeypatch.setattr("sys.stdin", __import__("io").StringIO(answer))
        monkeypatch.setattr(console, "input", lambda prompt: input())
        try:
            table.race()
        except Exception as exc:  # the player left
            outputs.append(type(exc).__name__)
        else:
            outputs.append(table.state.results().winners)
    assert outputs == [(0,), "Quit"]
