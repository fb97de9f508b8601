"""Toe bots: legal, deterministic, fair (observation only) and sensible."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tripletopper.bots import LEVEL_ORDER, SeatView, bot_names, make_bot
from tripletopper.bots.base import SampledView
from tripletopper.bots.toe import SHORTLIST, TYPICAL_WORDS, ToePlayout, buzz_delay
from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.engine import CLOCK, Rng
from tripletopper.games.toe import WASTED, Toe, cell_of
from tripletopper.games.toe.rules import BUZZ
from tripletopper.question_banks import builtin_bank
from tripletopper.runner import choose_next, play_game, simulate

from .helpers import MINI_BANK, preset, stacked

P = TRIPLE_TOPPER.parse


def test_bots_on_offer():
    assert bot_names("toe") == [*LEVEL_ORDER, "heuristic", "ismcts", "random", "tactician"]


@settings(max_examples=20)
@given(st.integers(0, 2**31), st.booleans(), st.sampled_from(["heuristic", "random", "tactician"]))
def test_decisions_depend_only_on_the_seats_view(seed, quiz, name):
    game = Toe(2, quiz=quiz, bank=builtin_bank() if quiz else None)
    state = game.new_state(seed)
    rng = Rng(seed)
    for _ in range(80):
        if state.is_terminal():
            break
        for seat in state.to_act():
            twin = state.resample(seat, rng)
            a = make_bot(name, game, seat, seed).choose(SeatView(state, seat))
            b = make_bot(name, game, seat, seed).choose(SeatView(twin, seat))
            assert a == b
            assert a is None or a in state.legal_actions(seat)
        bots = [make_bot(name, game, s, seed + s) for s in (0, 1)]
        seat, action = choose_next(state, bots, [SeatView(state, s) for s in (0, 1)])
        state.apply(action, seat)


def test_heuristic_beats_random_clearly():
    for options in ({}, {"quiz": True}):
        game = Toe(2, bank=builtin_bank() if options else None, **options)
        report = simulate(game, ["heuristic", "random"], 60, seed=5).by_bot()
        assert report["heuristic"]["win_rate_per_seat"] > 0.9, options


def bot_play(state, seat=0, **params):
    spec = "heuristic" + "".join(f":{k}={v}" for k, v in params.items())
    return make_bot(spec, state.game, seat, 0).choose(SeatView(state, seat))


def test_heuristic_wins_when_it_can():
    state = stacked({0: "KB? YH2 GT3", 1: "BS4 RH1 YT2"}, stock="BC1")
    preset(state, {"RC1": 0, "YC1": 0, "GC1": 0, "YH1": 1})
    state.apply(("draw",))
    assert bot_play(state) == ("play", P("BC1"), cell_of("BC1"))  # the natural card, not KB?


def test_heuristic_blocks_three_in_a_line():
    state = stacked({0: "KB? YH2 GT3", 1: "BS4 RH1 YT2"}, stock="RS4")
    preset(state, {"RC4": 1, "RH4": 1, "RT4": 1, "GT3": 0})
    state.apply(("draw",))
    assert bot_play(state) == ("play", P("RS4"), cell_of("RS4"))
    state = stacked({0: "KB? YH2 GT3", 1: "BS4 RH1 YT2"}, stock="YC2")
    preset(state, {"RC4": 1, "RH4": 1, "RT4": 1})
    state.apply(("draw",))
    assert bot_play(state) == ("play", P("KB?"), cell_of("RS4"))  # a wild for a critical cell


def test_heuristic_keeps_wild_cards_for_later():
    state = stacked({0: "KB? YH2 GT3", 1: "BS4 RH1 YT2"}, stock="RC1")
    state.apply(("draw",))
    action = bot_play(state)
    assert action[1] != P("KB?") and action[2] != WASTED


def test_heuristic_discards_a_hand_that_fits_no_useful_cell():
    state = stacked({0: "RC1 YH2 GS3", 1: "BS4 RH1 YT2"})
    preset(state, {"RC1": 1, "YH2": 1, "GS3": 1})
    assert bot_play(state) == ("discard", (P("RC1"), P("YH2"), P("GS3")))
    live = stacked({0: "RC1 YH2 GS3", 1: "BS4 RH1 YT2"})
    assert bot_play(live) == ("draw",)
    threat = stacked({0: "RC1 YH2 GS3", 1: "BS4 RH1 YT2"})
    preset(threat, {"RC1": 1, "YH2": 1, "GS3": 1, "RC4": 1, "RH4": 1, "RT4": 1})
    assert bot_play(threat) == ("draw",)  # dead cards, but RS4 must be blocked: try a draw
    keep = stacked({0: "RC1 KH2 GS3", 1: "BS4 RH1 YT2"})
    preset(keep, {"RC1": 1, "YH2": 1, "GS3": 1})
    assert make_bot("heuristic:useful=100", keep.game, 0, 0).choose(SeatView(keep, 0)) == (
        "discard",
        (P("RC1"), P("GS3")),
    )


def test_tactician_makes_a_threat_its_hand_completes_and_keeps_the_wild():
    state = stacked({0: "KC1 GC1 YH3", 1: "BS4 RH1 YT2"}, stock="GH2")
    preset(state, {"RC1": 0, "YC1": 0, "RH2": 0, "YH4": 1, "GT4": 1})
    state.apply(("draw",))
    # The heuristic spends the wild KC1 on BC1 (its line's cells weigh more than the wild);
    # the tactician marks GC1 with the natural card: RC1 YC1 GC1 then needs BC1, which the
    # KC1 it keeps fits, so the opponent must block BC1 at once.
    assert bot_play(state) == ("play", P("KC1"), cell_of("BC1"))
    tactician = make_bot("tactician", state.game, 0, 0)
    assert tactician.choose(SeatView(state, 0)) == ("play", P("GC1"), cell_of("GC1"))


def test_tactician_makes_an_armed_threat_before_blocking_an_old_line_of_three():
    state = stacked({0: "KC1 GC1 RS4", 1: "BS4 RH1 YT2"}, stock="GH2")
    preset(state, {"RC1": 0, "YC1": 0, "RH2": 0, "RC4": 1, "RH4": 1, "RT4": 1})
    state.apply(("draw",))
    # The heuristic blocks RS4 at once; the tactician marks GC1, keeping KC1 for BC1: the
    # opponent, whose hand did not complete RS4 last turn, must now block BC1 or lose.
    assert bot_play(state) == ("play", P("RS4"), cell_of("RS4"))
    tactician = make_bot("tactician", state.game, 0, 0)
    assert tactician.choose(SeatView(state, 0)) == ("play", P("GC1"), cell_of("GC1"))


def test_tactician_throws_a_hand_that_fits_no_cell_completing_a_line():
    def choices(hand, marks):
        state = stacked({0: hand, 1: "BS4 RH1 YT2"})
        preset(state, marks)
        return bot_play(state), make_bot("tactician", state.game, 0, 0).choose(SeatView(state, 0))

    line = {"RC1": 0, "YC1": 0, "GC1": 0, "RC4": 1}  # BC1 would complete X's line
    dead = ("discard", (P("RH2"), P("YT3"), P("GS4")))
    assert choices("RH2 YT3 GS4", line) == (("draw",), dead)  # the heuristic draws
    assert choices("RH2 YT3 KC1", line) == (("draw",), ("draw",))  # KC1 fits BC1
    block = {**line, "RH4": 1, "RT4": 1}  # RS4 would complete O's line
    assert choices("RH2 YT3 RS4", block) == (("draw",), ("draw",))  # RS4 blocks it
    assert choices("RH2 YT3 GS4", {"RC1": 0, "YC1": 0, "RC4": 1}) == (("draw",), ("draw",))


def test_playouts_win_block_and_throw_a_dead_hand():
    def playout(hand, marks, stock=""):
        state = stacked({0: hand, 1: "BS4 RH1 YT2"}, stock=stock)
        preset(state, marks)
        if stock:
            state.apply(("draw",))
        return ToePlayout(state.game, 0).choose(SampledView(state, 0))

    theirs = {"RC4": 1, "RH4": 1, "RT4": 1}  # RS4 would complete O's line
    three = {"RC1": 0, "YC1": 0, "GC1": 0, **theirs}
    assert playout("KB? YH2 GT3", three, "BC1") == ("play", P("BC1"), cell_of("BC1"))
    assert playout("KB? YH2 GT3", {"RC1": 0, "YC1": 0, **theirs}, "YC2") == (
        "play",
        P("KB?"),
        cell_of("RS4"),
    )
    assert playout("RH2 YT3 RS4", three) == ("draw",)  # RS4 fits: draw to block it
    assert playout("RH2 YT3 GS4", {"RC1": 0, "YC1": 0, "GC1": 0}) == (
        "discard",
        (P("RH2"), P("YT3"), P("GS4")),
    )


def test_the_search_weighs_only_the_tacticians_best_plays():
    state = stacked({0: "KB? KH2 YH3", 1: "BS4 RH1 YT2"}, stock="GH2")
    preset(state, {"RC1": 0, "YC1": 0, "YH4": 1, "GT4": 1})
    state.apply(("draw",))
    view = SeatView(state, 0)
    assert len(view.legal_actions()) == 66  # KB? alone fits every free cell (60)
    bot = make_bot("hard:iterations=200", state.game, 0, 1)
    bot.choose(view)
    scores = make_bot("tactician", state.game, 0, 0).scores(view.observation())
    best = sorted(view.legal_actions(), key=scores.__getitem__, reverse=True)[:SHORTLIST]
    assert {state.game.action_to_text(a) for a in best} == set(bot.last.root_visits)


def test_quiz_bots_answer_with_their_accuracy_and_buzz_delay():
    game = Toe(2, quiz=True, bank=MINI_BANK)
    state = game.new_state(1)
    views = [SeatView(state, s) for s in (0, 1)]
    sure = make_bot("heuristic:accuracy=1:buzz=2", game, 0, 1)
    blank = make_bot("heuristic:accuracy=0", game, 1, 1)
    assert sure.choose(views[0]) == ("buzz",) and blank.choose(views[1]) is None
    delay = sure.reaction_time(views[0])
    assert 0.5 <= delay <= 8 and sure.reaction_time(views[0]) == delay  # drawn once per question
    assert choose_next(state, [sure, blank], views)[0] == 0
    state.apply(("buzz",), 0)
    assert sure.choose(views[0]) == ("answer", 0)  # the mini bank's answers are all A
    idle = [make_bot("heuristic:accuracy=0", game, s, s) for s in (0, 1)]
    fresh = game.new_state(2)
    assert choose_next(fresh, idle, [SeatView(fresh, s) for s in (0, 1)]) == (CLOCK, ("timeout",))
    slow = make_bot("random:buzz=1:accuracy=0", game, 0, 3)
    fresh_view = SeatView(fresh, 0)
    assert slow.choose(fresh_view) == ("buzz",) and 0.25 <= slow.reaction_time(fresh_view) <= 4
    fresh.apply(("buzz",), 0)
    assert slow.choose(fresh_view) != ("answer", 0)  # accuracy 0: always wrong


def test_bots_buzz_on_a_human_like_delay_drawn_per_question():
    """Log-normal around `buzz` for a question of typical length (the spread of people's
    reaction times: 90% within x0.61-x1.64), longer for a longer question; the medium bot's
    typical delay is 2 s, not the 1.5 s that beat every person at the terminal."""
    rng = Rng(5)
    draws = sorted(buzz_delay(2.0, TYPICAL_WORDS, rng) for _ in range(4000))
    assert draws[2000] == pytest.approx(2.0, rel=0.05)
    assert draws[200] == pytest.approx(2.0 * 0.61, rel=0.08)
    assert draws[3800] == pytest.approx(2.0 * 1.64, rel=0.08)
    long = sorted(buzz_delay(2.0, 4 * TYPICAL_WORDS, rng) for _ in range(4000))
    assert long[2000] == pytest.approx(4.0, rel=0.05)  # four times the words: twice the time
    game = Toe(2, quiz=True, bank=builtin_bank())
    state = game.new_state(3)
    medium = make_bot("medium", game, 0, 3)
    view = SeatView(state, 0)
    delays = []
    for _ in range(60):  # question after question, nobody buzzing
        assert state.phase == BUZZ
        if medium.choose(view) is not None:  # it knows this one
            delays.append(medium.reaction_time(view))
        state.apply(("timeout",), CLOCK)
    assert len(delays) > 20 and len(set(delays)) == len(delays)  # a new delay each question
    delays.sort()
    assert 1.6 <= delays[len(delays) // 2] <= 2.6


def test_accuracy_shows_in_simulations():
    game = Toe(2, quiz=True, bank=builtin_bank())
    specs = ["heuristic:accuracy=0.9:buzz=1", "heuristic:accuracy=0.3:buzz=1"]
    report = simulate(game, specs, 60, seed=2).to_json()
    assert report["seats"][0]["win_rate"] > report["seats"][1]["win_rate"] + 0.3
    final = play_game(game, [make_bot(s, game, i, 7) for i, s in enumerate(specs)], 7)
    assert final.is_terminal()


def plain_cell_values(obs: dict, seat: int) -> list[float]:
    """``ToeHeuristic.cell_values`` as first written: every line counted, cell by cell."""
    from tripletopper.bots.toe import BLOCK
    from tripletopper.games.toe import LINES

    board = obs["board"]
    me = "X" if obs["x"] == seat else "O"
    mine, theirs = [0] * len(LINES), [0] * len(LINES)
    for index, line in enumerate(LINES):
        for cell in line:
            if board[cell] == me:
                mine[index] += 1
            elif board[cell] != ".":
                theirs[index] += 1
    return [
        -1.0 if mark != "." else plain_cell_value(cell, mine, theirs, BLOCK)
        for cell, mark in enumerate(board)
    ]


def plain_cell_value(cell: int, mine: list[int], theirs: list[int], block: tuple) -> float:
    """A free cell's value as first written: ``OWN`` by our marks in each line through it
    they have not marked, ``block`` by theirs in each we have not."""
    from tripletopper.bots.toe import OWN
    from tripletopper.games.toe import LINES_THROUGH

    value = 0.0
    for index in LINES_THROUGH[cell]:
        if not theirs[index]:
            value += OWN[mine[index]]
        if not mine[index]:
            value += block[theirs[index]]
    return value


def test_the_heuristics_cell_values_are_the_plain_ones():
    """The fast ``cell_values`` (line worths summed by lookup, the last board remembered)
    gives the plain values on every position of many seeded games, for both seats."""
    game = Toe(2)
    for seed in range(12):
        state = game.new_state(seed)
        bots = [make_bot("heuristic", game, seat, seed) for seat in range(2)]
        rng = Rng(seed)
        while not state.is_terminal():
            for seat in range(2):
                obs = state.observation(seat)
                assert bots[seat].cell_values(obs) == plain_cell_values(obs, seat)
                assert bots[seat].cell_values(obs) == plain_cell_values(obs, seat)  # remembered
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])


def plain_dead_hand(board: list[int], mine: list[int], theirs: list[int], hand: list[int]) -> bool:
    """``dead_hand`` as first written: every line scanned."""
    from tripletopper.games.toe import FITS, LINES

    wins = {c for i, line in enumerate(LINES) if mine[i] == 3 and not theirs[i] for c in line}
    blocks = {c for i, line in enumerate(LINES) if theirs[i] == 3 and not mine[i] for c in line}
    targets = {c for c in wins | blocks if board[c] < 0}
    free_wins = {c for c in wins if board[c] < 0}
    return bool(free_wins) and not any(set(FITS[card]) & targets for card in hand)


def test_dead_hand_finds_the_lines_of_three_as_a_scan_of_every_line_does():
    """The fast ``dead_hand`` (lines of three found by ``list.index``) agrees with a scan
    of all 76 lines at every turn of many playouts, for the seat to act."""
    from tripletopper.bots.toe import dead_hand
    from tripletopper.games.toe.rules import TURN

    game = Toe(2)
    thrown = 0
    for seed in range(40):
        state = game.new_state(seed)
        bots = [ToePlayout(game, seat, seed) for seat in range(2)]
        while not state.is_terminal():
            seat = state.to_act()[0]
            if state.phase == TURN:
                args = (state.board, state.counts[seat], state.counts[1 - seat], state.hands[seat])
                expected = plain_dead_hand(*args)
                assert dead_hand(*args) == expected
                thrown += expected
            state.apply(bots[seat].choose(SampledView(state, seat)), seat)
    assert thrown > 50  # the positions include many dead hands


def test_cell_value_by_lookup_is_the_plain_sum_over_its_lines():
    """``cell_value`` looks each line's worth up (``line_worths``); on every free cell of
    many seeded positions it equals the plain rule, for the heuristic's block weights
    and the tactician's: ``OWN`` by our marks where they have none, the block weight by
    theirs where we have none."""
    from tripletopper.bots.toe import BLOCK, Weights, cell_value, line_worths, seat_board

    game = Toe(2)
    checked = 0
    for seed in range(8):
        state = game.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            for seat in range(2):
                board, mine, theirs = seat_board(state.observation(seat), seat)
                for block in (BLOCK, Weights().block):
                    for cell in range(64):
                        if board[cell] >= 0:
                            continue
                        plain = plain_cell_value(cell, mine, theirs, block)
                        assert cell_value(cell, mine, theirs, line_worths(block)) == plain
                        if block is BLOCK:  # the default table
                            assert cell_value(cell, mine, theirs) == plain
                        checked += 1
            legal = state.legal_actions()
            state.apply(legal[rng.below(len(legal))])
    assert checked > 10_000
