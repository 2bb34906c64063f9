"""Racing writers: one wins at a table, tables never conflict, a retried id applies once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from web_helpers import EIGHT, bearer

from bunco.web.api.play import roll_envelope
from bunco.web.app import create_app
from bunco.web.values.schemas import RollIn

TWELVE = [*EIGHT, "Ivy", "Jon", "Kim", "Lou"]


class AsyncNight:
    def __init__(self, client: httpx.AsyncClient, created: dict[str, Any]) -> None:
        self.client = client
        self.id = created["night"]
        self.created = created
        self.host = bearer(created["host_token"])

    async def scorekeeper(self, table: int) -> dict[str, str]:
        code = self.created["tables"][table - 1]["code"]
        reply = await self.client.post("/api/join", json={"code": code})
        return bearer(reply.json()["token"])

    async def roll(
        self,
        table: int,
        headers: dict[str, str],
        command_id: str,
        expected_seq: int | None,
        dice: list[int] | None = None,
    ) -> httpx.Response:
        body: dict[str, Any] = {"command_id": command_id, "dice": dice or [2, 3, 5]}
        if expected_seq is not None:
            body["expected_seq"] = expected_seq
        return await self.client.post(
            f"/api/nights/{self.id}/tables/{table}/rolls", json=body, headers=headers
        )

    async def log(self) -> list[dict[str, Any]]:
        reply = await self.client.get(f"/api/nights/{self.id}/events", headers=self.host)
        events: list[dict[str, Any]] = reply.json()["events"]
        return events


def run(scenario: Any, db_url: str) -> None:
    async def main() -> None:
        app = create_app(db_url, bot_pace=0)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
                created = (await client.post("/api/nights", json={"players": TWELVE})).json()
                await scenario(AsyncNight(client, created))

    asyncio.run(main())


def test_two_phones_racing_at_one_table_one_wins_one_gets_409(db_url):
    async def scenario(night: AsyncNight) -> None:
        phone_a, phone_b = await night.scorekeeper(1), await night.scorekeeper(1)
        version = 0
        for attempt in range(10):
            a, b = await asyncio.gather(
                night.roll(1, phone_a, f"a{attempt}", version),
                night.roll(1, phone_b, f"b{attempt}", version),
            )
            codes = sorted([a.status_code, b.status_code])
            assert codes == [200, 409], (a.text, b.text)
            winner, loser = (a, b) if a.status_code == 200 else (b, a)
            refusal = loser.json()
            assert refusal["error"] == "stale"
            assert refusal["current_seq"] == winner.json()["seq"]
            assert [m["seq"] for m in refusal["missed"]] == [winner.json()["seq"]]
            assert refusal["missed"][0]["command_id"] == winner.json()["command_id"]
            version = winner.json()["seq"]
        events = await night.log()
        assert len(events) == 11  # the setup and the ten winners, nothing else

    run(scenario, db_url)


def test_writers_at_different_tables_never_conflict(db_url):
    async def scenario(night: AsyncNight) -> None:
        phones = [await night.scorekeeper(t) for t in (1, 2, 3)]

        async def writer(table: int) -> list[int]:
            version, codes = 0, []
            for i in range(15):
                reply = await night.roll(table, phones[table - 1], f"t{table}-{i}", version)
                codes.append(reply.status_code)
                version = reply.json()["seq"]
            return codes

        results = await asyncio.gather(writer(1), writer(2), writer(3))
        assert all(code == 200 for codes in results for code in codes), results
        events = await night.log()
        assert len(events) == 1 + 45
        assert [e["seq"] for e in events] == list(range(46))
        for table in (1, 2, 3):
            mine = [e["command_id"] for e in events if e["table"] == table]
            assert mine == [f"t{table}-{i}" for i in range(15)]  # in each writer's order

    run(scenario, db_url)


def test_a_retried_command_id_is_applied_once(db_url):
    async def scenario(night: AsyncNight) -> None:
        phone = await night.scorekeeper(2)
        replies = await asyncio.gather(
            *(night.roll(2, phone, "only-once", None, [1, 1, 4]) for _ in range(6))
        )
        assert all(r.status_code == 200 for r in replies)
        assert sorted(r.json()["duplicate"] for r in replies) == [False] + [True] * 5
        assert {r.json()["seq"] for r in replies} == {1}
        # a later retry of the same request returns the first result
        late = await night.roll(2, phone, "only-once", None, [1, 1, 4])
        assert late.status_code == 200 and late.json()["duplicate"] is True
        assert late.json()["event"]["dice"] == [1, 1, 4]
        # the same id with another request is refused, never answered with the first event
        for expected, dice in ((0, [1, 1, 4]), (None, [6, 6, 6])):
            reused = await night.roll(2, phone, "only-once", expected, dice)
            assert reused.status_code == 409 and reused.json()["error"] == "id_reused"
        events = await night.log()
        assert [e["command_id"] for e in events] == [None, "only-once"]

    run(scenario, db_url)


@pytest.mark.parametrize("stale", [5, 99])
def test_an_expected_seq_from_the_future_is_refused(db_url, stale):
    async def scenario(night: AsyncNight) -> None:
        phone = await night.scorekeeper(1)
        reply = await night.roll(1, phone, "x", stale)
        assert reply.status_code == 409
        assert reply.json()["current_seq"] == 0
        assert len(await night.log()) == 1

    run(scenario, db_url)


def test_another_process_writing_first_gets_a_409_then_the_night_goes_on(client, night):
    """A second server process on the same database stored the next seq first."""
    svc = client.app.state.service  # type: ignore[attr-defined]
    phone = night.table_token(1)
    assert night.roll(1, [2, 3, 5], headers=phone).json()["seq"] == 1
    foreign = {"type": "roll", "table": 1, "dice": [1, 1, 4]}
    svc.store.append(night.id, 2, table=1, command_id="elsewhere", event=foreign)
    refused = night.roll(1, [2, 3, 5], headers=phone, expected_seq=1)
    assert refused.status_code == 409
    assert refused.json()["error"] == "stale"
    assert [m["command_id"] for m in refused.json()["missed"]] == ["elsewhere"]
    # the server reloaded the night: Bea's roll from the other process counts
    assert night.state()["view"]["tables"][0]["team_scores"] == [0, 2]
    ok = night.roll(1, [2, 3, 5], headers=phone, expected_seq=2)
    assert ok.status_code == 200 and ok.json()["seq"] == 3


def test_a_command_stored_by_another_process_is_a_duplicate(client, night):
    svc = client.app.state.service  # type: ignore[attr-defined]
    host = client.app.state.tokens.resolve(night.created["host_token"])  # type: ignore[attr-defined]
    envelope = roll_envelope(host, RollIn(command_id="twice", dice=[1, 5, 6]), 2)
    svc.store.append(
        night.id,
        1,
        table=2,
        event={"type": "roll", "table": 2, "dice": [1, 5, 6]},
        command_id="twice",
        caller=envelope["caller"],
        request_hash=envelope["request"],
    )
    again = night.roll(2, [1, 5, 6], command_id="twice")
    assert again.status_code == 200
    assert again.json()["duplicate"] is True and again.json()["seq"] == 1
    assert night.seq() == 1
