"""The club's links as the organizer sees them: issuing members' personal links and share
links (``link`` events holding only hashes), and showing every live link again (derived
from the organizer's token, see :mod:`bunco.club.links`)."""

from __future__ import annotations

from typing import Any

from bunco.club.club import Club
from bunco.club.links import link_path, link_token, token_hash


def live_token(
    club: Club, club_id: str, organizer_token: str, kind: str, subject: str
) -> str | None:
    """The live link token of a member, night or season, if one is issued and not revoked."""
    number = club.issued.get((kind, subject), 0)
    if not number:
        return None
    token = link_token(organizer_token, club_id, kind, subject, number)
    return token if club.links.get(token_hash(token)) == (kind, subject) else None


def new_link_event(
    club: Club, club_id: str, organizer_token: str, kind: str, subject: str
) -> tuple[dict[str, Any], str]:
    """The ``link`` event of the next link of a member, night or season, and its token."""
    token = link_token(
        organizer_token, club_id, kind, subject, club.issued.get((kind, subject), 0) + 1
    )
    return {"type": "link", "for": kind, "subject": subject, "hash": token_hash(token)}, token


def issue_events(club: Club, club_id: str, organizer_token: str) -> list[dict[str, Any]]:
    """A personal link for every member who has none yet (and the calendar feed's)."""
    events = []
    if live_token(club, club_id, organizer_token, "calendar", "feed") is None:
        events.append(new_link_event(club, club_id, organizer_token, "calendar", "feed")[0])
    for name in club.members:
        if live_token(club, club_id, organizer_token, "member", name) is None:
            events.append(new_link_event(club, club_id, organizer_token, "member", name)[0])
    return events


def links_view(club: Club, club_id: str, organizer_token: str, base: str) -> dict[str, Any]:
    """Every member's personal link and every live share link, as full URLs."""

    def url(kind: str, subject: str) -> str | None:
        token = live_token(club, club_id, organizer_token, kind, subject)
        return base + link_path(club_id, kind, token) if token else None

    members = [
        {
            "name": n,
            "role": r,
            "email": club.contacts.get(n, {}).get("email"),
            "url": url("member", n),
        }
        for n, r in club.members.items()
    ]
    shares = [
        {"for": kind, "subject": subject, "url": url(kind, subject)}
        for (kind, subject) in club.issued
        if kind in ("night", "season")
    ]
    return {
        "members": members,
        "shares": [s for s in shares if s["url"]],
        "calendar": url("calendar", "feed"),
    }
