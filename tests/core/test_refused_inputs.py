"""What the docs refuse, the engine refuses: the one check behind the API and the log reader.

Names (control, bidi and invisible characters; look-alikes as the same person), numbers
(JSON integers where integers are meant, in range before any arithmetic) and amounts.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bunco.core.errors import BuncoError, InvalidDice, InvalidEvent, InvalidSetup, LogError
from bunco.core.events import normalize_event
from bunco.core.money import parse_amount
from bunco.core.names import name_key
from bunco.core.night import Night
from bunco.core.party_log import read_log
from huge_values import HUGE_VALUES

FOUR = ["Ann", "Bea", "Cat", "Dee"]


def party(**extra: Any) -> dict[str, Any]:
    return {"type": "party", "rules": "classic", "players": FOUR, **extra}


@pytest.mark.parametrize(
    "name",
    [
        "Ann\x00",
        "An\nn",
        "Ann\t",
        "\u202eAnn",
        "Ann\u2066",
        "Ann\u200b",
        "\ufeffAnn",
        "A\u200dnn",
        "Ann\u00ad",
        "\u3164",
        "Ann\ud800",
    ],
)
def test_names_with_control_bidi_or_invisible_characters_are_refused(name: str) -> None:
    with pytest.raises(InvalidSetup) as err:
        Night.start(party(players=[name, "Bea"]))
    assert err.value.expected  # says what a name may hold
    assert "U+" in err.value.message  # and which character it was


def test_names_are_put_in_one_spelling() -> None:
    decomposed = "Jose\u0301  Marie"
    night = Night.start(party(players=[decomposed, "Bea"]))
    assert night.roster[0] == "Jos\u00e9 Marie"
    night = night.apply({"type": "roll", "table": 1, "dice": [1, 2, 3], "player": decomposed})
    assert night.tables[0].rolls[-1].roller == "Jos\u00e9 Marie"


@pytest.mark.parametrize(
    "twin", ["ANN", "ann", " Ann ", "\u0410nn", "\uff21nn", "\uff21\uff2e\uff2e", "\u0391nn"]
)
def test_look_alike_names_are_the_same_person(twin: str) -> None:
    assert name_key(twin) == name_key("Ann")
    with pytest.raises(InvalidSetup, match=r"same name|listed twice"):
        Night.start(party(players=["Ann", twin, "Cat", "Dee"]))


def test_names_that_only_look_close_stay_different() -> None:
    assert len({name_key(n) for n in ["Ann", "Anne", "Änn", "Jan", "Ian"]}) == 5


def test_a_late_arrival_with_a_look_alike_name_is_refused() -> None:
    night = Night.start(party())
    with pytest.raises(InvalidSetup, match="the player 'Ann'"):
        night.apply({"type": "join", "player": "\u0410NN"})
    assert "Eve" in night.apply({"type": "join", "player": "Eve"}).roster


@pytest.mark.parametrize("dice", [["1", 1, 4], [1.0, 1, 4], [True, 1, 4], "114", [1, 1]])
def test_the_log_reader_takes_dice_as_the_api_does(dice: Any) -> None:
    with pytest.raises(InvalidDice):
        normalize_event({"type": "roll", "table": 1, "dice": dice})


@pytest.mark.parametrize("table", ["1", 1.0, True, 0, 10_001, pytest.param(10**400, id="10^400")])
def test_tables_are_json_integers_in_range(table: Any) -> None:
    with pytest.raises(InvalidEvent) as err:
        normalize_event({"type": "roll", "table": table, "dice": [1, 2, 3]})
    assert err.value.expected and len(err.value.message) < 200


@pytest.mark.parametrize(
    "value", [21.5, "21", 21.0, True, pytest.param(10**400, id="10^400"), -(10**10), [21]]
)
def test_whole_number_house_rules_take_json_integers(value: Any) -> None:
    with pytest.raises(BuncoError) as err:
        Night.start(party(house_rules={"team_target": value}))
    assert err.value.expected and len(err.value.message) < 200


def test_a_whole_number_house_rule_is_played_as_given() -> None:
    assert Night.start(party(house_rules={"team_target": 11})).rules.team_target == 11


@pytest.mark.parametrize("field", ["judged", "currency", "name", "checker"])
def test_nul_and_newlines_are_refused_in_every_text(field: str) -> None:
    bad = "Best\x00Costume" if field != "currency" else "$\n"
    with pytest.raises(BuncoError, match="control character"):
        if field == "judged":
            Night.start(party(judged=[bad]))
        elif field == "currency":
            Night.start(party(money={"currency": bad, "buy_in": "5"}))
        elif field == "name":
            Night.start(party(name=bad))
        else:
            normalize_event({"type": "verify", "player": "Ann", "checker": bad})


@pytest.mark.parametrize(
    "amount",
    [
        "1e30",
        10**40,
        10**26,
        "1E+999999999",
        pytest.param("9" * 5000, id="5000 nines"),
        pytest.param(10**5000, id="10^5000"),
        "-5",
        "1.005",
        "NaN",
        "Infinity",
        5.5,
    ],
)
def test_amounts_are_checked_in_range_before_any_arithmetic(amount: Any) -> None:
    with pytest.raises(InvalidSetup) as err:
        parse_amount(amount, "buy_in")
    assert err.value.expected and len(err.value.message) < 120
    with pytest.raises(InvalidSetup):
        Night.start(party(money={"buy_in": amount}))


def test_amounts_in_range_are_kept_exactly() -> None:
    assert parse_amount("1000000000", "buy_in") == Decimal("1000000000.00")
    assert parse_amount(12, "buy_in") == Decimal("12.00")


def _log(*events: dict[str, Any]) -> list[str]:
    return [json.dumps(party()), *(json.dumps(e) for e in events)]


@pytest.mark.parametrize(
    "line",
    [
        '{"type": "roll", "table": 1, "dice": [1, 2, ' + "9" * 5001 + "]}",
        '{"type": "party", "seed": NaN}',
        '{"type": "roll", "table": 1, "dice": [Infinity, 1, 2]}',
    ],
)
def test_numbers_json_cannot_hold_are_a_line_error_not_a_traceback(line: str) -> None:
    with pytest.raises(LogError) as err:
        read_log([json.dumps(party()), line])
    assert err.value.line == 2 and err.value.expected


def test_an_error_never_echoes_more_than_an_excerpt_of_the_line() -> None:
    huge = "x" * 1_000_000
    for event in (
        {"type": huge},
        {"type": "join", "player": huge},
        {"type": "roll", "table": huge, "dice": [1, 2, 3]},
    ):
        with pytest.raises(LogError) as err:
            read_log(_log(event))
        assert len(str(err.value)) < 1000


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**500), max_value=10**500)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
EVENT_FIELDS = [
    "table",
    "dice",
    "outcome",
    "player",
    "out",
    "in",
    "checker",
    "tables",
    "prize",
    "group",
    "winner",
    "ranking",
    "minutes",
    "started_at",
    "candidates",
    "pick",
    "exclude_winners",
    "name",
    "id",
    "at",
]
SETUP_FIELDS = [
    "rules",
    "house_rules",
    "players",
    "tables",
    "sets",
    "seed",
    "prizes",
    "prize_ties",
    "dice",
    "groups",
    "bots",
    "judged",
    "must_be_present",
    "one_prize_per_person",
    "money",
    "name",
    "created",
]
KINDS = [
    "roll",
    "tally",
    "undo",
    "substitute",
    "join",
    "leave",
    "verify",
    "seat",
    "end_night",
    "start_round",
    "judge",
    "absent",
    "present",
    "break",
    "end_break",
    "drawing",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(KINDS) | JSON,
    fields=st.dictionaries(st.sampled_from(EVENT_FIELDS), JSON, max_size=5),
)
def test_any_json_in_an_event_is_refused_as_a_bunco_error_or_applied(
    kind: Any, fields: dict[str, Any]
) -> None:
    night = Night.start(party(judged=["Best Costume"]))
    try:
        night.apply({"type": kind, **fields})
    except BuncoError as exc:
        assert exc.expected
        assert len(str(exc)) < 2000


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields=st.dictionaries(st.sampled_from(SETUP_FIELDS), JSON, max_size=4))
def test_any_json_in_a_party_line_is_refused_as_a_bunco_error_or_started(
    fields: dict[str, Any],
) -> None:
    try:
        Night.start(party(**fields))
    except BuncoError as exc:
        assert exc.expected


@pytest.mark.parametrize("value", HUGE_VALUES)
def test_a_huge_value_in_any_field_of_any_event_gets_a_short_refusal(value: Any) -> None:
    """Every event type with every field set to a huge value, one at a time: refused as a
    Bunco error whose message (it quotes the value) stays under 2,000 characters, or
    applied; never another exception."""
    night = Night.start(party(judged=["Best Costume"]))
    refused = 0
    for kind in KINDS:
        for field in EVENT_FIELDS:
            try:
                night.apply({"type": kind, field: value})
            except BuncoError as exc:
                refused += 1
                assert exc.expected, (kind, field)
                assert len(str(exc)) < 2000, (kind, field, len(str(exc)))
    assert refused > len(KINDS) * len(EVENT_FIELDS) // 2
