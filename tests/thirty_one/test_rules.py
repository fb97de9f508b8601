"""One scenario per rule of rules/thirty-one.md, with stacked decks and exact lives per hand."""

import json

import pytest

from tripletopper.engine import TABLE
from tripletopper.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_one.rules import CHECK

from .helpers import dealt_31, declare_dealt, hand, play, settlement, stacked

ALL_ORGANS = ["liver", "kidneys", "heart"]


def knock_round(state, knocks: bool = True):
    """The seat to act knocks; everyone else draws and throws the drawn card back."""
    events = play(state, "knock") if knocks else []
    hand_no = state.hand_no
    while state.hand_no == hand_no and not state.is_terminal():
        seat = state.current_seat()
        events += play(state, "draw")
        events += play(state, f"discard {state.game.deck.format(state.hands[seat][-1])}")
    return events


def run_down_stock(state, until: int = 0):
    """Draw and throw back the drawn card (hands stay as dealt) until the stock has ``until``."""
    while state.stock.size > until:
        seat = state.current_seat()
        play(state, "draw")
        play(state, f"discard {state.game.deck.format(state.hands[seat][-1])}")


def losses(done):
    return [(loss["seat"], loss["lives"], loss["reason"]) for loss in done["losses"]]


# --- players, the deck, the deal -----------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 10))
def test_two_to_nine_players_each_with_liver_kidneys_and_heart(players):
    state = ThirtyOne(players).new_state(seed=1)
    assert state.lives == [4] * players
    assert [len(h) for h in state.hands] == [3] * players
    assert len(state.pile) == 1
    assert len(state.stock) == 52 - 3 * players - 1
    obs = state.observation(0)
    assert obs["organs"] == [ALL_ORGANS] * players
    assert obs["circling_the_drain"] == [] and obs["out"] == [] and obs["kitty"] == 0


@pytest.mark.parametrize("players", [0, 1, 10])
def test_other_player_counts_are_refused(players):
    with pytest.raises(InvalidOptionError, match="2 to 9 players"):
        ThirtyOne(players)


def test_options_are_validated():
    assert ThirtyOne(3).options == {"three_of_a_kind": "none", "manual_31": False}
    assert ThirtyOne(3, three_of_a_kind="30.5", manual_31="yes").manual
    with pytest.raises(InvalidOptionError, match=r"'three_of_a_kind' must be one of none, 30\.5"):
        ThirtyOne(3, three_of_a_kind="31")
    with pytest.raises(InvalidOptionError, match="no option 'manual'"):
        ThirtyOne(3, manual=True)


def test_deal_one_card_at_a_time_from_the_dealers_left_who_plays_first():
    state = stacked(3, dealer=1, deals=[({2: "2C 3C 4C", 0: "5D 6D 7D", 1: "8H 9H 10H"}, "JS", "")])
    assert hand(state, 2) == ["2C", "3C", "4C"]
    assert hand(state, 0) == ["5D", "6D", "7D"]
    assert hand(state, 1) == ["8H", "9H", "10H"]
    assert state.game.deck.format_many(state.pile) == ["JS"]
    assert state.to_act() == (2,)


def test_the_discard_pile_is_squared_only_its_top_and_size_are_observed():
    deal = ({0: "2C 3D 4H", 1: "2D 3H 4S", 2: "2H 3S 4C"}, "JS", "KD QC")
    state = stacked(3, dealer=2, deals=[deal])
    play(state, "draw", "discard KD", "draw", "discard QC")
    assert state.game.deck.format_many(state.pile) == ["JS", "KD", "QC"]
    views = [state.public_observation(), *(state.observation(s) for s in range(3))]
    for obs in views:
        assert "discard_pile" not in obs
        assert (obs["discard_top"], obs["discard_size"]) == ("QC", 3)
        assert '"JS"' not in json.dumps(obs) and '"KD"' not in json.dumps(obs)
    play(state, "take")  # seat 2 takes the top: the card under it shows now
    obs = state.public_observation()
    assert (obs["discard_top"], obs["discard_size"]) == ("KD", 2)
    assert obs["known"] == [[], [], ["QC"]] and obs["taken"] == "QC"
    assert '"JS"' not in json.dumps(obs)


