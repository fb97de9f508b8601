"""The games as OpenSpiel Python games (``tripletopper.rl.openspiel``)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import tripletopper.rl.openspiel  # noqa: F401 - registers the games
from tripletopper.bots import SeatView, make_bot
from tripletopper.games import GAMES
from tripletopper.rl.openspiel import short_name


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_sim_with_serialization(name: str) -> None:
    cls = GAMES[name]
    for players, sims in sorted({(max(2, cls.min_players), 2), (cls.max_players, 1)}):
        game = pyspiel.load_game(short_name(name), {"players": players})
        assert game.num_players() == players
        pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)


def test_a_draw_returns_nothing() -> None:
    """Toe drawn at its turn limit: nobody wins, the returns are 0 and 0 (sum 0, not 1:
    the games are general-sum), and random_sim_test accepts such games."""
    game = pyspiel.load_game(short_name("toe"), {"max_turns": 1})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    state = game.new_initial_state()
    state.apply_action(3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.world.state.results().winners == ()
    assert state.returns() == [0.0, 0.0]


def test_parameters_are_the_options() -> None:
    game = pyspiel.load_game("python_tripletopper_thirty_two(players=4,counters=5,end=open)")
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 1 << 16
    state.apply_action(9)
    assert state.world.state.observation(0)["counters"] == [5, 5, 5, 5]
    assert state.world.game.options["end"] == "open"
    assert state.world.state.origin["seed"] == 9
    default = pyspiel.load_game("python_tripletopper_thirty_two", {"players": 4})
    assert default.new_initial_state().world.game.options["counters"] == 8  # 2 x players


def test_observations_do_not_leak() -> None:
    """Observation tensors and strings and information state strings of a seat are the
    same in every world resample_from_infostate deals for it."""
    game = pyspiel.load_game(short_name("memo-match"), {"players": 3, "reveal": "private"})
    rng = np.random.RandomState(1)
    state = game.new_initial_state()
    state.apply_action(5)
    for _ in range(60):
        if state.is_terminal():
            break
        for player in range(3):
            world = state.resample_from_infostate(player, rng.uniform)
            assert world.observation_string(player) == state.observation_string(player)
            assert world.information_state_string(player) == state.information_state_string(player)
            assert np.array_equal(
                world.observation_tensor(player), state.observation_tensor(player)
            )
            same = state.world.encoder.observation(state.world.state, player)
            assert np.array_equal(state.observation_tensor(player), same)  # the same tensors
        state.apply_action(int(rng.choice(state.legal_actions())))


def test_ismcts_beats_the_random_bot_at_thirty_one() -> None:
    """OpenSpiel's own ISMCTS bot (20 simulations a move, random rollouts), on worlds from
    the engine's resample, against tripletopper's random bot: it wins most of 20 games
    (the random bot wins half of its games against itself)."""
    game = pyspiel.load_game(short_name("thirty-one"), {"players": 2})
    wins = 0.0
    for index in range(20):
        rs = np.random.RandomState(index)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 20, random_state=rs)
        bot.set_resampler(
            lambda state, player, rs=rs: state.resample_from_infostate(player, rs.uniform)
        )
        me = index % 2
        state = game.new_initial_state()
        state.apply_action(index)
        world = state.world
        opponent = make_bot("random", world.game, 1 - me, index)
        while not state.is_terminal():
            player = state.current_player()
            if player == me:
                action = bot.step(state)
            else:
                move = opponent.choose(SeatView(world.state, player))
                action = world.encoder.action_to_index(move, world.state, player)
            state.apply_action(action)
        wins += state.returns()[me]
    assert wins >= 13, wins
