"""The whole night as a person reads it, on a Rich console: rounds, cards, sheets, prizes.

``bunco replay FILE`` prints it, and so does ``bunco play`` when the night is over.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from bunco.core.night import Night
from bunco.core.rules import SetWinner
from bunco.core.seating_partners import kept_words, partners_kept
from bunco.party.payouts import payout_sheet
from bunco.party.report import night_report
from bunco.party.sheets import master_sheet
from bunco.play.render import score_cards_table


def _names(players: list[Any]) -> str:
    return ", ".join(p if p is not None else "(ghost)" for p in players)


def print_round(
    out: Console, rnd: dict[str, Any], kept: list[tuple[str, str]] | None = None
) -> None:
    """One finished round, table by table; ``kept``: partnerships the host's seating kept
    for it against the partner rule (shown under the table)."""
    table = Table(title=f"Set {rnd['set']}, round {rnd['round']}", title_justify="left")
    if kept:
        table.caption = "* " + kept_words(kept)
        table.caption_justify = "left"
    table.add_column("table", justify="right")
    table.add_column("seats (clockwise)")
    table.add_column("score")
    table.add_column("winners", style="green")
    table.add_column("losers", style="red")
    for t in rnd["tables"]:
        if t["team"]:
            score = (
                f"{' & '.join(map(str, t['teams'][0]))} {t['team_scores'][0]} – "
                f"{t['team_scores'][1]} {' & '.join(map(str, t['teams'][1]))}"
            )
        else:
            score = ", ".join(f"{n} {p}" for n, p in t["scores"].items())
        if t["tie_break"]:
            score += f"  (tie broken: {t['tie_break']['rule'].replace('_', ' ')})"
        table.add_row(
            str(t["table"]), _names(t["players"]), score, _names(t["winners"]), _names(t["losers"])
        )
    out.print(table)


def print_night(out: Console, night: Night) -> None:
    """The whole night as a person reads it."""
    data = night_report(night)
    kept = partners_kept(night.changes)
    for rnd in data["rounds"]:
        print_round(out, rnd, kept.get((rnd["set"], rnd["round"])))
    out.print(score_cards_table(night))
    if night.rules.set_winner is SetWinner.MOST_WINS:
        for set_no in range(1, night.set_no + 1):
            sheet = Table(title=f"Master score sheet, set {set_no}", title_justify="left")
            sheet.add_column("player")
            for r in range(1, 7):
                sheet.add_column(str(r), justify="center")
            sheet.add_column("total")
            for row in master_sheet(night, set_no):
                total = f"{row['wins']}-W" + (f" {row['buncos']}-B" if row["buncos"] else "")
                sheet.add_row(row["player"], *row["rounds"], total)
            out.print(sheet)
        for s in data["set_winners"]:
            how = {
                "wins": "most W's",
                "buncos": "most B's among the tied",
                "roll_off": "a roll-off",
                "pending_roll_off": "a roll-off still to roll",
            }[s["settled_by"]]
            out.print(
                f"[bold]Set {s['set']} winner:[/] {s['winner'] or 'to be decided'} (by {how})"
            )
    if data["prizes"]:
        prizes = Table(title="Prizes", title_justify="left")
        for col in ("prize", "group", "figure", "winners", "settled by"):
            prizes.add_column(col)
        for p in data["prizes"]:
            who = (
                _names(p["winners"])
                if p["winners"]
                else (
                    "roll-off between " + _names(p["candidates"]) if p["candidates"] else "nobody"
                )
            )
            prizes.add_row(
                p["label"],
                p["group"] or "",
                "" if p["value"] is None else str(p["value"]),
                who,
                p["settled_by"].replace("_", " "),
            )
        out.print(prizes)
    print_payouts(out, night)  # a night with money: who gets how much for what
    if data["rolloff"]:
        r = data["rolloff"]
        out.print(
            f"[yellow]Roll-off due[/] for {r['purpose']} between {_names(r['players'])}, "
            f"rolling for {r['round']}s; next: {r['roller']}"
        )
    if data["next"]:
        nxt = data["next"]
        out.print(f"[bold]Next:[/] set {nxt['set']}, round {nxt['round']}")
        for i, seats in enumerate(nxt["tables"], start=1):
            out.print(f"  table {i}: {_names(seats)}")
    elif night.phase == "over":
        early = data["ended_early"]
        out.print(
            "[bold]The night is over.[/]"
            + (f" The host ended it after set {early['set']}, round {early['round']}."
               if early else "")
        )


def print_payouts(out: Console, night: Night) -> None:
    """The payout sheet of a night with money (nothing for a night without)."""
    sheet = payout_sheet(night)
    if sheet is None:
        return
    table = Table(title="Payouts" + ("" if sheet.final else " (not final yet)"),
                  title_justify="left")
    for col in ("player", "prize", "amount"):
        table.add_column(col, justify="right" if col == "amount" else "left")
    for paid in sheet.lines:
        table.add_row(paid.player, paid.prize, paid.amount)
    out.print(table)
    for text in (*sheet.summary, *sheet.unpaid):
        out.print(text, highlight=False)
