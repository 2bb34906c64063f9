"""``bunco play`` driven through a pseudo-terminal, as a person at the keyboard would."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pexpect

from bunco.core.party_log import read_log
from bunco.party.night_report import night_report
from terminal_child import interrupt

PHYS = "dice or tally"


def log_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def send(child: Any, line: str, expect: str = PHYS) -> str:
    """Type ``line`` + Enter and return what the screen showed up to the next ``expect``."""
    child.sendline(line)
    child.expect_exact(expect)
    return str(child.before)


def no_prize_money(child: Any) -> Any:
    """Answer the new night's first question, about prizes and money: Enter, no."""
    child.expect_exact("Prizes and money")
    child.expect_exact("y/n (n): ")
    child.sendline("")
    return child


def classic_table(spawn: Any, log: Path) -> Any:
    """``bunco play --physical`` at one classic table (Ann, Bea, Cat, Dee), at Ann's first roll."""
    child = spawn(
        "play", "--physical", "--players", "Ann,Bea,Cat,Dee", "--rules", "classic",
        "--sets", "1", "--log", str(log),
    )  # fmt: skip
    no_prize_money(child)
    child.expect_exact("· Ann rolls — dice or tally")
    return child


def test_physical_dice_tallies_undo_round_end_quit_and_resume(spawn: Any, tmp_path: Path) -> None:
    log = tmp_path / "p.jsonl"
    child = classic_table(spawn, log)
    # the teams are named by their players (Us/Them would be the scorekeeper's words)
    assert "Ann & Cat" in child.before and "Bea & Dee" in child.before
    assert "Us:" not in child.before and "Them" not in child.before
    assert "Round 1 — rolling for 1s" in child.before
    assert child.before.count("to 21 · playing") == 1  # the table's panel, once
    shown = send(child, "1 1 4")
    assert "Ann: 1 1 4  +2  (Ann & Cat 2 – Bea & Dee 0)" in shown
    assert "╭" not in shown  # a roll prints its line, not the whole panel again
    shown = send(child, "4 4 7")
    assert "a die cannot show 7" in shown and "type instead:" in shown
    shown = send(child, "2")  # quick tally: two 1's
    assert "+2  (Ann & Cat 4 – Bea & Dee 0)" in shown
    shown = send(child, "u")
    assert "↶ undone: Ann's tally +2 (+2)" in shown  # who, what was typed, what it scored
    assert re.search(r"Ann & Cat ◀ +2 ", shown)  # the score went back: the panel again
    send(child, "m", "· Bea rolls — dice or tally")
    child.sendline("b")
    child.expect_exact("· Bea rolls — dice or tally")  # the bell rang; Bea rolls on (classic)
    shown = child.before
    assert "BUNCO!" in shown and "\a" in shown
    assert "DING! the table reached 21" in shown
    shown = send(child, "m", "Enter for round 2")  # Bea's turn ends: the round is over
    assert "Set 1, round 1: results" in shown
    assert re.search(r"│ +1 │ 2 – 21 +│ Bea, Dee +│ Ann, Cat +│", shown)
    assert "Round 2 — rolling for 2s" not in shown  # the results wait for Enter
    shown = send(child, "", PHYS)
    assert "Round 2 — rolling for 2s" in shown
    child.sendline("q")
    child.expect(pexpect.EOF)
    # the log says the dice are typed: resuming needs no --physical
    assert f"Continue with: bunco play --resume {log}\r\n" in child.before
    child.wait()
    assert child.exitstatus == 0
    events = log_lines(log)
    assert events[0]["players"] == ["Ann", "Bea", "Cat", "Dee"] and events[0]["bots"] == []
    assert events[0]["dice"] == "physical"
    assert events[1:] == [
        {"type": "roll", "table": 1, "dice": [1, 1, 4], "player": "Ann"},
        {"type": "tally", "table": 1, "outcome": "+2", "player": "Ann"},
        {"type": "undo", "table": 1},
        {"type": "tally", "table": 1, "outcome": "miss", "player": "Ann"},
        {"type": "tally", "table": 1, "outcome": "bunco", "player": "Bea"},
        {"type": "tally", "table": 1, "outcome": "miss", "player": "Bea"},
    ]
    night = read_log(log.read_text().splitlines())
    assert night.round_no == 2 and night.cards["Bea"].buncos == 1

    # Resume: round 2 goes on from the saved log; Ctrl-C stops and saves.
    roller = night.tables[0].roller
    child = spawn("play", "--resume", str(log))  # physical, as the log says
    child.expect_exact(f"· {roller} rolls — dice or tally")
    assert "Continuing the night in" in child.before
    assert "Round 2 — rolling for 2s" in child.before
    assert child.before.count("to 21 · playing") == 1  # the panel once on resume, not twice
    shown = send(child, "2 2 2")
    assert f"{roller}: 2 2 2  BUNCO! +21" in shown
    interrupt(child)
    assert f"Stopped. Continue with: bunco play --resume {log}\r\n" in child.before
    child.wait()
    assert child.exitstatus == 130
    events = log_lines(log)
    assert events[-1] == {"type": "roll", "table": 1, "dice": [2, 2, 2], "player": roller}
    resumed = read_log(log.read_text().splitlines())
    assert resumed.tables[0].side_scores[resumed.tables[0].seats.index(roller) % 2] == 21


