"""The game loop in-process, with a scripted keyboard: roll-offs, tie-breaks, tables, pace."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from rich.console import Console

from bunco.play.driver import Driver
from bunco.play.game import Game
from bunco.play.newnight import build_party
from bunco.play.roster import make_roster


def setup(
    rules: str, players: str, humans: list[str], *, seed: int = 1
) -> tuple[Driver, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    party = build_party(rules, make_roster(players, humans), sets=1, seed=seed)
    return Driver.new(party, events.append), events


def game(
    driver: Driver, script: Callable[[str], str], *, physical: bool, speed: float = 0.0, **kw: Any
) -> tuple[Game, io.StringIO, list[str]]:
    buffer = io.StringIO()
    prompts: list[str] = []

    def read_line(prompt: str) -> str:
        prompts.append(prompt)
        assert len(prompts) < 500, "the game does not progress"
        return script(prompt)

    console = Console(file=buffer, width=120, color_system=None, force_terminal=False)
    return (
        Game(driver, console, read_line=read_line, physical=physical, speed=speed, **kw),
        buffer,
        prompts,
    )


def test_a_tied_set_goes_to_a_roll_off_that_needs_typed_faces() -> None:
    driver, events = setup("winning-moves", "Ann,Bea", [])
    said: list[str] = []

    def script(prompt: str) -> str:
        night = driver.night
        if night.phase == "rolloff":
            said.append(prompt)
            if len(said) == 1:
                return "b"  # refused: the roll for high total needs the faces
            if night.rolloff is not None and night.rolloff.ordering:
                return "6 6 6" if "Ann" in prompt else "1 2 3"
            return "b" if "Ann" in prompt else "m"  # the roll-off itself takes a tally
        wants = "Ann" if night.round_no <= 3 else "Bea"
        return "b" if f"[bold cyan]{wants}[/]" in prompt else "m"

    g, out, _ = game(driver, script, physical=True)
    assert g.run() == "over"
    text = out.getvalue()
    assert "Set 1 is tied between Ann, Bea: roll-off!" in text
    assert "the roll-off is rolling for high total, so a tally cannot stand for the dice" in text
    assert "Roll-off: Ann rolls 6 6 6 for high: total 18" in text
    assert said[0].startswith("[bold]Roll-off[/]") and "the three faces" in said[0]
    assert "dice or tally" in said[-1]  # once the order is settled, a tally is taken
    assert "Roll-off: Ann rolls (tally)  BUNCO! +21  Ann wins the roll-off" in text
    night = driver.night
    assert night.phase == "over"
    assert night.set_results[0].settled_by == "roll_off"
    assert f"Set 1 winner: {night.set_results[0].winner}" in text or "wins the roll-off" in text
    rolloff = [e for e in events if e["type"] in ("roll", "tally") and "table" not in e]
    assert rolloff[0] == {"type": "roll", "dice": [6, 6, 6], "player": rolloff[0]["player"]}
    assert rolloff[-1] == {"type": "tally", "outcome": "bunco", "player": "Ann"}


def test_sudden_death_tie_break_at_a_lower_table_is_typed_by_the_scorekeeper() -> None:
    driver, events = setup("tournament", "8", [])
    driver.bots = frozenset()

    def script(prompt: str) -> str:
        night = driver.night
        if night.round_no > 1:
            return "q"
        if "tie-break" in prompt:
            return "1 5 6"  # shows the round's number: the roller's team wins at once
        if prompt.startswith("[bold]Table 1[/]") and not night.bell:
            return "b"  # the head table reaches 21 at once; the bell rings
        return "m"

    g, out, prompts = game(driver, script, physical=True)
    assert g.run() == "quit"
    text = out.getvalue()
    assert any(p.startswith("[bold]Table 2, tie-break[/]") for p in prompts)
    result = driver.night.history[0].tables[1]
    assert result.tie_break is not None and result.tie_break["rule"] == "sudden_death"
    tie_roll = next(e for e in events if e.get("dice") == [1, 5, 6])
    assert tie_roll["player"] in result.winners
    assert "(tie-break)" in text and "(tie broken)" in text


def test_scil_first_roll_for_high_needs_faces() -> None:
    driver, _ = setup("scil", "Ann,Bea,Cat,Dee", [])
    answers = iter(["m", "6 6 5", "q"])
    g, out, prompts = game(driver, lambda _p: next(answers), physical=True)
    assert g.run() == "quit"
    assert ", roll for high" in prompts[0]
    text = out.getvalue()
    assert "a tally cannot stand for the dice" in text
    assert "type instead: the three faces, e.g. 6 5 2" in text
    assert "Ann rolls 6 6 5 for high: total 17" in text


def test_a_human_among_bots_at_two_tables() -> None:
    driver, events = setup("classic", "8", ["Zed"], seed=4)

    def script(prompt: str) -> str:
        return "q" if driver.night.round_no > 1 else ""

    g, out, prompts = game(driver, script, physical=False)
    assert g.run() == "quit"
    text = out.getvalue()
    zed_rolls = [e for e in events if e.get("player") == "Zed"]
    assert len(zed_rolls) == len(prompts) - 1  # one prompt per roll, and the last to quit
    assert all(p.startswith("[bold]Table 1[/] · [bold cyan]Zed[/], your roll") for p in prompts)
    assert {e["table"] for e in events if e["type"] == "roll" and e["player"] != "Zed"} == {1, 2}
    assert "DING! the head table reached 21" in text
    assert "Next round: who sits where" in text
    assert "(from 1)" in text and "(from 2)" in text
    assert "Set 1, round 1: results" in text
    assert "Round 2 — rolling for 2s" in text


def test_bots_keep_a_readable_pace_at_the_watched_table_only() -> None:
    driver, events = setup("classic", "8", [], seed=6)
    pauses: list[float] = []

    g, _, _ = game(driver, lambda _p: "q", physical=False, speed=2.0, sleep=pauses.append)
    assert g.run() == "over"  # nobody to ask: the bots play the night
    watched = [e for e in events if e["type"] == "roll" and e.get("table") in (1, None)]
    assert len(watched) < len([e for e in events if e["type"] == "roll"])
    assert pauses == [1.4] * len(watched)  # table 1 and roll-offs are watched; table 2 is not


def test_end_of_input_quits_and_the_end_screen_shows_cards_and_prizes() -> None:
    driver, _ = setup("classic", "4", ["Zed"], seed=2)
    g, _, _ = game(driver, lambda _p: (_ for _ in ()).throw(EOFError()), physical=False)
    assert g.run() == "quit"
    everyone_bots, _ = setup("classic", "4", [], seed=2)
    g, out, _ = game(everyone_bots, lambda _p: "", physical=False)
    assert g.run() == "over"
    text = out.getvalue()
    assert "Score cards" in text and "Prizes" in text and "Most Buncos" in text
    assert "The night is over" in text


def test_the_scorekeeper_can_enter_dice_for_another_table() -> None:
    driver, events = setup("classic", "Ann,Bea,Cat,Dee,Eve,Fay,Gus,Hal", [])
    answers = iter(["5: b", "2: 3 1 1", "q"])
    g, out, prompts = game(driver, lambda _p: next(answers), physical=True)
    assert g.run() == "quit"
    text = out.getvalue()
    assert "table 5 is not rolling now" in text
    assert "type instead: a table that is rolling (1, 2), e.g. 1: 4 4 1" in text
    assert events == [{"type": "roll", "table": 2, "dice": [3, 1, 1], "player": "Eve"}]
    assert "T2 Eve: 3 1 1  +2  (Eve & Gus 2 – Fay & Hal 0)" in text
    assert prompts[0].startswith("[bold]Table 1[/] · [bold cyan]Ann[/] rolls")
