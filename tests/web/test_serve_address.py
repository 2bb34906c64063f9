"""`bunco serve` prints the address phones use, with a QR code of it in the terminal, and
serves https with a certificate of its own (``--https``)."""

from __future__ import annotations

import os
import subprocess
import time

import httpx
import pytest

from bunco.web.server.certs import names_in
from serve_process import bunco_command, free_port

pytestmark = pytest.mark.slow


def test_serve_prints_the_address_phones_use(tmp_path):
    port = free_port()
    base = f"http://10.9.8.7:{port}"
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                *bunco_command(),
                "serve",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "n.sqlite3"),
                "--public-url",
                base,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
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
    assert "█" in text or "▀" in text  # the QR code, in block characters


def test_serve_https_with_a_certificate_of_its_own(tmp_path):
    port = free_port()
    log = tmp_path / "serve.log"
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path)}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [
                *bunco_command(),
                "serve",
                "--port",
                str(port),
                "--db",
                str(tmp_path / "n.sqlite3"),
                "--https",
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                reply = httpx.get(f"https://127.0.0.1:{port}/https", timeout=1, verify=False)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        else:
            raise AssertionError(log.read_text())
        assert reply.status_code == 200 and "not private" in reply.text
        with pytest.raises(httpx.ConnectError):  # a certificate no one vouches for
            httpx.get(f"https://127.0.0.1:{port}/api/health", timeout=2)
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    cert = tmp_path / "bunco" / "bunco-https-cert.pem"
    assert "127.0.0.1" in names_in(cert) and "localhost" in names_in(cert)
    assert f"listening on https://127.0.0.1:{port}" in log.read_text(encoding="utf-8")
