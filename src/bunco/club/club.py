"""A club: its roster, seasons, nights, hosts and dues payments, as a fold over its log.

A club's log is JSON Lines like a party log: the first line sets the club up, every later
line is one event. The nights themselves are not in it: a ``night`` event names a night
whose own party log stays its truth (the event store keeps both).

```json
{"type": "club", "name": "Tuesday Club", "rules": "classic", "currency": "$", "dues": "5", "payouts": [{"prize": "most_buncos", "share": "50%"}]}
{"type": "member", "name": "Ann", "role": "regular"}
{"type": "season", "name": "2026"}
{"type": "host", "month": "2026-01", "host": "Ann"}
{"type": "night", "night": "abc123", "date": "2026-01-13"}
{"type": "payment", "player": "Ann", "amount": "5"}
```

>>> club = Club.start({"type": "club", "name": "Tuesday Club", "dues": "5"})
>>> club = club.apply_all([{"type": "member", "name": "Ann"},
...                        {"type": "member", "name": "Zoe", "role": "substitute"}])
>>> club.regulars, club.substitutes
(('Ann',), ('Zoe',))
>>> roster_for_night(club, {"Ann": "Zoe"})
['Zoe']
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from bunco.club.nights import night_setup
from bunco.core.errors import InvalidEvent, InvalidSetup, shown
from bunco.core.evolve import evolve
from bunco.core.money import money_text, parse_amount
from bunco.core.names import clean_text, name_key, person_name, same_name
from bunco.core.presets import preset_name
from bunco.core.setup import MAX_NAME

CLUB_EVENT_TYPES: dict[str, str] = {
    "member": "a member joins, or changes role: name, role (regular, substitute)",
    "leave_club": "a member leaves the club: name",
    "season": "a new season begins; later nights belong to it: name",
    "host": "who hosts which month: month (YYYY-MM), host",
    "night": "a night of the club: night (its id in the store), date?",
    "payment": "a member pays dues: player, amount, note?",
}
ROLES = ("regular", "substitute")
MONTH = re.compile(r"^\d{4}-(0[1-9]|1[0-2])$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
SETUP_KEYS = ("type", "name", "rules", "house_rules", "currency", "dues", "payouts",
              "prizes", "prize_ties", "one_prize_per_person", "must_be_present", "judged")


@dataclass(frozen=True, slots=True)
class ClubNight:
    night: str  # the night's id in the store
    season: str
    date: str | None


@dataclass(frozen=True, slots=True)
class Club:
    """A club now: set-up, members, seasons with their nights, hosts, payments."""

    setup: dict[str, Any]
    members: dict[str, str] = field(default_factory=dict)  # name -> role, in joining order
    seasons: tuple[str, ...] = ()
    nights: tuple[ClubNight, ...] = ()
    hosts: dict[str, str] = field(default_factory=dict)  # month -> host
    payments: tuple[tuple[str, str, Decimal, str | None], ...] = ()  # (season, player, amount, note)

    @classmethod
    def start(cls, setup: Mapping[str, Any]) -> Club:
        return cls(normalize_club(setup))

    @property
    def name(self) -> str:
        return str(self.setup["name"])

    @property
    def currency(self) -> str:
        return str(self.setup["currency"])

    @property
    def dues(self) -> Decimal:
        return Decimal(self.setup["dues"])

    @property
    def regulars(self) -> tuple[str, ...]:
        return tuple(n for n, r in self.members.items() if r == "regular")

    @property
    def substitutes(self) -> tuple[str, ...]:
        return tuple(n for n, r in self.members.items() if r == "substitute")

    @property
    def season(self) -> str:
        """The current season (the first is named "Season 1" until one is begun)."""
        return self.seasons[-1] if self.seasons else "Season 1"

    def season_nights(self, season: str | None = None) -> tuple[ClubNight, ...]:
        wanted = season or self.season
        return tuple(n for n in self.nights if n.season == wanted)

    def apply(self, event: Mapping[str, Any]) -> Club:
        """The club after ``event``; raises a :class:`BuncoError` and changes nothing."""
        ev = normalize_club_event(event)
        kind = ev["type"]
        if kind == "member":
            same = same_name(ev["name"], {name_key(m): m for m in self.members})
            if same is not None:
                raise InvalidSetup(f"{ev['name']!r} and the member {same!r} are the same name",
                                   expected="a name that tells every member apart (case, "
                                   "spacing and look-alike letters are ignored)")
            return evolve(self, members={**self.members, ev["name"]: ev["role"]})
        if kind == "leave_club":
            if ev["name"] not in self.members:
                raise InvalidSetup(f"{ev['name']!r} is not a member",
                                   expected="one of " + ", ".join(self.members))
            return evolve(self, members={k: v for k, v in self.members.items() if k != ev["name"]})
        if kind == "season":
            if ev["name"] in self.seasons:
                raise InvalidSetup(f"season {ev['name']!r} already exists",
                                   expected="a new season's name")
            return evolve(self, seasons=(*self.seasons, ev["name"]))
        if kind == "host":
            if ev["host"] not in self.members:
                raise InvalidSetup(f"{ev['host']!r} is not a member",
                                   expected="one of " + ", ".join(self.members))
            return evolve(self, hosts={**self.hosts, ev["month"]: ev["host"]})
        if kind == "night":
            if any(n.night == ev["night"] for n in self.nights):
                raise InvalidSetup(f"night {ev['night']!r} is already a night of the club",
                                   expected="a night not yet added")
            return evolve(self, nights=(*self.nights, ClubNight(ev["night"], self.season,
                                                                ev.get("date"))))
        if ev["player"] not in self.members:
            raise InvalidSetup(f"{ev['player']!r} is not a member",
                               expected="one of " + ", ".join(self.members))
        payment = (self.season, ev["player"], Decimal(ev["amount"]), ev.get("note"))
        return evolve(self, payments=(*self.payments, payment))

    def apply_all(self, events: Sequence[Mapping[str, Any]]) -> Club:
        club = self
        for ev in events:
            club = club.apply(ev)
        return club


def _text(value: Any, what: str, expected: str, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > limit:
        raise InvalidEvent(f"{what} {shown(value)} is not a name", expected=expected)
    if limit == MAX_NAME:  # a person's name: the engine's one rule for names
        return person_name(value, what, InvalidEvent)
    return " ".join(clean_text(value, what, InvalidEvent).split())


def normalize_club(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The canonical first line of a club's log; raises :class:`InvalidSetup`."""
    if not isinstance(setup, Mapping) or setup.get("type", "club") != "club":
        raise InvalidSetup("the first line of a club's log sets the club up",
                           expected='{"type": "club", "name": "...", "dues": "5"}')
    unknown = [k for k in setup if k not in SETUP_KEYS]
    if unknown:
        raise InvalidSetup(f"a club has no field {unknown[0]!r}", expected=", ".join(SETUP_KEYS))
    try:
        name = _text(setup.get("name"), "club name", "a name of 1 to 200 characters", 200)
    except InvalidEvent as exc:
        raise InvalidSetup(exc.message, expected=exc.expected) from None
    out: dict[str, Any] = {"type": "club", "name": name,
                           "rules": preset_name(str(setup.get("rules", "classic")))}
    currency = setup.get("currency", "$")
    if not isinstance(currency, str) or not 0 < len(currency.strip()) <= 8:
        raise InvalidSetup(f"currency {shown(currency)} is not a currency sign",
                           expected='1 to 8 characters, e.g. "$"')
    out["currency"] = clean_text(currency.strip(), "currency")
    out["dues"] = money_text(parse_amount(setup.get("dues", "0"), "dues"))
    for key in ("house_rules", "prizes", "prize_ties", "one_prize_per_person",
                "must_be_present", "judged", "payouts"):
        if setup.get(key) is not None:
            out[key] = setup[key]
    # the night options are checked as a night of the club would use them
    night_setup(out, ["A", "B", "C", "D"], carried_over=Decimal(0))
    return out


