"""One scenario per ruling of rules/memo-match.md, on stacked layouts with exact counts."""

import pytest

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, CLOCK_ONLY, TABLE, ActionPattern
from tripletopper.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from tripletopper.games.memo_match import (
    MemoMatch,
    describe_event,
    matching_variables,
    parse_position,
    position_name,
)

from ..refusal import refused
from .helpers import at, pile, play, stacked

# --- players, order, layout, options ----------------------------------------------------------


@pytest.mark.parametrize("players", range(1, 9))
def test_one_to_eight_players(players):
    state = MemoMatch(players).new_state(seed=players)
    assert sorted(state.order) == list(range(players))
    assert state.to_act() == (state.order[0],)


@pytest.mark.parametrize("players", [0, 9, -1])
def test_other_player_counts_are_refused(players):
    with pytest.raises(InvalidOptionError, match="1 to 8 players"):
        MemoMatch(players)


def test_seat_order_is_random_or_given():
    orders = {tuple(MemoMatch(4).new_state(seed=s).order) for s in range(40)}
    assert len(orders) > 10
    assert MemoMatch(3).new_state(order=[2, 0, 1]).to_act() == (2,)
    with pytest.raises(InvalidOptionError, match="order must list every seat"):
        MemoMatch(3).new_state(order=[0, 0, 1])


def test_125_cards_face_down_on_a_12_by_10_grid_plus_a_row_of_five():
    state = MemoMatch(2).new_state(seed=1)
    assert sorted(state.table) == list(range(125))
    obs = state.observation(0)
    assert obs["size"] == 125 and len(obs["table"]) == 125
    assert obs["table"][:13] == [*[f"{c}1" for c in "ABCDEFGHIJKL"], "A2"]
    assert obs["table"][-6:] == ["L10", "A11", "B11", "C11", "D11", "E11"]
    assert obs["face_up"] == {} and state.recall(0)["seen"] == {}
    assert position_name(124) == "E11" and parse_position("l10") == 119
    with pytest.raises(MalformedActionError, match="'F11' is not a position"):
        parse_position("F11")


def test_options_and_their_defaults():
    game = MemoMatch(3)
    assert dict(game.options) == {
        "wilds": True,
        "reveal": "public",
        "swap_on_miss": False,
        "spot_seconds": 60.0,
        "max_turns": 2000,
    }
    with pytest.raises(InvalidOptionError, match="one of public, private"):
        MemoMatch(3, reveal="secret")
    with pytest.raises(InvalidOptionError, match="'max_turns' must be a whole number from 1"):
        MemoMatch(3, max_turns=0)


# --- matching -----------------------------------------------------------------------------------


def test_matching_variables_counts_with_and_without_wilds():
    assert matching_variables("RC1", "RC2") == 2  # natural: color and shape
    assert matching_variables("RC1", "YH1") == 1
    assert matching_variables("KC1", "RH1") == 2  # black matches red; 1 = 1
    assert matching_variables("KB1", "RH3") == 2  # black and blob: color and shape
    assert matching_variables("KC1", "RH2") == 1  # one wild cannot cover two variables
    assert matching_variables("KB?", "RC1") == 3
    assert matching_variables("KC1", "RH1", wilds=False) == 1  # black is just a color
    assert matching_variables("KC1", "KH1", wilds=False) == 2
    assert matching_variables(0, 0) == 3


def test_a_natural_pair_is_taken_and_the_flipper_turns_again():
    state = stacked(2, "RC1 RC2 YH3")
    events = play(state, "A1 B1")
    assert [e["type"] for e in events] == ["flipped", "flipped", "matched"]
    assert events[2]["cards"] == ["RC1", "RC2"] and not events[2]["triple"]
    assert pile(state, 0) == ["RC1", "RC2"]
    assert at(state, "A1") is None and state.count == 123
    assert state.to_act() == (0,)  # a match: turn again


def test_a_wild_pair_matches_only_within_its_own_variable():
    state = stacked(2, "KC1 RH1 KC2 RH3")
    play(state, "A1 B1")  # black matches red, 1 = 1
    assert pile(state, 0) == ["KC1", "RH1"]
    play(state, "C1 D1")  # KC2 / RH3: the black covers color only, nothing else matches
    assert pile(state, 0) == ["KC1", "RH1"] and state.to_act() == (1,)


