"""Co-hosts: a second, revocable host credential, so a lost phone never stalls the night."""

from __future__ import annotations

from web_helpers import bearer, cid


def test_a_cohost_can_do_what_the_host_does_until_revoked(client, night):
    made = client.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host)
    assert made.status_code == 201, made.text
    cohost = made.json()
    assert cohost["id"] == 1 and cohost["label"] == "co-host 1 · Bea"
    assert cohost["link"].endswith(f"/night/{night.id}?token={cohost['token']}")
    co = bearer(cohost["token"])
    assert client.get("/api/me", headers=co).json()["role"] == "host"
    # a co-host seats a late arrival and can make another co-host
    arrival = client.post(
        night.url("/arrivals"), json={"command_id": cid(), "player": "Ivy"}, headers=co
    )
    assert arrival.status_code == 200, arrival.text
    second = client.post(night.url("/cohosts"), json={}, headers=co).json()
    assert second["id"] == 2 and second["label"] == "co-host 2"
    listed = client.get(night.url("/cohosts"), headers=night.host).json()["cohosts"]
    assert [(c["id"], c["label"], c["revoked"]) for c in listed] == [
        (1, "co-host 1 · Bea", False),
        (2, "co-host 2", False),
    ]
    # revoked: the co-host's token stops working at once; the host's own link stays
    gone = client.delete(night.url("/cohosts/1"), headers=night.host)
    assert gone.status_code == 200 and gone.json()["revoked"] == 1
    assert client.get(night.url(), headers=co).status_code == 401
    assert client.get(night.url(), headers=night.host).status_code == 200
    listed = client.get(night.url("/cohosts"), headers=night.host).json()["cohosts"]
    assert [c["revoked"] for c in listed] == [True, False]
    assert client.delete(night.url("/cohosts/9"), headers=night.host).status_code == 404


def test_only_a_host_manages_cohosts(client, night):
    table = night.table_token(1)
    assert client.post(night.url("/cohosts"), json={}, headers=table).status_code == 403
    assert client.get(night.url("/cohosts"), headers=night.viewer).status_code == 403
    assert client.post(night.url("/cohosts"), json={}).status_code == 401
    long = client.post(night.url("/cohosts"), json={"name": "x" * 61}, headers=night.host)
    assert long.status_code == 422
