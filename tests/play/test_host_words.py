"""The host's words at the ``bunco play`` prompt: verify, judge, absent, break, draw, close."""

from __future__ import annotations

from typing import Any

import pytest

from bunco.core.errors import BuncoError, NotAllowedNow
from bunco.core.night import Night
from bunco.play.commands import parse_command
from bunco.play.driver import Driver, play_auto
from bunco.play.host_words import HostWordError, parse_host_word, run_host_word

FOUR = ["Ann", "Bea", "Cat", "Dee"]
PARTY: dict[str, Any] = {
    "type": "party",
    "rules": "tournament",
    "players": FOUR,
    "seed": 3,
    "groups": {"Team 1": ["Ann", "Bea"], "Team 2": ["Cat", "Dee"]},
    "prize_ties": "shared",
    "judged": ["Best Costume"],
    "must_be_present": True,
}


def said(driver: Driver, line: str) -> str:
    command = parse_command(line, physical=True)
    assert command.kind == "host" and command.host is not None
    return run_host_word(driver, command.host)


def test_the_host_words_become_events_of_the_log() -> None:
    events: list[Any] = []
    driver = Driver.new(PARTY, events.append)
    assert said(driver, "verify Ann by Staff 1") == "✓ verified: Ann"
    assert driver.night.verifications["Ann"].checker == "Staff 1"
    assert said(driver, "verify all") == "✓ verified: Ann, Bea, Cat, Dee"
    said(driver, "judge best costume Team 1: Bea, Ann")
    assert driver.night.host.judged[("best_costume", "Team 1")] == ("Bea", "Ann")
    said(driver, "judge group best costume: Team 2")
    assert driver.night.host.judged[("group_best_costume", None)] == ("Team 2",)
    said(driver, "absent Dee")
    assert driver.night.host.absent == {"Dee"}
    said(driver, "present Dee")
    assert said(driver, "break 10") == "✓ the break begins"
    assert driver.night.host.break_ is not None and driver.night.host.break_.minutes == 10
    said(driver, "endbreak")
    line = said(driver, "draw Door prize")
    drawing = driver.night.host.drawings[0]
    assert drawing.name == "Door prize" and drawing.winner in FOUR and drawing.winner in line
    assert [e["type"] for e in events] == ["verify"] * 5 + [
        "judge",
        "judge",
        "absent",
        "present",
        "break",
        "end_break",
        "drawing",
    ]


def test_bad_host_words_say_what_to_type() -> None:
    driver = Driver.new(PARTY)
    with pytest.raises(HostWordError, match="judge needs a prize, a colon"):
        parse_host_word("judge Ann")
    with pytest.raises(HostWordError, match="minutes are a whole number"):
        parse_host_word("break soon")
    with pytest.raises(HostWordError, match="is judged per group"):
        said(driver, "judge best costume: Ann")
    with pytest.raises(BuncoError, match="not a player tonight"):
        said(driver, "absent Zed")
    with pytest.raises(NotAllowedNow, match="no cards to close"):
        said(driver, "close")


def test_close_names_the_cards_not_verified_then_closes_them() -> None:
    events: list[Any] = []
    party = {**PARTY, "house_rules": {"verify_for_prizes": True}}
    play_auto(Driver.new(party, events.append))
    last_roll = max(i for i, e in enumerate(events) if e["type"] == "roll" and "table" in e)
    night = Night.start(party).apply_all(events[: last_roll + 1])  # before the staff's check
    driver = Driver.of(night)
    said(driver, "verify Ann")
    with pytest.raises(NotAllowedNow, match="not verified as they stand: Bea, Cat, Dee"):
        said(driver, "close")
    assert said(driver, "close yes") == "✓ the cards are closed: the prizes are decided"
    assert driver.night.host.closed_unverified == ("Bea", "Cat", "Dee")
    assert driver.night.prizes