def test_first_dealer_is_random_and_the_deal_passes_left():
    assert {ThirtyOne(4).new_state(seed=s).dealer for s in range(40)} == {0, 1, 2, 3}
    state = ThirtyOne(4).new_state(seed=3, dealer=2)
    seen = [(state.dealer, state.turn)]
    while state.hand_no < 4:
        knock_round(state)
        if state.phase == CHECK:  # a dealt 31 now and then
            declare_dealt(state)
        seen.append((state.dealer, state.turn))
    assert seen[:4] == [(2, 3), (3, 0), (0, 1), (1, 2)]


# --- a turn --------------------------------------------------------------------------------

HANDS3 = {0: "2C 3D 4H", 1: "10H JH 5C", 2: "AS KS 2D"}  # worth 4, 20, 21


def test_take_then_discard_one_of_the_other_cards_never_the_one_taken():
    state = stacked(3, dealer=2, deals=[(HANDS3, "KD", "")])
    assert state.legal_actions() == [("take",), ("draw",), ("knock",)]
    play(state, "take")
    assert [state.game.action_to_text(a) for a in state.legal_actions()] == [
        "discard 2C",
        "discard 3D",
        "discard 4H",
    ]
    before = state.dump()
    with pytest.raises(IllegalActionError, match="must keep the card you took"):
        state.apply_text("discard KD")
    assert state.dump() == before
    play(state, "discard 2C")
    assert hand(state, 0) == ["3D", "4H", "KD"]
    assert state.game.deck.format_many(state.pile) == ["2C"]
    assert state.observation(1)["known"][0] == ["KD"]  # everyone saw it go into that hand
    assert state.to_act() == (1,)


def test_draw_then_discard_any_card_even_the_one_drawn():
    state = stacked(3, dealer=2, deals=[(HANDS3, "KD", "QC")])
    events = play(state, "draw")
    assert events == [{"type": "drew", "seat": 0}]  # the card is the drawer's secret
    assert hand(state, 0) == ["2C", "3D", "4H", "QC"]
    assert ("discard", state.game.deck.parse("QC"), False) in state.legal_actions()
    play(state, "discard QC")
    assert hand(state, 0) == ["2C", "3D", "4H"]
    assert state.game.deck.format_many(state.pile) == ["KD", "QC"]


def test_knock_ends_the_turn_and_everyone_else_has_exactly_one_more_turn():
    state = stacked(4, dealer=3, deals=[({**HANDS3, 3: "9C 9D 2S"}, "KD", "QC JC 10C 9H 8H")])
    play(state, "draw", "discard QC")
    play(state, "knock")  # seat 1 knocks with its hand as it is
    assert hand(state, 1) == ["10H", "JH", "5C"]
    order = []
    for card in ("JC", "10C", "9H"):
        seat = state.current_seat()
        order.append(seat)
        assert ("knock",) not in state.legal_actions()
        with pytest.raises(IllegalActionError, match="seat 1 has already knocked"):
            state.apply_text("knock")
        play(state, "draw", f"discard {card}")
    assert order == [2, 3, 0]  # everyone but the knocker, once; the knocker has no turn
    assert state.hand_no == 2


# --- the showdown after a knock ---------------------------------------------------------


def test_the_lowest_hand_loses_a_life():
    state = stacked(3, dealer=2, deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "")])
    done = settlement(knock_round(state))
    assert done["ended_by"] == "knock" and done["knocker"] == 0
    assert [(s["seat"], s["value"]) for s in done["shown"]] == [(0, 21), (1, 4), (2, 20)]
    assert done["lowest"] == 4
    assert losses(done) == [(1, 1, "lowest")]
    assert done["losses"][0]["organs"] == ["liver"]
    assert state.lives == [4, 3, 4]
    assert state.observation(0)["organs"][1] == ["kidneys", "heart"]


def test_a_knocker_tied_for_lowest_is_saved_and_the_others_tied_lose():
    state = stacked(
        3, dealer=2, deals=[({0: "10C 5D 2H", 1: "10D 3H 2S", 2: "AS KS 2D"}, "9S", "")]
    )
    done = settlement(knock_round(state))
    assert losses(done) == [(1, 1, "tied_with_knocker")]
    assert done["saved"] == [0]
    assert state.lives == [4, 3, 4]


