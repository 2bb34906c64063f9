"""Corrections: the host fixes a table's round after the fact, with a reason.

A table's phone can undo its own last entries; a mistake found later (a Bunco credited
to the wrong player two rounds ago, a roll that was never entered, a winner the table
agrees was wrong) is the host's to correct, without rewinding the night. Each correction
is one ``correct`` event of the party log (docs/party-log.md) naming the round (``set``,
``round``), the table (``of_table``: not ``table``, since it is not entered at that
table's phone), the ``change`` and a ``reason``:

- ``winner``: ``player``'s side won the round at that table (partners win together);
- ``move``: roll number ``roll`` (1 = the round's first entry at that table) counts for
  ``player`` instead, at ``player``'s seat;
- ``add_roll``: ``player`` rolled ``dice`` too (scored as a roll of that round);
- ``remove_roll``: roll number ``roll`` never happened.

Adding, moving or removing a roll changes the points and the Buncos and Minis on the
cards; who won the round at the table changes only with a ``winner`` correction (the
host decides it, seeing the new scores). The seating that followed stands: people have
moved since. Standings, set winners, prizes and money follow (the fold in
:mod:`bunco.core.night_corrections`). ``close_night`` makes the results final: no correction after it.
The round in play takes ``move``, ``add_roll`` and ``remove_roll`` too, with its own rules
for the turn and the bell (:mod:`bunco.core.running_corrections`).

This module checks the events' shape and rewrites one table's result; the night folds
them. It imports no night, so the night may import it.

>>> normalize_correction({"type": "correct", "set": 1, "round": 2, "of_table": 1,
...     "change": "move", "roll": 3, "player": "Bea", "reason": " Bea rolled it "}, list)
{'type': 'correct', 'set': 1, 'round': 2, 'of_table': 1, 'change': 'move', 'player': 'Bea', 'roll': 3, 'reason': 'Bea rolled it'}
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, NotRequired, Protocol, TypeGuard, TypeVar, cast

from typing_extensions import TypedDict

from bunco.core.dice import Dice, score_checked
from bunco.core.errors import InvalidEvent, InvalidSetup, NotAllowedNow, shown
from bunco.core.evolve import evolve
from bunco.core.names import clean_text, person_name
from bunco.core.rules import RollKind, RuleSet
from bunco.core.table import Phase, RollRecord

CORRECTION_EVENT_TYPES: dict[str, str] = {
    "correct": "the host corrects a table's finished or running round: set, round, of_table, change "
    "(winner, move, add_roll, remove_roll), player?, roll?, dice?, reason, by?",
    "close_night": "the host closes the night: the results are final, no more corrections: by?",
}
CHANGES = ("winner", "move", "add_roll", "remove_roll")
"""What a correction changes (see the module docstring)."""
MAX_REASON = 200
MAX_TABLE = 10_000

Change = Literal["winner", "move", "add_roll", "remove_roll"]


# No ``from __future__ import annotations`` here: TypedDict reads NotRequired[...] at class
# creation (as in bunco.core.events).


class CorrectEvent(TypedDict):
    """The host corrects one table's finished round."""

    type: Literal["correct"]
    set: int
    round: int
    of_table: int
    change: Change
    player: NotRequired[str]
    roll: NotRequired[int]
    dice: NotRequired[list[int]]
    reason: str
    by: NotRequired[str]
    id: NotRequired[object]
    at: NotRequired[object]


class CloseNightEvent(TypedDict):
    """The host closes the night: the results stop being provisional."""

    type: Literal["close_night"]
    by: NotRequired[str]
    id: NotRequired[object]
    at: NotRequired[object]


def whole_field(event: Mapping[str, object], key: str, low: int, high: int) -> int:
    """The whole number ``event[key]``, from ``low`` to ``high`` (a JSON integer), or
    :class:`InvalidEvent` naming the event, the field and what was expected."""
    value = event.get(key)
    if type(value) is not int or not low <= value <= high:
        raise InvalidEvent(
            f"{event.get('type')} event's {key!r} {shown(value)} is not a whole number from "
            f"{low} to {high}",
            expected=f'"{key}": a JSON integer from {low} to {high:,}',
        )
    return value


