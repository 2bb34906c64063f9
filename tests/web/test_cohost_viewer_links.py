"""A co-host's phone gets a viewer link of its own: the big screen and the player QR."""

from __future__ import annotations

from web_helpers import bearer


def test_a_cohost_gets_a_viewer_link_that_reads_but_never_writes(client, night):
    made = client.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host).json()
    co = bearer(made["token"])
    reply = client.post(night.url("/viewer-links"), headers=co)
    assert reply.status_code == 201, reply.text
    link = reply.json()
    assert link["screen"].endswith(f"/n/{night.id}/screen?token={link['token']}")
    assert link["player"].endswith(f"/n/{night.id}/player?token={link['token']}")
    viewer = bearer(link["token"])
    assert client.get("/api/me", headers=viewer).json()["role"] == "viewer"
    assert client.get(night.url(), headers=viewer).status_code == 200
    assert (
        client.post(night.url("/end"), json={"command_id": "v-1"}, headers=viewer).status_code
        == 403
    )


def test_only_a_host_makes_viewer_links_and_at_most_sixty(client, night):
    assert client.post(night.url("/viewer-links"), headers=night.viewer).status_code == 403
    assert client.post(night.url("/viewer-links"), headers=night.table_token(1)).status_code == 403
    assert client.post(night.url("/viewer-links")).status_code == 401
    for _ in range(59):  # the night's own viewer token is the 60th
        assert client.post(night.url("/viewer-links"), headers=night.host).status_code == 201
    refused = client.post(night.url("/viewer-links"), headers=night.host)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"] == "not_allowed_now"
