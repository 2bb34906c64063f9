"""Store and forward at the bell, through the API (docs/outbox.md): a table's phone offline
from before the bell sends its entries after it; they count in their round, the table's
result is worked out again, and the room waits for a phone that holds entries of the
round (it said so, or it fell silent) until its entries are in or the host decides."""

from __future__ import annotations

import time
from typing import Any

from test_tapped_entries import entry, tapped
from web_helpers import Night, cid

from bunco.web.night import phone_book

SIX = [("+1", "Eve"), ("miss", "Eve"), ("+2", "Fay"), ("miss", "Fay"), ("miss", "Gus")]


def to_the_bell(night: Night, *, finish: bool = True) -> None:
    """The head table's +2s until the bell (the host's entries), and (``finish``) the miss
    that ends that finishing turn."""
    for _ in range(11):
        assert night.roll(1, outcome="+2").status_code == 200
    assert night.state()["status"]["bell"] is True
    if finish:
        assert night.roll(1, outcome="miss").status_code == 200


def send(
    night: Night, phone: dict[str, str], chain: list[tuple[str, str]], where: dict[str, Any]
) -> list[Any]:
    """Table 2's phone sends a chain of entries tapped offline before the bell, as the
    page does: each based on the one before it, with how many it still holds after it."""
    replies, based = [], where["based_on"]
    for n, (outcome, roller) in enumerate(chain):
        reply = entry(
            night,
            2,
            {**where, "roller": roller, "based_on": based if n == 0 else where["based_on"]},
            phone,
            outcome=outcome,
            expected_seq=based,
            more=len(chain) - n - 1,
        )
        replies.append(reply)
        if reply.status_code != 200:
            break
        based = reply.json()["seq"]
    return replies


def test_entries_tapped_before_the_bell_count_and_drop_the_tie_break(client, night):
    phone = night.table_token(2)
    where = tapped(night, 2)  # table 2's phone goes offline here, before its first tap
    to_the_bell(night, finish=False)
    table = night.state()["view"]["tables"][1]
    assert table["status"] == "tie_break" and table["team_scores"] == [0, 0]
    chain = [*SIX, ("+1", "Hal")]
    replies = send(night, phone, chain, where)
    assert [r.status_code for r in replies] == [200] * 6
    assert all(r.json()["event"]["before_bell"] is True for r in replies)
    assert [r.json()["entry"]["player"] for r in replies] == [p for _, p in chain]
    table = night.state()["view"]["tables"][1]
    assert table["team_scores"] == [1, 3] and table["status"] == "finishing"
    assert table["roller"] == "Hal" and table["tie_break"] is None
    # Hal finishes the turn, the head table too: the round ends with table 2's own result
    assert night.roll(2, outcome="miss", headers=phone).status_code == 200
    assert night.roll(1, outcome="miss").status_code == 200
    last = night.state()["view"]["last_round"]["tables"][1]
    assert last["team_scores"] == [1, 3] and last["winners"] == ["Fay", "Hal"]


def test_the_round_waits_for_a_phone_whose_entries_are_still_coming(client, night):
    """Table 2 settles 1-0 with the second of its five late entries; the head table's
    last miss would end the round, but the phone said it holds three more: the room waits
    (``wait_for_phone``), takes them, and goes on with the phone's last (``go_on``)."""
    phone = night.table_token(2)
    where = tapped(night, 2)
    to_the_bell(night, finish=False)
    first = send(night, phone, SIX[:2], where)  # Eve +1 and miss: table 2 done at 1-0
    # the phone holds three more (its report says so too)
    report = {"waiting": 3, "rounds": [{"set": 1, "round": 1, "waiting": 3}]}
    heard = client.post(night.url("/tables/2/outbox"), json=report, headers=phone)
    assert heard.status_code == 200
    assert night.roll(1, outcome="miss").status_code == 200  # every table done ...
    state = night.state()
    assert state["status"]["round"] == 1  # ... and the room waits for table 2's phone
    assert state["status"]["waiting_for"] == [{"table": 2, "entries": 3}]
    assert [e["type"] for e in night.log()][-2:] == ["wait_for_phone", "tally"]
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert (phones["awaited"], phones["awaiting"], phones["holds"]) == (True, 3, 3)
    rest = send(
        night,
        phone,
        [("+2", "Fay"), ("miss", "Fay"), ("miss", "Gus")],
        {**where, "based_on": first[-1].json()["seq"]},
    )
    assert [r.status_code for r in rest] == [200, 200, 200]
    state = night.state()
    assert state["status"]["round"] == 2 and "waiting_for" not in state["status"]
    assert state["view"]["last_round"]["tables"][1]["team_scores"] == [1, 2]
    assert [e["type"] for e in night.log()][-2:] == ["tally", "go_on"]


