"""Properties of random 3UP 3DOWN games of 3UP's own: every card accounted for, the table's
knowledge of each hand (known cards, bounds) kept right, no card shown where it is hidden, and
the inlined one-card play equal to the general one.  What every game owes the engine contract
(refusals, clones, records, events on and off, resampled views) is tests/test_contract.py's."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tripletopper.cards.three_up import RANK, THREE_UP
from tripletopper.engine import Event, Rng
from tripletopper.games.three_up_three_down import ThreeUpThreeDown, ThreeUpThreeDownState
from tripletopper.games.three_up_three_down.actions import choose_action

from .helpers import arranged, play

NAMES = THREE_UP.names
COLORS_FOR = {2: ["RGB", "RG", "G", "B"], 3: ["RGB", "RB", "GB"], 4: ["RGB", "RG"]}


@st.composite
def games(draw: st.DrawFn) -> tuple[ThreeUpThreeDown, int]:
    players = draw(st.integers(2, 6))
    colors = draw(st.sampled_from(COLORS_FOR.get(players, ["RGB", "RG"])))
    game = ThreeUpThreeDown(players, colors=colors, rank_all=draw(st.booleans()))
    return game, draw(st.integers(0, 2**40))


def strings(value: Any) -> set[str]:
    """Every string inside a JSON-like value (card names among them)."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values()), *(strings(k) for k in value))
    if isinstance(value, list | tuple):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def hidden_from(state: ThreeUpThreeDownState, seat: int | None) -> set[str]:
    """Cards whose place this seat cannot know: the stock, every 3DOWN card, the others'
    hand cards not picked up from the pile (and their 3UP cards while still secret)."""
    hidden = {NAMES[c] for c in state.stock.contents()}
    for other in range(state.game.players):
        hidden |= {NAMES[c] for c in state.down[other]}
        if other != seat:
            hidden |= {NAMES[c] for c in state.hands[other] if c not in state.known[other]}
            if state.phase == 0:
                hidden |= {NAMES[c] for c in state.up[other]}
    return hidden


def bounds_hold(state: ThreeUpThreeDownState, seat: int) -> bool:
    """The seat's hidden hand cards can be matched to its public bounds."""
    hidden = sorted(RANK[c] for c in state.hands[seat] if c not in state.known[seat])
    bounds = state.bounds[seat]
    return len(bounds) <= len(hidden) and all(r <= b for r, b in zip(hidden, bounds, strict=False))


def check_invariants(state: ThreeUpThreeDownState) -> None:
    game = state.game
    cards = [c for group in (state.hands, state.up, state.down) for cs in group for c in cs]
    cards += state.pile + state.cleared + state.stock.contents()
    assert sorted(cards) == list(game.cards)
    for seat in range(game.players):
        assert state.known[seat] <= set(state.hands[seat])
        assert bounds_hold(state, seat)
        assert state.bounds[seat] == sorted(state.bounds[seat])
        assert state.ranks[seat] == sorted(RANK[c] for c in state.hands[seat])
    for seat in [None, *range(game.players)]:
        obs = state.public_observation() if seat is None else state.observation(seat)
        leaked = strings(obs) & hidden_from(state, seat)
        assert not leaked, (seat, leaked)


def check_events(state: ThreeUpThreeDownState, events: list[Event]) -> None:
    """No event names a card whose place its viewer cannot know (after the event)."""
    for event in events:
        for seat in [None, *range(state.game.players)]:
            assert not strings(event.view(seat)) & hidden_from(state, seat), (event, seat)


def choose(state: ThreeUpThreeDownState, rng: Rng) -> tuple[int, tuple[Any, ...]]:
    seats = state.to_act()
    seat = seats[rng.below(len(seats))]
    legal = state.legal_actions(seat)
    return seat, legal[rng.below(len(legal))]


@given(games())
def test_random_games_keep_every_invariant(case: tuple[ThreeUpThreeDown, int]) -> None:
    game, seed = case
    state = game.new_state(seed)
    rng = Rng(seed + 1)
    for _ in range(600):
        check_invariants(state)
        if state.is_terminal():
            break
        seat, action = choose(state, rng)
        check_events(state, state.apply(action, seat))


