"""Entries tapped before the bell that reach the log after it, and the room that waits
for a table's phone: store and forward at the bell.

A table's phone keeps its entries until the server has them (docs/outbox.md). When the
Wi-Fi drops before the bell and comes back after it, the table's entries of play arrive
after the bell although the players rolled them before it. The party log keeps such an
entry as a ``roll`` or ``tally`` with ``before_bell: true``, and the fold places it where
it was rolled: at the end of the table's play before the bell, the bell then applied to
the table again (a turn under way is finished, a table tied plays its tie-break, a table
ahead is done). So the table's result is worked out again and a tie-break it was put in
is dropped, or begun again on the new points. It is taken while the table's round has not
moved past it: no entry at that table since the bell (nor its result entered by hand),
and the room not reseated (the round not over).

While a table's phone is known to hold entries of the round (it said so, or it fell
silent since its last entry), the round does not end without it: a ``wait_for_phone``
event (written by the server) makes the room wait for that table, and the round ends
only once a ``go_on`` (the phone's entries are in, or the host's decision: the table's
score entered from its paper tally, or go on without it) releases every table waited for.

**The table's score from the paper.** A ``go_on`` with ``points`` (each player's points
of the round at that table, from the paper tally), ``buncos`` and ``minis`` (how many
each rolled; optional) is the host's entry of the table's round: :func:`paper_table`
makes it the table's result, in place of whatever entries the server had of that round
there (the paper wins). The team totals (each player's own, at a table of individuals)
decide who won; ``winner`` names the side only when they tie, and is refused when it
contradicts them. The round's record at that table is then the paper's lines
(:attr:`~bunco.core.table.Phase.PAPER`): one with each player's points, one per Bunco
and per Mini Bunco, so the score cards, the sheets, the standings and the prizes count
them as they count rolls. Entries from that table's phone for that round are refused
after it ("the host entered this table's score from the paper").

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "players": [
...     "Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]})
>>> for n in range(11):  # Ann scores at the head table until the bell; table 2 is quiet
...     night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 2]})
>>> night.bell, night.tables[1].status.value
(True, 'tie_break')
>>> night = night.apply({"type": "tally", "table": 2, "outcome": "+2", "before_bell": True})
>>> night.tables[1].side_scores, night.tables[1].status.value
((2, 0), 'finishing')
>>> night = night.apply({"type": "roll", "table": 1, "dice": [2, 3, 4]})  # Ann's turn ends
>>> night = night.apply({"type": "wait_for_phone", "of_table": 2})
>>> night = night.apply({"type": "go_on", "of_table": 2, "why": "host",
...     "points": {"Eve": 4, "Fay": 23, "Gus": 3, "Hal": 0}, "buncos": {"Fay": 1}})
>>> night.history[0].tables[1].winners, night.cards["Fay"].buncos, night.cards["Fay"].points
(('Fay', 'Hal'), 1, 23)
"""

from collections.abc import Mapping
from typing import Literal, NotRequired

from typing_extensions import TypedDict

from bunco.core.corrections import whole_field
from bunco.core.dice import Dice
from bunco.core.errors import InvalidEvent, InvalidSetup, shown
from bunco.core.event_seq import EventSeq
from bunco.core.evolve import evolve
from bunco.core.names import person_name
from bunco.core.rules import RollKind, RuleSet
from bunco.core.table import Phase, RollRecord, Status, TableRound

LATE_EVENT_TYPES: dict[str, str] = {
    "wait_for_phone": "the room waits for a table's phone, which holds entries of the round "
    "(or fell silent since its last entry): of_table, entries?",
    "go_on": "the room stops waiting for a table's phone: its entries are in, or the host "
    "decided (points: the table's score from its paper tally, buncos and minis with it; "
    "winner: who won there, when the totals tie): of_table, points?, buncos?, minis?, "
    "winner?, why?",
}
WHY = ("sent", "host")
"""Why the room goes on: the phone's entries are in (``sent``), or the host decided."""
MAX_TABLE = 10_000
MAX_POINTS = 10_000
"""The most points a player scores in one round at one table, from the paper."""
MAX_COUNT = 100
"""The most Buncos (or Mini Buncos) a player rolls in one round, from the paper."""
COUNTS = ("points", "buncos", "minis")
"""The fields of a ``go_on`` that carry the table's paper tally, name → whole number."""


# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation (as in bunco.core.events).


class WaitForPhoneEvent(TypedDict):
    """The round does not end without table ``of_table``'s phone, which holds ``entries``
    entries of the round (absent: it fell silent since its last entry)."""

    type: Literal["wait_for_phone"]
    of_table: int
    entries: NotRequired[int]
    id: NotRequired[object]
    at: NotRequired[object]


