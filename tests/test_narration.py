"""Every game's narration reads as English whoever plays: names that end in a number ("Medium
bot 3", as the room names bots), the viewer's own seat ("You"), one thing or many.

The unit tests hold each sentence that once read wrong ("Medium bot 1 pays Medium bot 3 3",
"All 1 cards are turned face up", "Everyone but You loses a life", "You was dealt 31",
"1 wild(s)"); the sweep narrates whole random games of every game from every seat and
finds none of those shapes in any line."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from tripletopper.bots import SeatView, make_bot
from tripletopper.cli.views import view_for
from tripletopper.engine import YOU, counted, named
from tripletopper.games import GAMES
from tripletopper.games.memo_match.narration import describe_event as memo
from tripletopper.games.thirty_one.narration import describe_event as thirty_one
from tripletopper.games.thirty_two.narration import describe_event as thirty_two
from tripletopper.games.toe.narration import describe_event as toe
from tripletopper.question_banks import make_game
from tripletopper.runner import choose_next

BOTS = ["Medium bot 1", "Medium bot 2", "Medium bot 3", "Hard bot 4"]


def test_counted_and_named():
    assert counted(1, "card") == "1 card"
    assert counted(0, "card") == "0 cards"
    assert counted(2, "life", "lives") == "2 lives"
    assert counted(1.0, "mark") == "1 mark"
    assert counted(2.5, "point") == "2.5 points"
    assert named(YOU) == "you" and named("Medium bot 3") == "Medium bot 3"


def settlement(**extra: object) -> dict[str, object]:
    event: dict[str, object] = {
        "type": "hand_over",
        "ended_by": "knock",
        "knocker": 0,
        "knocker_won": True,
        "shown": [{"seat": 0, "cards": ["RC1", "RC2", "RC3"], "score": 27, "wilds": 1}],
        "cuts": [],
        "mucked": [],
        "payments": [],
        "eliminated": [],
    }
    return event | extra


def test_thirty_two_says_the_amount_before_whom_it_is_paid_to():
    pay = [
        {"from": 0, "to": 2, "due": 3, "paid": 3},
        {"from": 1, "to": 2, "due": 1, "paid": 1},
        {"from": 2, "to": 0, "due": 4, "paid": 2},
    ]
    text = thirty_two(settlement(payments=pay), BOTS)
    assert "Medium bot 1 pays 3 counters to Medium bot 3." in text
    assert "Medium bot 2 pays 1 counter to Medium bot 3." in text
    assert "Medium bot 3 pays 2 of the 4 counters due to Medium bot 1 (all they had" in text
    assert "Medium bot 3 3" not in text
    mine = thirty_two(settlement(payments=pay), [YOU, *BOTS[1:]])
    assert "You pay 3 counters to Medium bot 3." in mine
    assert "due to you (all they had" in mine
    short = thirty_two(
        settlement(payments=[{"from": 0, "to": 1, "due": 5, "paid": 1}]), [YOU, "Ann"]
    )
    assert "You pay 1 of the 5 counters due to Ann (all you had; the rest is lost)." in short


def test_thirty_two_counts_wilds_and_points_in_words():
    text = thirty_two(settlement(), BOTS)
    assert "27 points, 1 wild." in text and "wild(s)" not in text
    two = settlement(shown=[{"seat": 1, "cards": ["KC?", "KB?", "RC1"], "score": 1, "wilds": 2}])
    assert "1 point, 2 wilds." in thirty_two(two, BOTS)
    assert "Showdown: you (the knocker) beat everyone." in thirty_two(settlement(), [YOU, "Ann"])


def thirty_one_settlement(**extra: object) -> dict[str, object]:
    event: dict[str, object] = {
        "type": "hand_over",
        "ended_by": "dealt_31",
        "declarers": [0],
        "shown": [],
        "saved": [],
        "losses": [
            {
                "seat": 1,
                "lives": 1,
                "reason": "dealt_31",
                "organs": ["liver"],
                "out": False,
                "circling_the_drain": False,
            }
        ],
        "lives": [4, 3, 4],
        "void": False,
    }
    return event | extra


def test_thirty_one_speaks_to_you_inside_a_sentence():
    text = thirty_one(thirty_one_settlement(), [YOU, "Medium bot 2", "Medium bot 3"])
    assert "Dealt 31! Everyone but you loses a life." in text
    assert "(you were dealt 31)" in text
    assert "You was" not in text and "but You" not in text
    theirs = thirty_one(thirty_one_settlement(), ["Medium bot 1", YOU, "Medium bot 3"])
    assert "Everyone but Medium bot 1 loses a life." in theirs
    assert "You lose a life (Medium bot 1 was dealt 31)" in theirs


def test_thirty_one_counts_lives():
    loss = {
        "seat": 1,
        "lives": 2,
        "reason": "knocker_lowest",
        "organs": ["liver", "kidneys"],
        "out": False,
        "circling_the_drain": False,
    }
    event = thirty_one_settlement(ended_by="knock", knocker=1, declarers=[], losses=[loss])
    assert "Medium bot 2 loses 2 lives" in thirty_one(event, BOTS)


def test_memo_match_counts_one_card_as_one():
    declared = {"type": "declared", "seat": 0, "table": ["A1"]}
    assert (
        memo(declared, BOTS)
        == 'Medium bot 1 declares "no matches"! The last card is turned face up.'
    )
    declared["table"] = ["A1", "A2", "A3"]
    assert memo(declared, [YOU]) == 'You declare "no matches"! All 3 cards are turned face up.'
    assert (
        memo({"type": "game_over", "cleared": True, "turns": 1}, [YOU])
        == "Table cleared in 1 turn!"
    )
    took = {"type": "took_all", "seat": 1, "cards": ["RC1"]}
    assert memo(took, BOTS) == "Medium bot 2 takes the last card."
    limit = {"type": "turn_limit", "turns": 2000, "left_on_table": 1}
    assert (
        memo(limit, BOTS)
        == "The turn limit is reached after 2000 turns; 1 card stays on the table."
    )


def test_toe_says_why_the_game_ended_in_words():
    over = {
        "type": "game_over",
        "winners": [1],
        "reason": "full, more marks",
        "marks": [3, 15],
        "line": None,
    }
    text = toe(over, ["Medium bot 1", YOU])
    assert text == "Game over: the board is full; more marks win. You win with 15 marks to 3."
    draw = {
        "type": "game_over",
        "winners": [],
        "reason": "max_turns",
        "marks": [4, 4],
        "line": None,
    }
    assert toe(draw, BOTS) == "Game over: a draw (the turn limit is reached)."
    assert "1 mark each" in toe({"type": "tiebreak", "reason": "full", "marks": [1, 1]}, BOTS)


def test_the_terminal_counts_one_card_on_the_3up_pile():
    game = make_game("three-up-three-down", 2)
    state = game.new_state(3)
    while state.public_observation()["pile_size"] != 1:
        seat = state.to_act()[0]
        state.apply(state.legal_actions(seat)[0], seat)
    console = Console(record=True, width=120)
    console.print(view_for(game).table(state.observation(0), [YOU, "Medium bot 2"]))
    text = console.export_text()
    assert "(1 card)" in text and "1 cards" not in text and "1 in a row" not in text


# --- every game, every seat ----------------------------------------------------------------
BAD = [
    re.compile(r"(?<!bot )\b1 (cards|counters|turns|marks|points|wilds|lives|organs|questions)\b"),
    re.compile(r"\(s\)"),
    re.compile(r"\bYou (was|has|is|loses|pays|draws|takes|wins|plays|flips|knocks|shows|cuts)\b"),
    re.compile(r"[a-z,] You\b"),  # "You" inside a sentence: "but You", "pays You"
    re.compile(r"bot \d+ \d"),  # a name's number run into an amount
    re.compile(r"\bAll 1\b"),
]
GAMES_TO_NARRATE = [
    ("thirty-two", 4, {}),
    ("thirty-one", 4, {}),
    ("toe", 2, {"quiz": True, "max_questions": 30}),
    ("toe", 2, {"max_turns": 40}),
    ("memo-match", 3, {"max_turns": 300}),
    ("memo-match", 1, {"max_turns": 300}),
    ("three-up-three-down", 3, {}),
]


@pytest.mark.parametrize(("name", "players", "options"), GAMES_TO_NARRATE)
def test_whole_games_narrate_in_english_for_every_seat(name, players, options):
    assert name in GAMES
    game = make_game(name, players, **options)
    lines = 0
    for seed in range(3):
        state = game.new_state(seed)
        bots = [make_bot("random", game, s, seed * 10 + s) for s in range(players)]
        views = [SeatView(state, s) for s in range(players)]
        for _ in range(1500):
            if state.is_terminal():
                break
            seat, action = choose_next(state, bots, views)
            events = state.apply(action, seat)
            for viewer in [None, *range(players)]:
                names = [f"Medium bot {s + 1}" for s in range(players)]
                if viewer is not None:
                    names[viewer] = YOU
                for event in events:
                    text = game.describe_event(event.view(viewer), names)
                    lines += 1
                    for bad in BAD:
                        assert not bad.search(text), f"{name}: {text!r} ({bad.pattern})"
    assert lines > 50
