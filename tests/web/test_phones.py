"""The tables' phones as the host sees them: what each phone's outbox holds, when it was
last heard, and the refused entries a table sent to the host, kept until handled."""

from __future__ import annotations

from web_helpers import cid

WHERE = {
    "set": 1,
    "round": 1,
    "table": 2,
    "roller": "Eve",
    "based_on": 0,
    "at": "2026-11-27T20:00:00.000Z",
    "stage": "playing",
}
REFUSED = {
    "id": "e1",
    "label": "Eve: +1",
    "code": "round_closed",
    "message": "this entry was tapped in round 1, which closed before it arrived",
    "tapped": WHERE,
}


def test_a_phone_reports_its_outbox_and_the_host_reads_it(client, night):
    t2 = night.table_token(2)
    phones = client.get(night.url("/phones"), headers=night.host).json()
    assert [t["heard_ago"] for t in phones["tables"]] == [None, None]
    reply = client.post(
        night.url("/tables/2/outbox"),
        json={
            "waiting": 4,
            "oldest": "2026-11-27T20:00:00.000Z",
            "oldest_age": 30.0,
            "refused": [REFUSED],
            "mode": "outbox-only",
        },
        headers=t2,
    )
    assert reply.status_code == 200, reply.text
    table2 = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert table2["waiting"] == 4 and table2["mode"] == "outbox-only"
    assert 30.0 <= table2["oldest_age"] < 40 and 0 <= table2["heard_ago"] < 10
    assert [r["label"] for r in table2["refused"]] == ["Eve: +1"]
    # an entry of the table's phone counts as being heard
    assert night.roll(1, [1, 3, 4], headers=night.table_token(1)).status_code == 200
    table1 = client.get(night.url("/phones"), headers=night.host).json()["tables"][0]
    assert table1["heard_ago"] is not None and table1["waiting"] == 0


def test_only_the_host_reads_and_a_phone_reports_its_own_table(client, night):
    t2 = night.table_token(2)
    assert client.get(night.url("/phones"), headers=t2).status_code == 403
    assert client.get(night.url("/phones"), headers=night.viewer).status_code == 403
    other = client.post(night.url("/tables/1/outbox"), json={"waiting": 0}, headers=t2)
    assert other.status_code == 403
    beyond = client.post(night.url("/tables/9/outbox"), json={"waiting": 0}, headers=night.host)
    assert beyond.status_code == 404 and beyond.json()["error"] == "no_such_table"
    bad = client.post(night.url("/tables/2/outbox"), json={"waiting": -1}, headers=t2)
    assert bad.status_code == 422


def test_entries_sent_to_the_host_are_kept_until_handled(client, night):
    t2 = night.table_token(2)
    body = {"command_id": cid(), "entries": [REFUSED, {**REFUSED, "id": "e2", "label": "Fay: +2"}]}
    sent = client.post(night.url("/tables/2/set-aside"), json=body, headers=t2)
    assert sent.status_code == 200 and sent.json()["added"] == 2
    again = client.post(night.url("/tables/2/set-aside"), json=body, headers=t2)
    assert again.json()["added"] == 0 and again.json()["held"] == 2  # a retry adds nothing
    held = client.get(night.url("/phones"), headers=night.host).json()["set_aside"]
    assert [(h["table"], h["id"], h["label"]) for h in held] == [
        (2, "e1", "Eve: +1"),
        (2, "e2", "Fay: +2"),
    ]
    assert held[0]["tapped"]["round"] == 1 and held[0]["code"] == "round_closed"
    # kept with the night: a server that starts again still has them
    client.app.state.service.nights.clear()
    assert len(client.get(night.url("/phones"), headers=night.host).json()["set_aside"]) == 2
    assert client.post(night.url("/set-aside/2/e1/handled"), headers=t2).status_code == 403
    done = client.post(night.url("/set-aside/2/e1/handled"), headers=night.host)
    assert done.status_code == 200
    held = client.get(night.url("/phones"), headers=night.host).json()["set_aside"]
    assert [h["id"] for h in held] == ["e2"]
    missing = client.post(night.url("/set-aside/2/e1/handled"), headers=night.host)
    assert missing.status_code == 404 and missing.json()["error"] == "no_such_entry"
