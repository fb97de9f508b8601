"""3UP 3DOWN bots: legal, deterministic, fair (observation only) and sensible."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.bots import LEVEL_ORDER, SeatView, bot_names, make_bot
from tripletopper.bots.three_up_three_down import (
    PLAYOUT_PLIES,
    choice_shortlist,
    evaluate,
    horizon,
    standings,
)
from tripletopper.engine import Rng
from tripletopper.games.three_up_three_down import ThreeUpThreeDown, ThreeUpThreeDownState
from tripletopper.runner import play_game, simulate

from .helpers import arranged, stacked

GAME = "three-up-three-down"


def decide(state, seat=None, **params):
    seat = state.to_act()[0] if seat is None else seat
    spec = "heuristic" + "".join(f":{k}={v}" for k, v in params.items())
    action = make_bot(spec, state.game, seat, 0).choose(SeatView(state, seat))
    return state.game.action_to_text(action)


def test_bots_on_offer():
    assert bot_names(GAME) == [*LEVEL_ORDER, "heuristic", "ismcts", "random"]


@settings(max_examples=25)
@given(st.integers(0, 2**31), st.integers(2, 6), st.sampled_from(["heuristic", "random"]))
def test_decisions_depend_only_on_the_seats_view(seed, players, name):
    """The same bot facing a state resampled for its seat decides the same: it cannot
    be using anything its seat does not know."""
    game = ThreeUpThreeDown(players)
    state = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(120):
        if state.is_terminal():
            break
        seat = state.to_act()[rng.below(len(state.to_act()))]
        twin = state.resample(seat, rng)
        a = make_bot(name, game, seat, seed).choose(SeatView(state, seat))
        b = make_bot(name, game, seat, seed).choose(SeatView(twin, seat))
        assert a == b
        assert a in state.legal_actions(seat)
        state.apply(a, seat)


def test_heuristic_beats_random_clearly():
    four = simulate(ThreeUpThreeDown(4), ["heuristic", "random"], 150, seed=5).by_bot()
    assert four["heuristic"]["win_rate_per_seat"] > 0.35
    assert four["random"]["win_rate_per_seat"] < 0.15
    two = simulate(ThreeUpThreeDown(2), ["heuristic", "random"], 150, seed=5).by_bot()
    assert two["heuristic"]["win_rate_per_seat"] > 0.75


def test_heuristic_lays_its_strongest_cards_face_up():
    state = stacked(2, {0: "1 1 1", 1: "2 2 2"}, {0: "3 4 9 8 10 C", 1: "3 5 9 9 C+1 C+2"})
    assert decide(state, 0) == "choose 9 10 C"
    assert decide(state, 1) == "choose 9 C+1 C+2"


def test_heuristic_sheds_the_lowest_value_with_all_its_copies():
    state = arranged(2, hands={0: "9 4 4 C 6", 1: "5 8"}, pile="3")
    assert decide(state) == "play 4 4"


def test_heuristic_saves_clears_unless_stuck_or_the_pile_is_big():
    small = arranged(2, hands={0: "9 C", 1: "5 8"}, pile="3 4")
    assert decide(small) == "play 9"
    stuck = arranged(2, hands={0: "2 C+1 C", 1: "5 8"}, pile="3 4")
    assert decide(stuck) == "play C"  # the cheapest Clear
    big = arranged(
        2, hands={0: "9 C", 1: "5 8 C+2"}, pile="2 3 4 5 6", stock="10 10 10 C C 1 1"
    )  # plenty of unseen cards could answer a 9: clear the big pile
    assert decide(big) == "play C"
    assert decide(big, big=8) == "play 9"


def test_heuristic_counts_cleared_cards_to_trap_the_next_player():
    # A big pile, and the next player must answer a 10 with two unseen cards.  Every
    # other 10 and Clear is out of the game, so the 10 is played and the Clear kept:
    # the next player cannot beat it and takes the pile.
    state = arranged(
        2, hands={0: "10 C", 1: "2 3"}, pile="2 3 4 5 6", stock="1 1 1 1"
    )  # everything not listed (other 10s, all Clears but ours) is out of the game
    assert decide(state) == "play 10"
    # With many unseen 10s and Clears around, it clears the big pile instead.
    loose = arranged(
        2, hands={0: "10 C", 1: "2 3"}, pile="2 3 4 5 6", stock="10 10 10 10 C C C C+1 C+1 1"
    )
    assert decide(loose) == "play C"


def test_heuristic_completes_a_run_to_clear_a_pile_for_free():
    state = arranged(2, hands={0: "5 7 C", 1: "5 8"}, pile="2 3 7 7")
    assert decide(state) == "play 7"


def test_heuristic_draws_before_an_extra_play_only_while_it_costs_nothing():
    few = arranged(2, hands={0: "C+1 4 9", 1: "5 8"}, pile="3", stock="2 6 6")
    few.apply_text("play C+1")
    assert decide(few) == "draw"
    many = arranged(2, hands={0: "C+1 4 9 9 8", 1: "5 8"}, pile="3", stock="2 6 6")
    many.apply_text("play C+1")
    assert decide(many) == "play 4"


def test_random_bot_is_deterministic_by_seed():
    game = ThreeUpThreeDown(4)
    runs = [simulate(game, ["random"], 30, seed=8).to_json() for _ in range(2)]
    for run in runs:
        del run["seconds"], run["actions_per_second"]
    assert runs[0] == runs[1]


def test_search_counts_an_endgame_playout_that_does_not_finish_as_worth_nothing():
    """Issue 15: by cards left at a horizon, a pile passed back and forth looked better
    than lines that finish, sometimes with a loss; now only finishing counts."""
    endgame = arranged(2, hands={0: "7", 1: "2 5 5 10 10"}, up={0: "9 9"}, down={0: "6", 1: "7"})
    assert evaluate(endgame, endgame.clone()) == [0.0, 0.0]  # unfinished: worse than a loss
    assert standings(endgame, endgame.clone())[0] == pytest.approx(0.925)  # it used to lead
    won = arranged(2, hands={1: "2 5"}, down={0: "9", 1: "7"})
    root = won.clone()
    won.apply_text("flip")
    assert won.is_terminal()
    assert evaluate(root, won) == pytest.approx([0.9375, 0.075])  # a win, by one card
    # With a stock left too: playouts run to the end, cards left at a horizon count for
    # nothing (they hardly tell who wins while there is a stock).
    midgame = arranged(2, hands={0: "7", 1: "2 5 5"}, stock="3 4")
    assert evaluate(midgame, midgame.clone()) == [0.0, 0.0]
    assert not horizon(midgame, midgame) and PLAYOUT_PLIES >= 150  # a whole game


def test_searching_levels_play_the_heuristic_until_the_stock_is_down_to_30_cards():
    """Early play decides little (``SEARCH_STOCK``): hard keeps its budget for the end."""
    stock = [value for value in ("1", "2", "6", "7", "10") for _ in range(7)]
    early = arranged(2, hands={0: "4 9 C", 1: "5 8"}, pile="3", stock=" ".join(stock[:31]))
    late = arranged(2, hands={0: "4 9 C", 1: "5 8"}, pile="3", stock=" ".join(stock[:30]))
    for state, searched in ((early, False), (late, True)):
        bot = make_bot("hard:iterations=60", state.game, 0, 0)
        action = bot.choose(SeatView(state, 0))
        assert (bot.last.iterations > 0) is searched
        if not searched:
            assert state.game.action_to_text(action) == decide(state) == "play 4"


def test_hard_searches_a_twelfth_of_experts_playouts():
    """Hard's 400 (docs/bots.md, "3UP 3DOWN: hard's budget"), shared among its moves on
    the same worlds; expert's 4800."""
    stock = [value for value in ("1", "2", "6", "7", "10") for _ in range(6)]
    state = arranged(2, hands={0: "4 9 C", 1: "5 8"}, pile="3", stock=" ".join(stock))
    visits = {}
    for level in ("hard", "expert"):
        bot = make_bot(level, state.game, 0, 0)
        bot.choose(SeatView(state, 0))
        visits[level] = bot.last.root_visits
    assert visits["hard"] == {"play 4": 133, "play 9": 133, "play C": 133}  # 400 // 3 each
    assert visits["expert"] == {"play 4": 1600, "play 9": 1600, "play C": 1600}


