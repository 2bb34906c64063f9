"""A local push service for the tests of the club's phone notifications: a phone's
subscription (its own key pair and auth secret, as a browser makes them) and an HTTP
endpoint on 127.0.0.1 that takes what the server sends and decrypts it with the
subscription's private key (RFC 8291, ``aes128gcm``, with ``http_ece``): real crypto end
to end. ``gone`` makes the endpoint answer 410, as a push service does for a phone that
unsubscribed."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class Phone:
    """A phone's subscription: endpoint, p256dh (public key) and auth, and what it got."""

    def __init__(self, box: PushBox, name: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = f"http://127.0.0.1:{box.port}/push/{name}"
        self.got: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.gone = False

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def receive(self, body: bytes, headers: dict[str, str]) -> None:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        self.got.append(json.loads(plain))
        self.headers.append(headers)


class PushBox:
    """``with PushBox() as box:`` an endpoint on ``box.port``; ``box.phone(name)`` a phone."""

    def __init__(self) -> None:
        self.phones: dict[str, Phone] = {}
        box = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length", "0")))
                phone = box.phones.get(self.path.rsplit("/", 1)[-1])
                if phone is None or phone.gone:
                    self.send_response(410)
                else:
                    phone.receive(body, {k.lower(): v for k, v in self.headers.items()})
                    self.send_response(201)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self._server.server_address[1])
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def phone(self, name: str) -> Phone:
        self.phones[name] = Phone(self, name)
        return self.phones[name]

    def __enter__(self) -> PushBox:
        self._thread.start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.shutdown()
        self._server.server_close()
