"""POST /seating under scil's partner rule (issue 27): a seating that puts a partnership
of the round just played back together is refused with its own code, ``partner_rule``,
naming the rule (the host page then offers to seat them so anyway); the same seating with
``"overrides": ["no_repeat_partners"]`` is accepted and recorded; nothing is written by
the refusal."""

from __future__ import annotations

from typing import Any

from web_helpers import cid, make_night


def test_the_partner_rule_is_refused_by_name_and_overridden_on_purpose(client: Any) -> None:
    night = make_night(client, rules="scil")
    first = night.state()["view"]["next"]["tables"]
    night.play_round()
    before = night.seq()
    refused = client.post(
        night.url("/seating"), json={"command_id": cid(), "tables": first}, headers=night.host
    )
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["error"] == "partner_rule"
    assert "no_repeat_partners" in body["message"] and "two rounds in a row" in body["message"]
    assert '"overrides": ["no_repeat_partners"]' in body["expected"]
    assert night.seq() == before  # nothing written

    taken = client.post(
        night.url("/seating"),
        json={"command_id": cid(), "tables": first, "overrides": ["no_repeat_partners"]},
        headers=night.host,
    )
    assert taken.status_code == 200, taken.text
    assert night.state()["view"]["next"]["tables"] == first
    change = client.get(night.url("/report"), headers=night.host).json()["changes"][-1]
    assert change["overrides"] == ["no_repeat_partners"] and change["partners_kept"]
