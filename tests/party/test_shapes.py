"""The engine's records have the one shape the engine names for them, which the read models
and the reply models hold as they are: a score card, a roll-off, a table now, each with no
key the shape does not name."""

from __future__ import annotations

from pydantic import ConfigDict, TypeAdapter

from bunco.core.cards import CardView
from bunco.core.night import Night
from bunco.core.rolloff import RollOff, RollOffView
from bunco.party.shapes import TableView
from bunco.party.view import table_view

STRICT = ConfigDict(extra="forbid")  # on a list of the type: a type's own config stands


def test_a_roll_off_reads_as_its_view() -> None:
    rolloff = RollOff.begin("set 1", ("Ann", "Bea"), round_no=1, goal=5)
    value = rolloff.as_dict()
    assert TypeAdapter(list[RollOffView], config=STRICT).validate_python([value]) == [value]
    assert value["players"] == ["Ann", "Bea"] and value["goal"] == 5


def test_a_played_card_and_table_read_as_their_shapes() -> None:
    night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
    for dice in ([1, 1, 1], [1, 2, 3], [2, 3, 4], [1, 1, 1]):
        night = night.apply({"type": "roll", "table": 1, "dice": dice})
    cards = [night.cards[name].as_dict() for name in night.roster]
    assert TypeAdapter(list[CardView], config=STRICT).validate_python(cards) == cards
    view = table_view(night.tables[0], night.rules)
    assert TypeAdapter(list[TableView], config=STRICT).validate_python([view]) == [view]
    assert view["last_roll"] is not None and view["last_roll"]["dice"] == [1, 1, 1]
