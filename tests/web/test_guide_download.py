"""GET .../download/guide.pdf: the seating guide cards from the host page (host only,
cached per night version, a live viewer token for the QR codes, refused once over)."""

from __future__ import annotations

import subprocess
from concurrent.futures import ThreadPoolExecutor

import pytest
from web_helpers import make_night

TEN = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]


def text_of(data: bytes, tmp_path) -> str:
    path = tmp_path / "guide.pdf"
    path.write_bytes(data)
    return subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


@pytest.fixture
def threaded(client):
    """The files made on a thread of the test (the worker process's start costs seconds;
    tests/web/test_downloads.py covers the process itself)."""
    client.app.state.downloads._pool = ThreadPoolExecutor(1)
    return client


def test_guide_cards_follow_the_seating(threaded, tmp_path) -> None:
    client = threaded
    night = make_night(client, TEN, rules="scil")
    viewer = night.created["viewer_token"]
    url = night.url(f"/download/guide.pdf?viewer={viewer}")
    reply = client.get(url, headers=night.host)
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/pdf"
    assert "guide-cards.pdf" in reply.headers["content-disposition"]
    text = text_of(reply.content, tmp_path)
    assert [text.count(f"Table {n} of 3") for n in (1, 2, 3)] == [1, 1, 1]
    assert "Seat 1 · Ann (keeps score)" in text and "ghost (the partner rolls for it)" in text
    assert client.get(url, headers=night.host).content == reply.content  # the cached file

    # a substitute changes the seating (an event): the next download shows it
    sub = client.post(
        night.url("/substitutes"),
        json={"command_id": "sub-1", "out": "Bea", "in": "Zed"},
        headers=night.host,
    )
    assert sub.status_code == 200, sub.text
    text = text_of(client.get(url, headers=night.host).content, tmp_path)
    assert "Seat 2 · Zed" in text and "Bea" not in text


def test_guide_cards_refusals(client) -> None:
    night = make_night(client, TEN)
    viewer = night.created["viewer_token"]
    url = night.url(f"/download/guide.pdf?viewer={viewer}")
    assert client.get(url).status_code == 401
    refused = client.get(url, headers=night.viewer)  # the host's page prints them
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    missing = client.get(night.url("/download/guide.pdf"), headers=night.host)
    assert missing.status_code == 422
    # a token that is not this night's viewer token would print a QR code that opens nothing
    for wrong in (night.created["host_token"], "x" * 32):
        bad = client.get(night.url(f"/download/guide.pdf?viewer={wrong}"), headers=night.host)
        assert bad.status_code == 422 and bad.json()["error"] == "invalid_viewer", bad.text
        assert "viewer-links" in bad.json()["expected"]
    other = make_night(client, TEN)
    bad = client.get(
        night.url(f"/download/guide.pdf?viewer={other.created['viewer_token']}"),
        headers=night.host,
    )
    assert bad.status_code == 422


def test_no_guide_cards_once_the_night_is_over(client) -> None:
    night = make_night(client, ["Ann", "Bea"], house_rules={"single_table_target": 1, "prizes": []})
    assert night.roll(1, [1, 2, 3]).status_code == 200  # a point in round 1: Ann wins it
    assert night.roll(1, [2, 3, 4]).status_code == 200  # ... and finishes her turn
    ended = client.post(night.url("/end"), json={"command_id": "end-1"}, headers=night.host)
    assert ended.status_code == 200, ended.text
    assert night.state()["status"]["phase"] == "over"
    viewer = night.created["viewer_token"]
    reply = client.get(night.url(f"/download/guide.pdf?viewer={viewer}"), headers=night.host)
    assert reply.status_code == 409 and reply.json()["error"] == "night_over"