def test_everyone_tied_the_knocker_is_saved_and_all_the_others_lose():
    hands = {0: "10C 5D 2H", 1: "10D 3H 2S", 2: "JH 4S 3C"}  # all worth 10
    state = stacked(3, dealer=2, deals=[(hands, "9S", "")])
    done = settlement(knock_round(state))
    assert losses(done) == [(1, 1, "tied_with_knocker"), (2, 1, "tied_with_knocker")]
    assert state.lives == [4, 3, 3]


def test_a_knocker_alone_lowest_loses_two_lives():
    state = stacked(3, dealer=2, deals=[({0: "9C 5D 2H", 1: "10D 3H 2S", 2: "AS KS 2D"}, "9S", "")])
    done = settlement(knock_round(state))
    assert losses(done) == [(0, 2, "knocker_lowest")]
    assert done["losses"][0]["organs"] == ["liver", "kidneys"]
    assert state.lives == [2, 4, 4]
    assert state.observation(2)["organs"][0] == ["heart"]


def test_non_knockers_tied_for_lowest_all_lose():
    hands = {0: "AS KS 2D", 1: "10C 5D 2H", 2: "10D 3H 2S", 3: "10H JH 5C"}
    state = stacked(4, dealer=3, deals=[(hands, "9S", "")])
    done = settlement(knock_round(state))
    assert losses(done) == [(1, 1, "tied_lowest"), (2, 1, "tied_lowest")]
    assert state.lives == [4, 3, 3, 4]


def test_every_hand_is_shown_at_a_showdown():
    state = stacked(3, dealer=2, deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "")])
    done = settlement(knock_round(state))
    assert [(s["seat"], s["cards"]) for s in done["shown"]] == [
        (0, ["AS", "KS", "2D"]),
        (1, ["2C", "3D", "4H"]),
        (2, ["10H", "JH", "5C"]),
    ]


# --- 31 ----------------------------------------------------------------------------------


def test_31_after_a_discard_is_declared_and_everyone_else_loses_one():
    state = stacked(
        3, dealer=2, deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "QS")]
    )
    events = play(state, "draw", "discard 2D")
    assert [e["type"] for e in events][:4] == ["drew", "discarded", "declared", "hand_over"]
    assert events[2] == {"type": "declared", "seat": 0, "cards": ["AS", "KS", "QS"], "dealt": False}
    done = settlement(events)
    assert done["ended_by"] == "31" and done["declarers"] == [0]
    assert losses(done) == [(1, 1, "31"), (2, 1, "31")]
    assert [s["seat"] for s in done["shown"]] == [0]  # the others' hands stay hidden
    assert state.lives == [4, 3, 3]
    assert state.hand_no == 2


def test_31_taken_from_the_discard_pile_counts_too():
    state = stacked(3, dealer=2, deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "QS", "")])
    done = settlement(play(state, "take", "discard 2D"))
    assert done["declarers"] == [0] and state.lives == [4, 3, 3]


def test_31_after_a_knock_ends_the_hand_and_the_knocker_loses_just_one():
    hands = {0: "10H JH 5C", 1: "AS KS 2D", 2: "2C 3D 4H"}
    state = stacked(3, dealer=2, deals=[(hands, "9S", "QS")])
    events = play(state, "knock", "draw", "discard 2D")
    done = settlement(events)
    assert done["ended_by"] == "31" and done["knocker"] == 0
    assert losses(done) == [(0, 1, "31"), (2, 1, "31")]
    assert state.lives == [3, 4, 3]
    assert state.hand_no == 2  # seat 2 never had its last turn


def test_a_dealt_31_is_shown_at_once_and_declared_before_any_play():
    state = stacked(3, dealer=2, deals=[({0: "2C 3D 4H", 1: "AS KS QS", 2: "10H JH 5C"}, "9S", "")])
    assert state.phase == CHECK
    assert state.to_act() == (1,)
    assert state.legal_actions(1) == [("declare",)]
    assert state.legal_actions(0) == []
    assert state.observation(0)["known"][1] == ["AS", "KS", "QS"]
    with pytest.raises(IllegalActionError, match="declared automatically"):
        state.apply(("play",), 1)
    events = play(state, "declare")
    done = settlement(events)
    assert done["ended_by"] == "dealt_31" and done["declarers"] == [1]
    assert losses(done) == [(0, 1, "dealt_31"), (2, 1, "dealt_31")]
    assert state.lives == [3, 4, 3]


