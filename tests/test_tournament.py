"""Tournaments: balanced seatings, intervals, deterministic reports, the command."""

from __future__ import annotations

import json
from collections import Counter

from click.testing import CliRunner

from tripletopper.cli import cli
from tripletopper.games.thirty_two import ThirtyTwo
from tripletopper.tournament import run_tournament, seating, wilson


def test_every_bot_sits_in_every_seat_equally_often():
    for bots, players in [(["a", "b"], 2), (["a", "b", "c"], 4), (["a", "b", "c", "d", "e"], 3)]:
        block = len(bots) * players
        counts = Counter(
            (seat, name)
            for index in range(block)
            for seat, name in enumerate(seating(bots, players, index))
        )
        assert len(set(counts.values())) == 1, counts


def test_wilson_interval():
    low, high = wilson(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)


def strip(report):
    data = report.to_json(with_games=True)
    data.pop("seconds")
    for row in data["standings"]:
        row.pop("decision_seconds")
    return data


def test_reports_repeat_whatever_the_number_of_workers():
    game = ThirtyTwo(4)
    one = run_tournament(game, ["random", "medium"], 24, seed=3, workers=1)
    two = run_tournament(game, ["random", "medium"], 24, seed=3, workers=2)
    assert strip(one) == strip(two)
    standings = {row["bot"]: row for row in one.to_json()["standings"]}
    assert standings["medium"]["win_rate"] > standings["random"]["win_rate"]
    assert standings["medium"]["rating"]["mu"] > standings["random"]["rating"]["mu"]
    assert standings["medium"]["seat_games"] == standings["random"]["seat_games"] == 48


def test_tournament_command(tmp_path):
    out = tmp_path / "results.json"
    result = CliRunner().invoke(
        cli,
        [
            "tournament",
            "thirty-two",
            "-p",
            "3",
            "--bots",
            "random,easy",
            "-n",
            "12",
            "--seed",
            "2",
            "--workers",
            "1",
            "--out",
            str(out),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games_played"] == 12 and len(summary["standings"]) == 2
    assert len(json.loads(out.read_text())["games"]) == 12
    bad = CliRunner().invoke(cli, ["tournament", "thirty-two", "--bots", "random"])
    assert bad.exit_code == 2 and "at least two bots" in bad.output


def test_bots_with_their_own_memory_are_told_what_happens():
    """A forgetful Memo Match bot builds its memory from events: a tournament must
    deliver them, or a big memory plays like none (a bug once hid that)."""
    from tripletopper.bots import make_bot
    from tripletopper.games.memo_match import MemoMatch
    from tripletopper.runner import bot_seed, game_seed, play_game
    from tripletopper.tournament import play_seated

    seats = ["forgetful:capacity=125", "forgetful:capacity=125"]
    outcome = play_seated(("memo-match", 2, {}, seats, 7, 0))
    game = MemoMatch(2)
    gseed = game_seed(7, 0)
    bots = [make_bot(spec, game, s, bot_seed(gseed, s)) for s, spec in enumerate(seats)]
    state = play_game(game, bots, gseed)
    assert bots[0].remembered or bots[1].remembered or bots[0].taken  # type: ignore[attr-defined]
    assert outcome.actions == state.version
    assert outcome.places == [state.results().rank_of(s) for s in range(2)]  # type: ignore[union-attr]
