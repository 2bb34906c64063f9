"""The interactive game loop of ``bunco play``: prompts, bots at a readable pace, the screen.

:class:`Game` asks the humans (one line of input each: Enter to roll, or typed dice with
``--physical``), lets bots roll on their own, and tells the table what happened after
every event. The keyboard is a ``read_line(prompt) -> str`` function, so the loop runs
the same under a terminal, a pseudo-terminal in tests, or a script.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Literal

from rich.console import Console
from rich.live import Live
from rich.table import Table

from bunco.core.dice import tally_dice, total_dice
from bunco.core.errors import BuncoError
from bunco.core.night import Night
from bunco.core.rules import RollKind
from bunco.play import render
from bunco.play.commands import DIGITAL_HELP, PHYSICAL_HELP, PromptCommand, parse_command
from bunco.play.driver import Driver, Step, Turn
from bunco.play.host_words import run_host_word
from bunco.play.summary import print_night

Outcome = Literal["over", "quit"]
ReadLine = Callable[[str], str]


class Game:
    """One night at the keyboard.

    ``speed`` scales every pause: 0 plays instantly, 1 is a readable pace, 2 is slower.
    ``quiet`` shows only round results and the end of the night (``--auto``).
    ``pause_rounds`` waits for Enter after each round's results while a person plays, so
    that the results and the next seating can be read (a terminal, not a script).
    """

    def __init__(
        self,
        driver: Driver,
        console: Console,
        *,
        read_line: ReadLine,
        physical: bool = False,
        speed: float = 1.0,
        quiet: bool = False,
        pause_rounds: bool = False,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.driver = driver
        self.console = console
        self.read_line = read_line
        self.physical = physical
        self.speed = max(0.0, speed)
        self.quiet = quiet
        self.pause_rounds = pause_rounds
        self.sleep = sleep
        self._pause_for: str | None = None  # "round 2": a round's results wait for Enter
        self._shown_round: tuple[object, ...] | None = None
        # what each table's panel showed last: (set, round, status); a panel is printed
        # again only when this changes (the roll lines carry the score in between)
        self._shown_tables: dict[int, tuple[object, ...]] = {}
        self._spin = random.Random()  # animation only; never the dice that count

    # -- who is who -------------------------------------------------------------------------
    @property
    def humans(self) -> frozenset[str]:
        if self.physical:
            return frozenset(self.driver.night.roster)
        return frozenset(p for p in self.driver.night.roster if not self.driver.is_bot(p))

    def asks(self, turn: Turn) -> bool:
        """Whether the keyboard is asked for this roll (else a bot rolls)."""
        return not self.quiet and (self.physical or not self.driver.is_bot(turn.player))

    def focus(self, night: Night | None = None) -> set[int]:
        """Tables shown in full: those where a human sits (every table with physical dice)."""
        night = night or self.driver.night
        if self.physical:
            return {t.number for t in night.tables}
        humans = self.humans
        mine = {t.number for t in night.tables if any(s in humans for s in t.seats)}
        return mine or ({1} if night.tables else set())

    # -- the loop ---------------------------------------------------------------------------------
    def run(self) -> Outcome:
        """Play until the night is over or someone quits (q, end of input)."""
        while True:
            if self._pause_for is not None and self._pause() == "quit":
                return "quit"
            self._show_round_start()
            rung = self.driver.ring_if_due()  # timed rounds: the clock's bell at zero
            if rung is not None:
                self.show(rung, art=False)
            turn = self.driver.next_turn()
            if turn is None:
                self.finish()
                return "over"
            if self.asks(turn):
                if self._ask(turn) == "quit":
                    return "quit"
            else:
                self._bot_roll(turn)

    def finish(self) -> None:
        """The end-of-night screen: every round, the score cards, sheets and prizes."""
        self.console.rule("[bold]The night is over")
        print_night(self.console, self.driver.night)

    def _show_round_start(self) -> None:
        night = self.driver.night
        key = (night.set_no, night.round_no, night.phase, night.rolloff_for)
        if key == self._shown_round or night.phase == "over":
            return
        self._shown_round = key
        if self.quiet:
            return
        self.console.rule(render.header(night))
        focus = self.focus()
        self.console.print(render.tables_view(night, self.humans, focus, title=False))
        self._mark_shown(night, focus)

    def _panel_key(self, night: Night, number: int) -> tuple[object, ...]:
        return (night.set_no, night.round_no, night.tables[number - 1].status)

    def _mark_shown(self, night: Night, numbers: set[int] | None = None) -> None:
        """Remember what the panels of tables ``numbers`` (None: all) show now."""
        for table in night.tables:
            if numbers is None or table.number in numbers:
                self._shown_tables[table.number] = self._panel_key(night, table.number)

    def _bot_roll(self, turn: Turn) -> None:
        shown = turn.table is None or turn.table in self.focus()
        if shown and not self.quiet and self.speed:
            self.sleep(0.7 * self.speed)
        step = self.driver.roll_for_in_time(turn)
        if step is None:  # timed rounds: the clock rang its bell first
            if self.driver.rung is not None:
                self.show(self.driver.rung, art=False)
            return
        self.show(step, art=False)

    # -- a human's turn ----------------------------------------------------------------------------
    def _prompt(self, turn: Turn) -> str:
        night = self.driver.night
        faces_only = False
        if turn.table is None:
            where = "Roll-off"
            faces_only = night.rolloff is not None and night.rolloff.ordering
        else:
            table = night.tables[turn.table - 1]
            where = (
                f"Table {turn.table}" if len(night.tables) > 1 else "Round " + str(night.round_no)
            )
            faces_only = table.rolling_for_high  # the total of the faces decides
            if table.status.value == "first_roll":
                where += ", roll for high"
            elif table.status.value == "tie_break":
                where += ", tie-break"
        if self.physical:
            # a tally cannot stand for faces whose total or number decides (docs/play.md)
            what = "the three faces" if faces_only else "dice or tally"
            return f"[bold]{where}[/] · [bold cyan]{turn.player}[/] rolls — {what} (? help): "
        return (
            f"[bold]{where}[/] · [bold cyan]{turn.player}[/], your roll"
            " — Enter to roll (? help, q quit): "
        )

    def _ask(self, turn: Turn) -> Outcome | None:
        night = self.driver.night
        # a roll-off's lines carry its score; a table's panel is shown again only when
        # what it is doing changed (the roll for high is over, the bell, a tie-break)
        if turn.table is not None and self._shown_tables.get(turn.table) != self._panel_key(
            night, turn.table
        ):
            table = night.tables[turn.table - 1]
            self.console.print(render.table_panel(table, night, self.humans))
            self._mark_shown(night, {turn.table})
        try:
            line = self.read_line(self._prompt(turn))
        except EOFError:
            return "quit"
        try:
            command = parse_command(line, physical=self.physical)
            self.driver.rung = None
            return self._do(command, turn)
        except BuncoError as exc:
            if self.driver.rung is not None:  # timed rounds: the clock's bell came first
                self.show(self.driver.rung, art=False)
                self.driver.rung = None
            self._refused(exc)
            return None

    def _refused(self, exc: BuncoError) -> None:
        """Why a line was refused and what to type instead; long texts wrap in their column."""
        self.console.print(render.hanging("[bold red]✗[/]", exc.message, style="bold red"))
        if exc.expected:
            self.console.print(render.hanging("  [yellow]type instead:[/]", exc.expected))

    def _pause(self) -> Outcome | None:
        """After a round's results: wait for Enter (the host's words and t, c, ?, u work here)."""
        while self._pause_for is not None:
            label = self._pause_for
            try:
                line = self.read_line(f"[bold]Enter for {label}[/] (? help, q quit): ")
            except EOFError:
                return "quit"
            if not line.strip():
                self._pause_for = None
                break
            try:
                command = parse_command(line, physical=self.physical)
                if command.kind == "roll":
                    self._pause_for = None
                elif command.kind in ("faces", "tally"):
                    raise BuncoError(
                        f"{label} has not begun", expected=f"Enter to begin {label}, then the dice"
                    )
                elif self._do(command, None) == "quit":
                    return "quit"
                elif command.kind in ("undo", "end"):
                    self._pause_for = None  # the round is open again, or the night ends
            except BuncoError as exc:
                self._refused(exc)
        return None

    def _do(self, command: PromptCommand, turn: Turn | None) -> Outcome | None:
        kind = command.kind
        if kind == "quit":
            return "quit"
        if kind == "help":
            self.console.print(PHYSICAL_HELP if self.physical else DIGITAL_HELP)
        elif kind == "tables":
            self.console.print(render.tables_view(self.driver.night, self.humans))
            self._mark_shown(self.driver.night)
        elif kind == "cards":
            self.console.print(self.cards())
        elif kind == "undo":
            if not self.physical:
                raise BuncoError(
                    "undo is for typed dice: a digital roll stands",
                    expected="Enter to roll (start with --physical to type real dice and undo)",
                )
            entry = self.driver.last_entry()
            step = self.driver.undo_last()
            assert entry is not None
            self.console.print(render.undo_line(step, entry), highlight=False)
            table_no = entry.get("table")
            if isinstance(table_no, int):
                self._shown_tables.pop(table_no, None)  # its score went back: show it
        elif kind in ("end", "substitute", "join", "leave"):
            self._host(command)
        elif kind == "host" and command.host is not None:  # verify, judge, break, draw, ...
            said = run_host_word(self.driver, command.host)
            self.console.print(f"[green]{said}[/]", highlight=False)
        elif kind == "roll":
            self._animate()
            self.show(self.driver.roll_for(turn), art=True)
        else:
            assert turn is not None
            self._enter(command, turn)
        return None

    def _host(self, command: PromptCommand) -> None:
        """The host's words between rounds: a substitute, a late arrival, a departure, the end."""
        names = command.names
        night = self.driver.night
        if night.phase == "playing" and night.started:
            typed = {"substitute": "sub " + ", ".join(names), "end": "end"}.get(
                command.kind, f"{command.kind} {' '.join(names)}"
            )
            what = (
                "the night can only be ended between rounds, and a round is under way"
                if command.kind == "end"
                else f"round {night.round_no} is under way: {typed.split()[0]} waits for its end"
            )
            raise BuncoError(
                what,
                expected=f"{typed} once round {night.round_no} is over, before the next first roll",
            )
        if command.kind == "end":
            step = self.driver.submit({"type": "end_night"})
            last = step.after.history[-1]
            self.console.print(
                f"[bold]The host ends the night after set {last.set_no}, round {last.round_no}.[/]",
                highlight=False,
            )
            self._set_results(step)
            return
        if command.kind == "substitute":
            self.driver.submit({"type": "substitute", "out": names[0], "in": names[1]})
            said = f"{names[1]} takes {names[0]}'s seat"
        elif command.kind == "join":
            self.driver.submit({"type": "join", "player": names[0]})
            said = f"{names[0]} joins; the tables are laid out again"
        else:
            self.driver.submit({"type": "leave", "player": names[0]})
            said = f"{names[0]} leaves; the tables are laid out again"
        self.console.print(f"[green]✓ {said}.[/]", highlight=False)
        self._shown_round = None  # show the new seating

    def _enter(self, command: PromptCommand, turn: Turn) -> None:
        """Physical dice typed by the scorekeeper, for ``turn`` or the table named."""
        if command.table is not None and command.table != turn.table:
            turns = {t.table: t for t in self.driver.turns()}
            if command.table not in turns:
                rolling = [str(t) for t in turns if t is not None]
                listed = ", ".join(rolling[:8]) + (", …" if len(rolling) > 8 else "")
                raise BuncoError(
                    f"table {command.table} is not rolling now",
                    expected=(
                        f"a table that is rolling ({listed}), e.g. {rolling[0]}: 4 4 1"
                        if rolling
                        else "the roll-off's faces, without a table number"
                    ),
                )
            turn = turns[command.table]
        if command.kind == "faces":
            assert command.dice is not None
            step = self.driver.roll_for(turn, command.dice)
        else:
            assert command.outcome is not None
            step = self.driver.tally_for(turn, command.outcome)
        self.show(step, art=False)

    def _animate(self) -> None:
        """A short roll animation (skipped at speed 0 and off a terminal); the dice that
        count are drawn afterwards from the seed and shown in full."""
        frames = int(6 * min(self.speed, 3))
        if frames <= 0 or not self.console.is_terminal:
            return
        with Live(console=self.console, transient=True, auto_refresh=False) as live:
            for _ in range(frames):
                faces = [self._spin.randint(1, 6) for _ in range(3)]
                live.update(render.dice_art(faces), refresh=True)
                time.sleep(0.07)

    # -- telling what happened ---------------------------------------------------------------------
    def show(self, step: Step, *, art: bool) -> None:
        """Tell the table what one accepted event did."""
        out = self.console
        before, after = step.before, step.after
        record = step.record
        table_no = step.event.get("table")
        if record is not None and not self.quiet:
            assert isinstance(table_no, int)
            scores = (
                after.history[-1].tables[table_no - 1].side_scores
                if step.round_ended
                else after.tables[table_no - 1].side_scores
            )
            loud = record.kind is RollKind.BUNCO  # called out loud across the room
            if art:
                out.print(render.dice_art(record.dice, before.round_no))
            if loud or table_no in self.focus(before):
                typed = (
                    str(step.event.get("outcome") or f"total {step.event.get('total')}")
                    if step.event["type"] == "tally"
                    else None
                )
                line = render.roll_line(record, table_no, scores, before, typed=typed)
                out.print(line, highlight=False)
            if record.kind is RollKind.BUNCO:
                self.ring()
                out.print(
                    f"[bold magenta]🎲 BUNCO! {record.roller} rolled three {before.round_no}s![/]"
                )
        elif table_no is None and before.rolloff is not None and not self.quiet:
            event = step.event
            player = str(event.get("player") or before.rolloff.roller)
            if event["type"] == "roll":
                out.print(render.rolloff_roll_line(player, event["dice"], before, after))
            elif event["type"] == "tally":
                total = event.get("total")
                faces = (
                    total_dice(total)
                    if total is not None
                    else tally_dice(event["outcome"], before.round_no, before.rules)
                )
                line = render.rolloff_roll_line(player, faces, before, after, typed=True)
                out.print(line)
        if step.bell_rang and not self.quiet:
            self.ring()
            out.print(f"[bold yellow]🔔 DING! {render.bell_text(step)}[/]")
        if step.round_ended:
            self._round_over(step)

    def ring(self) -> None:
        """The bell character: the terminal beeps (or flashes) for a Bunco and the bell."""
        self.console.file.write("\a")
        self.console.file.flush()

    def _round_over(self, step: Step) -> None:
        result = step.finished_round
        assert result is not None
        self.console.print(render.round_result(result))
        moves = step.moves
        if moves and not self.quiet and len(step.after.seating) > 1:
            self.console.print(render.moves_table(moves, step.after))
        self._set_results(step)
        after = step.after
        if self.pause_rounds and not self.quiet and self.humans and after.phase != "over":
            if after.phase == "rolloff":
                self._pause_for = "the roll-off"
            elif after.round_no == 1:
                self._pause_for = f"set {after.set_no}, round 1"
            else:
                self._pause_for = f"round {after.round_no}"

    def _set_results(self, step: Step) -> None:
        """A set's winner, or the tie that a roll-off settles."""
        for s in step.after.set_results[len(step.before.set_results) :]:
            if s.winner:
                self.console.print(f"[bold green]🏆 Set {s.set_no} winner: {s.winner}[/]")
            else:
                tied = ", ".join(s.tied_on_buncos)
                self.console.print(f"[yellow]Set {s.set_no} is tied between {tied}: roll-off![/]")

    def cards(self) -> Table:
        """Every player's score card so far."""
        return render.score_cards_table(self.driver.night, self.humans)
