"""A club's season report (HTML, PDF) as a download, made in the download process.

The report draws a chart (matplotlib) and, as a PDF, pages (reportlab). Made on the
server's worker threads, what that drawing left behind stayed in the server's memory
(docs/server.md, "A hostile laptop, round 2"). Here the route checks the caller and the
season, then hands :mod:`bunco.web.files.downloads` the club's stored log and the
season's nights' stored lines, plain values that go to the worker process pickled. The
worker folds them and draws (:func:`~bunco.web.files.downloads.make_season_file`).

The file is cached under the club's version: its number of events, and the season with
each of its nights' last seq, so a new club event (a payment, a host, a new night) or a
new roll makes a new file; the same version asked again is served from the cache, without
reading the nights' logs (only their last seq). The per-token limits are the night downloads' (429 ``too_many_downloads``).

A season the club does not have is refused: **404** ``no_such_season``.
"""

from __future__ import annotations

import asyncio
import json

from fastapi import Request

from bunco.club.club import Club
from bunco.club.links import token_hash
from bunco.club.load import fold_club
from bunco.club.season import season_names
from bunco.web.api.club_access import Loaded, clubs
from bunco.web.api.routing import service
from bunco.web.files.downloads import SEASON_KINDS, Downloads, Key, make_season_file
from bunco.web.values.replies import ServiceError


def season_key(club_id: str, club_events: int, kind: str, season: str, seqs: dict[str, int]) -> Key:
    """A season file's cache key: the club, the number of lines of its stored log, the kind,
    and the season with each of its nights' last seq (a night with no event left out).

    >>> season_key("c1", 12, "season.pdf", "2026", {"n2": 40, "n1": 7})
    ('club c1', 12, 'season.pdf', '{"nights": {"n1": 7, "n2": 40}, "season": "2026"}')
    """
    version = json.dumps({"season": season, "nights": seqs}, sort_keys=True)
    return (f"club {club_id}", club_events, kind, version)


def wanted_season(club: Club, asked: str | None) -> str:
    """The season asked for (the current one if none), or **404** ``no_such_season``."""
    season = asked or club.season
    names = season_names(club)
    if season not in names:
        raise ServiceError(
            404,
            "no_such_season",
            f"{club.name} has no season {season!r}",
            f"one of its seasons ({', '.join(repr(n) for n in names)}), or no season for "
            f"the current one ({club.season!r})",
        )
    return season


async def season_file(
    request: Request, club_id: str, got: Loaded, kind: str, asked: str | None
) -> bytes:
    """The season's report as ``kind`` (``season.html`` or ``season.pdf``) of the club
    ``club_id``, from the download cache or made in the download process, for the caller
    of ``got`` (checked by :func:`~bunco.web.api.club_access.load`).

    The key costs the club's log and each night's last seq; the nights' whole logs are
    read only when the file is not cached. Their lines are read after the key's seqs: a
    roll stored in between makes a key no file has (a miss), and the file made is keyed by
    the lines it is made from."""
    if kind not in SEASON_KINDS:
        raise ValueError(f"no such season download: {kind!r}")
    log = await asyncio.to_thread(clubs(request).events, club_id)
    club = fold_club(log)  # this log's club (its clock's events were stored by the load)
    season = wanted_season(club, asked)
    svc = service(request)
    nights = [ref.night for ref in club.season_nights(season)]
    last = {night: await svc.db(svc.store.last_seq, night) for night in nights}
    downloads: Downloads = request.app.state.downloads
    seqs = {night: seq for night, seq in last.items() if seq >= 0}
    data = downloads.cached(season_key(club_id, len(log), kind, season, seqs))
    if data is not None:
        return data
    lines: dict[str, list[str]] = {}
    seqs = {}
    for night in nights:
        stored = await svc.db(svc.store.events, night)
        if stored:
            lines[night] = [event.body for event in stored]
            seqs[night] = stored[-1].seq
    key = season_key(club_id, len(log), kind, season, seqs)
    caller = token_hash(got.caller.token)[:32]
    return await downloads.obtain(key, caller, make_season_file, kind, log, lines, season)
