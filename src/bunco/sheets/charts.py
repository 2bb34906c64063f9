"""The night report's charts, drawn with matplotlib's Agg backend (no display needed).

Three charts, each returned as PNG or SVG bytes:

- points per round: each player's points in every round played (the ten best scorers,
  and the average of everyone);
- the Bunco timeline: when each Bunco and Mini/Baby (Low/High) Bunco was rolled, by
  player, round by round;
- wins per player: W's and L's as bars, in standings order, with each player's Buncos.

Figures are built with :class:`matplotlib.figure.Figure` on an Agg canvas and never
through pyplot (no global backend switch), so the web server may draw them in several
threads at once.

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> chart_png(night, "wins")[:4]
b'\\x89PNG'
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from typing import TYPE_CHECKING

from bunco.core.night import Night
from bunco.core.rules import RollKind
from bunco.core.table import Phase
from bunco.party.sheets import MINI_KINDS, round_lines
from bunco.party.standings import standings
from bunco.sheets.wording import minis_header

if TYPE_CHECKING:  # matplotlib is imported when a chart is drawn, not with the server
    from matplotlib.figure import Figure

TOP_PLAYERS = 10
SVG_SALT = "bunco"
"""What an SVG chart's ids are made from (so a report is the same bytes each time)."""
MAX_BARS = 60
COLORS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#7f7f7f",
)


def _round_labels(night: Night) -> list[str]:
    one_set = all(r.set_no == 1 for r in night.history)
    return [str(r.round_no) if one_set else f"{r.set_no}·{r.round_no}" for r in night.history]


def new_figure(width: float, height: float) -> Figure:
    """An empty figure of ``width`` × ``height`` inches at 100 dpi (matplotlib loads here)."""
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100)


def _empty(fig: Figure, text: str) -> Figure:
    ax = fig.add_subplot()
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=12, color="#555555")
    return fig


def points_per_round(night: Night) -> Figure:
    """Points per round for the best scorers, with the average of all players."""
    fig = new_figure(8, 4.2)
    if not night.history:
        return _empty(fig, "No rounds played yet")
    labels = _round_labels(night)
    index = {(r.set_no, r.round_no): i for i, r in enumerate(night.history)}
    lines = round_lines(night)
    series: dict[str, list[float]] = {}
    for name, mine in lines.items():
        values = [math.nan] * len(labels)
        for line in mine:
            values[index[(line.set_no, line.round_no)]] = line.points
        series[name] = values
    ax = fig.add_subplot()
    xs = list(range(1, len(labels) + 1))
    best = sorted(night.roster, key=lambda n: -night.cards[n].points)[:TOP_PLAYERS]
    for i, name in enumerate(n for n in night.roster if n in best):
        ax.plot(
            xs,
            series[name],
            marker="o",
            markersize=4,
            linewidth=1.4,
            color=COLORS[i % len(COLORS)],
            label=name,
        )
    average = []
    for col in range(len(labels)):
        vals = [v[col] for v in series.values() if not math.isnan(v[col])]
        average.append(sum(vals) / len(vals) if vals else math.nan)
    ax.plot(xs, average, linestyle="--", color="black", linewidth=1.6, label="average")
    ax.set_xticks(xs, labels)
    ax.set_xlabel("round" if "·" not in labels[0] else "set·round")
    ax.set_ylabel("points")
    shown = "" if len(night.roster) <= TOP_PLAYERS else f" (top {TOP_PLAYERS} scorers)"
    ax.set_title("Points per round" + shown)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def bunco_events(night: Night) -> list[tuple[float, str, RollKind]]:
    """``(x, player, kind)`` for every Bunco and three of a kind that scored: ``x`` is the
    round's position (1 for the first round played) plus how far into it the roll came."""
    out = []
    for i, rnd in enumerate(night.history):
        for res in rnd.tables:
            count = len(res.rolls)
            for j, record in enumerate(res.rolls):
                if record.phase is Phase.FIRST_ROLL or record.credited is None:
                    continue
                if record.kind is RollKind.BUNCO or record.kind in MINI_KINDS:
                    x = i + 1 - 0.4 + 0.8 * (j + 1) / (count + 1)
                    out.append((x, record.credited, record.kind))
    return sorted(out, key=lambda e: e[0])


