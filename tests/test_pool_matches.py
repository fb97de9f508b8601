"""benchmarks/pool_matches.py: fixed match runs on different seeds pool into one."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from tripletopper.cli import cli

ROOT = Path(__file__).resolve().parents[1]


def match(seed: int, *extra: str, bots: tuple[str, str] = ("easy", "random")) -> dict:
    args = ["match", "memo-match", *bots, "-p", "2", "--games", "16", "--seed", str(seed)]
    done = CliRunner().invoke(cli, [*args, "-w", "1", "--json", *extra])
    assert done.exit_code == 0, done.output
    return json.loads(done.output)


def pool(tmp_path: Path, *runs: dict) -> subprocess.CompletedProcess[str]:
    paths = []
    for i, run in enumerate(runs):
        paths.append(tmp_path / f"{i}.json")
        paths[-1].write_text(json.dumps(run))
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "pool_matches.py"), *map(str, paths)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_two_seeds_pool_into_the_match_over_all_their_deals(tmp_path: Path) -> None:
    first, second = match(1, "--fixed"), match(2, "--fixed")
    done = pool(tmp_path, first, second)
    assert done.returncode == 0, done.stderr
    pooled = json.loads(done.stdout)
    scores = first["deal_scores"] + second["deal_scores"]
    assert pooled["seeds"] == [1, 2] and pooled["deals"] == len(scores) == 16
    assert pooled["games"] == 32
    assert math.isclose(pooled["score"], sum(scores) / len(scores), abs_tol=1e-6)
    assert pooled["pairs"] == {
        key: first["pairs"][key] + second["pairs"][key] for key in first["pairs"]
    }
    # More deals, a narrower interval than either run's.
    width = pooled["score_95"][1] - pooled["score_95"][0]
    assert all(width < run["score_95"][1] - run["score_95"][0] for run in (first, second))


def test_runs_that_do_not_pool_are_refused(tmp_path: Path) -> None:
    fixed = match(1, "--fixed")
    for others, message in (
        ((fixed,), "a seed appears twice"),
        ((match(2),), "not a --fixed run"),
        ((match(2, "--fixed", bots=("random", "easy")),), "not the same match"),
    ):
        done = pool(tmp_path, fixed, *others)
        assert done.returncode != 0 and message in done.stderr, done.stderr
        assert done.stdout == ""
