"""`tripletopper analyze`: sweeps, determinism across workers, JSON and CSV output."""

from __future__ import annotations

import csv
import io
import json

from click.testing import CliRunner

from tripletopper.analysis.run import Plan, parse_sweep, run_plan
from tripletopper.analysis.summary import document
from tripletopper.cli import cli

SWEEP = Plan(
    "thirty-two",
    options=("counters=4",),
    sweeps=(("players", ("3", "4")), ("no_wilds", ("false", "true"))),
    bots=("medium", "random"),
    games=24,
    seed=5,
)


def run(*args: str):
    return CliRunner().invoke(cli, ["analyze", *args], catch_exceptions=False)


def test_the_grid_is_every_combination_of_the_sweeps():
    cells = SWEEP.cells()
    assert [c.swept for c in cells] == [
        (("players", "3"), ("no_wilds", "false")),
        (("players", "3"), ("no_wilds", "true")),
        (("players", "4"), ("no_wilds", "false")),
        (("players", "4"), ("no_wilds", "true")),
    ]
    assert [c.players for c in cells] == [3, 3, 4, 4]
    assert cells[1].options == (("counters", "4"), ("no_wilds", "true"))
    assert parse_sweep("counters = 8, 12 ,") == ("counters", ("8", "12"))


def test_the_same_numbers_on_one_worker_and_on_two():
    one = document(SWEEP, run_plan(SWEEP, workers=1))
    two = document(SWEEP, run_plan(SWEEP, workers=2))
    assert one == two
    assert [cell["games"] for cell in one["cells"]] == [24] * 4
    assert one["cells"][3]["options"] == {
        "counters": 4,
        "no_wilds": True,
        "cap_at_32": True,
        "end": "first_elimination",
    }
    # Seats alternate medium and random; every game has exactly one share of the win.
    for cell in one["cells"]:
        for prefix in ("win_seat", "win_pos"):
            wins = [cell["metrics"][f"{prefix}{s}"]["value"] for s in range(cell["players"])]
            assert abs(sum(wins) - 1) < 1e-5  # rounded to six places


def test_rows_are_in_game_order_whatever_the_batches():
    plan = Plan("toe", games=10, seed=2)
    (whole,) = run_plan(plan, workers=1)
    (split,) = run_plan(plan, workers=10)  # one game per batch
    assert whole.rows == split.rows
    (other,) = run_plan(Plan("toe", games=10, seed=3), workers=1)
    assert other.rows != whole.rows


def test_cli_json_and_csv(tmp_path):
    out = tmp_path / "cells.csv"
    result = run(
        "toe",
        "--games",
        "30",
        "--sweep",
        "max_turns=6,400",
        "--seed",
        "4",
        "--json",
        "-",
        "--csv",
        str(out),
        "-w",
        "1",
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["command"] == (
        "tripletopper analyze toe --sweep max_turns=6,400 --bots medium --games 30 --seed 4"
    )
    assert doc["bots"] == ["medium"] and doc["sweeps"] == {"max_turns": ["6", "400"]}
    short, full = doc["cells"]
    # Six turns are too few for a line of four each: every game stops at the limit, drawn.
    assert short["metrics"]["limit"]["value"] == 1.0 and short["metrics"]["draw"]["value"] == 1
    assert short["metrics"]["turns"]["value"] == 6
    assert full["metrics"]["limit"]["value"] == 0.0
    x_win = full["metrics"]["x_win"]
    assert x_win["low"] <= x_win["value"] <= x_win["high"] and x_win["n"] == 30
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert rows[0].keys() >= {"max_turns", "metric", "value", "low", "high", "n"}
    by_key = {(r["max_turns"], r["metric"]): r for r in rows}
    assert float(by_key[("6", "limit")]["value"]) == 1.0
    assert float(by_key[("400", "x_win")]["value"]) == x_win["value"]


def test_cli_tables():
    result = run("thirty-one", "-p", "3", "--games", "10", "-w", "1")
    assert result.exit_code == 0
    assert "Thirty-One: 1 cell(s) x 10 games, bots medium, seed 0" in result.output
    assert "hands ended by a dealt 31" in result.output and "95% interval" in result.output
    grid = run("thirty-one", "--games", "5", "--sweep", "players=2,3", "-w", "1")
    assert "players=2" in grid.output and "players=3" in grid.output


def test_bad_requests_are_usage_errors():
    for args, message in [
        (["chess"], "unknown game 'chess'"),
        (["toe", "--sweep", "max_turns"], "a sweep is written name=v1,v2"),
        (["toe", "--sweep", "colour=red,blue"], "no option 'colour'"),
        (["toe", "--sweep", "players=2,3"], "2 players"),
        (["toe", "--bots", "wizard"], "no bot 'wizard'"),
        (["toe", "--sweep", "max_turns=5", "--sweep", "max_turns=9"], "max_turns swept twice"),
        (["toe", "--sweep", "players=two"], "players are whole numbers (got 'two')"),
    ]:
        result = run(*args, "--games", "2")
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output, (args, result.output)
