"""``bunco play`` at a terminal as a new user meets it: keys pressed early, the pause after
a round, roll-offs, whose score is whose, and everything readable at 80 columns."""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pexpect

from bunco.core.night import Night
from bunco.core.party_log import read_log, write_log
from bunco.play.commands import DIGITAL_HELP, PHYSICAL_EXPECTED

ROOT = Path(__file__).resolve().parents[2]
PHYS = "dice or tally"


def events_of(log: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()][1:]


def missing_seed() -> int:
    """A seed whose first drawn roll scores nothing in round 1 (the roller's turn ends)."""
    for seed in range(1, 1000):
        rng = random.Random(f"{seed}/0")
        dice = [rng.randint(1, 6) for _ in range(3)]
        if 1 not in dice and len(set(dice)) > 1:
            return seed
    raise AssertionError("no seed")


def no_prize_money(child: Any) -> Any:
    """Answer the new night's first question, about prizes and money: Enter, no."""
    child.expect_exact("Prizes and money")
    child.expect_exact("y/n (n): ")
    child.sendline("")
    return child


def test_enter_pressed_while_bots_roll_is_not_the_next_roll(spawn: Any, tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    child = spawn(
        "play", "--players", "4", "--human", "Zed", "--rules", "classic", "--sets", "1",
        "--speed", "0.5", "--seed", str(missing_seed()), "--log", str(log),
    )  # fmt: skip
    no_prize_money(child)
    child.expect_exact("Zed, your roll")
    child.sendline("")
    child.expect(r"Zed: \d \d \d  miss")  # Zed's turn ends; the bots roll at a readable pace
    child.send("\r\r")  # impatient Enters while the bots roll
    prompt = ["Zed, your roll", "Enter for round 2"][
        child.expect_exact(["Zed, your roll", "Enter for round 2"])
    ]
    # the keys are read in order: had the Enters been kept, Zed would have rolled before
    # the cards are shown and the same prompt asks again
    child.sendline("c")
    child.expect_exact("Score cards")
    child.expect_exact(prompt)
    assert [e for e in events_of(log) if e.get("player") == "Zed"] == events_of(log)[:1]
    child.sendline("q")
    child.expect(pexpect.EOF)
    assert len([e for e in events_of(log) if e.get("player") == "Zed"]) == 1


def test_results_wait_for_enter_when_a_person_plays(spawn: Any, tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    child = spawn(
        "play", "--players", "8", "--human", "Zed", "--rules", "classic", "--sets", "1",
        "--speed", "0", "--seed", "4", "--log", str(log),
    )  # fmt: skip
    no_prize_money(child)
    while child.expect_exact(["Zed, your roll", "Enter for round 2"]) == 0:
        child.sendline("")
    shown = child.before
    assert "Set 1, round 1: results" in shown
    assert "Next round: who sits where" in shown
    assert "Round 2 — rolling for 2s" not in shown
    rolls = len(events_of(log))
    child.sendline("c")  # the keys of the prompt work here too
    child.expect_exact("Enter for round 2")
    assert "Score cards" in child.before
    assert len(events_of(log)) == rolls  # nobody rolled: the results still wait for Enter
    child.sendline("")
    child.expect_exact("Round 2 — rolling for 2s")
    child.expect_exact("Zed, your roll")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_without_a_terminal_bots_do_not_pause_and_rounds_do_not_wait(tmp_path: Path) -> None:
    """At ``--speed 100`` a bot at a watched table would wait 70 s before each roll."""
    log = tmp_path / "n.jsonl"
    args = ["play", "--players", "4", "--human", "Zed", "--rules", "classic", "--sets", "1",
            "--speed", "100", "--seed", "5", "--log", str(log)]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "bunco", *args],
        input="\n" * 40 + "q\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "src"), "COLUMNS": "100", "PATH": "/usr/bin:/bin"},
    )
    assert done.returncode == 0, done.stderr
    assert "Saved. Continue with:" in done.stdout or "The night is saved" in done.stdout
    assert "Enter for round" not in done.stdout
    night = read_log(log.read_text().splitlines())
    assert 0 < len([e for e in night.events if e.get("player") == "Zed"]) <= 40
    assert len(night.history) >= 1  # bots rolled whole rounds without a pause


