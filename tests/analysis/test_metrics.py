"""Each game's metrics on stacked games whose counts are known by hand.

A collector sees the events as a spectator does (type and public fields), so the
scenarios feed it the public views the games' own test helpers return."""

from array import array

import pytest

from tripletopper.analysis.metrics import COLLECTORS, Collector, all_metrics, collector_for
from tripletopper.analysis.run import Cell, CellRun
from tripletopper.analysis.summary import summarize
from tripletopper.games import GAMES

from ..memo_match import helpers as memo
from ..thirty_one import helpers as t31
from ..thirty_one.test_rules import knock_round
from ..thirty_two import helpers as t32
from ..three_up_three_down import helpers as up
from ..toe import helpers as toe


def watch(state) -> Collector:
    """A collector of the state's game that has seen the state before its first action."""
    collector = collector_for(state.game.name)(state.game)
    collector.start(state)
    return collector


def count(collector: Collector, views) -> Collector:
    for view in views:
        collector.see(view["type"], view)
    return collector


def row(collector: Collector, state) -> dict[str, float]:
    assert state.is_terminal()
    return dict(zip(collector.all_columns(state.game), collector.finish(state), strict=True))


def test_every_game_has_its_collector():
    assert set(COLLECTORS) == set(GAMES)
    assert collector_for("no-such-game") is Collector


def test_thirty_two_a_lost_knock_an_elimination_a_playoff_and_a_thirty_two():
    # tests/thirty_two: the knocker (seat 0, 4 counters) pays 3 + 1 and is out after hand 1;
    # seat 1 leads but seat 2, owed 4, plays off and declares a dealt Thirty-two (6 paid).
    second = t32.deck_order([2, 1], {2: "BS4 BB4 KB?", 1: "RC1 YH2 GT3"}, face_up="YS2")
    state = t32.stacked(
        3,
        dealer=2,
        counters=4,
        hands={0: "KH1 YB1 GT2", 1: "GT4 GT3 KB4", 2: "RC4 RC3 RC2"},
        face_up="RS1",
        stock="YS1 GS1",
        more=[second],
    )
    collector = watch(state)
    count(
        collector, t32.play(state, "knock", "draw", "discard YS1", "draw", "discard GS1", "declare")
    )
    assert row(collector, state) == {
        "actions": 6,
        "turns": 3,
        "limit": 0,
        "hands": 2,
        "win0": 0,
        "win1": 0,
        "win2": 1,
        "pos0": 0,
        "pos1": 0,
        "pos2": 1,  # dealer 2: seat 0 plays first
        "thirty_twos": 1,
        "knocks": 1,
        "showdowns": 1,
        "knocker_won": 0,
        "paid": 10,
        "eliminated": 1,
        "first_elimination": 1,
        "playoff": 1,
    }


def test_thirty_one_two_dealt_31s_then_a_knocker_alone_lowest_loses_his_last_two_lives():
    deals = [t31.dealt_31(1, 2), t31.dealt_31(1, 2), ({0: "9C 5D 2H", 1: "10D 3H 2S"}, "8S", "")]
    state = t31.stacked(2, dealer=1, deals=deals)
    collector = watch(state)
    views = t31.declare_dealt(state) + t31.declare_dealt(state) + knock_round(state)
    got = row(count(collector, views), state)
    assert got == {
        "actions": 5,
        "turns": 2,
        "limit": 0,
        "hands": 3,
        "win0": 0,
        "win1": 1,
        "pos0": 0,
        "pos1": 1,  # dealer 1: seat 0 is first to play (seat 1 declares first)
        "dealt_31": 2,
        "made_31": 0,
        "knocks": 1,
        "showdowns": 1,
        "knocker_lost": 1,
        "knocker_saved": 0,
        "others_lost": 0,
        "voids": 0,
        "lives_lost": 4,
        "comeback": 0,
    }


def test_thirty_one_a_void_hand_loses_nobody_a_life():
    deals = [t31.dealt_31(0, 2), t31.dealt_31(0, 2), t31.dealt_31(0, 2)]
    state = t31.stacked(2, dealer=1, deals=deals)
    collector = collector_for("thirty-one")(state.game)
    for _ in range(3):
        count(collector, t31.declare_dealt(state))
    assert state.lives == [4, 1]
    assert (collector.row["dealt_31"], collector.row["lives_lost"]) == (3, 3)


def test_toe_x_wins_with_a_line_on_the_seventh_turn():
    # X plays RC1 RH1 RT1 RS1 (a straight line), O plays three cards elsewhere in between.
    state = toe.stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"}, stock="RC1 BS4 RH1 BS3 RT1 BT4 RS1")
    collector = watch(state)
    views = []
    for card in ("RC1", "BS4", "RH1", "BS3", "RT1", "BT4", "RS1"):
        views += toe.act(state, "draw", f"play {card}")
    got = row(count(collector, views), state)
    assert got["x_wins"] == 1 and got["win0"] == 1 and got["pos0"] == 1 and got["draw"] == 0
    assert (got["plays"], got["wasted"], got["line"], got["line_turn"]) == (7, 0, 1, 7)
    assert got["actions"] == 14 and got["limit"] == 0


