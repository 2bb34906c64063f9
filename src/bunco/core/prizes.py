"""Prize categories at the end of a night (RULES.md §4 and §7).

A prize is decided from the score cards; a tie is either shared or left for a roll-off,
as the host chose (``rules.prize_ties``). With ``rules.verify_for_prizes`` only what a
checker verified counts. With ``rules.prize_groups`` the player prizes are given per
group and the group with the most Buncos wins the overall prize.

>>> from bunco.core.cards import Card
>>> cards = {"Ann": Card(buncos=2, wins=3, losses=3), "Bea": Card(buncos=2, wins=4, losses=2)}
>>> [p.candidates for p in decide_prizes(("most_buncos", "half_and_half"), cards)]
[('Ann', 'Bea'), ('Ann',)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Literal, TypeAlias

from typing_extensions import TypedDict

from bunco.core.cards import Card

PrizeSettledBy: TypeAlias = Literal["outright", "shared", "roll_off", "pending_roll_off", "nobody"]
"""How a prize was given: to the one best, shared by the tied, by a roll-off (or one due), to nobody."""

_COUNTS = {
    "most_buncos": ("buncos", "Most Buncos"),
    "most_wins": ("wins", "Most Wins"),
    "most_losses": ("losses", "Most Losses"),
    "most_mini_buncos": ("minis", "Most Mini Buncos"),
}
LABELS = {
    **{k: label for k, (_, label) in _COUNTS.items()},
    "half_and_half": "Half Wins and Half Losses",
    "last_bunco": "Last Bunco",
    "traveling": "Traveling",
    "group_most_buncos": "Group with the most Buncos",
}


def count_of(category: str, card: Card) -> int | None:
    """The figure a "most" prize counts on ``card``; None for the other categories.

    >>> count_of("most_wins", Card(wins=3)), count_of("last_bunco", Card())
    (3, None)
    """
    entry = _COUNTS.get(category)
    return None if entry is None else int(attrgetter(entry[0])(card))


class PrizeView(TypedDict):
    """One prize as the report and the pages read it (:meth:`PrizeResult.as_dict`)."""

    category: str
    label: str
    group: str | None
    value: int | None
    candidates: list[str]
    winners: list[str]
    settled_by: PrizeSettledBy


@dataclass(frozen=True, slots=True)
class PrizeResult:
    """One prize: who qualifies (``candidates``), the figure, and who won it."""

    category: str
    label: str
    group: str | None
    value: int | None
    candidates: tuple[str, ...]
    winners: tuple[str, ...]  # empty while a roll-off is pending or nobody qualifies
    settled_by: PrizeSettledBy

    def as_dict(self) -> PrizeView:
        return {
            "category": self.category,
            "label": self.label,
            "group": self.group,
            "value": self.value,
            "candidates": list(self.candidates),
            "winners": list(self.winners),
            "settled_by": self.settled_by,
        }


def decide_prizes(
    categories: Sequence[str],
    cards: Mapping[str, Card],
    *,
    shared: bool = False,
    last_bunco: str | None = None,
    traveler: str | None = None,
    groups: Mapping[str, Sequence[str]] | None = None,
    mini_label: str = "Mini Bunco",
) -> list[PrizeResult]:
    """Every prize in ``categories``, in order, per group when ``groups`` is given."""
    results: list[PrizeResult] = []
    scopes: list[tuple[str | None, list[str]]] = (
        [(name, [p for p in members if p in cards]) for name, members in groups.items()]
        if groups
        else [(None, list(cards))]
    )
    for category in categories:
        if category == "traveling":
            results.append(_single(category, None, traveler))
            continue
        if category == "last_bunco":
            results.append(_single(category, None, last_bunco))
            continue
        for group, players in scopes:
            results.append(_decide(category, group, players, cards, shared, mini_label))
    if groups:
        totals = {
            name: sum(cards[p].buncos for p in members if p in cards)
            for name, members in groups.items()
        }
        best = max(totals.values(), default=0)
        top = tuple(g for g, v in totals.items() if v == best) if best > 0 else ()
        results.append(
            PrizeResult(
                "group_most_buncos",
                LABELS["group_most_buncos"],
                None,
                best,
                top,
                top,
                "nobody" if not top else ("outright" if len(top) == 1 else "shared"),
            )
        )
    return results


def _label(category: str, mini_label: str) -> str:
    if category == "most_mini_buncos":
        return f"Most {mini_label}s"
    return LABELS[category]


def prize_labels(mini_label: str) -> dict[str, str]:
    """Every prize category's name under rules whose three of a kind is ``mini_label``.

    >>> prize_labels("Baby Bunco")["most_mini_buncos"]
    'Most Baby Buncos'
    """
    return {category: _label(category, mini_label) for category in LABELS}


def _single(category: str, group: str | None, holder: str | None) -> PrizeResult:
    names = (holder,) if holder else ()
    return PrizeResult(
        category, LABELS[category], group, None, names, names, "outright" if holder else "nobody"
    )


def _decide(
    category: str,
    group: str | None,
    players: list[str],
    cards: Mapping[str, Card],
    shared: bool,
    mini_label: str,
) -> PrizeResult:
    label = _label(category, mini_label)
    if category == "half_and_half":
        even = tuple(p for p in players if cards[p].wins == cards[p].losses and cards[p].wins > 0)
        return _settle(category, label, group, None, even, shared)
    field_name, _ = _COUNTS[category]
    count = attrgetter(field_name)
    values = {p: count(cards[p]) for p in players}
    best = max(values.values(), default=0)
    if best <= 0:
        return PrizeResult(category, label, group, 0, (), (), "nobody")
    top = tuple(p for p in players if values[p] == best)
    return _settle(category, label, group, best, top, shared)


def _settle(
    category: str,
    label: str,
    group: str | None,
    value: int | None,
    top: tuple[str, ...],
    shared: bool,
) -> PrizeResult:
    if not top:
        return PrizeResult(category, label, group, value, (), (), "nobody")
    if len(top) == 1:
        return PrizeResult(category, label, group, value, top, top, "outright")
    if shared:
        return PrizeResult(category, label, group, value, top, top, "shared")
    return PrizeResult(category, label, group, value, top, (), "pending_roll_off")


def rolloffs_again(
    old: Sequence[PrizeResult], new: Sequence[PrizeResult], under_way: int | None
) -> tuple[list[PrizeResult], int | None, list[str]]:
    """The prizes ``new`` (decided again after a correction) with the roll-offs of ``old``
    kept where they still apply: a prize tied again among the very players who rolled off
    for it keeps that roll-off's winner; the roll-off under way (``old[under_way]``) goes
    on if its prize is still tied among the same players. Returns the prizes, the index of
    the roll-off to go on with (``None``: none; the night then begins the next one due),
    and what became of each roll-off, in words (for the audit list).

    >>> tied = PrizeResult("most_buncos", "Most Buncos", None, 2, ("Ann", "Bea"), (), "pending_roll_off")
    >>> won = PrizeResult("most_buncos", "Most Buncos", None, 2, ("Ann", "Bea"), ("Bea",), "roll_off")
    >>> alone = PrizeResult("most_buncos", "Most Buncos", None, 3, ("Ann",), ("Ann",), "outright")
    >>> rolloffs_again([won], [tied], None)[0][0].winners
    ('Bea',)
    >>> rolloffs_again([tied], [alone], 0)[1:]
    (None, ['Most Buncos: the roll-off among Ann, Bea is cancelled (Ann wins it)'])
    """

    def key(p: PrizeResult) -> tuple[str, str | None]:
        return (p.category, p.group)

    def named(p: PrizeResult) -> str:
        return p.label + (f" ({p.group})" if p.group else "")

    settled = {key(p): p for p in old if p.settled_by == "roll_off"}
    if under_way is not None:
        settled[key(old[under_way])] = old[under_way]
    before = {key(p): p for p in settled.values()}
    out: list[PrizeResult] = []
    words: list[str] = []
    resume: int | None = None
    for index, prize in enumerate(new):
        was = before.get(key(prize))
        same = was is not None and was.candidates == prize.candidates
        if was is not None and prize.settled_by == "pending_roll_off" and same:
            if was.settled_by == "roll_off":
                prize = replace(prize, winners=was.winners, settled_by="roll_off")
                words.append(f"{named(prize)}: the roll-off's winner stands")
            else:
                resume = index
                words.append(f"{named(prize)}: the roll-off goes on")
        elif was is not None:
            among = ", ".join(was.candidates)
            if prize.settled_by == "pending_roll_off":
                now = f"is rolled off again among {', '.join(prize.candidates)}"
            else:
                now = f"is cancelled ({' & '.join(prize.winners) or 'nobody'} wins it)"
            words.append(f"{named(prize)}: the roll-off among {among} {now}")
        out.append(prize)
    return out, resume, words
