"""The sample night of ``bunco demo``: a whole party log to read, print and export.

Eight players at two tables play one ``classic`` set of six rounds with prize money (a
$5 buy-in shared among the prizes); every die is drawn from a fixed seed, so the night is
the same on every computer and in every version that plays the rules the same way. It is
played by the bots of ``bunco play --auto`` and written through the same party log, so
it is a real night, not a stored file: ``bunco replay``, ``sheets --from``, ``report``
and ``export --payouts`` all read it.

>>> night = play_demo(lambda event: None)
>>> night.phase, len(night.history), len(night.roster)
('over', 6, 8)
"""

from __future__ import annotations

from pathlib import Path

from bunco.core.money_shapes import MoneyLine
from bunco.core.night import Night
from bunco.core.party_setup import PartyLine
from bunco.play.driver import Driver, EventSink, play_auto
from bunco.play.logfile import PartyLog
from bunco.play.newnight import build_party
from bunco.play.roster import Roster

#: The sample night's players, in seating order.
DEMO_PLAYERS = ("Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal")

#: The seed every die of the sample night is drawn from.
DEMO_SEED = 2026

#: Its prize money: everyone pays $5, and the pot goes to the prizes.
DEMO_MONEY: MoneyLine = {
    "currency": "$",
    "buy_in": "5",
    "payouts": [
        {"prize": "most_buncos", "share": "40%"},
        {"prize": "most_wins", "share": "30%"},
        {"prize": "last_bunco", "share": "20%"},
        {"prize": "most_losses", "share": "10%"},
    ],
}


def demo_party() -> PartyLine:
    """The party line of the sample night."""
    roster = Roster(DEMO_PLAYERS, DEMO_PLAYERS)
    line: PartyLine = {"type": "party", "name": "Sample night"}
    line.update(build_party("classic", roster, sets=1, seed=DEMO_SEED))  # "type" stays first
    line["money"] = DEMO_MONEY
    return line


def play_demo(sink: EventSink) -> Night:
    """Play the sample night, giving ``sink`` every event (after the party line,
    :func:`demo_party`)."""
    return play_auto(Driver.new(demo_party(), sink))


def write_demo(path: Path) -> Night:
    """Write the sample night's party log to ``path`` (replacing it); raises
    :class:`~bunco.play.logfile.LogFileError` when it cannot be written."""
    party = demo_party()
    log = PartyLog.create(path, party, overwrite=True)
    log.sync = False  # written in one go: flushed, not forced to the disk line by line
    try:
        return play_auto(Driver.new(party, log.append))
    finally:
        log.close()