def test_without_wilds_black_blob_and_question_are_plain_values():
    state = stacked(2, "KC1 RH1 KB? KB1", wilds=False)
    play(state, "A1 B1")
    assert state.piles[0] == [] and state.to_act() == (1,)
    play(state, "C1 D1")  # black = black, blob = blob
    assert pile(state, 1) == ["KB?", "KB1"]


def test_a_triple_takes_three_more_cards_of_the_flippers_choice_shown_to_all():
    state = stacked(3, "RC1 KC1 YH2 GT3 BS4 RH4", reveal="private")
    events = play(state, "A1 B1")
    assert events[-1]["triple"] and state.phase == 2  # bonus
    assert state.legal_actions() == [("take", p) for p in range(2, 125)]
    with pytest.raises(IllegalActionError, match="take 3 more bonus card"):
        state.apply_text("flip C1")
    taken = play(state, "take E1", "take C1", "take F1")
    assert [e["card"] for e in taken if e["type"] == "bonus_taken"] == ["BS4", "YH2", "RH4"]
    assert pile(state, 0) == ["RC1", "KC1", "BS4", "YH2", "RH4"]
    for seat in (1, 2):  # the bonus cards are public even with private reveal
        assert {"BS4", "YH2", "RH4"} <= set(state.observation(seat)["captured_cards"][0])
        assert "RC1" not in state.observation(seat)["captured_cards"][0]
    assert state.to_act() == (0,) and state.phase == 0  # and the flipper turns again


def test_a_triple_takes_every_card_left_when_three_or_fewer_remain():
    state = stacked(2, "RC1 KC1 YH3 GT4")
    keep = {0, 1, 2, 3}  # clear the rest of the table to reach the end quickly
    for p in range(125):
        if p not in keep:
            state.table[p] = -1
    state.count = 4
    state._refresh()
    events = play(state, "A1 B1")
    assert [e["type"] for e in events][-3:] == ["bonus_taken", "bonus_taken", "game_over"]
    assert pile(state, 0) == ["RC1", "KC1", "YH3", "GT4"] and state.count == 0


def test_a_miss_turns_both_cards_back_and_the_turn_passes():
    state = stacked(3, "RC1 YH2 GT3", order=[1, 2, 0])
    events = play(state, "A1 B1")
    assert events[-1] == {
        "type": "missed",
        "seat": 1,
        "positions": ["A1", "B1"],
        "swapped": False,
        "cards": ["RC1", "YH2"],  # for the table to draw while they are up
    }
    assert at(state, "A1") == "RC1" and at(state, "B1") == "YH2"
    assert state.to_act() == (2,)


def test_swap_on_miss_trades_the_two_cards_places():
    state = stacked(2, "RC1 YH2 GT3", swap_on_miss=True)
    play(state, "A1 B1")
    assert at(state, "A1") == "YH2" and at(state, "B1") == "RC1"
    for seat in (0, 1):  # everyone's memory follows the public swap
        assert state.recall(seat)["seen"] == {"A1": "YH2", "B1": "RC1"}


def test_public_reveal_shows_flipped_cards_to_everyone():
    state = stacked(3, "RC1 YH2 GT3")
    play(state, "A1")
    for seat in (None, 0, 1, 2):
        obs = state.public_observation() if seat is None else state.observation(seat)
        assert obs["face_up"] == {"A1": "RC1"}
    play(state, "B1")
    assert state.recall(2)["seen"] == {"A1": "RC1", "B1": "YH2"}


def test_private_reveal_shows_only_positions_to_the_other_seats():
    state = stacked(3, "RC1 YH2 GT3 GT4", reveal="private")
    first = state.apply_text("flip A1")[0]
    assert first.view(0)["card"] == "RC1"
    assert "card" not in first.view(1) and "card" not in first.view(None)
    assert state.observation(0)["face_up"] == {"A1": "RC1"}
    assert state.observation(1)["face_up"] == {"A1": None}
    play(state, "B1")
    assert state.recall(0)["seen"] == {"A1": "RC1", "B1": "YH2"} and state.recall(1)["seen"] == {}
    matched = stacked(2, "RC1 RC2", reveal="private")
    event = matched.apply_text("flip A1") + matched.apply_text("flip B1")
    assert "cards" not in event[-1].view(1) and event[-1].view(0)["cards"] == ["RC1", "RC2"]
    assert matched.observation(1)["captured_cards"] == [[], []]
    assert matched.observation(1)["captured"] == [2, 0]


