"""Plain-data views of a night: the ``replay --json`` report and the live view.

Field names here are promises to people who script against bunco (DESIGN.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bunco.core.table import TableRound

if TYPE_CHECKING:
    from bunco.core.night import Night, TableResult


def _scores(
    seats: tuple[str | None, ...], team: bool, side_scores: tuple[int, ...]
) -> dict[str, Any]:
    if team:
        return {
            "teams": [[seats[0], seats[2]], [seats[1], seats[3]]],
            "team_scores": list(side_scores),
        }
    return {"scores": {name or f"ghost {i + 1}": side_scores[i] for i, name in enumerate(seats)}}


def table_result_dict(res: TableResult) -> dict[str, Any]:
    """One table of a finished round."""
    return {
        "table": res.table,
        "players": list(res.seats),
        "team": res.team,
        **_scores(res.seats, res.team, res.side_scores),
        "points": {n: p for n, p in zip(res.seats, res.seat_points, strict=True) if n is not None},
        "winners": [w for w in res.winners if w is not None],
        "losers": [w for w in res.losers if w is not None],
        "tie_break": res.tie_break,
        "rolls": len(res.rolls),
    }


def report(night: Night) -> dict[str, Any]:
    """The ``bunco replay --json`` document."""
    set_winners = [
        {
            "set": s.set_no,
            "winner": s.winner,
            "settled_by": s.settled_by,
            "tied_on_wins": list(s.tied_on_wins),
            "tied_on_buncos": list(s.tied_on_buncos),
        }
        for s in night.set_results
    ]
    decided = [s.winner for s in night.set_results if s.winner is not None]
    return {
        "rules": night.setup["rules"],
        "house_rules": night.setup.get("house_rules", {}),
        "name": night.setup.get("name"),
        "sets": night.sets,
        "phase": night.phase,
        "rounds": [
            {
                "set": r.set_no,
                "round": r.round_no,
                "tables": [table_result_dict(t) for t in r.tables],
            }
            for r in night.history
        ],
        "players": {name: night.cards[name].as_dict() for name in night.roster},
        "winner": decided[-1] if decided else None,
        "set_winners": set_winners,
        "prizes": [p.as_dict() for p in night.prizes],
        "rolloff": night.rolloff.as_dict() if night.rolloff else None,
        "traveler": night.traveler,
        "last_bunco": night.last_bunco,
        "changes": list(night.changes),
        "ended_early": ended_early(night),
        "next": next_round(night),
    }


def ended_early(night: Night) -> dict[str, int] | None:
    """The last round played when the host ended the night early (``end_night``), else None.

    >>> from bunco.core.night import Night
    >>> ended_early(Night.start({"rules": "classic", "players": ["A", "B", "C", "D"]})) is None
    True
    """
    if not any(c["type"] == "end_night" for c in night.changes) or not night.history:
        return None
    return {"set": night.history[-1].set_no, "round": night.history[-1].round_no}


def next_round(night: Night) -> dict[str, Any] | None:
    """The seating of the round that comes next (or is under way), or None when the night is over."""
    if night.phase == "over":
        return None
    set_no, round_no = night.set_no, night.round_no
    if night.phase == "rolloff" and night.rolloff_for:
        if night.rolloff_for[0] == "prize" or night.set_no >= night.sets:
            return None  # the night's rounds are over; only roll-offs remain
        set_no, round_no = night.set_no + 1, 1
    return {"set": set_no, "round": round_no, "tables": [list(t) for t in night.seating]}


def table_view(table: TableRound) -> dict[str, Any]:
    """One table now, for a live page."""
    last = table.rolls[-1] if table.rolls else None
    tb = table.tie_break
    return {
        "table": table.number,
        "players": list(table.seats),
        "team": table.team,
        "target": table.target,
        "status": table.status.value,
        **_scores(table.seats, table.team, table.side_scores),
        "points": list(table.points),
        "turn": table.turn,
        "roller": table.roller,
        "in_turn": table.in_turn,
        "first_roll": list(table.contenders) if table.contenders else None,
        "tie_break": None
        if tb is None
        else {
            "rule": tb.rule.value,
            "sides": list(tb.sides),
            "points": list(tb.points),
            "session": tb.session,
        },
        "winners": [w for w in table.winners if w is not None],
        "rolls": len(table.rolls),
        "last_roll": None
        if last is None
        else {
            "player": last.roller,
            "credited": last.credited,
            "dice": list(last.dice),
            "points": last.points,
            "kind": last.kind.value,
            "phase": last.phase.value,
        },
    }


def on_break(night: Night) -> bool:
    """True between rounds after a round the rules break after (``breaks_after_rounds``)."""
    if night.started or night.phase != "playing" or not night.history:
        return False
    return night.history[-1].round_no in night.rules.breaks_after_rounds


def view(night: Night) -> dict[str, Any]:
    """Everything a live page needs now."""
    return {
        "phase": night.phase,
        "set": night.set_no,
        "round": night.round_no,
        "sets": night.sets,
        "rules": night.setup["rules"],
        "bell": night.bell,
        "started": night.started,
        "on_break": on_break(night),
        "tables": [table_view(t) for t in night.tables],
        "expects": [{"table": t, "player": p} for t, p in night.expected_rollers()],
        "rolloff": night.rolloff.as_dict() if night.rolloff else None,
        "players": {name: night.cards[name].as_dict() for name in night.roster},
        "seated": list(night.seated),
        "traveler": night.traveler,
        "last_bunco": night.last_bunco,
        "prizes": [p.as_dict() for p in night.prizes],
        "set_winners": [
            {"set": s.set_no, "winner": s.winner, "settled_by": s.settled_by}
            for s in night.set_results
        ],
        "last_round": (
            {
                "set": night.history[-1].set_no,
                "round": night.history[-1].round_no,
                "tables": [table_result_dict(t) for t in night.history[-1].tables],
            }
            if night.history
            else None
        ),
        "ended_early": ended_early(night),
        "next": next_round(night),
    }