def test_the_deal_announces_a_dealt_31_to_everyone():
    second = ({0: "2C 3D 4H", 1: "10H JH 5C", 2: "AS KS QS"}, "9S", "")
    state = stacked(3, dealer=2, deals=[(HANDS3, "KD", ""), second])
    events = knock_round(state)
    started = next(e for e in events if e["type"] == "hand_started")
    assert started["dealt_31"] == [{"seat": 2, "cards": ["AS", "KS", "QS"]}]
    assert state.to_act() == (2,)


def test_several_dealt_31s_everyone_else_loses_one():
    hands = {0: "AS KS QS", 1: "2C 3D 4H", 2: "AH KH JH", 3: "10D 3H 2S"}
    state = stacked(4, dealer=3, deals=[(hands, "9S", "")])
    assert state.to_act() == (0,)
    done = settlement(declare_dealt(state))
    assert done["declarers"] == [0, 2]
    assert losses(done) == [(1, 1, "dealt_31"), (3, 1, "dealt_31")]
    assert state.lives == [4, 3, 4, 3]


def test_everyone_dealt_31_nobody_loses():
    state = stacked(2, dealer=1, deals=[({0: "AS KS QS", 1: "AH KH JH"}, "9S", "")])
    done = settlement(declare_dealt(state))
    assert done["losses"] == [] and state.lives == [4, 4] and state.hand_no == 2


# --- manual_31 -------------------------------------------------------------------------------


def test_manual_31_everyone_is_asked_after_the_deal_so_the_question_tells_nothing():
    def deal(middle: str):
        return stacked(
            3,
            dealer=2,
            manual_31=True,
            deals=[({0: "2C 3D 4H", 1: middle, 2: "10H JH 5C"}, "9S", "")],
        )

    with_31, without = deal("AS KS QS"), deal("AS KS 2D")
    for state in (with_31, without):
        asked = []
        while state.phase == CHECK:  # everyone in turn from the dealer's left
            seat = state.current_seat()
            asked.append(seat)
            assert state.observation(0)["known"] == [[], [], []]
            if seat == 1:
                legal = state.legal_actions()
                break
            assert state.legal_actions() == [("play",)]
            state.apply(("play",))
        assert asked == [0, 1]
        if state is with_31:
            assert legal == [("play",), ("declare",)]
        else:
            assert legal == [("play",)]
            with pytest.raises(IllegalActionError, match="worth 21, not 31"):
                state.apply(("declare",))
    mine = {k: v for k, v in with_31.observation(0).items()}
    assert mine == without.observation(0)  # the table sees the same either way


def test_manual_31_a_dealt_31_declared_ends_the_hand():
    state = stacked(
        3,
        dealer=2,
        manual_31=True,
        deals=[({0: "2C 3D 4H", 1: "AS KS QS", 2: "10H JH 5C"}, "9S", "")],
    )
    events = []
    for seat, action in ((0, ("play",)), (1, ("declare",)), (2, ("play",))):
        events += [e.view(None) for e in state.apply(action, seat)]
    assert [e["type"] for e in events][:3] == ["played", "declared", "played"]
    done = settlement(events)
    assert done["ended_by"] == "dealt_31"
    assert state.lives == [3, 4, 3]


def test_manual_31_an_undeclared_31_counts_30_in_the_showdown():
    # Seat 0 misses its dealt 31; seat 1 knocks with 30.  Counted as 31, seat 0
    # would leave the knocker alone lowest (two lives); counted as 30 it ties the
    # knocker, who is saved, and seat 0 loses one.
    state = stacked(
        2,
        dealer=1,
        manual_31=True,
        deals=[({0: "AS KS QS", 1: "AD KD 9D"}, "9S", "2C 3C")],
    )
    state.apply(("play",), 0)
    state.apply(("play",), 1)
    assert state.observation(0)["value"] == 31 and state.observation(0)["counts"] == 30
    play(state, "draw")
    assert all(not a[2] for a in state.legal_actions())  # that 31 cannot be declared later
    with pytest.raises(IllegalActionError, match="not declared when you made it"):
        state.apply_text("discard 2C declare")
    play(state, "discard 2C", "knock", "draw", "discard 3C")
    done = state.last.to_json()
    assert [(s["seat"], s["value"], s["counts"]) for s in done["shown"]] == [
        (0, 31, 30),
        (1, 30, 30),
    ]
    assert losses(done) == [(0, 1, "tied_with_knocker")]
    assert state.lives == [3, 4]


