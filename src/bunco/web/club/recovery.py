"""The organizer's recovery code: how an organizer gets back into the club from a second
device or a cleared browser, without the server ever keeping the club's token.

At the club's creation the organizer is shown the club's link (with its token) and a
recovery code, once. The server keeps the code's SHA-256 and the club's token sealed with
the code (AES-256-GCM, the key derived from the code): neither opens the club, and the
token cannot be read back without the code. Given the code, the server unseals the token
and hands back the club's link, so every member's link and share link (derived from the
token) stays as it was. A new code (the organizer's, from the club's page) replaces the
old one. Wrong codes are counted as guesses of the client's address (10 a minute).

A code is 20 letters and digits of base32 (100 random bits) in groups of four, such as
``K7QM-2XPA-H4ZD-N6RB-W3TE``; case, spaces and dashes do not matter.

>>> code, event = new_recovery("the-club-token", "c1")
>>> len(code), unseal(event, "c1", code.lower().replace("-", " "))
(24, 'the-club-token')
>>> unseal(event, "c1", "AAAA-AAAA-AAAA-AAAA-AAAA") is None
True
>>> new_recovery("the-club-token", "c1", b"seed") == new_recovery("the-club-token", "c1", b"seed")
True
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Mapping

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from bunco.core.club_events import ClubRecoveryEvent

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"


def normalized(code: str) -> str:
    """A code as typed, in its one spelling: capitals, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def code_hash(code: str) -> str:
    return hashlib.sha256(("bunco-club-recovery:" + normalized(code)).encode()).hexdigest()


def _key(code: str) -> bytes:
    return hashlib.sha256(("bunco-club-recovery-key:" + normalized(code)).encode()).digest()


def new_recovery(
    token: str, club_id: str, seed: bytes | None = None
) -> tuple[str, ClubRecoveryEvent]:
    """A new recovery code, and the club event that keeps its hash and the sealed token:
    drawn at random, or derived from ``seed`` (a club's creation key: the same request
    sent again shows the same code)."""
    if seed is None:
        raw = "".join(secrets.choice(ALPHABET) for _ in range(20))
        nonce = secrets.token_bytes(12)
    else:  # 256 is a multiple of 32: each letter as likely as the next
        raw = "".join(ALPHABET[b % 32] for b in _derived(seed, "code")[:20])
        nonce = _derived(seed, "nonce")[:12]
    code = "-".join(raw[i : i + 4] for i in range(0, 20, 4))
    sealed = nonce + AESGCM(_key(code)).encrypt(nonce, token.encode(), club_id.encode())
    event: ClubRecoveryEvent = {
        "type": "recovery",
        "hash": code_hash(code),
        "sealed": base64.urlsafe_b64encode(sealed).decode(),
    }
    return code, event


def request_seed(token: str, club_id: str, key: str) -> bytes:
    """The seed of the recovery code a request with ``key`` makes (the organizer's, on the
    club's page): sent again (its reply lost), it shows the code the first try stored.
    Derived from the club's token, which the server never keeps: as secret as it."""
    return hmac.new(
        token.encode(), f"bunco-club-new-code:{club_id}:{key}".encode(), "sha256"
    ).digest()


def _derived(seed: bytes, label: str) -> bytes:
    return hmac.new(seed, f"bunco-club-recovery-{label}".encode(), hashlib.sha256).digest()


def unseal(recovery: Mapping[str, str], club_id: str, code: str) -> str | None:
    """The club's token, if ``code`` is the club's recovery code."""
    if not secrets.compare_digest(code_hash(code), recovery["hash"]):
        return None
    sealed = base64.urlsafe_b64decode(recovery["sealed"])
    try:
        return AESGCM(_key(code)).decrypt(sealed[:12], sealed[12:], club_id.encode()).decode()
    except (InvalidTag, ValueError):
        return None
