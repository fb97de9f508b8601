"""Golden playthrough and perft counts for 3UP 3DOWN."""

from tripletopper.games.three_up_three_down import ThreeUpThreeDown, ThreeUpThreeDownState

from ..golden import check_golden, playthrough


def test_golden_playthrough():
    # Seed 2, two heuristic bots: 92 actions with the secret 3UP choice, every kind of
    # Clear, a run of three, optional draws, 3UP plays, 3DOWN flips and a hidden pickup.
    check_golden("three-up-three-down.txt", playthrough(ThreeUpThreeDown(2), 2, "heuristic"))


def perft(state: ThreeUpThreeDownState, depth: int) -> int:
    """Leaves of the action tree to ``depth`` (every seat that may act; chance follows the
    state's own seed)."""
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
    state = ThreeUpThreeDown(3).new_state(seed=1)
    assert [perft(state, d) for d in range(1, 3)] == PERFT_CHOOSE
    for seat in range(3):
        state.apply(state.legal_actions(seat)[0], seat)
    assert [perft(state, d) for d in range(1, 9)] == PERFT_PLAY


PERFT_CHOOSE = [42, 1176]
PERFT_PLAY = [3, 6, 14, 31, 66, 135, 277, 562]
