"""One scenario per rule of rules/thirty-two.md, with stacked decks and exact counters."""

import json

import pytest

from tripletopper.engine import CLOCK, TABLE
from tripletopper.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from tripletopper.games.thirty_two import ThirtyTwo

from ..refusal import refused
from .helpers import deck_order, hand, play, stacked


def example_deal(**options):
    """The original rules' example: the knocker (seat 0, 31 points) holds one black,
    seat 1 a black and a blob (14 points), seat 2 no wild (4 points); both others
    will draw and throw back YS1 and GS1 on their last turn."""
    return stacked(
        3,
        dealer=2,
        hands={0: "KC4 RC4 RC3", 1: "KH1 YB1 GT2", 2: "YC1 GH2 BT1"},
        face_up="RS2",
        stock="YS1 GS1",
        **options,
    )


LAST_ROUND = ("knock", "draw", "discard YS1", "draw", "discard GS1")


def settlement(events):
    return next(e for e in events if e["type"] == "hand_over")


# --- players, counters, the deal -----------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_three_to_six_players_with_two_counters_each_per_player(players):
    state = ThirtyTwo(players).new_state(seed=1)
    assert state.counters == [2 * players] * players
    assert [len(h) for h in state.hands] == [3] * players
    assert len(state.pile) == 1
    assert len(state.stock) == 125 - 3 * players - 1


@pytest.mark.parametrize("players", [2, 7, 0, -1])
def test_other_player_counts_are_refused(players):
    with pytest.raises(InvalidOptionError, match="3 to 6 players"):
        ThirtyTwo(players)


def test_counters_option():
    assert ThirtyTwo(4, counters=15).new_state().counters == [15] * 4
    with pytest.raises(InvalidOptionError, match="'counters' must be a whole number from 1"):
        ThirtyTwo(4, counters=0)
    with pytest.raises(InvalidOptionError, match="no option 'counter'"):
        ThirtyTwo(4, counter=5)


def test_deal_one_card_at_a_time_from_the_dealers_left():
    state = stacked(
        3,
        dealer=1,
        hands={2: "RC1 RC2 RC3", 0: "YC1 YC2 YC3", 1: "GC1 GC2 GC3"},
        face_up="BC1",
    )
    assert hand(state, 2) == ["RC1", "RC2", "RC3"]
    assert hand(state, 0) == ["YC1", "YC2", "YC3"]
    assert hand(state, 1) == ["GC1", "GC2", "GC3"]
    assert state.pile == [state.game.deck.parse("BC1")]
    assert state.to_act() == (2,)  # the dealer's left starts


