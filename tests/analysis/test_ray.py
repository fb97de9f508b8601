"""The same sweep, tournament and match on a local Ray instance as on the process pool.

Ray starts slowly (seconds), so one instance serves every test here and the work
is small.  Where Ray is not installed or cannot start, the tests are skipped with
the reason (CI installs it through the test extra)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tripletopper.analysis.run import Plan, run_plan
from tripletopper.analysis.summary import document
from tripletopper.cli import cli
from tripletopper.games import GAMES
from tripletopper.match import Sprt, run_match
from tripletopper.parallel import RayUnavailable, connect_ray
from tripletopper.tournament import run_tournament

ray = pytest.importorskip("ray", reason="Ray is not installed: pip install 'tripletopper[cluster]'")


@pytest.fixture(scope="module")
def local_ray():
    try:
        connect_ray("local")
    except RayUnavailable as exc:
        pytest.skip(f"Ray cannot start on this machine: {exc}")
    yield "local"
    ray.shutdown()


def test_a_sweep_on_ray_equals_the_process_pool(local_ray):
    plan = Plan(
        "thirty-two",
        players=3,
        sweeps=(("counters", ("3", "6")),),
        games=16,
        seed=11,
        bots=("medium", "random"),
    )
    on_ray = document(plan, run_plan(plan, ray=local_ray))
    assert on_ray == document(plan, run_plan(plan, workers=2))
    assert [cell["games"] for cell in on_ray["cells"]] == [16, 16]


def test_a_tournament_on_ray_equals_the_process_pool(local_ray):
    game = GAMES["toe"](2)

    def standings(**where):
        report = run_tournament(game, ["medium", "random"], 8, seed=3, **where)
        return [
            {k: v for k, v in row.items() if k != "decision_seconds"}
            for row in report.to_json()["standings"]
        ]

    assert standings(ray=local_ray) == standings(workers=2)


def test_a_match_on_ray_equals_the_process_pool(local_ray):
    """Ray is told the cluster's cores for its batches; the SPRT stops at the same deal."""
    game = GAMES["thirty-two"](4)

    def result(**where):
        data = run_match(game, "medium", "easy", Sprt.from_elo(0, 50), 400, 3, **where).to_json()
        return {k: v for k, v in data.items() if k not in ("seconds", "decision_seconds")}

    on_ray = result(ray=local_ray)
    assert on_ray == result(workers=2) and on_ray["sprt"]["verdict"] == "H1"


def test_an_unreachable_or_malformed_address_is_a_clear_error_at_once():
    for address, message in [
        ("127.0.0.1:1", "cannot reach the Ray cluster at '127.0.0.1:1'"),
        ("ray://127.0.0.1:1", "cannot reach the Ray cluster at 'ray://127.0.0.1:1'"),
        ("head", "a Ray address is auto, local, HOST:PORT or ray://HOST:PORT (got 'head')"),
    ]:
        for command in (
            ["analyze", "toe"],
            ["tournament", "toe", "--bots", "random,medium"],
            ["match", "toe", "medium", "random"],
        ):
            result = CliRunner().invoke(cli, [*command, "--games", "2", "--ray", address])
            assert result.exit_code == 1 and message in result.output, result.output
