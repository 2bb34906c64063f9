"""Timed rounds on the server: its clock is the one that counts (house rule ``round_minutes``).

The party log holds a round's clock as its ``start_round``'s ``clock`` and the bell at
zero as a ``time_up`` (:mod:`bunco.core.round_clock`); this module decides, without I/O,
when the server writes them, on a time it is given (:class:`ServerClock`, injectable):

- **the start**: a timed round's clock starts with its start bell (``start_round``: the
  server writes its own time in ``clock``, whatever a caller sent) or, without one, with
  the round's first entry: the command path puts a ``start_round`` before it
  (:func:`start_command`), kept only if the entry is accepted;
- **the bell at zero**: once the clock has reached zero, the first thing to happen to the
  night (any command, a page asking for the clock, or the night's timer task,
  :mod:`bunco.web.night.round_timer`) has the command path decide a ``time_up`` first
  (:func:`bell_command`), and then the command on the night after the bell: an entry
  stamped after zero is handled as the rules handle entries after the bell (the turn
  under way rolls on, or nothing does). Both are commands of the caller ``clock`` with
  one command id per round (``time_up:SET.ROUND``), so several processes, a retry or a
  restart store one bell at most: the second is a repeat, or refused by the fold (the
  bell has rung), never a second bell.

>>> from datetime import UTC, datetime
>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "house_rules": {"round_minutes": 1},
...                      "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> at = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
>>> stamped({"type": "start_round"}, night, at)
{'type': 'start_round', 'clock': '2026-11-27T20:00:00+00:00'}
>>> night = night.apply(stamped({"type": "start_round"}, night, at))
>>> bell_command(night, at.replace(minute=1)).command_id
'time_up:1.1'
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from bunco.core.events import Event
from bunco.core.night import Night
from bunco.core.round_clock import RoundClock, TimeUpEvent, time_text
from bunco.web.decision.commands import Credited, Given, Intent, MyTurnRoll, NightCommand, RollForMe
from bunco.web.decision.refusals import Refused

CLOCK_CALLER = "clock"
"""The caller of the commands the clock writes (their command ids are scoped to it)."""


class ServerClock:
    """The server's time: :meth:`now` in UTC. ``nap`` is the longest the round timer
    sleeps before it looks at the time again (a system clock set forward is noticed)."""

    nap: float = 30.0

    def now(self) -> datetime:
        return datetime.now(UTC)


class ShiftedClock(ServerClock):
    """The system's time moved by :attr:`shift` (a :class:`~datetime.timedelta` a test sets
    to jump to a clock's last seconds without waiting); the timer looks often."""

    nap = 0.05

    def __init__(self) -> None:
        self.shift = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.shift


def running_clock(night: Night) -> RoundClock | None:
    """The clock of the round in play whose bell has not rung, if any."""
    clock = night.clock
    if clock is None or clock.rung or night.bell or night.phase != "playing":
        return None
    return clock


def bell_command(night: Night, now: datetime) -> NightCommand | None:
    """The clock's bell (``time_up``) when the round's clock has reached zero at ``now``."""
    clock = running_clock(night)
    if clock is None or not clock.due(now):
        return None
    event: TimeUpEvent = {"type": "time_up", "set": clock.set_no, "round": clock.round_no}
    return NightCommand.of(
        Given(event),
        command_id=f"time_up:{clock.set_no}.{clock.round_no}",
        caller=CLOCK_CALLER,
    )


def start_command(night: Night, intent: Intent) -> NightCommand | None:
    """The ``start_round`` that starts a timed round's clock before ``intent``, the round's
    first entry at a table (``None``: not timed, started already, or not an entry)."""
    if not night.rules.round_minutes or night.started or night.phase != "playing":
        return None
    table: object = None
    if isinstance(intent, MyTurnRoll):
        table = next((t for t, p in night.expected_rollers() if p == intent.player), None)
    elif isinstance(intent, Given | RollForMe | Credited):
        event = intent.event
        if event["type"] in ("roll", "tally"):
            table = event.get("table")
    if not isinstance(table, int) or not night.begun_at(table):
        return None  # not an entry, or refused: the table's new seating is not confirmed
    return NightCommand.of(
        Given({"type": "start_round"}),
        command_id=f"clock:{night.set_no}.{night.round_no}",
        caller=CLOCK_CALLER,
    )


def stamped(event: Event, night: Night, now: datetime) -> Event:
    """``event`` as the server writes it at ``now``: a timed round's ``start_round`` with
    the server's time in ``clock`` (a caller's own is replaced; an untimed night's is left
    for the fold to refuse); a ``time_up`` only once its clock has reached zero (a
    ``conflict``, ``not_allowed_now``, saying how long is left)."""
    if event["type"] == "start_round" and night.rules.round_minutes:
        started = event.copy()
        started["clock"] = time_text(now) if now.microsecond else now.isoformat()
        return started
    if event["type"] == "time_up":
        clock = running_clock(night)
        if clock is not None and not clock.due(now) and _same_round(event, clock):
            left = clock.remaining(now)
            raise Refused(
                "conflict",
                "not_allowed_now",
                f"round {clock.round_no}'s clock has {_minutes(left)} left",
                f"the bell at zero, {clock.ends_at}: the server rings it itself",
            )
    return event.copy()


def _same_round(event: TimeUpEvent, clock: RoundClock) -> bool:
    return (event.get("set"), event.get("round")) == (clock.set_no, clock.round_no)


def _minutes(seconds: float) -> str:
    """``"4:05"``: minutes and seconds, rounded up (what a countdown shows)."""
    whole = int(-(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"


def clock_reply(night: Night, now: datetime) -> dict[str, Any]:
    """What a page reads to count the round down on the server's time: the round's clock
    (:meth:`~bunco.core.round_clock.RoundClock.as_dict`, or ``None``), the server's
    ``now`` and the milliseconds ``remaining`` at that moment (0 once rung or at zero)."""
    clock = night.clock if night.phase == "playing" else None
    remaining = 0 if clock is None or clock.rung else round(clock.remaining(now) * 1000)
    return {
        "clock": None if clock is None else clock.as_dict(),
        "minutes": night.rules.round_minutes,
        "now": time_text(now),
        "remaining_ms": remaining,
    }
