"""The club's links sheet and a club night's payout sheet (PDF) are made in the download
process, as the season report is (issue 38): cached for the same contents, made anew when
they change, and never drawn on the server's threads."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_club import make_club, play_night

import bunco.sheets.club_links
import bunco.sheets.payout_pdf
from bunco.web.files.downloads import Downloads


def no_drawing_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, drawing either sheet in this process fails."""

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a club sheet was drawn in the server's process")

    monkeypatch.setattr(bunco.sheets.club_links, "links_sheet", refused)
    monkeypatch.setattr(bunco.sheets.payout_pdf, "render_payout_sheet", refused)


def pdf_text(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(data)
    out = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True)
    return " ".join(out.stdout.split())


def test_the_links_sheet_is_made_in_the_download_process_once_per_contents(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    club, org = make_club(client)
    issued = client.post(f"/api/clubs/{club}/links/member", json={"name": "Ann"}, headers=org)
    assert issued.status_code in (200, 201), issued.text
    no_drawing_here(monkeypatch)
    downloads: Downloads = client.app.state.downloads  # type: ignore[attr-defined]
    sheet = client.get(f"/api/clubs/{club}/download/links.pdf", headers=org)
    assert sheet.status_code == 200, sheet.text
    assert sheet.headers["content-type"] == "application/pdf" and sheet.content[:4] == b"%PDF"
    assert "Ann" in pdf_text(sheet.content, tmp_path)
    assert downloads.made == 1
    again = client.get(f"/api/clubs/{club}/download/links.pdf", headers=org)
    assert again.content == sheet.content and downloads.made == 1  # from the cache
    client.post(f"/api/clubs/{club}/links/member", json={"name": "Bea"}, headers=org)
    newer = client.get(f"/api/clubs/{club}/download/links.pdf", headers=org)
    assert newer.status_code == 200 and downloads.made == 2  # Bea's link: a new sheet
    assert "Bea" in pdf_text(newer.content, tmp_path)


def test_a_club_nights_payout_sheet_is_made_in_the_download_process(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    club, org = make_club(client)
    night = play_night(client, club, org, date="2026-01-13")
    no_drawing_here(monkeypatch)
    downloads: Downloads = client.app.state.downloads  # type: ignore[attr-defined]
    url = f"/api/clubs/{club}/download/payouts/{night.id}.pdf"
    sheet = client.get(url, headers=org)
    assert sheet.status_code == 200, sheet.text
    assert sheet.content[:4] == b"%PDF" and downloads.made == 1
    assert "not yet collected $20.00" in pdf_text(sheet.content, tmp_path)
    assert client.get(url, headers=org).content == sheet.content and downloads.made == 1
    paid = client.post(
        f"/api/clubs/{club}/payments", json={"player": "Ann", "amount": "5"}, headers=org
    )
    assert paid.status_code == 200, paid.text
    newer = client.get(url, headers=org)  # the notes on the dues changed: a new sheet
    assert newer.status_code == 200 and downloads.made == 2
    assert "not yet collected $15.00" in pdf_text(newer.content, tmp_path)
    missing = client.get(f"/api/clubs/{club}/download/payouts/nosuch.pdf", headers=org)
    assert missing.status_code == 404 and missing.json()["error"] == "no_such_night"