def test_manual_31_a_knocker_holding_an_undeclared_31_counts_30():
    # The knocker has no turn after knocking, so he can only bring a 31 he let pass.
    state = stacked(
        2, dealer=1, manual_31=True, deals=[({0: "AS KS QS", 1: "AD KD 9D"}, "9S", "2C")]
    )
    state.apply(("play",), 0)
    state.apply(("play",), 1)
    done = settlement(play(state, "knock", "draw", "discard 2C"))
    assert [(s["seat"], s["counts"]) for s in done["shown"]] == [(0, 30), (1, 30)]
    assert losses(done) == [(1, 1, "tied_with_knocker")] and done["saved"] == [0]
    assert state.lives == [4, 3]


def test_manual_31_declared_with_the_discard():
    state = stacked(
        3,
        dealer=2,
        manual_31=True,
        deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "QS")],
    )
    for seat in (0, 1, 2):
        state.apply(("play",), seat)
    play(state, "draw")
    deck = state.game.deck
    assert ("discard", deck.parse("2D"), True) in state.legal_actions()
    with pytest.raises(IllegalActionError, match="leaves 21, not 31"):
        state.apply_text("discard KS declare")
    done = settlement(play(state, "discard 2D declare"))
    assert done["declarers"] == [0] and state.lives == [4, 3, 3]


def test_text_actions_name_cards_in_their_long_forms_too():
    deal = ({0: "2C 3D 4H", 1: "2D 3H 4S", 2: "2H 3S 4C"}, "JS", "KD")
    state = stacked(3, dealer=2, deals=[deal])
    play(state, "draw", "discard king of diamonds", "take", "discard two diamonds")
    assert state.game.deck.format_many(state.pile) == ["JS", "2D"]
    assert hand(state, 1) == ["3H", "4S", "KD"]
    deal = ({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "QS")
    state = stacked(3, dealer=2, manual_31=True, deals=[deal])
    for seat in (0, 1, 2):
        state.apply(("play",), seat)
    done = settlement(play(state, "draw", "discard 2 of diamonds declare"))
    assert done["declarers"] == [0] and state.lives == [4, 3, 3]


def test_manual_31_not_declared_at_the_discard_is_lost_but_a_new_31_can_be_declared():
    state = stacked(
        3,
        dealer=2,
        manual_31=True,
        deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "QS 5H 6H JS")],
    )
    for seat in (0, 1, 2):
        state.apply(("play",), seat)
    play(state, "draw", "discard 2D")  # 31, not declared
    assert state.hand_no == 1 and state.observation(0)["counts"] == 30
    play(state, "draw", "discard 5H", "draw", "discard 6H")
    play(state, "draw")  # JS: throwing it back keeps the dead 31; keeping it makes a new one
    deck = state.game.deck
    declarable = [deck.format(a[1]) for a in state.legal_actions() if a[2]]
    assert declarable == ["KS", "QS"]
    done = settlement(play(state, "discard QS declare"))
    assert done["declarers"] == [0] and state.lives == [4, 3, 3]


def test_manual_31_an_undeclared_31_loses_when_someone_else_declares():
    state = stacked(
        3,
        dealer=2,
        manual_31=True,
        deals=[({0: "AH KH 2D", 1: "AS KS QS", 2: "10H JH 5C"}, "9S", "QH")],
    )
    for seat in (0, 1, 2):
        state.apply(("play",), seat)  # seat 1 misses its dealt 31
    done = settlement(play(state, "draw", "discard 2D declare"))
    assert losses(done) == [(1, 1, "31"), (2, 1, "31")]
    assert state.lives == [4, 3, 3]


