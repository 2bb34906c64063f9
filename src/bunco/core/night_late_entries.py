"""Store and forward at the bell: the room waits for a table's phone, goes on without it
(with who won there, or the table's score from its paper tally), and places an entry
tapped before the bell that arrives after it.

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`go_on` is ``Night._go_on``), so they
take the night as ``self`` and return a new one. The events and the paper tally are
:mod:`bunco.core.late_entries`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bunco.core.errors import BuncoError, InvalidSetup, NotAllowedNow, RoundOver, WrongTable
from bunco.core.events import ScoringEvent, StandingEvent, normalize_event
from bunco.core.evolve import evolve
from bunco.core.late_entries import GoOnEvent, WaitForPhoneEvent, paper_table
from bunco.core.refold_refusals import refuse_changed_corrections, refuse_late_rescoring
from bunco.core.round_results import RoundEnding
from bunco.core.table import Status, TableRound

if TYPE_CHECKING:
    from bunco.core.night import Night


def refuse_after_paper(self: Night, table_no: int) -> None:
    """Refuse an entry at a table whose score of the round in play the host entered
    from the paper: the paper is the table's round now."""
    if self.from_paper(self.set_no, self.round_no, table_no):
        raise RoundOver(
            f"the host entered table {table_no}'s score of round {self.round_no} from the "
            "paper, so its entries of that round no longer count",
            expected="the host's correction of that table's round, if the paper is wrong",
        )


def before_bell(self: Night, ev: ScoringEvent) -> Night:
    """An entry tapped before the bell that arrives after it: placed at the end of
    its table's play before the bell, the bell then applied to the table again; every
    other table's entries score as they did."""
    table_no = ev.get("table")
    named = f"round {self.round_no}" + (f" of set {self.set_no}" if self.sets > 1 else "")
    if self.phase != "playing":
        raise RoundOver(
            "the round this entry was tapped in is over: the room has moved on",
            expected="the host's correction of that round",
        )
    if table_no is None or not 1 <= table_no <= len(self.tables):
        raise WrongTable(
            f"there is no table {table_no} in {named}",
            expected=f"a table number from 1 to {len(self.tables)}",
        )
    self._refuse_after_paper(table_no)
    if self.bell_at is None:
        raise NotAllowedNow(
            f"the bell has not rung in {named}, so nothing comes before it yet",
            expected="the entry without before_bell",
        )
    later = self.entries_after_bell(table_no)
    if later:
        raise NotAllowedNow(
            f"table {table_no} has {later} entr{'y' if later == 1 else 'ies'} since the "
            "bell, so an entry from before it can no longer be placed",
            expected=f"the host's correction of table {table_no}'s round",
        )
    plain = ev.copy()
    plain.pop("before_bell", None)
    base = self._base_for(self.bell_at)
    rest = self.effective.slice(len(base.effective))
    rest.insert(self.bell_at - len(base.effective), normalize_event(plain))  # type: ignore[arg-type]

    def refused(event: StandingEvent, exc: BuncoError) -> BuncoError:
        """Why the placed entry is refused, ``event`` of what followed no longer applying."""
        if event.get("table") == table_no and event["type"] in ("roll", "tally"):
            return type(exc)(f"{exc.message} (before the bell)", expected=exc.expected)
        return NotAllowedNow(
            f"an entry from before the bell at table {table_no} cannot be placed: "
            f"what followed no longer applies ({exc.message})",
            expected=f"the host's correction of table {table_no}'s round",
        )

    after = self._refold(
        base, rest, ev, from_start=base is self.round_start, refused=refused, hold=True
    )
    refuse_late_rescoring(self, after, table_no)
    refuse_changed_corrections(self, after, len(base.corrections), table_no)
    after = evolve(after, holding=False)
    if all(t.status is Status.DONE for t in after.tables) and not after.awaited:
        return after._end_round()  # the round ends with this entry
    return after


def check_table_now(self: Night, table_no: int) -> None:
    """Refuse a table number past this round's tables."""
    if table_no > len(self.tables):
        raise WrongTable(
            f"there is no table {table_no} this round",
            expected=f"a table number from 1 to {len(self.tables)}",
        )


