"""The page routes and their JSON helpers, without a browser (these run everywhere)."""

from __future__ import annotations

import json
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx`")
from fastapi.testclient import TestClient  # noqa: E402

from bunco.web.app import create_app  # noqa: E402

PAGES = ["/", "/join", "/join/ABC234", "/night/x1", "/n/x1/host", "/n/x1/table/2",
         "/n/x1/player", "/n/x1/screen", "/n/x1/end"]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app("sqlite://", bot_pace=0)) as c:
        yield c


@pytest.mark.parametrize("path", PAGES)
def test_each_page_is_html_with_safe_headers(client: TestClient, path: str) -> None:
    reply = client.get(path)
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    assert reply.headers["referrer-policy"] == "no-referrer"
    csp = reply.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'self'" in csp
    # every script and stylesheet is served by this server (no CDN, no inline script)
    assert "<script type=\"module\" src=\"/static/js/" in reply.text
    assert "http://" not in reply.text.replace("http://www.w3.org", "")
    assert "https://" not in reply.text


def test_static_files_of_every_page_exist(client: TestClient) -> None:
    import re

    for path in PAGES:
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', client.get(path).text):
            assert client.get(asset).status_code == 200, asset


def test_presets_document(client: TestClient) -> None:
    data = client.get("/pages/presets.json").json()
    names = [p["name"] for p in data["presets"]]
    assert names == ["winning-moves", "classic", "scil", "tournament"]
    classic = data["presets"][1]
    assert classic["summary"].startswith("the usual party")
    assert classic["rules"]["after_bell"] == "finish_turn"
    fields = {f["name"]: f for f in data["fields"]}
    assert fields["wipeout"]["kind"] == "bool"
    assert fields["tie_break"]["choices"] == ["sessions", "roll_off_to_five", "sudden_death"]
    assert fields["low_trips_kind"]["choices"] == ["mini_bunco", "low_bunco", "high_bunco"]
    assert {"name": "last_bunco", "label": "Last Bunco"} in data["prizes"]


def test_rules_resolve_preset_and_house_rules(client: TestClient) -> None:
    reply = client.get("/pages/rules.json", params={
        "preset": "wm", "house": json.dumps({"wipeout": True, "prizes": ["most_buncos"]})})
    rules = reply.json()["rules"]
    assert rules["name"] == "winning-moves" and rules["wipeout"] is True
    assert rules["low_trips_kind"] == "low_bunco" and rules["prizes"] == ["most_buncos"]


@pytest.mark.parametrize(("params", "error"), [
    ({"preset": "nope"}, "unknown_preset"),
    ({"preset": "classic", "house": "{"}, "invalid_request"),
    ({"preset": "classic", "house": "[1]"}, "invalid_request"),
    ({"preset": "classic", "house": '{"colour": 1}'}, "unknown_rule"),
])
def test_rules_refuse_bad_input(client: TestClient, params: dict[str, str], error: str) -> None:
    reply = client.get("/pages/rules.json", params=params)
    assert reply.status_code == 422
    assert reply.json()["error"] == error
    assert reply.json()["expected"]
