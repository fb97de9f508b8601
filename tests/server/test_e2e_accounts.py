"""Accounts in real browsers: sign up in the lobby, sit under the account's name; a guest
who signs in keeps their seat, now linked to the account; sign out and in again."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from tests.server.helpers import live_server
from tripletopper.server import schema
from tripletopper.server.storage import Database, sqlite_url

pytestmark = pytest.mark.e2e


def stored_seats(data_dir: str) -> list[tuple[Any, ...]]:
    db = Database(sqlite_url(data_dir))
    s, u = schema.seats, schema.users
    query = select(s.c.seat, s.c.name, u.c.name).join(u, u.c.id == s.c.user_id, isouter=True)
    rows = db.run_now(lambda conn: sorted(conn.execute(query.order_by(s.c.seat))))
    db.engine.dispose()
    return [tuple(r) for r in rows]


def sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/")
    page.fill("#sign-in-form input[name=name]", name)
    page.fill("#sign-in-form input[name=password]", "correct horse")
    page.click("#sign-up")
    page.wait_for_selector(f"#signed-in-as:has-text('{name}')")


def test_sign_up_sit_as_the_account_and_a_guest_keeps_their_seat(browser, tmp_path):
    with live_server(str(tmp_path), bot_delay=0.05) as base:
        ann = browser.new_context().new_page()
        bob = browser.new_context().new_page()
        errors: list[str] = []
        for page in (ann, bob):
            page.on("pageerror", lambda exc: errors.append(str(exc)))

        sign_up(ann, base, "Ann")
        assert ann.input_value("#your-name") == "Ann"
        assert ann.locator("#your-name").get_attribute("readonly") is not None
        ann.select_option("#game", "thirty-two")
        assert ann.is_checked("#rated")  # signed in: rated by default...
        ann.uncheck("#rated")  # ...but a guest is to sit here
        ann.click("#open-table")
        ann.wait_for_url(f"{base}/t/*")
        ann.wait_for_selector("#seats [data-seat='0']:has-text('Ann - you')")
        table_url = ann.url

        bob.goto(table_url)  # a guest sits down...
        bob.fill("#seats [data-seat='1'] input", "Bob")
        bob.click("#seats [data-seat='1'] button:has-text('Sit here')")
        bob.wait_for_selector("#seats [data-seat='1']:has-text('Bob - you')")
        assert stored_seats(str(tmp_path)) == [(0, "Ann", "Ann"), (1, "Bob", None)]

        sign_up(bob, base, "Bobby")  # ...signs up, comes back: the seat is his account's
        bob.goto(table_url)
        bob.wait_for_selector("#seats [data-seat='1']:has-text('Bob - you')")
        for _ in range(50):
            if stored_seats(str(tmp_path))[1] == (1, "Bob", "Bobby"):
                break
            bob.wait_for_timeout(100)
        assert stored_seats(str(tmp_path)) == [(0, "Ann", "Ann"), (1, "Bob", "Bobby")]

        ann.goto(f"{base}/")  # still signed in after a reload; then out and in again
        ann.wait_for_selector("#signed-in-as:has-text('Ann')")
        ann.click("#sign-out")
        ann.wait_for_selector("#sign-in-form")
        assert ann.locator("#your-name").get_attribute("readonly") is None
        ann.fill("#sign-in-form input[name=name]", "ann")
        ann.fill("#sign-in-form input[name=password]", "wrong password")
        ann.click("#sign-in")
        ann.wait_for_selector("#account-error:has-text('wrong name or password')")
        ann.fill("#sign-in-form input[name=password]", "correct horse")
        ann.click("#sign-in")
        ann.wait_for_selector("#signed-in-as:has-text('Ann')")
        assert errors == []
