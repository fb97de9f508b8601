"""Post-game review: the expert's search on each decision of one seat, from its view only."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tripletopper.bots import SeatView, make_bot
from tripletopper.bots.thirty_one import expected_places
from tripletopper.cli import cli
from tripletopper.engine import Rng
from tripletopper.errors import InvalidOptionError, InvalidRecordError
from tripletopper.question_banks import make_game
from tripletopper.record import Record
from tripletopper.review import (
    FORCED,
    RACE,
    assess,
    decisions,
    expert_spec,
    review,
    review_decision,
    reviewer,
)
from tripletopper.runner import play_game

from .thirty_one.helpers import play, stacked


def thirty_one_record(opponent: str = "2C 3D 4H") -> Record:
    """Seat 0 holds AS KS 2D with QS face up (taking it makes 31), but draws; later it
    draws again.  Seat 1's hand is never shown to seat 0 (the hand is not over)."""
    state = stacked(2, dealer=1, deals=[({0: "AS KS 2D", 1: opponent}, "QS", "8C 9D 7H 6C")])
    play(state, "draw", "discard 2D", "draw", "discard 9D", "draw")
    return Record.from_state(state)


def test_the_biggest_mistake_is_not_taking_the_card_that_makes_31():
    seen = []
    result = review(thirty_one_record(), 0, iterations=200, progress=lambda *p: seen.append(p))
    first = result.findings[0]
    assert (first.index, first.played, first.preferred) == (0, "draw", "take")
    # heads-up a value is the chance to win the game: the 31 wins the hand for sure, four
    # lives against three (4/7); drawing risks losing it, a hand being worth at most 1/7
    # (the two are measured on the same worlds: about one hand in twelve is lost)
    assert first.preferred_value == pytest.approx(4 / 7) and 0.005 < first.loss < 1 / 7
    assert [f.index for f in result.findings] == [0, 1, 4]  # biggest loss first
    agreed = [(f.played, f.preferred, f.loss) for f in result.findings[1:]]
    assert agreed == [("discard 2D", "discard 2D", 0.0), ("draw", "draw", 0.0)]
    assert seen == [(0, 3), (1, 3), (2, 3), (3, 3)]
    assert result.skipped == {}
    # deterministic for a seed, and each decision alone is the same as in the whole review
    again = review(thirty_one_record(), 0, iterations=200)
    assert again.to_json() == result.to_json()
    assert review_decision(thirty_one_record(), 0, 4, 200) == result.findings[2]


def test_a_review_cannot_depend_on_cards_the_seat_never_saw():
    """Two records that differ only in seat 1's hand (never shown to seat 0): seat 0's
    reviews are identical; seat 1's are not."""
    a, b = thirty_one_record("2C 3D 4H"), thirty_one_record("2C 3D 5S")
    assert a.decks != b.decks
    assert review(a, 0, iterations=150).to_json() == review(b, 0, iterations=150).to_json()


@pytest.mark.parametrize(("name", "players"), [("thirty-two", 3), ("three-up-three-down", 2)])
def test_each_assessment_is_the_same_on_a_world_resampled_for_the_seat(name, players):
    """At every decision the search's finding on the true state equals its finding on a
    resample for the seat (same observation, other hidden cards), with the same memory."""
    game = make_game(name, players)
    final = play_game(game, [make_bot("random", game, s, s) for s in range(players)], seed=5)
    record = Record.from_state(final)
    todo, _ = decisions(record, 1)
    state = record.new_state()
    rng = Rng(9)
    seen: list = []
    checked = 0
    for index, (actor, wire) in enumerate(record.actions):
        action = game.action_from_wire(wire)
        if index in todo[:6]:
            twin = state.resample(1, rng)
            found = []
            for world in (state, twin):
                bot = reviewer(game, 1, 7, 80)
                if bot.wants_events:
                    bot.observe(list(seen))
                found.append(assess(bot, SeatView(world, 1), action, index))
            assert found[0] == found[1]
            checked += 1
        seen.extend(event.view(1) for event in state.apply(action, actor))
    assert checked == min(6, len(todo))


def test_forced_moves_and_races_are_not_reviewed():
    game = make_game("three-up-three-down", 2)
    final = play_game(game, [make_bot("random", game, s, s) for s in range(2)], seed=3)
    record = Record.from_state(final)
    todo, skipped = decisions(record, 0)
    mine = sum(1 for seat, _ in record.actions if seat == 0)
    assert skipped[RACE] == 1  # choosing the three cards up, both seats at once
    assert skipped[FORCED] > 0
    assert len(todo) + sum(skipped.values()) == mine
    result = review(record, 0, iterations=30)
    assert len(result.findings) == len(todo) and result.skipped == skipped


