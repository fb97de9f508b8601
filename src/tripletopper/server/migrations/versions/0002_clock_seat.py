"""Timeouts are the clock's: stored timeouts move from seat -1 (TABLE) to -2 (CLOCK).

The engine now refuses a timeout played by TABLE (docs/engine.md), so games stored
before would not replay.  Only clock timeouts and closings of open tables were
stored at seat -1: the rows are few, and each is read as JSON to pick the
timeouts whatever the spacing of the stored text.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

TABLE, CLOCK = -1, -2

actions = sa.table(
    "actions",
    sa.column("table_id", sa.String),
    sa.column("n", sa.Integer),
    sa.column("seat", sa.Integer),
    sa.column("action", sa.Text),
)


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(actions.c.table_id, actions.c.n, actions.c.action).where(actions.c.seat == TABLE)
    )
    timeouts = [
        {"table": table_id, "number": n}
        for table_id, n, action in rows
        if json.loads(action).get("type") == "timeout"
    ]
    if timeouts:
        conn.execute(
            actions.update()
            .where(
                actions.c.table_id == sa.bindparam("table"), actions.c.n == sa.bindparam("number")
            )
            .values(seat=CLOCK),
            timeouts,
        )


def downgrade() -> None:
    op.execute(actions.update().where(actions.c.seat == CLOCK).values(seat=TABLE))
