"""The pages' static files, served so that a phone fetches each of them once.

A party phone on a crowded Wi-Fi pays for every byte and every round trip, so the files
of ``web/static`` are read once, when the server starts, and kept in memory with their
Brotli form (quality 10) and their gzip form (level 9), both made once: a phone that
takes Brotli (every current browser, over http too) gets that, one that takes only gzip
gets gzip, and anything else the plain bytes. Every page's HTML names them under a
versioned address, ``/static/v/<version>/app.css``, where ``<version>`` is a hash of all
the static files together: those addresses never change meaning, so they are served
``immutable`` for a year and a reopened page fetches nothing but its HTML (and that, when
unchanged, as a 304 with no body). Where a service worker runs (a secure origin), it keeps
this version's shells and files (``sw.js``, sent with the version and the list of them
filled in): a reopened page then asks the network for nothing but its state.

A page's JavaScript is one file: its entry module and every module it imports, joined at
start-up (:mod:`bunco.web.pages.bundle`) under ``/static/v/<version>/bundle/js/table.js`` and
loaded as a classic script at the end of the page's body, so a
phone loads the page with three requests at once (the stylesheet, the script, the page's
first state) instead of queuing seven modules on the six connections a browser opens. A
page whose modules cannot be joined lists them as ``<link rel="modulepreload">`` instead.
The pages of a night (the player's too) also carry ``boot.js`` inline (allowed by its
hash in their Content-Security-Policy): it asks for the page's first state as the HTML is
read.

The unversioned ``/static/...`` addresses still work (revalidated each time, by ETag), and a
versioned address of another version (a phone holding a page from before an upgrade) gets
today's file, not cached, so it never keeps a stale file under the new name.

>>> files = Assets(STATIC)
>>> files.version == Assets(STATIC).version and len(files.version)
12
>>> sorted(files.modules("js/table.js"))[:2]
['js/api.js', 'js/high_totals.js']
>>> page = files.page("table.html")
>>> b"/bundle/js/table.js" in page.asset.body and len(page.scripts)
1
>>> sorted(files.files["app.css"].coded)
['br', 'gzip']
>>> files.worker_files()[:2] == ["/n/-/table/1", files.base + "app.css"]
True
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import brotli
from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from bunco.web.pages.bundle import bundle, join

STATIC = Path(__file__).parents[1] / "static"
PREFIX = "/static/"
YEAR = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
}
COMPRESSIBLE = (".html", ".css", ".js", ".json", ".webmanifest", ".svg", ".txt")
# the encodings made of each file, best first; each ETag says which one it is
CODINGS = {"br": "-br", "gzip": "-gz"}
# 11 makes the files 3 % smaller than 10 for twice the start-up (0.9 s of CPU for all of them)
BROTLI_QUALITY = 10
# `import … from "./x.js"`, `export … from "./x.js"` and `import "./x.js"`
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?["'](\.{1,2}/[^"']+\.js)["']""", re.M)
ENTRY = re.compile(r'<script type="module" src="/static/([^"]+)"></script>')
CHARSET = '<meta charset="utf-8">'
BOOT = "boot.js"  # inline in the pages of a night (see the module's text)
BOOTED = ("table.html", "host.html", "player.html", "screen.html", "end.html")
WORKER = "sw.js"  # sent with this version and its files filled in (see the module's text)
# the page whose HTML the service worker may hold back before its script, until the state
# it asked for early is written in (sw.js): it preloads its script from the head and paints
# no frame before that script has run (no empty page drawn while the state comes)
HELD_BACK = ("table.html",)
# the address of each night page's shell in the service worker's cache: the HTML of a
# night's page is the same for every night, table and token
SHELLS = {
    "table.html": "/n/-/table/1",
    "host.html": "/n/-/host",
    "player.html": "/n/-/player",
    "screen.html": "/n/-/screen",
    "end.html": "/n/-/end",
}
VERSIONED = re.compile(r'(?:href|src)="(/static/v/[0-9a-f]+/[^"]+)"')