def test_private_reveal_never_shows_a_seat_a_card_again_that_another_seat_turns():
    # RULINGS, revised 2026-11-29: what a seat saw on its own flips is its memory.
    state = stacked(2, "RC1 YH2 GT3 BS4", reveal="private")
    play(state, "A1 B1")  # seat 0 sees RC1 and YH2, misses
    play(state, "A1")  # seat 1 turns the RC1 seat 0 saw
    assert state.observation(1)["face_up"] == {"A1": "RC1"}
    assert state.observation(0)["face_up"] == {"A1": None}
    assert state.public_observation()["face_up"] == {"A1": None}
    assert state.recall(0)["seen"] == {"A1": "RC1", "B1": "YH2"}  # its memory, for bots
    assert state.recall(1)["seen"] == {}  # A1 is in its observation


def test_private_reveal_after_a_swap_does_not_name_where_the_card_went():
    state = stacked(2, "RC1 YH2 GT3 BS4", reveal="private", swap_on_miss=True)
    play(state, "A1 B1")  # seat 0 sees RC1 and YH2; they trade places
    assert state.recall(0)["seen"] == {"A1": "YH2", "B1": "RC1"}
    play(state, "B1")  # seat 1 turns the RC1, now at B1
    assert state.observation(1)["face_up"] == {"B1": "RC1"}
    assert state.observation(0)["face_up"] == {"B1": None}


def test_private_reveal_shows_another_seats_pair_only_if_the_table_showed_it():
    state = stacked(2, "RC1 YH2 RC2 GT3", reveal="private")
    play(state, "A1 B1")  # seat 0 sees RC1 and YH2, misses
    play(state, "A1 C1")  # seat 1 matches RC1 + RC2
    assert state.piles[1] == TRIPLE_TOPPER.parse_many("RC1 RC2")
    assert state.observation(1)["captured_cards"] == [[], ["RC1", "RC2"]]
    assert state.observation(0)["captured_cards"] == [[], []]  # seat 0 only remembers RC1
    assert state.recall(0)["captured"] == [[], ["RC1"]]
    assert state.observation(0)["captured"] == [0, 2]


# --- "no matches" -----------------------------------------------------------------------------


def declared(**options):
    """Seat 0 declares on a table where A1 + B1 (RC1, RC2) match and C1 (GT3) matches nothing."""
    state = stacked(4, "RC1 RC2 GT3", order=[0, 1, 2, 3], more=["GT3"], **options)
    return state, play(state, "declare")


def test_declaring_turns_every_card_up_and_starts_a_race_of_the_others():
    state, events = declared(spot_seconds=30)
    assert events[0]["type"] == "declared" and len(events[0]["table"]) == 125
    assert events[0]["table"]["A1"] == "RC1"
    assert state.to_act() == (1, 2, 3)
    assert len(state.observation(3)["face_up"]) == 125
    assert state.timeout() == (30.0, ("timeout",))
    assert state.legal_actions(CLOCK) == [("timeout",)] and state.legal_actions(TABLE) == []
    assert len(state.legal_actions(2)) == 125 * 124 // 2 + 1  # every pair, and pass
    with pytest.raises(IllegalActionError, match="not seat 0's turn"):
        state.apply_text("claim A1 B1", 0)


def test_the_claims_are_summed_up_as_any_two_cards_on_the_table():
    state, _ = declared()
    claims = ActionPattern("claim", tuple(range(125)), 2)
    assert state.legal_summary(2) == [claims, ("pass",)] and claims.count == 7750
    assert state.game.pattern_to_wire(claims) == {
        "action": {"type": "claim"},
        "field": "positions",
        "pick": 2,
        "from": [position_name(p) for p in range(125)],
    }
    assert state.legal_summary(0) == [] and state.legal_summary(TABLE) == []
    assert state.legal_summary(CLOCK) == [("timeout",)]
    play(state, "claim A1 B1", seat=3)  # 123 cards laid out again: positions A1 .. C11
    play(state, "declare", seat=1)
    assert state.legal_summary(2) == [ActionPattern("claim", tuple(range(123)), 2), ("pass",)]
    lone = stacked(3, "RC1", order=[0, 1, 2])
    lone._remove(*range(1, 125))  # one card left: nothing to claim
    play(lone, "declare")
    assert lone.legal_summary(1) == [("pass",)] == lone.legal_actions(1)


