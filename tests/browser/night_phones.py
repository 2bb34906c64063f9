"""A whole night played on the phones' pages: the scorekeepers' table pages and the host's.

The people in the room roll real dice; what they roll is decided here, by a fixed plan
per round and table (so every run is the same night), and entered on the pages the way a
scorekeeper would: a tally button, or the three faces typed with "Enter the dice", and
"who rolled it?" answered when the page asks. The test reads the night (GET with the
viewer token, as the big screen does) only to know what the room would see and to wait
until a page has caught up; every change goes through a page.

The plan, round ``r`` (the dice must show ``r``), tables 2 and 3 first, then the head
table's Bunco ends the round (or rings the bell):

* ``lead``: +1 then a miss: the scorekeeper's team leads 1-0;
* ``tie``: +1, miss, +1, miss: 1-1, a tie-break once the round ends;
* ``rolling``: a miss, then +2 for the other team, whose roller is still rolling at the
  bell (``classic`` and ``tournament``: that player finishes the turn);
* ``trips``: three of a kind (a Mini / Baby / High or Low Bunco: "who rolled it?"), then
  a miss.

After the round's end: a finishing turn ends with a miss; a tie-break is played by its
rule (sessions: the first roller scores 1, everyone else misses; roll-off to five: +2 until
the side has 5; sudden death: the first roll showing the round's number).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import host_tab

PLANS = ("lead", "rolling", "tie", "trips")
PLAN_STEPS = {
    "lead": ["+1", "miss"],
    "tie": ["+1", "miss", "+1", "miss"],
    "rolling": ["miss", "+2"],
    "trips": ["trips", "miss"],
}


def type_dice(page: Page, faces: Sequence[int]) -> None:
    """Type ``faces`` on the table page's dice (opened first if folded) and enter them."""
    if page.locator("#faces").is_hidden():
        page.click("#faces-toggle")
    for die, face in enumerate(faces, start=1):
        page.locator("#dicepick").get_by_role(
            "button", name=f"Die {die} shows {face}", exact=True
        ).click()
    page.click("#faces-enter")


def order_dice(i: int) -> list[int]:
    """The dice of the ``i``-th player to roll for high or for order: totals 17, 16, 15…
    (never a tie among twelve), never three of a kind.

    >>> [sum(order_dice(i)) for i in range(4)], order_dice(0)
    ([17, 16, 15, 14], [6, 6, 5])
    """
    total = 17 - i % 12
    a = min(6, total - 2)
    b = min(6, total - a - 1)
    c = total - a - b
    return [a, b, c] if not a == b == c else [a, b + 1, c - 1]


def names(players: list[str]) -> str:
    """The pages' way to list names: "Ann", "Ann & Bea", "Ann, Bea & Cat"."""
    if len(players) <= 1:
        return "".join(players)
    return f"{', '.join(players[:-1])} & {players[-1]}"


def dice_for(outcome: str, r: int) -> list[int]:
    """Real dice that score ``outcome`` in round ``r`` (never three of a kind unless asked)."""
    other = [f for f in range(1, 7) if f != r]
    if outcome == "miss":
        return other[:3]
    if outcome == "+1":
        return [other[0], r, other[1]]
    if outcome == "+2":
        return [r, other[2], r]
    if outcome == "bunco":
        return [r, r, r]
    if outcome == "trips":
        face = 6 if r != 6 else 5
        return [face, face, face]
    raise ValueError(outcome)


