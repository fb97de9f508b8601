"""``tripletopper serve``: the online card room on uvicorn."""

from __future__ import annotations

import logging
import os
import sys
from typing import Any

import click

from tripletopper.server.botpool import DEADLINE
from tripletopper.server.tables import Settings


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on (0.0.0.0 lets friends on your network join).",
)
@click.option("--port", default=8032, show_default=True, type=int, help="Port to listen on.")
@click.option(
    "--db",
    "db_url",
    default=None,
    metavar="URL",
    help="Database URL (default: SQLite in the data dir), e.g. "
    "postgresql+psycopg://user:pass@host/dbname.",
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    help="Run the room as several processes sharing the --db (PostgreSQL) and passing "
    "actions and updates through Redis, e.g. redis://localhost:6379/0 (docs/deploy.md).",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Room processes sharing the port (more than one needs --db postgresql... and --redis).",
)
@click.option(
    "--data-dir",
    default="data",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Where the SQLite database lives.",
)
@click.option(
    "--bot-delay",
    default=0.6,
    show_default=True,
    type=float,
    help="Seconds a bot waits before its move, so people can follow.",
)
@click.option(
    "--rate-limits/--no-rate-limits",
    default=True,
    show_default=True,
    help="Per-address limits on making tables and taking seats (off only for load tests "
    "on a trusted network).",
)
@click.option(
    "--bot-workers",
    default=None,
    type=click.IntRange(min=1),
    help="Worker processes that make bot decisions  [default: one per core].",
)
@click.option(
    "--bot-deadline",
    default=DEADLINE,
    show_default=True,
    type=click.FloatRange(min=0.1),
    help="Seconds a bot may think; past it the game's default bot moves for it.",
)
@click.option(
    "--review-workers",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Worker processes that compute post-game reviews (one review at a time each).",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
)
def serve_command(
    host: str,
    port: int,
    db_url: str | None,
    redis_url: str | None,
    workers: int,
    data_dir: str,
    bot_delay: float,
    rate_limits: bool,
    bot_workers: int | None,
    bot_deadline: float,
    review_workers: int,
    log_level: str,
) -> None:
    """Run the online card room: open the printed URL in a browser."""
    import uvicorn

    from tripletopper.server.app import (
        ServerConfig,
        config_to_environment,
        create_app,
        tune_interpreter,
    )
    from tripletopper.server.storage import StorageError, open_database

    tune_interpreter()
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    settings = Settings(
        bot_delay=bot_delay, bot_deadline=bot_deadline, review_workers=review_workers
    )
    if not rate_limits:
        settings.rates = {}
        settings.open_per_address = 1_000_000
    if workers > 1 and redis_url is None:
        click.echo("tripletopper serve: --workers needs --redis (and --db postgresql...)", err=True)
        sys.exit(2)
    if redis_url is not None and not (db_url or "").startswith("postgresql"):
        click.echo(
            "tripletopper serve: --redis needs a shared database: --db postgresql...", err=True
        )
        sys.exit(2)
    if bot_workers is None and workers > 1:  # the cores are shared by the room's processes
        bot_workers = max(1, (os.cpu_count() or 1) // workers)
    config = ServerConfig(
        data_dir=data_dir,
        db_url=db_url,
        bot_workers=bot_workers,
        freeze_gc=True,
        settings=settings,
        redis_url=redis_url,
    )
    try:  # a database that cannot be opened or migrated: one line, not a traceback
        open_database(config.url()).stop()
    except StorageError as exc:
        click.echo(f"tripletopper serve: {exc}", err=True)
        sys.exit(1)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    where = config.url() if db_url is None else "the database at --db"
    click.echo(f"Triple Topper card room: open http://{shown}:{port}/ in your browser")
    click.echo(f"(games are stored in {where}; Ctrl+C stops the server)")
    options: dict[str, Any] = dict(
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=65536,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        ws_per_message_deflate=False,  # loopback and LAN: compression costs more CPU than it saves
    )
    if workers == 1:
        uvicorn.run(create_app(config), **options)
        return
    click.echo(f"({workers} processes share the port, with Redis at --redis)")
    config_to_environment(config)  # each process builds its own app from it
    uvicorn.run(
        "tripletopper.server.app:app_from_environment", factory=True, workers=workers, **options
    )
