"""``bunco play``: a night of Bunco in the terminal, with bots, friends or real dice."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.prompt import IntPrompt, Prompt

from bunco.cli.app import app, console, err_console, fail, parse_house_rules, print_json
from bunco.cli.checks import check_sets
from bunco.cli.rules_cmd import HouseOption
from bunco.core.errors import BuncoError, InvalidSetup
from bunco.core.night import Night
from bunco.core.party_setup import PartyLine
from bunco.core.presets import PRESETS
from bunco.core.verification import waiting_for_cards
from bunco.party.night_report import night_report
from bunco.play.driver import Driver, play_auto
from bunco.play.game import Game
from bunco.play.keyboard import terminal_reader
from bunco.play.logfile import (
    LogFileError,
    PartyLog,
    new_log_path,
    resume_night,
    set_aside_cut_line,
)
from bunco.play.money_setup import MoneyOptions, add_prize_money
from bunco.play.newnight import build_party
from bunco.play.roster import Roster, make_roster


def _interactive() -> bool:
    return sys.stdin.isatty()


def _ask_rules() -> str:
    return Prompt.ask("Preset", choices=list(PRESETS), default="classic", console=console)


def _ask_roster(humans: list[str], physical: bool) -> Roster:
    """Ask who plays. With real dice (``physical``) nobody is a bot, so nobody is asked
    which players sit at the keyboard: a number only names the players."""
    question = (
        "Players: a number or names (Ann, Bea, ...)"
        if physical
        else "Players: a number (bots) or names (Ann, Bea, ...)"
    )
    while True:
        spec = Prompt.ask(question, default="4", console=console)
        marked = humans
        if not humans and not physical:
            if spec.strip().isdigit():
                me = Prompt.ask("Your name (Enter to watch the bots)", default="", console=console)
                marked = [me] if me.strip() else []
            else:
                keys = Prompt.ask(
                    "Who plays at this keyboard? (names; Enter for everyone)",
                    default="",
                    console=console,
                )
                marked = [k for k in keys.replace(",", " ").split() if k]
        try:
            return make_roster(spec, marked)
        except BuncoError as exc:
            console.print(f"[red]{exc.message}[/]; expected {exc.expected}")


def _new_log(path: Path | None, party: PartyLine) -> PartyLog:
    """The night's log: ``--log FILE``, else a new file in the folder of party logs."""
    return PartyLog.create(new_log_path() if path is None else path, party)


def _say_command(out: Console, lead: str, command: str) -> None:
    """Print a command to copy and paste on one line, never wrapped, whatever the width."""
    out.print(f"{lead} [bold]{escape(command)}[/]", highlight=False, soft_wrap=True)


def _resume_hint(path: Path, physical: bool) -> str:
    return f"bunco play --resume {path}" + (" --physical" if physical else "")