def test_automatic_31_refuses_a_declaring_discard():
    state = stacked(3, dealer=2, deals=[(HANDS3, "KD", "QC")])
    play(state, "draw")
    with pytest.raises(IllegalActionError, match="declared automatically"):
        state.apply_text("discard QC declare")


# --- the stock runs out -----------------------------------------------------------------------


def test_empty_stock_take_or_stop_and_a_stop_shows_the_hands():
    state = stacked(3, dealer=2, deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "")])
    run_down_stock(state)
    seat = state.current_seat()
    assert state.legal_actions() == [("take",), ("stop",)]
    before = state.dump()
    for text in ("draw", "knock"):
        with pytest.raises(IllegalActionError, match="the stock is empty: take the top discard"):
            state.apply_text(text)
    assert state.dump() == before
    play(state, "take", f"discard {hand(state, seat)[0]}")  # play goes on while players take
    events = play(state, "stop")
    assert events[0] == {"type": "stopped", "seat": state.last.stopper}
    done = settlement(events)
    assert done["ended_by"] == "stop" and done["knocker"] is None
    assert len(done["shown"]) == 3
    low = min(s["counts"] for s in done["shown"])
    lowest = [s["seat"] for s in done["shown"] if s["counts"] == low]
    assert [loss["seat"] for loss in done["losses"]] == lowest


def test_stop_without_a_knock_ties_for_lowest_all_lose():
    hands = {0: "10C 5D 2H", 1: "10D 3H 2S", 2: "AS KS 2D"}  # 10, 10, 21
    state = stacked(3, dealer=2, deals=[(hands, "9S", "")])
    run_down_stock(state)
    done = settlement(play(state, "stop"))
    assert losses(done) == [(0, 1, "tied_lowest"), (1, 1, "tied_lowest")]
    assert state.lives == [3, 3, 4]


def test_stop_after_a_knock_ends_the_hand_at_once_with_the_knocker_rules():
    hands = {2: "9C 5D 2H", 0: "10D 3H 2S", 1: "AS KS 2D"}  # 9, 10, 21
    state = stacked(3, dealer=2, deals=[(hands, "8S", "")])
    run_down_stock(state, until=1)
    assert state.current_seat() == 2  # 41 of the 42 cards drawn: seats 0, 1, 2, ... 1
    play(state, "knock", "draw")
    play(state, "discard " + state.game.deck.format(state.hands[0][-1]))
    assert state.current_seat() == 1 and state.stock.size == 0
    done = settlement(play(state, "stop"))
    assert done["ended_by"] == "stop" and done["knocker"] == 2 and done["stopper"] == 1
    assert losses(done) == [(2, 2, "knocker_lowest")]
    assert state.lives == [4, 4, 2]


# --- organs, the drain, elimination, the end ------------------------------------------


def test_organs_go_liver_kidneys_heart_then_the_drain_then_out():
    deals = [dealt_31(0, 2) for _ in range(4)]
    state = stacked(2, dealer=1, deals=deals)
    lost = []
    for expected_lives in (3, 2, 1):
        done = settlement(declare_dealt(state))
        lost.append(done["losses"][0]["organs"])
        assert state.lives == [4, expected_lives]
    assert lost == [["liver"], ["kidneys"], ["heart"]]
    obs = state.observation(0)
    assert obs["organs"][1] == [] and obs["circling_the_drain"] == [1] and obs["kitty"] == 3
    assert "hand" in state.observation(1)  # circling the drain, still playing
    done = settlement(declare_dealt(state))
    assert done["losses"][0] == {
        "seat": 1,
        "lives": 1,
        "reason": "dealt_31",
        "organs": [],
        "circling_the_drain": False,
        "out": True,
    }
    assert done["eliminated"] == [1]
    assert state.is_terminal()
    assert state.results().winners == (0,)
    assert state.results().ranking == ((0,), (1,))
    assert state.observation(0)["out"] == [1]


def test_losing_two_lives_with_one_organ_left_is_out():
    deals = [dealt_31(1, 2), dealt_31(1, 2), ({0: "9C 5D 2H", 1: "10D 3H 2S"}, "8S", "")]
    state = stacked(2, dealer=1, deals=deals)
    declare_dealt(state)
    declare_dealt(state)
    assert state.lives == [2, 4] and state.observation(1)["organs"][0] == ["heart"]
    assert state.current_seat() == 0
    done = settlement(knock_round(state))
    assert done["losses"][0]["organs"] == ["heart"] and done["losses"][0]["out"]
    assert state.lives == [0, 4]
    assert state.results().winners == (1,)


