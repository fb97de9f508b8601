"""One scenario per rule of rules/toe.md (the plain game), with stacked decks."""

from __future__ import annotations

import pytest

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, TABLE
from tripletopper.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from tripletopper.games.toe import (
    CELL_NAMES,
    FITS,
    LINE_FAMILIES,
    LINES,
    LINES_THROUGH,
    WASTED,
    Toe,
    cell_of,
)
from tripletopper.games.toe.board import COLUMN, LAYER, ROW, cell_at

from .helpers import DRAWN_BOARD, act, hand, preset, stacked

P = TRIPLE_TOPPER.parse


def cells(state, seat):
    return {CELL_NAMES[c] for c in range(64) if state.board[c] == seat}


# --- players, X and O, the deal ----------------------------------------------------------


def test_two_players_only():
    for players in (1, 3):
        with pytest.raises(InvalidOptionError, match="exactly 2 players"):
            Toe(players)


def test_a_seeded_coin_flip_picks_x_and_x_moves_first():
    xs = {Toe(2).new_state(seed).x for seed in range(30)}
    assert xs == {0, 1}
    for seed in range(10):
        state = Toe(2).new_state(seed)
        assert state.to_act() == (state.x,)
        assert Toe(2).new_state(seed).x == state.x  # the same seed, the same flip
    assert Toe(2).new_state(3, x=1).x == 1
    with pytest.raises(InvalidOptionError, match="seat of X"):
        Toe(2).new_state(3, x=2)


def test_o_deals_three_cards_each_one_at_a_time_x_first():
    state = Toe(2).new_state(0, decks=[["RC1", "YC1", "RC2", "YC2", "RC3", "YC3", "BS4"]], x=1)
    assert hand(state, 1) == ["RC1", "RC2", "RC3"]  # X = seat 1 receives first
    assert hand(state, 0) == ["YC1", "YC2", "YC3"]
    assert len(state.stock) == 125 - 6
    state.apply(("draw",))
    assert hand(state, 1)[-1] == "BS4"


# --- the board -----------------------------------------------------------------------------


def test_rows_are_colors_columns_shapes_layers_numbers():
    gs1 = cell_of("GS1")
    assert (ROW[gs1], COLUMN[gs1], LAYER[gs1]) == (2, 3, 0)  # 3rd row, 4th column, layer 1
    assert gs1 == cell_at(2, 3, 0)
    assert CELL_NAMES[gs1] == "GS1"
    assert FITS[P("GS1")] == (gs1,)
    assert len({CELL_NAMES[c] for c in range(64)}) == 64


# --- the two kinds of turn -------------------------------------------------------------------


def test_discard_two_or_three_face_down_and_refill():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}, stock="GC1 GC2 GC3 GC4 GH1")
    events = state.apply_text("discard YH2 RC1")
    assert hand(state, 0) == ["GT3", "GC1", "GC2"]
    assert state.discards[0] == [P("RC1"), P("YH2")]
    assert state.to_act() == (1,)
    opponent = [e.view(1) for e in events]
    assert opponent == [{"type": "discarded", "seat": 0, "count": 2}]
    assert events[0].view(0)["cards"] == ["RC1", "YH2"]
    assert events[0].view(0)["drew"] == ["GC1", "GC2"]
    obs = state.observation(1)
    assert obs["discard_counts"] == [2, 0] and "my_discards" in obs
    assert "RC1" not in str(obs) and "YH2" not in str(obs)
    assert state.observation(0)["my_discards"] == ["RC1", "YH2"]
    state.apply_text("discard BS4 RH1 YT2")
    assert hand(state, 1) == ["GC3", "GC4", "GH1"]


def test_discarding_one_or_foreign_cards_is_refused():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"})
    before = state.dump()
    with pytest.raises(MalformedActionError, match="2 to 3 cards"):
        state.apply_text("discard RC1")
    with pytest.raises(IllegalActionError, match="BS4 is not in your hand"):
        state.apply_text("discard RC1 BS4")
    with pytest.raises(IllegalActionError, match="draw first"):
        state.apply_text("play RC1")
    assert state.dump() == before


