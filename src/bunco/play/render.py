"""What ``bunco play`` shows: dice faces, the tables, rolls, the bell, moves, results (Rich).

Every function returns a Rich renderable or a line of console markup; nothing here reads
the keyboard or changes the night.

>>> print("\\n".join(dice_lines((1, 2, 3))))
┌───────┐ ┌───────┐ ┌───────┐
│       │ │ ●     │ │ ●     │
│   ●   │ │       │ │   ●   │
│       │ │     ● │ │     ● │
└───────┘ └───────┘ └───────┘
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from bunco.core.dice import score_rolloff
from bunco.core.events import ScoringEvent
from bunco.core.night import Night
from bunco.core.round_results import RoundResult, seat_counts
from bunco.core.rules import RollKind
from bunco.core.seating import Move
from bunco.core.seating_partners import kept_words, partners_kept
from bunco.core.table import Phase, RollRecord, Status, TableRound
from bunco.party.sheets import score_card
from bunco.play.driver import Step

PIPS: dict[int, tuple[str, str, str]] = {
    1: ("       ", "   ●   ", "       "),
    2: (" ●     ", "       ", "     ● "),
    3: (" ●     ", "   ●   ", "     ● "),
    4: (" ●   ● ", "       ", " ●   ● "),
    5: (" ●   ● ", "   ●   ", " ●   ● "),
    6: (" ●   ● ", " ●   ● ", " ●   ● "),
}

KIND_TEXT = {
    RollKind.MISS: "miss",
    RollKind.POINTS: "",
    RollKind.BUNCO: "BUNCO!",
    RollKind.WIPEOUT: "WIPEOUT",
}


def dice_lines(dice: Sequence[int]) -> list[str]:
    """Three dice drawn side by side, five lines of text."""
    rows = ["┌───────┐"] * len(dice)
    lines = [" ".join(rows)]
    for row in range(3):
        lines.append(" ".join(f"│{PIPS[d][row]}│" for d in dice))
    lines.append(" ".join(["└───────┘"] * len(dice)))
    return lines


def dice_art(dice: Sequence[int], target: int | None = None) -> Text:
    """The dice as a coloured picture; dice that show the round's number are green."""
    text = Text()
    for row in range(5):
        for i, d in enumerate(dice):
            if i:
                text.append(" ")
            part = dice_lines([d])[row]
            text.append(part, style="bold green" if d == target else "white")
        if row < 4:
            text.append("\n")
    return text


def kind_label(kind: RollKind, night: Night) -> str:
    """How a roll is called out: BUNCO!, Mini Bunco!, Low Bunco!, miss, ..."""
    if kind in (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO):
        label = {
            RollKind.MINI_BUNCO: night.rules.mini_label,
            RollKind.LOW_BUNCO: "Low Bunco",
            RollKind.HIGH_BUNCO: "High Bunco",
        }[kind]
        return label.split("/")[0] + "!"
    return KIND_TEXT.get(kind, kind.value)


def header(night: Night) -> str:
    """``Set 1 of 2 · Round 3 — rolling for 3s``, with the bell when it has rung."""
    if night.phase == "rolloff" and night.rolloff is not None:
        return (
            f"[bold]Roll-off[/] for {night.rolloff.purpose}: rolling for {night.rolloff.round_no}s"
        )
    if night.phase == "over":
        return "[bold]The night is over[/]"
    bell = "  [bold yellow]🔔 the bell has rung[/]" if night.bell else ""
    return (
        f"[bold]Set {night.set_no} of {night.sets} · Round {night.round_no}[/]"
        f" — rolling for [bold green]{night.round_no}s[/]{bell}"
    )


def _name(seat: str | None, humans: frozenset[str]) -> str:
    if seat is None:
        return "[dim](ghost)[/]"
    return f"[bold]{seat}[/]" if seat in humans else seat


def status_text(table: TableRound, head: bool) -> str:
    """What a table is doing, in a few words."""
    if table.status is Status.FIRST_ROLL:
        return "rolling for high to start"
    if table.status is Status.FINISHING:
        return "bell rang: finishing the turn"
    if table.status is Status.TIE_BREAK and table.tie_break is not None:
        return f"tie-break ({table.tie_break.rule.value.replace('_', ' ')})"
    if table.status is Status.DONE:
        return "done"
    return "head table" if head else "playing"


