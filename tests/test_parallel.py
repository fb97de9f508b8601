"""The process pool: results in job order, and an early stop that stops soon."""

from __future__ import annotations

import time
from contextlib import closing
from pathlib import Path

from tripletopper.parallel import run_ordered


def _record(job: tuple[str, int]) -> int:
    """Leave a trace that job ``index`` ran, then take a little while."""
    folder, index = job
    (Path(folder) / str(index)).touch()
    time.sleep(0.05)
    return index


def _ran_after_stopping_at_first_result(folder: Path, chunk: int | None) -> int:
    jobs = [(str(folder), i) for i in range(320)]
    with closing(run_ordered(_record, jobs, workers=2, chunk=chunk)) as results:
        assert next(results) == 0
    return len(list(folder.iterdir()))


def test_results_come_in_job_order_whatever_the_chunk(tmp_path: Path) -> None:
    jobs = [(str(tmp_path), i) for i in range(20)]
    for chunk in (None, 1, 3):
        assert list(run_ordered(_record, jobs, workers=2, chunk=chunk)) == list(range(20))


def test_stopping_early_waits_for_a_few_jobs_not_a_few_chunks(tmp_path: Path) -> None:
    # The pool hands a few chunks out ahead of the results: with one job a
    # chunk a stop costs a handful of jobs.  With the default chunk (16 for 320 jobs)
    # the first result itself waits for 16, and the stop for dozens more: that is how
    # `match --seconds` once ran 19 minutes past its limit.
    one = tmp_path / "one"
    default = tmp_path / "default"
    one.mkdir()
    default.mkdir()
    assert _ran_after_stopping_at_first_result(one, 1) <= 10
    assert _ran_after_stopping_at_first_result(default, None) > 10
