"""A roll for high entered as its total (real dice at a scil table: one tap per player):
the tally event's ``total``, folded like three faces of that total, ties re-rolled among
those tied as the rules say; refused anywhere the faces or the points count."""

from __future__ import annotations

import pytest

from bunco.core.dice import total_dice
from bunco.core.errors import InvalidDice, InvalidEvent, NotAllowedNow
from bunco.core.events import normalize_event
from bunco.core.night import Night
from bunco.core.table import Status

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def high(night: Night, total: int, table: int = 1) -> Night:
    return night.apply({"type": "tally", "table": table, "total": total})


def test_every_total_stands_for_faces_of_that_total() -> None:
    for total in range(3, 19):
        faces = total_dice(total)
        assert sum(faces) == total and all(1 <= f <= 6 for f in faces)
        assert (len(set(faces)) == 1) == (total in (3, 18))  # trips only where forced
    for wrong in (2, 19):
        with pytest.raises(InvalidDice):
            total_dice(wrong)


def test_scil_roll_for_high_by_totals_with_a_tie() -> None:
    night = Night.start({"players": FOUR, "rules": "scil"})
    table = night.tables[0]
    assert table.status is Status.FIRST_ROLL
    order = [night.tables[0].roller]
    for total in (12, 7, 12):  # the first and the third tie at 12
        night = high(night, total)
        order.append(night.tables[0].roller)
    night = high(night, 9)
    t = night.tables[0]
    # the two who rolled 12 roll again, in the order they rolled; nobody else
    assert t.status is Status.FIRST_ROLL and t.roller == order[0]
    assert sorted(t.contenders) == sorted(night.seating[0].index(p) for p in (order[0], order[2]))
    night = high(night, 5)
    assert night.tables[0].roller == order[2]
    night = high(night, 14)  # the second tied player wins the re-roll and starts
    t = night.tables[0]
    assert t.status is Status.PLAYING and t.roller == order[2]
    assert sum(t.points) == 0 and all(r.points == 0 for r in t.rolls)
    assert [sum(r.dice) for r in t.rolls] == [12, 7, 12, 9, 5, 14]
    # the log keeps what was entered: the totals, not faces nobody saw
    tallies = [e for e in night.events if e["type"] == "tally"]
    assert [e.get("total") for e in tallies] == [12, 7, 12, 9, 5, 14]
    assert all("outcome" not in e for e in tallies)


def test_a_total_is_refused_where_the_dice_score() -> None:
    night = Night.start({"players": FOUR, "rules": "classic"})  # the scorekeeper starts
    with pytest.raises(NotAllowedNow, match="not rolling for high"):
        high(night, 12)
    scil = Night.start({"players": FOUR, "rules": "scil"})
    with pytest.raises(NotAllowedNow, match="rolling for high total"):
        scil.apply({"type": "tally", "table": 1, "outcome": "miss"})


@pytest.mark.parametrize(
    ("event", "said"),
    [
        ({"type": "tally", "table": 1, "total": 2}, "not what three dice can show"),
        ({"type": "tally", "table": 1, "total": 19}, "not what three dice can show"),
        ({"type": "tally", "table": 1, "total": "12"}, "not what three dice can show"),
        ({"type": "tally", "table": 1, "total": True}, "not what three dice can show"),
        ({"type": "tally", "table": 1, "total": 12, "outcome": "miss"}, "not both"),
    ],
)
def test_bad_totals_are_refused_with_what_was_expected(event: dict[str, object], said: str) -> None:
    with pytest.raises(InvalidEvent, match=said) as refused:
        normalize_event(event)
    assert refused.value.expected


def test_a_total_is_undone_like_a_roll() -> None:
    start = Night.start({"players": FOUR, "rules": "scil"})
    night = high(start, 10)
    assert night.tables[0].roller != start.tables[0].roller
    night = night.apply({"type": "undo", "table": 1})
    assert len(night.tables[0].rolls) == 0
    assert night.tables[0].roller == start.tables[0].roller
