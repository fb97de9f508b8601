"""The learning example runs (a seconds-long version of examples/train_thirty_one.py)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).parents[2] / "examples" / "train_thirty_one.py"


def test_training_smoke(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    plot = tmp_path / "curve.png"
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--smoke", "--plot", str(plot)])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "training against the easy bot" in out
    assert out.count("trained policy wins") == 2
    assert plot.read_bytes().startswith(b"\x89PNG")
