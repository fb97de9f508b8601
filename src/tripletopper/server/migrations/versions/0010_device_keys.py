"""Seat keys of a person's other devices: ``seats.device_keys``.

A signed-in person who holds a seat may resume it from another browser ("My games"):
the server hands that browser a new seat token, and keeps its hash here (space
separated SHA-256 digests, newest last, at most ``tables.MAX_DEVICE_KEYS``) next to
the seat's own ``token_hash``.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("device_keys", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("seats", "device_keys")
