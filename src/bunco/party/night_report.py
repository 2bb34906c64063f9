"""The night report: the ``bunco replay --json`` document and the words the sheets print.

Field names here are promises to people who script against bunco (DESIGN.md).

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> doc = night_report(night)
>>> doc["rounds"][0]["tables"][0]["winners"], doc["players"]["Ann"]["buncos"]
(['Ann'], 1)
>>> night_title(night), progress(night)
('Bunco night', 'in progress: 1 round played, set 1 round 2 next')
"""

from __future__ import annotations

from collections.abc import Sequence

from bunco.core.audit import audit_trail
from bunco.core.host_shapes import SetRound
from bunco.core.hosting import host_report
from bunco.core.night import Night
from bunco.core.round_results import TableResult
from bunco.core.table import Phase
from bunco.core.verification import verification_report
from bunco.party.payouts import money_part
from bunco.party.shapes import (
    NextRound,
    NightReport,
    PaperMark,
    SeatScores,
    SetWinnerReport,
    TableResultView,
)
from bunco.party.words import result_text


def seat_scores(
    seats: tuple[str | None, ...], team: bool, side_scores: tuple[int, ...]
) -> SeatScores:
    """A table's scores: ``teams`` and ``team_scores``, or ``scores`` by player (ghosts named).

    >>> seat_scores(("Ann", "Bea", "Cat", "Dee"), True, (5, 3))
    {'teams': [['Ann', 'Cat'], ['Bea', 'Dee']], 'team_scores': [5, 3]}
    >>> seat_scores(("Ann", None), False, (4, 0))
    {'scores': {'Ann': 4, 'ghost 2': 0}}
    """
    if team:
        return {
            "teams": [[seats[0], seats[2]], [seats[1], seats[3]]],
            "team_scores": list(side_scores),
        }
    return {"scores": {name or f"ghost {i + 1}": side_scores[i] for i, name in enumerate(seats)}}


def table_result_dict(res: TableResult) -> TableResultView:
    """One table of a finished round (``paper``: entered from the table's paper tally)."""
    paper: PaperMark = {"paper": True} if res.from_paper else {}
    return {
        "table": res.table,
        "players": list(res.seats),
        "team": res.team,
        **seat_scores(res.seats, res.team, res.side_scores),
        "points": {n: p for n, p in zip(res.seats, res.seat_points, strict=True) if n is not None},
        "winners": [w for w in res.winners if w is not None],
        "losers": [w for w in res.losers if w is not None],
        "tie_break": res.tie_break,
        "rolls": sum(r.phase is not Phase.PAPER for r in res.rolls),
        **paper,
        "words": result_text(
            [w for w in res.winners if w is not None],
            res.team,
            list(res.side_scores),
            None if res.tie_break is None else res.tie_break["rule"],
        )
        + (" (from the paper)" if res.from_paper else ""),  # how it was won, in words
    }


def night_report(night: Night) -> NightReport:
    """The ``bunco replay --json`` document."""
    set_winners: list[SetWinnerReport] = [
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
        **host_report(night),  # judged, absent, break, drawings (bunco.core.hosting)
        "verification": verification_report(night),  # who verified which card, who is awaited
        **money_part(night),  # awards, money, payouts, prize_winners, payout_notes
        "closed": night.closed,  # the host closed the night: results final (else provisional)
        "corrections": audit_trail(night),  # every correction and undo (bunco.core.audit)
    }


def ended_early(night: Night) -> SetRound | None:
    """The last round played when the host ended the night early (``end_night``), else None.

    >>> ended_early(Night.start({"rules": "classic", "players": ["A", "B", "C", "D"]})) is None
    True
    """
    if not any(c["type"] == "end_night" for c in night.changes) or not night.history:
        return None
    return {"set": night.history[-1].set_no, "round": night.history[-1].round_no}


def next_round(night: Night) -> NextRound | None:
    """The seating of the round that comes next (or is under way), or None when the night is over."""
    if night.phase == "over":
        return None
    set_no, round_no = night.set_no, night.round_no
    if night.phase == "rolloff" and night.rolloff_for:
        if night.rolloff_for[0] == "prize" or night.set_no >= night.sets:
            return None  # the night's rounds are over; only roll-offs remain
        set_no, round_no = night.set_no + 1, 1
    return {"set": set_no, "round": round_no, "tables": [list(t) for t in night.seating]}


def seat_partners(seats: Sequence[str | None], team: bool) -> list[str | None]:
    """Each seat's partner: the seat across in a team game (None for a ghost or alone).

    >>> seat_partners(["Ann", "Bea", "Cat", "Dee"], True), seat_partners(["Ann", "Bea"], False)
    (['Cat', 'Dee', 'Ann', 'Bea'], [None, None])
    """
    n = len(seats)
    return [seats[(s + 2) % n] if team else None for s in range(n)]


def night_title(night: Night) -> str:
    """The night's name, or "Bunco night"."""
    name = night.setup.get("name")
    return str(name) if name else "Bunco night"


def progress(night: Night) -> str:
    """Where the night stands, in words."""
    if night.phase == "over":
        early = ended_early(night)
        if early:
            return f"the night is over: the host ended it after set {early['set']}, round {early['round']}"
        return "the night is over"
    if night.phase == "rolloff" and night.rolloff is not None:
        return f"a roll-off for {night.rolloff.purpose} is due"
    played = len(night.history)
    return (
        f"in progress: {played} round{'s' if played != 1 else ''} played, set {night.set_no} "
        f"round {night.round_no} next"
    )
