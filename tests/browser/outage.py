"""Helpers of the outage tests: a table's phone taken offline (Playwright's
``context.set_offline``), its outbox read from the phone's storage, and the server's log
replayed to say exactly where each entry landed (set, round, table and the roller whose
turn it was), so a test counts tapped = stored in the right place, 0 duplicates, 0
misplaced."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Page, expect

from bunco.core.night import Night

from .conftest import Pages, Server, open_table

TWELVE = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jan", "Kim", "Lou"]
EIGHT = TWELVE[:8]


@dataclass(frozen=True)
class Landed:
    """Where a stored entry landed: the round and table, and whose turn it was."""

    set_no: int
    round_no: int
    table: int
    roller: str | None
    kind: str


def create(server: Server, *, players: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    created: dict[str, Any] = server.api(
        "POST", "/api/nights", json={"name": "Outage", "players": players or TWELVE, **extra}
    )
    return created


def open_ready(pages: Pages, created: dict[str, Any], table: int) -> Page:
    """Table ``table``'s page, once its service worker controls it (a reload offline then
    comes from the worker's copy)."""
    page = open_table(pages, created, table)
    page.wait_for_function(
        "() => Boolean(navigator.serviceWorker && navigator.serviceWorker.controller)",
        timeout=15_000,
    )
    return page


PROBE = "() => fetch('/api/health', {cache: 'no-store'}).then(() => 'online', () => 'offline')"


def offline(page: Page, value: bool = True) -> None:
    """Take the phone offline (or back online), and wait until its requests feel it (the
    emulation reaches a page's service worker a moment later than the page)."""
    page.context.set_offline(value)
    wanted = "offline" if value else "online"
    for _ in range(100):
        if page.evaluate(PROBE) == wanted:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the phone did not go {wanted}")


def seated_first(page: Page) -> None:
    """Between rounds the players move first: if the phone asks, tap "Everyone is seated —
    start" and wait until it offers the round's taps."""
    button = page.locator("#seated-ok")
    if button.is_visible():
        button.click()
        expect(page.locator("#taps")).to_be_visible()


def tap(page: Page, outcome: str) -> None:
    """Tap a tally button as the scorekeeper does; "who rolled it?" is answered with the
    player whose turn the page shows."""
    seated_first(page)
    page.click(f"#taps [data-outcome='{outcome}']")
    dialog = page.locator("#who")
    if outcome in ("bunco", "mini", "low", "high") and dialog.is_visible():
        dialog.locator("#who-choices .btn.expected").click()


def outbox(page: Page, night: str, table: int) -> list[dict[str, Any]]:
    """The entries the phone's outbox holds now (waiting and refused)."""
    raw = page.evaluate(f"localStorage.getItem('bunco:outbox:{night}:{table}')")
    entries: list[dict[str, Any]] = json.loads(raw)["entries"] if raw else []
    return entries


def drained(page: Page) -> None:
    """Wait until the page's outbox holds nothing waiting."""
    expect(page.locator("body")).to_have_attribute("data-unsent", "0", timeout=30_000)


def landed(server: Server, night: str, token: str) -> dict[str, Landed]:
    """Every stored roll and tally, by command id: replayed with the engine to know the
    round, the table and the roller whose turn it was where it was applied (an entry
    from before the bell: where the fold placed it, before the bell)."""
    events = server.api("GET", f"/api/nights/{night}/events?since=-1", token)["events"]
    state = Night.start(events[0]["event"])
    out: dict[str, Landed] = {}
    ids: Counter[str] = Counter()
    for envelope in events[1:]:
        event = envelope["event"]
        number = envelope["table"]
        after = state.apply(event)
        if event["type"] in ("roll", "tally") and number is not None:
            roller = state.tables[number - 1].roller
            if event.get("before_bell"):
                roller = _placed(state, after, number)
            if envelope["command_id"] is not None:
                out[envelope["command_id"]] = Landed(
                    state.set_no, state.round_no, number, roller, event["type"]
                )
                ids[envelope["command_id"]] += 1
        state = after
    assert all(n == 1 for n in ids.values()), "a command id stored twice"
    return out


def _placed(before: Night, after: Night, number: int) -> str:
    """Who rolled the entry placed before the bell at table ``number``: the record that
    the fold put among the table's rolls."""
    ended = len(after.history) > len(before.history)
    was = list(before.tables[number - 1].rolls)
    now = list((after.history[-1] if ended else after).tables[number - 1].rolls)
    at = next((i for i, (a, b) in enumerate(zip(was, now, strict=False)) if a != b), len(was))
    return now[at].roller


def check_placed(tapped: list[dict[str, Any]], stored: dict[str, Landed]) -> int:
    """Each entry the phone tapped that the server stored landed where it was tapped:
    its set, round, table, and the roller the page showed. Returns how many were stored."""
    count = 0
    for entry in tapped:
        where = stored.get(entry["id"])
        if where is None:
            continue
        count += 1
        t = entry["tapped"]
        assert (where.set_no, where.round_no, where.table) == (t["set"], t["round"], t["table"])
        if "roller" in t:
            assert where.roller == t["roller"], (entry["label"], where, t)
    return count
