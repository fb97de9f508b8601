"""The replay page's Review button in a real browser (Playwright on Debian's Chromium): a
finished game's player asks for the review of their seat, sees its progress, then their
decisions with the biggest mistake first, as the review module computes it."""

from __future__ import annotations

import asyncio
import contextlib
import json
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.server.helpers import live_server, open_table
from tests.server.test_e2e import ARTIFACTS
from tests.server.test_e2e_table import DESKTOP, Player
from tests.server.test_play import stored_record
from tripletopper.review import review
from tripletopper.server.client import TableClient

pytestmark = pytest.mark.e2e

ITERATIONS = 150


async def play_then_close(base: str, table_id: str, token: str, versions: int) -> None:
    """Ann plays her first legal move each turn until ``versions`` actions were played (the
    random bots play theirs), then closes the table: a finished game."""
    async with TableClient(base, table_id, token) as ann:
        while not ann.finished:
            if ann.version >= versions:
                await ann.act({"type": "close"}, table=True)  # refused if a bot moved first
            elif ann.legal:
                await ann.act(ann.actions[0])
            version = ann.version
            with contextlib.suppress(TimeoutError):
                await ann.wait(lambda c, seen=version: c.version > seen or c.finished, 2)


def test_the_review_button_shows_progress_then_the_biggest_mistake_first(browser, tmp_path):
    ARTIFACTS.mkdir(exist_ok=True)
    with live_server(str(tmp_path), bot_delay=0, review_iterations=ITERATIONS) as base:
        table_id, tokens = open_table(
            base, players=3, humans=1, bots="random", options={"end": "open"}
        )
        with ThreadPoolExecutor(1) as thread:  # Playwright runs its own loop in this one
            thread.submit(asyncio.run, play_then_close(base, table_id, tokens[0], 24)).result()
        ann = Player(browser, f"{base}/t/{table_id}#seat={tokens[0]}", DESKTOP)  # her token
        ann.page.wait_for_selector("#results-panel:not([hidden])")
        answers: list[dict[str, Any]] = []
        ann.page.on(
            "response",
            lambda r: answers.append(json.loads(r.text())) if "/review" in r.url and r.ok else None,
        )
        ann.page.goto(f"{base}/r/{table_id}")
        ann.page.wait_for_selector("#review-panel:not([hidden])")
        ann.page.click("#review")
        ann.page.wait_for_selector("#review-progress:not([hidden])")
        ann.page.wait_for_selector("#review-table:not([hidden])", timeout=60000)
        ann.page.screenshot(path=str(ARTIFACTS / "e2e-review.png"), full_page=True)
        statuses = [answer["status"] for answer in answers]
        assert statuses[-1] == "done" and {"waiting", "running"} & set(statuses), statuses
        assert not ann.errors, ann.errors
        rows = [
            [cell.strip() for cell in row.split("\t")]
            for row in ann.page.locator("#review-table tbody tr").all_inner_texts()
        ]
        ann.assert_accessible("the replay page with its review")
        ann.context.close()
    expected = review(stored_record(str(tmp_path), table_id), 0, iterations=ITERATIONS)
    assert len(rows) == len(expected.findings) > 0
    top = expected.findings[0]
    preferred = "the same" if top.preferred == top.played else top.preferred
    assert rows[0] == [str(top.index + 1), top.played, preferred, f"{top.loss * 100:.1f}"]
