"""``tripletopper serve``: the online card room on uvicorn.

Every option may also come from an environment variable, ``TRIPLETOPPER_`` and the
option's name (``--db``: ``TRIPLETOPPER_DB``), so that a database password need never
be on a command line (``ps`` shows command lines to every user); the command line wins.

Start-up, in order: the port is bound (a busy port: one line, exit 1), the database
is opened and its schema brought up to date under the database's lock (or, with
``--no-migrate``, refused unless current), and the URL is printed once the room
answers on the port.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import threading
import time
from typing import Any

import click

from tripletopper.cli.db import database_options, env
from tripletopper.server.botpool import DEADLINE
from tripletopper.server.tables import Settings


def _redis_prefix(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from tripletopper.server.redis_keys import check_prefix

    try:
        return None if value is None else check_prefix(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def _metrics_token(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from tripletopper.server.metrics import check_token

    try:
        return check_token(value or None)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    envvar=env("HOST"),
    show_envvar=True,
    help="Address to listen on (0.0.0.0 lets friends on your network join).",
)
@click.option(
    "--port",
    default=8032,
    show_default=True,
    type=click.IntRange(1, 65535),
    envvar=env("PORT"),
    show_envvar=True,
    help="Port to listen on.",
)
@database_options
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    envvar=env("REDIS"),
    show_envvar=True,
    help="Run the room as several processes sharing the --db (PostgreSQL) and passing "
    "actions and updates through Redis, e.g. redis://localhost:6379/0 (docs/deploy.md).",
)
@click.option(
    "--redis-prefix",
    default=None,
    metavar="PREFIX",
    envvar=env("REDIS_PREFIX"),
    show_envvar=True,
    callback=_redis_prefix,
    help="What every key and channel of this room in Redis starts with, so that rooms "
    "can share a Redis  [default: tt:DBNAME: from the --db's database name].",
)
@click.option(
    "--workers",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    envvar=env("WORKERS"),
    show_envvar=True,
    help="Room processes sharing the port (more than one needs --db postgresql... and --redis).",
)
@click.option(
    "--bot-delay",
    default=0.6,
    show_default=True,
    type=float,
    envvar=env("BOT_DELAY"),
    show_envvar=True,
    help="Seconds a bot waits before its move, so people can follow.",
)
@click.option(
    "--rate-limits/--no-rate-limits",
    default=True,
    show_default=True,
    envvar=env("RATE_LIMITS"),
    show_envvar=True,
    help="Per-address limits on making tables and taking seats (off only for load tests "
    "on a trusted network).",
)
@click.option(
    "--bot-workers",
    default=None,
    type=click.IntRange(min=1),
    envvar=env("BOT_WORKERS"),
    show_envvar=True,
    help="Worker processes that make bot decisions  [default: one per core].",
)
@click.option(
    "--bot-deadline",
    default=DEADLINE,
    show_default=True,
    type=click.FloatRange(min=0.1),
    envvar=env("BOT_DEADLINE"),
    show_envvar=True,
    help="Seconds a bot may think; past it the game's default bot moves for it.",
)
@click.option(
    "--review-workers",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    envvar=env("REVIEW_WORKERS"),
    show_envvar=True,
    help="Worker processes that compute post-game reviews (one review at a time each).",
)
@click.option(
    "--migrate/--no-migrate",
    default=True,
    show_default=True,
    envvar=env("MIGRATE"),
    show_envvar=True,
    help="Bring the database's schema up to date on start (under a lock in the database); "
    "--no-migrate refuses to start on a schema that is not current (run "
    "`tripletopper db upgrade` first).",
)
@click.option(
    "--metrics-token",
    default=None,
    metavar="TOKEN",
    envvar=env("METRICS_TOKEN"),
    show_envvar=True,
    callback=_metrics_token,
    help="Let a scraper that sends 'Authorization: Bearer TOKEN' read /metrics from "
    "anywhere (at least 16 characters; set it in the environment)  [default: /metrics "
    "answers only this machine, reaching the process directly].",
)
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["debug", "info", "warning", "error"]),
    envvar=env("LOG_LEVEL"),
    show_envvar=True,
    help="What the room logs (debug: also each database migration step).",
)
def serve_command(
    host: str,
    port: int,
    db_url: str | None,
    data_dir: str,
    redis_url: str | None,
    redis_prefix: str | None,
    workers: int,
    bot_delay: float,
    rate_limits: bool,
    bot_workers: int | None,
    bot_deadline: float,
    review_workers: int,
    migrate: bool,
    metrics_token: str | None,
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
    from tripletopper.server.migration import head
    from tripletopper.server.storage import StorageError, open_database

    tune_interpreter()
    logging.basicConfig(level=log_level.upper(), format="%(asctime)s %(levelname)s %(message)s")
    if log_level != "debug":  # one line of ours says what a migration did
        logging.getLogger("alembic").setLevel(logging.WARNING)
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
        redis_prefix=redis_prefix,
        migrate=migrate,
        metrics_token=metrics_token,
    )
    try:
        listening = listen(host, port)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        click.echo(f"tripletopper serve: cannot listen on {host}:{port}: {reason}", err=True)
        sys.exit(1)
    try:  # a database that cannot be opened or migrated: one line, not a traceback
        db = open_database(config.url(), upgrade=migrate)
        db.stop()
    except StorageError as exc:
        listening.close()
        click.echo(f"tripletopper serve: {exc}", err=True)
        sys.exit(1)
    before = db.upgraded_from
    if before is not None and before.revision != head():
        if before.revision is None:
            click.echo(f"(a new database, at schema {head()})")
        else:
            click.echo(f"(database schema upgraded from {before.revision} to {head()})")
    where = config.url() if db_url is None else "the database at --db"
    announce_when_answering(
        host,
        port,
        f"Triple Topper card room: open http://{shown_host(host)}:{port}/ in your browser\n"
        f"(games are stored in {where}; Ctrl+C stops the server)",
    )
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
        server = uvicorn.Server(uvicorn.Config(create_app(config), **options))
        server.run(sockets=[listening])
        return
    # uvicorn's supervisor binds the port itself (at once) and shares it with its workers
    listening.close()
    click.echo(f"({workers} processes share the port, with Redis at --redis)")
    config_to_environment(config)  # each process builds its own app from it
    uvicorn.run(
        "tripletopper.server.app:app_from_environment", factory=True, workers=workers, **options
    )


ANY_ADDRESS = ("", "0.0.0.0", "::")


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` as uvicorn binds one (OSError: the port is busy or
    the address is not this machine's)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def shown_host(host: str) -> str:
    if host in ANY_ADDRESS:
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def announce_when_answering(host: str, port: int, text: str) -> None:
    """Print ``text`` once the room accepts connections on the port (after its start-up:
    the database open, the unfinished games restored)."""
    targets = ["127.0.0.1", "::1"] if host in ANY_ADDRESS else [host]

    def wait() -> None:
        while True:
            for target in targets:
                try:
                    socket.create_connection((target, port), timeout=1).close()
                except OSError:
                    continue
                click.echo(text)
                return
            time.sleep(0.05)

    threading.Thread(target=wait, name="tt-announce", daemon=True).start()