def test_the_expert_budget_is_the_default_and_memo_match_uses_the_plain_search():
    game = make_game("thirty-one", 2)
    expert = make_bot("expert", game, 0)
    assert expert_spec(game) == ("expert", expert.iterations)  # type: ignore[attr-defined]
    name, budget = expert_spec(make_game("memo-match", 2))
    assert name == "ismcts" and budget == 1000


def test_bad_seats_and_bad_records_are_refused_clearly():
    record = thirty_one_record()
    with pytest.raises(InvalidOptionError, match="from 0 to 1"):
        review(record, 2, iterations=10)
    with pytest.raises(InvalidOptionError, match="not a decision of seat 0"):
        review_decision(record, 0, 2, 10)  # seat 1's action
    broken = Record.from_json({**record.to_json(), "actions": [[0, {"type": "knock"}]] * 3})
    with pytest.raises(InvalidRecordError, match="does not replay"):
        review(broken, 0, iterations=10)


def run_cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_the_review_command_lists_the_biggest_mistake_first(tmp_path):
    path = tmp_path / "game.json"
    record = thirty_one_record()
    record.names = ["Ann", "Ben"]
    record.save(path)
    out = run_cli("review", str(path), "--seat", "0", "--iterations", "200").output
    assert "Review of Ann (seat 0), thirty-one: 3 decisions searched, 200 iterations" in out
    assert "an unfinished game" in out
    rows = [line.split("│")[1:5] for line in out.splitlines() if line.count("│") == 5]
    cells = [[cell.strip() for cell in row] for row in rows]
    assert cells[0][:3] == ["1", "draw", "take"]
    assert cells[1:] == [
        ["2", "discard 2D", "(the same)", "0.0"],
        ["5", "draw", "(the same)", "0.0"],
    ]
    expected = review(record, 0, iterations=200)
    assert cells[0][3] == f"{expected.findings[0].loss * 100:.1f}"
    data = json.loads(run_cli("review", str(path), "-i", "200", "--json").output)
    assert data == {**expected.to_json(), "finished": False}


def test_the_review_command_refuses_bad_files_and_seats(tmp_path):
    path = tmp_path / "game.json"
    thirty_one_record().save(path)
    bad = run_cli("review", str(path), "--seat", "5")
    assert bad.exit_code == 2 and "--seat must be from 0 to 1" in bad.output
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    bad = run_cli("review", str(junk))
    assert bad.exit_code == 2 and "is not valid JSON" in bad.output
    broken = tmp_path / "broken.json"
    broken.write_text(
        json.dumps({**thirty_one_record().to_json(), "actions": [[0, {"type": "x"}]]})
    )
    bad = run_cli("review", str(broken))
    assert bad.exit_code == 1 and "does not replay (at action 1)" in bad.output


def test_a_move_is_measured_alone_by_the_same_playouts():
    """``value_of``: the mean result of a move then the playouts, as a root child of the
    search estimates it (taking the QS makes 31: the hand's end is certain).  Three
    players: heads-up the search compares its moves on paired playouts and grows no tree."""
    hands = {0: "AS KS 2D", 1: "2C 3D 4H", 2: "2H 3S 4C"}
    state = stacked(3, dealer=2, deals=[(hands, "QS", "8C 9D 7H 6C")])
    view = SeatView(state, 0)
    take, draw = ("take",), ("draw",)
    values = {a: reviewer(state.game, 0, 3, 100).value_of(view, a, 100) for a in (take, draw)}
    won = (3 - expected_places((3, 3, 4))[4]) / 2  # the others lose a life: 4, 3, 3 lives
    assert values[take] == pytest.approx(won) and won > values[draw]
    bot = reviewer(state.game, 0, 3, 300)
    bot.choose(view)
    visits, mean = bot.last.root_values[take]
    assert visits > 0 and abs(mean - values[take]) < 0.05


def test_a_paired_search_gives_the_review_both_moves_values_measured_on_the_same_worlds(
    monkeypatch,
):
    """Heads-up the search compares every move on the same worlds and reports each one's
    playouts and mean, so the review reads the loss off the comparison instead of playing
    the moves again on other worlds (twice the work, and luck in the difference)."""
    state = stacked(2, dealer=1, deals=[({0: "AS KS 2D", 1: "2C 3D 4H"}, "QS", "8C 9D 7H 6C")])
    view = SeatView(state, 0)
    bot = reviewer(state.game, 0, 3, 300)

    def measured_again(*args: object) -> float:
        raise AssertionError("a move the comparison measured was played again")

    monkeypatch.setattr(bot, "value_of", measured_again)
    finding = assess(bot, view, ("draw",), 0)
    legal = view.legal_actions()
    assert {a: visits for a, (visits, _mean) in bot.last.root_values.items()} == {
        a: 300 // len(legal) for a in legal
    }
    assert finding.preferred_value == bot.last.root_values[("take",)][1] == pytest.approx(4 / 7)
    assert finding.played_value == bot.last.root_values[("draw",)][1]