def test_a_silent_phone_makes_the_room_wait_until_the_host_decides(client, night, monkeypatch):
    monkeypatch.setattr(phone_book, "SILENT_PHONE", 0.3)  # seconds, not 35
    phone = night.table_token(2)
    assert night.roll(2, outcome="+1", headers=phone).status_code == 200  # heard this round
    time.sleep(0.4)  # ... and not since: silent
    to_the_bell(night)  # table 2 (Eve in mid-turn: she finishes) ...
    assert night.roll(2, outcome="miss").status_code == 200  # ... the host enters her miss
    state = night.state()
    assert state["status"]["round"] == 1  # table 2's phone fell silent: the room waits
    assert state["status"]["waiting_for"] == [{"table": 2, "entries": None}]
    board = client.get(night.url("/dashboard"), headers=night.host).json()["tables"][1]
    assert [f["kind"] for f in board["flags"]][:1] == ["phone"]
    assert "the room waits: its phone is silent" in board["flags"][0]["text"]
    refused = client.post(
        night.url("/tables/2/go-on"),
        json={"command_id": cid(), "winner": "Ann"},
        headers=night.host,
    )
    assert refused.status_code == 422 and "Ann does not sit at table 2" in refused.json()["message"]
    gone = client.post(night.url("/tables/2/go-on"), json={"command_id": cid()}, headers=night.host)
    assert gone.status_code == 200, gone.text
    assert night.state()["status"]["round"] == 2


def test_the_host_enters_who_won_from_the_paper_and_the_phone_is_told_so(client, night):
    phone = night.table_token(2)
    where = tapped(night, 2)
    to_the_bell(night)
    assert night.state()["view"]["tables"][1]["status"] == "tie_break"
    decided = client.post(
        night.url("/tables/2/go-on"),
        json={"command_id": cid(), "winner": "Fay"},
        headers=night.host,
    )
    assert decided.status_code == 200, decided.text
    state = night.state()
    assert state["status"]["round"] == 2
    assert state["view"]["last_round"]["tables"][1]["winners"] == ["Fay", "Hal"]
    late = send(night, phone, SIX[:1], where)[0]
    assert late.status_code == 409 and late.json()["cause"] == "moved_on"


def test_a_phone_report_of_nothing_left_releases_the_table(client, night):
    phone = night.table_token(2)
    where = tapped(night, 2)
    to_the_bell(night, finish=False)
    send(night, phone, SIX[:2], where)[-1]  # done at 1-0, the phone says one more (more=0 here)
    hold = {"waiting": 1, "rounds": [{"set": 1, "round": 1, "waiting": 1}]}
    assert client.post(night.url("/tables/2/outbox"), json=hold, headers=phone).status_code == 200
    assert night.roll(1, outcome="miss").status_code == 200
    assert night.state()["status"]["waiting_for"] == [{"table": 2, "entries": 1}]
    # its last entry was refused and sent to the host: the phone holds nothing more
    empty = {"waiting": 0, "rounds": []}
    assert client.post(night.url("/tables/2/outbox"), json=empty, headers=phone).status_code == 200
    assert night.state()["status"]["round"] == 2
    assert [e["type"] for e in night.log()][-1] == "go_on"


def test_stale_refusals_say_who_changed_the_table(client, night):
    phone_a, phone_b = night.table_token(2), night.table_token(2)
    where = tapped(night, 2)
    assert night.roll(2, outcome="+1", headers=phone_b).status_code == 200
    other = entry(night, 2, where, phone_a, outcome="+2")
    assert other.status_code == 409
    assert (other.json()["cause"], other.json()["by"]) == ("other_phone", "phone")
    assert "another phone entered something there first" in other.json()["message"]
    where = tapped(night, 2)
    assert client.post(
        night.url("/tables/2/undo"), json={"command_id": cid()}, headers=night.host
    ).json()["event"] == {"type": "undo", "table": 2}
    undone = entry(night, 2, where, phone_a, outcome="+2")
    assert (undone.json()["cause"], undone.json()["by"]) == ("undone", "host")
    assert "the host undid an entry there" in undone.json()["message"]
    where = tapped(night, 2)
    assert night.roll(2, outcome="+1").status_code == 200
    hosts = entry(night, 2, where, phone_a, outcome="+2")
    assert (hosts.json()["cause"], hosts.json()["by"]) == ("host_entered", "host")
    assert "by_caller" not in hosts.json()


