"""3UP 3DOWN at the command line: simulate, rules, a whole terminal game, replays."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tripletopper.cli import cli
from tripletopper.record import load_records


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


def test_rules_games_and_bots():
    page = " ".join(run("rules", "three-up-three-down").output.split())
    assert "3UP 3DOWN" in page and "Clear+2" in page and "Three or more in a row" in page
    assert "three-up-three-down" in run("games").output and "rank_all" in run("games").output
    assert "heuristic" in run("bots", "three-up-three-down").output


def test_simulate_json_repeats_exactly():
    args = [
        "simulate",
        "three-up-three-down",
        "--games",
        "200",
        "--players",
        "4",
        "--seed",
        "1",
        "--json",
    ]
    first, second = json.loads(run(*args).output), json.loads(run(*args).output)
    for report in (first, second):
        assert report["games"] == 200 and report["actions"] > 0
        del report["seconds"], report["actions_per_second"]
    assert first == second
    assert set(first["mean"]) == {"turns", "pickups", "clears"}
    assert abs(sum(s["win_rate"] for s in first["seats"]) - 1) < 1e-6


def test_bad_options_are_usage_errors():
    for args, message in [
        (["simulate", "three-up-three-down", "-p", "7"], "2 to 6 players"),
        (["simulate", "three-up-three-down", "-p", "6", "-o", "colors=G"], "too small"),
        (["simulate", "three-up-three-down", "-o", "colors=pink"], "not a 3UP 3DOWN color"),
        (["simulate", "three-up-three-down", "-o", "max_turns=-1"], "max_turns"),
    ]:
        result = run(*args)
        assert result.exit_code == 2, args
        assert message in result.output, (args, result.output)


def play_to_the_end(tmp_path, seed: int, seat: int = 0):
    path = tmp_path / "game.json"
    answers = "\n".join(["", "fly", "99", "?", "play 11", "play 7 8"] + ["1"] * 3000) + "\n"
    result = run(
        "play",
        "three-up-three-down",
        "-p",
        "3",
        "--seed",
        str(seed),
        "--seat",
        str(seat),
        "--bots",
        "heuristic,random",
        "--save",
        str(path),
        "-o",
        "colors=RG",
        input=answers,
    )
    return result, load_records(path)[0]


def own_secrets(record, seat: int | None) -> dict[str, int]:
    """How often the seat was told a secret of its own: its draws, its choice, its flips."""
    counts = {"You draw": 0, "You lay": 0, "You flip": 0}
    for _state, actor, _action, events in record.steps():
        for event in events:
            view = event.view(seat)
            if actor != seat:
                continue
            if event.type == "drew":
                counts["You draw"] += 1
            elif event.type == "chose":
                counts["You lay"] += 1
            elif view.get("from") == "3DOWN" or "flipped_card" in view:
                counts["You flip"] += 1
    return counts


def told(text: str) -> dict[str, int]:
    return {key: text.count(key) for key in ("You draw", "You lay", "You flip")}


def test_play_a_whole_game_in_the_terminal_and_replay_it(tmp_path):
    result, record = play_to_the_end(tmp_path, seed=3, seat=1)
    out = result.output
    assert result.exit_code == 0
    assert "unknown action 'fly'" in out and "Choose a number from 1 to" in out
    assert "not a 3UP 3DOWN value" in out and "first everyone chooses" in out
    assert "3DOWN" in out and "Your cards:" in out and "Your hand:" in out
    assert "lay " in out and "face up" in out
    assert "Final standings" in out or "You leave the table" in out
    assert record.meta["human_seat"] == 1 and record.replay().version == len(record.actions)
    # "You draw 8", "You lay ...", "You flip ...": only the seat's own secrets, each once
    assert told(out) == own_secrets(record, 1) and own_secrets(record, 1)["You draw"] > 3
    assert "draws 1 card" in out or "draws 2 cards" in out  # the others' draws, unseen
    path = str(tmp_path / "game.json")
    mine = run("replay", path, "--table")
    assert mine.exit_code == 0 and "viewed seat 1" in mine.output
    assert told(mine.output) == own_secrets(record, 1)
    other = run("replay", path, "--seat", "2").output
    assert told(other) == own_secrets(record, 2)
    spectator = run("replay", path, "--public", "--table").output
    assert told(spectator) == {"You draw": 0, "You lay": 0, "You flip": 0}
    full = run("replay", path, "--all").output
    assert "saw]" in full