def test_draw_then_play_any_of_the_four_face_up():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}, stock="GC4")
    events = state.apply(("draw",))
    assert events[0].view(0) == {"type": "drew", "seat": 0, "card": "GC4"}
    assert events[0].view(1) == {"type": "drew", "seat": 0}
    assert state.observation(0)["drawn"] == "GC4"
    assert "GC4" not in str(state.observation(1))
    played = {action[1] for action in state.legal_actions()}
    assert played == {P(c) for c in ("RC1", "YH2", "GT3", "GC4")}
    with pytest.raises(IllegalActionError, match="play one of your 4"):
        state.apply_text("draw")
    events = act(state, "play YH2")
    assert events == [{"type": "played", "seat": 0, "card": "YH2", "cell": "YH2", "mark": "X"}]
    assert state.played == [P("YH2")] and cells(state, 0) == {"YH2"}
    assert hand(state, 0) == ["RC1", "GT3", "GC4"]
    assert state.to_act() == (1,)


# --- wild cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "card, expected",
    [
        ("KC1", {"RC1", "YC1", "GC1", "BC1"}),  # black chooses the row
        ("RB1", {"RC1", "RH1", "RT1", "RS1"}),  # blob chooses the column
        ("RC?", {"RC1", "RC2", "RC3", "RC4"}),  # ? chooses the layer
    ],
)
def test_each_wild_value_chooses_its_own_axis(card, expected):
    state = stacked({0: f"{card} YH2 GT3", 1: "BS4 RH1 YT2"}, stock="GS4")
    state.apply(("draw",))
    targets = {CELL_NAMES[a[2]] for a in state.legal_actions() if a[1] == P(card)}
    assert targets == expected
    act(state, f"play {card} at {sorted(expected)[-1]}")
    assert cells(state, 0) == {sorted(expected)[-1]}


def test_two_wilds_choose_within_a_plane_and_kb_anywhere():
    assert {CELL_NAMES[c][2] for c in FITS[P("KB3")]} == {"3"} and len(FITS[P("KB3")]) == 16
    assert {CELL_NAMES[c][1] for c in FITS[P("KT?")]} == {"T"} and len(FITS[P("KT?")]) == 16
    assert {CELL_NAMES[c][0] for c in FITS[P("YB?")]} == {"Y"} and len(FITS[P("YB?")]) == 16
    assert FITS[P("KB?")] == tuple(range(64))
    state = stacked({0: "KB? YH2 GT3", 1: "BS4 RH1 YT2"}, stock="GS4")
    state.apply(("draw",))
    assert len([a for a in state.legal_actions() if a[1] == P("KB?")]) == 64
    act(state, "play KB? at BS3")
    assert cells(state, 0) == {"BS3"}


def test_taken_cells_are_refused_while_a_free_one_fits():
    state = stacked({0: "KC1 YH2 GT3", 1: "RC1 RH2 YT2"}, stock="GS4 BH4")
    act(state, "discard YH2 GT3")  # X waits
    act(state, "draw", "play RC1")  # O takes RC1
    state.apply(("draw",))
    with pytest.raises(IllegalActionError, match="RC1 is taken; KC1 fits 3 free cell"):
        state.apply_text("play KC1 at RC1")
    with pytest.raises(IllegalActionError, match="fits a free cell"):
        state.apply_text("play KC1 wasted")
    assert {CELL_NAMES[a[2]] for a in state.legal_actions() if a[1] == P("KC1")} == {
        "YC1",
        "GC1",
        "BC1",
    }


# --- wasted plays ---------------------------------------------------------------------------


def test_a_card_that_fits_no_free_cell_is_played_and_wasted():
    state = stacked({0: "RC? YH2 GT3", 1: "BS4 RH2 YT2"}, stock="GS4")
    preset(state, {"RC1": 1, "RC2": 1, "RC3": 0, "RC4": 0})
    state.apply(("draw",))
    assert ("play", P("RC?"), WASTED) in state.legal_actions()
    assert not [a for a in state.legal_actions() if a[1] == P("RC?") and a[2] != WASTED]
    with pytest.raises(IllegalActionError, match="fits no free cell: play it wasted"):
        state.apply_text("play RC? at RC1")
    events = act(state, "play RC? wasted")
    assert events == [{"type": "played", "seat": 0, "card": "RC?", "cell": None, "mark": "X"}]
    assert state.marks == [2, 2] and state.wasted == 1
    assert P("RC?") in state.played and state.to_act() == (1,)
    assert state.observation(1)["wasted"] == 1


def test_a_natural_card_whose_cell_is_taken_is_wasted():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH2 YT2"}, stock="GS4")
    preset(state, {"RC1": 1})
    state.apply(("draw",))
    assert [a for a in state.legal_actions() if a[1] == P("RC1")] == [("play", P("RC1"), WASTED)]
    assert state.game.parse_action("play RC1") == ("play", P("RC1"), cell_of("RC1"))
    act(state, "play RC1 wasted")
    assert state.wasted == 1 and state.marks == [0, 1]


