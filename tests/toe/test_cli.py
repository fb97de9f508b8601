"""Toe at the command line: simulate, rules, play (one or two people), replay, banks."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from tripletopper.cli import cli
from tripletopper.cli.cards import SHAPE_SYMBOLS
from tripletopper.games.toe import CELL_NAMES
from tripletopper.record import load_records

SYMBOL_TO_LETTER = {v: k for k, v in SHAPE_SYMBOLS.items()}
CARD = re.compile(r"([RYGBK])([●♥▲■✱])([1-4?])")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def drawn_cards(text: str) -> set[str]:
    """Cards drawn with their shape symbol (cell names are printed as plain letters,
    except in narration, where a marked cell may look like a card)."""
    return {c + SYMBOL_TO_LETTER[s] + n for c, s, n in CARD.findall(text)}


def simulate_json(*extra: str):
    args = ["simulate", "toe", "--games", "200", "--players", "2", "--seed", "1", "--json", *extra]
    report = json.loads(run(*args).output)
    del report["seconds"], report["actions_per_second"]
    return report


def test_simulate_repeats_exactly_plain_and_quiz():
    for extra in [(), ("--option", "quiz=true", "--bots", "heuristic,random:buzz=1")]:
        first, second = simulate_json(*extra), simulate_json(*extra)
        assert first == second and first["games"] == 200
    quiz = simulate_json("-o", "quiz=true", "--bots", "heuristic")
    assert quiz["options"]["quiz"] is True and quiz["mean"]["questions"] > 0


def test_rules_and_games_pages():
    page = " ".join(run("rules", "toe").output.split())
    for words in ("Quiz Show", "76 lines", "wasted", "face down", "tiebreaker", "JSON lines"):
        assert words in page, words
    assert "toe" in run("games").output and "quiz" in run("games").output
    assert "accuracy" in run("bots", "toe").output


def seen_by(record, seat: int) -> set[str]:
    """Every card name this seat was shown, by observation or event, and the marked cells."""
    seen: set[str] = set()

    def note(data) -> None:
        text = json.dumps(data)
        seen.update(re.findall(r"\b[RYGBK][CHTSB][1-4?](?![\w?])", text))

    state = record.new_state()
    note(state.observation(seat))
    for state, _actor, _action, events in record.steps():
        note(state.observation(seat))
        for event in events:
            note(event.view(seat))
    seen |= {CELL_NAMES[c] for c in range(64) if state.board[c] >= 0}
    return seen


def test_play_a_whole_game_against_a_bot(tmp_path):
    path = tmp_path / "game.json"
    answers = "\n".join(["fly", "play KB?", "?"] + ["1"] * 600) + "\n"
    result = run(
        "play", "toe", "--seed", "5", "--bots", "heuristic", "--save", str(path), input=answers
    )
    out = result.output
    assert result.exit_code == 0
    assert "unknown action 'fly'" in out and "layer 4" in out and "Your hand:" in out
    assert "Final standings" in out
    record = load_records(path)[0]
    assert drawn_cards(out) <= seen_by(record, 0), drawn_cards(out) - seen_by(record, 0)
    assert record.replay().is_terminal()
    replayed = run("replay", str(path), "--table")
    assert replayed.exit_code == 0 and "layer 1" in replayed.output
    assert drawn_cards(replayed.output) <= seen_by(record, 0)


def test_play_the_quiz_show_against_a_bot(tmp_path):
    path = tmp_path / "quiz.json"
    result = run(
        "play",
        "toe",
        "--seed",
        "6",
        "-o",
        "quiz=true",
        "--bots",
        "heuristic:accuracy=0.5",
        "--save",
        str(path),
        input="\n".join(["1"] * 800) + "\n",
    )
    out = result.output
    assert result.exit_code == 0
    assert "Question 1" in out and "buzz in" in out and "earn" in out
    assert "Final standings" in out
    assert load_records(path)[0].replay().is_terminal()


def test_two_people_at_one_keyboard(tmp_path):
    path = tmp_path / "hotseat.json"
    result = run(
        "play",
        "toe",
        "--seed",
        "7",
        "--humans",
        "2",
        "--name",
        "Ann",
        "--name",
        "Bob",
        "-o",
        "quiz=true",
        "--save",
        str(path),
        input="\n".join(["1", "a"] * 900) + "\n",
    )
    out = result.output
    assert result.exit_code == 0, out
    assert "Pass the keyboard to Bob" in out and "Pass the keyboard to Ann" in out
    assert "Ann types a, Bob types l" in out
    record = load_records(path)[0]
    assert record.names == ["Ann", "Bob"] and record.meta["human_seats"] == [0, 1]
    assert record.replay().is_terminal()


def test_user_question_banks(tmp_path):
    bank = tmp_path / "family.csv"
    rows = ["question,choice_a,choice_b,answer,category"]
    rows += [f"Who is number {i}?,Me {i},You {i},Me {i},Family" for i in range(8)]
    bank.write_text("\n".join(rows) + "\n", encoding="utf-8")
    saved = tmp_path / "games.jsonl"
    result = run(
        "simulate",
        "toe",
        "-n",
        "5",
        "-o",
        "quiz=true",
        "--questions",
        str(bank),
        "--save",
        str(saved),
        "--json",
    )
    assert result.exit_code == 0
    assert json.loads(result.output)["options"]["questions"].startswith("family@")
    replay = run("replay", str(saved), "--game", "2", "--questions", str(bank))
    assert replay.exit_code == 0 and "Who is number" in replay.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "Q?", "choices": ["a", "b"], "answer": "c"}\n', encoding="utf-8")
    refused = run("simulate", "toe", "-o", "quiz=true", "--questions", str(bad))
    assert refused.exit_code == 2 and "line 1: the answer 'c' is not one of the choices" in (
        refused.output
    )
