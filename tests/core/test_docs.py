"""The rules documentation cannot drift from the code.

- every preset page in docs/presets/ is exactly what scripts/gen_preset_docs.py writes now;
- RULE_SOURCES names a well-formed source for every rule field of every preset;
- every ``$ bunco ...`` example in the hand-written pages prints what the page shows;
- the example party logs fold to the results the pages describe (worked out by hand);
- the house-rules page lists every field and every allowed word, the party-log page
  every event type and tally outcome, the concepts page every alias and roll kind.

When the seed documents are at hand (``BUNCO_SEEDS`` = the folder holding
``000_….txt`` …), every quote in RULE_SOURCES is also checked against its seed's text.
"""

from __future__ import annotations

import dataclasses
import doctest
import enum
import importlib.util
import os
import re
import shlex
import sys
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from bunco.cli import app
from bunco.core.dice import TALLY_ALIASES, Tally
from bunco.core.events import EVENT_TYPES
from bunco.core.party_log import read_log
from bunco.core.presets import ALIASES, PRESETS
from bunco.core.rules import Prize, RollKind, RuleSet
from bunco.party.night_report import night_report

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
SCRIPTS = ROOT / "scripts"
FIELDS = [f.name for f in dataclasses.fields(RuleSet) if f.name != "name"]


def _script(name: str) -> ModuleType:
    """A module of scripts/ (the preset page generator and the rule sources it reads)."""
    if str(SCRIPTS) not in sys.path:
        sys.path.insert(0, str(SCRIPTS))  # gen_preset_docs imports rule_sources beside it
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


SOURCES_MODULE = _script("rule_sources")
RULE_SOURCES = SOURCES_MODULE.RULE_SOURCES
SEED_FILES = SOURCES_MODULE.SEED_FILES
seed_quotes = SOURCES_MODULE.seed_quotes
source_kind = SOURCES_MODULE.source_kind
GEN = _script("gen_preset_docs")


def test_rule_sources_examples_hold() -> None:
    result = doctest.testmod(SOURCES_MODULE)
    assert result.failed == 0 and result.attempted > 0


