"""The host's changes between rounds: a substitute, a player who joins or leaves, a seating
the host sets (and the partnerships it keeps on purpose), and ending the night early.

The functions here are methods of :class:`~bunco.core.night.Night` (its class body installs
each under its name with a leading underscore: :func:`between_rounds` is
``Night._between_rounds``), so they take the night as ``self`` and return a new one. Each
change is recorded in ``Night.changes``.

>>> from bunco.core.night import Night
>>> night = Night.start({"type": "party", "rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "substitute", "out": "Dee", "in": "Eve"})
>>> night.seating, night.changes[0]["type"]
((('Ann', 'Bea', 'Cat', 'Eve'),), 'substitute')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bunco.core.cards import Card
from bunco.core.errors import InvalidSetup, NotAllowedNow
from bunco.core.events import ChangeEvent
from bunco.core.evolve import evolve
from bunco.core.names import name_key, same_name
from bunco.core.seating import Tables, reseat, validate_seating
from bunco.core.seating_partners import NightChange, check_partner_rule

if TYPE_CHECKING:
    from bunco.core.night import Night


def end_early(self: Night) -> Night:
    """The host ends the night between rounds: the rounds played so far are the night.

    The set under way ends where it is (its winner decided as after round 6, roll-off
    and all); a night that was between sets simply ends. Prizes follow as usual.
    """
    if self.phase != "playing" or self.started:
        doing = (
            "a roll-off is under way"
            if self.phase == "rolloff"
            else ("the night is already over" if self.phase == "over" else "a round is under way")
        )
        raise NotAllowedNow(
            f"the night can only be ended between rounds, and {doing}",
            expected="end_night before the first roll of a round (finish or undo the round first)",
        )
    if not self.history:
        raise NotAllowedNow(
            "no round has been played yet, so there is nothing to end",
            expected="end_night after at least one finished round",
        )
    last = self.history[-1]
    change: NightChange = {"type": "end_night", "set": self.set_no, "round": self.round_no}
    night = evolve(
        self,
        changes=(*self.changes, change),
        set_no=last.set_no,
        round_no=last.round_no,
        sets=last.set_no,
        tables=(),
        bell=False,
        bell_roll=None,
    )._new_period()
    if last.set_no == self.set_no:
        return night._end_set(self.seating, last)
    return night._end_night()


def between_rounds(self: Night, ev: ChangeEvent) -> Night:
    """A substitute, a join, a leave or the host's seating, between rounds: the round
    begins again with the new seating (a new player gets a card), the change recorded."""
    if self.phase != "playing" or self.started:
        raise NotAllowedNow(
            f"a {ev['type']} can only happen between rounds",
            expected=(
                f"the {ev['type']} after this round ends, before the next round's first roll"
            ),
        )
    kind = ev["type"]
    roster = self.roster
    kept: list[tuple[str, str]] = []  # partnerships a host's seating keeps on purpose
    if ev["type"] == "substitute":
        out, new = ev["out"], ev["in"]
        if out not in self.seated:
            raise InvalidSetup(
                f"{out!r} is not seated", expected="a seated player: " + ", ".join(self.seated)
            )
        if new in self.seated:
            raise InvalidSetup(
                f"{new!r} is already seated", expected="someone not playing this round"
            )
        seating = tuple(tuple(new if s == out else s for s in t) for t in self.seating)
    elif ev["type"] == "join":
        seating = reseat(self.seating, self.rules, join=[ev["player"]])
    elif ev["type"] == "leave":
        seating = reseat(self.seating, self.rules, leave=[ev["player"]])
    else:
        seating = validate_seating(ev["tables"], self.seated, self.rules)
        kept = self._partners_kept(seating, ev.get("overrides", ()))
    added = [p for t in seating for p in t if p is not None and p not in roster]
    if added:
        known = {name_key(p): p for p in roster}
        for name in added:
            same = same_name(name, known)
            if same is not None:
                raise InvalidSetup(
                    f"{name!r} and the player {same!r} are the same name",
                    expected=f"{same!r} as the roster spells it, or a name that tells "
                    "them apart (case, spacing and look-alike letters are ignored)",
                )
    cards = {**self.cards, **{p: Card() for p in added}}
    change: NightChange = {}  # the event's fields, in its order
    if ev["type"] == "substitute":
        change["out"], change["in"] = ev["out"], ev["in"]
    elif ev["type"] == "join" or ev["type"] == "leave":
        change["player"] = ev["player"]
    else:
        change["tables"] = ev["tables"]
        if "overrides" in ev:
            change["overrides"] = ev["overrides"]
    if kept:
        change["partners_kept"] = [list(pair) for pair in kept]
    change.update({"type": kind, "set": self.set_no, "round": self.round_no})
    night = evolve(self, roster=roster + tuple(added), cards=cards, changes=(*self.changes, change))
    last = self.history[-1] if self.history else None
    night = night._begin_round(seating, last if self.round_no > 1 or self.set_no > 1 else None)
    # a table that confirmed a seating the host changed confirms again; one whose seats
    # stay as they were keeps its confirmation
    still = frozenset(
        t
        for t in self.seated_tables
        if t <= min(len(seating), len(self.seating)) and seating[t - 1] == self.seating[t - 1]
    )
    dropped = (self.seated_tables - still) | self.unseated
    return evolve(night, seated_tables=still, unseated=dropped)


def partners_kept(self: Night, seating: Tables, overrides: Sequence[str]) -> list[tuple[str, str]]:
    """The partnerships a host's seating keeps from the round just played, where the
    rules forbid it (003): refused unless the seat event overrides the rule."""
    if not self.history:
        return []
    last = self.history[-1]
    preset = self.setup["rules"] + (" with house rules" if self.setup.get("house_rules") else "")
    return check_partner_rule(
        [(t.seats, t.team) for t in last.tables],
        seating,
        self.rules,
        overrides,
        preset=preset,
        when=f"set {last.set_no}, round {last.round_no}",
    )
