"""The command line with Thirty-One, driven as a user would (Click's runner feeds the keyboard)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner
from rich.console import Console

from tripletopper.cli import cli
from tripletopper.cli.cards import SUIT_SYMBOLS
from tripletopper.cli.views.thirty_one import ThirtyOneView
from tripletopper.record import load_records

from .helpers import play, stacked

SYMBOL_TO_LETTER = {v: k for k, v in SUIT_SYMBOLS.items()}
CARD = re.compile(r"(?<![\w])(10|[2-9JQKA])([♣♦♥♠])")
NAME = re.compile(r'"((?:10|[2-9JQKA])[CDHS])"')


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def cards_in(text: str) -> set[str]:
    """Cards drawn in terminal output (``K♠``), as notation (``KS``)."""
    return {rank + SYMBOL_TO_LETTER[suit] for rank, suit in CARD.findall(text)}


def test_games_bots_and_rules():
    listing = run("games").output
    assert "thirty-one" in listing and "three_of_a_kind" in listing and "manual_31" in listing
    assert "heuristic" in run("bots", "thirty-one").output
    page = " ".join(run("rules", "thirty-one").output.split())
    for words in ("circling the drain", "liver", "void", "30.5", "discard 2D declare"):
        assert words in page, words


def test_simulate_json_repeats_exactly():
    args = ["simulate", "thirty-one", "--games", "300", "--players", "5", "--seed", "1", "--json"]
    first, second = json.loads(run(*args).output), json.loads(run(*args).output)
    for report in (first, second):
        assert report["games"] == 300 and report["actions"] > 0
        del report["seconds"], report["actions_per_second"]
    assert first == second
    assert len(first["seats"]) == 5
    assert abs(sum(s["win_rate"] for s in first["seats"]) - 1) < 1e-6
    assert set(first["mean"]) == {"hands", "turns", "knocks", "thirty_ones", "stops", "void_hands"}


def test_simulate_options_bots_and_bad_requests(tmp_path):
    path = tmp_path / "games.jsonl"
    result = run(
        "simulate",
        "thirty-one",
        "-n",
        "10",
        "-p",
        "3",
        "--bots",
        "heuristic,random",
        "--seed",
        "4",
        "--save",
        str(path),
        "-o",
        "manual_31=on",
        "-o",
        "three_of_a_kind=30.5",
    )
    assert result.exit_code == 0 and "By bot" in result.output
    records = load_records(path)
    assert records[3].options == {"three_of_a_kind": "30.5", "manual_31": True}
    assert records[3].replay().is_terminal()
    for args, message in [
        (["simulate", "thirty-one", "-p", "10"], "2 to 9 players"),
        (["simulate", "thirty-one", "-o", "three_of_a_kind=31"], "one of none, 30.5"),
    ]:
        bad = run(*args)
        assert bad.exit_code == 2 and message in bad.output, bad.output


def play_to_the_end(tmp_path, seed: int, seat: int = 0, options: tuple[str, ...] = ()):
    path = tmp_path / "game.json"
    answers = "\n".join(["", "fly", "99", "?", "discard 1X"] + ["2", "1"] * 600) + "\n"
    extra = [arg for option in options for arg in ("-o", option)]
    result = run(
        "play",
        "thirty-one",
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
        *extra,
        input=answers,
    )
    return result, load_records(path)[0]


def seen_by(record, seat: int) -> set[str]:
    """Every card name this seat was ever shown, by observation or event."""
    seen = set(NAME.findall(json.dumps(record.new_state().observation(seat))))
    for state, _actor, _action, events in record.steps():
        seen |= set(NAME.findall(json.dumps(state.observation(seat))))
        for event in events:
            seen |= set(NAME.findall(json.dumps(event.view(seat))))
    return seen


def test_play_a_whole_game_in_the_terminal(tmp_path):
    result, record = play_to_the_end(tmp_path, seed=12)
    out = result.output
    assert result.exit_code == 0
    assert "unknown action 'fly'" in out and "Choose a number from 1 to" in out
    assert "Text forms:" in out and "not a card" in out
    assert "Your hand:" in out and "worth" in out and "organs" in out
    assert "into the kitty" in out and "loses a life" in out
    assert "Final standings" in out or "You leave the table" in out
    assert record.replay().version == len(record.actions)


def test_play_with_manual_31(tmp_path):
    result, record = play_to_the_end(tmp_path, seed=3, options=("manual_31=true",))
    assert result.exit_code == 0
    assert "play the hand" in result.output
    assert record.options["manual_31"] is True


def test_the_terminal_shows_only_cards_the_seat_has_seen(tmp_path):
    for seed, seat in [(12, 0), (31, 2)]:
        result, record = play_to_the_end(tmp_path, seed=seed, seat=seat)
        shown = cards_in(result.output)
        assert shown <= seen_by(record, seat), shown - seen_by(record, seat)
        # Over a whole game showdowns reveal most cards; what others draw is never shown.
        assert "draws from the stock" in result.output
        assert not re.search(r"\) draws (10|[2-9JQKA])[♣♦♥♠]", result.output)


def test_replay_views(tmp_path):
    _result, record = play_to_the_end(tmp_path, seed=12)
    path = tmp_path / "game.json"
    mine = run("replay", str(path))
    assert mine.exit_code == 0 and "viewed seat 0" in mine.output
    assert cards_in(mine.output) <= seen_by(record, 0)
    other = run("replay", str(path), "--seat", "2", "--table")
    assert cards_in(other.output) <= seen_by(record, 2)
    assert "organs" in other.output
    public = run("replay", str(path), "--public")
    everyone = set.intersection(*(seen_by(record, s) for s in range(4)))
    assert cards_in(public.output) <= everyone
    full = run("replay", str(path), "--all")
    assert "saw]" in full.output and "all-seeing" in full.output


def test_the_table_shows_only_the_top_of_the_squared_discard_pile():
    deal = ({0: "2C 3D 4H", 1: "2D 3H 4S", 2: "2H 3S 4C"}, "JS", "KD QC")
    state = stacked(3, dealer=2, deals=[deal])
    play(state, "draw", "discard KD", "draw", "discard QC")
    console = Console(width=120, record=True, color_system=None)
    console.print(ThirtyOneView(state.game).table(state.observation(2), ["Ann", "Bob", "You"]))
    text = console.export_text()
    assert "Discard pile: Q♣  on a pile of 3 cards (only the top one shows)" in text
    assert cards_in(text) == {"QC", "2H", "3S", "4C"}  # the top and the hand
