"""Thirty-Two bots: legal, deterministic, fair (observation only) and sensible."""

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.bots import LEVEL_ORDER, SeatView, bot_names, make_bot
from tripletopper.bots.thirty_two import SEARCH, TO_GAME_END, end_of_hand, places, standings
from tripletopper.engine import Rng
from tripletopper.games.thirty_two import ThirtyTwo
from tripletopper.runner import simulate

from .helpers import deck_order, play, stacked
from .test_rules import HANDS3


def test_bots_on_offer():
    assert bot_names("thirty-two") == [*LEVEL_ORDER, "heuristic", "ismcts", "random"]


@settings(max_examples=25)
@given(st.integers(0, 2**31), st.integers(3, 6), st.sampled_from(["heuristic", "random"]))
def test_decisions_depend_only_on_the_seats_view(seed, players, name):
    """The same bot facing a state resampled for its seat decides the same: it cannot
    be using anything its seat does not know."""
    game = ThirtyTwo(players)
    state = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.current_seat()
        twin = state.resample(seat, rng)
        a = make_bot(name, game, seat, seed).choose(SeatView(state, seat))
        b = make_bot(name, game, seat, seed).choose(SeatView(twin, seat))
        assert a == b
        assert a in state.legal_actions()
        state.apply(a)


def test_heuristic_beats_random_clearly():
    report = simulate(ThirtyTwo(4), ["heuristic", "random"], 120, seed=5).by_bot()
    assert report["heuristic"]["win_rate_per_seat"] > 0.35
    assert report["random"]["win_rate_per_seat"] < 0.12
    assert report["heuristic"]["mean_rank"] < report["random"]["mean_rank"]


def test_heuristic_declares_a_thirty_two_with_few_wilds_at_once():
    state = stacked(
        3, dealer=0, hands={1: "BS4 BS3 KS?", 2: "RC1 YH2 GT3", 0: "YC1 GS2 BT1"}, face_up="RS1"
    )
    assert state.game.score(state.hands[1]) == 32
    bot = make_bot("heuristic", state.game, 1, 0)
    assert bot.choose(SeatView(state, 1)) == ("declare",)


def test_heuristic_holds_out_a_wild_heavy_thirty_two_early():
    # 32 with 6 wilds, first turn, nobody has knocked: a lower-wild Thirty-two is a
    # likely draw away, and each opponent would pay 2 more per wild it saves.
    state = stacked(
        3, dealer=0, hands={1: "KB4 KB? BB4", 2: "RC1 YH2 GT3", 0: "YC1 GS2 BT1"}, face_up="RS1"
    )
    assert state.game.score(state.hands[1]) == 32
    bot = make_bot("heuristic", state.game, 1, 0)
    assert bot.choose(SeatView(state, 1)) != ("declare",)
    # After a knock it declares: the hand ends this round anyway and 6 beats 3.
    knocked = stacked(
        3, dealer=2, hands={0: "RC1 YH2 GT3", 1: "KB4 KB? BB4", 2: "YC1 GS2 BT1"}, face_up="RS1"
    )
    knocked.apply(("knock",))
    assert make_bot("heuristic", knocked.game, 1, 0).choose(SeatView(knocked, 1)) == ("declare",)


def test_heuristic_takes_the_face_up_card_that_makes_a_thirty_two():
    state = stacked(
        3, dealer=0, hands={1: "BS4 BS3 RC1", 2: "RC2 YH2 GT3", 0: "YC1 GS2 BT1"}, face_up="KS?"
    )
    bot = make_bot("heuristic", state.game, 1, 0)
    assert bot.choose(SeatView(state, 1)) == ("take",)
    state.apply(("take",))
    assert bot.choose(SeatView(state, 1)) == ("discard", state.game.deck.parse("RC1"), True)


def test_heuristic_knock_depends_on_the_table():
    """The same 26-point hand is a knock against two opponents, not against five."""
    hands3 = {0: "RC4 RC3 KH4", 1: "YC1 GS2 BT1", 2: "GC1 BS2 RT1"}
    three = stacked(3, dealer=2, hands=hands3, face_up="YS1")
    assert three.game.score(three.hands[0]) == 26
    hands6 = {**hands3, 3: "YH1 GH2 BH1", 4: "RS1 YT2 GB1", 5: "BC3 YS3 GT1"}
    six = stacked(6, dealer=5, hands=hands6, face_up="YS1")
    for seed in range(5):
        assert make_bot("heuristic", three.game, 0, seed).choose(SeatView(three, 0)) == ("knock",)
        assert make_bot("heuristic", six.game, 0, seed).choose(SeatView(six, 0)) != ("knock",)


def heuristic_inside(bot):
    """The heuristic a level is built on (itself, or wrapped by easy's or hard's bot)."""
    return getattr(bot, "inner", None) or getattr(bot, "fallback", None) or bot