def _blocks(page: str, info: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(rf"^```{info}\n(.*?)^```", text, flags=re.S | re.M)


def _squeeze(text: str) -> str:
    return " ".join(text.split())


# -- preset pages ---------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["winning-moves", "classic", "scil", "tournament"])
def test_preset_page_is_what_the_generator_writes(preset: str) -> None:
    path = DOCS / "presets" / f"{preset}.md"
    assert path.exists(), f"{path.name} is missing: run python scripts/gen_preset_docs.py"
    assert path.read_text(encoding="utf-8") == GEN.render(preset), (
        f"{path.name} is stale: run python scripts/gen_preset_docs.py"
    )


def test_there_is_a_page_for_every_preset_and_no_other() -> None:
    pages = {p.stem for p in (DOCS / "presets").glob("*.md")}
    assert pages == set(PRESETS) == {"winning-moves", "classic", "scil", "tournament"}


def test_preset_page_lists_every_field_with_value_and_source() -> None:
    page = GEN.render("scil")
    rows = [line for line in page.splitlines() if line.startswith("| `")]
    table = {line.split(" | ")[0][3:-1]: line for line in rows}
    for name in FIELDS:
        assert name in table, name
    assert '| `direction` | `"right"` |' in table["direction"]
    assert "seeds/003: “Play proceeds to right.”" in table["direction"]
    assert '`["most_buncos", "most_mini_buncos", "most_wins", "most_losses"]`' in table["prizes"]
    assert "| `low_trips_continues` | `false` |" in table["low_trips_continues"]
    # what a roll scores in round 4, from the rules: a Baby Bunco ends the turn
    assert "| 2 2 2 | 5 | `mini_bunco` | ends | goes on |" in page
    wm = GEN.render("winning-moves")
    assert "| 2 2 2 | 7 | `low_bunco` | rolls again | goes on |" in wm
    assert "| 4 4 4 | 21 | `bunco` | rolls again | ends at every table |" in wm


def test_generator_check_mode_finds_stale_pages(tmp_path: Path) -> None:
    assert GEN.main(["--out", str(tmp_path), "--check"]) == 1
    assert GEN.main(["--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "classic.md",
        "scil.md",
        "tournament.md",
        "winning-moves.md",
    ]
    assert GEN.main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "classic.md").write_text("edited by hand\n", encoding="utf-8")
    assert GEN.main(["--out", str(tmp_path), "--check"]) == 1


# -- rule sources ------------------------------------------------------------------------


def test_rule_sources_cover_every_field_of_every_preset() -> None:
    assert set(RULE_SOURCES) == set(PRESETS)
    for preset, sources in RULE_SOURCES.items():
        assert list(sources) == FIELDS, preset


def test_rule_sources_are_well_formed() -> None:
    for preset, sources in RULE_SOURCES.items():
        for name, text in sources.items():
            where = f"{preset}.{name}"
            kind = source_kind(text)
            quotes = seed_quotes(text)
            assert text.count("“") == text.count("”") == len(quotes), where
            if kind == "seed":
                assert quotes, where
                assert text.startswith(f"seeds/{quotes[0][0]}: “"), where
            for seed, quote in quotes:
                assert seed in SEED_FILES, where
                assert len(quote.split()) >= 2, where
            if kind == "default":
                assert len(text) > len("bunco default: ") + 10, where


def test_source_kind_refuses_an_unknown_form() -> None:
    with pytest.raises(ValueError, match="must start with"):
        source_kind("because we said so")


def test_sources_cite_the_preset_own_seeds() -> None:
    own = {
        "winning-moves": {"000", "002"},
        "classic": {"001"},
        "scil": {"003"},
        "tournament": {"004"},
    }
    for preset, sources in RULE_SOURCES.items():
        seeds = {
            seed
            for text in sources.values()
            if source_kind(text) == "seed"
            for seed, _ in seed_quotes(text)
        }
        assert seeds == own[preset], preset
    assert RULE_SOURCES["winning-moves"]["bunco_points"] == (
        "seeds/000: “A true Bunco immediately ends the round and scores 21 points.”"
    )
    assert source_kind(RULE_SOURCES["scil"]["after_bell"]) == "rules"
    assert source_kind(RULE_SOURCES["classic"]["prize_groups"]) == "default"


@pytest.mark.skipif(not os.environ.get("BUNCO_SEEDS"), reason="BUNCO_SEEDS not set")
def test_every_quote_is_text_of_its_seed() -> None:
    folder = Path(os.environ["BUNCO_SEEDS"])
    seeds = {
        sid: _squeeze((folder / name).read_text(encoding="utf-8").replace("**", ""))
        for sid, (name, _) in SEED_FILES.items()
    }
    for preset, sources in RULE_SOURCES.items():
        for name, text in sources.items():
            for seed, quote in seed_quotes(text):
                assert _squeeze(quote) in seeds[seed], f"{preset}.{name}: {quote}"


# -- command examples in the hand-written pages --------------------------------------------


def _console_examples() -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for page in ("concepts.md", "house-rules.md"):
        for block in _blocks(page, "console"):
            command: str | None = None
            shown: list[str] = []
            for line in [*block.splitlines(), "$ end"]:
                if line.startswith("$ "):
                    if command is not None:
                        out.append((page, command, "\n".join(shown)))
                    command, shown = line[2:], []
                else:
                    shown.append(line)
    return out


EXAMPLES = _console_examples()


def test_the_pages_have_command_examples() -> None:
    assert len(EXAMPLES) >= 15
    assert all(cmd.startswith("bunco ") for _, cmd, _ in EXAMPLES)


@pytest.mark.parametrize(
    ("page", "command", "shown"), EXAMPLES, ids=[f"{p}:{c}" for p, c, _ in EXAMPLES]
)
def test_command_example_prints_what_the_page_shows(page: str, command: str, shown: str) -> None:
    args = shlex.split(command)[1:]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "200"})
    printed = result.output
    if not shown.strip():
        assert result.exit_code == 0, printed
        return
    assert _squeeze(printed) == _squeeze(shown)
    assert (result.exit_code == 0) == (not shown.startswith("error:"))


