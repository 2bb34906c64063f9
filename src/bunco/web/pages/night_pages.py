"""The pages of a Bunco night: plain HTML, CSS and JavaScript modules from ``web/static``.

Each page is a static file; it reads the night through the public HTTP API and follows it
over the WebSocket (see docs/pages.md). The routes here only hand out those files, plus
two small JSON documents the set-up and table pages need (the presets with their
one-line summaries, and a preset with house rules resolved to every rule value).

=============================  ==========================================================
``/``                          home: start a night (host set-up), join a table, my nights
``/join``, ``/join/{code}``    a scorekeeper joins a table (typed code or the QR link)
``/night/{id}?token=``         the links the server prints: sends each role to its page
``/n/{id}/host``               the host: seating with QR codes and join codes, live tables
``/n/{id}/table/{n}``          a table's scorekeeper phone
``/n/{id}/player``             a player's phone: seat, partner, live score card, moves
``/n/{id}/screen``             the big screen (a TV at the party)
``/n/{id}/end``                the end of the night: prizes, roll-offs, cards, downloads
``/n/{id}/door/{card}``        a player's door card: a host's phone checks them in
``/https``                     what to tap at the one-time warning of ``serve --https``
``/static/v/{version}/…``      the pages' files, cached for a year (see bunco.web.pages.assets)
=============================  ==========================================================

>>> sorted(PAGES)[:3]
['end', 'host', 'player']
>>> presets_document()["presets"][0]["name"]
'winning-moves'
"""

from __future__ import annotations

import enum
import typing
from pathlib import Path
from typing import Annotated, Any, NotRequired, TypedDict

from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from bunco.core.errors import BuncoError
from bunco.core.money import PRESET_JUDGED
from bunco.core.money import PRESETS as MONEY_PRESETS
from bunco.core.presets import PLAYS, PRESETS, SOURCES, SUMMARIES, TITLES, get_rules
from bunco.core.prizes import LABELS, prize_labels
from bunco.core.rules import TRAVELING_NAMED, Prize, RollKind, RuleSet, rule_docs
from bunco.web.pages.assets import REVALIDATE, YEAR, AssetResponse, assets
from bunco.web.values.json_text import TooDeep, loads_shallow

STATIC = Path(__file__).parents[1] / "static"
PAGES = {
    "host": "host.html",
    "table": "table.html",
    "player": "player.html",
    "screen": "screen.html",
    "end": "end.html",
}
NightId = Annotated[str, "the night's id"]

# Tokens travel in page links (?token=), so pages never send a Referer, and run only the
# scripts and styles of this server.
HEADERS = {
    "cache-control": "no-cache",
    "referrer-policy": "no-referrer",
    "x-content-type-options": "nosniff",
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self' ws: wss:; base-uri 'none'; form-action 'self'; "
        "frame-ancestors 'none'"
    ),
}


def page_headers(scripts: tuple[str, ...]) -> dict[str, str]:
    """The page headers, the page's inline scripts (``sha256-…``) allowed by their hash."""
    if not scripts:
        return HEADERS
    allowed = "script-src 'self'" + "".join(f" '{s}'" for s in scripts)
    return {
        **HEADERS,
        "content-security-policy": HEADERS["content-security-policy"].replace(
            "script-src 'self'", allowed
        ),
    }


router = APIRouter(include_in_schema=False)


def page(name: str) -> Response:
    """One HTML file of ``web/static`` with the page headers, its files' addresses
    versioned and its script joined (:meth:`bunco.web.pages.assets.Assets.page`); revalidated
    by ETag on each visit."""
    served = assets().page(name)
    return AssetResponse(served.asset, REVALIDATE, page_headers(served.scripts))


