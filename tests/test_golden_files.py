"""Golden files are checked, never quietly written: a missing one fails until regenerated."""

import pytest

from tests import golden


def test_a_missing_golden_file_fails_and_stays_missing(tmp_path, monkeypatch):
    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)
    with pytest.raises(AssertionError, match=r"new\.txt is missing: write it with UPDATE_GOLDEN=1"):
        golden.check_golden("new.txt", "one\n")
    assert not (tmp_path / "new.txt").exists()


def test_golden_files_are_written_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(golden, "GOLDEN", tmp_path)
    monkeypatch.setenv("UPDATE_GOLDEN", "1")
    golden.check_golden("new.txt", "one\n")
    monkeypatch.delenv("UPDATE_GOLDEN")
    golden.check_golden("new.txt", "one\n")
    with pytest.raises(AssertionError, match=r"new\.txt changed"):
        golden.check_golden("new.txt", "two\n")
    assert (tmp_path / "new.txt").read_text() == "one\n"
