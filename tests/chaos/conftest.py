"""The chaos tests use the server tests' throwaway PostgreSQL and Redis."""

from tests.server.conftest import (  # noqa: F401 - fixtures, found by pytest by name
    postgres_server,
    postgres_url,
    redis_process,
    redis_server,
)
