"""Alembic migrations of the card room's schema, shipped in the package (applied on start)."""
