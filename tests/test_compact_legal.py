"""``State.legal_summary`` (what the card room sends as ``legal``) stands for exactly the
legal actions: over many random games of every registered game, its patterns expanded in
place give ``legal_actions(seat)`` in the same order, for every seat and the table, both
in the engine's tuples and through the wire form a client expands."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tripletopper import make_game
from tripletopper.engine import TABLE, Action, ActionPattern, Game, State
from tripletopper.games import GAMES
from tripletopper.server.client import expand

EXTRA: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "toe": [(2, {"quiz": True, "max_turns": 60})],
    "memo-match": [
        (3, {"reveal": "private", "swap_on_miss": True}),
        (8, {"wilds": False, "max_turns": 300}),
    ],
    "thirty-one": [(4, {"manual_31": True, "three_of_a_kind": "30.5"})],
    "thirty-two": [(5, {"end": "open", "counters": 3})],
    "three-up-three-down": [(4, {"colors": "RG"})],
}
"""Options worth a run of their own, besides each game's fewest and most players."""

VARIANTS = [
    (name, players, options)
    for name, cls in sorted(GAMES.items())
    for players, options in [
        *((n, {}) for n in sorted({cls.min_players, cls.max_players})),
        *EXTRA.get(name, []),
    ]
]


def expanded(summary: list[Action | ActionPattern]) -> list[Action]:
    out: list[Action] = []
    for entry in summary:
        if isinstance(entry, ActionPattern):
            out.extend(entry.actions())
        else:
            out.append(entry)
    return out


def from_the_wire(game: Game, summary: list[Action | ActionPattern]) -> list[Action]:
    """What a client reading the summary's wire form plays, read back by the engine."""
    entries = [
        {"pattern": game.pattern_to_wire(e)}
        if isinstance(e, ActionPattern)
        else {"action": game.action_to_wire(e)}
        for e in summary
    ]
    return [game.action_from_wire(wire) for wire in expand(entries)]


def check(state: State, patterns: list[int]) -> None:
    game = state.game
    wire_checked = False
    for seat in (*range(game.players), TABLE):
        summary = list(state.legal_summary(seat))
        legal = state.legal_actions(seat)
        assert expanded(summary) == legal, (seat, state)
        found = [e for e in summary if isinstance(e, ActionPattern)]
        if found:
            if not wire_checked:  # the same for every seat that may spot, and slow
                assert from_the_wire(game, summary) == legal
                wire_checked = True
            assert all(p.count == len(list(p.actions())) >= 1 for p in found)
            patterns.append(len(summary))


def random_game(state: State, rng: random.Random, patterns: list[int]) -> None:
    """Random legal actions: uniform, or (every other game) a kind first, then one of its
    actions, which plays the rare kinds (Memo Match's declaration) far more often."""
    by_kind = rng.random() < 0.5
    for _ in range(3000):
        check(state, patterns)
        if state.is_terminal():
            return
        seat = rng.choice(state.to_act())
        legal = state.legal_actions(seat)
        if by_kind:
            kind = rng.choice(sorted({a[0] for a in legal}))
            legal = [a for a in legal if a[0] == kind]
        state.apply(rng.choice(legal), seat, events=False)


@pytest.mark.parametrize(("name", "players", "options"), VARIANTS)
def test_the_summary_expands_to_exactly_the_legal_actions(name, players, options):
    game = make_game(name, players, **options)
    patterns: list[int] = []
    for seed in range(12):
        random_game(game.new_state(seed), random.Random(seed), patterns)
    if name == "memo-match" and players > 1:
        assert patterns, "no spotting phase was reached"
        assert max(patterns) == 2  # a pattern of claims, and pass


def test_every_registered_game_is_checked():
    assert {name for name, _players, _options in VARIANTS} == set(GAMES)
