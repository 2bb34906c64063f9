"""`bunco serve` prints the address phones use, with a QR code of it in the terminal."""

from __future__ import annotations

import subprocess
import time

import httpx
import pytest

from serve_process import bunco_command, free_port

pytestmark = pytest.mark.slow


def test_serve_prints_the_address_phones_use(tmp_path):
    port = free_port()
    base = f"http://10.9.8.7:{port}"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([*bunco_command(), "serve", "--port", str(port), "--db",
                                 str(tmp_path / "n.sqlite3"), "--public-url", base],
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(f"http://127.0.0.1:{port}/pages/address.json", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise AssertionError(log.read_text())
        assert reply.json() == {"base": base, "lan": True}
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    text = log.read_text(encoding="utf-8")
    assert f"phones on the same Wi-Fi open {base}/" in text
    assert "█" in text or "▀" in text             # the QR code, in block characters