@given(games(), st.integers(0, 2**32))
def test_resample_keeps_what_the_seat_knows_and_redeals_the_rest(
    case: tuple[ThreeUpThreeDown, int], sample_seed: int
) -> None:
    game, seed = case
    state = game.new_state(seed)
    rng = Rng(seed ^ 0x5A5A)
    for step in range(300):
        if state.is_terminal():
            break
        if step % 4 == 0:
            for seat in range(game.players):
                twin = state.resample(seat, Rng(sample_seed + step))
                assert twin.hands[seat] == state.hands[seat]
                check_invariants(twin)
                for other in range(game.players):  # known cards stay where everyone saw them
                    assert twin.known[other] <= set(twin.hands[other])
                if state.phase == 0:  # a secret choice: the history agrees with the new deal
                    for other, action in twin.history:
                        assert action == choose_action([RANK[c] for c in twin.up[other]])
        seat, action = choose(state, rng)
        state.apply(action, seat)


def test_the_inlined_one_card_play_is_the_general_play() -> None:
    """``_apply`` plays one card from the hand inline; ``_play`` is its general twin.  Every
    such play of many random games, made both ways, leaves identical states and events."""
    plays = known = 0
    for seed in range(60):
        game = ThreeUpThreeDown(2 + seed % 5, rank_all=seed % 2 == 0)
        state = game.new_state(seed)
        rng = Rng(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            seat, action = choose(state, rng)
            if action[0] == "play" and len(action[1]) == 1 and state.hands[seat]:
                plays += 1
                known += bool(state.known[seat])
                twin = state.clone()
                general: list[Event] = []
                twin._play(seat, action[1], general)
                twin.history.append((seat, action))
                inlined = state.apply(action, seat)
                assert twin.dump() == state.dump()
                assert [(e.type, e.data, e.secret) for e in general] == [
                    (e.type, e.data, e.secret) for e in inlined
                ]
            else:
                state.apply(action, seat)
    assert plays > 5000 and known > 1000  # copies the table knows of were played too


def test_resample_redeals_the_unseen_cards() -> None:
    state = ThreeUpThreeDown(3).new_state(seed=5)
    own_down = set(state.down[0])
    others = {tuple(state.resample(0, Rng(k)).hands[1]) for k in range(30)}
    downs = {tuple(state.resample(0, Rng(k)).down[0]) for k in range(30)}
    assert len(others) > 25 and len(downs) > 25  # its own 3DOWN cards are unknown to it too
    assert any(set(d) != own_down for d in downs)


def test_resample_respects_what_a_pickup_showed() -> None:
    """After a forced pickup every hidden card of that hand is below the top it failed on;
    an unplayable 3DOWN card is below its top; playing a low hidden card drops a bound."""
    state = arranged(2, hands={0: "2 3 4 9", 1: "10 5"}, stock="", pile="8", turn=1)
    play(state, "play 10")
    play(state, "pickup")
    assert state.bounds[0] == [9, 9, 9, 9]  # 2 3 4 9: each below the 10
    for k in range(200):
        twin = state.resample(1, Rng(k))
        hidden = [c for c in twin.hands[0] if c not in twin.known[0]]
        assert len(hidden) == 4 and all(RANK[c] <= 9 for c in hidden)
    flip = arranged(2, hands={1: "9 2 2"}, down={0: "3 6 8"}, pile="2 7")
    play(flip, "flip")
    assert flip.bounds[0] == [6]
    for k in range(200):
        twin = flip.resample(1, Rng(k))
        (hidden,) = [c for c in twin.hands[0] if c not in twin.known[0]]
        assert RANK[hidden] <= 6
    play(flip, "play 9", "pickup", "play 2")  # seat 0 holds 2 7 3 9, only the 3 hidden
    assert flip.bounds[0] == [6]
    play(flip, "play 3")  # the table cannot tell whether that was the flipped card
    assert flip.bounds[0] == []


def test_many_complete_random_games_account_for_every_card() -> None:
    for seed in range(150):
        players = 2 + seed % 5
        game = ThreeUpThreeDown(players, rank_all=seed % 3 == 0)
        state = game.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat, action = choose(state, rng)
            state.apply(action, seat, events=False)
        results = state.results()
        assert results is not None and results.winners
        cards = [c for group in (state.hands, state.up, state.down) for cs in group for c in cs]
        cards += state.pile + state.cleared + state.stock.contents()
        assert sorted(cards) == list(game.cards)
        if game.rank_all:
            assert [len(g) for g in results.ranking] == [1] * players