class GoOnEvent(TypedDict):
    """The room stops waiting for table ``of_table``'s phone; with ``points`` (``buncos``,
    ``minis``), the host entered the table's score from its paper tally; with ``winner``,
    that player's side won there (alone: the host's word; with ``points``: the totals tie)."""

    type: Literal["go_on"]
    of_table: int
    points: NotRequired[dict[str, int]]
    buncos: NotRequired[dict[str, int]]
    minis: NotRequired[dict[str, int]]
    winner: NotRequired[str]
    why: NotRequired[Literal["sent", "host"]]
    id: NotRequired[object]
    at: NotRequired[object]


def normalize_late(event: Mapping[str, object]) -> WaitForPhoneEvent | GoOnEvent:
    """A ``wait_for_phone`` or ``go_on`` event in canonical form (without ``id`` and ``at``).

    >>> normalize_late({"type": "go_on", "of_table": 7, "winner": " Eve "})
    {'type': 'go_on', 'of_table': 7, 'winner': 'Eve'}
    >>> normalize_late({"type": "go_on", "of_table": 2, "points": {"Eve": 4, "Fay": 12}})
    {'type': 'go_on', 'of_table': 2, 'points': {'Eve': 4, 'Fay': 12}}
    """
    of_table = whole_field(event, "of_table", 1, MAX_TABLE)
    if event["type"] == "wait_for_phone":
        wait: WaitForPhoneEvent = {"type": "wait_for_phone", "of_table": of_table}
        if event.get("entries") is not None:
            wait["entries"] = whole_field(event, "entries", 0, 100_000)
        return wait
    out: GoOnEvent = {"type": "go_on", "of_table": of_table}
    if event.get("points") is not None:
        out["points"] = _counts(event["points"], "points", MAX_POINTS)
    if event.get("buncos") is not None:
        out["buncos"] = _counts(event["buncos"], "buncos", MAX_COUNT)
    if event.get("minis") is not None:
        out["minis"] = _counts(event["minis"], "minis", MAX_COUNT)
    if "points" not in out and ("buncos" in out or "minis" in out):
        raise InvalidEvent(
            "go_on event's buncos or minis come with the table's points from the paper",
            expected='"points": {"Ann": 12, ...}, each player\'s points at that table',
        )
    if event.get("winner") is not None:
        winner = event["winner"]
        if not isinstance(winner, str) or not winner.strip():
            raise InvalidEvent(
                f"go_on event's winner {shown(winner)} is not a player's name",
                expected='"winner": a player seated at that table',
            )
        out["winner"] = person_name(winner, "go_on event's 'winner'", InvalidEvent)
    why = event.get("why")
    if why is not None:
        if why != "sent" and why != "host":
            raise InvalidEvent(
                f"go_on event's why {shown(why)} is not a reason the room goes on",
                expected='"why": "sent" (the phone\'s entries are in) or "host"',
            )
        out["why"] = why
    return out


def before_bell(event: Mapping[str, object]) -> bool:
    """Whether a roll or tally says it was tapped before the bell (``before_bell: true``).

    >>> before_bell({"type": "tally", "table": 2, "outcome": "+1", "before_bell": True})
    True
    """
    value = event.get("before_bell")
    if value is None or value is False:
        return False
    if value is True:
        return True
    raise InvalidEvent(
        f"before_bell {shown(value)} is not true or false",
        expected='"before_bell": true (an entry tapped before the bell), or leave it out',
    )


def _counts(value: object, key: str, most: int) -> dict[str, int]:
    """A ``go_on``'s ``points``, ``buncos`` or ``minis``: player's name → whole number from
    0 to ``most`` (a JSON integer), each name once in its one spelling."""
    example = '{"Ann": 12, "Bea": 0}' if key == "points" else '{"Ann": 1}'
    if not isinstance(value, Mapping):
        raise InvalidEvent(
            f"go_on event's {key} {shown(value)} is not an object of players' names",
            expected=f'"{key}": {example}',
        )
    out: dict[str, int] = {}
    for name, count in value.items():
        if not isinstance(name, str) or not name.strip():
            raise InvalidEvent(
                f"go_on event's {key} names {shown(name)}, which is not a player's name",
                expected=f'"{key}": {example}',
            )
        player = person_name(name, f"go_on event's {key}", InvalidEvent)
        if type(count) is not int or not 0 <= count <= most:
            raise InvalidEvent(
                f"go_on event's {key} for {player} {shown(count)} is not a whole number "
                f"from 0 to {most:,}",
                expected=f'"{key}": {example}, each a JSON integer from 0 to {most:,}',
            )
        if player in out:
            raise InvalidEvent(
                f"go_on event's {key} names {player} twice",
                expected=f'"{key}": each player once',
            )
        out[player] = count
    return out


