"""The club's log as types: its set-up line and one ``TypedDict`` per event type.

Each type names an event's fields as :func:`bunco.club.events.normalize_club_event` writes
them (the canonical form the fold reads); a field the event may leave out is
``NotRequired`` (``role`` is ``regular`` unless given, ``measure`` is ``wins``...). The
API's request bodies and its OpenAPI components are made from these types
(:mod:`bunco.web.values.club_event_models`), as the night's are from
:mod:`bunco.core.events`.

>>> sorted(t.__name__ for t in club_event_types())[:3]
['ClubCancelNightEvent', 'ClubCancelPlanEvent', 'ClubDeadlinePassedEvent']
"""

# No ``from __future__ import annotations``: TypedDict reads NotRequired[...] at class
# creation, so the runtime __required_keys__ / __optional_keys__ match what mypy sees.
# ``typing_extensions``' TypedDict: the API's models read these types on Python 3.11 too.

import typing
from collections.abc import Sequence
from typing import Literal, NotRequired, TypeAlias

from typing_extensions import TypedDict

from bunco.core.errors import InvalidSetup

Role: TypeAlias = Literal["regular", "substitute"]
RsvpAnswer: TypeAlias = Literal["yes", "no", "maybe"]
LinkKind: TypeAlias = Literal["member", "night", "season", "calendar"]
Measure: TypeAlias = Literal["wins", "points", "buncos", "place_points"]
NoticeKind: TypeAlias = Literal["seat_open", "seat_yours", "answer_by", "cancelled", "moved"]


class Payout(TypedDict, total=False):
    """One payout rule of the club's nights (the night's money checks it)."""

    prize: str
    share: str
    amount: str
    group: str


class ClubSetup(TypedDict):
    """The first line of a club's log: its name, rules, money and the nights' options."""

    type: Literal["club"]
    name: str
    rules: str
    currency: str
    dues: str
    timezone: NotRequired[str]
    sub_fee: NotRequired[str]
    house_rules: NotRequired[dict[str, bool | int | float | str]]
    prizes: NotRequired[list[str]]
    prize_ties: NotRequired[str]
    one_prize_per_person: NotRequired[bool]
    must_be_present: NotRequired[bool]
    judged: NotRequired[list[str]]
    payouts: NotRequired[list[Payout]]


class _Kept(TypedDict, total=False):
    """Keys any club event may carry that the fold keeps but does not read."""

    id: object
    at: object


class ClubMemberEvent(_Kept):
    """A member joins, or changes role or contact (``role``: regular unless given)."""

    type: Literal["member"]
    name: str
    role: NotRequired[Role]
    email: NotRequired[str]
    address: NotRequired[str]


class ClubLeaveClubEvent(_Kept):
    """A member leaves the club."""

    type: Literal["leave_club"]
    name: str


class ClubSeasonEvent(_Kept):
    """A new season begins; later nights belong to it."""

    type: Literal["season"]
    name: str


class ClubHostEvent(_Kept):
    """Who hosts which month (``month``: YYYY-MM)."""

    type: Literal["host"]
    month: str
    host: str


class ClubNightEvent(_Kept):
    """A night of the club (``night``: its id in the store; ``digest``: the SHA-256 of
    its log, for a night added from a file)."""

    type: Literal["night"]
    night: str
    date: NotRequired[str]
    guests: NotRequired[list[str]]
    digest: NotRequired[str]


class ClubPaymentEvent(_Kept):
    """A member pays dues (``amount``: a sum such as "5" or "2.50")."""

    type: Literal["payment"]
    player: str
    amount: str
    note: NotRequired[str]


class ClubPlanEvent(_Kept):
    """A night to come, or a change to it (only the fields given change; ``deadline``:
    answer by then, YYYY-MM-DDTHH:MM in the club's time)."""

    type: Literal["plan"]
    date: str
    time: NotRequired[str]
    address: NotRequired[str]
    host: NotRequired[str]
    seats: NotRequired[int]
    deadline: NotRequired[str]


class ClubCancelPlanEvent(_Kept):
    """A planned night is called off (it stays in the calendar, cancelled)."""

    type: Literal["cancel_plan"]
    date: str


class ClubMovePlanEvent(_Kept):
    """A planned night moves to another date (its answers go with it)."""

    type: Literal["move_plan"]
    date: str
    to: str
    time: NotRequired[str]
    deadline: NotRequired[str]


class ClubDeadlinePassedEvent(_Kept):
    """The answers' deadline of a planned night passed: the seats of those who have not
    said yes go to the subs in line."""

    type: Literal["deadline_passed"]
    date: str


class ClubCancelNightEvent(_Kept):
    """A night the club started and that was never played is taken back."""

    type: Literal["cancel_night"]
    night: str


class ClubRotationEvent(_Kept):
    """The hosting order (members' names)."""

    type: Literal["rotation"]
    order: list[str]


class ClubSwapHostsEvent(_Kept):
    """Two planned nights swap their hosts (``dates``: two dates)."""

    type: Literal["swap_hosts"]
    dates: list[str]


class ClubRsvpEvent(_Kept):
    """A member answers for a planned night."""

    type: Literal["rsvp"]
    date: str
    name: str
    answer: RsvpAnswer


