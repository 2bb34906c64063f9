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
>>> club = club.apply_all([{"type": "member", "name": "Ann"}, {"type": "member", "name": "Bea"},
...                        {"type": "member", "name": "Zoe", "role": "substitute"}])
>>> club.regulars, club.substitutes
(('Ann', 'Bea'), ('Zoe',))
>>> roster_for_night(club, {"Ann": "Zoe"})
['Zoe', 'Bea']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from bunco.club.events import CLUB_EVENT_TYPES, Raw, normalize_club_event, text, zone
from bunco.club.month import apply_month
from bunco.club.nights import night_setup
from bunco.club.records import Answer, ClubNight, Plan
from bunco.core.club_events import (
    ClubEvent,
    ClubHostEvent,
    ClubLeaveClubEvent,
    ClubMemberEvent,
    ClubNightEvent,
    ClubPlanEvent,
    ClubSetup,
    LadderRules,
    MailSettings,
    Told,
)
from bunco.core.errors import InvalidEvent, InvalidSetup, shown
from bunco.core.evolve import evolve
from bunco.core.money import money_text, parse_amount
from bunco.core.names import clean_text, name_key, same_name
from bunco.core.presets import preset_name

__all__ = [
    "CLUB_EVENT_TYPES",
    "Answer",
    "Club",
    "ClubNight",
    "Plan",
    "normalize_club",
    "normalize_club_event",
    "roster_for_night",
]

SETUP_KEYS = (
    "type",
    "name",
    "rules",
    "house_rules",
    "currency",
    "dues",
    "payouts",
    "prizes",
    "prize_ties",
    "one_prize_per_person",
    "must_be_present",
    "judged",
    "sub_fee",
    "timezone",
)
DEFAULT_LADDER: LadderRules = {"measure": "wins", "average": False, "min_nights": 0}


