"""Draw the odds' distributions into a PNG (``bunco odds --plot FILE.png``).

Uses matplotlib's Agg canvas directly, so it never touches a display or pyplot's
global state.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from bunco.analysis.odds import turn_odds
from bunco.analysis.table_odds import table_odds
from bunco.core.rules import RuleSet


def plot_odds(rules: RuleSet, rounds: Sequence[int], path: str | Path) -> Path:
    """Four panels (turn points, turn rolls, rolls in a round, non-head scores), one line
    per round; returns the path written."""
    fig = Figure(figsize=(12, 8), dpi=100)
    FigureCanvasAgg(fig)
    ax_points, ax_rolls, ax_round, ax_other = fig.subplots(2, 2).ravel()
    notes: list[str] = []
    for r in rounds:
        turn = turn_odds(rules, r)
        table = table_odds(rules, r)
        label = f"round {r}"
        pts = np.array([float(p) for p in turn.points_distribution[:31]])
        ax_points.plot(np.arange(len(pts)), pts, marker="o", markersize=3, label=label)
        rolls = np.array([float(p) for p in turn.rolls_distribution[:12]])
        ax_rolls.plot(np.arange(1, len(rolls) + 1), rolls, marker="o", markersize=3, label=label)
        dist = table.rolls_distribution[:160]
        mean = f"{label} (mean {table.expected_rolls:.1f})"
        ax_round.plot(np.arange(len(dist)), dist, label=mean)
        if table.non_head is not None:
            scores = table.non_head.scores
            size = scores.shape[0]
            diff = np.zeros(2 * size - 1)
            for offset in range(-size + 1, size):
                diff[offset + size - 1] = np.trace(scores, offset=offset)
            lo, hi = size - 1 - 40, size - 1 + 41
            ax_other.plot(
                np.arange(-40, 41),
                diff[lo:hi],
                label=f"{label}: P(tie) {table.non_head.tie_probability:.4f}",
            )
        elif table.non_head_note and table.non_head_note not in notes:
            notes.append(table.non_head_note)
    ax_points.set(title="Points in one turn", xlabel="points", ylabel="probability")
    ax_rolls.set(title="Rolls in one turn", xlabel="rolls", ylabel="probability")
    ax_round.set(
        title="Rolls in a round at the head table (after-bell rolls included)",
        xlabel="rolls",
        ylabel="probability",
    )
    ax_other.set(
        title="Non-head table: second team's score minus the first team's",
        xlabel="difference (0 = tie)",
        ylabel="probability",
    )
    for note in notes:
        ax_other.text(
            0.5, 0.5, note, ha="center", va="center", wrap=True, transform=ax_other.transAxes
        )
    for ax in (ax_points, ax_rolls, ax_round, ax_other):
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    fig.suptitle(f"Bunco odds: {rules.name}, target {rules.target(team=True, single_table=False)}")
    fig.tight_layout()
    out = Path(path)
    fig.savefig(out, format="png")
    return out
