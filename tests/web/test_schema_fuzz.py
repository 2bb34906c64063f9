"""Property-based requests from the OpenAPI schema (schemathesis strategies + Hypothesis).

Valid and invalid requests of every operation, with the host's, a scorekeeper's, the
viewer's or no token, on SQLite and on PostgreSQL (with BUNCO_TEST_PG_URL): the server
never answers 5xx, every reply matches the reply schema the OpenAPI document gives its
operation and status (schemathesis's response_schema_conformance: no ST108), and a
refused request (4xx) changes nothing: not the night's log, not the nights, not the
tokens, not the options.

A third mode, ``poisoned``, takes valid requests and puts a character no text may hold
(NUL, a newline, a bidi override, a zero-width space, a byte-order mark) into every string
of the body, keys included: every name field of every operation is sent with a NUL on
every run, which is what PostgreSQL refuses to store (a co-host name with NUL once got a
500 there; random generation found it once in three runs).

``BUNCO_FUZZ_EXAMPLES`` sets the cases per database and mode (150 by default; ``make
fuzz`` runs 25,000 each: 150,000 drawn in all on both databases). The counts of each status are printed, and
appended to the file ``BUNCO_FUZZ_REPORT`` names, if any.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
import schemathesis
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import response_schema_conformance
from web_helpers import EIGHT, cid

from bunco.web.app import create_app
from bunco.web.gate.guard import Guard

pytestmark = pytest.mark.slow
EXAMPLES = int(os.environ.get("BUNCO_FUZZ_EXAMPLES", "150"))
UNLIMITED = "1000000000/minute"


def fingerprint(client: TestClient, night_id: str) -> tuple[Any, ...]:
    store = client.app.state.service.store  # type: ignore[attr-defined]
    with store.engine.connect() as conn:
        counts = tuple(
            conn.execute(
                sa.text(
                    "SELECT (SELECT count(*) FROM nights), (SELECT count(*) FROM events),"
                    " (SELECT count(*) FROM tokens), (SELECT count(revoked_at) FROM tokens)"
                )
            ).one()
        )
    return (
        store.last_seq(night_id),
        *counts,
        json.dumps(store.night(night_id).options, sort_keys=True),
    )


POISON = ["\x00", "\n", "\u202e", "\u200b", "\ufeff"]


def poisoned(value: Any, bad: str, keys: bool) -> Any:
    """``value`` with ``bad`` put into every string it holds (and dict keys, if ``keys``)."""
    if isinstance(value, str):
        return value[:1] + bad + value[1:]
    if isinstance(value, list):
        return [poisoned(v, bad, keys) for v in value]
    if isinstance(value, dict):
        return {
            (poisoned(k, bad, keys) if keys else k): poisoned(v, bad, keys)
            for k, v in value.items()
        }
    return value


def has_strings(value: Any) -> bool:
    if isinstance(value, str):
        return True
    if isinstance(value, list):
        return any(has_strings(v) for v in value)
    if isinstance(value, dict):
        return bool(value)
    return False


def send(client: TestClient, case: Any, headers: dict[str, str]) -> Any:
    kwargs: dict[str, Any] = {"params": case.query or None, "headers": headers}
    body = case.body
    if isinstance(body, bytes):
        kwargs["content"] = body
        headers["content-type"] = case.media_type or "application/json"
    elif body is not None and type(body).__name__ != "NotSet":
        try:
            kwargs["content"] = json.dumps(body).encode("utf-8")
        except (UnicodeEncodeError, ValueError):
            return None
        headers["content-type"] = "application/json"
    return client.request(case.method, case.formatted_path, **kwargs)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE, "poisoned"])
def test_no_5xx_and_no_change_from_a_refused_request(any_db_url, mode):
    guard = Guard(
        per_client=UNLIMITED, per_night=UNLIMITED, typed_codes=UNLIMITED, night_codes=UNLIMITED
    )
    # bots wait an hour between rolls: a bot rolling in the background (at a night a case
    # made with bots) would change the database between a case's two fingerprints
    with TestClient(create_app(any_db_url, bot_pace=3600, guard=guard)) as client:
        created = client.post("/api/nights", json={"players": EIGHT}).json()
        night_id = created["night"]
        host = created["host_token"]
        table1 = client.post("/api/join", json={"code": created["tables"][0]["code"]}).json()
        for dice in ([1, 1, 4], [2, 3, 5]):
            client.post(
                f"/api/nights/{night_id}/tables/1/rolls",
                json={"command_id": cid(), "dice": dice},
                headers={"Authorization": f"Bearer {host}"},
            )
        tokens = {
            "host": host,
            "table": table1["token"],
            "viewer": created["viewer_token"],
            "none": None,
        }
        schema = schemathesis.openapi.from_dict(client.app.openapi())  # type: ignore[attr-defined]
        operations = [r.ok() for r in schema.get_all_operations()]
        generation = GenerationMode.POSITIVE if mode == "poisoned" else mode
        cases = st.one_of(
            [
                op.as_strategy(generation, path_parameters={"night_id": night_id})
                for op in operations
            ]
        )
        seen: dict[int, int] = {}
        mismatched: list[str] = []

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=cases,
            who=st.sampled_from(sorted(tokens)),
            bad=st.sampled_from(POISON),
            keys=st.booleans(),
        )
        def check(case: Any, who: str, bad: str, keys: bool) -> None:
            headers = {} if tokens[who] is None else {"Authorization": f"Bearer {tokens[who]}"}
            if case.method == "DELETE" and case.path == "/api/nights/{night_id}" and who == "host":
                return  # the host deleting the night under test (test_api_delete's): no night left
            if mode == "poisoned":
                if not has_strings(case.body) or isinstance(case.body, bytes):
                    return
                case.body = poisoned(case.body, bad, keys)
            before = fingerprint(client, night_id)
            reply = send(client, case, headers)
            if reply is None:
                return
            seen[reply.status_code] = seen.get(reply.status_code, 0) + 1
            live = client.app.state.service.nights  # type: ignore[attr-defined]
            if len(live) > 20:  # the nights the cases made: reloaded from the store if used
                for other in [n for n in live if n != night_id]:
                    del live[other]
            assert reply.status_code < 500, (case.method, case.formatted_path, reply.text)
            try:  # the reply is what the OpenAPI document says of it (ST108)
                case.validate_response(reply, checks=[response_schema_conformance])
            except Exception as exc:  # schemathesis's failure group: keep the first lines
                mismatched.append(f"{case.method} {case.formatted_path}: {str(exc)[:600]}")
            if reply.status_code >= 400:
                assert fingerprint(client, night_id) == before, (case.formatted_path, reply.text)
                error = reply.json()
                assert error["error"] and error["message"] and error["expected"], error
            named = isinstance(case.body, dict) and isinstance(case.body.get("name"), str)
            if mode == "poisoned" and case.formatted_path.endswith("/cohosts") and named:
                assert reply.status_code >= 400, reply.text  # a co-host's name: refused

        check()
        if mode == "poisoned":  # and every run, whatever was drawn: NUL in each kind of name
            auth = {"Authorization": f"Bearer {host}"}
            for path, body in [
                (f"/api/nights/{night_id}/cohosts", {"name": "Bea\x00"}),
                (f"/api/nights/{night_id}/arrivals", {"command_id": cid(), "player": "Zo\x00e"}),
                ("/api/nights", {"players": ["Ann\x00", "Bea"]}),
                ("/api/nights", {"players": EIGHT, "judged": ["Best\x00Costume"]}),
                ("/api/nights", {"players": EIGHT, "money": {"currency": "\x00", "buy_in": "5"}}),
            ]:
                before = fingerprint(client, night_id)
                reply = client.post(path, json=body, headers=auth)
                seen[reply.status_code] = seen.get(reply.status_code, 0) + 1
                assert reply.status_code == 422, (path, reply.text)
                assert reply.json()["expected"] and fingerprint(client, night_id) == before
        name = mode if isinstance(mode, str) else mode.name
        line = (
            f"schemathesis {name} on {client.app.state.service.store.dialect}: "  # type: ignore[attr-defined]
            f"{sum(seen.values())} cases, statuses {dict(sorted(seen.items()))}, "
            f"replies off their schema {len(mismatched)}"
        )
        print("\n" + line)
        if os.environ.get("BUNCO_FUZZ_REPORT"):
            with open(os.environ["BUNCO_FUZZ_REPORT"], "a") as report:
                report.write(line + "\n")
        assert not mismatched, mismatched[:3]
        assert any(code >= 400 for code in seen), seen
        if mode is GenerationMode.POSITIVE:
            assert any(code < 300 for code in seen), seen