@dataclass(frozen=True, slots=True)
class Club:
    """A club now: set-up, members, seasons with their nights, hosts, payments, the nights
    to come with their answers, links, the standings rules and the mail server."""

    setup: ClubSetup
    members: dict[str, str] = field(default_factory=dict)  # name -> role, in joining order
    seasons: tuple[str, ...] = ()
    nights: tuple[ClubNight, ...] = ()
    hosts: dict[str, str] = field(default_factory=dict)  # month -> host
    payments: tuple[
        tuple[str, str, Decimal, str | None], ...
    ] = ()  # (season, player, amount, note)
    contacts: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> email, address
    plans: dict[str, Plan] = field(default_factory=dict)  # date -> plan, in date order
    rotation: tuple[str, ...] = ()  # the hosting order (empty: the regulars in joining order)
    rsvps: tuple[Answer, ...] = ()  # answers and deadlines passing, in order
    links: dict[str, tuple[str, str]] = field(default_factory=dict)  # hash -> (for, subject)
    issued: dict[tuple[str, str], int] = field(default_factory=dict)  # links issued so far
    ladder: LadderRules = field(default_factory=lambda: LadderRules(**DEFAULT_LADDER))
    mail: MailSettings | None = None
    reminders: tuple[tuple[str, tuple[str, ...]], ...] = ()
    timezone: str | None = None  # the club's time zone (IANA); None: floating local times
    push_keys: dict[str, str] | None = None  # the server's keys for phone notifications
    phones: dict[str, tuple[str, str, str]] = field(
        default_factory=dict
    )  # endpoint -> (member, p256dh, auth): the phones that asked for notifications
    notified: tuple[Told, ...] = ()  # what members were told (kind, names, date)
    recovery: dict[str, str] | None = None  # the organizer's recovery code: hash, sealed
    seq: int = 0  # the events applied after the set-up line: the seq of the log's last

    @classmethod
    def start(cls, setup: Raw) -> Club:
        """The club its set-up line makes (as given: checked here)."""
        line = normalize_club(setup)
        return cls(line, timezone=line.get("timezone"))

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
    def sub_fee(self) -> Decimal:
        return Decimal(self.setup.get("sub_fee", "0"))

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

    @property
    def host_order(self) -> tuple[str, ...]:
        """Who hosts in turn: the rotation set, else the regulars in joining order."""
        order = self.rotation or self.regulars
        return tuple(n for n in order if n in self.members)

    def season_nights(self, season: str | None = None) -> tuple[ClubNight, ...]:
        wanted = season or self.season
        return tuple(n for n in self.nights if n.season == wanted)

    def night_on(self, date: str) -> ClubNight | None:
        """The club night played on ``date`` (the planned night it carried out), if any."""
        return next((n for n in self.nights if n.date == date), None)

    def address_of(self, plan: Plan) -> str | None:
        """Where a planned night is: its own address, else its host's."""
        if plan.address:
            return plan.address
        return self.contacts.get(plan.host or "", {}).get("address")

    def link(self, token_hash: str) -> tuple[str, str] | None:
        """What a link opens (member and name, night and id, season and name), if live."""
        found = self.links.get(token_hash)
        if found is None:
            return None
        if found[0] in ("member", "calendar") and found[1] not in (*self.members, "feed"):
            return None  # a member who left: their links stop
        return found

    def apply(self, event: Raw) -> Club:
        """The club after ``event`` (a typed event, or one as read: checked and put in
        canonical form first; its seq one more); raises a :class:`BuncoError` and changes
        nothing."""
        return evolve(self._apply(normalize_club_event(event)), seq=self.seq + 1)

    def _apply(self, ev: ClubEvent) -> Club:
        if ev["type"] == "member" or ev["type"] == "leave_club" or ev["type"] == "host":
            return self._members(ev)
        if ev["type"] == "season":
            if ev["name"] in self.seasons:
                raise InvalidSetup(
                    f"season {ev['name']!r} already exists", expected="a new season's name"
                )
            return evolve(self, seasons=(*self.seasons, ev["name"]))
        if ev["type"] == "night":
            return self._night(ev)
        if ev["type"] == "payment":
            self._member_named(ev["player"])
            payment = (self.season, ev["player"], Decimal(ev["amount"]), ev.get("note"))
            return evolve(self, payments=(*self.payments, payment))
        if ev["type"] == "plan":
            return self._plan(ev)
        if (
            ev["type"] == "cancel_plan"
            or ev["type"] == "move_plan"
            or ev["type"] == "deadline_passed"
            or ev["type"] == "cancel_night"
        ):
            return apply_month(self, ev)
        return self._settings(ev)

    def _member_named(self, name: str, what: str = "a member") -> None:
        if name not in self.members:
            raise InvalidSetup(
                f"{name!r} is not {what} of {self.name}",
                expected="one of " + ", ".join(self.members),
            )

    def next_host(self, date: str) -> str | None:
        """Whose turn it is to host a night on ``date``: the one after the host of the
        latest planned night before it, in the hosting order."""
        order = self.host_order
        if not order:
            return None
        before = [p.host for d, p in self.plans.items() if d < date and p.host in order]
        return order[(order.index(before[-1]) + 1) % len(order)] if before else order[0]

    def _turns(self, ev: ClubEvent) -> Club:
        """The hosting order, two nights swapping hosts, a member's answer."""
        if ev["type"] == "rotation":
            for name in ev["order"]:
                self._member_named(name)
            return evolve(self, rotation=tuple(ev["order"]))
        if ev["type"] == "swap_hosts":
            first, second = (self._planned(d) for d in ev["dates"])
            return evolve(
                self,
                plans={
                    **self.plans,
                    first.date: evolve(first, host=second.host),
                    second.date: evolve(second, host=first.host),
                },
            )
        if ev["type"] == "rsvp":
            plan = self._planned(ev["date"])
            self._member_named(ev["name"])
            played = self.night_on(plan.date)
            if played is not None:
                raise InvalidSetup(
                    f"the night of {plan.date} has started (night {played.night}): "
                    "its players are set",
                    expected="a night to come (or cancel the started night first, if it has "
                    "no roll yet)",
                )
            if plan.cancelled:
                raise InvalidSetup(
                    f"the night of {plan.date} is cancelled", expected="a night to come"
                )
            return evolve(self, rsvps=(*self.rsvps, Answer(ev["date"], ev["name"], ev["answer"])))
        return self._settings(ev)

    def _plan(self, ev: ClubPlanEvent) -> Club:
        old = self.plans.get(ev["date"])
        if old is not None and old.cancelled:
            raise InvalidSetup(
                f"the night of {old.date} is cancelled",
                expected="another date (a cancelled night stays cancelled)",
            )
        host = ev.get("host") or (old.host if old else self.next_host(ev["date"]))
        if host is not None:
            self._member_named(host)
        plan = Plan(
            ev["date"],
            old.season if old else self.season,
            ev.get("time", old.time if old else None),
            host,
            ev.get("address", old.address if old else None),
            ev.get("seats", old.seats if old else None),
            ev.get("deadline", old.deadline if old else None),
            old.uid if old else ev["date"],
            old.sequence if old else 0,
        )
        if plan.deadline is not None and plan.deadline[:10] > plan.date:
            raise InvalidSetup(
                f"the answers' deadline {plan.deadline} is after the night ({plan.date})",
                expected="a deadline on or before the night's date",
            )
        if old is not None and (plan.time, plan.host, plan.address) != (
            old.time,
            old.host,
            old.address,
        ):
            plan = evolve(plan, sequence=old.sequence + 1)  # calendars take the change
        return evolve(self, plans=dict(sorted({**self.plans, plan.date: plan}.items())))

    def _planned(self, date: str) -> Plan:
        if date not in self.plans:
            raise InvalidSetup(
                f"there is no night planned on {date}",
                expected="the date of a planned night: "
                + (", ".join(self.plans) or "plan one first"),
            )
        return self.plans[date]

    def _members(self, ev: ClubMemberEvent | ClubLeaveClubEvent | ClubHostEvent) -> Club:
        who = ev["host"] if ev["type"] == "host" else ev["name"]
        if ev["type"] != "member" and who not in self.members:
            raise InvalidSetup(
                f"{who!r} is not a member", expected="one of " + ", ".join(self.members)
            )
        if ev["type"] == "host":
            return evolve(self, hosts={**self.hosts, ev["month"]: ev["host"]})
        if ev["type"] == "leave_club":
            return evolve(self, members={k: v for k, v in self.members.items() if k != who})
        same = same_name(who, {name_key(m): m for m in self.members})
        if same is not None:
            raise InvalidSetup(
                f"{who!r} and the member {same!r} are the same name",
                expected="a name that tells every member apart (case, "
                "spacing and look-alike letters are ignored)",
            )
        contact = dict(self.contacts.get(who, {}))
        if "email" in ev:
            contact["email"] = ev["email"]
        if "address" in ev:
            contact["address"] = ev["address"]
        return evolve(
            self,
            members={**self.members, who: ev.get("role", "regular")},
            contacts={**self.contacts, who: contact},
        )

    def _night(self, ev: ClubNightEvent) -> Club:
        if any(n.night == ev["night"] for n in self.nights):
            raise InvalidSetup(
                f"night {ev['night']!r} is already a night of the club",
                expected="a night not yet added",
            )
        digest = ev.get("digest")
        twin = next((n for n in self.nights if digest and n.digest == digest), None)
        if twin is not None:
            raise InvalidSetup(
                "this night is already a night of the club (night "
                f"{twin.night}{', ' + twin.date if twin.date else ''})",
                expected="a night not yet added (the same log cannot be added twice)",
            )
        date = ev.get("date")
        planned = self.plans.get(date) if date is not None else None
        if planned is not None and planned.cancelled:
            raise InvalidSetup(f"the night of {date} is cancelled", expected="another date")
        played = self.night_on(planned.date) if planned is not None else None
        if played is not None:
            raise InvalidSetup(
                f"the night of {date} has been started already (night {played.night})",
                expected="another date (or cancel that night first, if it has no roll yet)",
            )
        season = planned.season if planned is not None else self.season
        return evolve(
            self,
            nights=(
                *self.nights,
                ClubNight(ev["night"], season, date, tuple(ev.get("guests", ())), digest),
            ),
        )

    def _settings(self, ev: ClubEvent) -> Club:
        """Links, the standings rules, the mail server, the time zone, reminders sent."""
        if ev["type"] == "rotation" or ev["type"] == "swap_hosts" or ev["type"] == "rsvp":
            return self._turns(ev)
        if ev["type"] == "link":
            subject, what = ev["subject"], ev["for"]
            known = {
                "member": list(self.members),
                "night": [n.night for n in self.nights],
                "season": list(self.seasons) or [self.season],
                "calendar": ["feed", *self.members],  # the club's feed, a member's own
            }[what]
            if subject not in known:
                raise InvalidSetup(
                    f"{subject!r} is not a {what} of {self.name}",
                    expected="one of " + ", ".join(known) if known else f"a {what} of the club",
                )
            key = (what, subject)
            kept = {h: s for h, s in self.links.items() if s != key}
            return evolve(
                self,
                links={**kept, ev["hash"]: key},
                issued={**self.issued, key: self.issued.get(key, 0) + 1},
            )
        if ev["type"] == "unlink":
            if ev["hash"] not in self.links:
                raise InvalidSetup("no such link", expected="a link the club has issued")
            return evolve(self, links={h: s for h, s in self.links.items() if h != ev["hash"]})
        if ev["type"] == "ladder":
            ladder: LadderRules = {
                "measure": ev.get("measure", "wins"),
                "average": ev.get("average", False),
                "min_nights": ev.get("min_nights", 0),
            }
            if "best" in ev:
                ladder["best"] = ev["best"]
            if "drop" in ev:
                ladder["drop"] = ev["drop"]
            if "place_points" in ev:
                ladder["place_points"] = ev["place_points"]
            return evolve(self, ladder=ladder)
        if ev["type"] == "mail":
            mail: MailSettings = {
                "host": ev["host"],
                "port": ev.get("port", 25),
                "sender": ev["sender"],
                "starttls": ev.get("starttls", False),
            }
            if "username" in ev:
                mail["username"] = ev["username"]
            if "password" in ev:
                mail["password"] = ev["password"]
            return evolve(self, mail=mail)
        if ev["type"] == "timezone":
            return evolve(self, timezone=ev["zone"])
        if ev["type"] == "reminded":
            return evolve(self, reminders=(*self.reminders, (ev["date"], tuple(ev["names"]))))
        return self._notices(ev)

    def _notices(self, ev: ClubEvent) -> Club:
        """Phone notifications (keys, phones), what members were told, the recovery code."""
        if ev["type"] == "push_keys":
            keys = {"public": ev["public"], "private": ev["private"]}
            if "contact" in ev:
                keys["contact"] = ev["contact"]
            return evolve(self, push_keys=keys)
        if ev["type"] == "push":
            self._member_named(ev["name"])
            phone = (ev["name"], ev["p256dh"], ev["auth"])
            return evolve(self, phones={**self.phones, ev["endpoint"]: phone})
        if ev["type"] == "unpush":
            return evolve(
                self, phones={k: v for k, v in self.phones.items() if k != ev["endpoint"]}
            )
        if ev["type"] == "recovery":
            return evolve(self, recovery={"hash": ev["hash"], "sealed": ev["sealed"]})
        if ev["type"] != "notified":  # every other type is folded above
            raise InvalidEvent(
                f"club event {ev['type']!r} is not folded",
                expected="one of " + ", ".join(CLUB_EVENT_TYPES),
            )
        told: Told = {"kind": ev["kind"], "names": ev["names"]}
        if "date" in ev:
            told["date"] = ev["date"]
        return evolve(self, notified=(*self.notified, told))

    def apply_all(self, events: Iterable[Raw]) -> Club:
        club = self
        for ev in events:
            club = club.apply(ev)
        return club


