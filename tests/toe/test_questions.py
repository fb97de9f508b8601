"""Question banks: the shipped one, the two file formats, clear errors, replayable ids."""

from __future__ import annotations

import json

import pytest

from tripletopper import make_game
from tripletopper.games.toe import BUILTIN, QuestionBankError, Toe, parse_bank
from tripletopper.question_banks import builtin_bank, find_bank, load_bank
from tripletopper.record import Record

LINE = '{"question": "Q?", "choices": ["a", "b", "c"], "answer": "b"}'


def test_the_shipped_bank_has_at_least_200_good_questions():
    bank = builtin_bank()
    assert bank.ident == BUILTIN and len(bank) >= 200
    assert len({q.text for q in bank.questions}) == len(bank)
    assert {q.difficulty for q in bank.questions} == {"easy", "medium", "hard"}
    assert len({q.category for q in bank.questions}) >= 10
    assert all(len(q.choices) == 4 for q in bank.questions)
    answers = [q.answer for q in bank.questions]
    assert min(answers.count(i) for i in range(4)) > len(bank) // 6  # right answers spread


def test_jsonl_and_csv_read_the_same_questions():
    jsonl = parse_bank("# a comment\n\n" + LINE + "\n", "mini")
    csv = parse_bank('question,choice1,choice2,choice3,answer\n"Q?",a,b,c,b\n', "mini", "csv")
    assert jsonl.questions == csv.questions and jsonl.ident == csv.ident
    assert jsonl.questions[0].answer == 1 and jsonl.ident.startswith("mini@")
    other = parse_bank(LINE.replace('"Q?"', '"Q2?"'), "mini")
    assert other.ident != jsonl.ident  # the id names the content


@pytest.mark.parametrize(
    "text, message",
    [
        ("{not json", "line 1: not valid JSON"),
        ("[1, 2]", "line 1: each line must be a JSON object"),
        ('{"question": "", "choices": ["a", "b"], "answer": "a"}', "'question' must be"),
        ('{"question": "Q", "choices": ["a"], "answer": "a"}', "2 to 6 texts"),
        ('{"question": "Q", "choices": ["a", "A"], "answer": "a"}', "two choices are the same"),
        ('{"question": "Q", "choices": ["a", "b"], "answer": "c"}', "'c' is not one of"),
        ('{"question": "Q", "choices": ["a", "b"], "answer": "a", "level": 1}', "unknown field"),
        (
            '{"question": "Q", "choices": ["a", "b"], "answer": "a", "difficulty": "x"}',
            "'difficulty' must be one of easy",
        ),
        (LINE + "\n" + LINE, "line 2: the same question as line 1"),
        ("", "has no questions"),
    ],
)
def test_bad_banks_get_clear_errors(text, message):
    with pytest.raises(QuestionBankError, match=message):
        parse_bank(text, "bad")


def test_csv_errors():
    with pytest.raises(QuestionBankError, match="needs a 'answer' column"):
        parse_bank("question,choice1,choice2\nQ,a,b\n", "bad", "csv")
    with pytest.raises(QuestionBankError, match="line 2: the answer 'z'"):
        parse_bank("question,choice1,choice2,answer\nQ,a,b,z\n", "bad", "csv")


def test_user_banks_are_loaded_named_and_replayed(tmp_path):
    path = tmp_path / "my quiz.jsonl"
    path.write_text("\n".join(LINE.replace("Q?", f"Q{i}?") for i in range(5)), encoding="utf-8")
    bank = load_bank(path)
    assert bank.name == "my-quiz" and find_bank(bank.ident) is bank
    game = make_game("toe", quiz=True, questions=bank.ident)
    assert game.bank is bank and game.config()["options"]["questions"] == bank.ident
    state = game.new_state(4)
    state.apply(("buzz",), 0)
    record = Record.from_json(json.loads(Record.from_state(state).dumps()))
    assert record.options["questions"] == bank.ident
    assert record.replay().dump() == state.dump()
    with pytest.raises(QuestionBankError, match="give its file with --questions"):
        make_game("toe", quiz=True, questions="unknown@0123456789ab")
    bad = tmp_path / "bad.csv"
    bad.write_text("question,answer\n", encoding="utf-8")
    with pytest.raises(QuestionBankError, match=r"bad\.csv: line 1"):
        load_bank(bad)
    with pytest.raises(QuestionBankError, match="cannot read"):
        load_bank(tmp_path / "missing.jsonl")


def test_the_plain_game_needs_no_bank():
    assert make_game("toe").bank is None and Toe(2).bank is None