def test_eliminated_players_are_skipped_by_the_deal_and_the_turns():
    two = {0: "AS KS QS", 1: "AH KH QH", 2: "2C 3D 4H"}
    deals = [(two, "9S", "")] * 4 + [({0: "2C 3D 4H", 1: "10D 3H 2S"}, "9S", "")] * 2
    seats = [[0, 1, 2]] * 4 + [[0, 1]] * 2
    state = stacked(3, dealer=0, deals=deals, seats=seats)
    for _ in range(4):
        declare_dealt(state)
    assert state.lives == [4, 4, 0]
    assert state.last.to_json()["eliminated"] == [2]
    assert not state.is_terminal()
    assert (state.hand_no, state.dealer, state.turn) == (5, 1, 0)  # dealers 0, 1, 2, 0, then 1
    assert state.hands[2] == [] and hand(state, 0) == ["2C", "3D", "4H"]
    assert state.observation(0)["in_hand"] == [0, 1] and state.observation(0)["out"] == [2]
    knock_round(state)
    assert (state.hand_no, state.dealer, state.turn) == (6, 0, 1)  # the deal skips seat 2
    assert state.observation(2)["hand_sizes"][2] == 0 and "hand" not in state.observation(2)


def test_a_hand_that_would_put_everyone_out_is_void_and_dealt_again():
    to_the_drain = [dealt_31(0, 2)] * 3 + [dealt_31(1, 2)] * 3
    tie = ({0: "2C 3D 4H", 1: "2D 3H 4S"}, "9S", "")  # 4 and 4
    state = stacked(2, dealer=1, deals=[*to_the_drain, tie])
    for _ in range(6):
        declare_dealt(state)
    assert state.lives == [1, 1] and state.hand_no == 7
    dealer = state.dealer
    run_down_stock(state)
    events = play(state, "stop")
    done = settlement(events)
    assert done["void"] is True
    assert losses(done) == [(0, 1, "tied_lowest"), (1, 1, "tied_lowest")] or losses(done) == [
        (1, 1, "tied_lowest"),
        (0, 1, "tied_lowest"),
    ]
    assert all(loss["out"] for loss in done["losses"])  # what would have happened
    assert done["eliminated"] == [] and done["lives"] == [1, 1]
    assert state.lives == [1, 1] and not state.is_terminal()
    assert (state.hand_no, state.dealer) == (8, dealer)  # the same dealer deals again
    assert state.stats()["void_hands"] == 1


def test_a_hand_that_leaves_someone_standing_is_not_void():
    to_the_drain = [dealt_31(0, 2)] * 3 + [dealt_31(1, 2)] * 2
    tie = ({1: "2C 3D 4H", 0: "2D 3H 4S"}, "9S", "")
    state = stacked(2, dealer=1, deals=[*to_the_drain, tie])
    for _ in range(5):
        declare_dealt(state)
    assert state.lives == [2, 1]
    run_down_stock(state)
    done = settlement(play(state, "stop"))
    assert done["void"] is False
    assert state.lives == [1, 0]
    assert state.results().winners == (0,)


def test_three_of_a_kind_counts_30_5_only_with_the_option():
    hands = {0: "7H 7S 7D", 1: "AD KD 9D", 2: "AS KS 2D"}  # 7 or 30.5; 30; 21
    plain = stacked(3, dealer=2, deals=[(hands, "9S", "")])
    done = settlement(knock_round(plain))
    assert losses(done) == [(0, 2, "knocker_lowest")]
    trips = stacked(3, dealer=2, deals=[(hands, "9S", "")], three_of_a_kind="30.5")
    assert trips.observation(0)["value"] == 30.5
    done = settlement(knock_round(trips))
    assert done["shown"][0]["value"] == 30.5
    assert losses(done) == [(2, 1, "lowest")]


# --- bad input changes nothing --------------------------------------------------------------


