"""Golden playthrough and perft counts for Thirty-Two."""

from tripletopper.games.thirty_two import ThirtyTwo, ThirtyTwoState

from ..golden import check_golden, playthrough


def test_golden_playthrough():
    # Seed 2081: 62 actions over 8 hands, with takes, draws, knocks and a playoff.
    check_golden("thirty-two.txt", playthrough(ThirtyTwo(3), seed=2081))


def perft(state: ThirtyTwoState, depth: int) -> int:
    """Leaves of the action tree to ``depth`` (chance follows the state's own seed)."""
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action, events=False)
        total += perft(child, depth - 1)
    return total


def test_perft():
    state = ThirtyTwo(4).new_state(seed=1)
    assert [perft(state, d) for d in range(1, 6)] == PERFT


PERFT = [3, 9, 28, 77, 245]