def _text(value: Any, what: str, expected: str, limit: int) -> str:
    return text(value, what, expected, limit)


def normalize_club(setup: object) -> ClubSetup:
    """The canonical first line of a club's log; raises :class:`InvalidSetup`."""
    if not isinstance(setup, Mapping) or setup.get("type", "club") != "club":
        raise InvalidSetup(
            "the first line of a club's log sets the club up",
            expected='{"type": "club", "name": "...", "dues": "5"}',
        )
    unknown = [k for k in setup if k not in SETUP_KEYS]
    if unknown:
        raise InvalidSetup(f"a club has no field {unknown[0]!r}", expected=", ".join(SETUP_KEYS))
    try:
        name = _text(setup.get("name"), "club name", "a name of 1 to 200 characters", 200)
    except InvalidEvent as exc:
        raise InvalidSetup(exc.message, expected=exc.expected) from None
    currency = setup.get("currency", "$")
    if not isinstance(currency, str) or not 0 < len(currency.strip()) <= 8:
        raise InvalidSetup(
            f"currency {shown(currency)} is not a currency sign",
            expected='1 to 8 characters, e.g. "$"',
        )
    time_zone = None
    if setup.get("timezone") is not None:
        try:
            time_zone = zone(setup["timezone"])
        except InvalidEvent as exc:
            raise InvalidSetup(exc.message, expected=exc.expected) from None
    out: ClubSetup = {
        "type": "club",
        "name": name,
        "rules": preset_name(str(setup.get("rules", "classic"))),
        "currency": clean_text(currency.strip(), "currency"),
        "dues": money_text(parse_amount(setup.get("dues", "0"), "dues")),
    }
    if time_zone is not None:
        out["timezone"] = time_zone
    if setup.get("sub_fee") is not None:
        out["sub_fee"] = money_text(parse_amount(setup["sub_fee"], "sub_fee"))
    # the night options, as given: checked below as a night of the club would use them
    if setup.get("house_rules") is not None:
        out["house_rules"] = setup["house_rules"]
    if setup.get("prizes") is not None:
        out["prizes"] = setup["prizes"]
    if setup.get("prize_ties") is not None:
        out["prize_ties"] = setup["prize_ties"]
    if setup.get("one_prize_per_person") is not None:
        out["one_prize_per_person"] = setup["one_prize_per_person"]
    if setup.get("must_be_present") is not None:
        out["must_be_present"] = setup["must_be_present"]
    if setup.get("judged") is not None:
        out["judged"] = setup["judged"]
    if setup.get("payouts") is not None:
        out["payouts"] = setup["payouts"]
    # the night options are checked as a night of the club would use them
    night_setup(out, ["A", "B", "C", "D"], carried_over=Decimal(0))
    return out


def roster_for_night(club: Club, swaps: Mapping[str, str]) -> list[str]:
    """The regulars, each one in ``swaps`` replaced by the substitute the host chose."""
    regulars = list(club.regulars)
    subs = list(swaps.values())
    for out, sub in swaps.items():
        if out not in regulars:
            raise InvalidSetup(
                f"{out!r} is not a regular of {club.name}", expected="one of " + ", ".join(regulars)
            )
        if sub in regulars or subs.count(sub) > 1:
            raise InvalidSetup(
                f"{sub!r} already plays tonight",
                expected="a substitute who is not playing: " + ", ".join(club.substitutes),
            )
    if len(regulars) < 2:
        raise InvalidSetup(
            f"{club.name} has {len(regulars)} regulars",
            expected="at least two regulars (add members first)",
        )
    return [swaps.get(p, p) for p in regulars]
