"""A club made by a request sent again (its reply lost): the same club, once.

``POST /api/clubs`` with an ``Idempotency-Key`` gets the club's id, its secret token and
its recovery code derived from that key (through the slow key derivation of a night's
creation ``command_id``, :func:`bunco.web.gate.auth.creation_key`), so the same request
sent again finds the club it made and is answered with the same token and code, while
the server still keeps only their hashes. The key is then as secret as the club's token
(at least :data:`CREATION_ID_LENGTH` characters; the pages send 128 random bits).

>>> made = club_secrets("6f1c2b7e-5d4a-4c3b-9a8f-0e1d2c3b4a59")
>>> made == club_secrets("6f1c2b7e-5d4a-4c3b-9a8f-0e1d2c3b4a59")
True
>>> len(made.club_id), len(made.token), made == club_secrets("another-key-of-16-chars")
(8, 32, False)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass

from bunco.web.gate.auth import creation_key
from bunco.web.values.fields import CREATION_ID_LENGTH
from bunco.web.values.replies import ServiceError

__all__ = ["CREATION_ID_LENGTH", "ClubSecrets", "club_secrets", "creation_key_ok"]


@dataclass(frozen=True, slots=True)
class ClubSecrets:
    """What a club's creation key stands for: the club's id, its token, and the seed of
    its first recovery code."""

    club_id: str
    token: str
    recovery_seed: bytes


def _part(key: bytes, label: str, size: int) -> bytes:
    return hmac.new(key, f"bunco-club:{label}".encode(), hashlib.sha256).digest()[:size]


def club_secrets(idempotency_key: str) -> ClubSecrets:
    """The club a creation with this key makes (slow, about as a night's: call it in a
    thread)."""
    key = creation_key(idempotency_key)
    return ClubSecrets(
        base64.urlsafe_b64encode(_part(key, "id", 6)).decode(),
        base64.urlsafe_b64encode(_part(key, "token", 24)).decode(),
        _part(key, "recovery", 32),
    )


def creation_key_ok(idempotency_key: str) -> None:
    """Refuse a creation key too short to stand for a club's secrets (422)."""
    if len(idempotency_key) < CREATION_ID_LENGTH:
        raise ServiceError(
            422,
            "invalid_idempotency_key",
            f"a club's creation key stands for the club's secret link: "
            f"{len(idempotency_key)} characters is too short to guess at",
            f"a random key of at least {CREATION_ID_LENGTH} characters, e.g. a UUID",
        )
