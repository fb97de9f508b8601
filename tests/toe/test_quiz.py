"""The Quiz Show (rules/toe.md): earned turns, buzzing, answers, timeouts and tiebreaks."""

from __future__ import annotations

import json

import pytest

from tripletopper.engine import CLOCK, CLOCK_ONLY, TABLE
from tripletopper.errors import IllegalActionError, InvalidOptionError
from tripletopper.games.toe import CELL_NAMES, Toe, cell_of

from ..refusal import refused
from .helpers import DRAWN_BOARD, MINI_BANK, act, preset, stacked

HANDS = {0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}


def quiz(**options):
    return stacked(HANDS, stock="GC1 GC2 GC3 GC4 GH1 GH2", quiz=True, **options)


def test_turns_are_earned_by_questions_both_may_buzz():
    state = quiz(questions=[3, 1])
    obs = state.observation(0)
    assert obs["phase"] == "buzz" and obs["to_act"] == [0, 1]
    assert obs["quiz"]["question"]["text"] == "Question 3?"
    assert state.legal_actions(0) == state.legal_actions(1) == [("buzz",)]
    assert state.legal_actions(CLOCK) == [("timeout",)] and state.legal_actions(TABLE) == []
    assert state.timeout() == (3.0, ("timeout",))


def test_a_right_answer_earns_the_buzzer_a_turn():
    state = quiz(questions=[0])
    act(state, "buzz", seat=1)
    assert state.to_act() == (1,) and state.timeout() == (10.0, ("timeout",))
    events = act(state, "answer A", seat=1)
    assert events[0]["correct"] and events[0]["earned_by"] == 1
    assert state.to_act() == (1,) and state.observation(1)["phase"] == "turn"
    act(state, "draw", "play GC1")
    assert state.observation(0)["phase"] == "buzz"  # then the next question


def test_a_wrong_answer_gives_the_opponent_the_turn():
    state = quiz(questions=[0])
    act(state, "buzz", seat=0)
    with pytest.raises(IllegalActionError, match="waiting for seat 0"):
        state.apply_text("answer A", 1)
    events = act(state, "answer C", seat=0)
    assert not events[0]["correct"] and events[0]["earned_by"] == 1
    assert events[0]["answer"] == "A" and events[0]["answer_text"] == "right 0"
    assert state.to_act() == (1,)


def test_an_unanswered_question_is_discarded_and_the_next_is_read():
    state = quiz(questions=[4, 2])
    events = act(state, "timeout", seat=CLOCK)
    assert events[0] == {"type": "timed_out", "phase": "buzz"}
    assert events[1]["type"] == "question" and events[1]["id"] == 2
    assert state.to_act() == (0, 1) and state.questions_read == 2
    assert 4 not in state.qpool  # discarded, not put back


def test_no_answer_in_time_counts_as_wrong():
    state = quiz(questions=[0])
    act(state, "buzz", seat=1)
    events = act(state, "timeout", seat=CLOCK)
    assert events[0] == {"type": "timed_out", "phase": "answer", "seat": 1}
    assert events[1]["choice"] is None and events[1]["earned_by"] == 0
    untimed = quiz(questions=[0], answer_seconds=0)
    act(untimed, "buzz", seat=1)
    assert untimed.timeout() is None and untimed.legal_actions(CLOCK) == []


def test_only_the_clock_ends_the_buzzing_and_the_answering():
    state = quiz(questions=[0, 1])
    for seat in (0, 1, TABLE):  # no player, nor the table a player may speak for
        refused(state, ("timeout",), seat, f"'timeout' is not allowed: {CLOCK_ONLY}")
    refused(state, ("buzz",), CLOCK, "'buzz' is not allowed: the clock plays only 'timeout'")
    act(state, "buzz", seat=1)
    assert state.legal_actions(CLOCK) == [("timeout",)]
    for seat in (0, 1, TABLE):
        refused(state, ("timeout",), seat, f"'timeout' is not allowed: {CLOCK_ONLY}")
    refused(state, ("answer", 0), CLOCK, "the clock plays only 'timeout'")
    act(state, "timeout", seat=CLOCK)  # unanswered: the turn goes to seat 0
    assert state.to_act() == (0,) and state.timeout() is None
    assert state.legal_actions(CLOCK) == [] and state.legal_actions(TABLE) == []
    refused(state, ("timeout",), CLOCK, "'timeout' is not the clock's: no timed phase is running")
    refused(state, ("draw",), CLOCK, "'draw' is not the clock's: no timed phase is running")
    for seat in (0, TABLE):  # untimed: the game itself says why
        refused(state, ("timeout",), seat, f"'timeout' is not allowed: {CLOCK_ONLY}")
    refused(state, ("draw",), TABLE, "'draw' is not allowed: Toe has no table actions")


def test_many_turns_in_a_row():
    state = quiz(questions=[0, 1, 2])
    for _ in range(3):
        act(state, "buzz", seat=0)
        act(state, "answer A", seat=0)
        act(state, "discard " + " ".join(state.game.deck.format_many(state.hands[0][:2])))
    assert state.turns == 3 and [seat for seat, _ in state.history if seat == 1] == []


