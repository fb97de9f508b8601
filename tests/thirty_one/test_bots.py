"""Thirty-One bots: legal, deterministic, fair (observation only) and sensible."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.bots import LEVEL_ORDER, SeatView, bot_names, make_bot
from tripletopper.bots.thirty_one import (
    ThirtyOnePlayout,
    chances,
    expected_places,
    expected_standings,
)
from tripletopper.cards import STANDARD
from tripletopper.engine import Rng
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_one.rules import DRAW, KNOCK, TAKE
from tripletopper.runner import simulate

from .helpers import JUNK, dealt_31, declare_dealt, play, stacked


def test_bots_on_offer():
    assert bot_names("thirty-one") == [*LEVEL_ORDER, "heuristic", "ismcts", "random"]


@settings(max_examples=25)
@given(
    st.integers(0, 2**31),
    st.integers(2, 9),
    st.sampled_from(["heuristic", "random"]),
    st.booleans(),
)
def test_decisions_depend_only_on_the_seats_view(seed, players, name, manual):
    """The same bot facing a state resampled for its seat decides the same: it cannot
    be using anything its seat does not know."""
    game = ThirtyOne(players, manual_31=manual)
    state = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        twin = state.resample(seat, rng)
        a = make_bot(name, game, seat, seed).choose(SeatView(state, seat))
        b = make_bot(name, game, seat, seed).choose(SeatView(twin, seat))
        assert a == b
        assert a in state.legal_actions(seat)
        state.apply(a, seat)


def test_heuristic_beats_random_clearly():
    report = simulate(ThirtyOne(4), ["heuristic", "random"], 60, seed=5).by_bot()
    assert report["heuristic"]["win_rate_per_seat"] > 0.4
    assert report["random"]["win_rate_per_seat"] < 0.1
    assert report["heuristic"]["mean_rank"] < report["random"]["mean_rank"]


def choice(state, seat=None):
    seat = state.to_act()[0] if seat is None else seat
    action = make_bot("heuristic", state.game, seat, 0).choose(SeatView(state, seat))
    return state.game.action_to_text(action)


def test_heuristic_takes_the_discard_that_makes_31_and_keeps_it():
    state = stacked(3, dealer=2, deals=[({0: "AS KS 2D", 1: "2C 3D 4H", 2: "5C 6D 7H"}, "QS", "")])
    assert choice(state) == "take"
    play(state, "take")
    assert choice(state) == "discard 2D"  # never the card just taken


def test_heuristic_never_throws_back_the_card_it_took():
    # Taking 2D is poor, but once taken the bot must keep it, even as its worst card.
    state = stacked(3, dealer=2, deals=[({0: "AS KS QD", 1: "2C 3D 4H", 2: "5C 6D 7H"}, "2H", "")])
    play(state, "take")
    assert choice(state) != "discard 2H"


def test_heuristic_declares_31_with_manual_31():
    deal = ({0: "2C 3D 4H", 1: "AS KS QS", 2: "5C 6D 7H"}, "9S", "")
    state = stacked(3, dealer=2, deals=[deal], manual_31=True)
    assert choice(state) == "play"  # seat 0, without a 31
    state.apply(("play",))
    assert choice(state) == "declare"  # seat 1
    later = ({0: "AS KS 2D", 1: "2C 3D 4H", 2: "5C 6D 7H"}, "9S", "QS")
    state = stacked(3, dealer=2, deals=[later], manual_31=True)
    for seat in (0, 1, 2):
        state.apply(("play",), seat)
    play(state, "draw")
    assert choice(state) == "discard 2D declare"


def test_heuristic_stops_on_an_empty_stock_unless_taking_improves():
    for seed in range(10):  # seeds 3, 8 and 9 leave a heart on top: a take
        state = stacked(2, dealer=1, deals=[({0: "2C 3D 4S", 1: "AH KH 9C"}, "9S", "")], seed=seed)
        while state.stock.size:
            seat = state.to_act()[0]
            play(state, "draw")
            play(state, f"discard {state.game.deck.format(state.hands[seat][-1])}")
        seat = state.to_act()[0]
        a, b, c = state.hands[seat]
        top = state.pile[-1]
        value = state.game.value
        better = max(value([a, b, top]), value([a, c, top]), value([b, c, top])) > value([a, b, c])
        assert choice(state) == ("take" if better else "stop")


KNOCKER = {1: "2C 3D 4H", 2: "2D 3H 4S"}


def test_heuristic_knocks_by_its_value():
    weak = stacked(3, dealer=2, deals=[({0: "8S 2S 5H", **KNOCKER}, "9H", "")])  # 10
    strong = stacked(3, dealer=2, deals=[({0: "AS KS 5H", **KNOCKER}, "9H", "")])  # 21
    assert choice(weak) != "knock"
    assert choice(strong) == "knock"


def test_heuristic_knock_depends_on_the_tables_lives():
    """16 on the first turn is a knock with every organ, not with one organ left (a knocker
    alone lowest loses two lives: out, where a normal loss would not be); 15 is a knock
    only when both opponents are circling the drain (one loss puts them out)."""
    sixteen = ({0: "9S 7S 5H", **KNOCKER}, "9H", "")
    fifteen = ({0: "8S 7S 5H", **KNOCKER}, "9H", "")
    fresh = stacked(3, dealer=2, deals=[sixteen])
    assert fresh.lives == [4, 4, 4] and choice(fresh) == "knock"
    one_organ = stacked(3, dealer=0, deals=[dealt_31(1, 3), dealt_31(1, 3), sixteen])
    declare_dealt(one_organ)
    declare_dealt(one_organ)
    assert one_organ.lives == [2, 4, 2] and one_organ.to_act() == (0,)
    assert choice(one_organ) != "knock"
    assert choice(stacked(3, dealer=2, deals=[fifteen])) != "knock"
    draining = stacked(3, dealer=2, deals=[dealt_31(0, 3)] * 3 + [fifteen])
    for _ in range(3):
        declare_dealt(draining)
    assert draining.lives == [4, 1, 1] and draining.to_act() == (0,)
    assert choice(draining) == "knock"


def test_bots_remember_the_squared_pile_from_the_events_they_saw():
    """Observations show only the pile's top; each level's heuristic rebuilds the pile
    from its seat's events.  The first hand's face-up card was dealt before any event,
    so it is known again only from the next deal on."""
    state = stacked(3, dealer=2, deals=[({0: JUNK[0], 1: JUNK[1], 2: JUNK[2]}, "9S", "")])
    bots = [make_bot(level, state.game, 1, 7) for level in ("easy", "medium", "hard")]

    def check(whole: bool) -> None:
        obs = state.observation(1)
        for bot in bots:
            inside = getattr(bot, "inner", None) or getattr(bot, "fallback", None) or bot
            known = inside.discards.pile(obs["discard_top"], obs["discard_size"])
            assert known == state.pile[0 if whole else 1 :]

    def turn(take: bool) -> None:
        seat = state.to_act()[0]
        events = state.apply(TAKE if take else DRAW, seat)
        events += state.apply(("discard", state.hands[seat][0 if take else -1], False), seat)
        for bot in bots:
            bot.observe([event.view(1) for event in events])

    for number in range(30):
        turn(take=number % 5 == 3)
        check(whole=False)
    assert state.hand_no == 1 and len(state.pile) > 20
    events = state.apply(KNOCK, state.to_act()[0])
    while state.hand_no == 1:
        seat = state.to_act()[0]
        events += state.apply(DRAW, seat)
        events += state.apply(("discard", state.hands[seat][-1], False), seat)
    for bot in bots:
        bot.observe([event.view(1) for event in events])
    for number in range(6):  # the next hand: every bot saw its deal
        turn(take=number == 2)
        check(whole=True)


def test_random_bot_is_deterministic_by_seed():
    game = ThirtyOne(5)
    runs = [simulate(game, ["random"], 30, seed=8).to_json() for _ in range(2)]
    for run in runs:
        del run["seconds"], run["actions_per_second"]
    assert runs[0] == runs[1]


def test_playouts_do_not_declare_a_31_that_was_not_declared_when_made():
    # Seat 0 plays on past its dealt 31 and draws: throwing the drawn card keeps
    # that 31, which counts 30 now and may not be declared (the playout did).
    state = stacked(
        2, dealer=1, manual_31=True, deals=[({0: "AS KS QS", 1: "AD KD 9D"}, "9S", "2C 3C")]
    )
    play(state, "play", "play", "draw")
    action = ThirtyOnePlayout(state.game, 0, 1).choose(SeatView(state, 0).sample(Rng(1)))
    assert action == ("discard", STANDARD.parse("2C"), False)
    assert action in state.legal_actions(0)


def test_heads_up_search_rewards_the_chance_to_win_the_game():
    """Two lives against four win one time in three (every later hand a coin toss): a
    knocker found lowest at four lives each (down to two) loses 3/7 - 1/3 of a game more
    than by one life, where a ranking by lives saw almost no difference."""
    state = stacked(2, dealer=1, deals=[dealt_31(1, 2), dealt_31(1, 2), dealt_31(0, 2)])
    assert chances(state, state) == [0.5, 0.5]
    declare_dealt(state)
    declare_dealt(state)
    assert state.lives == [2, 4]
    assert chances(state, state) == [2 / 6, 4 / 6]
    level = stacked(2, dealer=1, deals=[({0: "AS KS 5H", 1: "2C 3D 4H"}, "9H", "")])
    knocked_lowest, lost_one = level.clone(), level.clone()
    knocked_lowest.lives, lost_one.lives = [2, 4], [3, 4]
    loss = chances(level, lost_one)[0] - chances(level, knocked_lowest)[0]
    assert loss == pytest.approx(3 / 7 - 1 / 3)
    over = stacked(2, dealer=1, deals=[dealt_31(1, 2)] * 4)
    for _ in range(4):
        declare_dealt(over)
    assert over.is_terminal() and chances(over, over) == [0.0, 1.0]


def test_expected_places_when_every_hand_costs_one_player_alike_a_life():
    """Worked by hand: level players share the places; one life against two finishes
    second when it loses the next hand (1/2) and otherwise plays a coin toss for first."""
    assert expected_places((1, 1, 1)) == (0.0, 2.0)
    assert expected_places((1, 2)) == (0.0, 1.75, 1.25)
    assert expected_places((4, 4, 4, 4))[4] == 2.5
    # at four lives each, a knocker found lowest (two lives) ends lower than a loser of one
    assert expected_places((3, 4, 4, 4))[3] == pytest.approx(95 / 32)
    assert expected_places((2, 4, 4, 4))[2] == pytest.approx(55 / 16)


@settings(max_examples=60)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=8))
def test_expected_places_share_out_the_places(lives):
    """Whatever the lives, the expected places of the players add up to 1 + 2 + ... + k,
    and more lives never place a player lower."""
    lives = sorted(lives)
    places = expected_places(tuple(lives))
    assert sum(places[v] for v in lives) == pytest.approx(len(lives) * (len(lives) + 1) / 2)
    held = sorted(set(lives))
    assert all(places[a] >= places[b] - 1e-9 for a, b in pairwise(held))


def test_search_with_more_players_rewards_the_expected_place():
    """Four players: the rewards come from the expected places of the players still in,
    the players out ranked below them by when they went out (later is better); once the
    game is over, from its ranking."""
    hands = {0: "AS KS 5H", 1: "2C 3D 4H", 2: "2D 3H 4S", 3: "5C 6D 7H"}
    state = stacked(4, dealer=3, deals=[(hands, "9H", "")])
    state.lives = [4, 4, 4, 4]
    assert expected_standings(state, state) == pytest.approx([0.5] * 4)
    state.lives = [2, 4, 4, 4]
    mine = expected_standings(state, state)
    assert mine[0] == pytest.approx((4 - 55 / 16) / 3)
    assert sum(mine) == pytest.approx(2.0)
    state.lives, state.elim_hand = [0, 3, 0, 1], [5, 0, 2, 0]
    places = expected_places((1, 3))
    assert expected_standings(state, state) == pytest.approx(
        [(4 - 3) / 3, (4 - places[3]) / 3, 0.0, (4 - places[1]) / 3]
    )
    over = stacked(2, dealer=1, deals=[dealt_31(1, 2)] * 4)
    for _ in range(4):
        declare_dealt(over)
    assert expected_standings(over, over) == [0.0, 1.0]


def test_searching_levels_compare_their_moves_on_paired_playouts_heads_up():
    """With two players hard plays every move out from the same sampled worlds, as many
    times each; with three it grows its tree (UCB spends more on the better moves)."""
    deal = {0: "AS KS 5H", 1: "2C 3D 4H", 2: "2D 3H 4S"}
    heads_up = stacked(2, dealer=1, deals=[({0: deal[0], 1: deal[1]}, "9H", "")])
    bot = make_bot("hard", heads_up.game, 0, 3)
    bot.search(SeatView(heads_up, 0))
    assert bot.last.root_visits == {"take": 133, "draw": 133, "knock": 133}
    three = stacked(3, dealer=2, deals=[(deal, "9H", "")])
    bot = make_bot("hard", three.game, 0, 3)
    bot.search(SeatView(three, 0))
    visits = bot.last.root_visits
    assert sum(visits.values()) == 100 and len(set(visits.values())) > 1
    # A spec may switch the paired comparison on or off (``paired=``): the budget stays.
    bot = make_bot("hard:paired=4", three.game, 0, 3)
    bot.search(SeatView(three, 0))
    assert bot.last.root_visits == {"take": 33, "draw": 33, "knock": 33}
    bot = make_bot("hard:paired=0", heads_up.game, 0, 3)
    bot.search(SeatView(heads_up, 0))
    visits = bot.last.root_visits
    assert sum(visits.values()) == 400 and len(set(visits.values())) > 1


def test_hard_searches_less_with_three_players_or_more():
    """Hard's budget: 400 heads-up, 100 with more players (where 400 were no weaker
    than expert's 1500); expert keeps 1500 at every table."""
    for players, hard in ((2, 400), (3, 100), (4, 100), (9, 100)):
        game = ThirtyOne(players=players)
        assert make_bot("hard", game, 0, 0).iterations == hard  # type: ignore[attr-defined]
        assert make_bot("expert", game, 0, 0).iterations == 1500  # type: ignore[attr-defined]
        assert make_bot("hard:iterations=700", game, 0, 0).iterations == 700  # type: ignore[attr-defined]
