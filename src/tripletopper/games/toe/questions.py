"""Quiz Show question banks: the data types and a pure parser with clear errors.

A bank is read from text (this module does no I/O; :mod:`tripletopper.question_banks`
reads files).  Two open formats are accepted, described in ``docs/questions.md``:

- **JSON lines**: one object per line,
  ``{"question": "...", "choices": ["...", "..."], "answer": "...",
  "category": "...", "difficulty": "easy"}``; ``answer`` is the text of the
  correct choice.  Blank lines and lines starting with ``#`` are skipped.
- **CSV** with a header row: ``question``, ``answer``, optional ``category`` and
  ``difficulty``, and two to six ``choice...`` columns (empty ones are ignored).

A bank is identified by ``name@digest``, the digest hashing its questions, so
a saved game names exactly the bank it was played with.

>>> bank = parse_bank('{"question": "2 + 2?", "choices": ["3", "4"], "answer": "4"}', "mini")
>>> bank.questions[0].answer, bank.ident.startswith("mini@")
(1, True)
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass
from typing import Any

from tripletopper.errors import InvalidOptionError

MIN_CHOICES = 2
MAX_CHOICES = 6
MAX_QUESTION = 400
MAX_CHOICE = 120
DIFFICULTIES = ("easy", "medium", "hard")
LETTERS = "ABCDEF"
FIELDS = ("question", "choices", "answer", "category", "difficulty", "id", "note")
BUILTIN = "builtin"
"""The id of the bank shipped with the project."""


class QuestionBankError(InvalidOptionError):
    """A question bank that cannot be read: says which line and what is wrong."""


@dataclass(frozen=True)
class Question:
    """One multiple-choice question; ``answer`` is the index of the correct choice."""

    text: str
    choices: tuple[str, ...]
    answer: int
    category: str = ""
    difficulty: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "question": self.text,
            "choices": list(self.choices),
            "answer": self.choices[self.answer],
        }
        if self.category:
            out["category"] = self.category
        if self.difficulty:
            out["difficulty"] = self.difficulty
        return out


@dataclass(frozen=True)
class QuestionBank:
    """Questions with a name; ``ident`` (``name@digest``) names this exact content."""

    name: str
    questions: tuple[Question, ...]
    digest: str

    @property
    def ident(self) -> str:
        return BUILTIN if self.name == BUILTIN else f"{self.name}@{self.digest}"

    def __len__(self) -> int:
        return len(self.questions)

    @classmethod
    def of(cls, name: str, questions: tuple[Question, ...]) -> QuestionBank:
        if not questions:
            raise QuestionBankError(f"question bank {name!r} has no questions")
        canonical = json.dumps([q.to_json() for q in questions], sort_keys=True)
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]
        return cls(name, questions, digest)


def bank_name(text: str) -> str:
    """A bank name made of letters, digits, ``-`` and ``_`` (from a file name)."""
    name = re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-")[:40]
    return name or "questions"


def parse_bank(text: str, name: str, fmt: str = "jsonl") -> QuestionBank:
    """Read a bank from its text (``fmt`` is ``"jsonl"`` or ``"csv"``)."""
    if fmt == "csv":
        rows = list(_csv_rows(text))
    elif fmt == "jsonl":
        rows = list(_jsonl_rows(text))
    else:
        raise QuestionBankError(f"unknown question file format {fmt!r} (use jsonl or csv)")
    questions = tuple(_question(line, raw) for line, raw in rows)
    seen: dict[str, int] = {}
    for (line, _raw), question in zip(rows, questions, strict=True):
        key = question.text.casefold()
        if key in seen:
            raise QuestionBankError(f"line {line}: the same question as line {seen[key]}")
        seen[key] = line
    return QuestionBank.of(name, questions)


def _jsonl_rows(text: str) -> list[tuple[int, dict[str, Any]]]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            raw = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise QuestionBankError(f"line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(raw, dict):
            raise QuestionBankError(f"line {number}: each line must be a JSON object")
        rows.append((number, raw))
    return rows


def _csv_rows(text: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except StopIteration:
        return []
    for required in ("question", "answer"):
        if required not in header:
            raise QuestionBankError(f"line 1: the CSV header needs a {required!r} column")
    choice_columns = [i for i, h in enumerate(header) if h.startswith("choice")]
    if len(choice_columns) < MIN_CHOICES:
        raise QuestionBankError("line 1: the CSV header needs at least two 'choice' columns")
    rows = []
    for values in reader:
        number = reader.line_num
        if not any(v.strip() for v in values):
            continue
        if len(values) > len(header):
            raise QuestionBankError(f"line {number}: more values than header columns")
        values = values + [""] * (len(header) - len(values))
        raw: dict[str, Any] = {
            h: values[i].strip() for i, h in enumerate(header) if not h.startswith("choice")
        }
        raw["choices"] = [values[i].strip() for i in choice_columns if values[i].strip()]
        rows.append((number, {k: v for k, v in raw.items() if v != "" or k == "question"}))
    return rows


def _text(raw: dict[str, Any], key: str, line: int, limit: int) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise QuestionBankError(f"line {line}: {key!r} must be a non-empty text")
    value = " ".join(value.split())
    if len(value) > limit:
        raise QuestionBankError(f"line {line}: {key!r} is longer than {limit} characters")
    return value


def _question(line: int, raw: dict[str, Any]) -> Question:
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise QuestionBankError(
            f"line {line}: unknown field {unknown[0]!r} (fields: {', '.join(FIELDS)})"
        )
    text = _text(raw, "question", line, MAX_QUESTION)
    choices_raw = raw.get("choices")
    if not isinstance(choices_raw, list) or not MIN_CHOICES <= len(choices_raw) <= MAX_CHOICES:
        raise QuestionBankError(
            f"line {line}: 'choices' must be a list of {MIN_CHOICES} to {MAX_CHOICES} texts"
        )
    choices = tuple(_text({"choice": c}, "choice", line, MAX_CHOICE) for c in choices_raw)
    if len({c.casefold() for c in choices}) != len(choices):
        raise QuestionBankError(f"line {line}: two choices are the same")
    answer = _text(raw, "answer", line, MAX_CHOICE)
    matches = [i for i, c in enumerate(choices) if c.casefold() == answer.casefold()]
    if not matches:
        raise QuestionBankError(f"line {line}: the answer {answer!r} is not one of the choices")
    category = raw.get("category", "")
    if not isinstance(category, str) or len(category) > 40:
        raise QuestionBankError(f"line {line}: 'category' must be a short text")
    difficulty = raw.get("difficulty", "")
    if difficulty not in ("", *DIFFICULTIES):
        raise QuestionBankError(
            f"line {line}: 'difficulty' must be one of {', '.join(DIFFICULTIES)}"
        )
    return Question(text, choices, matches[0], category.strip(), difficulty)
