"""Web Push to members' phones: the server's keys for a club (VAPID, RFC 8292) and one
notification sent to one phone, encrypted for it (RFC 8291, ``aes128gcm``), with
``pywebpush``. Blocking: call :func:`send` in a thread.

A phone asks for notifications on the member's page: the page gets the club's public key,
the browser's push service gives it an address (``endpoint``) and its keys, and the page
hands them to the server (a ``push`` event of the club's log). The server signs each
notification with the club's private key (kept in the club's log, never shown), so the
push service knows it comes from the server the phone subscribed to.

Only ``https`` push addresses are taken: the push services' (:data:`ALLOW_HTTP` is for the
tests' local push service).
"""

from __future__ import annotations

import base64
import ipaddress
import json
from collections.abc import Mapping
from typing import TypedDict
from urllib.parse import urlsplit

ALLOW_HTTP = False  # a local push service over plain http (tests only)
TTL = 24 * 3600  # seconds a push service keeps a notification for a phone that is off
TIMEOUT = 10.0


def new_keys() -> dict[str, str]:
    """A new key pair: ``private`` (PEM) and ``public`` (the uncompressed point, base64url:
    the page's ``applicationServerKey``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode("ascii")
    point = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return {"private": private, "public": base64.urlsafe_b64encode(point).decode().rstrip("=")}


def contact_of(address: str | None, sender: str | None) -> str:
    """Who the push services may write to about the server's notifications (VAPID's
    ``sub``): the server's https address, else the club's mail sender, else a local one.

    >>> contact_of("https://bunco.example", None), contact_of("http://10.0.0.2:8000", None)
    ('https://bunco.example', 'mailto:bunco@localhost')
    """
    if address and address.startswith("https://"):
        return address
    return f"mailto:{sender}" if sender else "mailto:bunco@localhost"


def endpoint_ok(endpoint: str) -> bool:
    """Whether the server sends to this push address: https, to a host that is not this
    machine nor an address of a private network (a member's page cannot make the server
    post to the room's router); plain http and local addresses only in the tests.

    >>> endpoint_ok("https://fcm.googleapis.com/fcm/send/x"), endpoint_ok("https://127.0.0.1/x")
    (True, False)
    >>> endpoint_ok("https://192.168.1.1/x"), endpoint_ok("http://push.example/x")
    (False, False)
    """
    if ALLOW_HTTP:
        return endpoint.startswith(("https://", "http://"))
    if not endpoint.startswith("https://"):
        return False
    host = (urlsplit(endpoint).hostname or "").lower()
    if not host or host == "localhost" or host.endswith((".localhost", ".local")):
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return True  # a name: the push services' own
    return address.is_global


class PushPayload(TypedDict):
    """What a phone shows: the title, the text, the page to open, and the tag that makes
    a later notice of the same night and kind replace an earlier one."""

    title: str
    body: str
    url: str
    tag: str


def send(
    keys: Mapping[str, str],
    contact: str,
    endpoint: str,
    p256dh: str,
    auth: str,
    payload: PushPayload,
) -> str:
    """Send one notification; returns ``sent``, ``gone`` (the phone unsubscribed: the
    push service answered 404 or 410) or ``failed``."""
    from py_vapid import Vapid02, VapidException  # type: ignore[import-untyped]
    from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]

    if not endpoint_ok(endpoint):
        return "failed"
    signer = Vapid02.from_pem(keys["private"].encode("ascii"))
    try:
        webpush(
            {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}},
            data=json.dumps(payload),
            vapid_private_key=signer,
            vapid_claims={"sub": contact},
            ttl=TTL,
            timeout=TIMEOUT,
        )
    except WebPushException as exc:
        status = getattr(exc.response, "status_code", None)
        return "gone" if status in (404, 410) else "failed"
    except (OSError, ValueError, VapidException):
        return "failed"
    return "sent"
