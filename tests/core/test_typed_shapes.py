"""The typed shapes the core hands out name exactly the keys its values carry, in the order
the log and the report write them (issue 39: one vocabulary)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bunco.core.awards import AwardView
from bunco.core.cards import CardView
from bunco.core.corrections import normalize_correction
from bunco.core.errors import InvalidSetup
from bunco.core.events import _dice
from bunco.core.host_shapes import HostReport
from bunco.core.hosting import host_report
from bunco.core.money_shapes import LeftOver, NightMoney, PaidTo, Payout, PrizeMoney
from bunco.core.night import Night
from bunco.core.party_setup import PartySetup
from bunco.core.prizes import PrizeView
from bunco.core.settlement import prize_money
from bunco.core.setup import normalize_setup
from bunco.core.verification import VerificationReport, verification_report
from bunco.play.demo import play_demo


def _keys_fit(value: Mapping[str, object], shape: Any) -> bool:
    """Every required key of ``shape`` (a TypedDict) is in ``value``, and no key ``shape``
    does not name."""
    required: frozenset[str] = shape.__required_keys__
    optional: frozenset[str] = shape.__optional_keys__
    return required <= set(value) <= required | optional


@pytest.fixture(scope="module")
def demo_night() -> Night:
    """The sample night: eight players, classic rules, prize money, played to the end."""
    return play_demo(lambda event: None)


def test_a_full_party_line_keeps_the_logs_key_order() -> None:
    party = normalize_setup(
        {
            "players": ["Ann", "Bea", "Cat", "Dee"],
            "rules": "classic",
            "money": {"buy_in": "5", "payouts": [{"prize": "most_buncos", "share": "50%"}]},
            "judged": ["Best Costume"],
            "house_rules": {"wipeout": True},
            "seed": 7,
            "name": "Friday",
            "must_be_present": True,
        }
    )
    assert _keys_fit(party, PartySetup)
    assert list(party) == [
        "type",
        "rules",
        "house_rules",
        "players",
        "sets",
        "name",
        "seed",
        "must_be_present",
        "judged",
        "money",
    ]
    assert party["money"] == {
        "currency": "$",
        "buy_in": "5.00",
        "top_up": False,
        "payouts": [{"prize": "most_buncos", "share": "50%"}],
    }


def test_a_house_rule_given_as_an_object_is_refused_at_the_party_line() -> None:
    with pytest.raises(InvalidSetup) as caught:
        normalize_setup({"players": ["Ann", "Bea"], "house_rules": {"traveling": {"name": "Bea"}}})
    assert "house rule 'traveling'" in caught.value.message
    assert caught.value.expected == "true or false, a number, a text, or a list of them"


def test_the_nights_money_has_the_keys_its_types_name(demo_night: Night) -> None:
    data = prize_money(demo_night)
    money = data["money"]
    assert money is not None
    assert list(money) == list(NightMoney.__annotations__)
    assert money["pot"] == "40.00" and money["final"] is True
    assert data["payouts"] and all(_keys_fit(p, Payout) for p in data["payouts"])
    assert all(_keys_fit(p, PrizeMoney) for p in money["prizes"])
    assert all(_keys_fit(p, PaidTo) for prize in money["prizes"] for p in prize["paid_to"])
    assert all(_keys_fit(line, LeftOver) for line in money["left_over"])
    assert all(list(a) == list(AwardView.__annotations__) for a in data["awards"])


def test_the_reports_views_have_the_keys_their_types_name(demo_night: Night) -> None:
    cards = [c.as_dict() for c in demo_night.cards.values()]
    assert all(list(c) == list(CardView.__annotations__) for c in cards)
    assert sum(c["buncos"] for c in cards) == sum(c.buncos for c in demo_night.cards.values())
    assert all(list(p.as_dict()) == list(PrizeView.__annotations__) for p in demo_night.prizes)
    assert list(verification_report(demo_night)) == list(VerificationReport.__annotations__)
    report = host_report(demo_night)
    assert list(report) == list(HostReport.__annotations__)
    assert report["break"] is None and report["absent"] == []


@pytest.mark.parametrize(
    ("change", "fields", "keys"),
    [
        ("winner", {"player": "Ann"}, ["player"]),
        ("move", {"player": "Ann", "roll": 2}, ["player", "roll"]),
        ("add_roll", {"player": "Ann", "dice": [3, 3, 3]}, ["player", "dice"]),
        ("remove_roll", {"roll": 4}, ["roll"]),
    ],
)
def test_a_correction_keeps_its_canonical_key_order(
    change: str, fields: dict[str, object], keys: list[str]
) -> None:
    given = {"by": "Bea", "reason": " typo ", **fields, "change": change}
    event = normalize_correction(
        {"type": "correct", "of_table": 2, "round": 3, "set": 1, **given}, _dice
    )
    head = ["type", "set", "round", "of_table", "change"]
    assert list(event) == [*head, *keys, "reason", "by"]
    assert event["type"] == "correct" and event.get("reason") == "typo"
