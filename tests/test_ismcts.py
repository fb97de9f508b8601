"""ISMCTS: legal, deterministic for a seed, sensible, and polite in several-seats phases."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tripletopper.bots import SeatView, make_bot
from tripletopper.bots.base import RandomBot
from tripletopper.bots.ismcts import ISMCTSBot, SearchSpec
from tripletopper.bots.thirty_two import SEARCH, ThirtyTwoHeuristic
from tripletopper.bots.toe import SEARCH as TOE_SEARCH
from tripletopper.games.thirty_two import ThirtyTwo

from .test_simultaneous import Buzz, Buzzer
from .thirty_two.helpers import stacked
from .toe.helpers import preset
from .toe.helpers import stacked as toe_stacked


def hard(state, seat, seed=1, iterations=200):
    return ISMCTSBot(
        state.game,
        seat,
        seed,
        iterations=iterations,
        spec=SEARCH,
        fallback=ThirtyTwoHeuristic(state.game, seat, seed),
    )


def test_same_seed_same_search_and_always_legal():
    game = ThirtyTwo(4)
    state = game.new_state(seed=5)
    for _ in range(12):
        seat = state.current_seat()
        a = hard(state, seat).choose(SeatView(state, seat))
        b = hard(state, seat).choose(SeatView(state, seat))
        assert a == b and a in state.legal_actions()
        state.apply(a)


def test_declares_a_thirty_two_and_knocks_a_strong_hand():
    others = {1: "YC1 GS2 BT1", 2: "GC1 BS2 RT1"}
    declare = stacked(3, dealer=2, hands={0: "BS4 BS3 KS?", **others}, face_up="YS1")
    assert hard(declare, 0).choose(SeatView(declare, 0)) == ("declare",)
    strong = stacked(3, dealer=2, hands={0: "RC4 RC3 KC2", **others}, face_up="YS1")
    assert hard(strong, 0).choose(SeatView(strong, 0)) == ("knock",)
    weak = stacked(3, dealer=2, hands={0: "RC1 YH2 GT3", **others}, face_up="YS1")
    assert hard(weak, 0).choose(SeatView(weak, 0)) != ("knock",)


def test_decisions_depend_only_on_the_seats_view():
    game = ThirtyTwo(4)
    state = game.new_state(seed=9)
    from tripletopper.engine import Rng

    rng = Rng(3)
    for _ in range(8):
        seat = state.current_seat()
        twin = state.resample(seat, rng)
        a = hard(state, seat, iterations=60).choose(SeatView(state, seat))
        b = hard(twin, seat, iterations=60).choose(SeatView(twin, seat))
        assert a == b
        state.apply(a)


def test_a_time_budget_stops_on_the_clock():
    state = ThirtyTwo(4).new_state(seed=2)
    bot = ISMCTSBot(state.game, state.current_seat(), 1, seconds=0.05, spec=SEARCH)
    bot.choose(SeatView(state, state.current_seat()))
    assert bot.last.iterations >= 1 and bot.last.seconds < 1.0


def test_several_seats_phases_go_to_the_fallback_bot():
    game = Buzzer(2)
    state = game.new_state()
    bot = ISMCTSBot(game, 0, 1, spec=SearchSpec(), fallback=Buzz(game, 0, delay=0.25))
    assert bot.choose(SeatView(state, 0)) == ("buzz",)
    assert bot.reaction_time(SeatView(state, 0)) == 0.25


def test_levels_exist_and_take_budget_parameters():
    game = ThirtyTwo(4)
    for level in ("easy", "medium", "hard", "expert"):
        make_bot(level, game, 0, 1)
    bot = make_bot("hard:iterations=30", game, 0, 1)
    assert bot.iterations == 30  # type: ignore[attr-defined]


def test_a_callers_time_budget_stops_an_iteration_budget_early():
    game = ThirtyTwo(4)
    state = game.new_state(seed=5)
    seat = state.current_seat()
    assert len(state.legal_actions()) > 1
    bot = hard(state, seat, iterations=200)
    bot.choose(SeatView(state, seat))
    assert bot.last.iterations == 200  # no budget given: exactly its iterations
    pressed = hard(state, seat, iterations=10**9)
    pressed.time_budget = 0.05  # what the card room tells it
    assert pressed.choose(SeatView(state, seat)) in state.legal_actions()
    assert 0 < pressed.last.iterations < 10**9


def test_the_search_plays_a_game_alone():
    """Memo Match can be played solo: one seat is always first (the place term divided by
    players - 1 = 0 once)."""
    from tripletopper.question_banks import make_game
    from tripletopper.runner import play_game

    game = make_game("memo-match", 1)
    state = play_game(game, [make_bot("ismcts:iterations=20", game, 0, 1)], seed=3)
    assert state.is_terminal() and state.results().winners == (0,)


def test_paired_search_plays_each_move_on_the_same_worlds_and_finds_the_win():
    state = toe_stacked({0: "KB? YH2 GT3", 1: "BS4 RH1 YT2"}, stock="RS4")
    preset(state, {"RC1": 0, "YC1": 0, "GC1": 0, "YH1": 1})
    state.apply(("draw",))
    # No shortlist: every play (KB? fits 60 cells) on 10 sampled worlds each.
    spec = replace(TOE_SEARCH, shortlist=None, paired=100)
    moves = len(state.legal_actions())
    bot = ISMCTSBot(state.game, 0, 3, iterations=10 * moves, spec=spec, confidence=0)
    choice = bot.choose(SeatView(state, 0))
    assert choice == state.game.parse_action("play KB? at BC1")  # the only win
    assert set(bot.last.root_visits.values()) == {10} and bot.last.iterations == 10 * moves
    # Its fallback's move stands unless the search is sure of better: a sure win is.
    sure = ISMCTSBot(
        state.game,
        0,
        3,
        iterations=10 * moves,
        spec=spec,
        fallback=RandomBot(state.game, 0, 5),
    )
    assert sure.choose(SeatView(state, 0)) == choice


def test_standings_weigh_places_and_counters_as_asked():
    from tripletopper.bots.ismcts import standings_by
    from tripletopper.bots.thirty_two import standings

    root = ThirtyTwo(4).new_state(seed=1)
    leaf = root.clone()
    root.counters[:] = [10, 10, 10, 10]
    leaf.counters[:] = [13, 9, 9, 9]  # seat 0 first; the others share places 2-4
    # place: 1 for first, 1/3 for the shared 3rd; margin over 9 counters: +3 and -1
    first, rest = 0.5 + 0.5 * 3 / 9, 0.5 - 0.5 / 9
    expected = [0.3 * 1 + 0.7 * first] + [0.3 / 3 + 0.7 * rest] * 3
    assert standings(root, leaf) == pytest.approx(expected)
    by_place = standings_by(lambda s: s.counters, lambda players: 9.0)  # the default 0.85
    assert by_place(root, leaf) == pytest.approx(
        [0.85 + 0.15 * first] + [0.85 / 3 + 0.15 * rest] * 3
    )


@pytest.mark.parametrize(
    ("name", "players", "spec"),
    [
        ("thirty-two", 3, "hard:iterations=40"),
        ("thirty-one", 2, "hard:iterations=40"),
        ("thirty-one", 4, "hard:iterations=40"),
        ("three-up-three-down", 2, "ismcts:iterations=40"),
        ("three-up-three-down", 4, "ismcts:iterations=40"),
        ("toe", 2, "hard:iterations=60"),
        ("memo-match", 3, "ismcts:iterations=40"),
    ],
)
def test_playouts_applied_unchecked_decide_as_checked_ones(name, players, spec):
    """The search's playouts skip the legality check (``State.apply_unchecked``): with it
    on, every playout action is checked (an illegal one raises), and the searches at the
    positions of a seeded game come out the same, move for move and value for value."""
    from tripletopper.engine import Rng
    from tripletopper.question_banks import make_game

    game = make_game(name, players)
    rng = Rng(11)
    searched = 0
    for seed in range(11, 20):
        state = game.new_state(seed)
        while not state.is_terminal() and searched < 6:
            seats = state.to_act()
            seat = seats[0]
            legal = state.legal_actions(seat)
            if len(seats) == 1 and len(legal) > 1 and rng.below(3) == 0:
                fast = make_bot(spec, game, seat, 7)
                plain = make_bot(spec, game, seat, 7)
                plain.checked_playouts = True  # type: ignore[attr-defined]
                choice = fast.choose(SeatView(state, seat))
                assert plain.choose(SeatView(state, seat)) == choice
                assert plain.last.root_values == fast.last.root_values  # type: ignore[attr-defined]
                searched += fast.last.iterations > 0  # type: ignore[attr-defined]
            state.apply(legal[rng.below(len(legal))], seat)
    assert searched == 6
