"""The whole night as a person reads it, on a Rich console: rounds, cards, sheets, prizes.

``bunco replay FILE`` prints it, and so does ``bunco play`` when the night is over.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from bunco.core.audit import AuditEntry
from bunco.core.night import Night
from bunco.core.rules import SetWinner
from bunco.core.seating_partners import kept_words, partners_kept
from bunco.core.verification import verification_report, verified_text
from bunco.party.night_report import night_report
from bunco.party.payouts import notes, payout_sheet
from bunco.party.shapes import NightReport, ReportRound
from bunco.party.sheets import master_sheet
from bunco.play.render import score_cards_table


def _names(players: list[Any]) -> str:
    return ", ".join(p if p is not None else "(ghost)" for p in players)


def print_round(out: Console, rnd: ReportRound, kept: list[tuple[str, str]] | None = None) -> None:
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
    print_verification(out, night)
    print_prizes(out, night, data)
    print_payouts(out, night)  # a night with money: who gets how much for what
    if data["rolloff"]:
        due = data["rolloff"]
        out.print(
            f"[yellow]Roll-off due[/] for {due['purpose']} between {_names(due['players'])}, "
            f"rolling for {due['round']}s; next: {due['roller']}"
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
            + (
                f" The host ended it after set {early['set']}, round {early['round']}."
                if early
                else ""
            )
            + (
                " The host closed it: the results are final."
                if night.closed
                else " The results are provisional until the host closes the night."
            )
        )
    print_audit(out, data["corrections"])


def print_audit(out: Console, entries: Sequence[AuditEntry]) -> None:
    """The audit list: every correction and undo (what, who, when, why)."""
    if not entries:
        return
    table = Table(title="Corrections and undos", title_justify="left")
    for col in ("what", "who", "when", "why"):
        table.add_column(col)
    for e in entries:
        table.add_row(
            str(e["what"]), str(e["who"] or "—"), str(e["at"] or "—"), str(e["why"] or "—")
        )
    out.print(table)


def print_payouts(out: Console, night: Night) -> None:
    """The payout sheet of a night with money (nothing for a night without)."""
    sheet = payout_sheet(night)
    if sheet is None:
        return
    table = Table(
        title="Payouts" + ("" if sheet.final else " (not final yet)"), title_justify="left"
    )
    if sheet.not_final:
        out.print(sheet.not_final, highlight=False)
    for col in ("player", "prize", "amount"):
        table.add_column(col, justify="right" if col == "amount" else "left")
    for paid in sheet.lines:
        table.add_row(paid.player, paid.prize, paid.amount)
    out.print(table)
    for text in notes(sheet):
        out.print(text, highlight=False)


def print_verification(out: Console, night: Night) -> None:
    """Which cards are verified, by whom and after which round (a night that verifies, or
    any card verified), and who the prizes wait for."""
    report = verification_report(night)
    if not report["required"] and not report["cards"]:
        return
    table = Table(title="Verified cards", title_justify="left")
    for col in ("player", "verified"):
        table.add_column(col)
    for name in night.roster:
        table.add_row(name, verified_text(night, name))
    out.print(table)
    if report["closed_unverified"] is not None:
        closed = ", ".join(report["closed_unverified"]) or "none"
        out.print(f"The host closed the cards with these not verified: {closed}.", highlight=False)


def print_prizes(out: Console, night: Night, data: NightReport) -> None:
    """Every prize as handed out (the person paid, judged prizes too), or the prizes on the
    cards while a roll-off is due; or why nobody is named yet."""
    if data["prizes_status"]:
        out.print(f"[yellow]{data['prizes_status']}[/]", highlight=False)
    rows = data["prize_winners"]
    if not rows and not data["prizes"]:
        return
    prizes = Table(title="Prizes", title_justify="left")
    money = data["money"] is not None
    passing = any(row["passed_over"] for row in rows)
    for col in (
        "prize",
        "figure",
        "handed to",
        *(["amount"] if money else []),
        *(["passed over"] if passing else []),
    ):
        prizes.add_column(col, justify="right" if col == "amount" else "left")
    if rows:
        for row in rows:
            cells = [row["name"], row["figure"], row["who"]]
            cells += [row["amount"]] if money else []
            if passing:
                cells.append("; ".join(f"{p['name']}: {p['reason']}" for p in row["passed_over"]))
            prizes.add_row(*cells)
    else:  # a prize roll-off is due: the prizes as the cards decide them
        for p in data["prizes"]:
            who = (
                _names(p["winners"])
                if p["winners"]
                else (
                    "roll-off between " + _names(p["candidates"]) if p["candidates"] else "nobody"
                )
            )
            name = p["label"] + (f" ({p['group']})" if p["group"] else "")
            prizes.add_row(
                name, "" if p["value"] is None else str(p["value"]), who, *([""] if money else [])
            )
    out.print(prizes)