@router.get("/static/v/{version}/{path:path}")
async def versioned_file(version: str, path: str) -> Response:
    """A file of the pages under this server's version: cached for a year. Another
    version's address (a page from before an upgrade) gets today's file, not cached."""
    files = assets()
    asset = files.files.get(path)
    if asset is None:
        return _missing(path)
    return AssetResponse(
        asset,
        YEAR if version == files.version else REVALIDATE,
        {"x-content-type-options": "nosniff"},
    )


@router.get("/static/{path:path}")
async def static_file(path: str) -> Response:
    """A file of the pages at its plain address: revalidated by ETag on each use."""
    asset = assets().files.get(path)
    if asset is None:
        return _missing(path)
    return AssetResponse(asset, REVALIDATE, {"x-content-type-options": "nosniff"})


def _missing(path: str) -> JSONResponse:
    return JSONResponse(
        {
            "error": "not_found",
            "message": f"no file {path!r} here",
            "expected": "a file the pages name",
        },
        status_code=404,
    )


@router.get("/")
async def home() -> Response:
    return page("index.html")


@router.get("/sw.js")
async def service_worker() -> Response:
    """The service worker (``static/sw.js``, with this version of the pages and their files
    filled in: :meth:`bunco.web.pages.assets.Assets.worker_files`) at the top of the site, so its
    scope is every page: it keeps the pages' files, so a page opens again at once and
    without the connection (docs/outbox.md). Revalidated at each visit: a server with
    other pages sends another worker."""
    return AssetResponse(
        assets().worker,
        REVALIDATE,
        {"service-worker-allowed": "/", "x-content-type-options": "nosniff"},
    )


@router.get("/manifest.webmanifest")
@router.get("/manifest.json")
async def manifest() -> FileResponse:
    """The web app manifest: the pages can be installed on a phone's home screen."""
    return FileResponse(
        STATIC / "manifest.webmanifest",
        media_type="application/manifest+json",
        headers={"cache-control": "no-cache", "x-content-type-options": "nosniff"},
    )


@router.get("/https")
async def https_help() -> Response:
    """What to tap at the one-time warning of ``bunco serve --https``."""
    return page("https.html")


@router.get("/join")
async def join() -> Response:
    return page("join.html")


@router.get("/join/{code}")
async def join_code(code: str) -> Response:
    return page("join.html")


@router.get("/night/{night_id}")
async def night_link(night_id: NightId) -> Response:
    return page("night.html")


@router.get("/n/{night_id}/host")
async def host_page(night_id: NightId) -> Response:
    return page(PAGES["host"])


@router.get("/n/{night_id}/table/{table}")
async def table_page(night_id: NightId, table: int) -> Response:
    return page(PAGES["table"])


@router.get("/n/{night_id}/player")
async def player_page(night_id: NightId) -> Response:
    return page(PAGES["player"])


@router.get("/n/{night_id}/screen")
async def screen_page(night_id: NightId) -> Response:
    return page(PAGES["screen"])


@router.get("/n/{night_id}/end")
async def end_page(night_id: NightId) -> Response:
    return page(PAGES["end"])


@router.get("/n/{night_id}/door/{card}")
async def door_page(night_id: NightId, card: str) -> Response:
    """A player's door card (its QR code opens it): see :mod:`bunco.web.api.door`."""
    return page("door.html")


# -- data for the pages ------------------------------------------------------------------------
class RuleField(TypedDict):
    """A rule a host may change: its name, what it says, its kind (bool, int, str, choice,
    list) and, for a choice, the values to choose from."""

    name: str
    doc: str
    kind: str
    choices: NotRequired[list[str]]


class PresetLine(TypedDict):
    """A preset as the pages offer it: its names, how it plays, where it comes from, every
    rule's value and its prizes' names."""

    name: str
    title: str
    plays: str
    summary: str
    source: str
    rules: dict[str, Any]
    prize_labels: dict[str, str]


class PrizeName(TypedDict):
    name: str
    label: str


class PresetsDocument(TypedDict):
    """What the pages read to set a night up (``GET /pages/presets.json``)."""

    presets: list[PresetLine]
    fields: list[RuleField]
    prizes: list[PrizeName]
    traveling: list[str]
    money: dict[str, dict[str, Any]]


