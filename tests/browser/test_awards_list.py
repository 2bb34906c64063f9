"""The results page lists the prizes the host judged, and any prize passed over someone,
from the server's word on each award (``by_cards``), not from a list of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import Pages, Server

pytestmark = pytest.mark.browser
FOUR = ["Ann", "Bea", "Cat", "Dee"]


def test_the_judged_prize_is_listed_and_the_card_prizes_are_not(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Costume night",
            "rules": "classic",
            "players": FOUR,
            "tables": [FOUR],
            "prizes": ["most_buncos", "last_bunco"],
            "judged": ["Best Costume"],
        },
    )
    nid, token = created["night"], created["host_token"]
    base = f"/api/nights/{nid}"
    n = 0
    for r in range(1, 7):  # each round Ann rolls a Bunco (21, the round ends) then a miss
        for dice in ([r, r, r], [f for f in range(1, 7) if f != r][:3]):
            n += 1
            server.api(
                "POST",
                f"{base}/tables/1/rolls",
                token,
                json={"command_id": f"awards-{n}", "dice": dice},
            )
    server.api(
        "POST",
        f"{base}/judged",
        token,
        json={"command_id": "awards-judge", "prize": "best_costume", "winner": "Cat"},
    )
    awards = server.state(nid, token)["view"]["awards"]
    assert [(a["prize"], a["by_cards"]) for a in awards] == [
        ("most_buncos", True),
        ("last_bunco", True),
        ("best_costume", False),
    ]
    end = pages.open(f"/n/{nid}/end?token={token}", name="end")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    listed = end.locator("#awards-list li")
    expect(listed).to_have_count(1)
    expect(listed).to_have_attribute("data-prize", "best_costume")
    expect(listed).to_contain_text("Best Costume: Cat")