def wait_for_phone(self: Night, ev: WaitForPhoneEvent) -> Night:
    """The round does not end without this table's phone (it holds entries of it)."""
    table_no = ev["of_table"]
    if self.phase != "playing" or not self.started:
        raise NotAllowedNow(
            "no round is under way, so the room has nothing to wait for",
            expected="wait_for_phone during a round",
        )
    self._check_table_now(table_no)
    if table_no in self.awaited or table_no in self.decided:
        doing = "already waits for" if table_no in self.awaited else "went on without"
        raise NotAllowedNow(
            f"the room {doing} table {table_no}'s phone this round",
            expected="go_on once its entries are in, or the host's decision",
        )
    return evolve(self, awaited={**self.awaited, table_no: ev.get("entries")})


def go_on(self: Night, ev: GoOnEvent) -> Night:
    """The room stops waiting for a table's phone; with ``points``, the host entered
    the table's score from its paper tally (:func:`~bunco.core.late_entries.paper_table`:
    it replaces the table's entries of the round); with ``winner`` alone, who won there
    (its tie-break, if any, dropped). The round ends once every table has settled and
    no phone is waited for."""
    table_no, winner = ev["of_table"], ev.get("winner")
    if self.phase != "playing":
        raise NotAllowedNow(
            "no round is under way: the room has moved on",
            expected="go_on during the round it waits in",
        )
    self._check_table_now(table_no)
    if "points" in ev:
        return self._paper(ev)
    tables = self.tables
    if winner is None and table_no not in self.awaited:
        raise NotAllowedNow(
            f"the room is not waiting for table {table_no}'s phone",
            expected="go_on for a table the room waits for, or with who won there",
        )
    if winner is not None:
        table = tables[table_no - 1]
        if not self.bell and table_no not in self.awaited:
            raise NotAllowedNow(
                f"table {table_no} plays on before the bell: its entries decide who wins there",
                expected="who won there once the bell has rung",
            )
        if winner not in table.seats:
            raise InvalidSetup(
                f"{winner} does not sit at table {table_no} this round",
                expected="one of " + ", ".join(p for p in table.seats if p),
            )
        side = table.side_of(table.seats.index(winner))
        settled = evolve(
            table, status=Status.DONE, winning_side=side, in_turn=False, tie_break=None
        )
        tables = (*tables[: table_no - 1], settled, *tables[table_no:])
    return self._released(ev, tables)


def paper(self: Night, ev: GoOnEvent) -> Night:
    """The host enters table ``of_table``'s score from its paper tally, while the room
    waits for its phone (or, after the bell, while the table has not settled)."""
    table_no = ev["of_table"]
    table = self.tables[table_no - 1]
    if self.from_paper(self.set_no, self.round_no, table_no):
        raise NotAllowedNow(
            f"the host already entered table {table_no}'s score from the paper",
            expected="a correction of that table's round, if the paper was misread",
        )
    stuck = self.bell and table.status is not Status.DONE
    if table_no not in self.awaited and not stuck:
        raise NotAllowedNow(
            f"the room is not waiting for table {table_no}'s phone"
            + ("" if self.bell else ", and the bell has not rung: it plays on"),
            expected="the table's score from the paper while the room waits for its "
            "phone (or, after the bell, while the table has not settled)",
        )
    settled = paper_table(table, ev, self.rules)
    tables = (*self.tables[: table_no - 1], settled, *self.tables[table_no:])
    paper = self.paper | {(self.set_no, self.round_no, table_no)}
    night = evolve(self, tables=tables, paper=paper)
    night = evolve(night, last_bunco=night._last_bunco_now())
    return night._released(ev, tables)


def released(self: Night, ev: GoOnEvent, tables: tuple[TableRound, ...]) -> Night:
    """The night once table ``of_table`` is released (its result as ``tables`` have
    it): the round ends if every table has settled and no phone is waited for."""
    table_no = ev["of_table"]
    awaited = {t: n for t, n in self.awaited.items() if t != table_no}
    decided = self.decided | {table_no} if ev.get("why") != "sent" else self.decided
    night = evolve(self, tables=tables, awaited=awaited, decided=decided)
    if all(t.status is Status.DONE for t in tables) and not awaited and not self.holding:
        if night.bell_roll is None:
            ending = RoundEnding(self.set_no, self.round_no, None, None, "last_table")
            night = evolve(night, bell_roll=ending)
        night = night._end_round()
    return night
