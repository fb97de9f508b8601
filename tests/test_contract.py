"""The engine contract (``docs/engine.md``), checked the same way for every registered game.

Random games of every game in ``GAMES`` (its fewest, most and a middle number of
players, and variants setting each option that changes play) are played through the
contract alone: the seats to act, the ``CLOCK`` now and then while a timed phase
runs, and ``TABLE`` actions now and then.  Along the way:

- events on and events off play the identical game (``dump()`` equal after every
  step; without events every other action goes through ``apply_unchecked``, as in the
  search's playouts), so the paths taken only without events (simulations) agree with
  the plain ones; a game's fast ``_legal_for`` gives what its plain ``_legal_actions`` gives;
- every legal action reached reads back from its text and (JSON) wire forms;
- malformed tuples, texts and wire objects, illegal actions, out-of-turn seats and
  bad seats are refused with ``MalformedActionError`` / ``IllegalActionError`` and
  change nothing;
- a clone is independent of its original (both ways); a record replays to the
  identical state; a finished game has results that rank every seat once;
- ``resample(seat, rng)`` keeps that seat's observation, who acts and its legal
  actions (and their previews), the hints for it and for a spectator, and its future
  plays on;
- no view shows a card its seat cannot see: observations hold nothing a resample
  could change (above); the spectator's names no card some seat's does not; every
  card an event shows a viewer is in that viewer's observation just before or just
  after the event, or is named by the action itself (a discard that the same action
  then buries under a new deal).  Event views themselves cannot be compared with a
  resample's: a showdown rightly shows hands that a resample deals differently.
- the research encodings' fast path (``Encoding.encode_into``, straight from the state)
  writes exactly the features of ``observation(seat)`` for every seat at every step,
  and, like the observation, is unchanged by ``resample(seat)``.

Worlds built from a seat's view (``Game.world_from_view``, for remote bots) are checked in
random games too, from the observation and recall as JSON travels them: the world gives the
seat the same observation, recall, seats to act and legal actions, holds every card once,
and plays on; it depends on nothing but the view and the rng (a resample, which looks the
same to the seat, gives the very same world), different rngs deal the hidden cards
differently where anything is hidden, and the world deals exactly as ``resample`` does with
the same rng (so a remote search bot decides as a local one).

The generator's fast paths are checked the same way: ``Rng.sample`` draws what one
``below`` per item draws, and ``Rng.advance(n)`` leaves the generator where ``n``
draws would.  Each game's own invariants (its card accounting, exactly which cards
are hidden where, its scoring) stay in ``tests/<game>/test_properties.py``.

The games are chosen by plain seeds, so a failure names its variant and seed;
``HYPOTHESIS_PROFILE=thorough`` plays 125 games per variant instead of 8.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import settings

from tests.test_batched import lockstep, uniform
from tripletopper import make_game
from tripletopper.batched import ThirtyOneBatch, ToeBatch
from tripletopper.engine import CLOCK, TABLE, Action, Event, Game, Rng, State
from tripletopper.engine.encoding import Encoding
from tripletopper.errors import IllegalActionError, MalformedActionError
from tripletopper.games import GAMES
from tripletopper.games.memo_match import MemoMatchState
from tripletopper.games.thirty_one import ThirtyOneState
from tripletopper.games.thirty_two import ThirtyTwoState
from tripletopper.games.three_up_three_down import ThreeUpThreeDownState
from tripletopper.games.toe import ToeState
from tripletopper.record import Record
from tripletopper.rl.encoding import ENCODINGS

OPTIONS: dict[str, list[tuple[int, dict[str, Any]]]] = {
    "thirty-two": [
        (4, {"end": "open", "counters": 4}),
        (5, {"no_wilds": True, "cap_at_32": False, "counters": 3}),
    ],
    "thirty-one": [
        (3, {"three_of_a_kind": "30.5"}),
        (4, {"manual_31": True}),
        (9, {"manual_31": True, "three_of_a_kind": "30.5"}),
    ],
    "three-up-three-down": [
        (2, {"colors": "G", "max_turns": 30}),  # the turn limit ends most of these games
        (3, {"colors": "RB", "rank_all": True}),
        (5, {"rank_all": True, "max_turns": 60}),
    ],
    "toe": [
        (2, {"quiz": True}),
        (2, {"quiz": True, "max_questions": 4, "answer_seconds": 0, "max_turns": 30}),
        (2, {"max_turns": 12}),
    ],
    "memo-match": [
        (3, {"reveal": "private"}),
        (2, {"reveal": "private", "swap_on_miss": True, "max_turns": 30}),
        (5, {"wilds": False, "swap_on_miss": True}),
    ],
}
"""Variants with the options that change play, besides each game's default options."""