def test_a_wrong_claim_bars_the_claimer_for_the_rest_of_the_game():
    state, _ = declared()
    events = play(state, "claim A1 C1", seat=2)
    assert events[-1]["type"] == "wrong_claim" and events[-1]["cards"] == ["RC1", "GT3"]
    assert state.to_act() == (1, 3) and state.observation(0)["barred"] == [2]
    play(state, "claim B1 A1", seat=3)  # the first valid claim wins; order of positions is free
    assert state.barred[2]
    play(state, "declare")  # seat 1 plays next (seat 0 is out) and declares in turn
    assert state.to_act() == (3,)  # 0 is out and 2 is barred: only seat 3 may spot


def test_the_first_valid_claim_takes_the_pair_puts_the_declarer_out_and_relays_the_rest():
    state, _ = declared()
    events = play(state, "claim A1 B1", seat=3)
    assert [e["type"] for e in events] == ["spotted", "relaid"]
    assert pile(state, 3) == ["RC1", "RC2"]
    assert state.out[0] and state.observation(1)["out"] == [0]
    assert state.count == 123 and state.size == 123 and at(state, "A1") == "GT3"  # laid out anew
    assert state.recall(1)["seen"] == {}  # nobody knows the new places
    assert state.to_act() == (1,)  # the next player after the declarer
    assert state.nxt == [1, 2, 3, 1]  # the declarer takes no more turns


def test_nobody_finds_a_pair_in_time_and_the_declarer_takes_everything():
    state, _ = declared()
    play(state, "pass", seat=1)
    events = state.apply(("timeout",), CLOCK)
    assert [e.type for e in events] == ["time_up", "took_all", "game_over"]
    assert len(state.piles[0]) == 125 and state.is_terminal()
    assert state.results().winners == (0,)


def test_only_the_clock_ends_the_spotting_race():
    state = stacked(4, "RC1 RC2 GT3", order=[0, 1, 2, 3], more=["GT3"])
    assert state.timeout() is None and state.legal_actions(CLOCK) == []
    refused(state, ("timeout",), CLOCK, "'timeout' is not the clock's: no timed phase is running")
    refused(state, ("timeout",), 0, f"'timeout' is not allowed: {CLOCK_ONLY}")
    refused(state, ("declare",), TABLE, "'declare' is not allowed: Memo Match has no table actions")
    play(state, "declare")
    # The declarer (who would take all 125 cards), a spotter, and the table a seated
    # player may speak for: none of them may stand for the clock.
    for seat in (0, 1, TABLE):
        refused(state, ("timeout",), seat, f"'timeout' is not allowed: {CLOCK_ONLY}")
    refused(state, ("pass",), CLOCK, "'pass' is not allowed: the clock plays only 'timeout'")
    assert state.legal_actions(CLOCK) == [("timeout",)]
    events = state.apply(("timeout",), CLOCK)
    assert [e.type for e in events] == ["time_up", "took_all", "game_over"]
    assert state.history[-1] == (CLOCK, ("timeout",)) and state.legal_actions(CLOCK) == []


def test_the_declarer_takes_everything_when_nobody_is_left_to_spot():
    state, _ = declared()
    play(state, "pass", seat=1)
    play(state, "claim A1 C1", seat=2)
    events = play(state, "pass", seat=3)
    assert events[-2]["type"] == "took_all" and state.is_terminal()
    lone = stacked(3, "RC1 RC2", order=[0, 1, 2])
    lone.barred[1] = lone.barred[2] = True
    assert [e["type"] for e in play(lone, "declare")][:2] == ["declared", "nobody_to_spot"]


