"""The end-of-night downloads: filled sheets, report (HTML and PDF), blank sheets, results CSV."""

from __future__ import annotations

import io
from datetime import datetime

from fastapi.testclient import TestClient
from pypdf import PdfReader
from web_helpers import make_night

from bunco.web.app import create_app
from bunco.web.values.replies import ServiceError


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
    assert header.split(",")[:7] == [
        "rank",
        "player",
        "wins",
        "losses",
        "buncos",
        "mini_buncos",
        "points",
    ]
    ann_row = next(r.split(",") for r in rows if r.split(",")[1] == "Ann")
    assert [int(v) for v in ann_row[2:5]] == [ann["wins"], ann["losses"], ann["buncos"]]
    assert ann["wins"] + ann["losses"] == 6


def test_downloads_need_a_token(client) -> None:
    night = make_night(client)
    for tail in (
        "sheets.pdf",
        "report.html",
        "report.pdf",
        "blank-sheets.pdf",
        "standings.csv",
        "payouts.pdf",
    ):
        reply = client.get(night.url(f"/download/{tail}"))
        assert reply.status_code == 401, tail


def test_a_file_is_made_once_per_night_version_and_limited_per_token(any_db_url) -> None:
    import asyncio

    from bunco.web.files.downloads import Downloads

    with TestClient(create_app(any_db_url, bot_pace=0)) as client:
        downloads = Downloads(per_token="3/hour")
        client.app.state.downloads = downloads  # type: ignore[attr-defined]
        night = make_night(client)
        first = client.get(night.url("/download/report.html"), headers=night.viewer)
        again = client.get(night.url("/download/report.html"), headers=night.host)
        assert first.status_code == again.status_code == 200
        assert first.content == again.content and downloads.made == 1  # from the cache
        night.roll(1, [1, 1, 4])  # a new version of the night: made again
        after = client.get(night.url("/download/report.html"), headers=night.viewer)
        assert after.status_code == 200 and downloads.made == 2
        for kind in ("sheets.pdf", "report.pdf"):  # the viewer's third and fourth makings
            reply = client.get(night.url(f"/download/{kind}"), headers=night.viewer)
        assert reply.status_code == 429 and reply.json()["error"] == "too_many_downloads"
        assert 1 <= int(reply.headers["retry-after"]) <= 3600 and reply.json()["expected"]
        # another token still gets files; and the cached ones stay free for everybody
        assert client.get(night.url("/download/report.pdf"), headers=night.host).status_code == 200
        assert (
            client.get(night.url("/download/report.pdf"), headers=night.viewer).status_code == 200
        )

        async def twice() -> list[int]:  # one token, two new files at once: one waits its turn
            async def ask(kind: str) -> int:
                live = await client.app.state.service.get(night.id)  # type: ignore[attr-defined]
                try:
                    await downloads.get(
                        (night.id, live.seq, kind, ""), [e.body for e in live.log], "phone"
                    )
                    return 200
                except ServiceError as exc:
                    return exc.status

            return list(await asyncio.gather(ask("sheets.pdf"), ask("report.pdf")))

        night.roll(1, [2, 3, 5])  # a version nothing was made for yet
        assert sorted(client.portal.call(twice)) == [200, 429]  # type: ignore[union-attr]


def test_the_payout_sheet_says_provisional_then_final_with_the_time_closed(client) -> None:
    night = make_night(
        client,
        ["Ann", "Bea", "Cat", "Dee"],
        money={"buy_in": "5", "payouts": []},
        prize_ties="shared",
    )
    for _ in range(6):
        night.play_round()
    assert night.state()["status"]["phase"] == "over"
    sheet = pdf_text(client.get(night.url("/download/payouts.pdf"), headers=night.viewer).content)
    assert "Provisional: the host may still correct the results" in " ".join(sheet.split())
    assert client.get(night.url("/corrections"), headers=night.viewer).json()["closed_at"] is None
    closed = client.post(night.url("/close"), headers=night.host, json={"command_id": "close-1"})
    assert closed.status_code == 200, closed.text
    audit = client.get(night.url("/corrections"), headers=night.viewer).json()
    at = datetime.fromisoformat(audit["closed_at"]).astimezone()
    sheet = " ".join(
        pdf_text(
            client.get(night.url("/download/payouts.pdf"), headers=night.viewer).content
        ).split()
    )
    assert f"Final: the host closed the night at {at:%H:%M} on {at.day} {at:%b %Y}." in sheet
    assert "Provisional" not in sheet