def presets_document() -> PresetsDocument:
    """The presets (their name for the pages, how they play, summary, source, every rule
    value), rule docs, prize categories and the money tables (``money``: what each pays,
    and the judged prizes it brings)."""
    return {
        "presets": [
            {
                "name": name,
                "title": TITLES[name],
                "plays": PLAYS[name],
                "summary": SUMMARIES[name],
                "source": SOURCES[name],
                "rules": rules.as_dict(),
                "prize_labels": prize_labels(rules.mini_label),
            }
            for name, rules in PRESETS.items()
        ],
        "fields": rule_fields(),
        "prizes": [{"name": p.value, "label": LABELS[p.value]} for p in Prize],
        "traveling": list(TRAVELING_NAMED),
        "money": {
            name: {
                **table,
                # each prize paid by its name where the rules name it (a judged one: None)
                "payouts": [{**p, "label": LABELS.get(p["prize"])} for p in table["payouts"]],
                "judged": PRESET_JUDGED.get(name, []),
            }
            for name, table in MONEY_PRESETS.items()
        },
    }


def rule_fields() -> list[RuleField]:
    """Every rule a host may change: name, kind (bool, int, str, choice, list), choices, doc.

    >>> next(f for f in rule_fields() if f["name"] == "after_bell")["choices"]
    ['finish_turn', 'stop']
    """
    docs = rule_docs()
    out: list[RuleField] = []
    for name, hint in typing.get_type_hints(RuleSet).items():
        if name == "name":
            continue
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            values = [m.value for m in hint]
            if hint is RollKind:
                values = [
                    RollKind.MINI_BUNCO.value,
                    RollKind.LOW_BUNCO.value,
                    RollKind.HIGH_BUNCO.value,
                ]
            out.append({"name": name, "doc": docs[name], "kind": "choice", "choices": values})
        else:
            kind = hint.__name__ if hint in (bool, int, str) else "list"
            out.append({"name": name, "doc": docs[name], "kind": kind})
    return out


@router.get("/pages/address.json")
async def address_json(request: Request) -> JSONResponse:
    """The address phones use to reach this server (``base``: ``http://192.168.1.20:8000``),
    or ``null`` when it listens on this machine only; pages put it in QR codes and links."""
    base = getattr(request.app.state, "public_base", None)
    return JSONResponse({"base": base, "lan": base is not None})


@router.get("/pages/presets.json")
async def presets_json() -> JSONResponse:
    """The set-up page's data: presets with their one-line summaries, rules, prizes."""
    return JSONResponse(presets_document(), headers={"cache-control": "max-age=300"})


@router.get("/pages/rules.json")
async def rules_json(
    preset: Annotated[str, Query(min_length=1, max_length=40)],
    house: Annotated[str, Query(max_length=4000, description="house rules as JSON")] = "{}",
) -> JSONResponse:
    """Every rule value of ``preset`` with ``house`` rules (a JSON object) applied."""
    try:
        changes = loads_shallow(house)
    except TooDeep as exc:
        return _refuse(
            f"house is {exc}", 'a JSON object of rule names and values such as {"wipeout": true}'
        )
    except ValueError:
        return _refuse("house is not JSON", 'a JSON object such as {"wipeout": true}')
    if not isinstance(changes, dict):
        return _refuse("house is not a JSON object", 'a JSON object such as {"wipeout": true}')
    try:
        rules = get_rules(preset, changes)
    except BuncoError as exc:
        return JSONResponse(exc.as_dict(), status_code=422)
    return JSONResponse({"rules": rules.as_dict(), "summary": SUMMARIES.get(rules.name)})


def _refuse(message: str, expected: str) -> JSONResponse:
    return JSONResponse(
        {"error": "invalid_request", "message": message, "expected": expected}, status_code=422
    )
