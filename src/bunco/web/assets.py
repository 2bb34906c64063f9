"""The pages' static files, served so that a phone fetches each of them once.

A party phone on a crowded Wi-Fi pays for every byte and every round trip, so the files
of ``web/static`` are read once, at the server's first request for one, and kept in
memory with their gzip form (level 9, made once). Every page's HTML names them under a
versioned address, ``/static/v/<version>/js/table.js``, where ``<version>`` is a hash of
all the static files together: those addresses never change meaning, so they are served
``immutable`` for a year and a reopened page fetches nothing but its HTML (and that, when
unchanged, as a 304 with no body). The JavaScript modules import each other by relative
paths (``./ui.js``), so one version in the path covers the whole module graph; each page
also lists its modules as ``<link rel="modulepreload">``, so the phone asks for all of them
at once instead of one level of imports per round trip.

The unversioned ``/static/...`` addresses still work (revalidated each time, by ETag), and a
versioned address of another version (a phone holding a page from before an upgrade) gets
today's file, not cached, so it never keeps a stale file under the new name.

>>> files = Assets(STATIC)
>>> files.version == Assets(STATIC).version and len(files.version)
12
>>> sorted(files.modules("js/table.js"))[:2]
['js/api.js', 'js/live.js']
>>> b'rel="modulepreload"' in files.page("table.html").body
True
"""

from __future__ import annotations

import gzip
import hashlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from starlette.datastructures import Headers
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

STATIC = Path(__file__).with_name("static")
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
# `import … from "./x.js"`, `export … from "./x.js"` and `import "./x.js"`
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^"';]*?["'](\.{1,2}/[^"']+\.js)["']""", re.M)
ENTRY = re.compile(r'<script type="module" src="/static/([^"]+)"></script>')


@dataclass(frozen=True, slots=True)
class Asset:
    """One file as served: its bytes, their gzip form (None when it would not be smaller),
    its ETag and media type."""

    body: bytes
    zipped: bytes | None
    etag: str
    media_type: str

    @classmethod
    def of(cls, body: bytes, suffix: str) -> Asset:
        zipped = gzip.compress(body, 9, mtime=0) if suffix in COMPRESSIBLE else None
        if zipped is not None and len(zipped) >= len(body):
            zipped = None
        tag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        return cls(body, zipped, tag, MEDIA_TYPES.get(suffix, "application/octet-stream"))


class Assets:
    """Every file under ``folder``, in memory, with the version of them all."""

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
        self.pages: dict[str, Asset] = {}

    def modules(self, entry: str) -> list[str]:
        """Every module ``entry`` (a path under the folder) imports, directly or not, in
        the order they are first met."""
        seen: list[str] = []
        todo = [entry]
        while todo:
            name = todo.pop(0)
            for target in IMPORT.findall(self.texts.get(name, "")):
                found = _join(name, target)
                if found != entry and found not in seen and found in self.files:
                    seen.append(found)
                    todo.append(found)
        return seen

    def page(self, name: str) -> Asset:
        """The HTML file ``name`` as served: its static addresses versioned and its
        modules preloaded."""
        if name not in self.pages:
            html = self.texts[name]
            entry = ENTRY.search(html)
            if entry:
                preload = "".join(f'\n<link rel="modulepreload" href="{PREFIX}{m}">'
                                  for m in self.modules(entry.group(1)))
                html = html[:entry.end()] + preload + html[entry.end():]
            html = html.replace(f'="{PREFIX}', f'="{self.base}')
            self.pages[name] = Asset.of(html.encode("utf-8"), ".html")
        return self.pages[name]


def _join(importer: str, target: str) -> str:
    """The path of ``target`` (``./ui.js``) imported by ``importer`` (``js/table.js``)."""
    parts: list[str] = list(PurePosixPath(importer).parent.parts)
    for part in PurePosixPath(target).parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


@cache
def assets() -> Assets:
    """The server's static files, read at the first request that needs them."""
    return Assets(STATIC)


class AssetResponse(Response):
    """``asset`` as a reply: a 304 when the phone holds this version (``If-None-Match``),
    gzip when the phone takes it, else the plain bytes. What to send is decided when the
    reply goes out, from the request's headers, so a route can return it without the
    request at hand."""

    def __init__(self, asset: Asset, cache_control: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(asset.body, media_type=asset.media_type, headers={
            "cache-control": cache_control, "etag": asset.etag, "vary": "Accept-Encoding",
            **(headers or {})})
        self.asset = asset

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        asked = Headers(scope=scope)
        wanted = asked.get("if-none-match", "")
        if self.asset.etag in (tag.strip().removeprefix("W/") for tag in wanted.split(",")):
            self.status_code = 304
            self.body = b""
            for name in ("content-type", "content-length"):
                if name in self.headers:
                    del self.headers[name]
            await super().__call__(scope, receive, send)
            return
        if self.asset.zipped is not None and _takes_gzip(asked.get("accept-encoding", "")):
            self.body = self.asset.zipped
            self.headers["content-encoding"] = "gzip"
        self.headers["content-length"] = str(len(self.body))
        await super().__call__(scope, receive, send)


def _takes_gzip(accept: str) -> bool:
    """True when an ``Accept-Encoding`` header takes gzip (and not with ``q=0``)."""
    for item in accept.lower().split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip() in ("gzip", "*"):
            return params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000")
    return False
