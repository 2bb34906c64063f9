"""CSV export of a night's standings: one row per player.

Columns: ``rank``, ``player``, ``wins``, ``losses``, ``buncos``, ``mini_buncos`` (every
three of a kind that is not a Bunco: Mini, Baby, Low and High Buncos), ``points``,
``prizes_won`` (the set wins and prizes, separated by ``"; "``) and ``group`` (the
player's prize group, if any). Rows are in standings order (see
:func:`bunco.party.standings.standings`); lines end with ``\\n``. The server's CSV download
and ``bunco export`` both write it.

A cell that a spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``,
``@``, a tab or a carriage return) is written with a leading ``'``.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> print(standings_csv(night), end="")
rank,player,wins,losses,buncos,mini_buncos,points,prizes_won,group
1,Ann,1,0,1,0,21,,
2,Bea,0,1,0,0,0,,
"""

from __future__ import annotations

import csv
import io

from bunco.core.night import Night
from bunco.party.standings import standings

COLUMNS = (
    "rank", "player", "wins", "losses", "buncos", "mini_buncos", "points", "prizes_won", "group",
)  # fmt: skip
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(text: str) -> str:
    """``text``, made inert for spreadsheets when it would start a formula.

    >>> safe_cell("=SUM(A1)"), safe_cell("Ann")
    ("'=SUM(A1)", 'Ann')
    """
    return "'" + text if text.startswith(FORMULA_START) else text


def standings_csv(night: Night) -> str:
    """The standings as CSV text with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for s in standings(night):
        writer.writerow(
            [
                s.rank,
                safe_cell(s.player),
                s.wins,
                s.losses,
                s.buncos,
                s.minis,
                s.points,
                safe_cell("; ".join(s.prizes)),
                safe_cell(s.group or ""),
            ]
        )
    return out.getvalue()
