"""Memo Match bots: legal, deterministic, fair, and their memory is their skill."""

from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.bots import LEVEL_ORDER, SeatView, bot_names, make_bot
from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, Rng
from tripletopper.games.memo_match import MemoMatch, matching_variables
from tripletopper.games.memo_match.layout import POSITION_NAMES
from tripletopper.runner import choose_next, play_game, simulate

from .helpers import play, stacked


def test_bots_on_offer():
    assert bot_names("memo-match") == [*LEVEL_ORDER, "forgetful", "ismcts", "perfect", "random"]


@settings(max_examples=15)
@given(st.integers(0, 2**31), st.integers(1, 4), st.sampled_from(["public", "private"]))
def test_perfect_decides_only_from_its_seats_view(seed, players, reveal):
    game = MemoMatch(players, reveal=reveal, swap_on_miss=seed % 2 == 0)
    state = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(80):
        if state.is_terminal() or len(state.to_act()) != 1:
            break
        seat = state.current_seat()
        twin = state.resample(seat, rng)
        a = make_bot("perfect", game, seat, seed).choose(SeatView(state, seat))
        b = make_bot("perfect", game, seat, seed).choose(SeatView(twin, seat))
        assert a == b and a in state.legal_actions()
        state.apply(a)


def strangers(count: int) -> list[str]:
    """Cards no two of which match (without wilds), and none of which matches RC1 or RC2."""
    chosen = ["RC1", "RC2"]
    for card in TRIPLE_TOPPER.names:
        if len(chosen) == count + 2:
            break
        if all(matching_variables(card, other, wilds=False) < 2 for other in chosen):
            chosen.append(card)
    return chosen[2:]


def test_perfect_takes_a_pair_it_has_seen_and_forgetful_forgets_it():
    # A1 RC1 is seen early; RC2 turns up at H1 three turns later.
    x = strangers(6)
    cards = f"RC1 {x[0]} {x[1]} {x[2]} {x[3]} {x[4]} {x[5]} RC2"
    chosen = {}
    for name in ("perfect", "forgetful:capacity=2"):
        state = stacked(2, cards, wilds=False)
        bot = make_bot(name, state.game, 0, 1)
        for text in ["A1", "B1", "C1", "D1", "E1", "F1", "G1", "H1"]:  # four misses
            events = state.apply_text(f"flip {text}")
            bot.observe([event.view(0) for event in events])
        view = SeatView(state, 0)
        first = bot.choose(view)
        state.apply(first)
        chosen[name] = (first, bot.choose(view), bot.memory(view))
    first, second, _ = chosen["perfect"]
    assert {first, second} == {("flip", 0), ("flip", 7)}  # A1 and H1: the pair it remembers
    first, second, memory = chosen["forgetful:capacity=2"]
    assert sorted(memory) == [6, 7]  # it remembers G1 and H1 only: A1 is forgotten
    assert {first, second} != {("flip", 0), ("flip", 7)}


def test_forgetful_never_reads_the_recall():
    state = stacked(2, "RC1 YH2 GT3 BS4", wilds=False)
    play(state, "A1 B1")
    bot = make_bot("forgetful:capacity=0", state.game, 1, 3)
    view = SeatView(state, 1)
    assert view.recall()["seen"] == {"A1": "RC1", "B1": "YH2"}
    assert bot.memory(view) == {}
    assert make_bot("perfect", state.game, 1, 3).memory(view) == {
        0: state.table[0],
        1: state.table[1],
    }


def test_bots_declare_only_when_they_believe_no_pair_is_left():
    state = stacked(2, "RC1 YH2 GT3 BS4", wilds=False)
    bot = make_bot("perfect", state.game, 0, 0)
    assert bot.choose(SeatView(state, 0)) != ("declare",)
    keep = {0, 1, 2, 3}
    for p in range(125):
        if p not in keep:
            state.table[p] = -1
    state.count = 4
    state._refresh()
    for card in state.table[:4]:  # every card left on the table has been seen
        state.knows[card] = 0b111
    for card in range(125):  # and the others are in the players' piles
        if card not in state.table[:4]:
            state.piles[1].append(card)
            state.knows[card] = 0b111
    assert bot.choose(SeatView(state, 0)) == ("declare",)