def team_name(seats: Sequence[str | None], side_seats: Sequence[int]) -> str:
    """A team as its players: ``Ann & Cat`` (a ghost is ``ghost``), never Us/Them, which
    would be the scorekeeper's side and wrong for everyone else at the table."""
    return " & ".join(seats[s] or "ghost" for s in side_seats)


def table_panel(table: TableRound, night: Night, humans: frozenset[str]) -> Panel:
    """One table now: seats, the tally (per team, named by its players, or per player),
    whose turn, target."""
    roller = table.roller
    grid = Table.grid(padding=(0, 2))
    grid.add_column()
    grid.add_column(justify="right")
    tb = table.tie_break
    if table.team:
        for side in (0, 1):
            names = " & ".join(_name(table.seats[s], humans) for s in table.side_seats(side))
            mark = " ◀" if roller is not None and table.side_of(table.turn) == side else ""
            extra = f" (+{tb.points[side]})" if tb is not None and side in tb.sides else ""
            grid.add_row(f"{names}{mark}", f"[bold]{table.side_scores[side]}[/]{extra}")
    else:
        for seat, name in enumerate(table.seats):
            mark = " ◀" if roller is not None and table.turn == seat else ""
            extra = f" (+{tb.points[seat]})" if tb is not None and seat in tb.sides else ""
            grid.add_row(f"{_name(name, humans)}{mark}", f"[bold]{table.points[seat]}[/]{extra}")
    head = table.number == 1 and len(night.tables) > 1
    title = f"Table {table.number}" + (" (head)" if head else "")
    who = f"[cyan]{roller}[/] to roll" if roller else "round over here"
    grid.add_row(f"[dim]to {table.target} · {status_text(table, head)}[/] · {who}", "")
    return Panel(grid, title=title, title_align="left", expand=False)


def tables_view(
    night: Night, humans: frozenset[str], only: set[int] | None = None, *, title: bool = True
) -> RenderableType:
    """The header and every table (or only the table numbers in ``only``)."""
    panels: list[RenderableType] = [Text.from_markup(header(night))] if title else []
    if night.phase == "rolloff" and night.rolloff is not None:
        panels.append(rolloff_text(night))
    for table in night.tables:
        if only is None or table.number in only:
            panels.append(table_panel(table, night, humans))
    if only is not None and len(night.tables) > len(only):
        rest = [
            Text(f"T{t.number} {_compact_scores(t)}", style="dim")
            for t in night.tables
            if t.number not in only
        ]
        panels.append(Text("other tables:", style="dim"))  # then in columns, never cut
        panels.append(Columns(rest, padding=(0, 2)))
    return Group(*panels)


def _compact_scores(table: TableRound) -> str:
    """``5-3`` at a table of four (the scorekeeper's team first); ``Eve 2 · Fay 10`` at a
    table of two or three."""
    if table.team:
        return "-".join(map(str, table.side_scores))
    return " · ".join(
        f"{name or 'ghost'} {points}"
        for name, points in zip(table.seats, table.points, strict=True)
    )


def rolloff_text(night: Night) -> Text:
    """Where the roll-off stands (shown under its heading, which names what it is for)."""
    r = night.rolloff
    assert r is not None
    if r.ordering:
        body = f"{', '.join(r.contenders)} roll for high total to decide who starts"
    else:
        score = " · ".join(f"{p} {n}" for p, n in zip(r.order, r.points, strict=True))
        body = f"first to {r.goal} points: {score}"
    return Text(f"{body}; {r.roller} rolls next", style="yellow")


def hanging(label: str, text: str, *, style: str = "") -> Table:
    """``label`` then ``text``; when ``text`` wraps, its lines stay right of the label.

    ``label`` is console markup; ``text`` is plain (a name with brackets stays as typed).
    """
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text.from_markup(label), Text(text, style=style))
    return grid


