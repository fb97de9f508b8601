"""Screenshots of the room for the docs: the lobby, and every game's table and end screen,
at 1280x800 and on a 390x844 phone, written to docs/img/ (or --out).

Starts ``tripletopper serve`` in its own process (SQLite in a temp dir, bots answering at
once) and Debian's Chromium (Playwright).  For each game it opens a table where you sit
with medium bots, photographs your first turn, then lets a websocket client play your
seat's random legal moves to the end of the game and photographs the end screen (the page
holding your seat watches).  Cards do not move in the pictures (prefers-reduced-motion).
With Pillow installed (matplotlib brings it), each picture is stored with a 256-color
palette, a fifth of the size.  Anyone can rerun it; the games differ each run (the server
draws the seeds):

    python scripts/screenshots.py [--out docs/img] [--theme dark|light|system]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import ViewportSize

from tripletopper.server.client import TableClient

CHROMIUM = os.environ.get("TT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 390, "height": 844},
}
GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("thirty-two", 4, {}),
    ("thirty-one", 4, {}),
    ("toe", 2, {}),
    ("memo-match", 3, {}),
    ("three-up-three-down", 4, {}),
]
SETTLED = "() => (document.body.dataset.pending || '0') === '0'"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(data_dir: str, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "tripletopper", "serve", "--port", str(port)),
            *("--data-dir", data_dir, "--bot-delay", "0", "--log-level", "warning"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    ends = time.monotonic() + 60
    while time.monotonic() < ends:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    process.kill()
    raise SystemExit("the server did not start")


def open_table(base: str, game: str, players: int, options: dict[str, Any]) -> tuple[str, str]:
    """A table where you sit with medium bots, started: (its id, your seat's token)."""
    with httpx.Client(base_url=base, timeout=30) as http:
        body = {"game": game, "players": players, "options": options, "name": "Ann"}
        r = http.post("/api/tables", json=body)
        r.raise_for_status()
        table, token = r.json()["table"]["id"], r.json()["token"]
        for seat in range(1, players):
            http.post(
                f"/api/tables/{table}/seats/{seat}/bot",
                json={"bot": "medium"},
                headers={"X-Seat-Token": token},
            ).raise_for_status()
        http.post(f"/api/tables/{table}/start", headers={"X-Seat-Token": token}).raise_for_status()
    return table, token


def play_to_the_end(base: str, table: str, token: str) -> threading.Thread:
    """Your seat's random legal moves, until the game is over (a refused move is chosen again)."""

    async def run() -> None:
        rng = random.Random(1)
        async with TableClient(base, table, token) as client:
            ends = time.monotonic() + 600
            while not client.finished and time.monotonic() < ends:
                left = ends - time.monotonic()
                await client.wait(lambda c: bool(c.legal) or c.finished, timeout=left)
                if client.finished:
                    return
                seen = client.version
                await asyncio.sleep(0.03)
                if client.version == seen and client.legal:
                    client.errors.clear()
                    await client.act(rng.choice(client.actions))

                    def answered(c: TableClient, version: int = seen) -> bool:
                        return c.version != version or bool(c.errors) or c.finished

                    await client.wait(answered)

    thread = threading.Thread(target=lambda: asyncio.run(run()), daemon=True)
    thread.start()
    return thread


def save(page: Any, path: Path) -> None:
    page.screenshot(path=str(path))
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img")
    parser.add_argument("--theme", choices=["dark", "light", "system"], default="dark")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    data = tempfile.mkdtemp(prefix="tt-screenshots-")
    port = free_port()
    server = serve(data, port)
    base = f"http://127.0.0.1:{port}"
    theme = f"localStorage.setItem('tt-theme', {args.theme!r})"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            pages = {}
            for size, viewport in SIZES.items():
                context = browser.new_context(viewport=viewport, reduced_motion="reduce")
                context.add_init_script(theme)
                pages[size] = context.new_page()
            for size, page in pages.items():
                page.goto(base + "/")
                page.wait_for_selector("button[data-quick]")
                save(page, out / f"lobby-{size}.png")
            for game, players, options in GAMES:
                table, token = open_table(base, game, players, options)
                for page in pages.values():
                    page.goto(f"{base}/t/{table}#seat={token}")
                for size, page in pages.items():
                    page.wait_for_selector("#turn .turn", timeout=120_000)  # your turn
                    page.wait_for_function(SETTLED)
                    page.wait_for_timeout(300)
                    save(page, out / f"{game}-table-{size}.png")
                play_to_the_end(base, table, token).join(timeout=600)
                for size, page in pages.items():
                    page.wait_for_selector("#results-panel:not([hidden]) #verdict", timeout=60_000)
                    page.wait_for_timeout(300)
                    page.evaluate("() => window.scrollTo(0, 0)")
                    save(page, out / f"{game}-end-{size}.png")
                print(f"{game}: {pages['desktop'].inner_text('#verdict')}")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)


if __name__ == "__main__":
    main()
