"""GET .../join-codes: every host of the night (the host's phones, the co-hosts) shows and
prints the tables' current join codes; a new code replaces the kept one; nobody else reads
them."""

from __future__ import annotations

from web_helpers import EIGHT, bearer, cid, make_night


def codes(client, night, headers) -> dict[str, object]:
    reply = client.get(night.url("/join-codes"), headers=headers)
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_a_cohost_reads_the_codes_printed_at_creation(client) -> None:
    night = make_night(client)
    cohost = client.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host).json()
    made = [(c["table"], c["code"], c["token"]) for c in night.created["tables"]]
    for who in (night.host, bearer(cohost["token"])):
        kept = codes(client, night, who)
        assert [(c["table"], c["code"], c["token"]) for c in kept["tables"]] == made
        assert kept["missing"] == []
        assert kept["tables"][0]["link"].endswith(f"/join?token={made[0][2]}")
    # what a co-host reads joins the table
    joined = client.post("/api/join", json={"code": made[1][1]})
    assert joined.status_code == 200 and joined.json()["table"] == 2


def test_nobody_but_a_host_reads_them(client) -> None:
    night = make_night(client)
    assert client.get(night.url("/join-codes")).status_code == 401
    table = night.table_token(1)
    for who in (night.viewer, table):
        reply = client.get(night.url("/join-codes"), headers=who)
        assert reply.status_code == 403 and reply.json()["error"] == "forbidden"
    other = make_night(client)
    assert client.get(night.url("/join-codes"), headers=other.host).status_code == 403


def test_a_new_code_replaces_the_kept_one_even_after_a_retried_creation(client) -> None:
    body = {"name": "Retry", "rules": "classic", "players": EIGHT, "command_id": cid() * 4}
    first = client.post("/api/nights", json=body)
    assert first.status_code == 201, first.text
    created = first.json()
    host = bearer(created["host_token"])
    nid = created["night"]
    new = client.post(f"/api/nights/{nid}/tables/2/credentials", headers=host)
    assert new.status_code == 200, new.text
    again = client.post("/api/nights", json=body)  # the same creation sent again
    assert (
        again.status_code == 201
        and again.json()["tables"][1]["code"] == created["tables"][1]["code"]
    )
    kept = client.get(f"/api/nights/{nid}/join-codes", headers=host).json()
    assert [c["code"] for c in kept["tables"]] == [
        created["tables"][0]["code"],
        new.json()["code"],
    ]
    old = client.post("/api/join", json={"code": created["tables"][1]["code"]})
    assert old.status_code in (401, 404)  # the printed card that stopped working
    assert client.post("/api/join", json={"code": new.json()["code"]}).status_code == 200
