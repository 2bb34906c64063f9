"""The end-of-night downloads: filled sheets, report (HTML and PDF), blank sheets, results CSV."""

from __future__ import annotations

import io

from pypdf import PdfReader
from web_helpers import make_night


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def test_downloads_of_a_played_night(client) -> None:
    night = make_night(client, ["Ann", "Bea", "Cat", "Dee"], sets=1)
    for _ in range(6):
        night.play_round()
    report = client.get(night.url("/report"), headers=night.viewer).json()
    assert report["phase"] in ("over", "rolloff")
    ann = report["players"]["Ann"]

    sheets = client.get(night.url("/download/sheets.pdf"), headers=night.viewer)
    assert sheets.status_code == 200 and sheets.headers["content-type"] == "application/pdf"
    text = pdf_text(sheets.content)
    for name in ("Ann", "Bea", "Cat", "Dee"):
        assert name in text

    html = client.get(night.url("/download/report.html"), headers=night.viewer)
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert "Ann" in html.text and ("<svg" in html.text or "data:image" in html.text)

    pdf = client.get(night.url("/download/report.pdf"), headers=night.viewer)
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")

    blank = client.get(night.url("/download/blank-sheets.pdf"), headers=night.host)
    assert blank.status_code == 200 and "Dee" in pdf_text(blank.content)

    csv = client.get(night.url("/download/standings.csv"), headers=night.viewer)
    assert csv.status_code == 200
    header, *rows = csv.text.splitlines()
    assert header.split(",")[:7] == ["rank", "player", "wins", "losses", "buncos", "mini_buncos", "points"]
    ann_row = next(r.split(",") for r in rows if r.split(",")[1] == "Ann")
    assert [int(v) for v in ann_row[2:5]] == [ann["wins"], ann["losses"], ann["buncos"]]
    assert ann["wins"] + ann["losses"] == 6


def test_downloads_need_a_token(client) -> None:
    night = make_night(client)
    for tail in ("sheets.pdf", "report.html", "report.pdf", "blank-sheets.pdf", "standings.csv"):
        reply = client.get(night.url(f"/download/{tail}"))
        assert reply.status_code == 401, tail
