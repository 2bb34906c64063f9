"""003 (``scil``): "You may not be on the same team with someone two rounds in a row."

A hand-made party log, written from the seed: eight players, round 1 played to the head
table's Bunco, then the host seats everyone by hand exactly as in round 1. The engine's
own moves never pair anyone again; a host's seating that does is refused with the rule
named, and accepted only when the event says it overrides the rule, which the cards and
the replay then show.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bunco.core.errors import InvalidEvent, InvalidSetup, LogError
from bunco.core.events import normalize_event
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report

ROUND_1 = """\
{"type": "party", "rules": "scil", "players": ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]}
{"type": "roll", "table": 1, "dice": [6, 6, 5], "player": "Ann"}
{"type": "roll", "table": 1, "dice": [3, 3, 4], "player": "Dee"}
{"type": "roll", "table": 1, "dice": [2, 2, 3], "player": "Cat"}
{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Bea"}
{"type": "roll", "table": 2, "dice": [6, 6, 5], "player": "Eve"}
{"type": "roll", "table": 2, "dice": [3, 3, 4], "player": "Hal"}
{"type": "roll", "table": 2, "dice": [2, 2, 3], "player": "Gus"}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Fay"}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Eve"}
{"type": "roll", "table": 2, "dice": [2, 3, 4], "player": "Eve"}
{"type": "roll", "table": 1, "dice": [1, 1, 1], "player": "Ann"}
"""
# Ann and Eve roll highest (the dice pass to the right in scil) and start; Eve scores a 1 and passes; Ann's Bunco (21) rings
# the bell: Ann & Cat win table 1, Eve & Gus table 2 (1 to 0).

SAME_AGAIN = [["Ann", "Bea", "Cat", "Dee"], ["Eve", "Fay", "Gus", "Hal"]]
NEW_PARTNERS = [["Ann", "Bea", "Dee", "Cat"], ["Eve", "Fay", "Hal", "Gus"]]


def _night(*events: dict[str, object]) -> Night:
    return read_log([*ROUND_1.splitlines(), *(json.dumps(e) for e in events)])


def test_round_1_is_played_as_the_seed_says() -> None:
    night = _night()
    (first,) = night.history
    assert [(t.seats, t.winners) for t in first.tables] == [
        (("Ann", "Bea", "Cat", "Dee"), ("Ann", "Cat")),
        (("Eve", "Fay", "Gus", "Hal"), ("Eve", "Gus")),
    ]
    # the engine's own seating for round 2 pairs nobody again
    before = {frozenset(p) for t in SAME_AGAIN for p in ((t[0], t[2]), (t[1], t[3]))}
    after = {frozenset((t[0], t[2])) for t in night.seating} | {
        frozenset((t[1], t[3])) for t in night.seating
    }
    assert not before & after


def test_a_seating_that_re_forms_the_partners_is_refused_naming_the_rule() -> None:
    with pytest.raises(LogError) as caught:
        _night({"type": "seat", "tables": SAME_AGAIN})
    message = caught.value.message
    assert "line 13" in message
    assert "keeps partners of set 1, round 1 together" in message
    assert "Ann & Cat; Bea & Dee; Eve & Gus; Fay & Hal" in message
    assert "no_repeat_partners" in message and "two rounds in a row" in message
    assert caught.value.expected is not None
    assert '"overrides": ["no_repeat_partners"]' in caught.value.expected


def test_one_pair_kept_is_enough_to_refuse() -> None:
    tables = [["Ann", "Bea", "Cat", "Hal"], ["Eve", "Fay", "Dee", "Gus"]]  # only Ann & Cat
    with pytest.raises(InvalidSetup, match=r"together \(Ann & Cat\)"):
        _night().apply({"type": "seat", "tables": tables})


def test_new_partners_are_accepted_and_nothing_is_marked() -> None:
    night = _night({"type": "seat", "tables": NEW_PARTNERS})
    assert night.seating == tuple(tuple(t) for t in NEW_PARTNERS)
    assert "partners_kept" not in night.changes[-1]


def test_the_override_is_accepted_and_recorded() -> None:
    night = _night({"type": "seat", "tables": SAME_AGAIN, "overrides": ["no_repeat_partners"]})
    assert night.seating == tuple(tuple(t) for t in SAME_AGAIN)
    change = night.changes[-1]
    assert change["overrides"] == ["no_repeat_partners"]
    assert change["partners_kept"] == [
        ["Ann", "Cat"],
        ["Bea", "Dee"],
        ["Eve", "Gus"],
        ["Fay", "Hal"],
    ]
    assert (change["set"], change["round"]) == (1, 2)
    assert night_report(night)["changes"][-1]["partners_kept"][0] == ["Ann", "Cat"]


ROUND_2 = """\
{"type": "seat", "tables": [["Ann", "Bea", "Cat", "Dee"], ["Eve", "Fay", "Gus", "Hal"]], "overrides": ["no_repeat_partners"]}
{"type": "roll", "table": 1, "dice": [6, 6, 5], "player": "Ann"}
{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Dee"}
{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Cat"}
{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Bea"}
{"type": "roll", "table": 2, "dice": [6, 6, 5], "player": "Eve"}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Hal"}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Gus"}
{"type": "roll", "table": 2, "dice": [1, 2, 3], "player": "Fay"}
{"type": "roll", "table": 2, "dice": [2, 3, 4], "player": "Eve"}
{"type": "roll", "table": 2, "dice": [1, 3, 4], "player": "Eve"}
{"type": "roll", "table": 1, "dice": [2, 2, 2], "player": "Ann"}
"""
# The host keeps the partners on purpose; Ann's Bunco of 2s rings the bell again.


def test_the_override_shows_on_the_cards_and_in_the_replay(tmp_path: Path) -> None:
    log = tmp_path / "night.jsonl"
    log.write_text(ROUND_1 + ROUND_2)
    assert read_log(log.read_text().splitlines()).round_no == 3
    result = subprocess.run(
        [sys.executable, "-m", "bunco", "replay", str(log)],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
        env={"COLUMNS": "200", "NO_COLOR": "1"},
    )
    out = result.stdout
    note = (
        "Ann & Cat, Bea & Dee, Eve & Gus, Fay & Hal kept as partners by the host "
        "(overriding no_repeat_partners)"
    )
    rounds, cards = out.split("Score cards")[:2]
    rounds = " ".join(rounds.split())  # a caption wraps at the table's width
    assert rounds.count(note) == 1  # under round 2, the round they played together
    assert rounds.index("Set 1, round 2") < rounds.index(note)
    assert f"* set 1, round 2: {note}" in " ".join(cards.split())
    ann = next(line for line in cards.splitlines() if "Ann" in line)
    bea = next(line for line in cards.splitlines() if "Bea" in line)
    assert "WW*" in ann and "LL*" in bea  # the round played with the kept partners


@pytest.mark.parametrize("overrides", [["partners"], "no_repeat_partners", [1]])
def test_an_override_that_names_no_seating_rule_is_refused(overrides: object) -> None:
    with pytest.raises(InvalidEvent, match="not a list of rules a seating may override"):
        normalize_event({"type": "seat", "tables": SAME_AGAIN, "overrides": overrides})


def test_other_presets_have_no_such_rule() -> None:
    night = Night.start(
        {"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]}
    )
    night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 1]})  # Bunco: the bell
    night = night.apply({"type": "roll", "table": 1, "dice": [2, 3, 4]})  # the turn ends
    assert night.round_no == 2
    seating = [list(t.seats) for t in night.history[-1].tables]
    night = night.apply({"type": "seat", "tables": seating})  # classic: allowed, unmarked
    assert "partners_kept" not in night.changes[-1]


def test_the_override_shows_on_the_filled_score_cards(tmp_path: Path) -> None:
    """The PDF score cards mark the round played with a kept partner (``2*``) and say why
    beside the set, and the host's sheet lists the partnerships kept; a night whose host
    kept nobody together says nothing of it."""
    from bunco.sheets.filled import filled_sheets_pdf

    def text(log: str) -> str:
        path = tmp_path / "cards.pdf"
        path.write_bytes(filled_sheets_pdf(read_log(log.splitlines())))
        return subprocess.run(
            ["pdftotext", "-layout", str(path), "-"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        ).stdout

    if not Path("/usr/bin/pdftotext").exists():
        pytest.skip("pdftotext (poppler-utils) is not installed")
    kept = text(ROUND_1 + ROUND_2)
    squeezed = " ".join(kept.split())
    for name, partner in (("Ann", "Cat"), ("Bea", "Dee"), ("Eve", "Gus"), ("Fay", "Hal")):
        assert (
            f"* Round 2: partner {partner} kept by the host (overriding no_repeat_partners)"
            in squeezed
        ), name
    rows = [line.split() for line in kept.splitlines() if line.strip().startswith("2*")]
    assert len(rows) == 4  # round 2's row on each of the four cards a row of the page holds
    assert all(row[0] == "2*" and "2*" in row[1:] for row in rows)  # two cards across
    assert (
        "* Round 2: Ann & Cat, Bea & Dee, Eve & Gus, Fay & Hal kept as partners by the "
        "host (overriding no_repeat_partners)"
    ) in squeezed  # the host's sheet
    plain = text(ROUND_1)  # round 1 only: nobody kept together
    assert "Ann" in plain and "kept" not in plain and "1*" not in plain