def test_bots_spot_a_pair_with_their_delay_and_the_quickest_claims_first():
    state = stacked(3, "RC1 RC2 GT3", order=[0, 1, 2])
    play(state, "declare")
    game = state.game
    bots = [
        make_bot("perfect", game, 0, 1),
        make_bot("perfect:spot_delay=1", game, 1, 1),
        make_bot("forgetful:spot_delay=20", game, 2, 1),
    ]
    views = [SeatView(state, s) for s in range(3)]
    seat, action = choose_next(state, bots, views)
    assert seat == 1 and action[0] == "claim"
    assert 0.75 <= bots[1].reaction_time(views[1]) <= 1.25


def test_nobody_spots_when_there_is_no_pair_and_the_clock_ends_the_race():
    state = stacked(3, "RC1 YH2", order=[0, 1, 2], wilds=False)
    keep = {0, 1}
    for p in range(125):
        if p not in keep:
            state.table[p] = -1
    state.count = 2
    state._refresh()
    play(state, "declare")
    game = state.game
    bots = [make_bot("perfect", game, s, s) for s in range(3)]
    assert choose_next(state, bots, [SeatView(state, s) for s in range(3)]) == (CLOCK, ("timeout",))


def test_memory_wins_games_without_wilds():
    report = simulate(MemoMatch(2, wilds=False), ["perfect", "forgetful:capacity=4"], 16, seed=3)
    by_bot = report.by_bot()
    assert (
        by_bot["perfect"]["win_rate_per_seat"] > by_bot["forgetful:capacity=4"]["win_rate_per_seat"]
    )
    vs_random = simulate(MemoMatch(3), ["forgetful", "random"], 12, seed=4).by_bot()
    assert vs_random["forgetful"]["mean_score"] > 2 * vs_random["random"]["mean_score"]


def test_solitaire_bots_clear_the_table():
    final = play_game(MemoMatch(1), [make_bot("perfect", MemoMatch(1), 0, 2)], seed=2)
    result = final.results()
    assert result.winners == (0,) and 60 <= result.scores[0] <= 125


def next_pair_chance(state, seat):
    """The chance that ``seat``'s next two flips pair: an unseen card first, then a
    remembered partner of it, or else another unseen card."""
    recall = state.recall(seat)["seen"]
    remembered = list(recall.values())
    unseen = [
        TRIPLE_TOPPER.format(card)
        for position, card in enumerate(state.table)
        if card >= 0 and POSITION_NAMES[position] not in recall
    ]
    total = 0.0
    for i, card in enumerate(unseen):
        if any(matching_variables(card, r) >= 2 for r in remembered):
            total += 1
        else:
            others = unseen[:i] + unseen[i + 1 :]
            total += sum(matching_variables(card, o) >= 2 for o in others) / len(others)
    return total / len(unseen)


def test_expert_takes_bonus_cards_it_has_not_seen_and_keeps_its_chances():
    # Seat 0 misses with RC1 and YH2 (A1, B1); seat 1 turns a triple (C1, D1) and takes
    # three bonus cards, then turns again.  Hard takes the remembered A1 and B1 first;
    # the expert takes unseen cards and keeps both for its next flips.
    chances, taken = {}, {}
    for level in ("hard", "expert"):
        state = stacked(2, "RC1 YH2 GT4 KT4", order=[0, 1])
        play(state, "A1 B1", "C1 D1")
        assert state.current_seat() == 1 and state.legal_actions()[0][0] == "take"
        bot = make_bot(level, state.game, 1, 5)
        taken[level] = []
        for _ in range(3):
            action = bot.choose(SeatView(state, 1))
            taken[level].append(POSITION_NAMES[action[1]])
            state.apply(action)
        assert state.current_seat() == 1 and state.legal_actions()[0][0] == "flip"
        chances[level] = next_pair_chance(state, 1)
    assert taken["hard"][:2] == ["A1", "B1"]
    assert not {"A1", "B1"} & set(taken["expert"])
    # with nothing remembered the next flips pair 53.6% of the time, with RC1 and YH2 74.4%
    assert (round(chances["hard"], 3), round(chances["expert"], 3)) == (0.536, 0.744)
