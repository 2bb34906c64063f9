"""The floor under a reopened page on the emulated slow phone of ``pages.py``: a page of
one line, reopened from the browser's own cache (no request at all, no script), and the
moments Chromium gets it to: its document read (``domContentLoaded``, the earliest a
script of the page could set a mark) and its first paint. No page is drawn sooner on that
phone, whatever it does: these figures hold only Chromium's own start of a page (a new
tab's process and script context, the commit of the navigation, a first style, layout
and paint), slowed down as the phone's CPU is.

``pages.py`` prints them beside its own figures; alone:

    python benchmarks/page_floor.py                  # 9 reopenings, CPU 4x slower
    python benchmarks/page_floor.py --repeat 15 --cpu-slowdown 1
"""

from __future__ import annotations

import argparse
import statistics
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pages import ARGS, CHROMIUM, PHONE, in_page, slow_tab, wait_in_page
from playwright.sync_api import Browser, sync_playwright

ONE_LINE = (
    b"<!doctype html><html lang=en><meta charset=utf-8>"
    b"<meta name=viewport content='width=device-width, initial-scale=1'>"
    b"<title>Table 1</title><p>Table 1"
)
MARKS = """() => {
  const paint = performance.getEntriesByName("first-contentful-paint")[0];
  const nav = performance.getEntriesByType("navigation")[0];
  return paint && nav.domContentLoadedEventStart
    ? [nav.domContentLoadedEventStart, paint.startTime, nav.transferSize] : null;
}"""


class OneLine(BaseHTTPRequestHandler):
    """The one-line page, kept by the browser for an hour."""

    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("content-type", "text/html; charset=utf-8")
        self.send_header("content-length", str(len(ONE_LINE)))
        self.send_header("cache-control", "max-age=3600")
        self.end_headers()
        self.wfile.write(ONE_LINE)

    def log_message(self, format: str, *args: object) -> None:
        pass


def floor(browser: Browser, cpu: float, repeat: int) -> tuple[list[float], list[float]]:
    """The one-line page reopened ``repeat`` times in new slowed-down tabs: its
    ``domContentLoaded`` and first paint, in seconds since each navigation started."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), OneLine)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}/"
    context = browser.new_context(viewport=PHONE)
    read: list[float] = []
    painted: list[float] = []
    try:
        first = context.new_page()
        first.goto(address)  # into the browser's cache
        first.close()
        for _ in range(repeat):
            tab, meter = slow_tab(context, cpu)
            tab.goto(address, wait_until="commit")
            wait_in_page(tab, meter, MARKS)  # read as the pages are (pages.py's in_page)
            loaded, paint, size = in_page(meter, MARKS)
            if size:
                raise SystemExit("error: the one-line page came over the network, not the cache")
            read.append(loaded / 1000)
            painted.append(paint / 1000)
            tab.close()
    finally:
        context.close()
        server.shutdown()
    return read, painted


def describe(read: list[float], painted: list[float]) -> str:
    """One line of the floor's figures."""
    return (
        f"a one-line page reopened from the browser's cache: read at "
        f"{statistics.median(read):.2f} s, first painted at {statistics.median(painted):.2f} s "
        f"(median of {len(read)}; {min(painted):.2f}-{max(painted):.2f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--cpu-slowdown", type=float, default=4.0)
    args = parser.parse_args()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        print(describe(*floor(browser, args.cpu_slowdown, args.repeat)))
        browser.close()


if __name__ == "__main__":
    main()
