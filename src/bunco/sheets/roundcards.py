"""Round cards: one landscape page per round for the head table to hold up or stand on
its corner ("Round 3 · We're rolling for 3s"), with three dice showing the round's number
and what three of a kind scores in that round, in the rule set's words.

>>> from bunco.core.presets import get_rules
>>> round_lines(get_rules("wm"), 1)
['Three 1s: BUNCO! 21 points', 'Three 2s to 6s: a High Bunco, 5 points']
>>> round_lines(get_rules("classic"), 3)[1]
'Any other three of a kind: a Mini Bunco, 5 points'
"""

from __future__ import annotations

from reportlab.lib.units import inch

from bunco.core.rules import RuleSet
from bunco.sheets.pdfkit import INK, Page
from bunco.sheets.wording import kind_name

# where the pips of each face sit, in thirds of the die (column, row from the top)
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


def _faces(low: int, high: int) -> str:
    """``"2s to 6s"``, ``"5s or 6s"``, ``"1s"``."""
    if low == high:
        return f"{low}s"
    if high == low + 1:
        return f"{low}s or {high}s"
    return f"{low}s to {high}s"


def _points(n: int) -> str:
    return f"{n} point" + ("" if n == 1 else "s")


def round_lines(rules: RuleSet, round_no: int) -> list[str]:
    """What three of a kind scores in round ``round_no``."""
    lines = [f"Three {round_no}s: BUNCO! {_points(rules.bunco_points)}"]
    low = (rules.low_trips_kind, rules.low_trips_points)
    high = (rules.high_trips_kind, rules.high_trips_points)
    if low == high:
        lines.append(f"Any other three of a kind: a {kind_name(low[0], rules)}, {_points(low[1])}")
        return lines
    if round_no > 1:
        lines.append(
            f"Three {_faces(1, round_no - 1)}: a {kind_name(low[0], rules)}, {_points(low[1])}"
        )
    if round_no < 6:
        lines.append(
            f"Three {_faces(round_no + 1, 6)}: a {kind_name(high[0], rules)}, {_points(high[1])}"
        )
    return lines


def draw_die(page: Page, x: float, y: float, size: float, face: int) -> None:
    """A die showing ``face``, lower-left corner at (x, y)."""
    c = page.canvas
    c.saveState()
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(size * 0.04)
    c.roundRect(x, y, size, size, size * 0.16, stroke=1, fill=0)
    c.setFillColorRGB(*INK)
    for col, row in PIPS[face]:
        c.circle(
            x + size * (0.25 + 0.25 * col),
            y + size * (0.75 - 0.25 * row),
            size * 0.085,
            stroke=0,
            fill=1,
        )
    c.restoreState()


def draw_round_card(page: Page, rules: RuleSet, round_no: int, title: str) -> None:
    """Round ``round_no``'s card on a landscape page."""
    mid = page.width / 2
    y = page.poster_title(f"ROUND {round_no}") - 0.85 * inch
    page.text(
        mid,
        y,
        f"We're rolling for {round_no}s",
        40,
        bold=True,
        align="center",
        width=page.inner_width,
    )
    size = 1.5 * inch
    gap = 0.4 * inch
    left = mid - (3 * size + 2 * gap) / 2
    y -= 0.45 * inch + size
    for k in range(3):
        draw_die(page, left + k * (size + gap), y, size, round_no)
    y -= 0.6 * inch
    for line in round_lines(rules, round_no):
        page.text(mid, y, line, 22, align="center", width=page.inner_width)
        y -= 0.42 * inch
    page.footer(f"{title} · Bunco · rules: {rules.name} · round {round_no} of 6")
