"""The command line, driven as a user would (Click's runner feeds the keyboard)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner
from rich.console import Console

from tests.thirty_two.helpers import play, stacked
from tripletopper.cli import cli
from tripletopper.cli.cards import SHAPE_SYMBOLS
from tripletopper.cli.views.thirty_two import ThirtyTwoView
from tripletopper.record import load_records

SYMBOL_TO_LETTER = {v: k for k, v in SHAPE_SYMBOLS.items()}
CARD = re.compile(r"([RYGBK])([●♥▲■✱CHTSB])([1-4?])")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def cards_in(text: str) -> set[str]:
    """Card names in text; the notation hint of an error message ("write it like ...") aside."""
    text = re.sub(r"write it like [^)]*\)", "", text)
    return {c + SYMBOL_TO_LETTER.get(s, s) + n for c, s, n in CARD.findall(text)}


def test_games_bots_and_rules():
    assert "thirty-two" in run("games").output
    assert "heuristic" in run("bots", "thirty-two").output
    page = " ".join(run("rules", "thirty-two").output.split())
    assert "Thirty-Two" in page and "Settling up" in page and "cut for high card" in page
    bad = run("rules", "chess")
    assert bad.exit_code == 2 and "unknown game 'chess'" in bad.output


def test_simulate_json_repeats_exactly():
    args = ["simulate", "thirty-two", "--games", "300", "--players", "4", "--seed", "1", "--json"]
    first, second = json.loads(run(*args).output), json.loads(run(*args).output)
    for report in (first, second):
        assert report["games"] == 300 and report["actions"] > 0 and report["seconds"] >= 0
        del report["seconds"], report["actions_per_second"]
    assert first == second
    assert len(first["seats"]) == 4
    assert abs(sum(s["win_rate"] for s in first["seats"]) - 1) < 1e-6


def test_simulate_tables_and_save(tmp_path):
    path = tmp_path / "games.jsonl"
    result = run(
        "simulate",
        "thirty-two",
        "-n",
        "20",
        "-p",
        "3",
        "--bots",
        "heuristic,random",
        "--seed",
        "4",
        "--save",
        str(path),
        "-o",
        "counters=9",
    )
    assert result.exit_code == 0
    assert "By seat" in result.output and "By bot" in result.output
    records = load_records(path)
    assert len(records) == 20 and records[3].options["counters"] == 9
    assert records[3].replay().is_terminal()


def test_bad_requests_are_usage_errors():
    for args, message in [
        (["simulate", "chess"], "unknown game"),
        (["simulate", "thirty-two", "-p", "2"], "3 to 6 players"),
        (["simulate", "thirty-two", "-o", "end=never"], "one of first_elimination, open"),
        (["simulate", "thirty-two", "-o", "counters"], "name=value"),
        (["simulate", "thirty-two", "--bots", "genius"], "no bot 'genius'"),
        (["simulate", "thirty-two", "--games", "0"], "0"),
        (["play", "thirty-two", "--seat", "5"], "--seat must be from 0 to 2"),
        (["replay", "nowhere.json"], "does not exist"),
    ]:
        result = run(*args)
        assert result.exit_code == 2, args
        assert message in result.output, (args, result.output)


def play_to_the_end(tmp_path, seed: int, seat: int = 0):
    path = tmp_path / "game.json"
    answers = "\n".join(["", "fly", "99", "?", "discard ZZ9"] + ["2", "1"] * 400) + "\n"
    result = run(
        "play",
        "thirty-two",
        "-p",
        "4",
        "--seed",
        str(seed),
        "--seat",
        str(seat),
        "--bots",
        "heuristic,random",
        "--save",
        str(path),
        input=answers,
    )
    return result, load_records(path)[0]


def test_play_a_whole_game_in_the_terminal(tmp_path):
    result, record = play_to_the_end(tmp_path, seed=12)
    out = result.output
    assert result.exit_code == 0
    assert "unknown action 'fly'" in out and "Choose a number from 1 to" in out
    assert "Text forms:" in out and "not a card" in out
    assert "Your hand:" in out and "score" in out
    assert "Final standings" in out or "You leave the table" in out
    assert "Showdown" in out or "declare" in out
    assert record.meta["human_seat"] == 0 and record.names[0] == "You"
    assert record.replay().version == len(record.actions)


def seen_by(record, seat: int) -> set[str]:
    """Every card name this seat was ever shown, by observation or event."""
    seen = set()
    state = record.new_state()
    seen |= cards_in(json.dumps(state.observation(seat)))
    for state, _actor, _action, events in record.steps():
        seen |= cards_in(json.dumps(state.observation(seat)))
        for event in events:
            seen |= cards_in(json.dumps(event.view(seat)))
    return seen


def test_the_terminal_shows_only_cards_the_seat_has_seen(tmp_path):
    for seed, seat in [(12, 0), (31, 2)]:
        result, record = play_to_the_end(tmp_path, seed=seed, seat=seat)
        shown = cards_in(result.output)
        assert shown <= seen_by(record, seat), shown - seen_by(record, seat)
        everything = {c for s in range(4) for c in seen_by(record, s)}
        assert everything - seen_by(record, seat), "some card should stay hidden from the player"


def test_replay_views(tmp_path):
    _result, record = play_to_the_end(tmp_path, seed=12)
    path = tmp_path / "game.json"
    mine = run("replay", str(path))
    assert mine.exit_code == 0 and "viewed seat 0" in mine.output
    assert cards_in(mine.output) <= seen_by(record, 0)
    other = run("replay", str(path), "--seat", "2", "--table")
    assert cards_in(other.output) <= seen_by(record, 2)
    public = run("replay", str(path), "--public")
    everyone = set.intersection(*(seen_by(record, s) for s in range(4)))
    assert cards_in(public.output) <= everyone
    assert "saw]" not in mine.output + other.output + public.output
    full = run("replay", str(path), "--all")
    assert "saw]" in full.output and "all-seeing" in full.output
    both = run("replay", str(path), "--all", "--seat", "1")
    assert both.exit_code == 2 and "choose one of" in both.output


def test_the_table_shows_only_the_top_of_the_squared_discard_pile():
    state = stacked(
        3,
        dealer=2,
        hands={0: "RC1 YH2 GT3", 1: "YC1 GS2 BT1", 2: "GC1 BS2 RT4"},
        face_up="KB?",
        stock="RS4 BB1",
    )
    play(state, "draw", "discard RS4", "draw", "discard BB1")
    console = Console(width=120, record=True, color_system=None)
    console.print(ThirtyTwoView(state.game).table(state.observation(2), ["Ann", "Bob", "You"]))
    text = console.export_text()
    assert "Discard pile: B✱1  on a pile of 3 cards (only the top one shows)" in text
    assert cards_in(text) == {"BB1", "GC1", "BS2", "RT4"}  # the top and the hand