def test_illegal_moves_explain_themselves_and_change_nothing():
    state = stacked(2, "RC1 RC2")
    before = state.dump()
    for text, message in [
        ("take A1", "only after a pair that matches on all three"),
        ("claim A1 B1", "only after a player declares"),
        ("timeout", "played by the table's clock"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            state.apply_text(text)
    with pytest.raises(MalformedActionError, match="not a position"):
        state.apply_text("flip Z9")
    with pytest.raises(MalformedActionError, match="two different positions"):
        state.apply_text("claim A1 A1")
    play(state, "A1")
    with pytest.raises(IllegalActionError, match="already face up"):
        state.apply_text("flip A1")
    with pytest.raises(IllegalActionError, match="flip a second card"):
        state.apply_text("declare")
    play(state, "B1")
    with pytest.raises(IllegalActionError, match="there is no card at A1"):
        state.apply_text("flip A1")
    assert state.dump() != before


# --- the end ------------------------------------------------------------------------------------


def test_most_cards_wins_when_the_table_is_empty():
    state = stacked(3, "RC1 RC2 YH1 YH2 GT3", order=[0, 1, 2])
    play(state, "A1 C1")  # a miss
    play(state, "A1 B1", "C1 D1")  # seat 1 takes two pairs
    play(state, "declare")
    for seat in (0, 2):
        play(state, "pass", seat=seat)
    assert state.is_terminal()
    assert [len(p) for p in state.piles] == [0, 125, 0]
    assert state.results().winners == (1,) and state.results().ranking == ((1,), (0, 2))


def test_max_turns_ends_the_game_with_the_table_as_it_is():
    state = stacked(2, "RC1 YH2 GT3 BS4", max_turns=2)
    play(state, "A1 B1")
    events = play(state, "C1 D1")
    assert [e["type"] for e in events][-3:] == ["missed", "turn_limit", "game_over"]
    assert events[-2]["left_on_table"] == 125
    assert state.is_terminal() and state.results().winners == (0, 1)  # everyone tied: shared


PLAYOFF_LAYOUT = "YC1 YC2 YH1 YH2 YT1 YT2 BS1 GH3 BC1 BC2 BH1 BH2 BT1 BT2 RC1 RC2 GT3 GT4"


def leaders_tied():
    """Seats 0 and 1 take three pairs each and seat 2 two pairs (RC1 RC2, GT3 GT4) in 11 turns."""
    state = stacked(3, PLAYOFF_LAYOUT, order=[0, 1, 2], more=["RC1 GT3 RC2 GT4"], max_turns=11)
    play(state, "A1 B1", "C1 D1", "E1 F1", "G1 H1")
    play(state, "I1 J1", "K1 L1", "A2 B2", "G1 H1")
    events = play(state, "C2 D2", "E2 F2", "G1 H1")
    return state, events


def test_leaders_who_tie_play_off_on_the_other_players_cards():
    state, events = leaders_tied()
    playoff = next(e for e in events if e["type"] == "playoff")
    assert playoff == {
        "type": "playoff",
        "leaders": [0, 1],
        "cards": 4,
        "set_aside": 109,
        "out": [],
    }
    obs = state.observation(0)
    assert obs["playoff"] and obs["captured"] == [6, 6, 4] and obs["playoff_captured"] == [0, 0, 0]
    assert obs["table"] == ["A1", "B1", "C1", "D1"] and state.to_act() == (0,)
    play(state, "A1 C1", "B1 D1")  # RC1 + RC2, GT3 + GT4
    result = state.results()
    assert result.winners == (0,) and result.scores == (6.0, 6.0, 4.0)
    assert result.ranking == ((0,), (1,), (2,))


def test_a_playoff_still_equal_is_a_shared_win():
    state, _ = leaders_tied()
    while not state.is_terminal():  # both leaders miss until the turn limit
        play(state, "A1 B1" if state.turn == 0 else "C1 D1")
    assert state.results().winners == (0, 1)
    assert state.results().ranking == ((0, 1), (2,))


def test_a_leader_who_is_out_takes_no_playoff_turns():
    """Seat 0 takes two pairs and declares; seat 1 spots a pair (seat 0 is out), then takes a
    pair; seat 2 takes one: 4, 4 and 2 cards when the turn limit ends the main game."""
    state = stacked(
        3,
        "RC1 RC2 GT1 GT2 BS1 BS2",
        order=[0, 1, 2],
        wilds=False,
        max_turns=7,
        more=["YH1 YH2 RH3 YT4 KB1 KB2 GC3 BH4", "KB1 KB2"],
    )
    play(state, "A1 B1", "C1 D1", "declare")
    play(state, "claim E1 F1", seat=1)
    play(state, "A1 B1", "C1 D1")  # seat 1: a pair, then a miss
    events = play(state, "E1 F1", "G1 H1")  # seat 2: a pair, then a miss: turn limit
    playoff = events[-1]
    assert playoff == {
        "type": "playoff",
        "leaders": [0, 1],
        "cards": 2,
        "set_aside": 115,
        "out": [0],
    }
    assert describe_event(playoff, ["Ann", "Ben", "Cid"]).endswith(
        "Ann is out of the game: no playoff turns."
    )
    assert state.out == [True, False, False] and state.observation(1)["out"] == [0]
    assert state.to_act() == (1,) and state.nxt == [1, 1, 1]  # seat 1 plays the playoff alone
    play(state, "A1 B1")  # KB1 + KB2
    result = state.results()
    assert result.winners == (1,) and result.scores == (4.0, 4.0, 2.0)
    assert result.ranking == ((1,), (0,), (2,))


def test_leaders_who_are_all_out_share_the_win_without_a_playoff():
    """Seats 0 and 1 each take three pairs and declare, and seat 2 spots both times."""
    state = stacked(
        3,
        "RC1 RC2 GT1 GT2 BS1 BS2 YH1 YH2",
        order=[0, 1, 2],
        wilds=False,
        max_turns=9,
        more=["KB1 KB2 RT3 RT4 GC3 GC4 YS1 YS2", "RH3 YT4"],
    )
    play(state, "A1 B1", "C1 D1", "E1 F1", "declare")
    play(state, "claim G1 H1", seat=2)
    play(state, "A1 B1", "C1 D1", "E1 F1", "declare")
    play(state, "claim G1 H1", seat=2)
    assert state.out == [True, True, False] and state.to_act() == (2,)
    events = play(state, "A1 B1")  # seat 2 misses: the turn limit
    assert [e["type"] for e in events][-3:] == ["turn_limit", "no_playoff", "game_over"]
    assert describe_event(events[-2], ["Ann", "Ben", "Cid"]) == (
        "Ann and Ben share the lead, but all are out of the game: no playoff is played."
    )
    assert not state.playoff and state.playoffs == 0
    result = state.results()
    assert result.winners == (0, 1) and result.scores == (6.0, 6.0, 4.0)
    assert result.ranking == ((0, 1), (2,))


def test_a_leader_barred_from_spotting_stays_barred_in_the_playoff():
    """Seat 1 makes a wrong claim when seat 2 declares; seat 0 spots.  Leaders 0 and 1 play
    off; seat 0 declares 'no matches' on a pair, and seat 1 may not spot it."""
    state = stacked(
        3,
        "RC1 RC2 RH3 YT4 GT1 GT2 BS1 BS2 GC3 BH4 YH1 YH2 KB1 KB2",
        order=[0, 1, 2],
        wilds=False,
        max_turns=8,
        more=["RH3 YT4", "YH1 YH2"],
    )
    play(state, "A1 B1", "C1 D1")  # seat 0: a pair, a miss
    play(state, "E1 F1", "G1 H1", "I1 J1")  # seat 1: two pairs, a miss
    play(state, "K1 L1", "declare")  # seat 2: a pair, then "no matches"
    play(state, "claim C1 D1", seat=1)  # RH3 + YT4: not a pair
    play(state, "claim A2 B2", seat=0)  # KB1 + KB2: seat 2 is out
    events = play(state, "A1 B1")  # seat 0 misses: the turn limit
    assert events[-1]["type"] == "playoff" and events[-1]["out"] == []
    assert state.observation(0)["captured"] == [4, 4, 2] and state.to_act() == (0,)
    assert state.observation(0)["barred"] == [1]
    events = play(state, "declare")  # YH1 + YH2 match, but nobody may spot them
    assert [e["type"] for e in events] == ["declared", "nobody_to_spot", "took_all", "game_over"]
    result = state.results()
    assert result.winners == (0,) and result.scores == (4.0, 4.0, 2.0)
    assert result.ranking == ((0,), (1,), (2,))


def test_solitaire_is_scored_by_turns():
    state = stacked(1, "RC1 YH2 RC2")
    play(state, "A1 B1", "A1 C1")
    assert state.turns == 2 and state.to_act() == (0,)
    events = play(state, "declare")  # a pair is left: the table itself shows it
    assert [e["type"] for e in events][-2:] == ["pair_left", "game_over"]
    result = state.results()
    assert result.winners == () and result.scores == (3.0,)
    assert events[-1]["cleared"] is False and events[-1]["turns"] == 3


def test_position_names_as_written_read_as_when_normalized():
    """A position's name as views write it is read without normalizing (a fast path):
    it must be the position the plain path (spaces around it, lower case) reads."""
    for position in range(125):
        name = position_name(position)
        assert parse_position(name) == parse_position(f" {name.lower()} ") == position