def test_a_reseating_is_named_as_the_cause(client, night):
    night.play_round()
    where = tapped(night, 2)
    tables = [t["players"] for t in night.state()["view"]["tables"]]
    moved = client.post(
        night.url("/seating"),
        json={"command_id": cid(), "tables": [tables[1], tables[0]]},
        headers=night.host,
    )
    assert moved.status_code == 200, moved.text
    late = entry(night, 2, {**where, "roller": None}, night.table_token(2))
    assert late.status_code == 409 and late.json()["cause"] == "reseated", late.json()
    assert "the room was reseated" in late.json()["message"]


def test_a_report_that_crossed_its_entry_says_nothing_of_it(client, night):
    """A report computed while an entry was on its way (it names it as waiting) reaches
    the server after it: the entry's own word (nothing more after it) stands, so the room
    does not wait for a phone that holds nothing."""
    phone = night.table_token(2)
    sent = night.roll(2, outcome="+1", headers=phone, command_id="c-crossed", more=0)
    assert sent.status_code == 200
    stale = {"waiting": 1, "first": "c-crossed", "rounds": [{"set": 1, "round": 1, "waiting": 1}]}
    assert client.post(night.url("/tables/2/outbox"), json=stale, headers=phone).status_code == 200
    assert client.app.state.service.nights[night.id].phones.holds(2, 1, 1) == 0
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert phones["holds"] == 0  # read back from the store too
    assert (phones["waiting"], phones["oldest_age"]) == (0, None)  # the host sees it too


def test_an_entry_after_its_report_is_the_phones_latest_word_for_the_host(client, night):
    """Back online, a phone's report (1 entry waiting) reaches the server just before the
    entry itself: the host, asked before the phone reports again, is told the entry's word
    (nothing more on the phone), not the report's; the room's undo question names no
    table still holding entries."""
    phone = night.table_token(2)
    held = {
        "waiting": 1,
        "first": "c-after",
        "oldest_age": 4.0,
        "rounds": [{"set": 1, "round": 1, "waiting": 1}],
    }
    assert client.post(night.url("/tables/2/outbox"), json=held, headers=phone).status_code == 200
    before = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert (before["waiting"], before["holds"]) == (1, 1)
    assert before["oldest_age"] is not None and before["oldest_age"] >= 4.0
    sent = night.roll(2, outcome="+1", headers=phone, command_id="c-after", more=0)
    assert sent.status_code == 200
    after = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert (after["waiting"], after["holds"], after["oldest_age"]) == (0, 0, None)


def test_an_entry_after_its_report_says_more_when_more_were_tapped_since(client, night):
    """The phone reported 1 entry waiting; 3 more were tapped, and the first entry sent
    says 3 still wait after it: the host is told 3, not the older report's 1."""
    phone = night.table_token(2)
    held = {"waiting": 1, "first": "c-one", "rounds": [{"set": 1, "round": 1, "waiting": 1}]}
    assert client.post(night.url("/tables/2/outbox"), json=held, headers=phone).status_code == 200
    sent = night.roll(2, outcome="+1", headers=phone, command_id="c-one", more=3)
    assert sent.status_code == 200
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert (phones["waiting"], phones["holds"]) == (3, 3)


def test_a_report_whose_first_entry_is_stored_counts_it_no_more(client, night):
    """An entry that did not say what the phone holds after it (an older page), then a
    report computed before it was answered naming it first of 2: the host is told of 1."""
    phone = night.table_token(2)
    assert night.roll(2, outcome="+1", headers=phone, command_id="c-old").status_code == 200
    stale = {"waiting": 2, "first": "c-old", "rounds": [{"set": 1, "round": 1, "waiting": 2}]}
    assert client.post(night.url("/tables/2/outbox"), json=stale, headers=phone).status_code == 200
    phones = client.get(night.url("/phones"), headers=night.host).json()["tables"][1]
    assert phones["waiting"] == 1