BATCHED: dict[str, Any] = {"thirty-one": ThirtyOneBatch, "toe": ToeBatch}
"""Games with a batched engine (tripletopper.batched): every variant here that it plays is
also played through it, beside the scalar engine, and must be the same game."""
NOT_BATCHED = {"toe": {"quiz"}}
"""Options whose variants a batched engine does not play (Toe's Quiz Show)."""

NOT_PLAY = {"toe": {"buzz_seconds", "questions"}, "memo-match": {"spot_seconds"}}
"""Options that change no play through the contract: a clock's length, the question bank."""

NOT_CARDS = {"toe": {"cell", "board", "line", "last"}}
"""Keys of views whose strings are not cards (Toe's board cells are named like cards; its
last mark's card stays in view after it is gone)."""

VARIANTS = [
    (name, players, options)
    for name, cls in sorted(GAMES.items())
    for players, options in [
        *((n, {}) for n in sorted({cls.min_players, cls.max_players, cls.max_players // 2 + 1})),
        *OPTIONS.get(name, []),
    ]
]
"""Each game with default options for its fewest, most and a middle number of players,
then its OPTIONS variants."""

GAMES_PER_VARIANT = max(8, settings.default.max_examples // 8)
"""8 games per variant; more with ``HYPOTHESIS_PROFILE=thorough`` (125)."""
MAX_STEPS = 250
CLOCK_CHANCE = 0.2
TABLE_CHANCE = 0.01
JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
NAMES = {name: frozenset(cls.deck.names) for name, cls in GAMES.items()}
KIND_WEIGHTS = (0.02, 0.2, 1.0, 1.0)
MALFORMED = (MalformedActionError,)
ILLEGAL = (IllegalActionError,)
BOTH = (MalformedActionError, IllegalActionError)
BAD_VALUES: list[object] = [None, "x", 10**6, -(10**6), 1.5, (10**6,), ((),), [0]]
BAD_WIRE_VALUES: list[object] = [None, "", "ZZ9", 12345, -1, True, [], ["ZZ9"], {}, 1.5]
BAD_TEXTS = ["", "   ", "zzz", "draw draw", "flip Z9", "play 99", "discard", "\x00", "take ZZ9"]


def cards_in(game: Game, value: Any) -> set[str]:
    """The card names in a view, which must be JSON-able (its board cells left out)."""
    skip = NOT_CARDS.get(game.name)
    if skip and isinstance(value, dict):
        value = {key: item for key, item in value.items() if key not in skip}
    return set(JSON_STRING.findall(json.dumps(value))).intersection(NAMES[game.name])


def placed(recall: dict[str, Any]) -> dict[str, Any]:
    """A recall without the cards it says the seat cannot place (Memo Match's ``unplaced``
    groups name them, with the places they may be in)."""
    return {key: value for key, value in recall.items() if key != "unplaced"}


class Views:
    """The card names each viewer may know: its observation and, for a seat, its recall
    (what it saw that is no longer on view; None, the spectator, may know what every seat
    recalls, such as a publicly flipped card that was turned back)."""

    def __init__(self, state: State) -> None:
        game = state.game
        self.cards: dict[int | None, set[str]] = {None: cards_in(game, state.public_observation())}
        for seat in range(game.players):
            self.cards[seat] = cards_in(game, state.observation(seat))
        everyone = set.intersection(*(self.cards[s] for s in range(game.players)))
        assert self.cards[None] <= everyone, ("the spectator sees", self.cards[None] - everyone)
        recalled = [cards_in(game, placed(state.recall(s))) for s in range(game.players)]
        for seat, cards in enumerate(recalled):
            self.cards[seat] |= cards
        self.cards[None] |= set.intersection(*recalled)


def check_events(
    state: State, seat: int, action: Action, events: list[Event], before: Views, after: Views
) -> None:
    """Every card an event shows a viewer is one its observation held before or holds after,
    or one the action names (a card the actor saw: a discard on the pile may be gone again
    when the same action ends the hand; Toe's face-down discards, which name cards that stay
    hidden, are checked in tests/toe), or, in the action that ends the game (after which
    hands may no longer be shown), one of the viewer's own secrets (the cards it drew)."""
    game = state.game
    named = cards_in(game, game.action_to_wire(action))
    if seat >= 0:
        assert named <= before.cards[seat], ("a card the actor could not see", named)
    over = state.is_terminal()
    for event in events:
        for viewer in before.cards:
            shown = cards_in(game, event.view(viewer))
            leaked = shown - before.cards[viewer] - after.cards[viewer] - named
            if over and leaked and event.secret and viewer in event.secret:
                leaked -= cards_in(game, event.secret[viewer])
            assert not leaked, (viewer, event, leaked)


def check_now(state: State) -> None:
    """Who may act, the clock, the table and the results agree with each other."""
    game = state.game
    seats = state.to_act()
    limit = state.timeout()
    clock = state.legal_actions(CLOCK)
    table = state.legal_actions(TABLE)
    if state.is_terminal():
        assert seats == () and clock == [] and table == []
        assert all(state.legal_actions(s) == [] for s in range(game.players))
        results = state.results()
        assert results is not None and len(results.scores) == game.players
        assert sorted(s for group in results.ranking for s in group) == list(range(game.players))
        assert set(results.winners) <= set(range(game.players))
        assert abs(sum(results.returns()) - (1.0 if results.winners else 0.0)) < 1e-9
        json.dumps(results.to_json())
        return
    assert state.results() is None
    assert seats or clock, "nobody may act in a game that is not over"
    assert clock == ([] if limit is None else [limit[1]])
    for seat in range(game.players):
        legal = state.legal_actions(seat)
        if seat in seats:
            assert legal, f"seat {seat} is to act with no legal action"
            plain = state._legal_actions(seat)
            assert legal == plain, f"the fast _legal_for({seat}) is not _legal_actions({seat})"
            assert state.default_action(seat) in legal
        else:
            assert legal == []
        if limit is not None:
            assert limit[1] not in legal  # only the clock plays a timeout
    if limit is not None:
        assert limit[1] not in table


def check_forms(game: Game, state: State, seen: dict[Action, None]) -> None:
    """Every legal action not met before reads back from its text and wire forms."""
    for seat in (*state.to_act(), CLOCK, TABLE):
        for action in state.legal_actions(seat):
            if action in seen:
                continue
            seen[action] = None
            assert game.parse_action(game.action_to_text(action)) == action
            wire = json.loads(json.dumps(game.action_to_wire(action)))
            assert game.action_from_wire(wire) == action


def choose(state: State, rng: random.Random, weights: dict[str, float]) -> tuple[int, Action]:
    """A random move: the clock or a table action now and then, else a seat's action, its
    kind drawn by the game's ``weights`` (so some games knock or declare rarely and run
    long, others often), then one action of that kind; no weights: any legal action."""
    clock = state.legal_actions(CLOCK)
    seats = state.to_act()
    if clock and (not seats or rng.random() < CLOCK_CHANCE):
        return CLOCK, clock[0]
    table = state.legal_actions(TABLE)
    if table and rng.random() < TABLE_CHANCE:
        return TABLE, rng.choice(table)
    seat = rng.choice(seats)
    legal = state.legal_actions(seat)
    if not weights:
        return seat, rng.choice(legal)
    kinds = sorted({a[0] for a in legal})
    (kind,) = rng.choices(kinds, [weights[k] for k in kinds])
    return seat, rng.choice([a for a in legal if a[0] == kind])


def refuse(
    state: State, call: Any, *args: Any, expected: tuple[type[Exception], ...] = BOTH
) -> None:
    """``call(*args)`` (a method of ``state``) raises one of ``expected`` and changes no
    version (the caller compares whole dumps once its attempts are done)."""
    version = state.version
    try:
        call(*args)
    except expected as exc:
        assert str(exc)
    else:  # pragma: no cover - the failure message
        raise AssertionError(f"{call.__name__}{args!r} was accepted")
    assert state.version == version


def malformed(game: Game, samples: list[Action]) -> list[tuple[object, bool]]:
    """Compact actions that are no action: ``(action, shape)``, where ``shape`` says it is
    misshapen (only ``MalformedActionError`` will do) rather than holding bad values."""
    out: list[tuple[object, bool]] = [
        (a, True) for a in [None, 0, "draw", [], (), ("no-such-action",), (7,), {"type": "draw"}]
    ]
    for name, kind in game.codec.kinds.items():
        count = len(kind.params)
        out.append(((name, *[0] * (count + 1)), True))
        if count:
            out.append(((name,), True))
    for action in samples:
        out.append((list(action), True))
        for i in range(1, len(action)):
            out.extend(((*action[:i], bad, *action[i + 1 :]), False) for bad in BAD_VALUES)
    return out


def bad_wires(game: Game, samples: list[Action]) -> list[object]:
    out: list[object] = [None, [], "draw", 5, {}, {"type": None}, {"type": "nope"}, {"type": []}]
    for action in samples:
        wire = game.action_to_wire(action)
        out.append({**wire, "bogus": 1})
        for key in wire:
            if key != "type":
                out.extend({**wire, key: bad} for bad in BAD_WIRE_VALUES)
    return out


def bad_texts(game: Game, samples: list[Action]) -> list[str]:
    out = [*BAD_TEXTS, *game.codec.kinds]
    for action in samples:
        text = game.action_to_text(action)
        out.append(text + " zzz")
        out.append(" ".join(text.split()[:1] + ["ZZ9"] * (len(text.split()) - 1)))
    return out


def check_refusals(state: State, rng: random.Random, seen: dict[Action, None]) -> None:
    """Bad actions, forms and seats are refused with the contract's errors, changing nothing."""
    game = state.game
    before = state.dump()
    seats = state.to_act()
    actor = rng.choice(seats) if seats else CLOCK
    legal = state.legal_actions(actor)
    samples = rng.sample(legal, min(2, len(legal)))
    for action, shape in malformed(game, samples):
        if action not in legal:
            refuse(state, state.apply, action, actor, expected=MALFORMED if shape else BOTH)
    known = list(seen)
    for action in rng.sample(known, min(12, len(known))):  # well formed, legal some other time
        for seat in (actor, TABLE, CLOCK):
            if action not in state.legal_actions(seat):
                refuse(state, state.apply, action, seat, expected=ILLEGAL)
    for action in samples:  # the actor's own action, for seats that may not play it
        others = [s for s in range(game.players) if s not in seats]
        for seat in [*others, game.players, 99, -3, TABLE, CLOCK]:
            if action not in state.legal_actions(seat):
                refuse(state, state.apply, action, seat, expected=ILLEGAL)
    for raw in bad_wires(game, samples):
        try:
            action = game.action_from_wire(raw)
        except MalformedActionError:
            refuse(state, state.apply_wire, raw, actor, expected=MALFORMED)
            continue
        if action not in legal:
            refuse(state, state.apply_wire, raw, actor, expected=ILLEGAL)
    for text in bad_texts(game, samples):
        try:
            action = game.parse_action(text)
        except MalformedActionError:
            refuse(state, state.apply_text, text, actor, expected=MALFORMED)
            continue
        if action not in legal:
            refuse(state, state.apply_text, text, actor, expected=ILLEGAL)
    for seat in (game.players, -1, CLOCK, 99):
        refuse(state, state.observation, seat, expected=ILLEGAL)
    assert state.dump() == before


def check_clone(state: State, rng: random.Random, weights: dict[str, float]) -> State:
    """A clone equals its original and is independent of it; returns it for the caller to
    check once the original has moved on."""
    before = state.dump()
    twin = state.clone()
    assert twin.dump() == before
    twin.apply(*reversed(choose(twin, random.Random(rng.random()), weights)))
    assert state.dump() == before
    return twin


def fast_tensor(spec: Encoding, state: State, seat: int) -> list[float]:
    out = [0.0] * spec.layout.size
    spec.encode_into(state, seat, out)
    return out


def check_encoding(spec: Encoding, state: State) -> None:
    """The fast path writes, for every seat, exactly what the observation's features are;
    a relative space's context is a part of the observation."""
    for seat in range(state.game.players):
        obs = state.observation(seat)
        if spec.relative:
            assert spec.context(state, seat).items() <= obs.items()
        plain = [0.0] * spec.layout.size
        features = spec.features(obs)
        for index, value in zip(features.index, features.value, strict=True):
            plain[index] = value
        assert fast_tensor(spec, state, seat) == plain, f"seat {seat}: fast path differs"


def check_resample(
    state: State, seat: int, seed: int, weights: dict[str, float], spec: Encoding
) -> None:
    """What the seat sees (its observation, and its tensor by the fast path), who acts and
    what it may do (with the previews of its moves), and the hints for it and for a
    spectator, survive a resample; it plays on."""
    twin = state.resample(seat, Rng(seed))
    assert twin.observation(seat) == state.observation(seat)
    assert fast_tensor(spec, twin, seat) == fast_tensor(spec, state, seat)
    assert twin.to_act() == state.to_act()
    assert twin.legal_actions(seat) == state.legal_actions(seat)
    previews = [state.preview(action, seat) for action in state.legal_actions(seat)]
    assert [twin.preview(action, seat) for action in twin.legal_actions(seat)] == previews
    assert all(p is None or isinstance(p, str) for p in previews)
    for viewer in (seat, None):
        assert twin.hints(viewer) == state.hints(viewer), "hints tell what the seat cannot see"
        json.dumps(state.hints(viewer))
    rng = random.Random(seed)
    for _ in range(4):
        if twin.is_terminal():
            break
        twin.apply(*reversed(choose(twin, rng, weights)))


def play_and_check(game: Game, seed: int) -> None:
    """One random game, with events and (in step) without, checked at every step."""
    rng = random.Random(seed)
    weights = {kind: rng.choice(KIND_WEIGHTS) for kind in game.codec.kinds} if seed % 3 else {}
    spec = ENCODINGS[game.name](game)
    state = game.new_state(seed)  # with events
    quiet = game.new_state(seed)  # the same game without events
    assert state.dump() == quiet.dump()
    seen: dict[Action, None] = {}
    views = Views(state)
    for step in range(MAX_STEPS):
        check_now(state)
        check_forms(game, state, seen)
        check_encoding(spec, state)
        if state.is_terminal():
            break
        if step % 11 == 3:
            check_refusals(state, rng, seen)
        twin = check_clone(state, rng, weights) if step % 7 == 2 else None
        twin_dump = twin.dump() if twin is not None else None
        check_resample(state, step % game.players, seed * 1000 + step, weights, spec)
        seat, action = choose(state, rng, weights)
        events = state.apply(action, seat)
        if step % 2:
            quiet.apply_unchecked(action, seat)  # the playouts' path
        else:
            assert quiet.apply(action, seat, events=False) == []
        assert state.dump() == quiet.dump(), f"events on and off differ after {seat}, {action}"
        after = Views(state)
        check_events(state, seat, action, events, views, after)
        views = after
        if twin is not None:
            assert twin.dump() == twin_dump
    record = Record.from_json(json.loads(Record.from_state(state).dumps()))
    assert record.replay().dump() == state.dump()
    assert all(isinstance(v, int | float) for v in state.stats().values())


def variant_id(variant: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = variant
    return "-".join([name, str(players), *(f"{k}={v}" for k, v in options.items())])


WORLD_GAMES = sorted(
    name for name, cls in GAMES.items() if cls.world_from_view is not Game.world_from_view
)
"""Games that build worlds from a seat's view (all, once each game has it)."""
WORLD_VARIANTS = [v for v in VARIANTS if v[0] in WORLD_GAMES]


def thirty_one_cards(state: State) -> list[int]:
    assert isinstance(state, ThirtyOneState)
    return [c for h in state.hands for c in h] + state.pile + state.stock.contents()


def thirty_two_cards(state: State) -> list[int]:
    assert isinstance(state, ThirtyTwoState)
    return [c for h in state.hands for c in h] + state.pile + state.stock.contents()


def three_up_cards(state: State) -> list[int]:
    assert isinstance(state, ThreeUpThreeDownState)
    held = [
        c for seat in zip(state.hands, state.up, state.down, strict=True) for p in seat for c in p
    ]
    return held + state.pile + state.cleared + state.stock.contents()


def toe_cards(state: State) -> list[int]:
    assert isinstance(state, ToeState)
    held = [c for cards in (*state.hands, *state.discards) for c in cards]
    return held + state.played + state.stock.contents()


def memo_match_cards(state: State) -> list[int]:
    assert isinstance(state, MemoMatchState)
    table = [c for c in state.table if c >= 0]
    return table + [c for p in (*state.piles, *state.ppiles) for c in p] + state.set_aside


CARDS_IN_PLAY = {
    "memo-match": memo_match_cards,
    "toe": toe_cards,
    "thirty-one": thirty_one_cards,
    "thirty-two": thirty_two_cards,
    "three-up-three-down": three_up_cards,
}
"""Every card of a state (in hands, piles, the stock...): the deck, each card once."""


def seen_by_all(state: State) -> list[Any]:
    """Every seat's observation and a spectator's: what a deal shows once dealt."""
    return [state.public_observation(), *map(state.observation, range(state.game.players))]


def check_world(state: State, seat: int, seed: int, weights: dict[str, float]) -> None:
    game = state.game
    obs = json.loads(json.dumps(state.observation(seat)))  # as a remote seat receives them
    recall = json.loads(json.dumps(state.recall(seat)))
    world = game.world_from_view(seat, obs, recall, Rng(seed))
    assert world.observation(seat) == state.observation(seat)
    assert world.recall(seat) == state.recall(seat)
    assert world.to_act() == state.to_act()
    assert world.legal_actions(seat) == state.legal_actions(seat)
    assert world.is_terminal() == state.is_terminal()
    assert sorted(CARDS_IN_PLAY[game.name](world)) == sorted(CARDS_IN_PLAY[game.name](state))
    for acting in world.to_act():  # every legal action plays on the world (the first 40)
        for action in world.legal_actions(acting)[:40]:
            world.clone().apply(action, acting)
    # Nothing but the view: a state that looks the same to the seat gives the same world.
    lookalike = state.resample(seat, Rng(seed + 1))
    again = game.world_from_view(
        seat, lookalike.observation(seat), lookalike.recall(seat), Rng(seed)
    )
    assert again.dump() == world.dump()
    # A world resampled deals as a world built with that rng (a remote bot builds one per
    # view and resamples it for each search iteration).
    resampled = game.world_from_view(seat, obs, recall, Rng(seed + 7)).resample(seat, Rng(seed))
    assert seen_by_all(resampled) == seen_by_all(world) or state.is_terminal()

    # Another rng deals the hidden cards otherwise, where anything is hidden (a resample
    # of a finished game keeps its cards: nothing is left to decide).
    def deal(state: State) -> str:
        return json.dumps({k: v for k, v in state.dump().items() if k != "rng"})

    worlds = {deal(game.world_from_view(seat, obs, recall, Rng(seed + k))) for k in range(6)}
    resamples = {deal(state.resample(seat, Rng(seed + k))) for k in range(6)}
    assert (len(worlds) > 1) == (len(resamples) > 1) or state.is_terminal()
    # The same deal as a resample with the same rng, on and on (a resample of a finished
    # game keeps its cards: nothing is left to decide).
    twin = state.resample(seat, Rng(seed))
    if state.is_terminal():
        return
    assert seen_by_all(world) == seen_by_all(twin)
    rng = random.Random(seed)
    for _ in range(6):
        if world.is_terminal():
            break
        acting, action = choose(world, rng, weights)
        world.apply(action, acting)
        twin.apply(action, acting)
        assert seen_by_all(world) == seen_by_all(twin)


@pytest.mark.parametrize(
    ("name", "players", "options"), WORLD_VARIANTS, ids=map(variant_id, WORLD_VARIANTS)
)
def test_worlds_built_from_a_view_keep_the_contract(
    name: str, players: int, options: dict[str, Any]
) -> None:
    game = make_game(name, players, **options)
    for seed in range(GAMES_PER_VARIANT // 2):
        rng = random.Random(seed)
        weights = {kind: rng.choice(KIND_WEIGHTS) for kind in game.codec.kinds}
        state = game.new_state(seed)
        for step in range(MAX_STEPS):
            if step % 5 == 0 or state.is_terminal():
                try:
                    check_world(state, step % players, seed * 1000 + step, weights)
                except Exception as exc:
                    exc.add_note(f"{game!r}, seed {seed}, step {step}")
                    raise
            if state.is_terminal():
                break
            state.apply(*reversed(choose(state, rng, weights)))


def test_toe_worlds_after_a_reshuffle_keep_the_contract() -> None:
    game = make_game("toe", 2, max_turns=400)
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while state.dump()["epoch"] == 0:  # mostly discards: the stock runs out sooner
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            discards = [a for a in legal if a[0] == "discard"]
            state.apply(rng.choice(discards if discards else legal), seat)
        for step in range(6):
            check_world(state, step % 2, seed * 100 + step, {})
            if state.is_terminal():
                break
            state.apply(*reversed(choose(state, rng, {})))


def test_a_view_no_state_could_show_is_refused() -> None:
    game = make_game("thirty-one", 3)
    state = game.new_state(1)
    obs, recall = state.observation(0), state.recall(0)
    with pytest.raises(ValueError, match="not of this game"):
        game.world_from_view(1, obs, recall, Rng(0))
    with pytest.raises(ValueError, match="every card once"):
        game.world_from_view(0, {**obs, "stock_size": obs["stock_size"] + 1}, recall, Rng(0))
    with pytest.raises(ValueError, match="discard pile"):
        game.world_from_view(0, obs, {**recall, "buried": ["AS"]}, Rng(0))


@pytest.mark.parametrize(("name", "players", "options"), VARIANTS, ids=map(variant_id, VARIANTS))
def test_random_games_keep_the_contract(name: str, players: int, options: dict[str, Any]) -> None:
    game = make_game(name, players, **options)
    for seed in range(GAMES_PER_VARIANT):
        try:
            play_and_check(game, seed)
        except Exception as exc:
            exc.add_note(f"{game!r}, seed {seed}")
            raise


def test_every_game_and_every_option_that_changes_play_is_covered() -> None:
    assert {name for name, _players, _options in VARIANTS} == set(GAMES)
    for name, cls in GAMES.items():
        varied = {
            key
            for players, options in OPTIONS.get(name, [])
            for key, value in options.items()
            if value != make_game(name, players).options[key]
        }
        wanted = {o.name for o in cls.options_schema} - NOT_PLAY.get(name, set())
        assert varied >= wanted, (name, wanted - varied)


NOT_SEATS: list[object] = ["0", 1.5, (0,)]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_seat_that_is_no_seat_number_is_refused(name: str) -> None:
    state = make_game(name).new_state(1)
    action = state.legal_actions(state.to_act()[0])[0]
    for seat in NOT_SEATS:
        refuse(state, state.apply, action, seat, expected=ILLEGAL)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_options_requirements_name_other_options_and_their_values(name: str) -> None:
    """``Option.requires`` (what forms hide an option by) names another option of the same
    game and a value that option takes."""
    by_name = {option.name: option for option in GAMES[name].options_schema}
    for option in by_name.values():
        for other, value in option.requires.items():
            assert other in by_name and other != option.name, (option.name, other)
            assert by_name[other].validate(value) == value, (option.name, other, value)


def test_the_quiz_shows_own_options_require_the_quiz() -> None:
    schema = {o["name"]: o for o in (o.schema() for o in GAMES["toe"].options_schema)}
    quiz_only = {name for name, o in schema.items() if o.get("requires") == {"quiz": True}}
    assert quiz_only == {"buzz_seconds", "answer_seconds", "max_questions", "questions"}
    assert "requires" not in schema["quiz"] and "requires" not in schema["max_turns"]


BATCHED_VARIANTS = [
    v for v in VARIANTS if v[0] in BATCHED and not NOT_BATCHED.get(v[0], set()) & set(v[2])
]


@pytest.mark.parametrize(
    ("name", "players", "options"), BATCHED_VARIANTS, ids=map(variant_id, BATCHED_VARIANTS)
)
def test_batched_engines_play_the_same_games(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """The fast path: random games of the batched engine equal the scalar ones step by step
    (tests/test_batched.py has the rare paths)."""
    lockstep(make_game(name, players, **options), BATCHED[name], range(2), uniform, 120)


def test_every_option_that_changes_play_is_batched_or_said_not_to_be() -> None:
    for name in BATCHED:
        played = {key for _n, _p, options in BATCHED_VARIANTS if _n == name for key in options}
        wanted = {o.name for o in GAMES[name].options_schema} - NOT_PLAY.get(name, set())
        quiz_only = {o.name for o in GAMES[name].options_schema if o.requires}
        assert played | NOT_BATCHED.get(name, set()) | quiz_only >= wanted, name


def plain_sample(rng: Rng, items: list[int], k: int) -> list[int]:
    """``Rng.sample`` as its docstring defines it, one ``below`` at a time."""
    pool, out = list(items), []
    for _ in range(k):
        j = rng.below(len(pool))
        pool[j], pool[-1] = pool[-1], pool[j]
        out.append(pool.pop())
    return out


def test_the_fast_rng_sample_draws_what_the_plain_one_draws() -> None:
    """``Rng.sample`` (the LCG inlined) picks the same items in the same order and leaves
    the generator where one ``below`` per item would: every game's deals rest on it."""
    for seed in range(2000):
        choice = random.Random(seed)
        items = list(range(choice.randrange(60)))
        k = choice.randint(0, len(items))
        fast, plain = Rng(seed), Rng(seed)
        assert fast.sample(items, k) == plain_sample(plain, items, k), (seed, len(items), k)
        assert fast.state == plain.state
    with pytest.raises(IndexError):
        Rng(1).sample([1, 2], 3)


def test_rng_advance_is_so_many_draws() -> None:
    """``Rng.advance(n)`` (squarings of the generator's step) leaves the generator where
    ``n`` draws would: bots skip the draws they no longer need with it."""
    for seed in range(200):
        steps = random.Random(seed).choice(
            [0, 1, 2, 3, 7, 64, 1000, random.Random(seed).randrange(5000)]
        )
        fast, plain = Rng(seed), Rng(seed)
        fast.advance(steps)
        for _ in range(steps):
            plain.below(10)
        assert fast.state == plain.state, (seed, steps)
