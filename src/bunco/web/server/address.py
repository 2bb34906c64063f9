"""Where phones on the same Wi-Fi find this server: the computer's address on the network.

A host opens the pages at ``localhost`` on the laptop, but a phone cannot reach
``localhost``: every QR code, printed seating card and link must carry the address the
phones use (``http://192.168.1.20:8000``). ``bunco serve --host 0.0.0.0`` works that
address out (the network interface of the default route) and prints it with a QR code in
the terminal; the pages ask ``GET /pages/address.json`` for it.

>>> public_base("127.0.0.1", 8000) is None
True
>>> public_base("192.168.1.20", 8000)
'http://192.168.1.20:8000'
>>> public_base("0.0.0.0", 8000, lan="10.0.0.5")
'http://10.0.0.5:8000'
"""

from __future__ import annotations

import ipaddress
import socket

LOOPBACK = ("127.0.0.1", "localhost", "::1")
ANY = ("0.0.0.0", "::", "")


def lan_address() -> str | None:
    """This computer's address on its network (the interface of the default route), or
    ``None`` without a network. A UDP socket's ``connect`` only picks a route: it sends
    nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 9))
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    try:
        if ipaddress.ip_address(address).is_loopback or address == "0.0.0.0":
            return None
    except ValueError:
        return None
    return address


def public_base(
    host: str, port: int, *, lan: str | None = None, scheme: str = "http"
) -> str | None:
    """The base URL phones use for a server listening on ``host``, or ``None`` when only
    this machine can connect (``127.0.0.1``)."""
    if host in LOOPBACK:
        return None
    if host in ANY:
        host = lan if lan is not None else (lan_address() or "")
        if not host:
            return None
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def terminal_qr(text: str) -> str:
    """A QR code of ``text`` drawn with block characters, for the terminal.

    >>> qr = terminal_qr("http://10.0.0.5:8000")
    >>> len(qr.splitlines()) > 10
    True
    """
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()