def test_bots_remember_the_squared_pile_from_the_events_they_saw():
    """Observations show only the pile's top; each level's heuristic rebuilds the pile
    from its seat's events.  The first hand's face-up card was dealt before any event,
    and a bot seated mid-hand missed the start: both know the pile whole again after a
    reshuffle (the pile is then just its top) or the next deal."""
    state = stacked(3, dealer=2, hands=HANDS3, face_up="KB?", counters=50)
    game = state.game
    bots = [make_bot(level, game, 1, 7) for level in ("easy", "medium", "hard")]
    late = make_bot("medium", game, 1, 7)

    def check(whole: bool) -> None:
        obs = state.observation(1)
        for bot in bots:
            known = heuristic_inside(bot).discards.pile(obs["discard_top"], obs["discard_size"])
            assert known == state.pile[len(state.pile) - len(known) :] and known
            if whole:
                assert known == state.pile
            elif bot is not late:
                assert len(known) == len(state.pile) - 1  # all but the first face-up card

    reshuffled = False
    for turn in range(150):
        seat = state.current_seat()
        events = state.apply(("take",) if turn % 7 == 3 else ("draw",))
        throw = state.hands[seat][0 if turn % 7 == 3 else -1]  # never the card just taken
        events += state.apply(("discard", throw, False))
        if turn == 20:
            bots.append(late)
        for bot in bots:
            bot.observe([event.view(1) for event in events])
        reshuffled |= any(event.type == "reshuffled" for event in events)
        check(whole=reshuffled)
    assert reshuffled and len(state.pile) > 3
    hand_no = state.hand_no
    events = state.apply(("knock",))
    while state.hand_no == hand_no:
        events += state.apply(("draw",))
        events += state.apply(("discard", state.hands[state.current_seat()][-1], False))
    for turn in range(6):  # the next hand: every bot saw its deal
        seat = state.current_seat()
        events += state.apply(("take",) if turn == 2 else ("draw",))
        events += state.apply(("discard", state.hands[seat][0], False))
        for bot in bots:
            bot.observe([event.view(1) for event in events])
        events = []
        check(whole=True)


def test_random_bot_is_deterministic_by_seed():
    game = ThirtyTwo(4)
    runs = [simulate(game, ["random"], 30, seed=8).to_json() for _ in range(2)]
    for run in runs:
        del run["seconds"], run["actions_per_second"]
    assert runs[0] == runs[1]


def test_a_long_hand_without_wilds_does_not_outlast_the_knock_estimate():
    """Without wilds nobody declares, and a hand can run longer than the unseen cards the
    medium level samples opponents' draws from (game 33 of seed 0 raised IndexError)."""
    report = simulate(ThirtyTwo(4, counters=4, no_wilds=True), ["medium"], 34, seed=0)
    assert report.games == 34


def test_expert_plays_out_to_the_games_end_and_scores_the_places():
    """Hard's playouts stop when the hand is settled and weigh the counters won (0.7);
    expert's go on to the game's end (two hands more at most) and weigh the places (0.9):
    at the default counters a game lasts about two hands, and a match scores places."""
    game = ThirtyTwo(3)
    hard, expert = make_bot("hard", game, 0, 1), make_bot("expert", game, 0, 1)
    assert (hard.spec, hard.iterations) == (SEARCH, 1000)
    assert (expert.spec, expert.iterations) == (TO_GAME_END, 3000)
    assert replace(TO_GAME_END, evaluate=standings, horizon=end_of_hand) == SEARCH

    def deal(first: int) -> list[str]:
        """A deal where ``first`` (to play first) holds a Thirty-two with 4 wilds."""
        seats = [first, (first + 1) % 3, (first + 2) % 3]
        others = iter(["KB1 KC? BB?", "RC1 YH2 GT3"])  # 6 wilds; none
        hands = {s: "BS4 BB4 KB?" if s == first else next(others) for s in seats}
        return deck_order(seats, hands, "RS1")

    state = stacked(
        3,
        dealer=0,
        counters=20,
        hands={1: "BS4 BB4 KB?", 2: "KB1 KC? BB?", 0: "RC1 YH2 GT3"},
        face_up="RS1",
        more=[deal(2), deal(0)],
    )
    root = state.clone()
    play(state, "declare")  # seat 1 collects 10 from seat 2 (6 + 2 x 2 wilds), 6 from seat 0
    assert state.counters == [14, 36, 10]
    assert end_of_hand(root, state) and not TO_GAME_END.horizon(root, state)
    play(state, "declare")  # seat 2 collects 6 from seat 0, 10 from seat 1
    assert state.counters == [4, 30, 26] and not TO_GAME_END.horizon(root, state)
    # Seat 2 is second and 6 counters up (a knock's worth): hard's reward counts the
    # counters most, expert's the place.
    assert standings(root, state) == pytest.approx([0.0, 1.0, 0.3 * 0.5 + 0.7 * 1.0])
    assert places(root, state) == pytest.approx([0.0, 1.0, 0.9 * 0.5 + 0.1 * 1.0])
    play(state, "declare")
    assert state.hand_no - root.hand_no == 3 and TO_GAME_END.horizon(root, state)
