"""A co-host's phone gets a viewer link of its own: the big screen and the player QR; the
host lists and revokes them, and revoking a co-host revokes the links it made."""

from __future__ import annotations

import contextlib

from starlette.websockets import WebSocketDisconnect
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


def test_the_host_lists_and_revokes_viewer_links_and_a_revoked_cohost_takes_its_own(client, night):
    bea = client.post(night.url("/cohosts"), json={"name": "Bea"}, headers=night.host).json()
    cat = client.post(night.url("/cohosts"), json={"name": "Cat"}, headers=night.host).json()
    made = {
        who: [
            client.post(night.url("/viewer-links"), headers=bearer(h)).json()
            for _ in range(2 if who == "bea" else 1)
        ]
        for who, h in (("bea", bea["token"]), ("cat", cat["token"]))
    }
    mine = client.post(night.url("/viewer-links"), headers=night.host).json()
    listed = client.get(night.url("/viewer-links"), headers=night.host).json()["links"]
    assert [(v["id"], v["made_by"], v["revoked"]) for v in listed] == [
        (1, "co-host 1 · Bea", False),
        (2, "co-host 1 · Bea", False),
        (3, "co-host 2 · Cat", False),
        (4, "host", False),
    ]
    # a viewer is nobody in particular: the label is not the holder's name
    me = client.get("/api/me", headers=bearer(made["bea"][0]["token"])).json()
    assert me["role"] == "viewer" and me["player"] is None
    # revoking Bea revokes the two links her phone made, and nothing else
    gone = client.delete(night.url(f"/cohosts/{bea['id']}"), headers=night.host).json()
    assert gone["revoked"] == 1 and gone["viewer_links"] == 2
    for link in made["bea"]:
        assert client.get(night.url(), headers=bearer(link["token"])).status_code == 401
    for token in (made["cat"][0]["token"], mine["token"], night.created["viewer_token"]):
        assert client.get(night.url(), headers=bearer(token)).status_code == 200
    # the host revokes one link by its number: its screen stops at once
    with client.websocket_connect(night.url(f"/ws?token={mine['token']}")) as screen:
        assert screen.receive_json()["type"] == "hello"
        stopped = client.delete(night.url(f"/viewer-links/{mine['id']}"), headers=night.host)
        assert stopped.status_code == 200 and stopped.json()["revoked"] == 1
        seen = []
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                seen.append(screen.receive_json())
        assert seen[-1]["error"] == "unauthorized"
    assert client.get(night.url(), headers=bearer(mine["token"])).status_code == 401
    listed = client.get(night.url("/viewer-links"), headers=night.host).json()["links"]
    assert [v["revoked"] for v in listed] == [True, True, False, True]
    # only the hosts list and revoke them; an unknown number is a 404
    assert client.get(night.url("/viewer-links"), headers=night.viewer).status_code == 403
    assert client.delete(night.url("/viewer-links/3"), headers=night.viewer).status_code == 403
    assert client.delete(night.url("/viewer-links/9"), headers=night.host).status_code == 404
