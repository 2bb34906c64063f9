"""The rolls fast path answers exactly as the documented route does."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from web_helpers import EIGHT, bearer

from bunco.web.app import create_app

REQUESTS: list[tuple[str, Any, str]] = [
    ("/tables/1/rolls", {"command_id": "r1", "dice": [1, 1, 4], "expected_seq": 0}, "host"),
    (
        "/tables/1/rolls",
        {"command_id": "r1", "dice": [1, 1, 4], "expected_seq": 0},
        "host",
    ),  # a retry
    ("/tables/1/rolls", {"command_id": "r1", "dice": [1, 1, 5]}, "host"),  # id reused
    ("/tables/1/rolls", {"command_id": "r2", "dice": [1, 2, 3], "expected_seq": 0}, "host"),
    ("/tables/1/rolls", {"command_id": "r3", "dice": [1, 9, 3]}, "host"),
    ("/tables/1/rolls", {"command_id": "r3", "dice": [1, 2]}, "host"),
    ("/tables/1/rolls", {"dice": [1, 2, 3]}, "host"),
    ("/tables/1/rolls", {"command_id": "r4", "dice": [1, 2, 3], "outcome": "+1"}, "host"),
    ("/tables/1/rolls", {"command_id": "r5", "dice": [1, 2, 3], "colour": 1}, "host"),
    ("/tables/1/rolls", "not json", "host"),
    ("/tables/1/rolls", {"command_id": "r6", "dice": [2, 3, 5]}, "table2"),
    ("/tables/1/rolls", {"command_id": "r7", "dice": [2, 3, 5]}, "viewer"),
    ("/tables/1/rolls", {"command_id": "r8", "dice": [2, 3, 5]}, "none"),
    ("/tables/9/rolls", {"command_id": "r9", "dice": [2, 3, 5]}, "host"),
    ("/tables/2/rolls", {"command_id": "r10", "dice": [2, 3, 5], "player": "Fay"}, "host"),
    ("/tables/2/rolls", {"command_id": "r11", "dice": [2, 3, 5]}, "table2"),
    ("/tables/1/rolls", {"command_id": "r12", "outcome": "+2"}, "host"),
]


def replies(tmp_path, fast: bool) -> list[tuple[int, Any]]:
    with TestClient(
        create_app(f"sqlite:///{tmp_path / f'{fast}.sqlite3'}", fast_path=fast)
    ) as client:
        created = client.post("/api/nights", json={"players": EIGHT}).json()
        table2 = client.post("/api/join", json={"code": created["tables"][1]["code"]}).json()
        tokens = {
            "host": bearer(created["host_token"]),
            "table2": bearer(table2["token"]),
            "viewer": bearer(created["viewer_token"]),
            "none": {},
        }
        out = []
        for tail, body, who in REQUESTS:
            url = f"/api/nights/{created['night']}{tail}"
            if isinstance(body, str):
                reply = client.post(
                    url, content=body, headers={**tokens[who], "content-type": "application/json"}
                )
            else:
                reply = client.post(url, json=body, headers=tokens[who])
            data = reply.json()
            data.pop("at", None)
            for missed in data.get("missed") or []:
                missed.pop("at", None)
            out.append((reply.status_code, data))
        unknown = client.post(
            "/api/nights/nope/tables/1/rolls",
            json={"command_id": "x", "dice": [1, 2, 3]},
            headers=tokens["host"],
        )
        out.append((unknown.status_code, unknown.json()))
        return out


def test_fast_path_and_route_agree(tmp_path):
    fast, slow = replies(tmp_path, True), replies(tmp_path, False)
    assert [s for s, _ in fast] == [
        200,
        200,
        409,
        409,
        422,
        422,
        422,
        422,
        422,
        422,
        403,
        403,
        401,
        422,
        409,
        200,
        200,
        403,
    ]
    for (fs, fbody), (ss, sbody) in zip(fast, slow, strict=True):
        assert fs == ss
        if fs == 422 and fbody["error"] == "invalid_request":
            # the same fields are named, in the same words
            assert fbody["details"] == sbody["details"], (fbody, sbody)
            assert fbody["message"] == sbody["message"]
        else:
            assert fbody == sbody
