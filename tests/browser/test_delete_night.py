"""The host deletes the night from the host page once it is over: the page asks first
(what is lost, and the results to download before), then the night is gone and its links
stop working."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server, axe, host_tab, shoot

pytestmark = pytest.mark.browser


def over_night(server: Server) -> dict[str, str]:
    """A four-player night played to its end through the API (no prizes: no roll-off)."""
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "Delete me", "players": ["Ann", "Bea", "Cat", "Dee"], "prizes": []},
    )
    night, host = created["night"], created["host_token"]
    for r in range(1, 7):
        miss = [f for f in range(1, 7) if f != r][:2]
        for n, dice in enumerate(([r, r, r], [miss[0], miss[0], miss[1]])):
            server.api(
                "POST",
                f"/api/nights/{night}/tables/1/rolls",
                host,
                json={"command_id": f"del-{r}-{n}", "dice": dice},
            )
    return {"night": night, "host": host, "viewer": created["viewer_token"]}


def test_the_host_deletes_the_night_at_its_end(pages: Pages, server: Server) -> None:
    playing = server.api(
        "POST", "/api/nights", json={"players": ["Ann", "Bea", "Cat", "Dee"], "prizes": []}
    )
    during = pages.open(f"/night/{playing['night']}?token={playing['host_token']}", name="playing")
    expect(during.locator("body")).to_have_attribute("data-phase", "playing")
    expect(during.locator("#delete-card")).to_be_hidden()  # not offered during the night

    night = over_night(server)
    host = pages.open(f"/night/{night['night']}?token={night['host']}", name="host")
    expect(host.locator("body")).to_have_attribute("data-phase", "over")
    host_tab(host, "more")  # deleting is no step of the night: under More
    card = host.locator("#delete-card")
    expect(card).to_be_visible()
    card.scroll_into_view_if_needed()
    shoot(host, "delete-night-card", ("phone",))
    host.locator("#delete-night").click()
    dialog = host.locator("#delete-confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Nobody can bring it back")
    expect(dialog).to_contain_text("Every link, QR code and join code")
    results = host.locator("#delete-results")
    assert f"/api/nights/{night['night']}/download/standings.csv?token=" in (
        results.get_attribute("href") or ""
    )
    download = server.call("GET", results.get_attribute("href") or "")
    assert download.status_code == 200 and "Ann" in download.text  # it works before
    assert not [v for v in axe(host) if v["impact"] in ("serious", "critical")]
    shoot(host, "delete-night-ask", ("phone",))
    host.locator("#delete-no").click()  # "Keep it": nothing happens
    expect(dialog).to_be_hidden()
    assert server.call("GET", f"/api/nights/{night['night']}", night["host"]).status_code == 200

    host.locator("#delete-night").click()
    host.locator("#delete-yes").click()
    expect(host.locator("#deleted-card")).to_contain_text("The night is deleted")
    shoot(host, "delete-night-done", ("phone",))
    assert server.call("GET", f"/api/nights/{night['night']}", night["host"]).status_code == 401
    kept = host.evaluate("() => Object.keys(localStorage)")
    assert not [k for k in kept if night["night"] in k]
    assert not [v for v in axe(host) if v["impact"] in ("serious", "critical")]
