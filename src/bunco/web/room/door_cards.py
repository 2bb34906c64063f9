"""Door cards: the per-player QR code a host scans to check a player in (docs/room.md).

Each seated player has a *card id*, 16 letters and digits that name the player at one
night without being a credential: the card's QR code opens ``/n/<night>/door/<card>``
(:func:`door_url`), and only a phone that holds the night's host (or a co-host's) token
checks the player in from there; any other phone is only told whose card it is and where
that player sits. The id is an HMAC-SHA-256 of the night and the player's name under a
secret the server alone keeps with the night (the random salt drawn when the night was
made; for a night made without one, a key drawn once and kept in the night's options),
so a card cannot be guessed or forged from a name: a made-up card names nobody, even on
a host's phone. A substitute has a card of their own name; the card of a player who left
the seating names nobody any more.

>>> card_id(b"k" * 16, "n1", "Ann") == card_id(b"k" * 16, "n1", "Ann")
True
>>> len(card_id(b"k" * 16, "n1", "Ann")), card_id(b"k" * 16, "n1", "Ann") == card_id(
...     b"k" * 16, "n1", "Bea")
(16, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Final

from fastapi import Request

from bunco.web.decision.night_options import key_kept
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.night.service import NightService

CARD = re.compile(r"^[a-z2-7]{16}$")
"""What a card id looks like (80 bits in lower-case base 32)."""
KEY_OPTION: Final = "door_key"
"""The night option that keeps the key of a night made without a salt."""


def card_id(key: bytes, night_id: str, player: str) -> str:
    """The card id of ``player`` at ``night_id`` under the night's ``key``."""
    digest = hmac.new(key, f"door-card:{night_id}:{player}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:10]).decode("ascii").lower()


async def door_key(svc: NightService, live: LiveNight) -> bytes:
    """The night's card key: its salt, else the key kept in its options (drawn and stored
    the first time: the first key stored stays, whichever process drew it)."""
    record = await svc.db(svc.store.night, live.id)
    salt = getattr(record, "create_salt", None)
    if salt:
        return f"door:{salt}".encode()
    kept = live.options.get(KEY_OPTION)
    if isinstance(kept, str) and kept:
        return kept.encode()
    changed = await svc.change_options(live, key_kept(KEY_OPTION, secrets.token_hex(16)))
    kept = changed.after[KEY_OPTION]
    return str(kept).encode()


def cards_of(key: bytes, live: LiveNight) -> dict[str, str]:
    """Every seated player's card id, in the order of the seating."""
    return {name: card_id(key, live.id, name) for name in live.night.seated}


def player_of(key: bytes, live: LiveNight, card: str) -> str | None:
    """The seated player whose card ``card`` is, else ``None`` (a made-up card, or the card
    of a player who is off the seating)."""
    if not CARD.match(card):
        return None
    found = None
    for name, mine in cards_of(key, live).items():
        if hmac.compare_digest(mine, card):
            found = name
    return found


def public_base(request: Request) -> str:
    """The address phones reach this server at (as the other QR codes use it)."""
    public: str | None = getattr(request.app.state, "public_base", None)
    return public or str(request.base_url).rstrip("/")


def door_url(base: str, night_id: str, card: str) -> str:
    """The address a card's QR code opens.

    >>> door_url("http://192.168.1.20:8000", "n1", "abcdefghijklmnop")
    'http://192.168.1.20:8000/n/n1/door/abcdefghijklmnop'
    """
    return f"{base}/n/{night_id}/door/{card}"