def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    state = stacked(3, dealer=2, deals=[(HANDS3, "KD", "QC")])
    before = state.dump()
    cases = [
        (("discard", 0, False), None, IllegalActionError, "draw from the stock or take"),
        (("stop",), None, IllegalActionError, "only when the stock is empty"),
        (("play",), None, IllegalActionError, "right after the deal"),
        (("draw",), 1, IllegalActionError, "not seat 1's turn"),
        (("draw",), TABLE, IllegalActionError, "no table actions"),
        (("fly",), None, MalformedActionError, "unknown action 'fly'"),
        (("discard",), None, MalformedActionError, "takes 2 argument"),
        ("draw", None, MalformedActionError, "non-empty tuple"),
    ]
    for action, seat, error, message in cases:
        with pytest.raises(error, match=message):
            state.apply(action, seat)
        assert state.dump() == before
    with pytest.raises(MalformedActionError, match="not a card"):
        state.apply_text("discard 1X")
    with pytest.raises(IllegalActionError, match="there is no seat 9"):
        state.apply(("draw",), 9)
    play(state, "draw")
    with pytest.raises(IllegalActionError, match="5S is not in your hand"):
        state.apply_text("discard 5S")
    with pytest.raises(IllegalActionError, match="discard one first"):
        state.apply_text("knock")


def test_stacked_decks_and_setup_are_validated():
    game = ThirtyOne(3)
    with pytest.raises(InvalidOptionError, match="same card twice"):
        game.new_state(decks=[["AS", "AS"]])
    with pytest.raises(InvalidOptionError, match="not a card"):
        game.new_state(decks=[["1X"]])
    with pytest.raises(InvalidOptionError, match="dealer must be a seat"):
        game.new_state(dealer=3)
    with pytest.raises(InvalidOptionError, match="no setup value 'lives'"):
        game.new_state(lives=2)


def test_the_game_is_over_for_everyone_at_the_end():
    state = stacked(2, dealer=1, deals=[dealt_31(0, 2)] * 4)
    for _ in range(4):
        declare_dealt(state)
    assert state.is_terminal() and state.to_act() == () and state.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(("draw",), 0)


def test_each_discard_previews_the_value_it_keeps_and_an_undeclared_31_counts_30():
    state = stacked(
        3,
        dealer=2,
        manual_31=True,
        deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "10H JH 5C"}, "9S", "QS")],
    )
    for seat in (0, 1, 2):
        state.apply(("play",), seat)
    play(state, "draw")  # AS KS 2D QS
    previews = {state.game.action_to_text(a): state.preview(a, 0) for a in state.legal_actions()}
    assert previews == {
        "discard AS": "keeps 20",
        "discard KS": "keeps 21",
        "discard 2D": "keeps 31 (undeclared: counts 30)",
        "discard QS": "keeps 21",
        "discard 2D declare": "keeps 31",
    }
    assert state.preview(("knock",), 0) is None


def test_hints_give_the_draws_odds_and_the_take_from_what_the_seat_knows():
    # Seat 1 holds AS KS 9H (21) and sees QS face up: of the 48 cards it has not seen,
    # 10S and JS make 31, 9S makes 30 and 2S-8S add their pips: 10 improve the hand, and
    # the mean after the draw is (2*31 + 30 + 7*21 + 35 + 38*21) / 48 = 22.33.  Seat 0
    # holds 10S and JS, which seat 1 cannot see: they still count as unseen.
    state = stacked(2, 0, [({1: "AS KS 9H", 0: "10S JS 2C"}, "QS", "")])
    assert state.hints(1) == {
        "draw": {"value": 21, "unseen": 48, "improve": 10, "mean": 22.33},
        "take": {"card": "QS", "value": 31},
    }
    assert state.hints(0)["take"] == {"card": "QS", "value": 30}
    assert state.hints(None) == {}
    state = stacked(2, 0, [({1: "AS KS 9H", 0: "10S JS 2C"}, "3D", "")])
    play(state, "take", "discard 9H")
    # 3D now lies in seat 1's hand, known to the table, and 9H is face up: seat 0 has
    # seen 5 cards (its hand, 3D, 9H).
    assert state.hints(0)["draw"]["unseen"] == 47
    assert state.hints(0)["take"] == {"card": "9H", "value": 20}