def roll_line(
    record: RollRecord,
    table_no: int,
    scores: Sequence[int],
    night: Night,
    *,
    typed: str | None = None,
) -> str:
    """One roll as a line: who, where, the dice, what it scored and the table's score after it.

    ``night`` is the night as the roll was made; ``typed`` is the tally outcome when the
    scorekeeper tapped one instead of the faces (the faces are then not known).
    """
    table = night.tables[table_no - 1]
    where = f"T{table_no} " if len(night.tables) > 1 else ""
    faces = "(tally)" if typed else " ".join(str(d) for d in record.dice)
    if record.phase is Phase.FIRST_ROLL:
        return f"{where}{record.roller} rolls {faces} for high: total {sum(record.dice)}"
    label = kind_label(record.kind, night)
    if record.kind is RollKind.BUNCO:
        scored = f"[bold magenta blink]{label}[/] +{record.points}"
    elif record.kind in (RollKind.MINI_BUNCO, RollKind.LOW_BUNCO, RollKind.HIGH_BUNCO):
        scored = f"[bold cyan]{label}[/] +{record.points}"
    elif record.kind is RollKind.WIPEOUT:
        scored = "[bold red]WIPEOUT[/]: the team's points are gone"
    elif record.points:
        scored = f"[green]+{record.points}[/]"
    else:
        scored = "[dim]miss[/]"
    if record.phase is Phase.TIE_BREAK:
        scored += " (tie-break)"
    ghost = " for the ghost" if record.credited is None else ""
    if table.team:
        first, second = (team_name(table.seats, table.side_seats(side)) for side in (0, 1))
        score = f"  ({first} {scores[0]} – {second} {scores[1]})"
    else:  # a table of two or three: every score says whose it is
        score = (
            "  ("
            + " · ".join(
                f"{name or 'ghost'} {points}"
                for name, points in zip(table.seats, scores, strict=True)
            )
            + ")"
        )
    return f"{where}{record.roller}{ghost}: {faces}  {scored}{score}"


def undo_line(step: Step, entry: ScoringEvent) -> str:
    """What an undo took back: who, the dice (or the tally typed) and what it had scored.

    ``entry`` is the roll or tally event the undo removed (the last one standing).
    """
    table_no = entry.get("table")
    assert table_no is not None  # undo is for entries at a table
    before = step.before
    rolls: Sequence[RollRecord] = before.tables[table_no - 1].rolls if before.tables else ()
    if not rolls:  # the entry closed the round before: it is in the history
        rolls = before.history[-1].tables[table_no - 1].rolls
    record = rolls[-1]
    faces = " ".join(map(str, record.dice))
    what = faces
    if entry["type"] == "tally":
        what = f"tally {entry['outcome']}" if "outcome" in entry else f"total {entry.get('total')}"
    if record.phase is Phase.FIRST_ROLL:
        scored = f"a roll for high, total {sum(record.dice)}"
    elif record.kind in (RollKind.MISS, RollKind.WIPEOUT) or not record.points:
        scored = kind_label(record.kind, before).rstrip("!").lower() or "no points"
    else:
        label = kind_label(record.kind, before).rstrip("!")
        scored = f"{label} +{record.points}" if label else f"+{record.points}"
    where = f" at table {table_no}" if len(before.tables) > 1 else ""
    return f"[yellow]↶ undone:[/] {record.roller}'s {what}{where} ({scored})"


def bell_text(step: Step) -> str:
    """Why the bell rang, as the head table would shout it."""
    record = step.record
    night = step.before
    if step.rang_by_clock:
        return f"time is up: round {night.round_no}'s clock rang the bell!"
    if record is not None and record.kind is RollKind.BUNCO and night.rules.bunco_ends_round:
        return f"{record.roller} rolled a Bunco: the round is over at every table!"
    table = night.tables[0]
    if len(night.tables) == 1:
        return f"the table reached {table.target}: the round is over!"
    return f"the head table reached {table.target}: the round is over at every table!"


def rolloff_roll_line(
    player: str, dice: Sequence[int], before: Night, after: Night, *, typed: bool = False
) -> str:
    """A roll in a roll-off at no table, what it scored there and the roll-off's score.

    ``typed``: the scorekeeper tapped a tally that ``dice`` stand for (faces not known).

    Only the number being rolled for and a Bunco of it score in a roll-off (seeds/000):
    ``2 2 2`` in a roll-off for 6s is a miss and ends the turn.
    """
    r = before.rolloff
    assert r is not None
    faces = " ".join(map(str, dice))
    if r.ordering:
        text = f"Roll-off: {player} rolls {faces} for high: total {sum(dice)}"
        now = after.rolloff
        if now is not None and now.purpose == r.purpose and not now.ordering:
            text += f"; {now.order[0]} starts"
        elif now is not None and now.ordering and len(now.contenders) < len(r.contenders):
            text += f"; {', '.join(now.contenders)} tie for high and roll again"
        return text
    if typed:
        faces = "(tally)"
    score = score_rolloff(dice, r.round_no, before.rules)
    if score.kind is RollKind.BUNCO:
        scored = f"[bold magenta]BUNCO![/] +{score.points}"
    elif score.points:
        scored = f"[green]+{score.points}[/]"
    else:
        scored = "[dim]miss[/]"
    text = f"Roll-off: {player} rolls {faces}  {scored}"
    if after.rolloff is None or after.rolloff.purpose != r.purpose:
        return text + f"  [bold green]{player} wins the roll-off for {r.purpose}![/]"
    now = after.rolloff
    points = " · ".join(f"{p} {n}" for p, n in zip(now.order, now.points, strict=True))
    return text + f"  ({points})"