def test_hard_searches_less_with_three_players_or_more():
    """Hard's budget: 400 heads-up, 100 with more players (where expert was no stronger
    than 400); expert keeps 4800 at every table; a spec still overrides it."""
    for players, hard in ((2, 400), (3, 100), (4, 100)):
        game = ThreeUpThreeDown(players=players)
        assert make_bot("hard", game, 0, 0).iterations == hard  # type: ignore[attr-defined]
        assert make_bot("expert", game, 0, 0).iterations == 4800  # type: ignore[attr-defined]
        assert make_bot("hard:iterations=700", game, 0, 0).iterations == 700  # type: ignore[attr-defined]


def test_hard_bot_plays_out_a_won_endgame_instead_of_going_round_in_circles():
    """Issue 15: from here the old search played 10 10 (the medium bot picks up, the
    hard bot later picks its 10s back up ...) for 179 to 1031 turns; it now finishes."""
    state = arranged(
        2, hands={0: "7 10 10", 1: "5 5"}, up={0: "9 9"}, down={0: "6 2 C", 1: "7 C"}, pile="2"
    )
    state.known[1] = set(state.hands[1])  # picked up: everyone saw them
    bots = [make_bot("hard", state.game, 0, 0), make_bot("medium", state.game, 1, 0)]
    end = play_game(state.game, bots, 0, state=state)
    assert end.turns < 40
    assert end.results().winners == (0,)


