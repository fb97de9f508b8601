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


class Terminal:
    """``tripletopper play`` on a real pseudo-terminal, read as a person would see it."""

    def __init__(self, *args: str) -> None:
        import os
        import pty
        import subprocess
        import sys

        self.os = os
        master, slave = pty.openpty()
        env = {**os.environ, "COLUMNS": "120", "LINES": "50", "TERM": "xterm", "NO_COLOR": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tripletopper", "play", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.master = master
        self.text = ""

    def read(self, seconds: float) -> bool:
        """Read what is there within ``seconds``; False at the end of the output."""
        import select

        ready, _, _ = select.select([self.master], [], [], seconds)
        if not ready:
            return True
        try:
            data = self.os.read(self.master, 65536)
        except OSError:  # the program ended
            return False
        if not data:
            return False
        self.text += re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", data.decode("utf-8", "replace"))
        return True

    def until(self, pattern: str, start: int = 0, seconds: float = 60) -> re.Match[str]:
        import time

        ends = time.monotonic() + seconds
        while (found := re.compile(pattern).search(self.text, start)) is None:
            assert time.monotonic() < ends, f"never saw {pattern!r} in:\n{self.text[-2000:]}"
            assert self.read(0.2), f"the program ended before {pattern!r}:\n{self.text[-2000:]}"
        return found

    def type(self, text: str) -> None:
        self.os.write(self.master, text.encode())

    def close(self) -> None:
        while self.read(5):
            pass
        self.process.wait(timeout=30)
        self.os.close(self.master)


def test_the_terminal_quiz_show_is_fair_to_a_person():
    """Against a bot that knows every answer and buzzes after about 20 s: the prompt counts
    down the question's own buzzing time (60 s), never the bot's secret delay; an Enter
    typed during question 1 (after the answer) does not buzz question 2; each question is
    printed once."""
    terminal = Terminal(
        "toe",
        "-o",
        "quiz=true",
        "-o",
        "buzz_seconds=60",
        "--seed",
        "3",
        "--bots",
        "heuristic:buzz=20:accuracy=1",
    )
    try:
        prompt = terminal.until(r"Your move \((\d+) s\)")
        assert int(prompt.group(1)) >= 55  # the buzz window, not the bot's ~20 s
        terminal.type("\n")  # buzz in (Enter alone)
        answer = terminal.until(r"(?s)You buzz in!.*?Your move \(\d+ s\)", prompt.end())
        # question 1 asks for a baby frog (B, a tadpole): A is wrong, so the bot earns the
        # turn, plays it, and question 2 is read; the second Enter was typed during question 1
        terminal.type("1\n\n")
        second = terminal.until(r"Question 2 \(.*?\): (.*)\n", answer.end())
        terminal.until(r"Your move \(\d+ s\)", second.end())
        terminal.type("q\n")
    finally:
        terminal.close()
    text = terminal.text
    assert text.count("You buzz in!") == 1, text[-3000:]
    assert "You leave the table." in text
    for number in ("1", "2"):  # each question once: on the table that asks you to buzz
        question = re.search(rf"Question {number} \(.*?\): (.*)\n", text)
        assert question is not None and text.count(question.group(1).strip()) == 1, number