@dataclass(frozen=True, slots=True)
class Asset:
    """One file as served: its bytes, its compressed forms by encoding (``br``, ``gzip``:
    each only when smaller), its ETag and media type."""

    body: bytes
    coded: dict[str, bytes]
    etag: str
    media_type: str

    @classmethod
    def of(cls, body: bytes, suffix: str) -> Asset:
        coded: dict[str, bytes] = {}
        if suffix in COMPRESSIBLE:
            for coding, made in (
                ("br", brotli.compress(body, quality=BROTLI_QUALITY)),
                ("gzip", gzip.compress(body, 9, mtime=0)),
            ):
                if len(made) < len(body):
                    coded[coding] = made
        tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        return cls(body, coded, tag, MEDIA_TYPES.get(suffix, "application/octet-stream"))

    def tag(self, coding: str | None) -> str:
        """The ETag of this file in ``coding`` (None: the plain bytes)."""
        return self.etag if coding is None else self.etag[:-1] + CODINGS[coding] + '"'


@dataclass(frozen=True, slots=True)
class Page:
    """An HTML page as served: the file, and the hashes of its inline scripts (for its
    Content-Security-Policy: ``'sha256-…'``)."""

    asset: Asset
    scripts: tuple[str, ...] = field(default=())


class Assets:
    """Every file under ``folder``, in memory and compressed, with the version of them all,
    each page's joined script (``bundle/js/<entry>.js``) and the pages as served."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, Asset] = {}
        self.texts: dict[str, str] = {}
        digest = hashlib.sha256()
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            name = path.relative_to(folder).as_posix()
            body = path.read_bytes()
            digest.update(name.encode() + b"\0" + body + b"\0")
            self.files[name] = Asset.of(body, path.suffix)
            if path.suffix in (".js", ".html"):
                self.texts[name] = body.decode("utf-8")
        self.version = digest.hexdigest()[:12]
        self.base = f"{PREFIX}v/{self.version}/"
        self.pages: dict[str, Page] = {}
        for name in [n for n in self.texts if n.endswith(".html")]:
            self.pages[name] = self._page(name)
        self.worker = self._worker()

    def modules(self, entry: str) -> list[str]:
        """Every module ``entry`` (a path under the folder) imports, directly or not, in
        the order they are first met."""
        seen: list[str] = []
        todo = [entry]
        while todo:
            name = todo.pop(0)
            for target in IMPORT.findall(self.texts.get(name, "")):
                found = join(name, target)
                if found != entry and found not in seen and found in self.files:
                    seen.append(found)
                    todo.append(found)
        return seen

    def page(self, name: str) -> Page:
        """The HTML file ``name`` as served (made at start-up)."""
        return self.pages[name]

    def _page(self, name: str) -> Page:
        """The HTML file ``name`` with its static addresses versioned, its modules joined
        into one script (or preloaded), and ``boot.js`` inline in the pages of a night."""
        html = self.texts[name]
        entry = ENTRY.search(html)
        if entry:
            joined = bundle(entry.group(1), self.texts)
            if joined is not None:
                address = f"bundle/{entry.group(1)}"
                self.files[address] = Asset.of(joined.encode("utf-8"), ".js")
                # a classic script at the end of the body, where a module in the head ran
                # (both after the page's HTML is read): a reopened page runs it sooner
                # (measured: bunco.web.pages.bundle's text)
                held = name in HELD_BACK
                mark = ' id="bunco-script"' if held else ""
                script = f'<script src="{PREFIX}{address}"{mark}></script>'
                if "</body>" in html:
                    head = (
                        f'<link rel="preload" href="{PREFIX}{address}" as="script">'
                        '<link rel="expect" href="#bunco-script" blocking="render">'
                        if held
                        else ""
                    )
                    html = html[: entry.start()] + head + html[entry.end() :]
                    html = html.replace("</body>", f"{script}\n</body>", 1)
                else:  # a page without its closing tag: the script where the module was
                    html = html[: entry.start()] + script + html[entry.end() :]
            else:
                preload = "".join(
                    f'\n<link rel="modulepreload" href="{PREFIX}{m}">'
                    for m in self.modules(entry.group(1))
                )
                html = html[: entry.end()] + preload + html[entry.end() :]
        scripts: tuple[str, ...] = ()
        if name in BOOTED and BOOT in self.texts and CHARSET in html:
            boot = without_comment_lines(self.texts[BOOT])
            digest = base64.b64encode(hashlib.sha256(boot.encode("utf-8")).digest()).decode()
            scripts = (f"sha256-{digest}",)
            html = html.replace(CHARSET, f"{CHARSET}\n<script>{boot}</script>", 1)
        html = html.replace(f'="{PREFIX}', f'="{self.base}')
        return Page(Asset.of(html.encode("utf-8"), ".html"), scripts)

    def worker_files(self) -> list[str]:
        """What the service worker keeps: each night page's shell (:data:`SHELLS`) and
        the versioned files it names, in that order, each once."""
        files: list[str] = []
        for name, address in SHELLS.items():
            if name not in self.pages:
                continue
            html = self.pages[name].asset.body.decode("utf-8")
            for found in [address, *VERSIONED.findall(html)]:
                if found not in files:
                    files.append(found)
        return files

    def _worker(self) -> Asset:
        """``sw.js`` as served: this version and :meth:`worker_files` filled in, so the
        browser installs a new worker (and drops the old one's files) when the pages
        change."""
        text = self.texts.get(WORKER, "")
        text = text.replace(
            'const VERSION = "";', f"const VERSION = {json.dumps(self.version)};", 1
        )
        text = text.replace(
            "const FILES = [];", f"const FILES = {json.dumps(self.worker_files())};", 1
        )
        return Asset.of(text.encode("utf-8"), ".js")


def without_comment_lines(script: str) -> str:
    r"""``script`` without its lines that are only a ``//`` comment (the text of an inline
    script, sent in every page's HTML: its comments stay in the file).

    >>> without_comment_lines("// why\nconst a = 1;  // kept\n  // gone\nrun(a);\n")
    'const a = 1;  // kept\nrun(a);\n'
    """
    return "".join(
        line for line in script.splitlines(keepends=True) if not line.lstrip().startswith("//")
    )


@cache
def assets() -> Assets:
    """The server's static files: read, joined and compressed once, when the server
    starts (:func:`bunco.web.app.create_app`'s start-up), or at the first request that
    needs them."""
    return Assets(STATIC)


class AssetResponse(Response):
    """``asset`` as a reply: a 304 when the phone holds this version (``If-None-Match``),
    Brotli or gzip when the phone takes it, else the plain bytes. What to send is decided
    when the reply goes out, from the request's headers, so a route can return it without
    the request at hand."""

    def __init__(
        self, asset: Asset, cache_control: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(
            asset.body,
            media_type=asset.media_type,
            headers={
                "cache-control": cache_control,
                "etag": asset.etag,
                "vary": "Accept-Encoding",
                **(headers or {}),
            },
        )
        self.asset = asset

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = Headers(scope=scope)
        coding = choose_coding(asked.get("accept-encoding", ""), self.asset.coded)
        self.headers["etag"] = self.asset.tag(coding)
        held = {tag.strip().removeprefix("W/") for tag in asked.get("if-none-match", "").split(",")}
        if held & {self.asset.tag(c) for c in (None, *self.asset.coded)}:
            self.status_code = 304
            self.body = b""
            for name in ("content-type", "content-length"):
                if name in self.headers:
                    del self.headers[name]
            await super().__call__(scope, receive, send)
            return
        if coding is not None:
            self.body = self.asset.coded[coding]
            self.headers["content-encoding"] = coding
        self.headers["content-length"] = str(len(self.body))
        await super().__call__(scope, receive, send)


def choose_coding(accept: str, available: dict[str, bytes] | tuple[str, ...]) -> str | None:
    """The encoding to send, of those ``available``, for an ``Accept-Encoding`` header:
    the one it weighs most (``q``), Brotli before gzip at equal weight, None (the plain
    bytes) when it takes neither.

    >>> [choose_coding(a, ("br", "gzip")) for a in ("gzip, deflate, br", "gzip", "identity")]
    ['br', 'gzip', None]
    >>> choose_coding("br;q=0.5, gzip", ("br", "gzip")), choose_coding("br", ("gzip",))
    ('gzip', None)
    """
    weights: dict[str, float] = {}
    for item in accept.lower().split(","):
        coding, _, params = item.strip().partition(";")
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        weights[coding.strip()] = weight
    best: tuple[float, int, str | None] = (0.0, 0, None)
    for rank, coding in enumerate(("gzip", "br"), start=1):
        if coding not in available:
            continue
        weight = weights.get(coding, weights.get("*", 0.0))
        if weight > 0 and (weight, rank) > best[:2]:
            best = (weight, rank, coding)
    return best[2]
