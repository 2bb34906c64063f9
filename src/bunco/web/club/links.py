"""The club's links as the organizer sees them: issuing members' personal links and share
links (``link`` events holding only hashes), and showing every live link again (derived
from the organizer's token, see :mod:`bunco.club.links`)."""

from __future__ import annotations

from bunco.club.club import Club
from bunco.club.links import calendar_token, link_path, link_token, token_hash
from bunco.club.view_types import LinksView, MemberLink, ShareLink
from bunco.core.club_events import ClubEvent, ClubLinkEvent, LinkKind


def _token(club: Club, club_id: str, organizer_token: str, kind: str, subject: str, n: int) -> str:
    if kind == "calendar" and subject != "feed":  # a member's own: from their live link
        member = live_token(club, club_id, organizer_token, "member", subject)
        return calendar_token(member) if member else ""
    return link_token(organizer_token, club_id, kind, subject, n)


def live_token(
    club: Club, club_id: str, organizer_token: str, kind: str, subject: str
) -> str | None:
    """The live link token of a member, night, season or calendar, if one is issued and
    not revoked."""
    number = club.issued.get((kind, subject), 0)
    if not number:
        return None
    token = _token(club, club_id, organizer_token, kind, subject, number)
    return token if token and club.links.get(token_hash(token)) == (kind, subject) else None


def new_link_event(
    club: Club, club_id: str, organizer_token: str, kind: LinkKind, subject: str
) -> tuple[ClubLinkEvent, str]:
    """The ``link`` event of the next link of a member, night or season, and its token."""
    token = link_token(
        organizer_token, club_id, kind, subject, club.issued.get((kind, subject), 0) + 1
    )
    return {"type": "link", "for": kind, "subject": subject, "hash": token_hash(token)}, token


def member_calendar_event(name: str, member_token: str) -> ClubLinkEvent:
    """The ``link`` event of a member's own calendar link (derived from their link)."""
    return {
        "type": "link",
        "for": "calendar",
        "subject": name,
        "hash": token_hash(calendar_token(member_token)),
    }


def issue_events(club: Club, club_id: str, organizer_token: str) -> list[ClubEvent]:
    """A personal link for every member who has none yet, each member's calendar link, and
    the club's calendar feed."""
    events: list[ClubEvent] = []
    after = club
    if live_token(club, club_id, organizer_token, "calendar", "feed") is None:
        events.append(new_link_event(club, club_id, organizer_token, "calendar", "feed")[0])
    for name in club.members:
        token = live_token(after, club_id, organizer_token, "member", name)
        if token is None:
            event, token = new_link_event(after, club_id, organizer_token, "member", name)
            events.append(event)
            after = after.apply(event)
        if live_token(after, club_id, organizer_token, "calendar", name) is None:
            events.append(member_calendar_event(name, token))
            after = after.apply(events[-1])
    return events


def links_view(club: Club, club_id: str, organizer_token: str, base: str) -> LinksView:
    """Every member's personal link and every live share link, as full URLs."""

    def url(kind: str, subject: str) -> str | None:
        token = live_token(club, club_id, organizer_token, kind, subject)
        return base + link_path(club_id, kind, token) if token else None

    members: list[MemberLink] = [
        {
            "name": n,
            "role": r,
            "email": club.contacts.get(n, {}).get("email"),
            "url": url("member", n),
        }
        for n, r in club.members.items()
    ]
    shares = [
        ShareLink({"for": kind, "subject": subject, "url": url(kind, subject)})
        for (kind, subject) in club.issued
        if kind in ("night", "season")
    ]
    feed = live_token(club, club_id, organizer_token, "calendar", "feed")
    return {
        "members": members,
        "shares": [s for s in shares if s["url"]],
        "calendar": url("calendar", "feed"),
        "calendar_files": {  # each planned night's calendar file, with the feed's token
            d: base + link_path(club_id, "calendar", feed, d) for d in club.plans
        }
        if feed
        else {},
    }