# --- lines and winning ----------------------------------------------------------------------


def test_the_76_lines():
    assert len(LINES) == 76 and len(set(LINES)) == 76
    assert all(len(set(line)) == 4 for line in LINES)
    families = {name: len(ids) for name, ids in LINE_FAMILIES.items()}
    assert families == {"straight": 48, "face diagonal": 24, "space diagonal": 4}
    through = sorted(len(LINES_THROUGH[c]) for c in range(64))
    assert through.count(7) == 16 and through.count(4) == 48  # corners and centre cells: 7
    names = {" ".join(CELL_NAMES[c] for c in line) for line in LINES}
    assert "RC1 RH1 RT1 RS1" in names  # a row of shapes
    assert "RC1 YH1 GT1 BS1" in names  # a diagonal of layer 1
    assert "RC1 YH2 GT3 BS4" in names  # a space diagonal


def win_by(line: str, filler: str = "BS4 BS3 BT4 GS4"):
    """X draws and plays the cells of ``line`` in order; O draws and plays the filler."""
    x_cards, o_cards = line.split(), filler.split()
    stock = " ".join(c for pair in zip(x_cards, o_cards, strict=False) for c in pair)
    state = stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"}, stock=stock)
    events = []
    for i, card in enumerate(x_cards):
        events += act(state, "draw", f"play {card}")
        if state.is_terminal():
            break
        act(state, "draw", f"play {o_cards[i]}")
    return state, events


@pytest.mark.parametrize(
    "line, family",
    [
        ("RC1 RH1 RT1 RS1", "straight"),
        ("RC1 RC2 RC3 RC4", "straight"),
        ("RC2 YC2 GC2 BC2", "straight"),
        ("RC1 YH1 GT1 BS1", "face diagonal"),
        ("RS1 RT2 RH3 RC4", "face diagonal"),
        ("BC1 GH2 YT3 RS4", "space diagonal"),
        ("RC1 YH2 GT3 BS4", "space diagonal"),
    ],
)
def test_four_in_a_line_of_each_family_wins_at_once(line, family):
    filler = "YT4 BT3 GT4 YS2" if "BS4" in line or "GT3" in line else "BS4 BS3 BT4 GS4"
    state, events = win_by(line, filler)
    assert state.is_terminal()
    assert state.results().winners == (0,)
    index = next(
        i for i, cells_ in enumerate(LINES) if {CELL_NAMES[c] for c in cells_} == set(line.split())
    )
    assert index in LINE_FAMILIES[family]
    assert sorted(state.observation(1)["line"]) == sorted(line.split())
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "line"
    assert state.results().scores == (4.0, 3.0)
    assert state.legal_actions(0) == [] and state.to_act() == ()


def test_marks_of_both_players_in_a_line_do_not_win():
    state = stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"}, stock="RC1 RH1 RT1 BS4 RS1")
    preset(state, {"RH1": 1})
    act(state, "draw", "play RC1")
    assert not state.is_terminal()


# --- reshuffle and draws --------------------------------------------------------------------


def test_an_empty_stock_is_rebuilt_from_discards_and_played_cards():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}, more=[["KB?", "KB4"]])
    act(state, "draw", "play RC1")
    while len(state.stock) > 2:
        act(state, "discard " + " ".join(hand(state, state.turn)[:2]))
    pool = set(state.played) | set(state.discards[0]) | set(state.discards[1])
    seat = state.turn
    thrown = set(state.hands[seat])
    events = act(state, "discard " + " ".join(hand(state, seat)))  # needs 3, 2 are left
    # The cards just thrown are face-down discards by then: they are shuffled in too.
    assert events[0] == {"type": "reshuffled", "stock_size": len(pool | thrown)}
    assert hand(state, seat)[-1] == "KB?"  # the second stacked order tops the new stock
    assert state.played == [] and state.discards == [[], []]
    every = state.hands[0] + state.hands[1] + state.stock.contents() + state.played
    every += state.discards[0] + state.discards[1]
    assert sorted(every) == list(range(125))
    assert state.observation(0)["reshuffles"] == 1


def test_a_full_board_without_a_line_is_a_draw():
    assert DRAWN_BOARD.count("X") == 32
    state = stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"}, stock="RC1")
    rc1 = cell_of("RC1")
    preset(state, {CELL_NAMES[c]: "XO".index(m) for c, m in enumerate(DRAWN_BOARD) if c != rc1})
    assert DRAWN_BOARD[rc1] == "X"
    events = act(state, "draw", "play RC1")
    assert state.is_terminal() and state.results().winners == ()
    assert events[-1]["reason"] == "full"
    assert state.results().ranking == ((0, 1),) and state.results().returns() == [0.0, 0.0]


