"""The club's season report (HTML, PDF) is made in the download process (issue 38): the
same bytes as the report drawn in the server, cached per club version, the night
downloads' limits, and a season the club does not have refused with 404."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_api_club import make_club, play_night
from web_helpers import bearer

import bunco.sheets.charts
import bunco.sheets.season
from bunco.club.load import fold_club, fold_nights
from bunco.store import ClubStore
from bunco.web.app import create_app
from bunco.web.files.downloads import Downloads

HERE = Path(__file__).resolve().parent


def drawn_here(client: TestClient, club: str) -> tuple[bytes, bytes]:
    """The season report as the server drew it before (on its own threads): the club and
    its nights folded from the store, then the report's HTML and PDF."""
    svc = client.app.state.service  # type: ignore[attr-defined]
    folded = fold_club(ClubStore(svc.store.engine).events(club))
    nights = fold_nights(
        {ref.night: [e.event for e in svc.store.events(ref.night)] for ref in folded.nights}
    )
    html = bunco.sheets.season.season_report_html(folded, nights, None).encode("utf-8")
    return html, bunco.sheets.season.season_report_pdf(folded, nights, None)


def no_drawing_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, drawing a season report or a chart in this process fails."""

    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the season report was drawn in the server's process")

    for module, name in (
        (bunco.sheets.season, "season_report_html"),
        (bunco.sheets.season, "season_report_pdf"),
        (bunco.sheets.charts, "render"),
    ):
        monkeypatch.setattr(module, name, refused)


def test_the_season_files_are_the_same_bytes_made_in_the_download_process(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    club, token = make_club(client)
    play_night(client, club, token, date="2026-01-13")
    play_night(client, club, token, date="2026-02-10", substitutes={"Dee": "Zoe"})
    paid = client.post(
        f"/api/clubs/{club}/payments", json={"player": "Ann", "amount": "10"}, headers=token
    )
    assert paid.status_code == 200, paid.text
    html, pdf = drawn_here(client, club)
    assert b"<td>Zoe (sub)</td>" in html and pdf[:4] == b"%PDF"
    no_drawing_here(monkeypatch)  # the files below can only come from another process
    share = client.post(f"/api/clubs/{club}/shares", json={"season": "2026"}, headers=token)
    assert share.status_code == 201, share.text
    share_token = share.json()["url"].split("token=")[1]

    page = client.get(f"/api/clubs/{club}/download/season.html", headers=token)
    assert page.status_code == 200, page.text
    assert page.content == html
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert (
        page.headers["content-disposition"] == f'inline; filename="bunco-club-{club}-season.html"'
    )
    shared = client.get(f"/api/clubs/{club}/download/season.html?token={share_token}")
    assert shared.status_code == 200 and shared.content == html
    paper = client.get(f"/api/clubs/{club}/download/season.pdf", headers=token)
    assert paper.status_code == 200, paper.text
    assert paper.content == pdf
    assert paper.headers["content-type"] == "application/pdf"
    assert (
        paper.headers["content-disposition"]
        == f'attachment; filename="bunco-club-{club}-season.pdf"'
    )
    downloads: Downloads = client.app.state.downloads  # type: ignore[attr-defined]
    assert downloads.made == 2  # the share link's page came from the cache


def test_a_season_the_club_does_not_have_is_refused_with_404(client: TestClient) -> None:
    club, token = make_club(client)
    play_night(client, club, token, date="2026-01-13")
    for tail in ("season.html", "season.pdf", "standings.csv"):
        reply = client.get(f"/api/clubs/{club}/download/{tail}?season=1999", headers=token)
        assert reply.status_code == 404, (tail, reply.text)
        body = reply.json()
        assert body["error"] == "no_such_season"
        assert body["message"] == "Tuesday Club has no season '1999'"
        assert "'2026'" in body["expected"]
    begun = client.post(f"/api/clubs/{club}/seasons", json={"name": "2027"}, headers=token)
    assert begun.status_code == 200, begun.text
    old = client.get(f"/api/clubs/{club}/download/season.html?season=2026", headers=token)
    assert old.status_code == 200 and "Tuesday Club: 2026" in old.text
    assert "2026-01-13" in old.text  # the season's night, though a new season has begun
    now = client.get(f"/api/clubs/{club}/download/season.html", headers=token)
    assert now.status_code == 200 and "Tuesday Club: 2027" in now.text
    assert "2026-01-13" not in now.text
    # a club that never began a season has its first one, "Season 1", and no other
    other = client.post("/api/clubs", json={"name": "Friday Club", "regulars": ["Ann", "Bea"]})
    other_id, other_token = other.json()["club"], bearer(other.json()["token"])
    first = client.get(
        f"/api/clubs/{other_id}/download/season.pdf?season=Season 1", headers=other_token
    )
    assert first.status_code == 200 and first.content[:4] == b"%PDF"
    reply = client.get(
        f"/api/clubs/{other_id}/download/season.pdf?season=2026", headers=other_token
    )
    assert reply.status_code == 404 and reply.json()["error"] == "no_such_season"
    assert "'Season 1'" in reply.json()["expected"]


def test_a_new_club_event_or_night_makes_a_new_file_under_the_same_limits(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_pace=0)) as client:
        downloads = Downloads(per_token="3/hour")
        client.app.state.downloads = downloads  # type: ignore[attr-defined]
        club, token = make_club(client)
        play_night(client, club, token, date="2026-01-13")
        url = f"/api/clubs/{club}/download/season.html"
        first = client.get(url, headers=token)
        again = client.get(url, headers=token)
        assert first.status_code == again.status_code == 200
        assert first.content == again.content and downloads.made == 1  # from the cache
        assert "paid $0.00" in first.text  # nobody has paid yet
        client.post(
            f"/api/clubs/{club}/payments", json={"player": "Ann", "amount": "5"}, headers=token
        )
        paid = client.get(url, headers=token)
        assert paid.status_code == 200 and downloads.made == 2  # a new club event: made again
        assert paid.content != first.content and "paid $5.00" in paid.text
        play_night(client, club, token, date="2026-02-10")
        second = client.get(url, headers=token)
        assert second.status_code == 200 and downloads.made == 3
        assert "2026-02-10" in second.text and "2026-02-10" not in paid.text
        # the organizer's token has made three files: a fourth new one waits its hour
        refused = client.get(f"/api/clubs/{club}/download/season.pdf", headers=token)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"] == "too_many_downloads"
        assert 1 <= int(refused.headers["retry-after"]) <= 3600
        assert client.get(url, headers=token).content == second.content  # cached: free


SERVER_SIDE = """
import sys
sys.path.insert(0, {tests!r})
from fastapi.testclient import TestClient
from test_api_club import make_club, play_night
from bunco.web.app import create_app

if __name__ == "__main__":
    with TestClient(create_app({url!r}, bot_pace=0)) as client:
        club, token = make_club(client)
        play_night(client, club, token, date="2026-01-13")
        for tail in ("season.html", "season.pdf"):
            reply = client.get(f"/api/clubs/{{club}}/download/{{tail}}", headers=token)
            assert reply.status_code == 200, reply.text
        print("matplotlib" in sys.modules, client.app.state.downloads.made)
"""


def test_the_server_process_does_not_draw_the_charts(tmp_path: Path) -> None:
    """A server that served both season files never loaded matplotlib (the worker drew
    the charts; reportlab the server still loads with the club's other files' code)."""
    script = tmp_path / "serve_season.py"
    url = f"sqlite:///{tmp_path / 'club.sqlite3'}"
    script.write_text(SERVER_SIDE.format(tests=str(HERE), url=url))
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == ["False", "2"]
