"""Personal and share links: tokens derived from the club's secret, kept only as hashes.

A member's link (to answer for the nights to come) and a share link (to read one night's
results, or a season's) carry a token of their own. The token is derived from the club's
secret token with HMAC-SHA-256, so the organizer (who holds that secret) can be shown
every link again at any time, while the server keeps only each link's SHA-256 hash (in a
``link`` event of the club's log). Issuing a link again for the same member, night or
season derives the next one and the old link stops working.

>>> one = link_token("club-secret", "c1", "member", "Ann", 1)
>>> one == link_token("club-secret", "c1", "member", "Ann", 1), one == link_token(
...     "club-secret", "c1", "member", "Ann", 2)
(True, False)
>>> len(token_hash(one))
64
"""

from __future__ import annotations

import base64
import hashlib
import hmac


def link_token(club_token: str, club_id: str, kind: str, subject: str, number: int) -> str:
    """The ``number``-th link (from 1) of a member, night or season."""
    label = f"bunco-club-link:{club_id}:{kind}:{subject}:{number}"
    digest = hmac.new(club_token.encode(), label.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def calendar_token(member_token: str) -> str:
    """A member's own calendar link, derived from their personal link: it reads the
    calendar and nothing else, so it can be given to a calendar app (or forwarded) without
    handing over the member's answers.

    >>> calendar_token("t") == calendar_token("t") != calendar_token("u")
    True
    """
    digest = hmac.new(member_token.encode(), b"bunco-club-calendar", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def token_hash(token: str) -> str:
    """The SHA-256 (hex) a link is kept as."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def link_path(club_id: str, kind: str, token: str, date: str | None = None) -> str:
    """Where a link points on the server: a member's page, a shared page, the club's
    calendar feed (or one night's calendar file, with ``date``)."""
    if kind == "calendar":
        if date is not None:
            return f"/api/clubs/{club_id}/calendar/{date}.ics?token={token}"
        return f"/api/clubs/{club_id}/calendar.ics?token={token}"
    page = "me" if kind == "member" else "shared"
    return f"/c/{club_id}/{page}?token={token}"