def wait_for(check: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    """Poll ``check`` until it returns something true; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.03)


@dataclass
class Room:
    """The night's phones: ``tables`` (number → scorekeeper page) and ``host``; ``read``
    returns the night as the viewer sees it (GET /api/nights/{id})."""

    read: Callable[[], dict[str, Any]]
    tables: dict[int, Page]
    host: Page
    typed: set[int] = field(default_factory=set)  # tables whose scorekeeper types the dice
    any_table_ends: bool = False  # a Bunco at any table ends the round (winning-moves)
    undo_round: int = 5  # the host undoes the entry that ended this round, once
    undone: int = 0
    entries: int = 0
    rolloffs: int = 0  # rolls entered on the host page
    tie_breaks: set[str] = field(default_factory=set)  # the rules of the tie-breaks played
    done: dict[tuple[int, int, int], int] = field(default_factory=dict)  # plan steps entered

    # -- waiting for the pages -------------------------------------------------------------
    def after(self, seq: int) -> dict[str, Any]:
        """The night once an entry past ``seq`` is stored."""
        state: dict[str, Any] = wait_for(
            lambda: (s := self.read())["seq"] > seq and s, f"an event after seq {seq}"
        )
        return state

    def table_ready(self, n: int, state: dict[str, Any]) -> Page:
        """Table ``n``'s phone, once it shows what the server's view says (round, status,
        whose turn): so a tap goes where the scorekeeper means it to."""
        page = self.tables[n]
        view = state["view"]
        t = view["tables"][n - 1]
        body = page.locator("body")
        expect(body).to_have_attribute("data-set", str(view["set"]))
        expect(body).to_have_attribute("data-round", str(view["round"]))
        expect(body).to_have_attribute("data-status", t["status"])
        expect(body).to_have_attribute("data-roller", t["roller"] or "")
        expect(page.locator("#pending")).to_have_text("")
        return page

    def seat(self, n: int, state: dict[str, Any]) -> dict[str, Any]:
        """Table ``n``'s players moved: its phone shows "Everyone is seated — start" and
        offers no roll until it is tapped; returns the night after it."""
        page = self.table_ready(n, state)
        expect(page.locator("#taps")).to_be_hidden()
        page.click("#seated-ok")
        return self.after(state["seq"])

    # -- entering one roll -----------------------------------------------------------------
    def enter(self, n: int, outcome: str, state: dict[str, Any]) -> dict[str, Any]:
        """Enter ``outcome`` (a tally, or "trips"/"high" dice) at table ``n``: typed dice at
        a typing table or for three of a kind, else the tally button; answer "who rolled
        it?" with the player whose turn it is. Returns the night after it."""
        if n in state["view"].get("seating_waits", []):
            state = self.seat(n, state)
        page = self.table_ready(n, state)
        t = state["view"]["tables"][n - 1]
        r = state["view"]["round"]
        dice = outcome.startswith("high:") or outcome == "trips" or n in self.typed
        if dice:
            faces = (
                [int(x) for x in outcome[5:].split(",")]
                if outcome.startswith("high:")
                else dice_for(outcome, r)
            )
            totals = page.locator("#high-totals")
            if t["rolling_for_high"]:  # the page says why, and asks for the dice's total
                expect(page.locator("#turn-text")).to_have_text(
                    re.compile(rf"^(Tie! )?{re.escape(t['roller'])} rolls for high$")
                )
                expect(totals).to_be_visible()  # real dice: one tap, the total they show
                totals.locator(f'button[data-total="{sum(faces)}"]').click()
            else:
                type_dice(page, faces)
            asks = faces[0] == faces[1] == faces[2] and faces[0] in (t["asks_who"] or [])
        else:
            page.click(f"#taps [data-outcome='{outcome}']")
            tap = next(x for x in t["taps"] if x["outcome"] == outcome)
            asks = tap["asks_who"]
        if asks:
            expect(page.locator("#who")).to_be_visible()
            page.locator(f"#who-choices [data-player='{t['roller']}']").click()
        self.entries += 1
        after = self.after(state["seq"])
        if after["view"]["round"] != r and after["view"]["phase"] == "playing":
            self.round_over(r)
            if r == self.undo_round and not self.undone:
                after = self.host_undo(n, r, after)
        return after

    def host_undo(self, n: int, r: int, state: dict[str, Any]) -> dict[str, Any]:
        """The entry that ended round ``r`` (at table ``n``) was a mistake: the host undoes
        it on the host page, after a question naming what reopens; every phone goes back
        to round ``r``, and the room enters the roll again."""
        host = self.host
        expect(host.locator("body")).to_have_attribute("data-round", str(state["view"]["round"]))
        host_tab(host, "tables")
        host.click(f"#overview [data-undo='{n}']")
        expect(host.locator("#confirm-text")).to_contain_text(
            re.compile(
                rf"Round {r}( of set \d)? reopens at every table; the new seating is cancelled\."
            )
        )
        host.click("#confirm-yes")
        after = self.after(state["seq"])
        assert after["view"]["round"] == r and after["view"]["phase"] == "playing"
        for page in [*self.tables.values(), host]:
            expect(page.locator("body")).to_have_attribute("data-round", str(r))
        self.undone += 1
        return after

    def round_over(self, r: int) -> None:
        """Every phone shows round ``r``'s end: the bell with the roll that ended it, the
        results and where everyone goes; the host page lists the moves."""
        for page in [*self.tables.values(), self.host]:
            expect(page.locator("#bell-text")).to_contain_text(f"Round {r} is over")
        for page in self.tables.values():
            expect(page.locator("#moves-box h2")).to_have_text(f"Round {r} results")
        expect(self.host.locator("#moves")).to_contain_text(f"Moves after round {r}")

    # -- the plan ---------------------------------------------------------------------------
    def plan(self, view: dict[str, Any], n: int) -> list[str]:
        r = view["round"] + 6 * (view["set"] - 1)
        steps = PLAN_STEPS[PLANS[(r + n) % len(PLANS)]]
        return steps

    def closer(self, view: dict[str, Any]) -> int:
        """The table whose Bunco ends the round: the head table, or (where a Bunco at any
        table ends it: ``winning-moves``) table 1, 2, 3 in turn."""
        if not self.any_table_ends:
            return 1
        return int((view["round"] - 1) % len(view["tables"]) + 1)

    def next_entry(self, state: dict[str, Any]) -> tuple[int, str] | None:
        """The next roll the room makes: (table, outcome), or None when no table rolls."""
        view = state["view"]
        waiting = {e["table"] for e in state["status"]["expects"] if e["table"] is not None}
        tables = {t["table"]: t for t in view["tables"] if t["table"] in waiting}
        for n, t in sorted(tables.items()):
            if t["rolling_for_high"]:  # who starts the round, or a tie-break's roll-off
                if t["status"] == "tie_break":
                    self.tie_breaks.add(t["tie_break"]["rule"])
                return n, "high:" + ",".join(map(str, order_dice(t["rolls"])))
        for n, t in sorted(tables.items()):
            if t["status"] == "finishing":
                return n, "miss"
            if t["status"] == "tie_break":
                self.tie_breaks.add(t["tie_break"]["rule"])
                return n, self.tie_break_entry(t)
        closer = self.closer(view)
        for n in sorted(tables, reverse=True):  # the other tables play their plan first
            key = (view["set"], view["round"], n)
            steps = self.plan(view, n) if n != closer else []
            if self.done.get(key, 0) < len(steps):
                self.done[key] = self.done.get(key, 0) + 1
                return n, steps[self.done[key] - 1]
        if closer in tables:
            return closer, "bunco"
        n = min(tables) if tables else None
        return (n, "miss") if n is not None else None

    @staticmethod
    def tie_break_entry(t: dict[str, Any]) -> str:
        tb = t["tie_break"]
        if tb["rule"] == "sudden_death":
            return "+1"
        if tb["rule"] == "roll_off_to_five":
            return "+2"
        return "miss" if t["in_turn"] or sum(tb["points"]) > 0 else "+1"

    def play_until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Roll at the tables until ``done(state)``; returns the night then."""
        state = self.read()
        for _ in range(400):  # a 12-player night takes about 60 to 140
            if done(state):
                return state
            if state["view"]["phase"] == "rolloff":  # a set's winner, between sets
                state = self.host_rolloffs(self.host)
                continue
            if self.bell_due(state):
                state = self.ring_start(state)
            step = self.next_entry(state)
            assert step is not None, f"no table rolls, yet the night goes on: {state['status']}"
            state = self.enter(*step, state)
        raise AssertionError("the night did not end")

    # -- the head table's starting bell -------------------------------------------------------
    @staticmethod
    def bell_due(state: dict[str, Any]) -> bool:
        """The head table rings the bell to start the even rounds (it is optional: the odd
        rounds start with their first roll)."""
        view = state["view"]
        return bool(
            view["phase"] == "playing"
            and not view["started"]
            and view["last_round"]
            and view["round"] % 2 == 0
        )

    def ring_start(self, state: dict[str, Any]) -> dict[str, Any]:
        """Table 1's scorekeeper rings the starting bell; the other tables hear it."""
        r = state["view"]["round"]
        page = self.table_ready(1, state)
        expect(page.locator("#start-round")).to_have_text(f"Ring the bell: start round {r}")
        page.click("#start-round")
        after = self.after(state["seq"])
        for n, other in self.tables.items():
            if n != 1:
                expect(other.locator("#toasts")).to_contain_text(
                    f"The head table rang the bell: round {r} starts"
                )
        expect(page.locator("#start-box")).to_be_hidden()
        return after

    # -- the host's roll-offs ----------------------------------------------------------------
    def host_rolloffs(self, host: Page) -> dict[str, Any]:
        """Every roll-off at no table (a set's winner, a tied prize), typed on the host page:
        distinct totals for the order, then the first roller's Bunco (21: past 5)."""
        state = self.read()
        while state["view"]["phase"] == "rolloff":
            ro = state["view"]["rolloff"]
            who = ro["roller"]
            box = host.locator("#rolloff-box")
            expect(box.locator(".turn")).to_have_text(f"{who} rolls")
            expect(host.locator("#rolloff-enter")).to_have_text(f"Enter {who}'s dice")
            if ro["rolling_for_order"]:
                faces = order_dice(ro["players"].index(who))
            else:
                faces = [ro["round"]] * 3
            for die, face in enumerate(faces, start=1):
                box.get_by_role("button", name=f"Die {die} shows {face}", exact=True).click()
            host.click("#rolloff-enter")
            self.rolloffs += 1
            state = self.after(state["seq"])
        return state
