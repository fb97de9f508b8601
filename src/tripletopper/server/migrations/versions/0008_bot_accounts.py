"""Bot accounts: an owner per bot account, their API tokens, and the seats they hold.

``users.owner_id``: set for a bot account (the person who made it; people have
none).  ``bot_tokens``: each API token's SHA-256, expiry and revocation.
``seats.bot_account``: a bot account plays this seat through the websocket.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("users", sa.Column("owner_id", sa.Integer, nullable=True))
    op.add_column(
        "seats", sa.Column("bot_account", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.create_table(
        "bot_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=True),
        sa.Column("revoked_at", sa.Float, nullable=True),
    )
    op.create_index("ix_bot_tokens_user_id", "bot_tokens", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_bot_tokens_user_id", "bot_tokens")
    op.drop_table("bot_tokens")
    op.drop_column("seats", "bot_account")
    op.drop_column("users", "owner_id")