@app.command("play")
def play_command(
    rules: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            metavar="PRESET",
            help="Preset: winning-moves (wm), classic, scil or tournament.",
        ),
    ] = None,
    house: HouseOption = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-n",
            metavar="N|NAMES",
            help="A count (bots get friendly names) or names: Ann,Bea,Cat.",
        ),
    ] = None,
    human: Annotated[
        list[str] | None,
        typer.Option(
            "--human",
            metavar="NAME",
            help="A player at this keyboard (repeatable); the rest are bots.",
        ),
    ] = None,
    sets: Annotated[
        int | None, typer.Option("--sets", metavar="N", help="Sets of six rounds: 1 to 4.")
    ] = None,
    group: Annotated[
        list[str] | None,
        typer.Option(
            "--group",
            metavar="NAME=Ann,Bea",
            help="A prize group (repeatable; tournament gives prizes per group).",
        ),
    ] = None,
    physical: Annotated[
        bool,
        typer.Option(
            "--physical", help="Real dice: type the faces (4 4 1) or a tally (m 1 2 b x)."
        ),
    ] = False,
    speed: Annotated[
        float,
        typer.Option(
            "--speed", metavar="S", help="Pace of bots and animations: 0 instant, 1 normal, 2 slow."
        ),
    ] = 1.0,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Seed for every die drawn.")
    ] = None,
    shuffle: Annotated[
        bool, typer.Option("--shuffle", help="Seat the players in a (seeded) random order.")
    ] = False,
    auto: Annotated[
        bool, typer.Option("--auto", help="Bots play the whole night; no prompts, no pauses.")
    ] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="With --auto: print the final standings as JSON.")
    ] = False,
    log: Annotated[
        Path | None,
        typer.Option(
            "--log",
            metavar="FILE",
            help="Party log to write (default: a new bunco-night-DATE-TIME.jsonl in "
            "~/.local/share/bunco/nights, or $XDG_DATA_HOME/bunco/nights).",
        ),
    ] = None,
    resume: Annotated[
        Path | None,
        typer.Option(
            "--resume", metavar="FILE", help="Continue the night saved in this party log."
        ),
    ] = None,
    money: Annotated[
        str | None,
        typer.Option(
            "--money",
            metavar="TABLE",
            help="Prize money table: tournament (seeds/004), or none.",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    buy_in: Annotated[
        str | None,
        typer.Option(
            "--buy-in",
            metavar="AMOUNT",
            help="Buy-in (entry fee) per player, e.g. 5 or $4.75.",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    currency: Annotated[
        str | None,
        typer.Option(
            "--currency",
            metavar="SIGN",
            help="Currency sign (default $).",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    pay: Annotated[
        list[str] | None,
        typer.Option(
            "--pay",
            metavar="PRIZE=AMOUNT|N%",
            help="What a prize pays (repeatable): most_buncos=50%, most_wins=10, "
            "'best_costume@Team 1=25'.",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    carried_over: Annotated[
        str | None,
        typer.Option(
            "--carried-over",
            metavar="AMOUNT",
            help="Money carried over into the pot.",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    top_up: Annotated[
        bool,
        typer.Option(
            "--top-up",
            help="The host pays what the payouts need beyond the pot.",
            rich_help_panel="Prizes and money",
        ),
    ] = False,
    judged: Annotated[
        list[str] | None,
        typer.Option(
            "--judged",
            metavar="PRIZE",
            help="A judged prize, e.g. 'Best Costume' (repeatable).",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    must_be_present: Annotated[
        bool,
        typer.Option(
            "--must-be-present",
            help="Prizes pass over whoever has gone home.",
            rich_help_panel="Prizes and money",
        ),
    ] = False,
    one_prize: Annotated[
        str | None,
        typer.Option(
            "--one-prize",
            metavar="value|listed",
            help="One prize per person: keep the one worth more (value) or the first listed.",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
    breaks: Annotated[
        str | None,
        typer.Option(
            "--breaks",
            metavar="2,4,6",
            help="Breaks after these rounds.",
            rich_help_panel="Prizes and money",
        ),
    ] = None,
) -> None:
    """Play a night of Bunco: alone against bots, passing the keyboard, or scoring real dice.

    At the prompt: Enter rolls; with --physical type the dice (4 4 1) or a tally
    (m miss, 1, 2, b Bunco, x Mini Bunco, l/h Low/High Bunco), u undoes the last entry.
    Everywhere: t tables, c score cards, ? help, q quit. After a round's results, Enter
    begins the next round. Every event is saved to the party log at once; continue after
    q or Ctrl-C with --resume FILE (a night of typed dice goes on typing), read it with
    bunco replay FILE.
    """
    if sets is not None:
        check_sets(sets)
    if speed < 0:
        fail(
            f"--speed {speed:g}: a pace cannot be below 0",
            expected="--speed 0 (instant), 1 (normal) or 2 (slower)",
        )
    if as_json and not auto:
        fail("--json prints the standings of a night the bots play", expected="--auto --json")
    if auto and physical:
        fail("--auto plays with digital dice", expected="--auto or --physical, not both")
    if auto and human:
        fail("--auto makes every player a bot", expected="drop --human, or drop --auto to play")
    prize_money = MoneyOptions(
        money,
        currency,
        buy_in,
        carried_over,
        top_up,
        pay or [],
        judged or [],
        must_be_present,
        one_prize,
        breaks,
    )
    if resume is not None and prize_money.given:
        fail(
            "a resumed night keeps its own prizes and money",
            expected=f"{_resume_hint(resume, physical)} [--speed N] [--auto]",
        )
    if resume is not None:
        given = [n for n, v in (("--rules", rules), ("--players", players), ("--house", house),
                                ("--human", human), ("--sets", sets), ("--seed", seed),
                                ("--group", group), ("--log", log)) if v]  # fmt: skip
        if given or shuffle:
            fail(
                f"a resumed night keeps its own {', '.join(given) or '--shuffle'}",
                expected=f"{_resume_hint(resume, physical)} [--speed N] [--auto]",
            )
    out = err_console if as_json else console
    try:
        if resume is not None:
            cut = set_aside_cut_line(resume)
            if cut is not None:
                backup, line = cut
                out.print(
                    f"[yellow]warning:[/] the last line of {escape(str(resume))} was cut short "
                    f"(the program stopped while writing it), so it is no event: "
                    f"{escape(line[:60])!r} is set aside; the file as it was is kept in "
                    f"{escape(str(backup))}",
                    highlight=False,
                    soft_wrap=True,  # paths stay whole, to copy
                )
            night = resume_night(resume)
            if night.phase == "over" and not waiting_for_cards(night):
                fail(
                    f"the night in {resume} is over",
                    expected=f"bunco replay {resume} to see it, or bunco play for a new night",
                )
            party_log = PartyLog.reopen(resume)
            driver = Driver.of(night, party_log.append)
            logged_physical = night.setup.get("dice") == "physical"
            physical = physical or logged_physical  # the log says how its dice are entered
            if auto:
                driver.bots = frozenset(night.roster)
            driver.verify_at_end()  # a night that stopped after its last round: the staff check
        else:
            party_log, driver = _start(
                rules,
                house,
                players,
                human or [],
                sets,
                physical,
                seed,
                shuffle,
                auto,
                log,
                parse_groups(group or []),
                prize_money,
            )
    except BuncoError as exc:
        fail(exc.message, expected=exc.expected)
    party_log.sync = not auto  # a person's game: each line to the disk; bots: flushed only
    says_physical = driver.night.setup.get("dice") == "physical"
    hint = _resume_hint(party_log.path, physical and not says_physical)
    interactive = _interactive()
    what = "Continuing" if resume else "Saving"  # on stderr with --json: stdout is the JSON
    out.print(f"{what} the night in [bold]{party_log.path}[/]", highlight=False, soft_wrap=True)
    try:
        # off a terminal nobody watches: bots do not pause, rounds do not wait for Enter
        pace = speed if interactive and not auto else 0.0
        result = _run(driver, out, physical, pace, auto, as_json, interactive and not auto)
    except KeyboardInterrupt:
        party_log.close()
        _say_command(out, "\nStopped. Continue with:", hint)
        raise typer.Exit(130) from None
    party_log.close()
    if result == "quit":
        _say_command(out, "Saved. Continue with:", hint)
        return
    if as_json:
        print_json(night_report(driver.night))
    out.print(
        f"The night is saved in [bold]{party_log.path}[/]; bunco replay reads it.",
        highlight=False,
        soft_wrap=True,
    )


def _start(
    rules: str | None,
    house: list[str] | None,
    players: str | None,
    humans: list[str],
    sets: int | None,
    physical: bool,
    seed: int | None,
    shuffle: bool,
    auto: bool,
    log: Path | None,
    groups: dict[str, list[str]] | None = None,
    prize_money: MoneyOptions | None = None,
) -> tuple[PartyLog, Driver]:
    ask = _interactive() and not auto
    if rules is None:
        rules = _ask_rules() if ask else "classic"
    if players is None:
        if ask:
            roster = _ask_roster(humans, physical)
        elif auto:
            roster = make_roster("4", [], all_bots=True)
        else:
            fail(
                "who plays? --players is needed when input is not a terminal",
                expected="--players 4 --human Ann, or --players Ann,Bea,Cat,Dee",
            )
    else:
        roster = make_roster(players, humans, all_bots=auto)
    if physical:
        roster = Roster(roster.players, ())  # real dice: every roll is typed in
    if sets is None:
        sets = IntPrompt.ask("Sets of six rounds", default=1, console=console) if ask else 1
        check_sets(sets)
    if seed is None:
        seed = random.SystemRandom().randrange(1, 10**9)
    party = build_party(
        rules,
        roster,
        sets=sets,
        seed=seed,
        house_rules=parse_house_rules(house),
        shuffle=shuffle,
        physical=physical,
    )
    if groups:
        party["groups"] = groups
    add_prize_money(party, prize_money, ask)  # flags, or the questions at a terminal
    night = Night.start(party)  # refuse a bad night before a file is written
    if groups and not night.rules.prize_groups:
        raise InvalidSetup(
            f"--group: {rules} gives no prizes per group, so the groups would change nothing",
            expected="--rules tournament (prizes per group), --house prize_groups=true, "
            "or no --group",
        )
    party_log = _new_log(log, party)
    return party_log, Driver.new(party, party_log.append)


def parse_groups(specs: list[str]) -> dict[str, list[str]]:
    """``--group`` values as the party line's ``groups``; raises :class:`BuncoError`.

    >>> parse_groups(["Red=Ann, Bea", "Blue: Cat,Dee"])
    {'Red': ['Ann', 'Bea'], 'Blue': ['Cat', 'Dee']}
    """
    out: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, members = spec.partition("=")
        if not sep:
            name, sep, members = spec.partition(":")
        players = [" ".join(m.split()) for m in members.split(",") if m.strip()]
        if not sep or not name.strip() or not players:
            raise InvalidSetup(
                f"--group {spec!r} names no group and players",
                expected="--group NAME=Ann,Bea (one --group per group)",
            )
        if name.strip() in out:
            raise InvalidSetup(
                f"group {name.strip()!r} is given twice", expected="one --group per group"
            )
        out[name.strip()] = players
    return out


def _run(
    driver: Driver,
    out: Console,
    physical: bool,
    speed: float,
    auto: bool,
    as_json: bool,
    pause_rounds: bool,
) -> str:
    if as_json:
        play_auto(driver)
        return "over"
    game = Game(
        driver,
        out,
        read_line=terminal_reader(out),
        physical=physical,
        speed=speed,
        quiet=auto,
        pause_rounds=pause_rounds,
    )
    return game.run()


__all__ = ["LogFileError", "play_command"]
