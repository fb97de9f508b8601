"""Rated games: ratings per game and player, each rated game's changes, forfeits.

``tables.rated``: the table is rated (null: decided at the start: rated when every
person seated has an account).  ``seats.forfeit``: the person left this rated game
and finishes last whatever happens next.  ``ratings``: each player's current
OpenSkill rating per game (``u:<user id>`` or ``b:<bot spec>``).  ``rating_changes``:
for each rated game, every player's place and rating before and after.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("rated", sa.Boolean, nullable=True))
    op.add_column(
        "seats", sa.Column("forfeit", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(64), primary_key=True),
        sa.Column("player", sa.String(160), primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_table(
        "rating_changes",
        sa.Column("table_id", sa.String(32), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("player", sa.String(160), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("place", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float, nullable=False),
        sa.Column("sigma_before", sa.Float, nullable=False),
        sa.Column("mu_after", sa.Float, nullable=False),
        sa.Column("sigma_after", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_rating_changes_player", "rating_changes", ["player", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_changes_player", "rating_changes")
    op.drop_table("rating_changes")
    op.drop_table("ratings")
    op.drop_column("seats", "forfeit")
    op.drop_column("tables", "rated")
