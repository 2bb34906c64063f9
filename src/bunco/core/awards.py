"""Who takes each prize home: the night's prizes and its judged prizes, passed on.

The prizes of :mod:`bunco.core.prizes` say who came first on the cards. An award is what
the host hands out: with ``"must_be_present": true`` on the party line a player marked
absent is passed over, and with ``"one_prize_per_person": true`` so is a player who
already won a prize earlier in the list. A passed-over prize goes to the **next in line**:

- a "most" prize (Buncos, Wins, Losses, Minis): whoever lost its roll-off, then the next
  highest figure on the cards, and so on (players level there share it);
- the group prize (most Buncos of a group): the group with the next most Buncos;
- a judged prize: the next name in the ranking the host gave (``judge``'s ``ranking``);
- Half and half, Last Bunco and Traveling have no line: passed over, nobody gets them.

The order is the night's prizes (as in the report), then the judged prizes; on a night
with money, one prize per person goes by value instead (the most valuable first, see
:func:`decide_awards`) unless the money says ``"one_prize_order": "listed"``. Group prizes
go to whole groups and count for nobody's "one prize". With groups, a group prize is
passed over only when none of its members is present.

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea"], "judged": ["Best Costume"]})
>>> decide_awards(night)  # nothing is handed out before the prizes are decided
[]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TypeAlias

from typing_extensions import TypedDict

from bunco.core.cards import Card
from bunco.core.hosting import GROUP_PREFIX, HostedNight, judged_prizes, presence_required
from bunco.core.money_shapes import PassedOver
from bunco.core.prizes import PrizeResult, count_of

GROUP_PRIZES = ("group_most_buncos",)

PrizeValue: TypeAlias = Callable[[str, "str | None"], Decimal]
"""What a prize pays, from its key and its group (0 for a prize without money)."""


class AwardView(TypedDict):
    """One award as the report and the pages read it (:meth:`Award.as_dict`)."""

    prize: str
    label: str
    group: str | None
    team: bool
    winners: list[str]
    status: str
    passed_over: list[PassedOver]
    by_cards: bool
    tied_with: list[str]


@dataclass(frozen=True, slots=True)
class Award:
    """One prize as handed out: its winners after passing over, and whom it passed."""

    prize: str
    label: str
    group: str | None
    team: bool  # won by whole groups (``winners`` are group names)
    winners: tuple[str, ...]
    status: str  # "won", "pending" (a roll-off, or the host has not judged yet), "nobody"
    passed_over: tuple[tuple[str, str], ...] = ()  # (name, why)
    judged: bool = False  # named by the host, not decided by the cards
    tied_with: tuple[str, ...] = ()  # passed over though level with the winners on the cards

    def as_dict(self) -> AwardView:
        return {
            "prize": self.prize,
            "label": self.label,
            "group": self.group,
            "team": self.team,
            "winners": list(self.winners),
            "status": self.status,
            "passed_over": [{"name": n, "reason": r} for n, r in self.passed_over],
            "by_cards": not self.judged,
            "tied_with": list(self.tied_with),
        }


@dataclass(frozen=True, slots=True)
class _Line:
    prize: str
    label: str
    group: str | None
    team: bool
    tiers: tuple[tuple[str, ...], ...]  # first in line first; players in a tier share
    status: str  # "open", "pending", "nobody"
    judged: bool = False  # named by the host, not decided by the cards
    tied: tuple[str, ...] = ()  # level first on the cards (shared, or rolled off)


def prizes_decided(night: HostedNight) -> bool:
    """True once the night's prizes are decided (the night is over, or only prize roll-offs
    remain), never while they wait for cards to be verified."""
    return night.prize_cards is not None and (
        night.phase == "over"
        or (
            night.phase == "rolloff"
            and night.rolloff_for is not None
            and night.rolloff_for[0] == "prize"
        )
    )


def decide_awards(night: HostedNight, value: PrizeValue | None = None) -> list[Award]:
    """Every award of the night, in order; empty until the prizes are decided.

    ``value(prize, group)`` is what a prize pays (a night with money): with one prize per
    person, the prizes are then handed out **most valuable first** (what each winner would
    receive, a shared prize split), so nobody keeps a small share and leaves a bigger prize
    in the pot; level values, and every prize without ``value``, go in the order listed.
    """
    if not prizes_decided(night):
        return []
    cards = night.prize_cards if night.prize_cards is not None else night.cards
    lines = [_prize_line(p, cards, night) for p in night.prizes] + _judged_lines(night)
    must_be_present = presence_required(night)
    one_each = bool(night.setup.get("one_prize_per_person"))
    absent = night.host.absent
    won: dict[str, str] = {}  # player -> the label of the prize they won first
    decided: dict[int, Award] = {}
    left = list(range(len(lines)))
    while left:
        index, award = left[0], None
        if one_each and value is not None:
            index, award = _most_valuable(
                lines, left, night.groups, absent, won, must_be_present, value
            )
        if award is None:
            award = _hand_out(lines[index], night.groups, absent, won, must_be_present, one_each)
        if not award.team and award.status == "won":
            for name in award.winners:
                won.setdefault(name, award.label)
        decided[index] = award
        left.remove(index)
    return [decided[i] for i in range(len(lines))]


def _most_valuable(
    lines: Sequence[_Line],
    left: Sequence[int],
    groups: Mapping[str, Sequence[str]],
    absent: frozenset[str],
    won: Mapping[str, str],
    must_be_present: bool,
    value: PrizeValue,
) -> tuple[int, Award]:
    """The line to hand out next: the one whose winners would each receive the most.

    A winner who would receive more from another prize still open is left out of a shared
    one (the most-favoured first, the share growing as they go), and takes that prize
    instead: so Fay, sharing Most Minis three ways ($16.67) with two players who each have
    a bigger prize, takes it whole ($50) rather than Most Wins ($40).
    """
    tentative = {i: _hand_out(lines[i], groups, absent, won, must_be_present, True) for i in left}
    offers: dict[str, list[tuple[Decimal, int]]] = {}  # player -> (what each gets, line)
    for i, award in tentative.items():
        if award.status == "won" and not award.team:
            each = value(award.prize, award.group) / len(award.winners)
            for name in award.winners:
                offers.setdefault(name, []).append((each, i))
    best: tuple[Decimal, int, Award] | None = None
    for index in left:
        award = tentative[index]
        each = Decimal(-1)
        if award.status == "won" and not award.team:
            amount = value(award.prize, award.group)
            members = list(award.winners)
            elsewhere = {
                m: max(((v, j) for v, j in offers[m] if j != index), default=(Decimal(-1), -1))
                for m in members
            }
            skip: dict[str, str] = {}
            for name in sorted(members, key=lambda m: elsewhere[m][0], reverse=True):
                if len(members) == 1 or elsewhere[name][0] <= amount / len(members):
                    break
                members.remove(name)
                other = lines[elsewhere[name][1]]
                skip[name] = f"takes {_name(other)} instead"
            if skip:
                award = _hand_out(
                    lines[index], groups, absent, {**won, **skip}, must_be_present, True, skip
                )
            each = amount / len(award.winners)
        if best is None or each > best[0]:
            best = (each, index, award)
    assert best is not None
    return best[1], best[2]


def _name(line: _Line) -> str:
    return line.label + (f" ({line.group})" if line.group else "")


def _hand_out(
    line: _Line,
    groups: Mapping[str, Sequence[str]],
    absent: frozenset[str],
    won: Mapping[str, str],
    must_be_present: bool,
    one_each: bool,
    instead: Mapping[str, str] | None = None,
) -> Award:
    """The line handed out: ``instead`` names who takes another prize, and why."""

    def why_not(name: str) -> str | None:
        if line.team:
            if must_be_present and all(m in absent for m in groups.get(name, ())):
                return "nobody of the group is present"
            return None
        if must_be_present and name in absent:
            return "absent"
        if instead and name in instead:
            return instead[name]
        if one_each and name in won:
            return f"already won {won[name]}"
        return None

    base = Award(line.prize, line.label, line.group, line.team, (), line.status, judged=line.judged)
    if line.status != "open":
        return base
    passed: list[tuple[str, str]] = []
    for tier in line.tiers:
        winners = []
        for name in tier:
            reason = why_not(name)
            if reason is None:
                winners.append(name)
            else:
                passed.append((name, reason))
        if winners:
            return Award(
                line.prize,
                line.label,
                line.group,
                line.team,
                tuple(winners),
                "won",
                tuple(passed),
                line.judged,
                tuple(n for n, _ in passed if n in line.tied)
                if all(w in line.tied for w in winners)
                else (),
            )
    return Award(
        line.prize, line.label, line.group, line.team, (), "nobody", tuple(passed), line.judged
    )


def _prize_line(prize: PrizeResult, cards: Mapping[str, Card], night: HostedNight) -> _Line:
    team = prize.category in GROUP_PRIZES
    if prize.settled_by == "pending_roll_off":
        return _Line(prize.category, prize.label, prize.group, team, (), "pending")
    if not prize.winners:
        return _Line(prize.category, prize.label, prize.group, team, (), "nobody")
    tiers: list[tuple[str, ...]] = [prize.winners]
    lost = tuple(c for c in prize.candidates if c not in prize.winners)
    if lost:
        tiers.append(lost)
    values: dict[str, int] = {}
    if team:
        values = {
            g: sum(cards[p].buncos for p in members if p in cards)
            for g, members in night.groups.items()
        }
    elif count_of(prize.category, Card()) is not None:
        scope = night.groups.get(prize.group, ()) if prize.group is not None else tuple(cards)
        values = {p: count_of(prize.category, cards[p]) or 0 for p in scope if p in cards}
    best = prize.value or 0
    for figure in sorted({v for v in values.values() if 0 < v < best}, reverse=True):
        tiers.append(tuple(name for name, v in values.items() if v == figure))
    tied = prize.candidates if len(prize.candidates) > 1 else ()
    return _Line(prize.category, prize.label, prize.group, team, tuple(tiers), "open", tied=tied)


def _judged_lines(night: HostedNight) -> list[_Line]:
    grouped = bool(night.groups) and night.rules.prize_groups
    lines = []
    for judged in judged_prizes(night.setup):
        scopes: list[tuple[str, str | None, bool, str]] = (
            [(judged.key, g, False, judged.label) for g in night.groups]
            + [(GROUP_PREFIX + judged.key, None, True, f"Group with the {judged.label}")]
            if grouped
            else [(judged.key, None, False, judged.label)]
        )
        for key, group, team, label in scopes:
            ranking = night.host.judged.get((key, group))
            if ranking is None:
                lines.append(_Line(key, label, group, team, (), "pending", judged=True))
            else:
                lines.append(
                    _Line(
                        key, label, group, team, tuple((n,) for n in ranking), "open", judged=True
                    )
                )
    return lines


def award_keys(
    night_prizes: Sequence[str], judged: Sequence[str], grouped: bool
) -> dict[str, bool]:
    """Every prize key a payout may name, each with whether it is given per group.

    >>> award_keys(["most_buncos"], ["best_costume"], True)
    {'most_buncos': True, 'group_most_buncos': False, 'best_costume': True, 'group_best_costume': False}
    """
    keys: dict[str, bool] = {}
    for key in night_prizes:
        keys[key] = grouped and key not in ("traveling", "last_bunco")
    if grouped:
        keys["group_most_buncos"] = False
    for key in judged:
        keys[key] = grouped
        if grouped:
            keys[GROUP_PREFIX + key] = False
    return keys
