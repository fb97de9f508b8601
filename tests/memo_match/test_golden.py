"""Golden playthrough for Memo Match: every seat's view of every step of one seeded game."""

from tripletopper.games.memo_match import MemoMatch

from ..golden import check_golden, playthrough


def test_golden_playthrough():
    # Private reveal, so the three views differ; the turn limit ends the game after 24 turns.
    game = MemoMatch(2, reveal="private", swap_on_miss=True, max_turns=24)
    check_golden("memo-match.txt", playthrough(game, seed=11))
