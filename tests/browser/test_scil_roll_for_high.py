"""scil's roll for high in one tap per player, in Chromium at 390x844: the table's phone
offers "Roll for high for Ann" (the phone rolls: the dice that decide who starts need no
typing), so four players take four taps where typing the faces took sixteen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Pages, Server, audit, open_table

pytestmark = pytest.mark.browser


def test_scil_roll_for_high_takes_one_tap_per_roll(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "SCIL high", "rules": "scil", "players": ["Ann", "Bea", "Cat", "Dee"]},
    )
    table = open_table(pages, created, 1)
    table.set_viewport_size(PHONE)
    body = table.locator("body")
    expect(body).to_have_attribute("data-status", "first_roll")
    button = table.locator("#roll-for-me")
    expect(button.locator(".label")).to_have_text("Roll for high for Ann")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 300  # a big tap
    assert audit(table) == []
    taps = 0
    seen: list[str] = []
    while body.get_attribute("data-status") == "first_roll":
        name = (button.locator(".label").text_content() or "").removeprefix("Roll for high for ")
        seen.append(name)
        button.click()
        taps += 1
        expect(table.locator("#pending")).to_have_text("")
        assert taps <= 12, "the roll for high did not end"
        table.wait_for_function(
            "([n, b]) => document.body.dataset.status !== 'first_roll'"
            " || document.querySelector('#roll-for-me .label').textContent !== b",
            arg=[taps, f"Roll for high for {name}"],
        )
    expect(table.locator("#roll-for-me .label")).to_have_text("Roll for me")
    # every tap was one roll for high, and each player rolled once before any tie re-roll
    assert seen[:4] == ["Ann", "Dee", "Cat", "Bea"]
    assert taps >= 4
    state = server.state(created["night"], created["host_token"])
    assert state["view"]["tables"][0]["status"] == "playing"
    assert state["view"]["tables"][0]["rolls"] == taps  # one tap, one roll for high: no typing
