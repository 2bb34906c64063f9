"""The host's "Close the cards and give the prizes" (issue 22): on a night whose prizes
count verified cards only, after the last round the host may give the prizes with cards
still unverified, after a warning that names them.

Cancelling the warning sends nothing: the prizes stay undecided. Confirming closes the
cards: the prizes are decided from the cards as verified, and the night records whose
cards were closed unverified.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, expect

from .api_rolls import play_out
from .conftest import Pages, Server, audit

pytestmark = pytest.mark.browser
EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]


def test_closing_the_cards_names_the_unverified_and_cancel_sends_nothing(
    pages: Pages, server: Server
) -> None:
    created = server.api(
        "POST",
        "/api/nights",
        json={
            "name": "Close the cards",
            "rules": "tournament",
            "players": EIGHT,
            "groups": {"Team 1": EIGHT[:4], "Team 2": EIGHT[4:]},
            "prize_ties": "shared",
        },
    )
    nid, host = created["night"], created["host_token"]
    play_out(server, nid, host, "c")  # every round, the server rolling
    for player in EIGHT[:5]:  # the staff verified five cards; Fay, Gus and Hal are not
        server.api(
            "POST",
            f"/api/nights/{nid}/verifications",
            host,
            json={"command_id": f"v-{player}", "player": player, "checker": "Staff"},
        )
    view = server.state(nid, host)["view"]
    assert view["verification"]["awaiting"] == ["Fay", "Gus", "Hal"]
    assert view["prize_winners"] == [] and view["prizes_status"]

    page = pages.open(f"/n/{nid}/host?token={host}", name="host-close")
    expect(page.locator("body")).to_have_attribute("data-ready", "yes")
    expect(page.locator("#close-box")).to_be_visible()
    expect(page.locator("#close-note")).to_have_text(
        "The prizes wait for the staff to verify the cards of Fay, Gus, Hal."
    )
    assert audit(page) == []

    warnings: list[str] = []

    def answer(accept: bool):  # type: ignore[no-untyped-def]
        def handle(dialog: Dialog) -> None:
            warnings.append(dialog.message)
            if accept:
                dialog.accept()
            else:
                dialog.dismiss()

        return handle

    page.once("dialog", answer(False))
    page.click("#close-cards")
    assert warnings == [
        "Not verified as they stand: Fay, Gus, Hal. These cards will count "
        "only what was verified of them (nothing, if never). Give the prizes now?"
    ]
    after = server.state(nid, host)["view"]
    assert after["prize_winners"] == [] and after["verification"]["closed_unverified"] is None
    expect(page.locator("#close-box")).to_be_visible()

    page.once("dialog", answer(True))
    page.click("#close-cards")
    expect(page.locator("#close-box")).to_be_hidden()
    assert len(warnings) == 2 and "Fay, Gus, Hal" in warnings[1]
    done = server.state(nid, host)["view"]
    assert done["verification"]["closed_unverified"] == ["Fay", "Gus", "Hal"]
    assert done["prize_winners"] and done["prizes_status"] is None
    assert all(r["status"] in ("won", "nobody") for r in done["prize_winners"])
    for name in ("Fay", "Gus", "Hal"):  # they count what was verified of them: nothing
        assert all(name not in r["handed_to"] for r in done["prize_winners"]), name

    end = pages.open(f"/n/{nid}/end?token={host}", name="end-closed")
    expect(end.locator("body")).to_have_attribute("data-ready", "yes")
    expect(end.locator("#verify-note")).to_contain_text(
        "The host closed the cards with these not verified: Fay, Gus, Hal."
    )
    expect(end.locator("#handed-list article[data-prize]")).to_have_count(
        len(done["prize_winners"])
    )
    assert not pages.errors