def test_max_turns_ends_the_game_in_a_draw():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}, max_turns=3)
    act(state, "discard RC1 YH2")
    act(state, "discard BS4 RH1")
    assert not state.is_terminal()
    events = act(state, "draw", "play GT3")
    assert state.is_terminal() and state.results().winners == ()
    assert events[-1]["reason"] == "max_turns" and state.turns == 3
    with pytest.raises(InvalidOptionError, match="max_turns"):
        Toe(2, max_turns=0)


# --- actions in their three forms -----------------------------------------------------------


def test_action_forms_round_trip():
    game = Toe(2)
    for text in (
        "draw",
        "discard RC1 YH2",
        "discard RC1 YH2 KB?",
        "play KB? at GS1",
        "play RC1 at RC1",
        "play RC1 wasted",
        "buzz",
        "answer C",
        "timeout",
    ):
        action = game.parse_action(text)
        assert game.action_to_text(action) == text
        assert game.action_from_wire(game.action_to_wire(action)) == action
    assert game.action_to_wire(("play", P("RC1"), WASTED))["cell"] is None
    assert game.parse_action("discard YH2 RC1") == ("discard", (P("RC1"), P("YH2")))
    assert game.parse_action("play gs1") == ("play", P("GS1"), cell_of("GS1"))
    assert game.parse_action("play black-blob-? at green-square-1") == (
        "play",
        P("KB?"),
        cell_of("GS1"),
    )
    assert game.parse_action("b") == ("answer", 1)
    with pytest.raises(MalformedActionError, match="KB\\? is wild: say which cell"):
        game.parse_action("play KB?")
    with pytest.raises(MalformedActionError, match="not a cell"):
        game.parse_action("play KB? at KB1")
    with pytest.raises(MalformedActionError, match="letter from A to F"):
        game.parse_action("answer Z")


def test_text_actions_name_cards_and_cells_in_their_long_forms_too():
    state = stacked({0: "RC1 YH2 GT3", 1: "BS4 RH1 YT2"}, stock="GC1 GC2 GC3 KB?")
    act(state, "discard yellow heart 2 red-circle-1")
    assert hand(state, 0) == ["GT3", "GC1", "GC2"]
    act(state, "draw", "play blue square 4")  # its own cell
    assert cells(state, 1) == {"BS4"}
    act(state, "draw", "play black blob question at green triangle 3")
    assert cells(state, 0) == {"GT3"}
    act(state, "draw", "play red heart 1 at red-heart-1")
    assert cells(state, 1) == {"BS4", "RH1"}


def test_the_table_and_the_clock_have_no_action_in_the_plain_game():
    state = Toe(2).new_state(1)
    assert state.legal_actions(TABLE) == state.legal_actions(CLOCK) == []
    assert state.timeout() is None
    for seat in (TABLE, CLOCK):
        with pytest.raises(IllegalActionError):
            state.apply(("timeout",), seat)


def test_compact_actions_with_values_out_of_range_are_malformed():
    state = Toe(2).new_state(1)
    before = state.dump()
    for action in [("play", 3, 999), ("discard", (500, 1)), ("discard", "x"), ("play", "RC1", 3)]:
        with pytest.raises(MalformedActionError, match="not a well-formed action"):
            state.apply(action)
    assert state.dump() == before


# --- hints (for tables that turn them on) ---------------------------------------------------


def test_hints_name_each_line_with_three_marks_of_one_player_and_a_free_cell():
    state = stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"})
    assert state.hints(0) == {"threats": []}
    preset(state, {"RC1": 0, "RH1": 0, "RT1": 0, "BC2": 1, "BC3": 1, "BC4": 1, "YH1": 1})
    # X (seat 0) threatens RS1; O's column BC1-BC4 is open at BC1; a line that holds marks
    # of both players (RC1 YH1 GT1 BS1) threatens nothing
    expected = {
        "threats": [
            {"seat": 0, "mark": "X", "line": ["RC1", "RH1", "RT1", "RS1"], "cell": "RS1"},
            {"seat": 1, "mark": "O", "line": ["BC1", "BC2", "BC3", "BC4"], "cell": "BC1"},
        ]
    }
    assert state.hints(0) == state.hints(1) == state.hints(None) == expected
    preset(state, {"RS1": 1})  # blocked: no threat left there
    assert [t["cell"] for t in state.hints(None)["threats"]] == ["BC1"]
