"""Browser tests: the real `bunco serve` in a subprocess, driven through its pages in
Debian's Chromium with Playwright. Skipped (with the reason) where Chromium is missing.

Screenshots go to ``artifacts/screenshots/`` at the top of the repository, each page at a
phone size (390x844) and a TV size (1920x1080).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from serve_process import ServeProcess, free_port

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "artifacts" / "screenshots"

try:
    from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

    # a CI machine under load may take seconds to draw a page: wait long before failing
    expect.set_options(timeout=10_000)
except ImportError:  # pragma: no cover - playwright is a dev dependency
    sync_playwright = None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = None
    if sync_playwright is None:
        reason = "playwright is not installed (pip install -e '.[dev]')"
    elif not CHROMIUM.exists():
        reason = f"Debian's Chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    for item in items:
        uses_browser = "pages" in getattr(item, "fixturenames", ())
        if "tests/browser" in item.path.as_posix() and uses_browser:
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


class Server(ServeProcess):
    """`bunco serve` on a free port and a fresh SQLite file; bots roll at once."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        super().__init__(folder / "night.sqlite3", free_port(), folder / "serve.log")
        self.client: httpx.Client | None = None

    # -- the API, for setting up and checking what the pages show -------------------------
    def api(self, method: str, path: str, token: str | None = None, **kwargs: Any) -> Any:
        reply = self.call(method, path, token, **kwargs)
        assert reply.status_code < 400, reply.text
        return reply.json()

    def call(
        self, method: str, path: str, token: str | None = None, **kwargs: Any
    ) -> httpx.Response:
        """One request on the kept-alive client (a new client per request costs more CPU
        than the request: a night played through the API makes thousands)."""
        if self.client is None:
            self.client = httpx.Client(base_url=self.base, timeout=10)
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.client.request(method, path, headers=headers, **kwargs)

    def state(self, night: str, token: str) -> dict[str, Any]:
        result: dict[str, Any] = self.api("GET", f"/api/nights/{night}", token)
        return result


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("serve"))
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    assert sync_playwright is not None
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


# navigator.vibrate, recorded: window.buzzes lists every pattern a page asked for
RECORD_BUZZ = (
    "window.buzzes = []; navigator.vibrate = (p) => { window.buzzes.push(p); return true; };"
)


def network_noise(text: str) -> bool:
    """Chromium's own console lines about failed requests (expected while offline): the
    last one is its line when the service worker's script could not be fetched (a phone
    that goes offline while the page registers its worker; the page goes on without it)."""
    return any(
        marker in text
        for marker in (
            "Failed to load resource",
            "net::ERR_",
            "WebSocket connection to",
            "An unknown error occurred when fetching the script",
        )
    )


class Pages:
    """Browser contexts (one per person in the room), each with one page; collects the
    pages' JavaScript errors so a test can insist there were none."""

    def __init__(self, browser: Browser, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[BrowserContext] = []
        self.errors: list[str] = []

    def open(self, path: str, size: dict[str, int] | None = None, name: str = "") -> Page:
        context = self.browser.new_context(viewport=size or PHONE, base_url=self.base)
        context.set_default_timeout(15_000)
        context.add_init_script(RECORD_BUZZ)
        self.contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: self.errors.append(f"{name or path}: {exc}"))
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"{name or path}: {msg.text}")
                if msg.type == "error" and not network_noise(msg.text)
                else None
            ),
        )
        page.goto(path)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Browser, server: Server) -> Iterator[Pages]:
    opened = Pages(browser, server.base)
    yield opened
    opened.close()


def phone(pages: Pages, worker: bool = False) -> BrowserContext:
    """A phone, closed with the others; without the service worker (so every request of
    the page passes the test's routes) unless ``worker`` (http://127.0.0.1 is a secure
    origin: the worker keeps the pages)."""
    context = pages.browser.new_context(
        viewport=PHONE, base_url=pages.base, service_workers="allow" if worker else "block"
    )
    context.set_default_timeout(15_000)
    pages.contexts.append(context)
    return context


def open_table(pages: Pages, created: dict[str, Any], table: int) -> Page:
    """Table ``table``'s scorekeeper page of a night made through the API (``created``),
    joined with its code link and ready."""
    page = pages.open(f"/join/{created['tables'][table - 1]['code']}", name=f"table {table}")
    page.wait_for_url(f"**/n/{created['night']}/table/{table}")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    return page


def shoot(page: Page, name: str, sizes: tuple[str, ...] = ("phone", "tv")) -> list[Path]:
    """Save ``page`` at phone and TV sizes as artifacts; the page keeps its own size."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    own = page.viewport_size
    saved = []
    for size in sizes:
        page.set_viewport_size(PHONE if size == "phone" else TV)
        page.evaluate(
            "window.scrollTo(0, 0); document.querySelectorAll('.toast').forEach(t => t.remove())"
        )
        page.wait_for_timeout(80)
        path = SHOTS / f"{name}-{size}.png"
        page.screenshot(path=str(path), full_page=size == "phone")
        saved.append(path)
    if own:
        page.set_viewport_size(own)
    return saved


AUDIT = (Path(__file__).parent / "audit.js").read_text(encoding="utf-8")
# axe-core, the accessibility engine, from the npm registry: `make` runs `npm ci` here
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
# every WCAG 2.x A/AA rule, the best practices, and the experimental rules (among them
# label-content-name-mismatch: a control's name must contain the words it shows)
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice", "experimental"]
AXE_RUN = """(tags) => axe.run(document, {runOnly: {type: "tag", values: tags},
  resultTypes: ["violations"]}).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + ": "
      + (n.failureSummary || "").split("\\n").slice(1).join(" ").trim()),
    count: v.nodes.length})))"""


def axe(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as shown: ``{id, impact, nodes, count}`` each
    (``nodes``: the first five, with what is wrong). The engine is put in the page by
    the test driver, which the page's Content-Security-Policy does not limit."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `make axe` (npm ci in tests/browser)")
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    found: list[dict[str, Any]] = page.evaluate(AXE_RUN, AXE_TAGS)
    return found


def audit(page: Page) -> list[str]:
    """Accessibility problems on the page as shown: controls and images without an
    accessible name, and text below WCAG AA contrast (4.5:1, 3:1 for large text)."""
    problems: list[str] = page.evaluate(AUDIT)
    return problems


def host_tab(page: Page, tab: str) -> None:
    """Show the host console's tab ``tab`` (tables, players, seating, prizes, more), as a
    host taps it (nothing when it shows already)."""
    button = page.locator(f"#tabs [data-tab={tab}]")
    if button.get_attribute("aria-selected") != "true":
        button.click()
    expect(page.locator(f"#panel-{tab}")).to_be_visible()