def paper_table(table: TableRound, event: GoOnEvent, rules: RuleSet) -> TableRound:
    """Table ``table``'s round as the host entered it from the table's paper tally
    (``event``: a normalized ``go_on`` with ``points``, maybe ``buncos``, ``minis`` and
    ``winner``): settled on those points, its record the paper's lines in place of the
    entries the server had of the round there (the paper wins). Raises
    :class:`InvalidSetup` naming the players expected, or the side that won.

    >>> from bunco.core.presets import get_rules
    >>> t = TableRound.begin(2, ("Eve", "Fay", "Gus", "Hal"), team=True, target=21,
    ...                      round_no=1, rules=get_rules("classic"))
    >>> done = paper_table(t, {"points": {"Eve": 7, "Fay": 5, "Gus": 0, "Hal": 2},
    ...     "winner": "Fay"}, get_rules("classic"))
    >>> done.side_scores, done.winners, done.status.value
    ((7, 7), ('Fay', 'Hal'), 'done')
    """
    where = f"table {table.number}"
    names = [s for s in table.seats if s is not None]
    players = ", ".join(names)
    points: Mapping[str, int] = event["points"]
    missing = [n for n in names if n not in points]
    strangers = [n for n in points if n not in names]
    if strangers or missing:
        wrong = (
            f"{', '.join(strangers)} {'does' if len(strangers) == 1 else 'do'} not sit at "
            f"{where} this round"
            if strangers
            else f"the points of {', '.join(missing)} are missing"
        )
        raise InvalidSetup(
            f"{wrong}: the paper tally of {where} has a line for each of {players}",
            expected='"points": {' + ", ".join(f'"{n}": ...' for n in names) + "}",
        )
    for key, counts in (("buncos", event.get("buncos", {})), ("minis", event.get("minis", {}))):
        strangers = [n for n in counts if n not in names]
        if strangers:
            raise InvalidSetup(
                f"{', '.join(strangers)} {'does' if len(strangers) == 1 else 'do'} not sit at "
                f"{where} this round, so cannot have {key} there",
                expected=f'"{key}": names among {players}',
            )
    seat_points = tuple(0 if s is None else points[s] for s in table.seats)
    played = evolve(table, points=seat_points)
    side = _paper_winner(played, event.get("winner"))
    return evolve(
        played,
        status=Status.DONE,
        winning_side=side,
        in_turn=False,
        tie_break=None,
        contenders=(),
        first_rolls=(),
        rolls=EventSeq.of(_paper_lines(played, event, rules)),
    )


def _paper_winner(table: TableRound, winner: str | None) -> int:
    """The side that won ``table`` on its paper points: the one ahead, or ``winner``'s
    when the totals tie (refused when missing there, or naming a side behind)."""
    scores = table.side_scores
    best = max(scores)
    tied = [s for s in table.sides if scores[s] == best]

    def named(side: int) -> str:
        return " & ".join(table.seats[i] or "a ghost" for i in table.side_seats(side))

    totals = ", ".join(f"{named(s)} {scores[s]}" for s in table.sides)
    if winner is None:
        if len(tied) > 1:
            raise InvalidSetup(
                f"the paper tally ties table {table.number} ({totals}): who won there?",
                expected='"winner": one of '
                + ", ".join(named(s) for s in tied)
                + " (a player of the side that won the tie-break)",
            )
        return tied[0]
    if winner not in table.seats:
        raise InvalidSetup(
            f"{winner} does not sit at table {table.number} this round",
            expected="one of " + ", ".join(p for p in table.seats if p),
        )
    side = table.side_of(table.seats.index(winner))
    if side not in tied:
        ahead = " and ".join(named(s) for s in tied)
        raise InvalidSetup(
            f"the winner {winner} contradicts the paper tally of table {table.number} "
            f"({totals}): {ahead} {'is' if len(tied) == 1 and not table.team else 'are'} ahead",
            expected="no winner (the points decide it), or a player of "
            + " or ".join(named(s) for s in tied),
        )
    return side


def _paper_lines(table: TableRound, event: GoOnEvent, rules: RuleSet) -> list[RollRecord]:
    """The paper's lines of ``table``'s round: each player's points, then one line per
    Bunco and per Mini Bunco each rolled (their points are in the player's points)."""
    number = table.round_no
    bunco: Dice = (number, number, number)
    face = 2 if number != 2 else 3
    mini: Dice = (face, face, face)
    mini_kind = (
        rules.low_trips_kind
        if rules.low_trips_kind is rules.high_trips_kind
        else RollKind.MINI_BUNCO
    )
    lines: list[RollRecord] = []
    for seat, name in enumerate(table.seats):
        if name is None:
            continue
        scored = table.points[seat]
        kind = RollKind.POINTS if scored else RollKind.MISS
        lines.append(RollRecord(seat, name, name, PAPER_DICE, scored, kind, Phase.PAPER, seat))
        for _ in range(event.get("buncos", {}).get(name, 0)):
            lines.append(RollRecord(seat, name, name, bunco, 0, RollKind.BUNCO, Phase.PAPER, seat))
        for _ in range(event.get("minis", {}).get(name, 0)):
            lines.append(RollRecord(seat, name, name, mini, 0, mini_kind, Phase.PAPER, seat))
    return lines


PAPER_DICE: Dice = (0, 0, 0)
"""The dice of a paper line with a player's points: none (the paper has the points only)."""