def round_result(result: RoundResult) -> Table:
    """Who won and lost at each table in a finished round."""
    out = Table(
        title=f"Set {result.set_no}, round {result.round_no}: results", title_justify="left"
    )
    out.add_column("table", justify="right")
    out.add_column("score")
    out.add_column("winners", style="green")
    out.add_column("losers", style="red")
    for t in result.tables:
        if t.team:
            score = " – ".join(map(str, t.side_scores))
        else:  # a table of two or three: whose each score is, one player a line
            score = "\n".join(
                f"{n or 'ghost'} {p}" for n, p in zip(t.seats, t.side_scores, strict=True)
            )
        if t.tie_break is not None:
            score += " (tie broken)"
        out.add_row(
            str(t.table),
            score,
            ", ".join(w or "ghost" for w in t.winners),
            ", ".join(w or "ghost" for w in t.losers),
        )
    return out


def moves_table(moves: Sequence[Move], night: Night) -> Table:
    """Where everyone sits next round; players who change tables are marked with where from."""
    came = {m.player: m for m in moves}
    out = Table(title="Next round: who sits where", title_justify="left")
    out.add_column("table", justify="right")
    out.add_column("seats (clockwise, scorekeeper first)")
    for k, seats in enumerate(night.seating, start=1):
        names = []
        for seat in seats:
            if seat is None:
                names.append("(ghost)")
                continue
            move = came.get(seat)
            if move is not None and move.changes_table:
                names.append(f"[yellow]{seat}[/] (from {move.from_table})")
            else:
                names.append(seat)
        out.add_row(str(k), ", ".join(names))
    return out


def score_cards_table(night: Night, bold: Collection[str] = ()) -> Table:
    """Every player's score card so far: W, L, Buncos, Minis, points and the W/L marks.

    The round in play counts too: its points, Buncos and Minis so far, and ``▸`` where
    its W or L will go.
    """
    live = _round_in_play(night)
    out = Table(title="Score cards", title_justify="left", caption_justify="left")
    notes: list[str] = []
    if live:
        notes.append(
            f"▸ round {night.round_no} in play: its points, Buncos and "
            f"{night.rules.mini_label}s so far are counted"
        )
    kept = partners_kept(night.changes)
    marked: dict[str, set[tuple[int, int]]] = {}
    for (set_no, round_no), pairs in sorted(kept.items()):
        notes.append(f"* set {set_no}, round {round_no}: {kept_words(pairs)}")
        for pair in pairs:
            for name in pair:
                marked.setdefault(name, set()).add((set_no, round_no))
    if notes:
        out.caption = "\n".join(notes)
    for col in ("player", "W", "L", "Buncos", night.rules.mini_label + "s", "points", "rounds"):
        out.add_column(col)
    for name in night.roster:
        card = score_card(night, name)
        points, counts = live.get(name, (0, {}))
        marks = [list(s["rounds"]) for s in card["sets"]]
        if name in live:
            marks[night.set_no - 1][night.round_no - 1] = "▸"
        rounds = " | ".join(
            "".join(
                (m or "·") + ("*" if (k, r) in marked.get(name, ()) else "")
                for r, m in enumerate(s, start=1)
            )
            for k, s in enumerate(marks, start=1)
        )
        out.add_row(
            Text(name, style="bold" if name in bold else ""),
            str(card["wins"]),
            str(card["losses"]),
            str(card["buncos"] + counts.get("buncos", 0)),
            str(card["mini_buncos"] + counts.get("minis", 0)),
            str(card["points"] + points),
            rounds,
        )
    return out


def _round_in_play(night: Night) -> dict[str, tuple[int, dict[str, int]]]:
    """Points and counts so far of every player seated in the round under way (once begun)."""
    if night.phase != "playing" or not night.started:
        return {}
    live: dict[str, tuple[int, dict[str, int]]] = {}
    for table in night.tables:
        for seat, name in enumerate(table.seats):
            if name is not None:
                live[name] = (table.points[seat], seat_counts(table.rolls, seat, name))
    return live
