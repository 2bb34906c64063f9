"""How a co-host's token and a host-made viewer link are labelled, in the token's ``player``
column: ``co-host 2 · Bea``, ``viewer link 3 · co-host 2 · Bea`` (or ``· host``), so they
can be listed and revoked, and the audit list can say who sent a change.

The number in a label is decided where the token is stored, in the store's one
transaction (:class:`~bunco.store.night_tokens.Numbered`): :data:`COHOSTS` and
:func:`viewer_links` say how.

>>> label(2, "Bea"), label(3, None), number_of("co-host 12 · Bea"), number_of("Ann")
('co-host 2 · Bea', 'co-host 3', 12, None)
>>> viewer_label(3, "co-host 2 · Bea"), viewer_label(4, None)
('viewer link 3 · co-host 2 · Bea', 'viewer link 4 · host')
>>> viewer_number("viewer link 3 · host"), viewer_maker("viewer link 3 · co-host 2 · Bea")
(3, 'co-host 2 · Bea')
"""

from __future__ import annotations

import re
from functools import partial

from bunco.store.night_tokens import Numbered, TokenRecord

LABEL = re.compile(r"^co-host (\d+)(?: · .*)?$")
VIEWER_LABEL = re.compile(r"^viewer link (\d+) · (.+)$")
"""How a host-made viewer link is labelled: its number, then who made it."""
MAX_COHOSTS = 50
"""The highest co-host number a night hands out."""
MAX_VIEWER_LINKS = 60
"""The most viewer tokens a night holds when a host's phone asks for one (one per co-host's
phone is plenty)."""


def label(number: int, name: str | None) -> str:
    """The stored label of co-host ``number``."""
    name = " ".join((name or "").split())
    return f"co-host {number}" + (f" · {name}" if name else "")


def number_of(text: str | None) -> int | None:
    """The number in a co-host's label, or ``None`` for any other token."""
    found = LABEL.match(text or "")
    return int(found.group(1)) if found else None


def viewer_label(number: int, maker: str | None) -> str:
    """The stored label of viewer link ``number`` made by ``maker`` (a co-host's label;
    ``None``: the host's own link)."""
    return f"viewer link {number} · {maker or 'host'}"


def viewer_number(text: str | None) -> int | None:
    """The number in a host-made viewer link's label, or ``None`` for any other token (the
    night's own viewer link)."""
    found = VIEWER_LABEL.match(text or "")
    return int(found.group(1)) if found else None


def viewer_maker(text: str | None) -> str | None:
    """Who made a host-made viewer link (``host`` or a co-host's label), from its label."""
    found = VIEWER_LABEL.match(text or "")
    return found.group(2) if found else None


def _cohost_label(name: str | None, number: int) -> str:
    return label(number, name)


def _viewer_label(maker: str | None, number: int) -> str:
    return viewer_label(number, maker)


def cohost(token: TokenRecord, name: str | None) -> Numbered:
    """A new co-host's ``host`` token, numbered by the store (past :data:`MAX_COHOSTS`:
    refused)."""
    return Numbered(token, number_of, partial(_cohost_label, name), most_number=MAX_COHOSTS)


def viewer_link(token: TokenRecord, maker: str | None) -> Numbered:
    """A new viewer link's ``viewer`` token made by ``maker``, numbered by the store (when
    the night holds :data:`MAX_VIEWER_LINKS` viewer tokens: refused)."""
    return Numbered(
        token, viewer_number, partial(_viewer_label, maker), most_tokens=MAX_VIEWER_LINKS
    )