def test_digital_roll_against_bots_then_quit_and_resume(spawn: Any, tmp_path: Path) -> None:
    log = tmp_path / "d.jsonl"
    args = ("play", "--players", "4", "--human", "Zed", "--rules", "classic", "--sets", "1")
    child = spawn(*args, "--speed", "0", "--seed", "3", "--log", str(log))
    no_prize_money(child)
    child.expect("Zed, your roll")
    assert "Zed & Bea" in child.before  # Zed and the bots Ann, Bea, Cal; partners opposite
    child.sendline("")
    child.expect("Zed, your roll")
    shown = child.before
    events = log_lines(log)
    first = events[1]
    assert first["player"] == "Zed" and first["table"] == 1
    faces = " ".join(map(str, first["dice"]))
    assert f"Zed: {faces}" in shown
    assert "┌───────┐ ┌───────┐ ┌───────┐" in shown  # the dice drawn as faces
    bots = [e["player"] for e in events[2:]]
    assert set(bots) <= {"Zed", "Ann", "Bea", "Cal"} and bots  # the bots rolled on their own
    shown = send(child, "u", "Zed, your roll")
    assert "undo is for typed dice" in shown
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert "Saved. Continue with: bunco play --resume" in child.before
    saved = log.read_text()

    child = spawn("play", "--resume", str(log), "--speed", "0")
    child.expect("Zed, your roll")
    child.sendline("")
    child.expect("Zed, your roll")
    child.sendline("q")
    child.expect(pexpect.EOF)
    after = log.read_text()
    assert after.startswith(saved) and len(after.splitlines()) > len(saved.splitlines())
    # The resumed game drew its dice from the same seed: a second run from the same saved
    # log would roll exactly the same.
    assert read_log(after.splitlines()).setup["seed"] == 3


def test_prompts_when_options_are_missing(spawn: Any, tmp_path: Path) -> None:
    child = spawn("play", "--speed", "0", "--log", "x.jsonl")
    child.expect("Preset")
    child.sendline("tournament")
    child.expect("Players")
    child.sendline("4")
    child.expect("Your name")
    child.sendline("Zed")
    child.expect("Sets")
    child.sendline("1")
    child.expect("Prizes and money")
    child.sendline("")  # no
    child.expect("Zed, your roll")
    child.sendline("q")
    child.expect(pexpect.EOF)
    party = log_lines(tmp_path / "x.jsonl")[0]
    assert party["rules"] == "tournament" and "money" not in party
    assert party["players"] == ["Zed", "Ann", "Bea", "Cal"]
    assert party["bots"] == ["Ann", "Bea", "Cal"]