ClubLinkEvent = TypedDict(  # functional form: ``for`` is a Python keyword
    "ClubLinkEvent",
    {
        "type": Literal["link"],
        "for": LinkKind,
        "subject": str,
        "hash": str,
        "id": NotRequired[object],
        "at": NotRequired[object],
    },
)
ClubLinkEvent.__doc__ = "A personal or share link is issued (``hash``: the SHA-256 of its token)."


class ClubUnlinkEvent(_Kept):
    """A link stops working."""

    type: Literal["unlink"]
    hash: str


class ClubLadderEvent(_Kept):
    """The standings rules (``measure``: wins unless given; ``best`` N nights, or
    ``drop`` the worst N; ``place_points``: for 1st, 2nd, ... place)."""

    type: Literal["ladder"]
    measure: NotRequired[Measure]
    average: NotRequired[bool]
    min_nights: NotRequired[int]
    best: NotRequired[int]
    drop: NotRequired[int]
    place_points: NotRequired[list[int]]


class ClubMailEvent(_Kept):
    """The SMTP server reminders go through (``port``: 25 unless given)."""

    type: Literal["mail"]
    host: str
    port: NotRequired[int]
    sender: str
    username: NotRequired[str]
    password: NotRequired[str]
    starttls: NotRequired[bool]


class ClubRemindedEvent(_Kept):
    """Reminders were sent for a night."""

    type: Literal["reminded"]
    date: str
    names: list[str]


class ClubTimezoneEvent(_Kept):
    """The club's time zone, for the calendar and the deadlines (an IANA name)."""

    type: Literal["timezone"]
    zone: str


class ClubPushKeysEvent(_Kept):
    """The keys the server signs the club's phone notifications with."""

    type: Literal["push_keys"]
    public: str
    private: str
    contact: NotRequired[str]


class ClubPushEvent(_Kept):
    """A member's phone asks for notifications."""

    type: Literal["push"]
    name: str
    endpoint: str
    p256dh: str
    auth: str


class ClubUnpushEvent(_Kept):
    """A phone's notifications stop."""

    type: Literal["unpush"]
    endpoint: str


class ClubNotifiedEvent(_Kept):
    """Members were told something, on their phones or by email."""

    type: Literal["notified"]
    kind: NoticeKind
    names: list[str]
    date: NotRequired[str]


class ClubRecoveryEvent(_Kept):
    """The organizer's recovery code: its hash, and the club's token sealed with it."""

    type: Literal["recovery"]
    hash: str
    sealed: str


ClubEvent: TypeAlias = (
    ClubMemberEvent
    | ClubLeaveClubEvent
    | ClubSeasonEvent
    | ClubHostEvent
    | ClubNightEvent
    | ClubPaymentEvent
    | ClubPlanEvent
    | ClubCancelPlanEvent
    | ClubMovePlanEvent
    | ClubDeadlinePassedEvent
    | ClubCancelNightEvent
    | ClubRotationEvent
    | ClubSwapHostsEvent
    | ClubRsvpEvent
    | ClubLinkEvent
    | ClubUnlinkEvent
    | ClubLadderEvent
    | ClubMailEvent
    | ClubRemindedEvent
    | ClubTimezoneEvent
    | ClubPushKeysEvent
    | ClubPushEvent
    | ClubUnpushEvent
    | ClubNotifiedEvent
    | ClubRecoveryEvent
)
"""One event of a club's log, as :func:`~bunco.club.events.normalize_club_event` returns it."""

ClubLine: TypeAlias = ClubSetup | ClubEvent
"""One line of a club's log as stored: the set-up line (seq 0) or an event."""


class LadderRules(TypedDict):
    """The club's standings rules as the fold keeps them (the ladder event's fields,
    with their defaults)."""

    measure: Measure
    average: bool
    min_nights: int
    best: NotRequired[int]
    drop: NotRequired[int]
    place_points: NotRequired[list[int]]


class MailSettings(TypedDict):
    """The club's SMTP server as the fold keeps it (the mail event's fields)."""

    host: str
    port: int
    sender: str
    username: NotRequired[str]
    password: NotRequired[str]
    starttls: bool


class Told(TypedDict):
    """What members were told, as the fold keeps it (a notified event's fields)."""

    kind: NoticeKind
    names: list[str]
    date: NotRequired[str]


def club_event_types() -> list[type]:
    """Every club event's ``TypedDict``, in the order of :data:`ClubEvent`."""
    return [t for t in typing.get_args(ClubEvent) if isinstance(t, type)]


def event_kind(typed: type) -> str:
    """The ``type`` an event's ``TypedDict`` carries (``ClubPlanEvent`` → ``plan``)."""
    (kind,) = typing.get_args(typing.get_type_hints(typed)["type"])
    return str(kind)


def split_log(log: Sequence[ClubLine]) -> tuple[ClubSetup, list[ClubEvent]]:
    """A club's log as its set-up line and its events; raises :class:`InvalidSetup` for a
    log that does not begin with the one set-up line."""
    first = log[0] if log else None
    if first is None or first["type"] != "club":
        raise InvalidSetup(
            "a club's log begins with its set-up line",
            expected='{"type": "club", "name": "...", "dues": "5"}',
        )
    events: list[ClubEvent] = []
    for line in log[1:]:
        if line["type"] == "club":
            raise InvalidSetup(
                "a club's log has a second set-up line", expected="one set-up line, first"
            )
        events.append(line)
    return first, events
