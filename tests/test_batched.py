"""The batched engines play exactly the scalar engines' games (docs/batched.md).

Each test runs N games in a batch beside N scalar states with the same seeds (and
stacked decks and setup), picks each step's actions from the batch's legal masks and
applies them to both.  After every step, for every game: the scalar ``dump()`` (less the
history) and every seat's and the spectator's ``observation`` equal the ones the batch
rebuilds from its arrays, the legal mask holds exactly the scalar legal actions, and at
the end the results agree.  Stacked decks steer games into the rare paths.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

from tests.thirty_one.helpers import JUNK, dealt_31, stacked
from tripletopper import make_game
from tripletopper.batched import ThirtyOneBatch, ToeBatch
from tripletopper.batched.core import derive_seed, mix64
from tripletopper.batched.toe import ACTIONS as ACTIONS_TOE
from tripletopper.cards.triple_topper import WILDS
from tripletopper.engine import Game, State
from tripletopper.engine.rng import derive_seed as scalar_derive_seed
from tripletopper.engine.rng import mix64 as scalar_mix64
from tripletopper.errors import IllegalActionError, InvalidOptionError, MalformedActionError
from tripletopper.games.thirty_one import ThirtyOne
from tripletopper.games.thirty_one.rules import DISCARD_PHASE
from tripletopper.games.toe import FITS, NATURAL, WASTED, Toe
from tripletopper.games.toe.rules import PLAY as TOE_PLAY

NOT_KEPT = {"history"}
"""What a batch does not keep."""

Policy = Callable[[Any, list[State], random.Random], np.ndarray]


def weighted(weights: dict[str, float]) -> Policy:
    """Each game picks an action kind by ``weights`` among its legal kinds, then one action
    of that kind (as tests/test_contract.py does), from the batch's mask."""

    def policy(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
        mask = batch.legal_mask()
        out = np.full(batch.n, -1)
        for i in range(batch.n):
            legal = np.flatnonzero(mask[i]).tolist()
            if not legal:
                continue
            kinds = sorted({batch.action(i, a)[0] for a in legal})
            (kind,) = rng.choices(kinds, [weights.get(k, 1.0) for k in kinds])
            out[i] = rng.choice([a for a in legal if batch.action(i, a)[0] == kind])
        return out

    return policy


def uniform(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
    """The batch's own uniform choice (checked against its mask on the way)."""
    bits = np.array([rng.getrandbits(32) for _ in range(batch.n)], dtype=np.uint64)
    picked = batch.sample(bits)
    mask = batch.legal_mask()
    for i in range(batch.n):
        legal = np.flatnonzero(mask[i])
        expected = legal[(int(bits[i]) * len(legal)) >> 32] if len(legal) else -1
        assert picked[i] == expected
    return picked


def as_random_bots(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
    """``sample(scalar_order=True)``: for the same bits, the scalar ``RandomBot``'s choice
    among ``legal_actions()`` (checked on the way)."""
    bits = [rng.getrandbits(32) for _ in range(batch.n)]
    picked = batch.sample(np.array(bits, dtype=np.uint64), scalar_order=True)
    for i, state in enumerate(states):
        if state.to_act():
            legal = state.legal_actions()
            assert batch.action(i, int(picked[i])) == legal[(bits[i] * len(legal)) >> 32]
    return picked


def check_same(batch: Any, states: Sequence[State], where: str) -> None:
    for i, state in enumerate(states):
        scalar = state.dump()
        ours = batch.dump(i)
        assert scalar.keys() - ours.keys() <= NOT_KEPT
        for key in ours:
            assert ours[key] == scalar[key], (where, i, key)
        for seat in range(state.game.players):
            assert batch.observation(i, seat) == state.observation(seat), (where, i, seat)
        assert batch.observation(i, None) == state.public_observation(), (where, i)
        legal = {batch.index(i, a) for a in state.legal_actions()} if state.to_act() else set()
        assert set(np.flatnonzero(batch.legal_mask()[i]).tolist()) == legal, (where, i)
        results = state.results()
        ours_results = batch.results(i)
        assert (ours_results and ours_results.to_json()) == (results and results.to_json())


def lockstep(
    game: Game,
    batch_cls: Any,
    seeds: Sequence[int],
    policy: Policy,
    steps: int,
    *,
    decks: Sequence[Any] | None = None,
    setup: dict[str, Any] | None = None,
    autoreset: bool = False,
    seed: int = 0,
) -> tuple[Any, list[State]]:
    """Play the batch and the scalar states side by side, checking every step."""
    setup = setup or {}
    batch = batch_cls(game, seeds, decks=decks, **setup)
    states = [
        game.new_state(s, decks=decks[i] if decks else None, **setup) for i, s in enumerate(seeds)
    ]
    rng = random.Random(seed)
    check_same(batch, states, "start")
    for step in range(steps):
        actions = policy(batch, states, rng)
        over = [s.is_terminal() for s in states]
        for i, state in enumerate(states):
            if not state.is_terminal():
                state.apply(batch.action(i, int(actions[i])), events=False)
        ended = batch.step(actions, autoreset=autoreset)
        assert ended.tolist() == [
            s.is_terminal() and not o for s, o in zip(states, over, strict=False)
        ]
        if autoreset:
            for i in np.flatnonzero(ended):
                results = states[i].results()
                assert results is not None
                assert batch.final_returns[i].tolist() == results.returns()
                assert batch.episode_seed(i) == scalar_derive_seed(seeds[i], int(batch.episode[i]))
                states[i] = game.new_state(batch.episode_seed(i), **setup)
        check_same(batch, states, f"step {step}")
        if not autoreset and all(s.is_terminal() for s in states):
            break
    return batch, states


def test_the_generator_is_the_scalar_one() -> None:
    values = [0, 1, 2**63 - 1, 2**64 - 1, 12345678901234567, 0x9E3779B97F4A7C15]
    ours = mix64(np.array(values, dtype=np.uint64)).tolist()
    assert ours == [scalar_mix64(v) for v in values]
    seeds = np.array(values[:3], dtype=np.uint64)
    episodes = np.array([1, 7, 99], dtype=np.uint64)
    assert derive_seed(seeds, episodes).tolist() == [
        scalar_derive_seed(s, e) for s, e in zip(values[:3], [1, 7, 99], strict=True)
    ]


# --- Thirty-One ------------------------------------------------------------------------

THIRTY_ONE_VARIANTS = [
    (2, {}),
    (4, {}),
    (9, {}),
    (3, {"three_of_a_kind": "30.5"}),
    (4, {"manual_31": True}),
    (9, {"manual_31": True, "three_of_a_kind": "30.5"}),
]
RARE_KNOCKS = weighted({"knock": 0.05, "stop": 0.3, "play": 1.0, "declare": 1.0})


@pytest.mark.parametrize(("players", "options"), THIRTY_ONE_VARIANTS)
def test_thirty_one_random_games_are_the_scalar_games(
    players: int, options: dict[str, Any]
) -> None:
    game = ThirtyOne(players, **options)
    steps = 1200 // players
    lockstep(game, ThirtyOneBatch, range(3), RARE_KNOCKS, steps, seed=players)
    lockstep(game, ThirtyOneBatch, range(100, 103), uniform, steps, seed=players)
    lockstep(game, ThirtyOneBatch, range(200, 202), as_random_bots, steps // 2, seed=players)


def test_thirty_one_finished_games_restart_with_their_next_seed() -> None:
    batch, _states = lockstep(ThirtyOne(2), ThirtyOneBatch, [5, 6, 7], uniform, 150, autoreset=True)
    assert batch.episode.min() >= 1  # every game finished at least once


def keep_the_hand(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
    """Never knock: draw, throw the drawn card back, stop when the stock is empty (runs
    the stock down with the dealt hands kept)."""
    actions = np.full(batch.n, -1)
    mask = batch.legal_mask()
    for i in range(batch.n):
        legal = np.flatnonzero(mask[i]).tolist()
        if not legal:
            continue
        if batch.phase[i] == DISCARD_PHASE:
            drawn = int(batch.hands[i, batch.turn[i], 3])
            actions[i] = batch.index(i, ("discard", drawn, False))
        else:
            wanted = ("stop",) if batch.index(i, ("stop",)) in legal else ("draw",)
            actions[i] = batch.index(i, wanted) if batch.index(i, wanted) in legal else legal[0]
    return actions


def stacked_game(players: int, dealer: int, deals: Sequence[Any], **options: Any) -> Any:
    """The decks and dealer that tests/thirty_one's ``stacked`` builds for ``deals``."""
    origin = stacked(players, dealer, deals, **options).origin
    return origin["decks"], origin["setup"]["dealer"]


def test_thirty_one_void_hands_empty_stock_stops_and_eliminations() -> None:
    to_the_drain = [dealt_31(0, 2)] * 3 + [dealt_31(1, 2)] * 3
    tie = ({0: "2C 3D 4H", 1: "2D 3H 4S"}, "9S", "")  # 4 and 4: both would be out
    decks, dealer = stacked_game(2, 1, [*to_the_drain, tie])
    game = ThirtyOne(2)
    _batch, states = lockstep(
        game, ThirtyOneBatch, [0], keep_the_hand, 200, decks=[decks], setup={"dealer": dealer}
    )
    assert states[0].stats()["void_hands"] >= 1 and states[0].stats()["stops"] >= 2
    assert states[0].is_terminal()


def test_thirty_one_dealt_31s_and_three_of_a_kind() -> None:
    many = ({0: "AS KS QS", 1: "AH KH QH", 2: "7H 7S 7D"}, "9S", "")
    alone = ({0: "7H 7S 7D", 1: "AD KD 9D", 2: "AS KS 2D"}, "9S", "")  # 7 or 30.5; 30; 21
    for options in ({}, {"manual_31": True}, {"three_of_a_kind": "30.5"}):
        decks, dealer = stacked_game(3, 2, [many, alone, dealt_31(1, 3)], **options)
        game = ThirtyOne(3, **options)
        _batch, states = lockstep(
            game,
            ThirtyOneBatch,
            [0, 1],
            RARE_KNOCKS,
            120,
            decks=[decks, decks[1:]],
            setup={"dealer": dealer},
        )
        if not game.manual:  # a dealt 31 must be declared
            assert all(state.stats()["thirty_ones"] >= 1 for state in states)


def test_thirty_one_action_indices_are_exact_inverses() -> None:
    batch = ThirtyOneBatch(ThirtyOne(3, manual_31=True), [0])
    actions = [batch.action(0, k) for k in range(110)]
    assert len(set(actions)) == 110
    assert [batch.index(0, a) for a in actions] == list(range(110))
    names = {batch.game.action_to_text(a) for a in actions}
    assert {"take", "draw", "knock", "stop", "play", "declare", "discard AS declare"} <= names


def test_an_illegal_index_is_refused_and_changes_nothing() -> None:
    batch = ThirtyOneBatch(ThirtyOne(4), [1, 2, 3])
    before = [batch.dump(i) for i in range(3)]
    legal = batch.sample(np.zeros(3, dtype=np.uint64))
    for bad in (batch.index(0, ("stop",)), 109, 110, -1):
        actions = legal.copy()
        actions[1] = bad
        with pytest.raises(IllegalActionError, match="game 1"):
            batch.step(actions)
        assert [batch.dump(i) for i in range(3)] == before
    for bad_shape in ([0, 0], legal[:, None]):
        with pytest.raises(MalformedActionError, match="one action index per game"):
            batch.step(bad_shape)
    assert [batch.dump(i) for i in range(3)] == before


def test_junk_hands_deal_as_stacked() -> None:
    """The stacked deal reaches the seats in order (a direct look at the arrays)."""
    decks, dealer = stacked_game(4, 3, [({s: JUNK[s] for s in range(4)}, "9S", "AS")])
    batch = ThirtyOneBatch(ThirtyOne(4), [0], decks=[decks], dealer=dealer)
    assert [batch.game.deck.format_many(batch.hand(0, s)) for s in range(4)] == [
        JUNK[s].split() for s in range(4)
    ]
    assert batch.pile[0, 0] == batch.game.deck.parse("9S")


# --- Toe --------------------------------------------------------------------------------

TOE_VARIANTS = [{}, {"max_turns": 12}]


@pytest.mark.parametrize("options", TOE_VARIANTS)
def test_toe_random_games_are_the_scalar_games(options: dict[str, Any]) -> None:
    game = Toe(2, **options)
    _batch, states = lockstep(game, ToeBatch, range(3), weighted({"discard": 0.3}), 400)
    _batch, more = lockstep(game, ToeBatch, range(50, 53), uniform, 300)
    lockstep(game, ToeBatch, range(60, 62), as_random_bots, 150)
    if game.max_turns > 100:
        assert max(s.stats()["reshuffles"] for s in states + more) >= 1
        assert max(s.stats()["wasted"] for s in states + more) >= 1


DRAWN_BOARD = "1001100001111000111000110111010010010110100011000100111000110111"
"""A full board with no line of one mark (a local search found it): X on the 0s."""


def play_the_drawn_card(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
    """Draw, then play the card just drawn on its first free cell (wasted if none)."""
    actions = np.zeros(batch.n, dtype=np.int64)
    for i in range(batch.n):
        if batch.phase[i] == TOE_PLAY:
            card = int(batch.drawn[i])
            cell = next((c for c in FITS[card] if batch.board[i, c] < 0), WASTED)
            actions[i] = batch.index(i, ("play", card, cell))
    return actions


def discard_all(batch: Any, states: list[State], rng: random.Random) -> np.ndarray:
    return np.full(batch.n, 4)


def test_toe_full_board_draws_wasted_plays_and_stacked_reshuffles() -> None:
    x_cells = [c for c in range(64) if DRAWN_BOARD[c] == "0"]
    o_cells = [c for c in range(64) if DRAWN_BOARD[c] == "1"]
    wild = [c for c in range(125) if WILDS[c]]
    stock = [NATURAL[c] for pair in zip(x_cells, o_cells, strict=True) for c in pair]
    full = [[*wild[:6], *stock]]
    game = Toe(2)
    _batch, states = lockstep(
        game, ToeBatch, [0, 1], play_the_drawn_card, 300, decks=[full, [[], wild]], setup={"x": 0}
    )
    results = states[0].results()
    assert results is not None and results.winners == () and states[0].reason == "full"
    assert states[1].stats()["wasted"] >= 1
    # Discarding only: the stock runs out in the middle of a refill, and the reshuffled
    # discards (the ones just thrown too) come back in a stacked order.
    game = Toe(2, max_turns=150)
    _batch, states = lockstep(
        game, ToeBatch, [0, 1], discard_all, 160, decks=[[[], wild[::-1]], []]
    )
    assert all(s.stats()["reshuffles"] >= 2 and s.reason == "max_turns" for s in states)


def test_toe_finished_games_restart_and_illegal_indices_are_refused() -> None:
    game = Toe(2, max_turns=20)
    batch, _states = lockstep(game, ToeBatch, [3, 4], uniform, 60, autoreset=True)
    assert batch.episode.min() >= 1
    before = [batch.dump(i) for i in range(2)]
    legal = batch.sample(np.zeros(2, dtype=np.uint64))
    for bad in (ACTIONS_TOE, -1, 5 + 65 * 3 + 64 if batch.phase[1] == 0 else 1):
        actions = legal.copy()
        actions[1] = bad
        with pytest.raises(IllegalActionError, match="game 1"):
            batch.step(actions)
        assert [batch.dump(i) for i in range(2)] == before


def test_toe_action_indices_are_exact_inverses() -> None:
    batch = ToeBatch(Toe(2), [7])
    for _ in range(30):  # through both phases
        for index in np.flatnonzero(batch.legal_mask()[0]):
            action = batch.action(0, int(index))
            assert batch.index(0, action) == index
            assert batch.game.parse_action(batch.game.action_to_text(action)) == action
        batch.step(batch.sample(np.array([2**31], dtype=np.uint64)))
    with pytest.raises(InvalidOptionError, match="Quiz Show"):
        ToeBatch(make_game("toe", 2, quiz=True), [0])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "batch",
    [ThirtyOneBatch(ThirtyOne(3), [4, 5, 6]), ToeBatch(Toe(2), [4, 5, 6])],
    ids=["thirty-one", "toe"],
)
def test_without_the_check_minus_one_leaves_a_game_as_it_is(batch: Any) -> None:
    """Without ``check`` a live game sent -1 waits (the vector environments step only
    the games whose opponent is to act); with it, -1 is refused."""
    before = [batch.dump(i) for i in range(3)]
    actions = batch.sample(np.full(3, 2**31, dtype=np.uint64))
    actions[[0, 2]] = -1
    with pytest.raises(IllegalActionError, match="game 0"):
        batch.step(actions)
    batch.step(actions, check=False)
    assert [batch.dump(0), batch.dump(2)] == [before[0], before[2]]
    assert batch.dump(1) != before[1]