def test_host_words_between_rounds_substitute_and_end_the_night(spawn: Any, tmp_path: Path) -> None:
    log = tmp_path / "h.jsonl"
    child = classic_table(spawn, log)
    send(child, "b")  # Ann: a Bunco, 21, the bell; she rolls on
    send(child, "m", "Enter for round 2")  # her turn ends and so does round 1
    shown = send(child, "sub Dee Zoe", "Enter for round 2")  # the host's words at the pause
    assert "Zoe takes Dee's seat." in shown
    shown = send(child, "")
    assert "Round 2 — rolling for 2s" in shown
    assert "Zoe" in shown  # the tables are shown again, with Zoe
    shown = send(child, "sub Dee")
    assert "sub needs two names" in shown and "sub Hal Zoe" in shown
    send(child, "m")  # round 2 has begun
    shown = send(child, "end")
    assert "the night can only be ended between rounds, and a round is under way" in shown
    assert "type instead: end once round 2 is over, before the next first roll" in shown
    shown = send(child, "join Ivy")
    assert "round 2 is under way: join waits for its end" in shown
    assert "type instead: join Ivy once round 2 is over" in shown
    send(child, "b")
    child.sendline("m")  # the Bunco's roller finishes: round 2 is over
    child.expect_exact("Enter for round 3")
    child.sendline("end")
    child.expect_exact("The host ends the night after set 1, round 2.")
    faces = iter(["6 5 4", "3 2 1", "6 6 6", "2 2 1", "6 6 6", "5 5 5", "6 6 1", "4 4 4"] * 20)
    while child.expect_exact([PHYS, "the three faces", "The night is over"]) < 2:
        child.sendline(next(faces))  # roll-offs for tied prizes: faces for high, then play
    child.expect(pexpect.EOF)
    child.wait()
    assert child.exitstatus == 0
    events = log_lines(log)
    assert {"type": "substitute", "out": "Dee", "in": "Zoe"} in events
    assert {"type": "end_night"} in events
    night = read_log(log.read_text().splitlines())
    report = night_report(night)
    assert night.phase == "over" and report["ended_early"] == {"set": 1, "round": 2}
    assert len(report["rounds"]) == 2
    assert report["players"]["Ann"]["buncos"] == 1
    assert report["players"]["Zoe"]["wins"] + report["players"]["Zoe"]["losses"] == 1


def test_commands_to_copy_are_never_wrapped_at_80_columns(spawn: Any, tmp_path: Path) -> None:
    """A resume command longer than the terminal is printed on one line, to copy whole."""
    folder = tmp_path.joinpath(*["a-rather-long-folder-name"] * 6)
    folder.mkdir(parents=True)
    log = folder / "night.jsonl"
    hint = f"bunco play --resume {log}"  # the log says its dice are typed: no --physical
    assert len(hint) > 150
    child = spawn(
        "play", "--physical", "--players", "Ann,Bea,Cat,Dee", "--rules", "classic",
        "--sets", "1", "--log", str(log), columns=80,
    )  # fmt: skip
    no_prize_money(child)
    child.expect_exact(PHYS)
    assert f"Saving the night in {log}\r\n" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert f"Saved. Continue with: {hint}\r\n" in child.before
    child = spawn("play", "--resume", str(log), "--physical", columns=80)
    child.expect_exact(PHYS)
    child.sendeof()  # Ctrl-D at the prompt
    child.expect(pexpect.EOF)
    assert f"Continue with: {hint}\r\n" in child.before


def test_prize_money_asked_at_the_prompt(spawn: Any, tmp_path: Path) -> None:
    child = spawn(
        "play",
        "--speed",
        "0",
        "--log",
        "m.jsonl",
        "--rules",
        "classic",
        "--players",
        "4",
        "--human",
        "Zed",
        "--sets",
        "1",
    )
    for question, answer in (
        ("Prizes and money", "y"),
        ("Judged prizes", "Best Costume"),
        ("Must be present", "y"),
        ("One prize per person", "value"),
        ("Breaks after rounds", "3"),
        ("Prize money", "pot"),
        ("Buy-in", "$4.75"),
        ("Most buncos pays", "50%"),
        ("Most wins pays", "5"),
        ("Most losses pays", ""),
        ("Half and half pays", ""),
        ("Last bunco pays", ""),
        ("Best costume pays", "2.50"),
        ("tops up", "n"),
    ):
        child.expect(question)
        child.sendline(answer)
    child.expect("Zed, your roll")
    child.sendline("q")
    child.expect(pexpect.EOF)
    party = log_lines(tmp_path / "m.jsonl")[0]
    assert party["judged"] == ["Best Costume"] and party["must_be_present"] is True
    assert party["one_prize_per_person"] is True
    assert party["house_rules"]["breaks_after_rounds"] == [3]  # a JSON integer, as checked
    assert party["money"] == {
        "currency": "$",
        "buy_in": "4.75",
        "payouts": [
            {"prize": "most_buncos", "share": "50%"},
            {"prize": "most_wins", "amount": "5"},
            {"prize": "best_costume", "amount": "2.50"},
        ],
    }
