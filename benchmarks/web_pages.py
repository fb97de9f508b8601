"""What the lobby and a table page weigh, and how soon a person can use them.

Starts ``tripletopper serve`` in its own process (SQLite in a temp dir, bots answering at
once), then loads each page ``--rounds`` times in Debian's Chromium (Playwright, a fresh
browser context each time: nothing cached) at 1280x800:

- the lobby ``/``, usable once a game can be started from it (its first quick-play button,
  or on the older page the form's game list, is there);
- a Thirty-Two table seating you and two bots, usable once your hand is drawn and the page
  is connected.

Weight is the bytes of every response the page fetched (HTML, CSS, ES modules, API JSON;
no compression is served) and their count; time to interactive is milliseconds from the
start of navigation until the page is usable, as the page's own clock (``performance.now``)
reads it.  Prints the median and the spread (min-max) of each, and the load average.
Nothing is asserted.

    python benchmarks/web_pages.py [--rounds 9]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx

CHROMIUM = os.environ.get("TT_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
LOBBY_READY = "button[data-quick], #game option"
TABLE_READY = (
    "() => document.querySelector('#conn')?.textContent === 'connected'"
    " && document.querySelectorAll('#game [data-keys=hand] .card').length > 0"
)


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


def bot_table(base: str) -> tuple[str, str]:
    """A Thirty-Two table: you at seat 0, two medium bots, started; (id, your token)."""
    with httpx.Client(base_url=base, timeout=30) as http:
        r = http.post("/api/tables", json={"game": "thirty-two", "players": 3, "name": "Ann"})
        table, token = r.json()["table"]["id"], r.json()["token"]
        for seat in (1, 2):
            http.post(
                f"/api/tables/{table}/seats/{seat}/bot",
                json={"bot": "medium"},
                headers={"X-Seat-Token": token},
            ).raise_for_status()
        http.post(f"/api/tables/{table}/start", headers={"X-Seat-Token": token})
    return table, token


def load(browser: Any, url: str, ready: str, function: bool) -> tuple[int, int, float]:
    """(bytes, responses, ms to interactive) of one cold load of ``url``."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    sizes: list[int] = []

    def count(response: Any) -> None:
        try:
            sizes.append(len(response.body()))
        except Exception:  # a redirect or an aborted response has no body
            sizes.append(0)

    page.on("requestfinished", lambda request: count(request.response()))
    page.goto(url)
    if function:
        page.wait_for_function(ready, polling=10)
    else:
        page.wait_for_selector(ready, state="attached")
    ms = float(page.evaluate("() => performance.now()"))
    page.wait_for_load_state("networkidle")
    context.close()
    return sum(sizes), len(sizes), ms


def spread(values: list[float], unit: str, scale: float = 1.0) -> str:
    low, mid, high = min(values) / scale, statistics.median(values) / scale, max(values) / scale
    return f"{mid:.1f} {unit} ({low:.1f}-{high:.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    data = tempfile.mkdtemp(prefix="tt-web-pages-")
    port = free_port()
    server = serve(data, port)
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            results: dict[str, list[tuple[int, int, float]]] = {"lobby": [], "table": []}
            for _ in range(args.rounds):
                results["lobby"].append(load(browser, base + "/", LOBBY_READY, False))
                table, token = bot_table(base)
                url = f"{base}/t/{table}#seat={token}"
                results["table"].append(load(browser, url, TABLE_READY, True))
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(data, ignore_errors=True)
    print(f"{args.rounds} cold loads each at 1280x800, load average {os.getloadavg()[0]:.2f}")
    for name, runs in results.items():
        weight = spread([float(b) for b, _, _ in runs], "kB", 1024)
        count = statistics.median(n for _, n, _ in runs)
        ready = spread([ms for _, _, ms in runs], "ms")
        print(f"{name:6} weight {weight} in {count:.0f} responses; interactive after {ready}")


if __name__ == "__main__":
    main()