def test_first_dealer_is_random_and_the_deal_rotates_left():
    dealers = {ThirtyTwo(4).new_state(seed=s).dealer for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    state = ThirtyTwo(4, counters=100).new_state(seed=3, dealer=2)
    seen = [(state.dealer, state.turn)]
    while state.hand_no < 4:
        state.apply(("knock",))
        while state.hand_no == len(seen):
            state.apply(("draw",))
            state.apply(state.legal_actions()[0])
        seen.append((state.dealer, state.turn))
    assert seen == [(2, 3), (3, 0), (0, 1), (1, 2)]


# --- a turn ------------------------------------------------------------------------------------

HANDS3 = {0: "RC1 YH2 GT3", 1: "YC1 GS2 BT1", 2: "GC1 BS2 RT4"}


def test_take_then_discard_one_of_the_other_three():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?")
    assert state.legal_actions() == [("take",), ("draw",), ("knock",)]
    play(state, "take")
    legal = state.legal_actions()
    assert [state.game.action_to_text(a) for a in legal] == [
        "discard RC1",
        "discard YH2",
        "discard GT3",
    ]
    before = state.dump()
    with pytest.raises(IllegalActionError, match="must keep the card you took"):
        state.apply_text("discard KB?")
    assert state.dump() == before
    play(state, "discard RC1")
    assert hand(state, 0) == ["YH2", "GT3", "KB?"]
    assert state.to_act() == (1,)


def test_draw_then_discard_any_of_the_four_including_the_drawn_card():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?", stock="RS4")
    play(state, "draw")
    assert hand(state, 0) == ["RC1", "YH2", "GT3", "RS4"]
    assert ("discard", state.game.deck.parse("RS4"), False) in state.legal_actions()
    play(state, "discard RS4")
    assert hand(state, 0) == ["RC1", "YH2", "GT3"]
    assert state.game.deck.format_many(state.pile) == ["KB?", "RS4"]


def test_the_discard_pile_is_squared_only_its_top_and_size_are_observed():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?", stock="RS4 BB1")
    play(state, "draw", "discard RS4", "draw", "discard BB1")
    assert state.game.deck.format_many(state.pile) == ["KB?", "RS4", "BB1"]
    views = [state.public_observation(), *(state.observation(s) for s in range(3))]
    for obs in views:
        assert "discard_pile" not in obs
        assert (obs["discard_top"], obs["discard_size"]) == ("BB1", 3)
        assert '"KB?"' not in json.dumps(obs) and '"RS4"' not in json.dumps(obs)
    play(state, "take")  # seat 2 takes the top: the card under it shows now
    obs = state.public_observation()
    assert (obs["discard_top"], obs["discard_size"]) == ("RS4", 2)
    assert obs["known"] == [[], [], ["BB1"]] and obs["taken"] == "BB1"
    assert '"KB?"' not in json.dumps(obs)


def test_text_actions_name_cards_in_their_long_forms_too():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?", stock="RS4")
    play(state, "take", "discard red circle 1")
    assert hand(state, 0) == ["YH2", "GT3", "KB?"]
    play(state, "draw", "discard Red-Square-4")  # seat 1 throws back what it drew
    assert hand(state, 1) == ["YC1", "GS2", "BT1"]
    state = stacked(
        3,
        dealer=2,
        counters=20,
        hands={0: "RC1 YH2 GT3", 1: "BS4 BB4 RC2", 2: "YC1 GS2 BT1"},
        face_up="RS1",
        stock="KB?",
    )
    events = play(state, "knock", "draw", "discard red circle 2 declare")
    assert settlement(events)["ended_by"] == "thirty-two" and state.counters == [14, 32, 14]


def test_knock_once_per_hand_then_exactly_one_more_turn_each():
    state = stacked(4, dealer=3, hands={**HANDS3, 3: "BH1 RH2 YT4"}, face_up="KS1")
    play(state, "draw", "discard " + state.game.deck.format(state.stock.cards[-1]))
    play(state, "knock")  # seat 1 knocks
    order = []
    for _ in range(3):
        seat = state.current_seat()
        order.append(seat)
        assert ("knock",) not in state.legal_actions()
        with pytest.raises(IllegalActionError, match="seat 1 has already knocked"):
            state.apply_text("knock")
        play(state, "draw")
        play(state, "discard " + state.game.deck.format(state.hands[seat][-1]))
    assert order == [2, 3, 0]  # everyone but the knocker, once
    assert state.hand_no == 2  # then the showdown; the knocker gets no further turn


def test_stock_runs_out_and_discards_but_the_top_become_the_new_stock():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?", counters=50)
    deck = state.game.deck
    draws = 0
    while state.stock.size:
        play(state, "draw")
        play(state, "discard " + deck.format(state.hands[state.current_seat()][-1]))
        draws += 1
    assert draws == 125 - 10
    pile_before = list(state.pile)
    events = play(state, "draw")
    assert events[0] == {"type": "reshuffled", "stock_size": 115}
    assert state.pile == pile_before[-1:]  # the top discard stays
    assert sorted([*state.stock.contents(), state.hands[state.turn][-1]]) == sorted(
        pile_before[:-1]
    )


# --- settling a knock ----------------------------------------------------------------------


def test_the_texts_example_knocker_wins_and_a_black_and_blob_pays_four():
    state = example_deal()
    assert state.game.score(state.hands[0]) == 31
    events = play(state, *LAST_ROUND)
    done = settlement(events)
    assert done["knocker_won"] is True
    assert done["payments"] == [
        {"from": 1, "to": 0, "due": 4, "paid": 4},  # 3 + (2 wilds - 1)
        {"from": 2, "to": 0, "due": 3, "paid": 3},  # fewer wilds than the knocker: just 3
    ]
    assert state.counters == [13, 2, 3]
    assert [s["seat"] for s in done["shown"]] == [0]
    assert done["mucked"] == [1, 2]


def test_knocker_tied_or_beaten_pays_each_who_tied_or_beat_him():
    state = stacked(
        4,
        dealer=3,
        counters=20,
        hands={
            0: "KC3 RB3 YH4",  # knocker: 20 points, 2 wilds
            1: "RC4 RC3 YH3",  # ties at 20 with 0 wilds: 3 + (2 - 0) = 5
            2: "GT1 GH2 KB?",  # beats with 23 and 3 wilds: 3 + 0 = 3
            3: "YC1 GS2 BT1",  # lower: neither pays nor collects
        },
        face_up="RS1",
        stock="YS1 GS1 BS2",
    )
    events = play(state, "knock")
    for card in ("YS1", "GS1", "BS2"):
        events += play(state, "draw", f"discard {card}")
    done = settlement(events)
    assert done["knocker_won"] is False
    assert done["payments"] == [
        {"from": 0, "to": 2, "due": 3, "paid": 3},  # highest score paid first
        {"from": 0, "to": 1, "due": 5, "paid": 5},
    ]
    assert state.counters == [12, 25, 23, 20]
    assert [s["seat"] for s in done["shown"]] == [0, 1, 2]
    assert done["mucked"] == [3]


def test_cap_at_32_ties_two_thirty_twos_and_without_it_raw_points_decide():
    hands = {0: "BS4 BB4 KB?", 1: "GT4 KT4 GB4", 2: "RC1 YH2 YT3"}  # raw 33 (4 wilds), 32 (2)
    capped = stacked(3, dealer=2, hands=hands, face_up="RS1", stock="YS1 GS1", counters=20)
    done = settlement(play(capped, "knock", "draw", "discard YS1", "draw", "discard GS1"))
    assert done["payments"] == [{"from": 0, "to": 1, "due": 5, "paid": 5}]  # 3 + (4 - 2)
    raw = stacked(
        3, dealer=2, hands=hands, face_up="RS1", stock="YS1 GS1", counters=20, cap_at_32=False
    )
    done = settlement(play(raw, "knock", "draw", "discard YS1", "draw", "discard GS1"))
    assert done["knocker_won"] is True
    assert [p["due"] for p in done["payments"]] == [3, 3]
    assert raw.counters == [26, 17, 17]


def test_knocker_who_cannot_pay_pays_highest_first_cutting_for_ties_and_the_rest_is_lost():
    state = stacked(
        4,
        dealer=3,
        counters=5,
        hands={
            0: "RC1 YH2 GT3",  # knocker, 6 points
            1: "RC4 RC3 YH3",  # 20
            2: "GS4 GS3 BH3",  # 20
            3: "BC4 BC2 BH4",  # 25: paid first
        },
        face_up="RS1",
        stock="YS1 GS1 BS2 RC2 YB?",  # three final draws, then the cut
    )
    events = play(state, "knock")
    for card in ("YS1", "GS1", "BS2"):
        events += play(state, "draw", f"discard {card}")
    done = settlement(events)
    assert done["cuts"] == [{"seat": 1, "card": "RC2"}, {"seat": 2, "card": "YB?"}]
    assert done["payments"] == [
        {"from": 0, "to": 3, "due": 3, "paid": 3},
        {"from": 0, "to": 2, "due": 3, "paid": 2},  # won the cut: paid what was left
        {"from": 0, "to": 1, "due": 3, "paid": 0},  # lost the cut: unpaid
    ]
    assert state.counters == [0, 5, 7, 8]
    assert done["owed"] == [0, 3, 1, 0]
    assert sum(state.counters) == 20  # unpaid amounts are lost, never created
    assert done["eliminated"] == [0]
    # Seat 3 leads, but seat 2 (1 behind, owed 1) and seat 1 (3 behind, owed 3)
    # could have caught up with what they are owed: all three play on.
    playoff = next(e for e in events if e["type"] == "playoff")
    assert playoff == {"type": "playoff", "seats": [1, 2, 3], "leaders": [3]}
    assert not state.is_terminal() and state.seats_in == [1, 2, 3]


def test_payments_in_full_need_no_cut():
    state = stacked(
        4,
        dealer=3,
        counters=20,
        hands={0: "RC1 YH2 GT3", 1: "RC4 RC3 YH3", 2: "GS4 GS3 BH3", 3: "YC1 GS2 BT1"},
        face_up="RS1",
        stock="YS1 GS1 BS2",
    )
    events = play(state, "knock")
    for card in ("YS1", "GS1", "BS2"):
        events += play(state, "draw", f"discard {card}")
    done = settlement(events)
    assert done["cuts"] == []
    assert state.counters == [14, 23, 23, 20]


def test_an_opponent_who_cannot_pay_the_knocker_pays_what_he_has():
    state = example_deal(counters=2)
    done = settlement(play(state, *LAST_ROUND))
    assert done["payments"] == [
        {"from": 1, "to": 0, "due": 4, "paid": 2},
        {"from": 2, "to": 0, "due": 3, "paid": 2},
    ]
    assert state.counters == [6, 0, 0]
    assert done["owed"] == [3, 0, 0]


# --- Thirty-two ------------------------------------------------------------------------------


def test_declare_a_dealt_thirty_two_at_the_start_of_a_turn():
    state = stacked(
        3,
        dealer=0,
        counters=20,
        hands={1: "BS4 BB4 KB?", 2: "KB1 KC? BB?", 0: "RC1 YH2 GT3"},  # 4 wilds; 6 wilds; 0
        face_up="RS1",
    )
    assert ("declare",) in state.legal_actions()
    done = settlement(play(state, "declare"))
    assert done["ended_by"] == "thirty-two"
    assert done["declarer"] == 1
    assert done["payments"] == [
        {"from": 2, "to": 1, "due": 10, "paid": 10},  # 6 + 2 x (6 - 4)
        {"from": 0, "to": 1, "due": 6, "paid": 6},
    ]
    assert state.counters == [14, 36, 10]
    assert [s["seat"] for s in done["shown"]] == [1]
    assert done["mucked"] == [2, 0]


def test_declare_is_refused_without_a_thirty_two():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?")
    before = state.dump()
    with pytest.raises(IllegalActionError, match="scores 6, not a Thirty-two"):
        state.apply(("declare",))
    with pytest.raises(IllegalActionError, match="not a Thirty-two"):
        play(state, "draw")
        state.apply_text("discard RC1 declare")
    assert state.dump()["counters"] == before["counters"]


def test_declaring_with_the_discard_ends_the_hand_even_after_a_knock():
    state = stacked(
        3,
        dealer=2,
        counters=20,
        hands={0: "RC1 YH2 GT3", 1: "BS4 BB4 RC2", 2: "YC1 GS2 BT1"},
        face_up="RS1",
        stock="KB?",
    )
    events = play(state, "knock", "draw")
    assert ("discard", state.game.deck.parse("RC2"), True) in state.legal_actions()
    done = settlement(events + play(state, "discard RC2 declare"))
    assert done["ended_by"] == "thirty-two"
    assert done["knocker"] == 0
    assert done["payments"] == [
        {"from": 2, "to": 1, "due": 6, "paid": 6},
        {"from": 0, "to": 1, "due": 6, "paid": 6},  # the knocker pays like everyone else
    ]
    assert state.counters == [14, 32, 14]
    assert state.hand_no == 2  # seat 2 never got its final turn


def test_holding_out_a_thirty_two_keeps_it_a_32_point_hand_in_a_knock():
    state = stacked(
        3,
        dealer=2,
        counters=20,
        hands={0: "RC1 YH2 GT3", 1: "BS4 BB4 RC2", 2: "YC1 GS2 BT1"},
        face_up="RS1",
        stock="KB? GH1",
    )
    events = play(state, "knock", "draw", "discard RC2")  # holds out: no declaration
    assert state.to_act() == (2,)
    events += play(state, "draw", "discard GH1")
    done = settlement(events)
    assert done["ended_by"] == "knock"
    assert done["payments"] == [{"from": 0, "to": 1, "due": 3, "paid": 3}]  # 3 + max(0, 0 - 4)


def test_a_held_out_thirty_two_can_be_declared_on_a_later_turn():
    state = stacked(
        3,
        dealer=0,
        counters=20,
        hands={1: "BS4 BB4 KB?", 2: "RC1 YH2 GT3", 0: "YC1 GS2 BT1"},
        face_up="RS1",
        stock="YS1 GH1 BH1",
    )
    play(state, "draw", "discard YS1")  # seat 1 holds out
    play(state, "draw", "discard GH1", "draw", "discard BH1")
    assert state.to_act() == (1,)
    assert ("declare",) in state.legal_actions()
    assert settlement(play(state, "declare"))["declarer"] == 1


def test_no_wilds_pays_flat_three_and_six():
    knock = stacked(
        3,
        dealer=2,
        counters=20,
        no_wilds=True,
        hands={0: "GT2 BT2 KT2", 1: "KH1 YB1 GB?", 2: "YC1 GH2 BT1"},
        face_up="RS2",
        stock="YS1 GS1",
    )
    assert knock.game.score(knock.hands[0]) == 32
    done = settlement(play(knock, "knock", "draw", "discard YS1", "draw", "discard GS1"))
    assert [(p["from"], p["due"]) for p in done["payments"]] == [(1, 3), (2, 3)]
    assert done["shown"][0]["wilds"] == 0
    declared = stacked(
        3,
        dealer=2,
        counters=20,
        no_wilds=True,
        hands={0: "GT2 BT2 KT2", 1: "KH1 YB1 GB?", 2: "YC1 GH2 BT1"},
        face_up="RS2",
    )
    done = settlement(play(declared, "declare"))
    assert [(p["from"], p["due"]) for p in done["payments"]] == [(1, 6), (2, 6)]


# --- shown and mucked hands ------------------------------------------------------------------


def test_mucked_hands_reach_only_their_own_seat():
    state = example_deal()
    play(state, "knock", "draw", "discard YS1", "draw")
    events = state.apply_text("discard GS1")
    over = next(e for e in events if e.type == "hand_over")
    mucked = {1: {"KH1", "YB1", "GT2"}, 2: {"YC1", "GH2", "BT1"}}
    for viewer in (None, 0, 1, 2):
        text = str(over.view(viewer))
        for owner, cards in mucked.items():
            for card in cards:
                assert (card in text) == (viewer == owner), (viewer, owner, card)
    for viewer in (0, 1, 2):
        text = str(state.observation(viewer)["last_hand"])
        assert not any(card in text for cards in mucked.values() for card in cards)


# --- elimination, the end, the playoff -----------------------------------------------------


def test_tied_leaders_and_an_owed_player_who_could_reach_them_play_on():
    second_hand = deck_order(
        [2, 3, 1], {2: "BS4 BB4 KB?", 3: "RC1 YH2 GT3", 1: "GC1 BH2 RT3"}, face_up="YS2"
    )
    state = stacked(
        4,
        dealer=3,
        counters=6,
        hands={0: "RC1 YH2 GT3", 1: "RC4 RC3 YH3", 2: "GS4 GS3 BH3", 3: "BC4 BC2 BH4"},
        face_up="RS1",
        stock="YS1 GS1 BS2 RC2 YB?",
        more=[second_hand],
    )
    events = play(state, "knock")
    for card in ("YS1", "GS1", "BS2"):
        events += play(state, "draw", f"discard {card}")
    # Knocker 0 had 6: seat 3 (25) takes 3, seat 2 wins the cut and takes 3, seat 1 gets nothing.
    assert state.counters == [0, 6, 9, 9]
    playoff = next(e for e in events if e["type"] == "playoff")
    assert playoff == {"type": "playoff", "seats": [1, 2, 3], "leaders": [2, 3]}
    assert not state.is_terminal()
    assert state.playoff and state.seats_in == [1, 2, 3]
    assert state.hands[0] == [] and state.observation(0)["hand_sizes"][0] == 0
    assert (state.dealer, state.turn) == (1, 2)
    done = settlement(play(state, "declare"))  # seat 2 was dealt a Thirty-two
    assert [(p["from"], p["paid"]) for p in done["payments"]] == [(3, 6), (1, 6)]
    assert state.counters == [0, 0, 21, 3]
    assert state.is_terminal()
    assert state.results().winners == (2,)
    assert state.results().ranking == ((2,), (3,), (0, 1))


KNOCKS_WITH_14 = "KH1 YB1 GT2"  # 14 points, 2 wilds (a black and a blob)


def test_a_lone_leader_plays_on_with_an_owed_player_who_could_still_catch_him():
    second_hand = deck_order([2, 1], {2: "BS4 BB4 KB?", 1: "RC1 YH2 GT3"}, face_up="YS2")
    state = stacked(
        3,
        dealer=2,
        counters=4,
        hands={0: KNOCKS_WITH_14, 1: "GT4 GT3 KB4", 2: "RC4 RC3 RC2"},  # 31, 2 wilds; 29, none
        face_up="RS1",
        stock="YS1 GS1",
        more=[second_hand],
    )
    events = play(state, "knock", "draw", "discard YS1", "draw", "discard GS1")
    done = settlement(events)
    assert done["payments"] == [
        {"from": 0, "to": 1, "due": 3, "paid": 3},  # the 31 first, in full
        {"from": 0, "to": 2, "due": 5, "paid": 1},  # 3 + (2 - 0 wilds): the knocker's last counter
    ]
    assert state.counters == [0, 7, 5] and done["owed"] == [0, 0, 4]
    # Seat 1 leads alone, but seat 2 is 2 behind and was left owed 4: both play on.
    playoff = next(e for e in events if e["type"] == "playoff")
    assert playoff == {"type": "playoff", "seats": [1, 2], "leaders": [1]}
    assert state.game.describe_event(playoff, ["Ann", "Bea", "Cy"]) == (
        "Bea leads, but Cy was left owed enough counters to catch up. "
        "They play on until one player has the most."
    )
    assert not state.is_terminal() and state.playoff and state.seats_in == [1, 2]
    assert (state.hand_no, state.dealer, state.turn) == (2, 1, 2)
    done = settlement(play(state, "declare"))  # seat 2 was dealt a Thirty-two
    assert done["payments"] == [{"from": 1, "to": 2, "due": 6, "paid": 6}]
    assert state.counters == [0, 1, 11]
    assert state.is_terminal() and state.results().winners == (2,)


@pytest.mark.parametrize(
    ("second", "owed", "plays_on"),
    [
        ("YT4 YT3 YT1", 4, True),  # 28, no wild: due 3 + 2, paid 1, owed 4 = the gap
        ("YT4 YT3 KT1", 3, False),  # 28, one wild: due 3 + 1, paid 1, owed 3 < the gap
    ],
)
def test_an_owed_player_plays_on_only_if_owed_at_least_the_gap(second, owed, plays_on):
    state = stacked(
        3,
        dealer=2,
        counters=6,
        hands={0: KNOCKS_WITH_14, 1: "RC4 RC3 RC2", 2: second},  # 29 without wilds: due 5
        face_up="RS1",
        stock="YS1 GS1",
    )
    events = play(state, "knock", "draw", "discard YS1", "draw", "discard GS1")
    assert state.counters == [0, 11, 7]  # seat 2 is 4 behind
    assert settlement(events)["owed"] == [0, 0, owed]
    assert state.is_terminal() is not plays_on
    if plays_on:
        assert state.seats_in == [1, 2] and state.playoff
    else:
        assert state.results().winners == (1,)


@pytest.mark.parametrize(
    ("knocker", "owed", "plays_on"),
    [
        ("KH1 YB1 GT?", 4, True),  # 17 points, 3 wilds: owes the 29 3 + 3, pays 2
        (KNOCKS_WITH_14, 3, False),  # 14 points, 2 wilds: owes the 29 3 + 2, pays 2
    ],
)
def test_each_later_hand_counts_only_what_that_hand_left_owed(knocker, owed, plays_on):
    second_hand = deck_order(
        [2, 3, 1],
        {2: knocker, 3: "RC4 RC3 RC2", 1: "GT4 KT3 KB4"},  # 29; 31 with 3 wilds
        face_up="YS2",
        stock="YS1 GS1",
    )
    state = stacked(
        4,
        dealer=3,
        counters=4,
        hands={0: KNOCKS_WITH_14, 1: "GT4 GT3 KB4", 2: "RC4 RC3 RC2", 3: "YT4 YT3 KB1"},
        face_up="RS1",
        stock="YS1 GS1 BS1",
        more=[second_hand],
    )
    events = play(state, "knock")
    for card in ("YS1", "GS1", "BS1"):
        events += play(state, "draw", f"discard {card}")
    # The knocker's 4 counters: 3 to the 31, 1 of 5 to the 29, none of 3 to the 28 (2 wilds).
    assert state.counters == [0, 7, 5, 4]
    assert settlement(events)["owed"] == [0, 0, 4, 3]
    # Seat 2 is 2 behind (owed 4), seat 3 exactly as far behind as it is owed: both play on.
    playoff = next(e for e in events if e["type"] == "playoff")
    assert playoff == {"type": "playoff", "seats": [1, 2, 3], "leaders": [1]}
    assert (state.dealer, state.turn) == (1, 2)
    # Seat 2 knocks and loses to both; its 5 counters pay the 31 in full and the 29 two.
    events = play(state, "knock", "draw", "discard YS1", "draw", "discard GS1")
    assert state.counters == [0, 10, 0, 6]  # seat 3 is 4 behind
    assert settlement(events)["owed"] == [0, 0, 0, owed]
    # Only this hand's unpaid counters count: the 3 seat 3 was owed before are lost.
    assert state.is_terminal() is not plays_on
    if plays_on:
        playoff = next(e for e in events if e["type"] == "playoff")
        assert playoff == {"type": "playoff", "seats": [1, 3], "leaders": [1]}
    else:
        assert state.results().winners == (1,)


def test_open_end_players_who_run_out_sit_out_until_one_holds_every_counter():
    state = example_deal(counters=2, end="open")
    play(state, *LAST_ROUND)
    assert state.counters == [6, 0, 0]
    assert state.is_terminal()  # one player holds every counter
    assert state.results().winners == (0,)


def test_open_end_sitting_out_skipped_deal_and_closing_the_table():
    state = stacked(
        4,
        dealer=3,
        counters=4,
        end="open",
        hands={0: "KC4 RC4 RC3", 1: "KH1 YB1 GT2", 2: "YC1 GH2 BT1", 3: "GC1 BS2 RT4"},
        face_up="RS2",
        stock="YS1 GS1 BS1",
    )
    play(state, "knock")
    for card in ("YS1", "GS1", "BS1"):
        play(state, "draw", f"discard {card}")
    assert state.counters == [14, 0, 1, 1]  # seat 1 owed 4 and had 4; the others paid 3
    assert not state.is_terminal()
    assert state.seats_in == [0, 2, 3] and state.hands[1] == []
    assert (state.dealer, state.turn) == (0, 2)  # the deal passes on; seat 1 sits out
    play(state, "knock")
    while state.hand_no == 2:
        play(state, "draw")
        state.apply(state.legal_actions()[0])
    if not state.is_terminal():
        # The deal passes left from seat 0 to the next seat still playing (never seat 1).
        assert state.dealer == next(s for s in (1, 2, 3, 0) if s in state.seats_in)
        assert state.legal_actions(TABLE) == [("close",)]
        events = state.apply(("close",), TABLE)
        assert [e.type for e in events] == ["closed", "game_over"]
    assert state.is_terminal()
    top = max(state.counters)
    assert state.results().winners == tuple(s for s in range(4) if state.counters[s] == top)


def test_close_is_only_for_open_tables():
    state = ThirtyTwo(3).new_state(seed=2)
    assert state.legal_actions(TABLE) == []
    with pytest.raises(IllegalActionError, match="only an open-ended table"):
        state.apply(("close",), TABLE)


def test_a_player_closes_an_open_table_as_the_table_never_as_the_clock():
    state = ThirtyTwo(3, end="open").new_state(seed=2)
    assert state.legal_actions(TABLE) == [("close",)] and state.legal_actions(CLOCK) == []
    refused(state, ("close",), CLOCK, "'close' is not the clock's: no timed phase is running")
    seat = state.to_act()[0]
    refused(state, ("close",), seat, "closing the table is not a player's action")
    events = state.apply(("close",), TABLE)
    assert [e.type for e in events] == ["closed", "game_over"]
    assert state.history == [(TABLE, ("close",))] and state.is_terminal()


def test_first_elimination_ends_the_game_after_that_hand():
    state = example_deal(counters=3)
    play(state, *LAST_ROUND)
    assert state.counters == [9, 0, 0]
    assert state.is_terminal() and state.results().winners == (0,)
    assert state.to_act() == ()
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply(("draw",), 0)


# --- bad input changes nothing ---------------------------------------------------------------


def test_bad_actions_are_refused_with_a_reason_and_change_nothing():
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?")
    before = state.dump()
    cases = [
        (("discard", 0, False), IllegalActionError, "take the face-up card or draw"),
        (("draw",), IllegalActionError, None),
        (("fly",), MalformedActionError, "unknown action 'fly'"),
        (("discard",), MalformedActionError, "takes 2 argument"),
        ("draw", MalformedActionError, "non-empty tuple"),
        ((), MalformedActionError, "non-empty tuple"),
    ]
    for action, error, message in cases:
        seat = 1 if action == ("draw",) else None
        with pytest.raises(error, match=message or "not seat 1's turn"):
            state.apply(action, seat)
        assert state.dump() == before
    with pytest.raises(MalformedActionError, match="not a card"):
        state.apply_text("discard ZZ9")
    with pytest.raises(IllegalActionError, match="there is no seat 9"):
        state.apply(("draw",), 9)
    play(state, "draw")
    with pytest.raises(IllegalActionError, match="YS4 is not in your hand"):
        state.apply_text("discard YS4")
    with pytest.raises(IllegalActionError, match="discard one first"):
        state.apply_text("knock")


def test_stacked_decks_and_setup_are_validated():
    game = ThirtyTwo(3)
    with pytest.raises(InvalidOptionError, match="same card twice"):
        game.new_state(decks=[["RC1", "RC1"]])
    with pytest.raises(InvalidOptionError, match="not a card"):
        game.new_state(decks=[["RC9"]])
    with pytest.raises(InvalidOptionError, match="dealer must be a seat"):
        game.new_state(dealer=5)
    with pytest.raises(InvalidOptionError, match="no setup value 'x'"):
        game.new_state(x=1)


def test_each_discard_previews_the_score_and_the_wilds_it_keeps():
    state = stacked(
        3,
        dealer=2,
        counters=20,
        hands={0: "RC1 YH2 GT3", 1: "BS4 BB4 RC2", 2: "YC1 GS2 BT1"},
        face_up="RS1",
        stock="KB?",
    )
    assert [state.preview(a, 0) for a in state.legal_actions()] == [None, None, None]
    play(state, "knock", "draw")
    previews = {state.game.action_to_text(a): state.preview(a, 1) for a in state.legal_actions()}
    assert previews == {
        "discard BS4": "keeps 26, 4 wilds",
        "discard BB4": "keeps 21, 3 wilds",
        "discard RC2": "keeps 32, 4 wilds",
        "discard KB?": "keeps 20, 1 wild",
        "discard RC2 declare": "keeps 32, 4 wilds",
    }


def test_hints_give_the_draws_odds_and_the_take_from_what_the_seat_knows():
    state = stacked(
        3, dealer=0, hands={1: "BS4 BS3 KS?", 2: "RC1 YH2 GT3", 0: "YC1 GS2 BT1"}, face_up="RS1"
    )
    # A Thirty-two cannot improve: every one of the 121 cards seat 1 has not seen keeps it.
    assert state.hints(1) == {
        "draw": {"value": 32, "unseen": 121, "improve": 0, "mean": 32.0},
        "take": {"card": "RS1", "value": 32},
    }
    assert state.hints(None) == {}
    play(state, "take", "discard BS3")
    # RS1 now lies in seat 1's hand, known to the table, and BS3 is face up.
    assert state.hints(2)["draw"]["unseen"] == 120
    assert state.hints(2)["take"]["card"] == "BS3"