def test_toe_the_turn_limit_is_a_draw_at_a_safety_limit():
    state = toe.stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}, max_turns=3)
    collector = watch(state)
    views = toe.act(state, "discard RC1 YH2", "discard BS4 RH1", "draw")
    views += toe.act(state, f"play {toe.hand(state, 0)[-1]}")
    got = row(count(collector, views), state)
    assert (got["limit"], got["draw"], got["line"], got["line_turn"]) == (1, 1, 0, 0)
    assert got["win0"] == got["win1"] == 0 and got["x_wins"] == 0


def test_memo_match_pairs_a_declaration_and_the_table_taken():
    state = memo.stacked(3, "RC1 RC2 YH1 YH2 GT3", order=[2, 0, 1])
    collector = watch(state)
    views = memo.play(state, "A1 C1", "A1 B1", "C1 D1", "declare")
    views += memo.play(state, "pass", seat=1) + memo.play(state, "pass", seat=2)
    got = row(count(collector, views), state)
    assert got == {
        "actions": 9,
        "turns": 4,
        "limit": 0,
        "win0": 1,
        "win1": 0,
        "win2": 0,
        "pos0": 0,
        "pos1": 1,
        "pos2": 0,  # seat 2 flips first, seat 0 second
        "pairs": 2,
        "triples": 0,
        "declarations": 1,
        "spotted": 0,
        "took_all": 1,
        "wrong_claims": 0,
        "main_turns": 4,
        "cleared": 1,
        "playoff": 0,
    }


def test_memo_match_the_turn_limit_leaves_the_table_uncleared():
    state = memo.stacked(2, "RC1 YH2 GT3 BS4", max_turns=2)
    collector = watch(state)
    got = row(count(collector, memo.play(state, "A1 B1", "C1 D1")), state)
    assert (got["limit"], got["cleared"], got["main_turns"], got["win0"]) == (1, 0, 2, 0.5)


def test_three_up_a_failed_blind_flip_and_two_pickups():
    state = up.arranged(2, hands={1: "9 9"}, down={0: "3"}, pile="5")
    collector = watch(state)
    views = up.play(state, "flip", "play 9", "pickup", "play 9")
    got = row(count(collector, views), state)
    assert state.dealer == 0  # the deal's dealer: seat 1 counts as the first to play
    assert got == {
        "actions": 4,
        "turns": 4,
        "limit": 0,
        "win0": 0,
        "win1": 1,
        "pos0": 1,
        "pos1": 0,
        "pickups": 2,
        "clear_run": 0,
        "clear_c": 0,
        "clear_c1": 0,
        "clear_c2": 0,
        "blind": 1,
        "blind_failed": 1,
        "turns_per_player": 2,
    }


def test_three_up_clears_by_kind():
    collector = collector_for("three-up-three-down")(GAMES["three-up-three-down"](2))
    views = [{"type": "cleared", "by": by} for by in ("run", "C", "C", "C+1", "C+2")]
    views += [{"type": "played", "from": "3DOWN"}, {"type": "played", "from": "hand"}]
    count(collector, views)
    assert [collector.row[k] for k in ("clear_run", "clear_c", "clear_c1", "clear_c2")] == [
        1,
        2,
        1,
        1,
    ]
    assert (collector.row["blind"], collector.row["blind_failed"]) == (1, 0)


def test_figures_from_rows_known_by_hand():
    game = GAMES["thirty-two"](3)
    collector = collector_for("thirty-two")
    run = CellRun(
        Cell(3, (), ()),
        game,
        ["medium"] * 3,
        collector.all_columns(game),
        all_metrics(collector, game),
    )
    base = dict.fromkeys(run.columns, 0.0)
    games = [
        {
            "win0": 1,
            "hands": 2,
            "thirty_twos": 1,
            "paid": 10,
            "eliminated": 1,
            "first_elimination": 2,
            "actions": 10,
        },
        {"win1": 0.5, "win2": 0.5, "hands": 4, "thirty_twos": 0, "paid": 6, "actions": 30},
    ]
    run.rows = [array("d", [{**base, **g}[c] for c in run.columns]) for g in games]
    figures = summarize(run)
    assert figures["win_seat0"].estimate.value == 0.5 and figures["win_seat0"].estimate.n == 2
    assert figures["win_seat1"].estimate.value == 0.25
    rate = figures["thirty_two_rate"].estimate
    assert (rate.value, rate.n) == (1 / 6, 6)  # one hand of six
    assert figures["counters_per_hand"].estimate.value == pytest.approx(16 / 6)
    first = figures["first_elimination"]  # only the game with an elimination counts
    assert (first.estimate.value, first.estimate.n) == (2, 1)
    actions = figures["actions"]
    assert (actions.estimate.value, actions.median, actions.p90) == (20, 20, 28)