# -- example party logs -----------------------------------------------------------------------


def test_example_of_play_of_seed_001_replays_to_8_against_23() -> None:
    (log,) = _blocks("concepts.md", "jsonl")
    night = read_log(log.splitlines())
    report = night_report(night)
    (table,) = report["rounds"][0]["tables"]
    assert table["teams"] == [["Stacy", "Wanda"], ["Carol", "Hannah"]]
    assert table["team_scores"] == [8, 23]
    assert table["points"] == {"Stacy": 3, "Carol": 2, "Wanda": 5, "Hannah": 21}
    assert table["winners"] == ["Carol", "Hannah"]
    assert report["players"]["Hannah"]["buncos"] == 1
    assert report["players"]["Wanda"]["mini_buncos"] == 1
    assert report["players"]["Wanda"]["buncos"] == 0
    assert (report["next"]["set"], report["next"]["round"]) == (1, 2)


def test_party_log_example_folds_to_what_the_page_says() -> None:
    (log,) = _blocks("party-log.md", "jsonl")
    lines = log.splitlines()
    night = read_log(lines)
    # every event but close_cards, which only a night that verifies cards has (below),
    # time_up, which only a timed night has (its own example: tests/core/test_timed_rounds.py),
    # and the room waiting for a phone (its own example: tests/core/test_late_entries.py)
    assert {line.split('"type": "')[1].split('"')[0] for line in lines} == {
        "party",
        *EVENT_TYPES,
    } - {"close_cards", "time_up", "wait_for_phone", "go_on", "seated"}  # one table: nobody moves
    report = night_report(night)
    assert report["phase"] == "over"
    assert report["next"] is None
    assert report["winner"] is None
    rounds = [r["tables"][0] for r in report["rounds"]]
    assert len(rounds) == 5
    assert report["ended_early"] == {"set": 1, "round": 5}
    assert rounds[0]["players"] == ["Ann", "Bea", "Cat", "Dee"]
    assert rounds[0]["team_scores"] == [23, 1]
    assert rounds[0]["winners"] == ["Ann", "Cat"]
    assert rounds[1]["players"] == ["Ann", "Eve", "Bea", "Cat"]
    assert rounds[1]["team_scores"] == [21, 0]
    assert rounds[1]["losers"] == ["Eve", "Cat"]
    assert rounds[2]["scores"] == {"Ann": 22, "Bea": 0, "Cat": 0}
    assert rounds[2]["winners"] == ["Ann"]
    for later in rounds[3:]:
        assert later["players"][0] == "Ann"
        assert later["team_scores"] == [21, 0]
        assert "Ann" in later["winners"]
    cards = report["players"]
    assert (cards["Ann"]["wins"], cards["Ann"]["losses"]) == (5, 0)
    assert (cards["Ann"]["buncos"], cards["Ann"]["points"]) == (4, 87)
    assert (cards["Cat"]["buncos"], cards["Cat"]["points"]) == (1, 21)
    assert cards["Bea"]["points"] == 1
    assert (cards["Eve"]["wins"], cards["Eve"]["losses"]) == (0, 1)
    prizes = {p["category"]: (p["winners"], p["value"]) for p in report["prizes"]}
    assert prizes == {
        "most_buncos": (["Ann"], 4),
        "most_wins": (["Ann"], 5),
        "last_bunco": (["Ann"], None),
        "traveling": (["Bea"], None),
    }
    assert [c["type"] for c in report["changes"]] == [
        "seat",
        "substitute",
        "leave",
        "seat",
        "join",
        "end_night",
    ]
    money = report["money"]
    assert (money["pot"], money["paid_out"], money["left_in_pot"]) == ("25.00", "20.00", "5.00")
    assert [(p["player"], p["prize"], p["amount"]) for p in report["payouts"]] == [
        ("Ann", "most_buncos", "10.00"),
        ("Ann", "most_wins", "5.00"),
        ("Bea", "traveling", "2.50"),
        ("Cat", "best_costume", "2.50"),
    ]
    assert report["drawings"][0]["winner"] == "Bea"
    assert report["absent"] == []  # Dee stepped out and came back
    assert report["closed"] is True
    assert [(c["kind"], c["why"]) for c in report["corrections"]] == [
        ("undo", None),
        ("correction", "Dee's last roll was never entered"),
    ]
    assert report["corrections"][1]["what"] == (
        "Table 1, round 1: roll added for Dee: miss (4 5 6)"
    )
    assert len(night.events) == len(lines) - 1
    assert len(night.effective) == len(lines) - 3  # the undo and the entry it removed


