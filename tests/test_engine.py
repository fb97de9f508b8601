"""The engine contract's shared pieces: options, action codec, RNG, stock, records."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tripletopper import make_game
from tripletopper.cards import STANDARD, TRIPLE_TOPPER
from tripletopper.engine import (
    CLOCK,
    TABLE,
    CardParam,
    CardsParam,
    Option,
    Rng,
    Stock,
    derive_seed,
    parse_option_pairs,
)
from tripletopper.errors import InvalidOptionError, InvalidRecordError, MalformedActionError
from tripletopper.games import GAMES, game_class
from tripletopper.record import Record, load_records


def test_registry_is_explicit_and_refuses_unknown_names():
    assert game_class("thirty-two") is GAMES["thirty-two"]
    with pytest.raises(InvalidOptionError, match="unknown game 'chess'"):
        make_game("chess")


def test_options_parse_validate_and_name_what_is_allowed():
    opt = Option("n", "int", 3, "help", minimum=1, maximum=9)
    assert opt.parse("4") == 4 and opt.validate("5") == 5 and opt.validate(9) == 9
    for bad in ("x", 0, 10, True, 2.5):
        with pytest.raises(InvalidOptionError, match="'n' must be a whole number from 1 to 9"):
            opt.validate(bad)
    flag = Option("f", "bool", False, "help")
    assert flag.parse("yes") is True and flag.parse("OFF") is False
    with pytest.raises(InvalidOptionError, match="true or false"):
        flag.validate("maybe")
    choice = Option("c", "choice", "a", "help", choices=("a", "b"))
    with pytest.raises(InvalidOptionError, match="one of a, b"):
        choice.validate("z")
    assert parse_option_pairs(["a=1", "cap-at-32 = off"]) == {"a": "1", "cap_at_32": "off"}
    with pytest.raises(InvalidOptionError, match="name=value"):
        parse_option_pairs(["oops"])


def test_game_options_from_strings_equal_typed_ones():
    assert make_game("thirty-two", 4, counters="12", no_wilds="true") == make_game(
        "thirty-two", 4, counters=12, no_wilds=True
    )
    schema = [o.schema(4) for o in GAMES["thirty-two"].options_schema]
    assert schema[0] == {
        "name": "counters",
        "type": "int",
        "help": "counters each player starts with",
        "default": 8,
        "minimum": 1,
        "maximum": 100000,
    }


@given(st.integers(0, 124), st.booleans())
def test_action_forms_round_trip(card, declare):
    game = make_game("thirty-two", 3)
    for action in [("discard", card, declare), ("take",), ("draw",), ("knock",), ("declare",)]:
        assert game.parse_action(game.action_to_text(action)) == action
        wire = game.action_to_wire(action)
        assert game.action_from_wire(json.loads(json.dumps(wire))) == action


@pytest.mark.parametrize(
    ("wire", "message"),
    [
        ({"type": "fly"}, "unknown action 'fly'"),
        ({}, "unknown action None"),
        ([], "JSON object"),
        ("draw", "JSON object"),
        ({"type": "discard"}, "needs 'card'"),
        ({"type": "discard", "card": 7}, "card name"),
        ({"type": "discard", "card": "ZZ1"}, "not a card"),
        ({"type": "discard", "card": "RC1", "declare": "yes"}, "true or false"),
        ({"type": "draw", "card": "RC1"}, "no field 'card'"),
    ],
)
def test_malformed_wire_actions(wire, message):
    with pytest.raises(MalformedActionError, match=message):
        make_game("thirty-two", 3).action_from_wire(wire)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("jump", "unknown action"),
        ("discard", "missing card"),
        ("discard RC1 now", "unexpected 'now'"),
        ("draw RC1", "unexpected 'RC1'"),
    ],
)
def test_malformed_text_actions(text, message):
    with pytest.raises(MalformedActionError, match=message):
        make_game("thirty-two", 3).parse_action(text)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("discard red circle 1", ("discard", 0, False)),
        ("DISCARD Red Circle 1 declare", ("discard", 0, True)),
        ("discard black-blob-? declare", ("discard", 124, True)),
        ("discard black blob question", ("discard", 124, False)),
        ("discard green square 1", ("discard", TRIPLE_TOPPER.parse("GS1"), False)),
    ],
)
def test_text_actions_take_the_long_card_forms(text, action):
    game = make_game("thirty-two", 3)
    assert game.parse_action(text) == action
    assert game.parse_action(game.action_to_text(action)) == action  # written short


def test_long_card_forms_in_text_read_the_longest_name_and_stop_there():
    one = CardParam("card", STANDARD)
    tokens = ["ten", "of", "hearts", "declare"]
    assert one.from_text(tokens, 0) == (STANDARD.parse("10H"), 3)
    assert one.from_text(["ace", "of", "spades"], 0) == (STANDARD.parse("AS"), 3)
    assert one.from_text(["as", "declare"], 0) == (STANDARD.parse("AS"), 1)
    many = CardsParam("cards", TRIPLE_TOPPER, 2, 3)
    tokens = ["red", "circle", "1", "GS1", "black-blob-?"]
    assert many.from_text(tokens, 0) == ((0, TRIPLE_TOPPER.parse("GS1"), 124), len(tokens))
    with pytest.raises(MalformedActionError, match="'red' is not a card"):
        many.from_text(["red", "circle", "GS1"], 0)
    with pytest.raises(MalformedActionError, match="2 to 3 cards"):
        many.from_text(["red", "circle", "1"], 0)


def test_rng_is_deterministic_and_uniform_enough():
    assert [Rng(5).below(100) for _ in range(3)] == [Rng(5).below(100)] * 3
    rng = Rng(1)
    counts = [0] * 10
    for _ in range(20000):
        counts[rng.below(10)] += 1
    assert all(1800 < c < 2200 for c in counts)
    twin = rng.clone()
    assert [rng.below(1000) for _ in range(5)] == [twin.below(1000) for _ in range(5)]
    assert derive_seed(1, 2) != derive_seed(2, 1)
    items = list(range(20))
    Rng(3).shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


def test_stock_draws_stacked_cards_first_then_at_random():
    stock = Stock()
    stock.fill(range(10), stacked=[4, 99, 2])  # 99 is not in the stock: ignored
    rng = Rng(0)
    assert [stock.draw(rng), stock.draw(rng)] == [4, 2]
    rest = [stock.draw(rng) for _ in range(8)]
    assert sorted(rest) == [0, 1, 3, 5, 6, 7, 8, 9] and len(stock) == 0
    stock.gather(range(10))  # every drawn card comes back
    assert sorted(stock.contents()) == list(range(10))


def test_stock_deals_and_draws_exactly_as_plain_draws_would():
    """The hand-inlined fast paths of the stock against their plain twins: ``draw`` inlines
    ``Rng.below``, and ``deal`` inlines a ``draw`` per card (Toe's discard refill, every
    deal); stacked tops included."""
    for seed in range(300):
        pick = Rng(seed)
        cards = list(range(1 + pick.below(125)))
        stacked = [c for c in cards if pick.below(20) == 0]
        hands = 1 + pick.below(6)
        rounds = pick.below(len(cards) // hands + 1)
        dealt, drawn = Stock(), Stock()
        dealt.fill(cards, stacked)
        drawn.fill(cards, stacked)
        deal_rng, draw_rng = Rng(seed), Rng(seed)
        by_deal: list[list[int]] = [[] for _ in range(hands)]
        dealt.deal(deal_rng, by_deal, rounds)
        by_draw: list[list[int]] = [[] for _ in range(hands)]
        for _ in range(rounds):
            for hand in by_draw:
                hand.append(drawn.draw(draw_rng))
        assert by_deal == by_draw and deal_rng.state == draw_rng.state
        assert (dealt.cards, dealt.size, dealt.ordered) == (drawn.cards, drawn.size, drawn.ordered)
        plain, rng, expected = cards.copy(), Rng(seed), []  # a draw spelled out with Rng.below
        for n in range(len(plain), 0, -1):
            i = rng.below(n)
            plain[i], plain[n - 1] = plain[n - 1], plain[i]
            expected.append(plain[n - 1])
        fast, fast_rng = Stock(), Rng(seed)
        fast.fill(cards)
        assert [fast.draw(fast_rng) for _ in cards] == expected and fast_rng.state == rng.state


def test_records_save_load_and_refuse_garbage(tmp_path):
    state = make_game("thirty-two", 4).new_state(seed=9)
    for _ in range(20):
        state.apply(state.legal_actions()[0])
    record = Record.from_state(state, ["a", "b", "c", "d"], note="x")
    path = tmp_path / "game.json"
    record.save(path)
    [loaded] = load_records(path)
    assert loaded.replay().dump() == state.dump()
    assert loaded.names == ["a", "b", "c", "d"] and loaded.meta == {"note": "x"}
    lines = tmp_path / "games.jsonl"
    lines.write_text(record.dumps() + "\n" + record.dumps() + "\n")
    assert len(load_records(lines)) == 2
    bad = tmp_path / "bad.json"
    for text, message in [
        ("{", "not valid JSON"),
        ('{"format": "other"}', "not a tripletopper game record"),
        (json.dumps({**record.to_json(), "actions": [[0, {"type": "fly"}]]}), "does not replay"),
        (json.dumps({**record.to_json(), "players": 9}), "does not replay"),
    ]:
        bad.write_text(text)
        with pytest.raises(InvalidRecordError, match=message):
            load_records(bad)[0].replay()
    with pytest.raises(InvalidRecordError, match="cannot read"):
        load_records(tmp_path / "missing.json")


def test_records_saved_before_the_clock_had_its_seat_still_replay(tmp_path):
    """Timeouts were recorded as played by TABLE (-1); they are read as the clock's."""
    old = {"format": "tripletopper-record", "version": 1, "players": 2, "seed": 3}
    quiz = {
        **old,
        "game": "toe",
        "options": {"quiz": True},
        "actions": [
            [-1, {"type": "timeout"}],
            [0, {"type": "buzz"}],
            [-1, {"type": "timeout"}],
        ],
    }
    path = tmp_path / "quiz.json"
    path.write_text(json.dumps(quiz))
    [record] = load_records(path)
    state = record.replay()
    assert state.history == [(CLOCK, ("timeout",)), (0, ("buzz",)), (CLOCK, ("timeout",))]
    assert Record.from_state(state).to_json()["actions"][0] == [CLOCK, {"type": "timeout"}]
    closed = {
        **old,
        "players": 3,
        "game": "thirty-two",
        "options": {"end": "open"},
        "actions": [[-1, {"type": "close"}]],
    }
    assert Record.from_json(closed).replay().history == [(TABLE, ("close",))]
