"""Odds counted by hand: draws enumerated exactly, flips, open lines; the knock table."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tripletopper.analysis.odds import draw_odds, flip_odds, knock_odds, knock_table, open_lines
from tripletopper.cli import cli
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_two import ThirtyTwo

T31 = ThirtyOne(4)
T32 = ThirtyTwo(4)


def test_thirty_one_draw_by_hand():
    odds = draw_odds(T31, T31.deck.parse_many("AS KS 9H"))
    assert odds.now == 21 and odds.unseen == 49
    # 10S JS QS make 31, 9S makes 30, the other eight spades 2S-8S add their pips;
    # nothing else beats ace-king of spades (hearts with 9H make at most 20).
    assert odds.after_draw[31] == pytest.approx(3 / 49)
    assert odds.after_draw[30] == pytest.approx(1 / 49)
    assert odds.after_draw[21] == pytest.approx(38 / 49)
    assert odds.improves == pytest.approx(11 / 49)
    assert sum(odds.after_draw.values()) == pytest.approx(1)
    taken = draw_odds(T31, T31.deck.parse_many("AS KS 9H"), up=T31.deck.parse("QS"))
    assert taken.take == 31 and taken.unseen == 48 and taken.after_draw[31] == pytest.approx(2 / 48)


def test_known_cards_are_not_drawn():
    deck = T31.deck
    odds = draw_odds(T31, deck.parse_many("AS KS 9H"), known=deck.parse_many("10S JS QS 9S"))
    assert odds.unseen == 45 and max(odds.after_draw) == 29  # 8S is the best left
    assert odds.after_draw[29] == pytest.approx(1 / 45)


def test_thirty_two_draw_keeps_the_best_three():
    hand = T32.deck.parse_many("RC4 RC3 YH4")
    odds = draw_odds(T32, hand)
    assert odds.now == T32.score(hand) and odds.unseen == 122
    assert min(odds.after_draw) == odds.now  # a draw never makes a hand worse
    assert sum(odds.after_draw.values()) == pytest.approx(1)
    no_wilds = ThirtyTwo(4, no_wilds=True)
    assert draw_odds(no_wilds, hand).after_draw != odds.after_draw


def test_hands_are_three_cards_of_a_game_with_hand_values():
    with pytest.raises(ValueError, match="three cards"):
        draw_odds(T31, T31.deck.parse_many("AS KS"))
    with pytest.raises(ValueError, match="Memo Match has no hand values"):
        draw_odds(MemoMatch(2), [0, 1, 2])


def test_knock_table():
    low = knock_odds(T31, 3, [2, 4], samples=500)
    assert low == {2: {1: 0.0, 2: 0.0}, 4: {1: 0.0, 2: 0.0, 3: 0.0, 4: 0.0}}  # 3 is the least
    table = knock_odds(T31, 25, [2, 3, 4], samples=1000, seed=1)
    assert table == knock_odds(T31, 25, [2, 3, 4], samples=1000, seed=1)
    assert all(0.5 < chance < 1 for by_seat in table.values() for chance in by_seat.values())
    weaker = knock_odds(T31, 18, [2, 3, 4], samples=1000, seed=1)
    assert all(weaker[n][s] <= table[n][s] for n in table for s in table[n])
    # Thirty-Two: the knocker must beat everyone, harder with each more opponent, and
    # harder from a later seat (the opponents before it have drawn once more).
    beat = knock_odds(T32, 28, [3, 4, 5, 6], samples=2000)
    assert beat[3][1] > beat[4][1] > beat[5][1] > beat[6][1] > 0
    assert beat[4][1] > beat[4][4]


def test_knock_by_seat_on_a_stacked_deck():
    """Thirty-One heads-up with every card known but 2S-6S: the opponent holds three of
    them and draws once after the knock (seat 1), or also once before it (seat 2)."""
    deck = T31.deck
    left = deck.parse_many("2S 3S 4S 5S 6S")
    known = [c for c in range(52) if c not in left]
    table = knock_table(ThirtyOne(2), [14, 15], [2], known=known, samples=2000, seed=3)
    # Seat 2: after two draws the opponent holds the best three of all five cards: 15.
    assert table[2][2] == {14: 0.0, 15: 1.0}
    # Seat 1: one draw, the best three of four of the five cards: 15 when 2S or 3S is the
    # card left out, 14, 13 or 12 when it is 4S, 5S or 6S: a knock with 14 holds up 3/5.
    assert table[2][1][15] == 1.0 and 0.5 < table[2][1][14] < 0.7


def test_memo_match_flip_by_hand():
    game = MemoMatch(2)
    rc1 = game.deck.parse("RC1")
    # Each variable matches on its own value or a wild (2 of 5 values): 2^3 - 1 = 7 other
    # cards match on all three, 3 x 2 x 2 x 3 = 36 on exactly two.
    assert flip_odds(game, rc1) == (43, 124)
    assert flip_odds(game, rc1, game.deck.parse_many("RC2 RC3 KB?")) == (40, 121)
    # Without wilds only the own value matches: 3 x 1 x 1 x 4 = 12 on exactly two.
    assert flip_odds(MemoMatch(2, wilds=False), rc1) == (12, 124)


def test_toe_open_lines_by_hand():
    board = "X" + "." * 62 + "O"  # opposite corners: the space diagonal between is dead
    assert open_lines(board) == {"X": [63, 6, 0, 0, 0], "O": [63, 6, 0, 0, 0]}
    with pytest.raises(ValueError, match="64 characters"):
        open_lines("XO")


def test_cli():
    def run(*args):
        return CliRunner().invoke(cli, ["odds", *args], catch_exceptions=False)

    out = run("thirty-one", "AS KS 9H", "--up", "QS", "-p", "3", "--samples", "200").output
    assert "AS KS 9H is worth 21." in out and "Taking QS makes 31." in out
    assert "4.2%" in out  # 10S or JS: 2 of 48
    assert "3 <" in out
    assert "pairs with RC1: 43 of 124 = 34.7%" in run("memo-match", "RC1").output
    assert "X    │ 63 │ 6" in run("toe", "X" + "." * 62 + "O").output
    bad = run("thirty-one", "AS KS ZZ")
    assert bad.exit_code == 2 and "ZZ" in bad.output
