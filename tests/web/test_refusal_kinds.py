"""The decision refuses in its own words (a kind, a code, a reason) and never with an HTTP
status; the command path is the one place a kind becomes a status
(:data:`bunco.web.night.command_path.STATUS_OF_KIND`)."""

from __future__ import annotations

import dataclasses

import pytest
from test_decide_command import HOST, TABLE_1, VIEWER, Loaded, after_one_roll, cmd, fresh, roll

from bunco.web.decision.commands import Credited
from bunco.web.decision.decide import Decision, decide
from bunco.web.decision.night_options import OptionRefused, call_cleared, set_aside
from bunco.web.decision.refusals import KINDS, Refused
from bunco.web.decision.rights import host_only, table_writer
from bunco.web.night.command_path import (
    STATUS_OF_KIND,
    as_error,
    refusal_error,
    refused_error,
)


def test_each_kind_has_one_status() -> None:
    assert STATUS_OF_KIND == {"forbidden": 403, "conflict": 409, "invalid": 422, "missing": 404}
    assert set(STATUS_OF_KIND) == set(KINDS) == {"forbidden", "conflict", "invalid", "missing"}
    for kind, status in STATUS_OF_KIND.items():
        error = refusal_error(kind, "some_code", "what was wrong", "", {"cause": "x"})
        assert (error.status, error.code, error.message) == (status, "some_code", "what was wrong")
        assert error.expected is None and error.extra == {"cause": "x"}
    with pytest.raises(TypeError):
        STATUS_OF_KIND["conflict"] = 418  # type: ignore[index]


def test_a_decision_has_a_kind_and_no_status() -> None:
    fields = {f.name for f in dataclasses.fields(Decision)}
    assert "kind" in fields and "status" not in fields
    stale = decide(cmd(roll(1), expected_seq=5), fresh(), Loaded([1, 1, 1]))
    assert (stale.verdict, stale.kind, stale.code) == ("refuse", "conflict", "stale")
    assert not hasattr(stale, "status")
    accepted = decide(cmd(roll(1)), fresh(), Loaded([1, 1, 1]))
    assert (accepted.verdict, accepted.kind) == ("accept", None)


@pytest.mark.parametrize(
    ("what", "command", "kind", "code", "status"),
    [
        (
            "a viewer writes",
            cmd(roll(1), authorize=table_writer(VIEWER, 1)),
            "forbidden",
            "forbidden",
            403,
        ),
        (
            "a table's phone ends the night",
            cmd({"type": "end_night"}, authorize=host_only(TABLE_1)),
            "forbidden",
            "forbidden",
            403,
        ),
        ("a version not seen", cmd(roll(1), expected_seq=0), "conflict", "stale", 409),
        (
            "the engine: no such table",
            cmd(roll(9), authorize=table_writer(HOST, 9)),
            "invalid",
            "wrong_table",
            422,
        ),
        (
            "a credited entry without its player",
            cmd(Credited({"type": "tally", "table": 1, "outcome": "bunco"}, 2)),
            "invalid",
            "invalid_request",
            422,
        ),
    ],
    ids=lambda v: v if isinstance(v, str) and " " in v else "",
)
def test_each_refusal_has_its_kind_and_the_command_path_its_status(
    what: str, command: object, kind: str, code: str, status: int
) -> None:
    decision = decide(command, after_one_roll(), Loaded([1, 1, 1]))  # type: ignore[arg-type]
    assert (decision.verdict, decision.kind, decision.code) == ("refuse", kind, code)
    error = as_error(decision)
    assert (error.status, error.code, error.message) == (status, code, decision.reason)
    assert error.expected == decision.expected


def test_a_refusal_raised_by_a_check_keeps_its_kind_and_words() -> None:
    def taken(_state: object, _event: object) -> None:
        raise Refused("conflict", "name_taken", "'ann' is 'Ann'", "another name", seen="Ann")

    decision = decide(cmd({"type": "end_night"}, authorize=taken), fresh(), Loaded([1, 1, 1]))
    assert (decision.kind, decision.code, decision.reason) == (
        "conflict",
        "name_taken",
        "'ann' is 'Ann'",
    )
    assert (decision.expected, decision.extra) == ("another name", {"seen": "Ann"})
    error = as_error(decision)
    assert (error.status, error.as_dict()) == (
        409,
        {
            "error": "name_taken",
            "message": "'ann' is 'Ann'",
            "expected": "another name",
            "seen": "Ann",
        },
    )


def test_the_options_refusals_are_answered_in_the_same_place() -> None:
    with pytest.raises(OptionRefused) as missing:
        call_cleared(3)({})
    full = {"set_aside": [{"table": 1, "id": f"x{n}"} for n in range(500)]}
    with pytest.raises(OptionRefused) as no_room:
        set_aside(2, [{"id": "e"}], "t")(full)
    assert (missing.value.kind, no_room.value.kind) == ("missing", "conflict")
    assert isinstance(missing.value, Refused)
    assert (refused_error(missing.value).status, refused_error(missing.value).code) == (
        404,
        "no_such_call",
    )
    assert (refused_error(no_room.value).status, refused_error(no_room.value).code) == (
        409,
        "too_many",
    )
