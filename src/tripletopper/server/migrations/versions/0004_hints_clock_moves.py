"""Tables may turn hints on; actions say whether a turn clock played them for the seat.

``tables.hints``: the table shows each seat the game's hints (threats, playable
cards).  ``actions.by_clock``: the seat's turn clock ran out and the server played
this action for it, so narration and replays can say so.  Both are false for
everything stored before.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER TABLE ... ADD COLUMN (SQLite too): no table is copied, and SQLite's
    # foreign keys never see a table dropped.
    op.add_column(
        "tables", sa.Column("hints", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column(
        "actions", sa.Column("by_clock", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    op.drop_column("actions", "by_clock")
    op.drop_column("tables", "hints")
