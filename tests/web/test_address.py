"""Phones find the laptop: links, QR codes and the pages use the address phones reach."""

from __future__ import annotations

from fastapi.testclient import TestClient

from bunco.web.app import create_app
from bunco.web.server.address import public_base


def test_links_carry_the_address_phones_use(tmp_path):
    base = "http://192.168.1.20:8000"
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.sqlite3'}", public_base=base)) as c:
        assert c.get("/pages/address.json").json() == {"base": base, "lan": True}
        created = c.post("/api/nights", json={"players": ["Ann", "Bea", "Cat", "Dee"]}).json()
        night = created["night"]
        assert created["links"]["host"].startswith(f"{base}/night/{night}?token=")
        assert created["tables"][0]["link"].startswith(f"{base}/join?token=")
        host = {"Authorization": f"Bearer {created['host_token']}"}
        cohost = c.post(f"/api/nights/{night}/cohosts", json={}, headers=host).json()
        assert cohost["link"].startswith(f"{base}/night/{night}?token=")


def test_only_this_machine_means_no_address_for_phones(tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'b.sqlite3'}")) as c:
        assert c.get("/pages/address.json").json() == {"base": None, "lan": False}
    assert public_base("localhost", 8000) is None
    assert public_base("0.0.0.0", 9000, lan="10.1.2.3") == "http://10.1.2.3:9000"
    assert public_base("::", 9000, lan="fe80::1") == "http://[fe80::1]:9000"
