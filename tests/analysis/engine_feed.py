"""Feed dice streams to the real night engine, round by round, as the kernel reads them.

:func:`engine_rounds` plays one-set nights of four players at one table (or eight at two
tables) through :class:`bunco.core.night.Night`, taking every play and after-bell roll at
the head table (table 1) from ``head`` and at table 2 from ``other``, in the kernel's
order (at each step table 2 first, then table 1, while both are in play). Rolls that the
kernel does not model (rolling for high to start, tie-breaks, a set winner's roll-off)
take dice from ``extra``. Each finished round is reported from the first roller's side, as
:class:`round_kernel.RoundResults` reports it, so a test can compare the engine
and the kernel on the same dice, and the benchmark can time the engine.

>>> import itertools
>>> head = itertools.cycle([(1, 1, 3), (2, 3, 4)])
>>> rounds = engine_rounds("classic", {}, head, extra=lambda: (6, 6, 6), limit=1)
>>> rounds[0].winner, rounds[0].scores, rounds[0].rolls, rounds[0].bell_roll
(0, (22, 20), 42, 41)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from round_reference import ReferenceRound

from bunco.core.night import Night
from bunco.core.round_results import TableResult
from bunco.core.rules import RollKind
from bunco.core.table import Phase, Status

Dice = tuple[int, int, int]
PLAYERS = ("Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal")


@dataclass(frozen=True, slots=True)
class EngineRound(ReferenceRound):
    """One round as the engine played it, seen from the head table's first roller: the
    reference loop's result, and the round's number."""

    round_no: int = 0


class _Out(Exception):
    """A stream ran out."""


def _take(stream: Iterator[Dice]) -> Dice:
    try:
        return next(stream)
    except StopIteration:
        raise _Out from None


def engine_rounds(
    rules: str,
    house_rules: Mapping[str, Any],
    head: Iterator[Dice],
    other: Iterator[Dice] | None = None,
    *,
    extra: Callable[[], Dice],
    limit: int | None = None,
) -> list[EngineRound]:
    """Play one-set nights until a stream runs out (or ``limit`` rounds are done)."""
    players = list(PLAYERS[: 8 if other is not None else 4])
    out: list[EngineRound] = []
    setup = {"type": "party", "rules": rules, "house_rules": dict(house_rules), "players": players}
    while limit is None or len(out) < limit:
        night = Night.start(setup)
        seen = 0
        try:
            while night.phase == "playing" and (limit is None or len(out) < limit):
                night = _step(night, head, other, extra)
                while seen < len(night.history) and (limit is None or len(out) < limit):
                    out.append(_result(night, seen, other is not None))
                    seen += 1
        except _Out:
            return out
    return out


def _step(
    night: Night, head: Iterator[Dice], other: Iterator[Dice] | None, extra: Callable[[], Dice]
) -> Night:
    """One step: a roll for high or tie-break roll, or else one roll at every table still
    rolling, table 2 before table 1."""
    for table in night.tables:
        if table.status in (Status.FIRST_ROLL, Status.TIE_BREAK):
            return _roll(night, table.number, extra())
    rounds = len(night.history)
    for number in range(len(night.tables), 0, -1):
        if night.tables[number - 1].status is Status.DONE:
            continue
        stream = head if number == 1 else other
        assert stream is not None
        night = _roll(night, number, _take(stream))
        if len(night.history) != rounds or night.phase != "playing":
            break
    return night


def _roll(night: Night, table: int, dice: Dice) -> Night:
    return night.apply({"type": "roll", "table": table, "dice": list(dice)})


def _side_view(result: TableResult) -> tuple[int, tuple[int, int], list[Any]]:
    """The first roller's side, the scores from that side, and the play/after-bell rolls."""
    plays = [r for r in result.rolls if r.phase in (Phase.PLAY, Phase.AFTER_BELL)]
    first = plays[0].seat % 2
    scores = result.side_scores
    return first, (scores[first], scores[1 - first]), plays


def _result(night: Night, index: int, pair: bool) -> EngineRound:
    round_result = night.history[index]
    head = round_result.tables[0]
    first, scores, plays = _side_view(head)
    in_play = [r for r in plays if r.phase is Phase.PLAY]
    won = min(head.winning_seats) % 2 == first if head.winning_seats else False
    winner = -1 if head.tie_break is not None else (0 if won else 1)
    other_scores = _side_view(round_result.tables[1])[1] if pair else None
    return EngineRound(
        round_no=round_result.round_no,
        winner=winner,
        rolls=len(plays),
        bell_roll=len(in_play),
        bunco_end=in_play[-1].kind is RollKind.BUNCO,
        scores=scores,
        other_scores=other_scores,
    )
