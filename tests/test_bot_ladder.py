"""benchmarks/bot_ladder.py: --rungs picks the rungs, --seconds caps every match."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def ladder(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bot_ladder.py"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_rungs_and_seconds_reach_every_match_and_its_command() -> None:
    done = ladder(
        "--only",
        "memo-match",
        "--players",
        "2",
        "--rungs",
        "medium-easy,target",
        "--games",
        "40",
        "--seconds",
        "0",
        "--workers",
        "1",
    )
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| memo-match")]
    # Only the two chosen rungs, each stopped after its first deal (2 games) on time.
    assert [row.split(" | ")[2:4] for row in rows] == [
        ["medium vs easy", "0/+50 Elo"],
        ["hard vs medium", "55%/65%"],
    ]
    assert all(row.split(" | ")[4] == "2" for row in rows)
    assert all("| inconclusive (time) | NO |" in row for row in rows)
    commands = [line.strip() for line in done.stdout.splitlines() if "tripletopper match" in line]
    assert commands == [
        "tripletopper match memo-match medium easy -p 2 --games 40 --seed 2026 "
        "--elo0 0 --elo1 50 --seconds 0",
        "tripletopper match memo-match hard medium -p 2 --games 40 --seed 2026 "
        "--score0 0.55 --score1 0.65 --seconds 0",
    ]


def test_an_unknown_rung_is_refused_before_any_match() -> None:
    done = ladder("--rungs", "hard-easy", "--workers", "1")
    assert done.returncode == 2
    assert "unknown rung(s) hard-easy" in done.stderr
    assert "| game |" not in done.stdout