def bunco_timeline(night: Night) -> Figure:
    """When every Bunco and Mini Bunco was rolled, one row per player who rolled any."""
    events = bunco_events(night)
    rolled = {name for _, name, _ in events}
    players = [p for p in night.roster if p in rolled]
    minis = minis_header(night.rules)
    height = min(12.0, max(2.6, 0.32 * len(players) + 1.6))
    fig = new_figure(8, height)
    if not events:
        return _empty(fig, f"No Buncos or {minis} yet")
    row = {name: i for i, name in enumerate(reversed(players))}
    ax = fig.add_subplot()
    buncos = [(x, row[n]) for x, n, k in events if k is RollKind.BUNCO]
    others = [(x, row[n]) for x, n, k in events if k is not RollKind.BUNCO]
    if others:
        ax.scatter(
            [x for x, _ in others],
            [y for _, y in others],
            marker="o",
            s=40,
            color="#1f77b4",
            label=minis[:-1],
            zorder=3,
        )
    if buncos:
        ax.scatter(
            [x for x, _ in buncos],
            [y for _, y in buncos],
            marker="*",
            s=220,
            color="#d62728",
            edgecolor="black",
            linewidth=0.5,
            label="Bunco",
            zorder=4,
        )
    labels = _round_labels(night)
    ax.set_xticks(range(1, len(labels) + 1), labels)
    ax.set_xlim(0.5, len(labels) + 0.5)
    for x in range(1, len(labels)):
        ax.axvline(x + 0.5, color="#cccccc", linewidth=0.8)
    ax.set_yticks(range(len(players)), list(reversed(players)))
    ax.set_ylim(-0.7, len(players) - 0.3)
    ax.set_xlabel("round" if "·" not in labels[0] else "set·round")
    ax.set_title(f"Bunco timeline ({len(buncos)} Buncos, {len(others)} {minis})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def wins_per_player(night: Night) -> Figure:
    """W's and L's per player in standings order, with their Buncos noted."""
    table = standings(night)[:MAX_BARS]
    height = min(14.0, max(2.6, 0.3 * len(table) + 1.4))
    fig = new_figure(8, height)
    if not night.history:
        return _empty(fig, "No rounds played yet")
    ax = fig.add_subplot()
    ys = list(range(len(table)))[::-1]
    wins = [s.wins for s in table]
    losses = [s.losses for s in table]
    ax.barh(ys, wins, color="#2ca02c", label="W")
    ax.barh(ys, losses, left=wins, color="#dddddd", label="L")
    for y, s in zip(ys, table, strict=True):
        if s.buncos:
            ax.text(s.wins + s.losses + 0.1, y, f"{s.buncos} B", va="center", fontsize=8)
    ax.set_yticks(ys, [s.player for s in table])
    ax.set_xlabel("rounds")
    shown = "" if len(night.roster) <= MAX_BARS else f" (first {MAX_BARS})"
    ax.set_title("Wins per player" + shown)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.set_xlim(0, max(1, max(w + lo for w, lo in zip(wins, losses, strict=True))) * 1.12)
    fig.tight_layout()
    return fig


CHARTS: dict[str, tuple[str, Callable[[Night], Figure]]] = {
    "points": ("Points per round", points_per_round),
    "timeline": ("Bunco timeline", bunco_timeline),
    "wins": ("Wins per player", wins_per_player),
}


def render(fig: Figure, fmt: str, dpi: float = 100) -> bytes:
    """A figure as ``png`` or ``svg`` bytes."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    # the SVG's ids from a fixed salt, not a random one: the same figure, the same bytes
    matplotlib.rcParams["svg.hashsalt"] = SVG_SALT
    FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    metadata: dict[str, str | None] = {"Date": None} if fmt == "svg" else {"Software": None}
    fig.savefig(buffer, format=fmt, metadata=metadata, dpi=dpi)
    return buffer.getvalue()


def chart_png(night: Night, name: str, dpi: float = 100) -> bytes:
    """One chart (``points``, ``timeline`` or ``wins``) as PNG."""
    return render(CHARTS[name][1](night), "png", dpi)


def chart_svg(night: Night, name: str) -> bytes:
    """One chart as SVG."""
    return render(CHARTS[name][1](night), "svg")