def normalize_club_event(event: Any) -> dict[str, Any]:
    """The canonical form of a club event; raises :class:`InvalidEvent`."""
    if not isinstance(event, Mapping) or event.get("type") not in CLUB_EVENT_TYPES:
        kind = event.get("type") if isinstance(event, Mapping) else type(event).__name__
        raise InvalidEvent(f"unknown club event {kind!r}",
                           expected="one of " + ", ".join(CLUB_EVENT_TYPES))
    kind = event["type"]
    out: dict[str, Any] = {"type": kind}
    if kind in ("member", "leave_club"):
        out["name"] = _text(event.get("name"), "member", "a member's name")
        if kind == "member":
            role = event.get("role", "regular")
            if role not in ROLES:
                raise InvalidEvent(f"role {role!r}", expected="regular or substitute")
            out["role"] = role
    elif kind == "season":
        out["name"] = _text(event.get("name"), "season", "a season's name such as 2026")
    elif kind == "host":
        month = event.get("month")
        if not isinstance(month, str) or not MONTH.match(month):
            raise InvalidEvent(f"month {month!r}", expected="a month as YYYY-MM, e.g. 2026-01")
        out["month"] = month
        out["host"] = _text(event.get("host"), "host", "a member's name")
    elif kind == "night":
        night = event.get("night")
        if not isinstance(night, str) or not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", night):
            raise InvalidEvent(f"night {night!r} is not a night's id",
                               expected="the id of a night in the store")
        out["night"] = night
        if event.get("date") is not None:
            date = event["date"]
            if not isinstance(date, str) or not DATE.match(date):
                raise InvalidEvent(f"date {date!r}", expected="a date as YYYY-MM-DD")
            out["date"] = date
    else:
        out["player"] = _text(event.get("player"), "player", "a member's name")
        try:
            amount = parse_amount(event.get("amount"), "amount")
        except InvalidSetup as exc:
            raise InvalidEvent(exc.message, expected=exc.expected) from None
        if amount == 0:
            raise InvalidEvent("a payment of 0", expected="an amount above 0")
        out["amount"] = money_text(amount)
        if event.get("note") is not None:
            out["note"] = _text(event["note"], "note", "a short note", 200)
    for key in ("id", "at"):
        if key in event:
            out[key] = event[key]
    return out


def roster_for_night(club: Club, swaps: Mapping[str, str]) -> list[str]:
    """The regulars, each one in ``swaps`` replaced by the substitute the host chose."""
    regulars = list(club.regulars)
    subs = list(swaps.values())
    for out, sub in swaps.items():
        if out not in regulars:
            raise InvalidSetup(f"{out!r} is not a regular of {club.name}",
                               expected="one of " + ", ".join(regulars))
        if sub in regulars or subs.count(sub) > 1:
            raise InvalidSetup(f"{sub!r} already plays tonight",
                               expected="a substitute who is not playing: "
                               + ", ".join(club.substitutes))
    if len(regulars) < 2:
        raise InvalidSetup(f"{club.name} has {len(regulars)} regulars",
                           expected="at least two regulars (add members first)")
    return [swaps.get(p, p) for p in regulars]