def wm_log(path: Path, rounds: list[str], *, end: bool = False) -> Night:
    """A physical-dice ``winning-moves`` night of Ann and Bea: ``rounds[i]`` wins round i+1
    with a Bunco (the other misses first when it is their turn)."""
    night = Night.start({"type": "party", "rules": "winning-moves", "players": ["Ann", "Bea"],
                         "sets": 1, "seed": 1, "bots": [], "dice": "physical"})  # fmt: skip
    for winner in rounds:
        r = night.round_no
        if night.tables[0].roller != winner:
            a, b = [f for f in (2, 3, 4, 5, 6, 1) if f != r][:2]
            night = night.apply({"type": "roll", "table": 1, "dice": [a, a, b]})  # a miss
        night = night.apply({"type": "roll", "table": 1, "dice": [r, r, r]})
    path.write_text(write_log(night.setup, night.events), encoding="utf-8")
    return night


def test_a_roll_off_shows_its_heading_once_and_what_each_roll_scored_in_it(
    spawn: Any, tmp_path: Path
) -> None:
    log = tmp_path / "wm.jsonl"
    night = wm_log(log, ["Ann", "Ann", "Ann", "Bea", "Bea", "Bea"])
    assert night.phase == "rolloff" and night.rolloff is not None
    child = spawn("play", "--resume", str(log))  # physical, as its party line says
    seen = io.StringIO()
    child.logfile_read = seen
    child.expect_exact("Roll-off · Ann rolls — the three faces")  # their total decides
    child.sendline("6 6 5")
    child.expect_exact("Roll-off · Bea rolls — the three faces")
    child.sendline("1 1 3")
    child.expect_exact(PHYS)  # the order is settled: a tally would do now
    assert "Roll-off: Bea rolls 1 1 3 for high: total 5; Ann starts" in child.before
    child.sendline("2 2 2")  # three of a kind, but not 6s: nothing, and the turn passes
    child.expect_exact("Roll-off · Bea rolls")
    assert "Roll-off: Ann rolls 2 2 2  miss  (Ann 0 · Bea 0)" in child.before
    assert "+7" not in child.before
    child.sendline("6 6 1")
    child.expect_exact("Roll-off · Bea rolls")
    assert "Roll-off: Bea rolls 6 6 1  +2  (Ann 0 · Bea 2)" in child.before
    child.sendline("6 6 6")
    child.expect(pexpect.EOF)
    text = seen.getvalue()
    assert "Bea rolls 6 6 6  BUNCO! +21  Bea wins the roll-off for set 1 winner!" in text
    assert text.count("Roll-off for set 1 winner: rolling for 6s") == 1
    assert read_log(log.read_text().splitlines()).set_results[0].winner == "Bea"


def test_ending_early_in_the_terminal_rolls_off_for_the_round_just_completed(
    spawn: Any, tmp_path: Path
) -> None:
    log = tmp_path / "wm.jsonl"
    wm_log(log, ["Ann", "Bea"])  # one win and one Bunco each after round 2
    child = spawn("play", "--resume", str(log))
    child.expect_exact(PHYS)
    child.sendline("end")
    child.expect_exact("Roll-off · Ann rolls — the three faces")
    assert "The host ends the night after set 1, round 2." in child.before
    assert "Roll-off for set 1 winner: rolling for 2s" in child.before
    child.sendline("6 6 5")
    child.expect_exact("Roll-off · Bea rolls — the three faces")
    child.sendline("1 1 3")
    child.expect_exact(PHYS)
    child.sendline("2 2 4")
    child.expect_exact("Roll-off · Ann rolls — dice or tally")  # two 2s: 2 points, Ann rolls on
    assert "Roll-off: Ann rolls 2 2 4  +2  (Ann 2 · Bea 0)" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_at_a_table_of_three_scores_say_whose_and_c_counts_the_round_in_play(
    spawn: Any, tmp_path: Path
) -> None:
    log = tmp_path / "n.jsonl"
    child = spawn("play", "--physical", "--players", "Ann,Bea,Cat", "--rules", "classic",
                  "--sets", "1", "--log", str(log))  # fmt: skip
    no_prize_money(child)
    child.expect_exact(PHYS)
    child.sendline("1 1 4")
    child.expect_exact(PHYS)
    assert "Ann: 1 1 4  +2  (Ann 2 · Bea 0 · Cat 0)" in child.before
    child.sendline("x")  # a Mini Bunco: 5 more
    child.expect_exact(PHYS)
    assert "(Ann 7 · Bea 0 · Cat 0)" in child.before
    child.sendline("c")
    child.expect_exact(PHYS)
    cards = child.before
    assert re.search(r"Ann +│ 0 │ 0 │ 0 +│ 1 +│ 7 +│ ▸·····", cards)
    assert "▸ round 1 in play" in cards
    child.sendline("u")
    child.expect_exact(PHYS)
    assert "↶ undone: Ann's tally mini (Mini Bunco +5)" in child.before
    child.sendline("q")
    child.expect(pexpect.EOF)


