"""The read models' types (bunco.party.shapes) name every member of what the server
answers: a tournament night with money, groups, a break, judged prizes and verified
cards, read mid-night and once over, each reply checked against its type with no member
the type does not name, at any depth."""

from __future__ import annotations

from typing import Any

from pydantic import ConfigDict, TypeAdapter
from web_helpers import EIGHT, cid, make_night

from bunco.core.cards import CardView
from bunco.core.prizes import PrizeView
from bunco.core.rolloff import RollOffView
from bunco.party.record_shapes import StandingRow
from bunco.party.shapes import LiveView, NightReport, TablePage
from bunco.web.values.replies import NightStatus

STRICT = ConfigDict(extra="forbid")  # on a list of the type: a type's own config stands
LIVE = TypeAdapter(list[LiveView], config=STRICT)
PAGE = TypeAdapter(list[TablePage], config=STRICT)
REPORT = TypeAdapter(list[NightReport], config=STRICT)
STANDINGS = TypeAdapter(list[StandingRow], config=STRICT)
STATUS = TypeAdapter(list[NightStatus], config=STRICT)
CARDS = TypeAdapter(list[CardView], config=STRICT)
PRIZES = TypeAdapter(list[PrizeView], config=STRICT)
ROLLOFFS = TypeAdapter(list[RollOffView], config=STRICT)


def check_replies(client: Any, night: Any) -> dict[str, Any]:
    """Every read of the night checked against its type; the live view back."""
    state = night.state()
    STATUS.validate_python([state["status"]])
    LIVE.validate_python([state["view"]])
    for number in range(1, 3):
        table = client.get(night.url(f"/tables/{number}"), headers=night.host).json()
        PAGE.validate_python([table["view"]])
    report = client.get(night.url("/report"), headers=night.viewer).json()
    REPORT.validate_python([report])
    standings = client.get(night.url("/standings"), headers=night.viewer).json()
    STANDINGS.validate_python(standings["standings"])
    # the engine's records, as the reply models name them
    CARDS.validate_python(list(report["players"].values()))
    card = client.get(night.url("/players/Ann/card"), headers=night.viewer).json()
    CARDS.validate_python([card["card"]])
    assert card["card"] == report["players"]["Ann"]
    prizes = client.get(night.url("/prizes"), headers=night.viewer).json()
    PRIZES.validate_python(prizes["prizes"])
    assert prizes["prizes"] == report["prizes"]
    ROLLOFFS.validate_python([r for r in (report["rolloff"],) if r is not None])
    return dict(state["view"])


def test_a_tournament_night_reads_as_its_types(client: Any) -> None:
    night = make_night(
        client,
        EIGHT,
        rules="tournament",
        groups={"Team 1": EIGHT[:4], "Team 2": EIGHT[4:]},
        judged=["Best Costume"],
        must_be_present=True,
        prize_ties="shared",
        money="tournament",
    )
    check_replies(client, night)  # before the first roll
    night.play_round()
    reply = client.post(
        night.url("/breaks"), json={"command_id": cid(), "minutes": 10}, headers=night.host
    )
    assert reply.status_code == 200, reply.text
    view = check_replies(client, night)  # a round played, a break under way
    assert view["last_round"]["ended_by"] is not None and view["break"]["minutes"] == 10
    while night.state()["status"]["phase"] != "over":
        night.play_round()
    check_replies(client, night)  # over, the prizes waiting for the cards and the judges
    for player in EIGHT:
        reply = client.post(
            night.url("/verifications"),
            json={"command_id": cid(), "player": player},
            headers=night.host,
        )
        assert reply.status_code == 200, reply.text
    for judged in (
        {"prize": "best_costume", "group": "Team 1", "winner": "Ann"},
        {"prize": "best_costume", "group": "Team 2", "winner": "Hal"},
        {"prize": "group_best_costume", "winner": "Team 2"},
    ):
        reply = client.post(
            night.url("/judged"), json={"command_id": cid(), **judged}, headers=night.host
        )
        assert reply.status_code == 200, reply.text
    view = check_replies(client, night)  # over: prizes, money, verification
    assert view["money"] is not None and view["money"]["prizes"]
    assert view["judged"][0]["ranking"] == ["Ann"]
    assert view["verification"]["cards"]["Ann"]["current"] is True