def circle() -> ThreeUpThreeDownState:
    """Two hard bots passed this pile back and forth until the turn limit (issue 15):
    each plays its highest card so that the other picks up, expecting its playouts'
    weaker reply."""
    state = arranged(
        2, hands={0: "6 8 9", 1: "1 2 8"}, up={1: "5 6 6"}, down={0: "8 C+2", 1: "4 4 8"}, turn=1
    )
    for seat in range(2):
        state.known[seat] = set(state.hands[seat])  # picked up: everyone saw them
    return state


def test_hard_bot_varies_its_move_when_play_comes_back_round_to_a_position():
    state = circle()
    bot = make_bot("hard", state.game, 1, 0)
    moves = [bot.choose(SeatView(state, 1)) for _ in range(3)]
    assert sorted(moves) == sorted(state.legal_actions(1))  # each move once


def test_two_hard_bots_do_not_go_round_in_circles():
    state = circle()
    bots = [make_bot("hard", state.game, seat, seat) for seat in range(2)]
    end = play_game(state.game, bots, 0, state=state)
    assert end.turns < 100


def test_expert_searches_its_choice_of_cards_up_among_swaps_of_the_heuristics():
    state = stacked(2, {0: "1 1 1", 1: "2 2 2"}, {0: "3 4 9 8 10 C", 1: "3 5 9 9 C+1 C+2"})
    view = SeatView(state, 0)
    shortlist = choice_shortlist(view, view.legal_actions())
    assert [state.game.action_to_text(a) for a in shortlist] == [
        "choose 9 10 C",
        "choose 8 9 10",
        "choose 4 9 10",
        "choose 3 9 10",
        "choose 8 9 C",
        "choose 4 9 C",
        "choose 3 9 C",
        "choose 8 10 C",
        "choose 4 10 C",
        "choose 3 10 C",
    ]
    expert = make_bot("expert:iterations=100", state.game, 0, 0)
    assert expert.choose(view) in shortlist
    assert sorted(expert.last.root_visits) == sorted(
        state.game.action_to_text(a) for a in shortlist
    )  # every choice played out on the same 10 worlds
    hard = make_bot("hard:iterations=100", state.game, 0, 0)
    assert state.game.action_to_text(hard.choose(view)) == "choose 9 10 C"
    assert hard.last.iterations == 0  # hard leaves the choice to the heuristic
