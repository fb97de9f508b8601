"""One scenario per rule of rules/three-up-three-down.md, with stacked decks."""

from __future__ import annotations

import pytest

from tripletopper.cards.three_up import THREE_UP
from tripletopper.engine import CLOCK, TABLE
from tripletopper.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from tripletopper.games.three_up_three_down import ThreeUpThreeDown

from .helpers import arranged, legal, play, stacked, vals

# A two-player deal: seat 1 deals, seat 0 leads.  After the choice below the hands
# are 3 4 6 (seat 0) and 3 5 9 (seat 1); the stock starts 7 7 7 5 5.
DOWN2 = {0: "1 1 1", 1: "2 2 2"}
SIX2 = {0: "3 4 6 8 10 C", 1: "3 5 9 9 C+1 C+2"}
UP2 = {0: "8 10 C", 1: "9 C+1 C+2"}


def two_player_game(**options):
    return stacked(2, DOWN2, SIX2, stock="7 7 7 5 5", up=UP2, **options)


def names(text: str) -> list[int]:
    return THREE_UP.parse_many(text)


# --- players and the deal ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_and_the_deal(players):
    state = ThreeUpThreeDown(players).new_state(seed=players)
    assert [len(d) for d in state.down] == [3] * players
    assert [len(h) for h in state.hands] == [6] * players
    assert state.stock.size == 84 - 9 * players
    assert state.to_act() == tuple(range(players))  # everyone chooses at once


@pytest.mark.parametrize("players", [1, 7, 0])
def test_other_player_counts_are_refused(players):
    with pytest.raises(InvalidOptionError, match="2 to 6 players"):
        ThreeUpThreeDown(players)


