"""Memo Match at the command line: simulate, rules, a whole terminal game and its replay."""

from __future__ import annotations

import json

from ..test_cli import cards_in, run, seen_by


def test_simulate_json_repeats_exactly():
    args = ["simulate", "memo-match", "--games", "300", "--players", "3", "--seed", "1", "--json"]
    first, second = json.loads(run(*args).output), json.loads(run(*args).output)
    for report in (first, second):
        assert report["games"] == 300 and report["actions"] > 0
        del report["seconds"], report["actions_per_second"]
    assert first == second
    assert set(first["mean"]) == {"turns", "declarations", "playoffs"}
    assert abs(sum(s["win_rate"] for s in first["seats"]) - 1) < 1e-5


def test_rules_and_bots():
    page = " ".join(run("rules", "memo-match").output.split())
    assert "Memo Match" in page and "no matches" in page and "playoff" in page.lower()
    out = run("bots", "memo-match").output
    assert "perfect" in out and "forgetful" in out


def play_to_the_end(tmp_path, seed: int, *options: str):
    path = tmp_path / "game.json"
    answers = "\n".join(["", "Z9", "fly", "?", "A1", "A1", "B1", "declare", "1"] + ["pass"] * 40)
    result = run(
        "play",
        "memo-match",
        "-p",
        "3",
        "--seed",
        str(seed),
        "--bots",
        "forgetful,perfect",
        "--save",
        str(path),
        *options,
        input=answers + "\n",
    )
    from tripletopper.record import load_records

    return result, load_records(path)[0]


def test_play_a_whole_game_in_the_terminal(tmp_path):
    result, record = play_to_the_end(tmp_path, 4)
    out = result.output
    assert result.exit_code == 0
    assert "unknown action 'z9'" in out and "unknown action 'fly'" in out
    assert "already face up" in out and "Type a position to flip" in out
    assert "░░░" in out and "  A   B   C" in out
    assert "no matches" in out
    assert "Final standings" in out
    assert record.replay().is_terminal()


def test_the_terminal_never_shows_what_the_seat_did_not_see(tmp_path):
    for seed in (4, 9):
        result, record = play_to_the_end(tmp_path, seed, "-o", "reveal=private")
        shown = cards_in(result.output)
        assert shown <= seen_by(record, 0), shown - seen_by(record, 0)
    replay = run("replay", str(tmp_path / "game.json"), "--seat", "1", "--table")
    assert replay.exit_code == 0
    assert cards_in(replay.output) <= seen_by(record, 1)


def test_the_terminal_narrates_flips_and_misses_by_position_only(tmp_path):
    result, _ = play_to_the_end(tmp_path, 4)
    told = [line for line in result.output.splitlines() if " flip" in line or "No match" in line]
    assert any("You flip" in line for line in told) and any("No match" in line for line in told)
    for line in told:
        if "flip the card at" not in line:  # (the menu's action labels name positions too)
            assert not cards_in(line), line


def terminal_table(state, console, seat: int = 0):
    from tripletopper.cli.play import TerminalTable
    from tripletopper.cli.views import view_for

    table = TerminalTable.__new__(TerminalTable)
    table.game, table.seat, table.console = state.game, seat, console
    table.names = ["You", "Ben", "Cid"][: state.game.players]
    table.state, table.view = state, view_for(state.game)
    table.bots = [None] * state.game.players
    return table


def test_a_real_terminal_shows_a_miss_for_a_moment_then_wipes_the_screen(monkeypatch):
    import io

    from rich.console import Console

    from tripletopper.cli import play as play_module

    from .helpers import stacked

    waits: list[float] = []
    monkeypatch.setattr(play_module.time, "sleep", waits.append)
    state = stacked(2, "RC1 YH2 GT3")
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    table = terminal_table(state, console)
    table.apply(("flip", 0), 0)
    assert waits == []  # one card up: the table's drawing shows it while it is up
    table.apply(("flip", 1), 0)
    assert waits == [play_module.MOMENT_SECONDS]
    out = console.file.getvalue()
    shown, _, after = out.rpartition("\x1b[3J")  # the screen and its scrollback wiped
    assert {"RC1", "YH2"} <= cards_in(shown)
    assert not cards_in(after) and "No match: the cards at A1 and B1" in after
    piped = Console(file=io.StringIO(), width=100)  # a pipe cannot wipe: no moment at all
    again = stacked(2, "RC1 YH2 GT3")
    for position in (0, 1):
        terminal_table(again, piped).apply(("flip", position), 0)
    assert not cards_in(piped.file.getvalue()) and len(waits) == 1


def test_the_all_seeing_replay_shows_the_misses_and_a_seats_replay_does_not(tmp_path):
    result, _ = play_to_the_end(tmp_path, 4, "-o", "reveal=private")
    assert result.exit_code == 0
    path = str(tmp_path / "game.json")
    everything = run("replay", path, "--all").output
    assert "No match: " in everything and "(turned face down in a moment)" in everything
    seat = run("replay", path, "--seat", "1").output
    assert "turned face down in a moment" not in seat
    missed_by_others = {
        line for line in seat.splitlines() if "No match" in line or " flips " in line
    }
    assert missed_by_others and not any(cards_in(line) for line in missed_by_others)


def test_a_human_spotter_races_the_bots_at_the_terminal(monkeypatch):
    import io

    from rich.console import Console

    from tripletopper.bots import SeatView, make_bot
    from tripletopper.cli.play import TerminalTable
    from tripletopper.cli.views import view_for

    from .helpers import pile, play, stacked

    state = stacked(3, "RC1 RC2 GT3", order=[1, 0, 2])
    play(state, "declare")  # seat 1 declares: seats 0 (the human) and 2 race
    console = Console(file=io.StringIO(), width=100)
    table = TerminalTable.__new__(TerminalTable)
    table.game, table.seat, table.console = state.game, 0, console
    table.names = ["You", "Ben", "Cid"]
    table.state, table.view = state, view_for(state.game)
    table.bots = [None, None, make_bot("perfect:spot_delay=30", state.game, 2, 0)]
    table.views = [SeatView(state, s) for s in range(3)]
    monkeypatch.setattr(console, "input", lambda prompt: "B1 A1")
    table.race()
    out = console.file.getvalue()
    assert "Type two positions to claim a pair" in out and "spot a pair" in out
    assert pile(state, 0) == ["RC1", "RC2"] and state.out[1]