def _text(value: object, what: str, longest: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > longest:
        raise InvalidEvent(
            f"{what} {shown(value)} is not a short text",
            expected=f"1 to {longest} characters saying {what.split()[-1]}",
        )
    return clean_text(value.strip(), what, InvalidEvent)


def _is_change(value: object) -> TypeGuard[Change]:
    return value in CHANGES


def normalize_correction(
    event: Mapping[str, object], dice: Callable[[object], list[int]]
) -> CorrectEvent | CloseNightEvent:
    """A ``correct`` or ``close_night`` event in canonical form, its keys in canonical order
    (without ``id`` and ``at``); raises :class:`InvalidEvent` naming what is wrong. ``dice``
    checks three faces."""
    if event.get("type") != "correct":
        close: CloseNightEvent = {"type": "close_night"}
        if event.get("by") is not None:
            close["by"] = _text(event["by"], "correction's by", 60)
        return close
    set_no = whole_field(event, "set", 1, 99)
    round_no = whole_field(event, "round", 1, 6)
    of_table = whole_field(event, "of_table", 1, MAX_TABLE)
    change = event.get("change")
    if not _is_change(change):
        raise InvalidEvent(
            f"correction {shown(change)} is not a change the host can make",
            expected="change: one of " + ", ".join(CHANGES),
        )
    player = None
    if change != "remove_roll":
        if not isinstance(event.get("player"), str):
            raise InvalidEvent(
                f"a {change} correction needs the player's name, got {shown(event.get('player'))}",
                expected='"player": the name of a player at that table',
            )
        player = person_name(event["player"], "correction's player", InvalidEvent)
    roll = whole_field(event, "roll", 1, 10_000) if change in ("move", "remove_roll") else None
    faces = dice(event.get("dice")) if change == "add_roll" else None
    reason = _text(event.get("reason"), "correction's reason", MAX_REASON)
    out: CorrectEvent = {
        "type": "correct",
        "set": set_no,
        "round": round_no,
        "of_table": of_table,
        "change": change,
        "reason": reason,
    }
    if player is not None:
        out["player"] = player
    if roll is not None:
        out["roll"] = roll
    if faces is not None:
        out["dice"] = faces
    if event.get("by") is not None:
        out["by"] = _text(event["by"], "correction's by", 60)
    return in_canonical_order(out)


CANONICAL_ORDER = (
    "type",
    "set",
    "round",
    "of_table",
    "change",
    "player",
    "roll",
    "dice",
    "reason",
    "by",
)
"""The order of a ``correct`` event's keys as stored (a retried correction is compared with
the stored one as written)."""


def in_canonical_order(event: CorrectEvent) -> CorrectEvent:
    """``event`` with its keys in :data:`CANONICAL_ORDER` (the same keys and values).

    >>> in_canonical_order({"type": "correct", "set": 1, "round": 2, "of_table": 3,
    ...     "change": "winner", "reason": "r", "player": "Ann"})  # doctest: +NORMALIZE_WHITESPACE
    {'type': 'correct', 'set': 1, 'round': 2, 'of_table': 3, 'change': 'winner',
     'player': 'Ann', 'reason': 'r'}
    """
    return cast(
        CorrectEvent, dict(sorted(event.items(), key=lambda kv: CANONICAL_ORDER.index(kv[0])))
    )


class TableResultLike(Protocol):
    """What a correction reads of a table's finished round (night's ``TableResult``)."""

    @property
    def table(self) -> int: ...
    @property
    def seats(self) -> tuple[str | None, ...]: ...
    @property
    def team(self) -> bool: ...
    @property
    def side_scores(self) -> tuple[int, ...]: ...
    @property
    def seat_points(self) -> tuple[int, ...]: ...
    @property
    def winners(self) -> tuple[str | None, ...]: ...
    @property
    def winning_seats(self) -> frozenset[int]: ...
    @property
    def rolls(self) -> Sequence[RollRecord]: ...


R = TypeVar("R", bound=TableResultLike)


@dataclass(frozen=True, slots=True)
class Correction:
    """One correction as the night keeps it, for the audit list (what, who, when, why)."""

    set_no: int
    round_no: int
    table: int
    change: str
    player: str | None  # the new winner, who the roll now counts for, whose roll was added
    record: RollRecord | None  # the roll moved (as it was), added or removed
    roll: int | None  # its number in the round at that table (1 = first)
    winners_before: tuple[str, ...]
    winners_after: tuple[str, ...]
    scores_before: tuple[int, ...]
    scores_after: tuple[int, ...]
    reason: str
    by: str | None
    at: str | None
    rolloffs: tuple[str, ...] = ()
    """What the correction did to the roll-offs (kept, cancelled, rolled again), in words."""


_SCORED = (Phase.PLAY, Phase.AFTER_BELL, Phase.PAPER)
"""The phases whose rolls count in a table's points."""


def _side(team: bool, seat: int) -> int:
    return seat % 2 if team else seat


def seat_points_of(rolls: Sequence[RollRecord], seats: int, team: bool) -> tuple[int, ...]:
    """Each seat's points from a round's rolls, as the table counted them: rolls of play
    and after the bell (a Wipeout takes the roller's side back to zero), and the points
    lines of a paper tally the host entered (:func:`bunco.core.late_entries.paper_table`)."""
    points = [0] * seats
    for r in rolls:
        if r.phase not in _SCORED:
            continue
        if r.kind is RollKind.WIPEOUT:
            for i in range(seats):
                if _side(team, i) == _side(team, r.seat):
                    points[i] = 0
        else:
            points[r.seat] += r.points
    return tuple(points)


def _side_scores(points: tuple[int, ...], team: bool) -> tuple[int, ...]:
    return (points[0] + points[2], points[1] + points[3]) if team else points


def _seat_of(result: TableResultLike, player: str, where: str) -> int:
    return _seat_in(result.seats, player, where)


def _seat_in(seats: Sequence[str | None], player: str, where: str) -> int:
    if player in seats:
        return seats.index(player)
    at = ", ".join(p for p in seats if p is not None)
    raise InvalidSetup(f"{player!r} did not play at {where}", expected=f"one of {at}")


def _roll_at(rolls: Sequence[RollRecord], number: int, where: str) -> RollRecord:
    if number > len(rolls):
        count = len(rolls)
        raise InvalidSetup(
            f"{where} has {count} roll{'s' if count != 1 else ''}, so there is no roll {number}",
            expected=f"a roll number from 1 to {count}" if count else "an add_roll correction",
        )
    record = rolls[number - 1]
    if record.phase is Phase.FIRST_ROLL:
        raise NotAllowedNow(
            f"roll {number} at {where} was a roll for high to decide who starts: it counts for nobody",
            expected="the number of a roll of play, after the bell or in a tie-break",
        )
    return record


def changed_rolls(
    seats: tuple[str | None, ...],
    rolls: Sequence[RollRecord],
    ev: CorrectEvent,
    rules: RuleSet,
    where: str,
) -> tuple[list[RollRecord], RollRecord, int]:
    """A round's ``rolls`` at a table after a ``move``, ``add_roll`` or ``remove_roll``
    correction, the roll it moved (as it was), added or removed, and that roll's number
    (an added roll comes last). Raises where the correction does not fit the round."""
    out = list(rolls)
    change = ev["change"]
    player = ev.get("player")
    number = ev.get("roll")
    if change == "move":
        assert player is not None and number is not None
        record = _roll_at(out, number, where)
        seat = _seat_in(seats, player, where)
        if record.credited == player:
            raise NotAllowedNow(
                f"roll {number} at {where} already counts for {player}",
                expected="the name of another player at that table",
            )
        out[number - 1] = evolve(record, seat=seat, roller=player, credited=player)
        return out, record, number
    if change == "add_roll":
        assert player is not None and "dice" in ev
        seat = _seat_in(seats, player, where)
        a, b, c = ev["dice"]
        dice: Dice = (a, b, c)
        score = score_checked(dice, ev["round"], rules)
        turn = out[-1].turn + 1 if out else 0
        record = RollRecord(seat, player, player, dice, score.points, score.kind, Phase.PLAY, turn)
        out.append(record)
        return out, record, len(out)
    assert number is not None
    record = _roll_at(out, number, where)
    del out[number - 1]
    return out, record, number


def correct_result(result: R, ev: CorrectEvent, rules: RuleSet, where: str) -> tuple[R, Correction]:
    """``result`` corrected by ``ev``, and the record of the correction.

    Raises :class:`~bunco.core.errors.BuncoError` when the correction does not fit that
    round (a player not at the table, no such roll, a winner who already won).
    """
    rolls = list(result.rolls)
    change = ev["change"]
    player = ev.get("player")
    number = ev.get("roll")
    record: RollRecord | None = None
    winning = result.winning_seats
    if change == "winner":
        assert player is not None
        side = _side(result.team, _seat_of(result, player, where))
        winning = frozenset(i for i in range(len(result.seats)) if _side(result.team, i) == side)
        if winning == result.winning_seats:
            raise NotAllowedNow(
                f"{_names(result.seats, winning)} already won at {where}",
                expected="the name of a player on another side",
            )
    else:
        rolls, record, number = changed_rolls(result.seats, result.rolls, ev, rules, where)
    points = seat_points_of(rolls, len(result.seats), result.team)
    if change == "winner":
        corrected = evolve(
            result,
            winners=tuple(result.seats[i] for i in sorted(winning)),
            losers=tuple(s for i, s in enumerate(result.seats) if i not in winning),
            winning_seats=winning,
        )
    else:
        corrected = evolve(
            result,
            rolls=tuple(rolls),
            seat_points=points,
            side_scores=_side_scores(points, result.team),
        )
    at = ev.get("at")
    return corrected, Correction(
        set_no=ev["set"],
        round_no=ev["round"],
        table=ev["of_table"],
        change=change,
        player=player,
        record=record,
        roll=number,
        winners_before=named_seats(result.seats, result.winning_seats),
        winners_after=named_seats(result.seats, winning),
        scores_before=result.side_scores,
        scores_after=corrected.side_scores,
        reason=ev["reason"],
        by=ev.get("by"),
        at=at if isinstance(at, str) else None,
    )


def named_seats(seats: Sequence[str | None], winning: frozenset[int]) -> tuple[str, ...]:
    return tuple(s for i, s in enumerate(seats) if i in winning and s is not None)


def _names(seats: Sequence[str | None], winning: frozenset[int]) -> str:
    return " & ".join(named_seats(seats, winning)) or "nobody"


def check_correctable(closed: bool) -> None:
    """Refuse a correction once the night is closed: the only end of corrections (during
    or after a roll-off, a correction decides the set winner and the prizes again)."""
    if closed:
        raise NotAllowedNow(
            "the host has closed the night: its results are final",
            expected="corrections before the night is closed",
        )


def check_closable(phase: str, closed: bool) -> None:
    """Refuse ``close_night`` before the night is over, or a second time."""
    if closed:
        raise NotAllowedNow("the night is already closed", expected="nothing more: it is final")
    if phase != "over":
        doing = "a roll-off is under way" if phase == "rolloff" else "rounds are still to play"
        raise NotAllowedNow(
            f"the night cannot be closed yet: {doing}",
            expected="close_night once the night is over and its prizes are decided",
        )
