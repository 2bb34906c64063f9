"""scil's roll for high in one tap per player, in Chromium at 390x844. With phones rolling,
the table's phone offers "Roll for high for Ann" (the phone rolls: the dice that decide who
starts need no typing), so four players take four taps where typing the faces took
sixteen. With real dice, it asks "Ann rolled a total of" 3 … 18: one tap per player, and a
tie rolls again among those tied."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Pages, Server, audit, axe, open_table

pytestmark = pytest.mark.browser


def test_scil_roll_for_high_takes_one_tap_per_roll(pages: Pages, server: Server) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "SCIL high",
            "rules": "scil",
            "players": ["Ann", "Bea", "Cat", "Dee"],
            "dice": "phones",
        },
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


def test_scil_roll_for_high_with_real_dice_takes_one_tap_per_player(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={"name": "SCIL real", "rules": "scil", "players": ["Ann", "Bea", "Cat", "Dee"]},
    )
    table = open_table(pages, created, 1)
    table.set_viewport_size(PHONE)
    body = table.locator("body")
    expect(body).to_have_attribute("data-status", "first_roll")
    box = table.locator("#high-totals")
    expect(box.locator(".high-title")).to_have_text("Ann rolled a total of")
    buttons = box.locator("button[data-total]")
    expect(buttons).to_have_count(16)
    for n in (3, 18):
        size = box.locator(f'button[data-total="{n}"]').bounding_box()
        assert size is not None and size["height"] >= 48 and size["width"] >= 48
    last = box.locator('button[data-total="18"]').bounding_box()
    assert last is not None and last["y"] + last["height"] <= 844  # above the fold
    assert audit(table) == []
    assert [v["id"] for v in axe(table) if v["impact"] in ("serious", "critical")] == []

    def tap(total: int) -> str:
        who = (box.locator(".high-title").text_content() or "").removesuffix(" rolled a total of")
        box.locator(f'button[data-total="{total}"]').click()
        expect(table.locator("#pending")).to_have_text("")
        return who

    # 11, 6, 11, 4: the first and third tie and roll again, in their order; 8 beats 5
    seen = [tap(t) for t in (11, 6, 11, 4)]
    assert seen == ["Ann", "Dee", "Cat", "Bea"]
    expect(box.locator(".high-title")).to_have_text("Ann rolled a total of")
    assert tap(5) == "Ann"
    expect(box.locator(".high-title")).to_have_text("Cat rolled a total of")
    assert tap(8) == "Cat"
    expect(body).to_have_attribute("data-status", "playing")
    expect(box).to_be_hidden()
    expect(table.locator("#turn-text")).to_have_text("Cat rolls")
    state = server.state(created["night"], created["host_token"])
    assert state["view"]["tables"][0]["rolls"] == 6  # six taps, six entries: nothing typed
