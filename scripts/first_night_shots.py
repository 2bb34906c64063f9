"""Make the pictures of docs/first-night.md from a real night, so they stay true when the
pages change.

It starts ``bunco serve`` on a free port with a database of its own (in a temporary
folder), then plays a 12-player classic night in Chromium at a phone's 390×844: the host
sets it up on the home page, saves the host link and runs it from the host's console;
one scorekeeper's phone and one player's phone follow; the tables' rolls go through the
server's HTTP interface. Each picture is the first screen of a page (what the phone shows
without scrolling), reduced to 64 colours so that the nine of them weigh little.

Usage::

    .venv/bin/python scripts/first_night_shots.py            # writes docs/first-night/*.png
    .venv/bin/python scripts/first_night_shots.py --out DIR  # somewhere else

Needs Chromium (``/usr/bin/chromium``, or Playwright's own) and the dev dependencies.
"""

from __future__ import annotations

import argparse
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from PIL import Image
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
PHONE = {"width": 390, "height": 844}
CHROMIUM = Path("/usr/bin/chromium")
PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou"]
ROOM = "http://192.168.1.20:8000"  # the address the pictures show (as on a party's Wi-Fi)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    bunco = Path(sys.executable).with_name("bunco")
    options = f"serve --port {port} --bot-pace 0 --public-url {ROOM}".split()
    proc = subprocess.Popen(
        [str(bunco), *options, "--db", str(folder / "night.sqlite3")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(base + "/", timeout=1)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("bunco serve did not start")


class Night:
    """The tables' rolls, sent as the scorekeepers' phones would (with the host's key)."""

    def __init__(self, base: str, night: str, token: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.night, self.token = night, token
        self.rng = random.Random(36)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        body = {"command_id": f"shots-{self.rng.random()}", **body}
        reply = self.http.post(
            f"/api/nights/{self.night}{path}",
            json=body,
            headers={"authorization": f"Bearer {self.token}"},
        )
        return reply.json()

    def status(self) -> dict[str, Any]:
        reply = self.http.get(
            f"/api/nights/{self.night}", headers={"authorization": f"Bearer {self.token}"}
        )
        status: dict[str, Any] = reply.json()["status"]
        return status

    def rolls(self, count: int) -> None:
        for _ in range(count):
            status = self.status()
            if not status["expects"] or status["phase"] != "playing":
                return
            dice = [self.rng.randint(1, 6) for _ in range(3)]
            table = status["expects"][0]["table"]
            reply = self.post(f"/tables/{table}/rolls", {"dice": dice})
            if reply.get("error") in ("not_seated", "seating_changed"):
                self.post(f"/tables/{table}/seated", {})  # everyone sat down at their new seats

    def finish_round(self) -> None:
        start = self.status()
        for _ in range(2000):
            status = self.status()
            if status["round"] != start["round"] or status["phase"] != "playing":
                return
            if not status["expects"]:
                return
            self.rolls(1)

    def finish_night(self) -> None:
        for _ in range(4000):
            status = self.status()
            if status["phase"] == "over":
                return
            if status["phase"] == "rolloff":
                self.post("/rolloff", {"roll_for_me": True})
            else:
                self.rolls(1)


def shot(page: Page, out: Path, name: str, at: str | None = None) -> None:
    """The page's first screen, as it shows without scrolling (or from the element ``at``
    down), in 64 colours."""
    page.evaluate(
        "window.scrollTo(0, 0); document.querySelectorAll('.toast').forEach((t) => t.remove())"
    )
    if at:
        page.evaluate(f"document.querySelector({at!r}).scrollIntoView()")
    page.wait_for_timeout(300)
    path = out / f"{name}.png"
    page.screenshot(path=str(path))
    with Image.open(path) as image:
        image.convert("RGB").quantize(colors=64).save(path, optimize=True)
    print(
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB"
    )


def ready(page: Page, value: str = "yes") -> None:
    page.wait_for_selector(f"body[data-ready='{value}']", timeout=30_000)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "first-night")
    args = parser.parse_args()
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        proc, base = start_server(Path(folder))
        try:
            executable = str(CHROMIUM) if CHROMIUM.exists() else None
            browser = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])

            def phone() -> Page:
                context = browser.new_context(
                    viewport=PHONE, base_url=base, service_workers="block"
                )
                return context.new_page()

            host = phone()
            host.goto("/")
            ready(host)
            host.fill("#night-name", "Friday Bunco")
            host.fill("#players", "\n".join(PLAYERS))
            shot(host, out, "1-home")
            host.click("#start")
            ready(host, "saved")
            shot(host, out, "2-save-the-host-link")
            host.click("#open-host")
            ready(host)
            night = host.url.split("/")[-2]
            token = host.evaluate(f"JSON.parse(localStorage.getItem('bunco:{night}:host'))")
            room = Night(base, night, token)
            shot(host, out, "3-before-round-1")
            host.click("#tabs [data-tab=seating]")
            host.click("#seat-pick [data-seat='1']")
            shot(host, out, "4-seating-card", at="#sheet .seat-card[data-table='1']")

            code = room.http.get(
                f"/api/nights/{night}/join-codes", headers={"authorization": f"Bearer {token}"}
            ).json()["tables"][0]["code"]
            table = phone()
            table.goto(f"/join/{code}")
            ready(table)
            host.click("#start-round")
            room.rolls(5)
            table.wait_for_timeout(800)
            shot(table, out, "5-a-tables-phone")
            host.click("#tabs [data-tab=tables]")
            shot(host, out, "6-a-round-in-play")

            room.finish_round()
            host.wait_for_selector("body[data-moment='between']", timeout=30_000)
            shot(host, out, "7-between-rounds")
            viewer = room.http.post(
                f"/api/nights/{night}/viewer-links", headers={"authorization": f"Bearer {token}"}
            ).json()["token"]
            player = phone()
            player.goto(f"/n/{night}/player?token={viewer}")
            ready(player, "claim")
            player.click("#names [data-player=Cat]")
            ready(player)
            shot(player, out, "8-a-players-phone")

            for _ in range(5):
                if room.status()["phase"] != "playing":
                    break
                host.click("#start-round")
                room.finish_round()
            room.finish_night()
            host.wait_for_selector("body[data-moment='end']", timeout=30_000)
            host.click("#results-link")
            ready(host)
            shot(host, out, "9-the-prizes")
            browser.close()
        finally:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
