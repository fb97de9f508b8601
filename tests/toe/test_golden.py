"""Golden playthroughs and perft counts for Toe."""

from tripletopper.games.toe import Toe, ToeState
from tripletopper.question_banks import builtin_bank

from ..golden import check_golden, playthrough


def test_golden_playthrough():
    # Seed 4: heuristic bots, discards and draws, a win on a line.
    check_golden("toe.txt", playthrough(Toe(2), seed=4, bots="heuristic"))


def test_golden_quiz_playthrough():
    # Seed 3: questions buzzed, answered right and wrong, timed out; earned turns.
    game = Toe(2, quiz=True, bank=builtin_bank())
    check_golden(
        "toe-quiz.txt", playthrough(game, seed=3, bots="heuristic:accuracy=0.6:buzz=2:guess=0.5")
    )


def perft(state: ToeState, depth: int) -> int:
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
    state = Toe(2).new_state(seed=1)
    assert [perft(state, d) for d in range(1, 5)] == PERFT


PERFT = [5, 30, 218, 1381]
