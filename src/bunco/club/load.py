"""Fold a club and its nights from their logs (as the store or files give them).

>>> club = fold_club([{"type": "club", "name": "Tuesday Club"},
...                   {"type": "member", "name": "Ann"}])
>>> club.regulars
('Ann',)
>>> nights = fold_nights({"n1": [{"type": "party", "players": ["Ann", "Bea"]}]})
>>> nights["n1"].roster
('Ann', 'Bea')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bunco.club.club import Club
from bunco.club.events import Raw
from bunco.core.night import Night


def fold_club(log: Sequence[Raw]) -> Club:
    """The club from its log: the set-up line, then its events (each checked as it is
    applied: :func:`~bunco.club.events.normalize_club_event`)."""
    return Club.start(log[0]).apply_all(log[1:])


def fold_nights(logs: Mapping[str, Sequence[Raw]]) -> dict[str, Night]:
    """Each night from its party log (the set-up line, then its events)."""
    return {night_id: Night.start(log[0]).apply_all(log[1:]) for night_id, log in logs.items()}
