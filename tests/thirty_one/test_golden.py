"""Golden playthroughs and perft counts for Thirty-One."""

from tripletopper.games.thirty_one import ThirtyOne, ThirtyOneState

from ..golden import check_golden, playthrough


def test_golden_playthrough():
    # Seed 173: 54 actions over several hands: knocks, a dealt 31, a 31 after a discard,
    # a knocker alone lowest, a knocker saved by a tie, eliminations, a winner.
    check_golden("thirty-one.txt", playthrough(ThirtyOne(3), seed=173))


def test_golden_playthrough_manual_31():
    # Seed 1478: 54 actions; everyone answers in turn after each deal (play or declare).
    check_golden("thirty-one-manual.txt", playthrough(ThirtyOne(3, manual_31=True), seed=1478))


def perft(state: ThirtyOneState, depth: int) -> int:
    """Leaves of the action tree to ``depth`` (chance follows the state's own seed)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for seat in state.to_act():
        for action in state.legal_actions(seat):
            child = state.clone()
            child.apply(action, seat, events=False)
            total += perft(child, depth - 1)
    return total


def test_perft():
    state = ThirtyOne(4).new_state(seed=1)
    assert [perft(state, d) for d in range(1, 7)] == PERFT


def test_perft_manual_31():
    state = ThirtyOne(3, manual_31=True).new_state(seed=1)
    assert [perft(state, d) for d in range(1, 8)] == PERFT_MANUAL


PERFT = [3, 9, 28, 77, 245, 637]
PERFT_MANUAL = [1, 1, 1, 3, 9, 28, 77]