def test_the_buzz_window_is_an_option():
    assert quiz(buzz_seconds=5).timeout() == (5.0, ("timeout",))
    with pytest.raises(InvalidOptionError, match="buzz_seconds"):
        quiz(buzz_seconds=0)


def test_the_observation_never_holds_the_answer_before_it_is_revealed():
    state = quiz(questions=[5])
    for seat in (0, 1, None):
        obs = state.public_observation() if seat is None else state.observation(seat)
        assert "right 5" in json.dumps(obs)  # the choice is shown...
        assert "answer" not in obs["quiz"]["question"] and obs["quiz"]["last_answer"] is None
    act(state, "buzz", seat=0)
    assert state.observation(1)["quiz"]["last_answer"] is None
    act(state, "answer B", seat=0)
    assert state.observation(1)["quiz"]["last_answer"]["answer"] == "A"


def full_but_one(state, last: str, x_marks: int | None = None):
    """Fill the drawn board except ``last``; optionally give X more marks."""
    cell = cell_of(last)
    marks = {CELL_NAMES[c]: "XO".index(m) for c, m in enumerate(DRAWN_BOARD) if c != cell}
    if x_marks is not None:
        flip = [name for name, seat in marks.items() if seat == 1][: x_marks - 31]
        marks.update({name: 0 for name in flip})
    preset(state, marks)


def test_a_drawn_game_goes_to_the_player_with_more_marks():
    state = quiz(questions=[0, 1], max_turns=1)
    preset(state, {"GT1": 0, "GT2": 0, "BS1": 1})  # X 2 marks, O 1
    act(state, "buzz", seat=1)
    act(state, "answer A", seat=1)
    events = act(state, "discard BS4 RH1")
    assert state.is_terminal() and state.results().winners == (0,)
    assert events[-1]["reason"] == "max_turns, more marks"
    assert state.results().scores == (2.0, 1.0)


def test_equal_marks_go_to_one_tiebreaker_question():
    state = quiz(questions=[0, 1, 2])
    full_but_one(state, "RC1")
    act(state, "buzz", seat=0)
    act(state, "answer A", seat=0)
    events = act(state, "draw", "play RC1")  # X's 32nd mark fills the board: 32-32
    assert [e["type"] for e in events[-3:]] == ["played", "tiebreak", "question"]
    assert events[-1]["tiebreak"] is True and not state.is_terminal()
    act(state, "timeout", seat=CLOCK)  # unanswered: another tiebreaker question
    act(state, "buzz", seat=1)
    events = act(state, "answer B", seat=1)  # wrong: the other player wins
    assert state.is_terminal() and state.results().winners == (0,)
    assert events[-1]["reason"] == "full, tiebreaker"


def test_a_right_tiebreaker_answer_wins():
    state = quiz(questions=[0, 1])
    full_but_one(state, "RC1")
    act(state, "buzz", seat=0)
    act(state, "answer A", seat=0)
    act(state, "draw", "play RC1")
    act(state, "buzz", seat=1)
    events = act(state, "answer A", seat=1)
    assert events[0]["tiebreak"] and state.results().winners == (1,)
    assert state.results().scores == (32.0, 32.0)


def test_a_board_full_with_unequal_marks_needs_no_tiebreaker():
    state = quiz(questions=[0])
    full_but_one(state, "RC1", x_marks=33)
    act(state, "buzz", seat=0)
    act(state, "answer A", seat=0)
    act(state, "draw", "play RC1")
    assert state.is_terminal() and state.results().winners == (0,)


def test_the_question_limit_draws_the_game():
    state = quiz(questions=[0, 1], max_questions=2)
    act(state, "timeout", seat=CLOCK)
    events = act(state, "timeout", seat=CLOCK)  # equal marks, no question left: shared draw
    assert state.is_terminal() and state.results().winners == ()
    assert events[-1]["reason"] == "max_questions, tiebreak unanswered"


def test_the_quiz_needs_a_bank_and_stacked_questions_need_the_quiz():
    with pytest.raises(InvalidOptionError, match="needs its question bank"):
        Toe(2, quiz=True)
    with pytest.raises(InvalidOptionError, match="bank given is"):
        Toe(2, quiz=True, bank=MINI_BANK, questions="other@123")
    with pytest.raises(InvalidOptionError, match="needs the Quiz Show"):
        Toe(2).new_state(0, question_order=[1])
    with pytest.raises(InvalidOptionError, match="question numbers 0-5"):
        Toe(2, quiz=True, bank=MINI_BANK).new_state(0, question_order=[9])
    assert Toe(2, quiz=True, bank=MINI_BANK).options["questions"] == MINI_BANK.ident


def test_the_bank_is_used_again_when_every_question_was_read():
    state = quiz()
    seen = [state.question]
    for _ in range(11):
        act(state, "timeout", seat=CLOCK)
        seen.append(state.question)
    assert sorted(seen[:6]) == list(range(6)) and sorted(seen[6:]) == list(range(6))


def test_a_stacked_question_already_read_gives_way_to_a_random_one():
    state = quiz(questions=[1, 1, 4])
    seen = [state.question]
    for _ in range(2):
        act(state, "timeout", seat=CLOCK)
        seen.append(state.question)
    assert seen[0] == 1 and seen[1] != 1 and state.qorder == []
    assert seen[2] == 4 or seen[1] == 4