def lines_of(text: str) -> list[str]:
    return [line.rstrip() for line in text.replace("\r\n", "\n").split("\n")]


def test_everything_fits_80_columns(spawn: Any, tmp_path: Path) -> None:
    """12 tables at an 80-column terminal: help, hints, other tables and results stay whole."""
    child = spawn("play", "--players", "48", "--human", "Zed", "--rules", "classic",
                  "--sets", "1", "--speed", "0", "--seed", "2", "--log", str(tmp_path / "n.jsonl"),
                  columns=80)  # fmt: skip
    no_prize_money(child)
    child.expect_exact("Zed, your roll")
    shown = lines_of(child.before)
    others = [line for line in shown if "T2 " in line or "T12 " in line]
    assert others, shown
    scores = re.findall(r"T(\d+) (\d+)-(\d+)", "\n".join(shown))
    assert sorted(int(t) for t, _, _ in scores) == list(range(2, 13))  # every one, none cut
    child.sendline("?")
    child.expect_exact("Zed, your roll")
    shown = lines_of(child.before)
    for source in DIGITAL_HELP.splitlines():
        plain = re.sub(r"\[/?(bold)?\]", "", source).rstrip()
        assert plain in shown, plain  # every help line whole, as written
    child.sendline("oops")
    child.expect_exact("Zed, your roll")
    assert "  type instead: Enter to roll, t tables, c cards, ? help, q quit" in lines_of(
        child.before
    )
    child.sendline("")
    while child.expect_exact(["Zed, your roll", "Enter for round 2"]) == 0:
        child.sendline("")
    results = lines_of(child.before)
    assert all(len(line) <= 80 for line in results)
    assert "…" not in "\n".join(results)  # no cell cut short
    rows = [line for line in results if re.match(r"│ +\d+ │ \d+ – \d+", line)]
    assert len(rows) == 12


def test_physical_hints_fit_80_columns(spawn: Any, tmp_path: Path) -> None:
    child = spawn("play", "--physical", "--players", "Ann,Bea,Cat,Dee", "--rules", "classic",
                  "--sets", "1", "--log", str(tmp_path / "n.jsonl"), columns=80)  # fmt: skip
    no_prize_money(child)
    child.expect_exact(PHYS)
    child.sendline("4 4 7")
    child.expect_exact(PHYS)
    shown = lines_of(child.before)
    assert "✗ a die cannot show 7" in shown
    assert f"  type instead: {PHYSICAL_EXPECTED}" in shown
    child.sendline("?")
    child.expect_exact(PHYS)
    assert all(len(line) <= 80 for line in lines_of(child.before))
    assert "  sub Hal Zoe  Zoe takes Hal's seat (names with spaces: sub Al Po, Zoe Li)" in (
        lines_of(child.before)
    )
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_other_tables_of_two_or_three_say_whose_scores() -> None:
    from rich.console import Console

    from bunco.play import render

    night = Night.start({"type": "party", "rules": "winning-moves",
                         "players": ["Zed", "Ann", "Bea", "Cal", "Dot", "Eve", "Fay"]})  # fmt: skip
    night = night.apply({"type": "roll", "table": 2, "dice": [1, 1, 5]})
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(
        render.tables_view(night, frozenset({"Zed"}), {1})
    )
    lines = lines_of(out.getvalue())
    assert lines[lines.index("other tables:") + 1] == "T2 Dot 2 · Eve 0 · Fay 0"