def test_party_lines_in_the_pages_start_a_night() -> None:
    lines = [b for page in ("party-log.md", "house-rules.md") for b in _blocks(page, "json")]
    assert len(lines) == 4
    nights = [read_log(block.splitlines()) for block in lines]
    assert nights[0].seating == (("Ann", "Bea", "Cat", "Dee"),)
    assert nights[1].seating[1] == ("Eve", "Fay", "Gus", None)
    assert nights[1].tables[1].roller_name(3) == "Fay"  # the ghost's partner rolls for it
    assert nights[2].setup["money"]["payouts"] == [
        {"prize": "most_buncos", "amount": "10.00"},
        {"prize": "most_wins", "share": "50%"},
    ]
    assert night_report(nights[2])["money"]["pot"] == "20.00"
    assert nights[3].rules.wipeout is True
    assert (nights[3].rules.traveling, nights[3].rules.traveling_excluded_round) == ("123", 5)


# -- lists that must stay complete ---------------------------------------------------------------


def test_house_rules_page_lists_every_field_and_allowed_word() -> None:
    text = (DOCS / "house-rules.md").read_text(encoding="utf-8")
    for name in FIELDS:
        assert f"| `{name}` |" in text, name
    for f in dataclasses.fields(RuleSet):
        if isinstance(f.default, enum.Enum) and f.name not in ("low_trips_kind", "high_trips_kind"):
            for member in type(f.default):
                assert f"`{member.value}`" in text, (f.name, member.value)
    for prize in Prize:
        assert f"`{prize.value}`" in text, prize
    for kind in ("mini_bunco", "low_bunco", "high_bunco"):
        assert f"`{kind}`" in text


def test_party_log_page_lists_every_event_and_tally() -> None:
    text = (DOCS / "party-log.md").read_text(encoding="utf-8")
    for kind in EVENT_TYPES:
        assert f"| `{kind}` |" in text, kind
    for alias, tally in TALLY_ALIASES.items():
        assert f"`{alias}`" in text, alias
        assert f"`{tally.value}`" in text, tally
    assert len(Tally) == 8
    for key in (
        "rules",
        "house_rules",
        "players",
        "tables",
        "sets",
        "seed",
        "prizes",
        "prize_ties",
        "groups",
        "bots",
        "name",
    ):
        assert f"| `{key}` |" in text, key


def test_concepts_page_lists_every_alias_and_roll_kind() -> None:
    text = (DOCS / "concepts.md").read_text(encoding="utf-8")
    for alias in ALIASES:
        assert f"`{alias}`" in text, alias
    for kind in RollKind:
        assert f"| `{kind.value}` |" in text, kind
    for preset in PRESETS:
        assert f"(presets/{preset}.md)" in text