def test_deal_one_card_at_a_time_from_the_dealers_left_3down_first():
    state = stacked(
        3,
        dealer=1,
        down={2: "1 2 3", 0: "4 5 6", 1: "7 8 9"},
        six={2: "1 1 1 1 1 1", 0: "2 2 2 2 2 2", 1: "3 3 3 3 3 3"},
    )
    assert [vals(d) for d in state.down] == ["4 5 6", "7 8 9", "1 2 3"]
    assert [vals(h) for h in state.hands] == ["2 2 2 2 2 2", "3 3 3 3 3 3", "1 1 1 1 1 1"]
    assert state.turn == 2  # the dealer's left will lead
    dealers = {ThreeUpThreeDown(4).new_state(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_choosing_3up_is_secret_and_simultaneous():
    state = stacked(
        3,
        {0: "1 1 1", 1: "2 2 2", 2: "3 3 3"},
        {0: "3 4 6 8 10 C", 1: "3 5 9 9 C+1 C+2", 2: "4 4 5 5 6 6"},
    )
    assert state.observation(1)["seats"][0]["up"] is None
    assert legal(state, 0)[0] == "choose 3 4 6" and len(legal(state, 0)) == 20
    assert len(legal(state, 2)) == 7  # only the distinct choices: 4 4 5, 4 4 6, 4 5 5, ...
    events = state.apply_text("choose 10 8 C", 0)
    assert state.to_act() == (1, 2)
    for viewer in (1, 2, None):
        assert all("up" not in e.view(viewer) for e in events)
        obs = state.observation(viewer) if viewer is not None else state.public_observation()
        assert obs["seats"][0] == {
            "hand_size": 3,
            "up": None,
            "down": 3,
            "known": [],
            "hidden_at_most": [],
            "out": False,
            "chosen": True,
        }
    assert events[0].view(0)["up"] == ["8R1", "10R1", "CR1"]
    assert state.observation(0)["seats"][0]["up"] == ["8R1", "10R1", "CR1"]
    assert vals(state.hands[0]) == "3 4 6"
    with pytest.raises(IllegalActionError, match="not seat 0's turn"):
        state.apply_text("choose 3 4 6", 0)
    state.apply_text("choose 4 5 6", 2)  # any seat may go next
    events = state.apply_text("choose 9 C+1 C+2", 1)
    assert events[-1].view(None) == {
        "type": "revealed",
        "first": 0,
        "up": [["8R1", "10R1", "CR1"], ["9R1", "C+1R1", "C+2G1"], ["4G1", "5G1", "6G1"]],
    }
    assert state.to_act() == (0,)
    assert state.observation(2)["seats"][1]["up"] == ["9R1", "C+1R1", "C+2G1"]


def test_values_in_text_take_the_long_forms_of_the_clears():
    state = stacked(
        3,
        {0: "1 1 1", 1: "2 2 2", 2: "3 3 3"},
        {0: "3 4 6 8 10 C", 1: "3 5 9 9 C+1 C+2", 2: "4 4 5 5 6 6"},
    )
    events = state.apply_text("choose 10 8 Clear", 0)
    assert events[0].view(0)["up"] == ["8R1", "10R1", "CR1"]
    state.apply_text("choose 4 5 6", 2)
    events = state.apply_text("choose 9 clear+1 CLEAR+2", 1)
    assert events[-1].view(None)["up"][1] == ["9R1", "C+1R1", "C+2G1"]
    state = arranged(2, hands={0: "C+1 4 9", 1: "5 8"}, pile="3 7", stock="2 6 6")
    play(state, "play clear+1")
    assert state.turn == 0 and state.pile == []
    state = arranged(2, hands={0: "C+2 4 9", 1: "5 8"}, pile="3 7", stock="2 6 6")
    events = play(state, "play Clear+2")
    assert events[0]["cards"] == ["C+2G1"] and events[1]["extra_plays"] == 2
    state = arranged(2, hands={0: "2 C C+1", 1: "5"}, pile="10")
    play(state, "play clear")
    assert state.pile == [] and state.turn == 1


def test_choice_must_come_from_the_six_cards():
    state = stacked(2, DOWN2, SIX2)
    before = state.dump()
    with pytest.raises(IllegalActionError, match="you have no 7 among your six cards"):
        state.apply_text("choose 7 8 10", 0)
    with pytest.raises(IllegalActionError, match="first everyone chooses"):
        state.apply_text("play 3", 0)
    with pytest.raises(MalformedActionError, match="needs 3 values"):
        state.apply_text("choose 8 10", 0)
    with pytest.raises(IllegalActionError, match="3UP 3DOWN has no table actions"):
        state.apply_text("choose 7 8 10", TABLE)
    with pytest.raises(IllegalActionError, match="not the clock's: no timed phase is running"):
        state.apply_text("choose 7 8 10", CLOCK)
    assert state.dump() == before


# --- playing on the pile ---------------------------------------------------------------


def test_lead_anything_on_an_empty_pile_then_at_least_the_top():
    state = two_player_game()
    assert legal(state) == ["play 3", "play 4", "play 6"]
    play(state, "play 4")
    assert legal(state) == ["play 5", "play 9"]
    with pytest.raises(IllegalActionError, match="3 is lower than the 4 on the pile"):
        state.apply_text("play 3")
    with pytest.raises(IllegalActionError, match="3UP cards are played only when"):
        state.apply_text("play C+1")
    with pytest.raises(IllegalActionError, match="you have no 8 in your hand"):
        state.apply_text("play 8")


def test_an_equal_value_may_be_played_and_multiples_are_one_value():
    state = arranged(2, hands={0: "5 5 7", 1: "5 8 C"}, pile="3 5")
    assert legal(state) == ["play 5", "play 5 5", "play 7"]
    with pytest.raises(IllegalActionError, match="several cards of one value"):
        state.apply_text("play 5 7")
    play(state, "play 5")
    assert state.run_len == 2


def test_clears_beat_every_number_and_are_played_singly():
    state = arranged(2, hands={0: "2 C C C+1", 1: "5"}, pile="10")
    assert legal(state) == ["play C", "play C+1"]
    with pytest.raises(IllegalActionError, match="Clears are played one at a time"):
        state.apply_text("play C C")
    lead = arranged(2, hands={0: "C 2", 1: "5"})
    assert legal(lead) == ["play 2", "play C"]  # a Clear may lead too


def test_must_play_if_able_else_pick_up_the_whole_pile_and_the_turn_ends():
    state = two_player_game()
    play(state, "play 4", "play 9")  # seat 0 drew a 7: holds 3 6 7 against a 9
    assert legal(state) == ["pickup"]
    assert vals(state.hands[0]) == "3 6 7"
    events = play(state, "pickup")
    assert events == [{"type": "picked_up", "seat": 0, "cards": ["4R1", "9G1"], "flipped": False}]
    assert vals(state.hands[0]) == "3 4 6 7 9" and state.pile == [] and state.turn == 1
    assert state.stock.size == 84 - 18 - 2  # no draw after a pickup
    # Seat 1 may now lead anything; seat 0 had to pick up, so it cannot pick up by choice.
    assert legal(state) == ["play 3", "play 5", "play 7"]
    with pytest.raises(IllegalActionError, match="you can play, so you must"):
        state.apply_text("pickup")


def test_draw_back_to_three_unless_holding_more():
    state = two_player_game()
    play(state, "play 4")
    assert vals(state.hands[0]) == "3 6 7"  # drew the 7
    big = arranged(2, hands={0: "4 4 6 8 9", 1: "5"}, stock="2 2 2")
    play(big, "play 4")  # four left: no draw
    assert vals(big.hands[0]) == "4 6 8 9" and big.stock.size == 3
    three = arranged(2, hands={0: "4 6 8 9", 1: "5"}, stock="2 2 2")
    play(three, "play 4")  # three left: still none to draw
    assert vals(three.hands[0]) == "6 8 9" and three.stock.size == 3
    two = arranged(2, hands={0: "4 4 6", 1: "5"}, stock="2 3 7")
    play(two, "play 4 4")  # one left: draw two
    assert vals(two.hands[0]) == "2 3 6" and two.stock.size == 1
    short = arranged(2, hands={0: "4 4 6", 1: "5"}, stock="2")
    events = play(short, "play 4 4")  # the stock runs out: draw what there is
    assert vals(short.hands[0]) == "2 6" and events[-1] == {"type": "drew", "seat": 0, "count": 1}


# --- Clears -----------------------------------------------------------------------------


def test_clear_removes_the_pile_with_itself_and_ends_the_turn():
    state = arranged(2, hands={0: "C 4 6", 1: "5 8"}, pile="3 7 9", stock="2 2")
    events = play(state, "play C")
    assert events[1] == {"type": "cleared", "seat": 0, "by": "C", "cards": 4, "extra_plays": 0}
    assert state.pile == [] and vals(state.cleared[-4:]) == "3 7 9 C"
    assert state.turn == 1 and vals(state.hands[0]) == "2 4 6"


def test_clear_plus_1_one_more_play_with_an_optional_draw_first():
    state = arranged(2, hands={0: "C+1 4 9", 1: "5 8"}, pile="3 7", stock="2 6 6")
    play(state, "play C+1")
    assert state.turn == 0 and state.pile == []
    assert legal(state) == ["play 4", "play 9", "draw"]
    play(state, "draw")
    assert vals(state.hands[0]) == "2 4 9" and "draw" not in legal(state)
    with pytest.raises(IllegalActionError, match="already drawn for this play"):
        state.apply_text("draw")
    play(state, "play 2")
    assert state.turn == 1 and vals(state.hands[0]) == "4 6 9"  # then back up to three


def test_clear_plus_1_without_drawing():
    state = arranged(2, hands={0: "C+1 4 9", 1: "5 8"}, pile="3", stock="2 6 6")
    events = play(state, "play C+1", "play 9")
    assert events[1]["extra_plays"] == 1
    assert events[2] == {
        "type": "played",
        "seat": 0,
        "cards": ["9R1"],
        "from": "hand",
        "extra": True,
    }
    assert state.turn == 1 and vals(state.hands[0]) == "2 4 6"


def test_clear_plus_2_two_more_plays_each_with_an_optional_draw():
    state = arranged(2, hands={0: "C+2 4 9", 1: "5 8"}, pile="3", stock="2 6 6 8")
    play(state, "play C+2")
    assert state.owed == 2 and "draw" in legal(state)
    play(state, "draw", "play 2")  # first extra play on the empty pile
    assert state.turn == 0
    assert legal(state) == ["play 4", "play 9", "draw"]  # a fresh draw before the second
    play(state, "draw", "play 6")
    assert state.turn == 1 and vals(state.pile) == "2 6" and vals(state.hands[0]) == "4 6 9"


def test_clear_plus_2_second_play_that_cannot_follow_picks_up():
    state = arranged(2, hands={0: "C+2 9 4", 1: "5 8"}, pile="3", stock="2")
    play(state, "play C+2", "play 9")
    assert legal(state) == ["pickup", "draw"]  # may draw first, hoping for a 9 or more
    play(state, "draw")
    assert legal(state) == ["pickup"]
    events = play(state, "pickup")
    assert events[0]["cards"] == ["9R1"]
    assert vals(state.hands[0]) == "2 4 9" and state.turn == 1 and state.owed == 0


def test_clear_plus_2_from_3down_a_lower_second_flip_picks_up_with_it():
    state = arranged(
        2, hands={1: "5 8"}, down={0: "C+2 9 4"}, pile="3", turn=0
    )  # stock empty, hand and 3UP gone: seat 0 flips
    assert legal(state) == ["flip"]
    play(state, "flip")
    assert state.owed == 2 and legal(state) == ["flip"]  # the extra plays are flips too
    play(state, "flip")
    assert vals(state.pile) == "9"
    events = state.apply_text("flip")
    assert events[0].view(None) == {
        "type": "picked_up",
        "seat": 0,
        "cards": ["9R1"],
        "flipped": True,
        "below": "9",
    }
    assert events[0].view(0)["flipped_card"] == "4R1"
    assert "flipped_card" not in events[0].view(1)
    assert vals(state.hands[0]) == "4 9" and state.down[0] == [] and state.turn == 1
    seen = state.observation(1)["seats"][0]
    assert seen["known"] == ["9R1"] and seen["hidden_at_most"] == ["8"]
    assert "4R1" not in str(state.observation(1)) and "4R1" in str(state.observation(0))


def test_a_clear_as_an_extra_play_ends_the_turn_and_cancels_the_plays_still_owed():
    # Clear+1, then a plain Clear as the extra play: the pile is empty again and the
    # turn ends.
    plain = arranged(2, hands={0: "C+1 C 4 5", 1: "5 8"}, pile="3", stock="2 2 6")
    play(plain, "play C+1", "play C")
    assert plain.turn == 1 and plain.pile == [] and plain.owed == 0
    assert vals(plain.hands[0]) == "2 4 5"  # drawn back up to three as at any turn's end
    # Clear+2, then a plain Clear: the second extra play is cancelled (RULINGS, revised
    # 2026-11-29: a Clear ends the turn whenever it comes).
    cancelled = arranged(2, hands={0: "C+2 C 2 9", 1: "5 8"}, pile="3")
    events = play(cancelled, "play C+2", "play C")
    assert events[-1] == {
        "type": "cleared",
        "seat": 0,
        "by": "C",
        "cards": 1,
        "extra_plays": 0,
    }
    assert cancelled.owed == 0 and cancelled.turn == 1 and cancelled.pile == []
    assert vals(cancelled.hands[0]) == "2 9"  # the owed play was not made
    assert legal(cancelled, 1) == ["play 5", "play 8"]


def test_a_clear_plus_as_an_extra_play_replaces_the_plays_still_owed():
    # Clear+2, then a Clear+1 as the first extra play: the second play of the Clear+2 is
    # cancelled and the Clear+1's one play takes its place: one more play, not two.
    chain = arranged(2, hands={0: "C+2 C+1 4 6 7", 1: "5 8"}, pile="3")
    events = play(chain, "play C+2", "play C+1")
    assert events[-1]["extra_plays"] == 1
    assert chain.owed == 1 and chain.turn == 0
    play(chain, "play 4")
    assert chain.turn == 1 and vals(chain.pile) == "4" and vals(chain.hands[0]) == "6 7"
    # Clear+1, then a Clear+2 as its extra play: two fresh plays (not 0 + 2 + ...).
    grow = arranged(2, hands={0: "C+1 C+2 4 6 7", 1: "5 8"}, pile="3")
    play(grow, "play C+1", "play C+2")
    assert grow.owed == 2 and grow.turn == 0
    play(grow, "play 4", "play 6")
    assert grow.turn == 1 and vals(grow.pile) == "4 6"
    # Clear+2, then a Clear+1 as the second extra play: one fresh play after it.
    again = arranged(2, hands={0: "C+2 C+1 4 5 6 7", 1: "5 8"}, pile="3")
    play(again, "play C+2", "play 4", "play C+1")
    assert again.owed == 1 and again.turn == 0 and again.pile == []
    play(again, "play 5")
    assert again.turn == 1 and vals(again.pile) == "5" and vals(again.hands[0]) == "6 7"


def test_extra_play_with_an_empty_hand_draws_first():
    state = arranged(2, hands={0: "C+1", 1: "5 8"}, up={0: "7 8 9"}, pile="3", stock="6 2 2")
    play(state, "play C+1")
    assert legal(state) == ["draw"]  # the stock is not gone: no 3UP yet
    with pytest.raises(IllegalActionError, match="draw first"):
        state.apply_text("play 7")
    play(state, "draw", "play 6")
    assert vals(state.hands[0]) == "2 2" and state.turn == 1


# --- three or more in a row ---------------------------------------------------------------


def test_three_of_a_value_in_one_play_clear_the_pile_and_end_the_turn():
    state = arranged(2, hands={0: "7 7 7 9", 1: "5 8"}, pile="3 4")
    events = play(state, "play 7 7 7")
    assert events[1] == {"type": "cleared", "seat": 0, "by": "run", "cards": 5, "extra_plays": 0}
    assert state.pile == [] and state.turn == 1


def test_three_in_a_row_over_consecutive_plays_by_anyone():
    state = arranged(3, hands={0: "7 9", 1: "7 7 2", 2: "7 5"}, pile="4")
    play(state, "play 7")
    assert legal(state) == ["play 7", "play 7 7"]
    events = play(state, "play 7 7")
    assert events[1]["by"] == "run" and events[1]["cards"] == 4
    assert state.turn == 2 and legal(state) == ["play 5", "play 7"]  # a fresh pile
    four = arranged(2, hands={0: "7 7", 1: "7 7 9"}, down={0: "1"}, pile="7")
    play(four, "play 7 7")
    assert four.pile == [] and four.turn == 1  # one on the pile + two = a run of three


def test_a_run_is_broken_by_a_higher_card_and_counts_across_an_extra_play():
    broken = arranged(3, hands={0: "7 9", 1: "8 2", 2: "7 7 5"}, pile="7")
    play(broken, "play 7", "play 8")
    assert broken.run_rank == 8 and broken.run_len == 1
    # A Clear+1's extra play starts a run on the empty pile that the next player completes.
    state = arranged(2, hands={0: "C+1 7 7 4", 1: "7 9"}, pile="3")
    play(state, "play C+1", "play 7 7")
    assert state.turn == 1 and state.run_len == 2
    play(state, "play 7")
    assert state.pile == [] and state.cleared[-3:] == names("7R1 7G1 7B1")
    # Within a Clear+2 the two extra plays can make the run, which clears and ends the turn.
    inner = arranged(2, hands={0: "C+2 7 7 7 9", 1: "5"}, pile="3")
    play(inner, "play C+2", "play 7", "play 7 7")
    assert inner.pile == [] and inner.turn == 1
    # A run as the first extra play clears and ends the turn: the second play is cancelled.
    first = arranged(2, hands={0: "C+2 7 7 7 2 9", 1: "5"}, pile="3")
    events = play(first, "play C+2", "play 7 7 7")
    assert events[-1]["by"] == "run" and events[-1]["extra_plays"] == 0
    assert first.pile == [] and first.owed == 0 and first.turn == 1
    assert vals(first.hands[0]) == "2 9"


# --- 3UP and 3DOWN ----------------------------------------------------------------------


def test_3up_only_with_no_stock_and_an_empty_hand_singly_or_as_multiples():
    state = arranged(2, hands={0: "4", 1: "5 9"}, up={0: "6 6 C"}, down={0: "1 1 1"}, stock="2")
    assert legal(state) == ["play 4"]
    play(state, "play 4", "play 5")  # seat 0 drew the last card: a 2
    assert legal(state) == ["pickup"] and vals(state.hands[0]) == "2"
    empty = arranged(2, hands={1: "5 9"}, up={0: "6 6 C"}, down={0: "1 1 1"}, pile="5")
    assert legal(empty) == ["play 6", "play 6 6", "play C"]
    events = play(empty, "play 6 6")
    assert events[0]["from"] == "3UP" and vals(empty.up[0]) == "C"


def test_3up_that_cannot_be_played_picks_up_the_pile_only():
    state = arranged(2, hands={1: "5 9"}, up={0: "3 4"}, down={0: "1 1 1"}, pile="8")
    assert legal(state) == ["pickup"]
    play(state, "pickup")
    assert vals(state.hands[0]) == "8" and vals(state.up[0]) == "3 4"


def test_after_a_pickup_the_hand_is_emptied_again_before_3up_and_3down():
    state = arranged(2, hands={1: "10 2 2"}, up={0: "3 10"}, down={0: "1 1 1"}, pile="9")
    play(state, "play 10", "play 10")
    assert legal(state) == ["pickup"]  # the 3UP 3 cannot follow a 10
    play(state, "pickup", "play 2")
    assert vals(state.hands[0]) == "9 10 10"
    assert legal(state) == ["play 9", "play 10", "play 10 10"]  # not the 3UP 3
    play(state, "play 9", "pickup", "play 10 10", "pickup")
    assert state.hands[0] == [] and legal(state) == ["play 3"]  # now the 3UP card


def test_3down_one_blind_flip_per_turn_played_if_it_can_be():
    state = arranged(2, hands={1: "9 2"}, down={0: "6 3 8"}, pile="5")
    assert legal(state) == ["flip"]
    with pytest.raises(IllegalActionError, match="played blind: flip one"):
        state.apply_text("play 6")
    events = play(state, "flip")
    assert events[0] == {
        "type": "played",
        "seat": 0,
        "cards": ["6R1"],
        "from": "3DOWN",
        "extra": False,
    }
    assert state.turn == 1 and len(state.down[0]) == 2  # one flip, then the turn passes


def test_3down_that_cannot_be_played_is_picked_up_hidden_with_the_pile():
    state = arranged(2, hands={1: "9 2"}, down={0: "3 6 8"}, pile="2 5")
    events = state.apply_text("flip")
    public = events[0].view(None)
    assert public == {
        "type": "picked_up",
        "seat": 0,
        "cards": ["2G1", "5R1"],
        "flipped": True,
        "below": "5",
    }
    assert events[0].view(1) == public and events[0].view(0)["flipped_card"] == "3R1"
    assert vals(state.hands[0]) == "2 3 5" and state.turn == 1
    assert state.observation(0)["hand"] == ["2G1", "5R1", "3R1"]
    other = state.observation(1)["seats"][0]
    assert other["known"] == ["2G1", "5R1"] and other["hidden_at_most"] == ["4"]
    assert "3R1" not in str(state.observation(1)) + str(state.public_observation())
    # Its owner must empty the hand before flipping again.
    play(state, "play 9")
    assert legal(state) == ["pickup"]


def test_3down_cards_are_unseen_by_their_owner_too():
    state = two_player_game()
    down = [THREE_UP.format(c) for s in (0, 1) for c in state.down[s]]
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs["seats"][seat]["down"] == 3
        assert not [name for name in down if f"'{name}'" in str(obs)]


# --- going out and the end ---------------------------------------------------------------


def test_first_player_out_of_cards_wins():
    state = arranged(3, hands={1: "9 2", 2: "4"}, down={0: "6"}, up={2: "5"}, pile="5")
    events = play(state, "flip")
    assert events[-2:] == [
        {"type": "out", "seat": 0, "place": 1},
        {"type": "game_over", "winners": [0], "scores": [0.0, 2.0, 2.0], "ranking": [[0], [1, 2]]},
    ]
    assert state.is_terminal() and state.results().winners == (0,)


def test_a_picked_up_last_3down_card_must_still_be_played_out():
    state = arranged(2, hands={1: "9 9"}, down={0: "3"}, pile="5")
    play(state, "flip")
    assert not state.is_terminal() and vals(state.hands[0]) == "3 5" and state.down[0] == []
    play(state, "play 9", "pickup", "play 9")  # seat 1 empties its hand first
    assert state.results().winners == (1,)


def test_going_out_on_a_clear_plus_1_ends_without_the_extra_play():
    state = arranged(2, hands={1: "9 9"}, down={0: "C+1"}, pile="5")
    play(state, "flip")
    assert state.is_terminal() and state.results().winners == (0,)


def test_rank_all_plays_on_until_everyone_is_ranked():
    state = arranged(3, hands={1: "9", 2: "2 3"}, down={0: "6"}, pile="5", rank_all=True)
    events = play(state, "flip")
    assert events[-1] == {"type": "out", "seat": 0, "place": 1} and not state.is_terminal()
    assert state.turn == 1 and state.to_act() == (1,)
    assert vals(state.pile) == "5 6" and legal(state) == ["play 9"]  # the pile stays
    play(state, "play 9")  # seat 1 is out too: seat 2, left alone, loses
    assert state.is_terminal()
    result = state.results()
    assert result.winners == (0,) and result.ranking == ((0,), (1,), (2,))
    assert result.scores == (0.0, 0.0, 2.0) and result.rank_of(2) == 3


def test_rank_all_skips_finished_players():
    state = arranged(3, hands={1: "2 9", 2: "4 4"}, down={0: "6"}, pile="5", rank_all=True)
    play(state, "flip", "play 9")
    assert state.turn == 2
    play(state, "pickup")
    assert state.turn == 1  # seat 0 is out: skipped


def test_max_turns_ends_the_game_ranked_by_cards_left():
    state = arranged(3, hands={0: "4 5", 1: "6 6 7", 2: "7 9"}, max_turns=2)
    events = play(state, "play 4", "play 6")
    assert events[-2:] == [
        {"type": "turn_limit", "turns": 2},
        {"type": "game_over", "winners": [0], "scores": [1.0, 2.0, 2.0], "ranking": [[0], [1, 2]]},
    ]
    unlimited = ThreeUpThreeDown(2, max_turns=0)
    assert unlimited.max_turns == 0


# --- options ------------------------------------------------------------------------------


def test_deck_of_84_and_the_colors_option():
    assert len(ThreeUpThreeDown(2).cards) == 84
    assert ThreeUpThreeDown(2, colors="red,green") == ThreeUpThreeDown(2, colors="RG")
    game = ThreeUpThreeDown(2, colors="G")
    assert len(game.cards) == 25
    state = game.new_state(seed=1)
    dealt = [c for h in state.hands + state.down for c in h] + state.stock.contents()
    assert sorted(dealt) == list(game.cards)
    assert all(THREE_UP.format(c)[-2] == "G" for c in dealt)
    with pytest.raises(InvalidOptionError, match="too small for 6 players"):
        ThreeUpThreeDown(6, colors="GB")
    with pytest.raises(InvalidOptionError, match="not a 3UP 3DOWN color"):
        ThreeUpThreeDown(2, colors="purple")
    assert ThreeUpThreeDown(6, colors="RG").options["colors"] == "RG"


# --- who knows what ----------------------------------------------------------------------


def test_known_copies_are_played_first_and_bounds_follow_the_table():
    state = arranged(2, hands={0: "9 2", 1: "10 4 4"}, pile="9", turn=1)
    play(state, "play 10", "pickup")  # seat 0 takes 9 10: all the table knows of its hand
    assert state.observation(1)["seats"][0]["hidden_at_most"] == ["9", "9"]
    play(state, "play 4", "play 9")  # one 9 of two: the copy everyone saw goes first
    seen = state.observation(1)["seats"][0]
    assert seen["known"] == ["10R1"] and seen["hidden_at_most"] == ["9", "9"]
    assert state.pile[-1] == THREE_UP.parse("9G1")  # the picked-up 9, not the hidden 9R1
    play(state, "pickup", "play 9")  # now the hidden 9: one of the two bounded cards went
    assert state.observation(1)["seats"][0]["hidden_at_most"] == ["9"]


def test_default_action_for_a_seat_whose_clock_ran_out():
    state = stacked(2, DOWN2, SIX2)
    assert state.default_action(0) == ("choose", (8, 10, 11))  # the three highest
    state = arranged(2, hands={0: "C+2 4 9", 1: "5 8"}, pile="3", stock="2")
    assert state.default_action(0) == ("play", (4,))  # the lowest play
    play(state, "play C+2", "play 9")
    assert legal(state) == ["pickup", "draw"] and state.default_action(0) == ("draw",)


def test_every_event_can_be_told_from_every_seat():
    from tripletopper.engine import YOU, Rng

    game = ThreeUpThreeDown(3)
    state = game.new_state(seed=9)
    rng = Rng(9)
    told = set()
    while not state.is_terminal():
        seat = state.to_act()[0]
        actions = state.legal_actions(seat)
        for event in state.apply(actions[rng.below(len(actions))], seat):
            for viewer in (None, 0, 1, 2):
                names = [YOU if s == viewer else f"P{s}" for s in range(3)]
                text = game.describe_event(event.view(viewer), names)
                assert text and not text.startswith(event.type), event
                told.add(event.type)
    assert {"chose", "revealed", "played", "cleared", "picked_up", "drew", "out"} <= told
    assert "game_over" in told
    assert game.describe_action(("play", (7, 7))) == "play 7 7"
    assert game.describe_action(("choose", (3, 9, 11))) == "lay 3 9 C face up"


# --- hints (for tables that turn them on) ---------------------------------------------------


def test_hints_name_the_seats_own_cards_it_could_play_on_the_pile_turn_or_not():
    state = arranged(2, hands={0: "5 5 7 2", 1: "3 8 C"}, up={0: "9", 1: "4 10"}, pile="3 5")
    assert state.hints(0) == {"playable": ["5R1", "5G1", "7R1"]}
    assert state.hints(1) == {"playable": ["8R1", "CR1"]}  # not its turn: still shown
    assert state.hints(None) == {}  # a spectator holds no cards
    # with the hand and the stock empty, the 3UP cards are next
    from_up = arranged(2, hands={0: "", 1: "3"}, up={0: "4 9 10", 1: "6"}, pile="6")
    assert from_up.hints(0) == {"playable": ["9R1", "10R1"]}
