"""The docs' requests run as written: every request docs/server.md's API table and
docs/outbox.md show is sent to a night as shown (the body's fields, beside the
``command_id`` every write carries) and is understood: its route exists, and the reply is
never a 422 for the request's shape nor a 5xx (a 409 for the night's state, or a 404 for
a card nobody has, is an answer to the request as shown). The PDFs' routes are checked to
exist; tests/web/test_downloads.py sends those requests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from starlette.routing import Match
from web_helpers import EIGHT, cid, make_night

DOCS = Path(__file__).resolve().parents[2] / "docs"
REQUEST = re.compile(r"`(GET|POST|PUT|DELETE) ([^`\s]+)`(?: \(?[^`]*?`(\{[^`]*\})`)?")
PLAIN_BODIES = {
    # the rows whose fields the table lists in words rather than in braces
    "POST /api/nights": {"name": "Docs", "players": EIGHT},
    "POST /api/nights/{id}/tables/{n}/rolls": {"outcome": "+1"},
    "POST /api/nights/{id}/tables/{n}/undo": {},
    "POST /api/nights/{id}/rolloff": {"roll_for_me": True},
    "POST /api/nights/{id}/me/roll": {"roll_for_me": True},
    "POST /api/nights/{id}/viewer-links": {},
    "POST /api/join": {"code": "CODE"},
    "POST /api/nights/{id}/claim": {"name": "Ann"},
    "POST /api/clubs": {"name": "Docs club"},
    # a field the row's words say a change needs (a winner correction names the player)
    "POST /api/nights/{id}/corrections": {"player": "Ann"},
}
NO_COMMAND_ID = {
    "POST /api/nights",
    "POST /api/clubs",
    "POST /api/join",
    "POST /api/nights/{id}/claim",
    "POST /api/nights/{id}/tables/{n}/outbox",
    "PUT /api/nights/{id}/bots",
    "PUT /api/nights/{id}/dice",
    "POST /api/nights/{id}/cohosts",
    "POST /api/nights/{id}/viewer-links",
}


def documented() -> list[tuple[str, str, str | None]]:
    """(method, path, body as shown) of every request the two pages show."""
    found: list[tuple[str, str, str | None]] = []
    server = (DOCS / "server.md").read_text(encoding="utf-8")
    table = server[server.index("| method and path |") :].split("\n\n", 1)[0]
    outbox = (DOCS / "outbox.md").read_text(encoding="utf-8")
    api = outbox[outbox.index("The API: ") :].split("\n\n", 1)[0]
    for text in (*table.splitlines()[2:], api.replace("\n", " ")):
        first = text.split(" | ")[0] if text.startswith("|") else text
        for method, path, body in REQUEST.findall(first):
            if path.startswith(".../"):
                path = "/api/nights/{id}/" + path[4:]
            found.append((method, path, body or None))
    with_body = {(m, p) for m, p, b in found if b is not None}
    kept = [(m, p, b) for m, p, b in found if b is not None or (m, p) not in with_body]
    return list(dict.fromkeys(kept))


def _value(field: str, path: str, night: Any) -> Any:
    """An example value of ``field`` for ``path``, as a person would fill it in."""
    state = night.state()
    seating = [t["players"] for t in state["view"]["tables"]]
    values: dict[str, Any] = {
        "out": "Ann",
        "in": "Zed",
        "player": "Zed" if path.endswith("/arrivals") else "Ann",
        "checker": "Host",
        "tables": seating,
        "prize": "best_costume",
        "winner": "Ann",
        "present": False,
        "event": {"type": "verify", "player": "Ann"},
        "players": ["Bea"],
        "dice": "phones" if path.endswith("/dice") else [1, 2, 3],
        "round": 1,
        "table": 1,
        "change": "winner",
        "reason": "the table agreed",
        "waiting": 0,
        "oldest": None,
        "oldest_age": None,
        "refused": [],
        "mode": "outbox-only",
        "entries": [{"id": "e-1", "label": "Eve: +1", "code": "stale", "message": "changed"}],
    }
    return values[field]


def _body(method: str, path: str, shown: str | None, night: Any) -> dict[str, Any] | None:
    if method in ("GET", "DELETE"):
        return None
    key = f"{method} {path}"
    body: dict[str, Any] = dict(PLAIN_BODIES.get(key, {}))
    if shown is not None:
        for field in shown.strip("{}").split(","):
            name = field.strip().split(" or ")[0]
            if name and not name.endswith("?") and name != "command_id":
                body[name] = _value(name, path, night)
    if key not in NO_COMMAND_ID:
        body["command_id"] = cid()
    if key == "POST /api/join":
        body["code"] = night.created["tables"][0]["code"]
    return body


REQUESTS = documented()


def test_the_docs_show_the_requests_the_issue_named() -> None:
    shown = {(m, p): b for m, p, b in REQUESTS}
    assert shown[("POST", "/api/nights/{id}/start")] == "{command_id}"
    assert shown[("POST", "/api/nights/{id}/end")] == "{command_id}"
    assert shown[("POST", "/api/nights/{id}/tables/{n}/go-on")] == (
        "{command_id, points?, buncos?, minis?, winner?}"
    )
    assert len(REQUESTS) >= 55


@pytest.mark.parametrize(
    ("method", "path", "shown"), REQUESTS, ids=[f"{m} {p}" for m, p, _ in REQUESTS]
)
def test_every_request_the_docs_show_is_understood(client, method, path, shown) -> None:
    night = make_night(client, judged=["Best Costume"])
    url = (
        path.replace("{id}", night.id)
        .replace("{n}", "1")
        .replace("{table}", "1")
        .replace("{set}", "1")
        .replace("{round}", "1")
        .replace("{name}", "Ann")
        .replace("{card}", "no-such-card")
        .replace("{entry}", "e-1")
        .replace("viewer=…", "viewer=" + night.created["viewer_token"])
        .replace("since=&table=", "since=-1&table=1")
    )
    routes = [r for r in client.app.routes if hasattr(r, "matches")]
    scope = {"type": "http", "path": url.split("?")[0], "method": method}
    assert any(r.matches(scope)[0] is Match.FULL for r in routes), f"no route for {method} {url}"
    if path.endswith(".pdf") or ".pdf?" in path:
        return  # made in a process of their own (seconds each): tests/web/test_downloads.py
    reply = client.request(method, url, json=_body(method, path, shown, night), headers=night.host)
    assert reply.status_code < 500, reply.text
    assert reply.status_code != 405, (method, url, reply.text)
    # never refused for its shape (a 422 about the night's values, such as no roll-off
    # being due, is an answer to the request as shown)
    assert reply.status_code != 422 or reply.json()["error"] != "invalid_request", (
        method,
        url,
        reply.text,
    )
