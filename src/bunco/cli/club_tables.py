"""The club's tables for the terminal, readable at 80 columns: the season's standings (and
which nights each player's score counted or dropped) and the dues ledger. Money columns
never wrap nor shrink: the names give way first."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from bunco.club.club import Club
from bunco.club.ladder import rule_text
from bunco.club.ledger import pot_words
from bunco.club.season import season_standings
from bunco.core.night import Night


def money(currency: str, amount: str) -> str:
    """``$5.00``, ``-$5.00`` (a member in credit)."""
    return ("-" if amount.startswith("-") else "") + currency + amount.lstrip("-")


def _table(title: str, caption: str | None = None) -> Table:
    return Table(
        title=title,
        title_justify="left",
        caption=caption,
        caption_justify="left",
        box=box.SIMPLE_HEAD,  # no side rules: 80 columns hold every figure
        pad_edge=False,
        collapse_padding=True,
        padding=(0, 1),
    )


def _numbers(table: Table, *heads: str) -> None:
    for head in heads:  # never squeezed: the name column gives way first
        table.add_column(head, justify="right", no_wrap=True, min_width=len(head))


def _fit_names(table: Table, cells: list[list[str]], width: int, name_col: int) -> None:
    """Let the name column take what the figures leave of ``width`` (at least 6)."""
    widths = [
        max([len(str(col.header)), *(len(row[i]) for row in cells)])
        for i, col in enumerate(table.columns)
    ]
    others = sum(w for i, w in enumerate(widths) if i != name_col) + 2 * len(widths) + 1
    table.columns[name_col].max_width = max(6, min(widths[name_col], width - others))
    for row in cells:
        table.add_row(*row)


def standings_table(
    club: Club, nights: Mapping[str, Night], season: str | None, width: int = 80
) -> Group:
    """The standings under the club's rules, then the nights left out of each score."""
    rows = season_standings(club, nights, season)
    table = _table(f"{club.name}: {season or club.season}", f"Ranked by {rule_text(club.ladder)}")
    _numbers(table, "#")
    table.add_column("player", overflow="ellipsis", no_wrap=True, min_width=6)
    _numbers(table, "nights", "score", "W", "L", "Buncos", "Minis", "points", "prizes")
    table.add_column("won", justify="right", no_wrap=True, min_width=len(club.currency) + 6)
    cells = [
        [
            str(r.rank) if r.rank else "-",
            r.player,
            str(r.nights) if r.counted == r.nights else f"{r.counted}/{r.nights}",
            r.score,
            str(r.wins),
            str(r.losses),
            str(r.buncos),
            str(r.minis),
            str(r.points),
            str(r.prizes),
            money(club.currency, r.as_dict()["won"]),
        ]
        for r in rows
    ]
    _fit_names(table, cells, width, 1)
    parts: list[Any] = [table]
    dropped = [r for r in rows if r.dropped]
    if dropped:
        parts.append(
            Text(
                "Nights counted / played. Left out: "
                + "; ".join(f"{r.player} {', '.join(r.dropped)}" for r in dropped),
                overflow="fold",
            )
        )
    return Group(*parts)


def ledger_table(club: Club, data: Mapping[str, Any], width: int = 80) -> Group:
    """The dues per member, each night's pot collected and owed, and the totals."""
    c = club.currency
    table = _table(f"{club.name}: dues, {data['season']}")
    table.add_column("member", overflow="ellipsis", no_wrap=True, min_width=6)
    _numbers(table, "nights", "owed", "paid", "balance", "won")
    _fit_names(
        table,
        [
            [
                m["player"],
                str(m["nights"]),
                money(c, m["owed"]),
                money(c, m["paid"]),
                money(c, m["balance"]),
                money(c, m["won"]),
            ]
            for m in data["members"]
        ],
        width,
        0,
    )
    pots = _table("Nights")
    pots.add_column("night", overflow="ellipsis", no_wrap=True, min_width=6)
    _numbers(pots, "pot", "collected", "owed", "paid out", "left")
    for n in data["nights"]:
        label = n["date"] or n["night"]
        if not n["played"]:
            pots.add_row(label, "-", "-", "-", "-", "not played")
            continue
        pots.add_row(
            label,
            money(c, n.get("pot", n["dues"])),
            money(c, n["pot_collected"]),
            money(c, n["pot_owed"]),
            money(c, n.get("paid_out", "0.00")),
            money(c, n.get("left_in_pot", "0.00")),
        )
    t = data["totals"]
    lines = [
        f"owed {money(c, t['dues_owed'])} · paid {money(c, t['dues_paid'])} · outstanding "
        f"{money(c, t['outstanding'])} · paid out {money(c, t['paid_out'])}",
        pot_words(t, c),
    ]
    short = [n for n in data["nights"] if n["played"] and n["paid_from_owed"] != "0.00"]
    lines += [
        f"{n['date'] or n['night']} paid {money(c, n['paid_from_owed'])} from dues not yet "
        "collected"
        for n in short
    ]
    return Group(table, pots, *(Text(line, overflow="fold") for line in lines))
