"""What the host records beside the dice: judged prizes, presence, breaks and drawings.

Each is an event of the party log (docs/party-log.md) folded into a :class:`HostState`
that the night carries. None of them touches a table: they may come at any time, except a
break, which waits for the end of a round. The core draws no random numbers: a drawing's
event carries the random pick (made by the caller from a cryptographic source), the
ordered candidate list it was made from and the winner, and the fold checks all three, so
a drawing can be re-checked from the log afterwards.

>>> from bunco.core.night import Night
>>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "absent", "player": "Bea"})
>>> drawing_candidates(night, exclude_winners=False)
('Ann', 'Cat', 'Dee')
>>> night = night.apply({"type": "drawing", "candidates": ["Ann", "Cat", "Dee"], "pick": 2,
...                      "winner": "Dee"})
>>> night.host.drawings[0].winner
'Dee'
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from bunco.core.cards import Card
from bunco.core.errors import InvalidEvent, InvalidSetup, NotAllowedNow, shown
from bunco.core.evolve import evolve
from bunco.core.host_events import BreakEvent, DrawingEvent, HostEvent, JudgeEvent
from bunco.core.host_shapes import BreakView, DrawingView, HostReport
from bunco.core.names import clean_text
from bunco.core.party_setup import PartySetup
from bunco.core.prizes import PrizeResult
from bunco.core.rules import RuleSet

HOST_EVENT_TYPES: dict[str, str] = {
    "judge": "the host names a judged prize's winner: prize, group?, winner or ranking",
    "absent": "the host marks a player as gone home (must be present to win): player",
    "present": "the host marks a player as back in the room: player",
    "break": "a break begins (between rounds or after the last one): minutes?, started_at?",
    "end_break": "the break ends",
    "drawing": "a random drawing among the players present: candidates, pick, winner, "
    "exclude_winners?, name?",
    "close_cards": "after the last round, the host closes the cards: prizes from the cards "
    "as verified, those not verified named: unverified",
}
GROUP_PREFIX = "group_"
MAX_BREAK_MINUTES = 240


@dataclass(frozen=True, slots=True)
class JudgedPrize:
    """A prize the dice do not decide (Best Costume): its key and its label."""

    key: str
    label: str


@dataclass(frozen=True, slots=True)
class Drawing:
    """One drawing: the candidates in order, the random pick among them, the winner."""

    name: str
    candidates: tuple[str, ...]
    pick: int
    winner: str
    exclude_winners: bool
    at: str | None

    def as_dict(self) -> DrawingView:
        return {
            "name": self.name,
            "candidates": list(self.candidates),
            "pick": self.pick,
            "winner": self.winner,
            "exclude_winners": self.exclude_winners,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class Break:
    """A break under way: how long the host set it for, when it began, after which round."""

    minutes: int | None
    started_at: str | None
    after: tuple[int, int] | None  # (set, round) of the last round played, if any
    rounds_played: int  # len(history) when it began: a later round ends it

    def as_dict(self) -> BreakView:
        return {
            "minutes": self.minutes,
            "started_at": self.started_at,
            "after": None if self.after is None else {"set": self.after[0], "round": self.after[1]},
        }


@dataclass(frozen=True, slots=True)
class HostState:
    """Everything the host recorded beside the dice."""

    judged: dict[tuple[str, str | None], tuple[str, ...]] = field(default_factory=dict)
    absent: frozenset[str] = frozenset()
    break_: Break | None = None
    drawings: tuple[Drawing, ...] = ()
    closed_unverified: tuple[str, ...] | None = None  # the cards the host closed unverified


class _Round(Protocol):
    @property
    def set_no(self) -> int: ...
    @property
    def round_no(self) -> int: ...


class HostedNight(Protocol):
    """What the host's records and the prize money read of a night
    (:class:`~bunco.core.night.Night` has all of it; a protocol keeps core free of cycles)."""

    @property
    def setup(self) -> PartySetup: ...
    @property
    def rules(self) -> RuleSet: ...
    @property
    def roster(self) -> Sequence[str]: ...
    @property
    def groups(self) -> Mapping[str, Sequence[str]]: ...
    @property
    def cards(self) -> Mapping[str, Card]: ...
    @property
    def prize_cards(self) -> Mapping[str, Card] | None: ...
    @property
    def prizes(self) -> Sequence[PrizeResult]: ...
    @property
    def history(self) -> Sequence[_Round]: ...
    @property
    def phase(self) -> str: ...
    @property
    def started(self) -> bool: ...
    @property
    def round_no(self) -> int: ...
    @property
    def rolloff_for(self) -> tuple[str, int] | None: ...
    @property
    def host(self) -> HostState: ...


N = TypeVar("N", bound=HostedNight)


# -- the party line ------------------------------------------------------------------------


def prize_key(label: str) -> str:
    """The key of a judged prize from its label.

    >>> prize_key("Best Costume!")
    'best_costume'
    """
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


def normalize_judged(value: Any, taken: set[str]) -> list[str]:
    """The ``judged`` list of the party line: prize labels, each with a new key."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise InvalidSetup(
            "judged must be a list of prize names", expected='"judged": ["Best Costume"]'
        )
    out: list[str] = []
    keys: set[str] = set()
    for label in value:
        label = " ".join(clean_text(label, "judged prize").split())
        key = prize_key(label)
        if not key or len(label) > 60:
            raise InvalidSetup(
                f"judged prize {shown(label, 70)} needs a name of 1 to 60 characters with a letter or digit",
                expected='a name such as "Best Costume"',
            )
        if key in taken or key in keys or key.startswith(GROUP_PREFIX):
            raise InvalidSetup(
                f"judged prize {label!r} has the same name as another prize",
                expected="a name no other prize of the night has",
            )
        keys.add(key)
        out.append(label)
    return out


def presence_required(night: HostedNight) -> bool:
    """Whether prizes go only to players present at the end: the party line's
    ``must_be_present`` when it says, else the rules' (on in ``tournament``: seeds/004
    "you must be present with a valid ID to win")."""
    given = night.setup.get("must_be_present")
    return bool(night.rules.must_be_present if given is None else given)


def judged_prizes(setup: PartySetup) -> tuple[JudgedPrize, ...]:
    """The night's judged prizes, from its normalised party line."""
    return tuple(JudgedPrize(prize_key(label), label) for label in setup.get("judged", ()))


# -- events -----------------------------------------------------------------------------------


def _text(event: Mapping[str, object], key: str, *, what: str, limit: int = 60) -> str:
    value = event.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InvalidEvent(
            f"{event.get('type')} event needs {what} in {key!r}, got {shown(value)}",
            expected=f"a non-empty text of at most {limit} characters",
        )
    return " ".join(clean_text(value, key, InvalidEvent).split())


def normalize_host_event(event: Mapping[str, object]) -> HostEvent:
    """A host event in canonical form, its fields after ``type`` (without ``id`` and ``at``)."""
    kind = event["type"]
    if kind == "absent":
        return {"type": "absent", "player": _text(event, "player", what="a player name")}
    if kind == "present":
        return {"type": "present", "player": _text(event, "player", what="a player name")}
    if kind == "judge":
        return _judge(event)
    if kind == "break":
        return _break(event)
    if kind == "end_break":
        return {"type": "end_break"}
    if kind == "drawing":
        candidates = event.get("candidates")
        if not isinstance(candidates, list) or not all(isinstance(c, str) for c in candidates):
            raise InvalidEvent(
                "drawing event needs its candidates as a list of names",
                expected='"candidates": ["Ann", "Cat"], in the order the pick was made from',
            )
        pick = event.get("pick")
        if isinstance(pick, bool) or not isinstance(pick, int) or pick < 0:
            raise InvalidEvent(
                f"drawing pick {shown(pick)} is not a whole number of 0 or more",
                expected="the random position in candidates, counted from 0",
            )
        drawing: DrawingEvent = {
            "type": "drawing",
            "candidates": list(candidates),
            "pick": pick,
            "winner": _text(event, "winner", what="the winner's name"),
            "exclude_winners": bool(event.get("exclude_winners", False)),
        }
        if event.get("name") is not None:
            drawing["name"] = _text(event, "name", what="the drawing's name", limit=80)
        return drawing
    assert kind == "close_cards", kind
    names = event.get("unverified", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise InvalidEvent(
            "close_cards names the cards left unverified as a list of names",
            expected='"unverified": ["Ann", "Bea"] (the host was warned of these)',
        )
    return {"type": "close_cards", "unverified": [" ".join(n.split()) for n in names]}


def _judge(event: Mapping[str, object]) -> JudgeEvent:
    prize = _text(event, "prize", what="a judged prize")
    group = None
    if event.get("group") is not None:
        group = _text(event, "group", what="a group name")
    ranking = event.get("ranking")
    if ranking is None and event.get("winner") is not None:
        ranking = [event["winner"]]
    if (
        not isinstance(ranking, list)
        or not ranking
        or not all(isinstance(r, str) and r.strip() for r in ranking)
    ):
        raise InvalidEvent(
            "judge event needs a winner (or a ranking: the winner first, then who comes next)",
            expected='"winner": "Ann" or "ranking": ["Ann", "Bea"]',
        )
    names = [" ".join(r.split()) for r in ranking]
    if len(set(names)) != len(names):
        raise InvalidEvent("the ranking names someone twice", expected="each name once")
    if group is None:
        return {"type": "judge", "prize": prize, "ranking": names}
    return {"type": "judge", "prize": prize, "group": group, "ranking": names}


def _break(event: Mapping[str, object]) -> BreakEvent:
    out: BreakEvent = {"type": "break"}
    minutes = event.get("minutes")
    if minutes is not None:
        if (
            isinstance(minutes, bool)
            or not isinstance(minutes, int)
            or not (1 <= minutes <= MAX_BREAK_MINUTES)
        ):
            raise InvalidEvent(
                f"a break of {shown(minutes)} minutes",
                expected=f"minutes as a whole number from 1 to {MAX_BREAK_MINUTES}",
            )
        out["minutes"] = minutes
    started_at = event.get("started_at")
    if started_at is not None:
        if not isinstance(started_at, str) or not 0 < len(started_at) <= 40:
            raise InvalidEvent(
                f"a break that started at {shown(started_at, 50)}",
                expected='started_at as an ISO 8601 time, e.g. "2026-11-24T20:15:00+00:00"',
            )
        out["started_at"] = started_at
    return out


def apply_host_event(night: N, ev: HostEvent) -> N:
    """The night after a host event; raises a :class:`BuncoError` and changes nothing."""
    host = night.host
    if ev["type"] == "absent" or ev["type"] == "present":
        player = ev["player"]
        if player not in night.cards:
            raise InvalidSetup(
                f"{player!r} is not a player tonight", expected="one of " + ", ".join(night.roster)
            )
        gone = ev["type"] == "absent"
        absent = host.absent | {player} if gone else host.absent - {player}
        return evolve(night, host=evolve(host, absent=frozenset(absent)))
    if ev["type"] == "judge":
        return evolve(night, host=evolve(host, judged={**host.judged, **_judged(night, ev)}))
    if ev["type"] == "break":
        return evolve(night, host=evolve(host, break_=_begin_break(night, ev)))
    if ev["type"] == "close_cards":  # checked by the night (bunco.core.verification)
        return evolve(night, host=evolve(host, closed_unverified=tuple(ev["unverified"])))
    if ev["type"] == "end_break":
        if break_on(night) is None:
            raise NotAllowedNow("there is no break to end", expected="a break event first")
        return evolve(night, host=evolve(host, break_=None))
    return evolve(night, host=evolve(host, drawings=(*host.drawings, _drawing(night, ev))))


def _judged(night: HostedNight, ev: JudgeEvent) -> dict[tuple[str, str | None], tuple[str, ...]]:
    prizes = {p.key: p for p in judged_prizes(night.setup)}
    key, group, ranking = ev["prize"], ev.get("group"), tuple(ev["ranking"])
    grouped = bool(night.groups) and night.rules.prize_groups
    names = ", ".join(prizes) or "none (list them in the party line's judged)"
    if key.startswith(GROUP_PREFIX) and key[len(GROUP_PREFIX) :] in prizes and grouped:
        if group is not None:
            raise InvalidEvent(
                f"{key} goes to a whole group, so it names no group",
                expected='"winner": the winning group',
            )
        for name in ranking:
            if name not in night.groups:
                raise InvalidSetup(
                    f"{name!r} is not a group", expected="one of " + ", ".join(night.groups)
                )
        return {(key, None): ranking}
    if key not in prizes:
        raise InvalidSetup(f"{key!r} is not a judged prize tonight", expected="one of " + names)
    if grouped and group not in night.groups:
        raise InvalidSetup(
            f"{prizes[key].label} is judged per group, and {group!r} is not one",
            expected='"group": one of ' + ", ".join(night.groups),
        )
    if not grouped and group is not None:
        raise InvalidSetup(
            f"tonight has no prize groups, so {prizes[key].label} names no group",
            expected="no group",
        )
    scope = night.groups[group] if group is not None else night.roster
    for name in ranking:
        if name not in scope:
            where = f"in {group}" if group is not None else "tonight"
            raise InvalidSetup(
                f"{name!r} is not a player {where}", expected="one of " + ", ".join(scope)
            )
    return {(key, group): ranking}


def break_on(night: HostedNight) -> Break | None:
    """The break under way, or None (the first roll or bell of a later round ends it)."""
    current = night.host.break_
    if current is None:
        return None
    if len(night.history) != current.rounds_played or (night.phase == "playing" and night.started):
        return None
    return current


def _begin_break(night: HostedNight, ev: BreakEvent) -> Break:
    if night.phase == "playing" and night.started:
        raise NotAllowedNow(
            f"round {night.round_no} is under way, so there can be no break now",
            expected="a break after the round ends",
        )
    if break_on(night) is not None:
        raise NotAllowedNow("a break is already under way", expected="end_break first")
    last = night.history[-1] if night.history else None
    return Break(
        minutes=ev.get("minutes"),
        # the time the server recorded (older logs: the event's "at")
        started_at=ev.get("started_at") or _recorded_at(ev.get("at")),
        after=None if last is None else (last.set_no, last.round_no),
        rounds_played=len(night.history),
    )


def _recorded_at(at: object) -> str | None:
    """The time an older log recorded a break at (its event's ``at``), as text; ``None``
    when it has none that reads as a time.

    >>> _recorded_at("2026-11-24T20:15:00+00:00"), _recorded_at(None), _recorded_at(10**5000)
    ('2026-11-24T20:15:00+00:00', None, None)
    """
    if isinstance(at, str):
        return at[:40]
    if isinstance(at, bool) or not isinstance(at, int | float):
        return None
    with contextlib.suppress(ValueError):  # no text for an integer of over 4,300 digits
        return str(at)
    return None


def present(night: HostedNight) -> tuple[str, ...]:
    """The players in the room: everyone with a score card, less those marked absent."""
    return tuple(p for p in night.roster if p not in night.host.absent)


def drawing_candidates(night: HostedNight, *, exclude_winners: bool) -> tuple[str, ...]:
    """Who may win a drawing now, in roster order: the players present, and with
    ``exclude_winners`` none who won an earlier drawing."""
    earlier = {d.winner for d in night.host.drawings} if exclude_winners else set()
    return tuple(p for p in present(night) if p not in earlier)


def _drawing(night: HostedNight, ev: DrawingEvent) -> Drawing:
    expected = drawing_candidates(night, exclude_winners=ev["exclude_winners"])
    if not expected:
        raise NotAllowedNow(
            "nobody is present to win a drawing",
            expected="a drawing once at least one player is present",
        )
    if tuple(ev["candidates"]) != expected:
        raise InvalidEvent(
            "the drawing's candidates are not the players who may win it now",
            expected="candidates " + ", ".join(expected) + ", in that order",
        )
    if ev["pick"] >= len(expected):
        raise InvalidEvent(
            f"pick {ev['pick']} is not a position among {len(expected)} candidates",
            expected=f"a whole number from 0 to {len(expected) - 1}",
        )
    if ev["winner"] != expected[ev["pick"]]:
        raise InvalidEvent(
            f"candidate {ev['pick']} is {expected[ev['pick']]}, not {ev['winner']}",
            expected=f"winner {expected[ev['pick']]}",
        )
    number = len(night.host.drawings) + 1
    return Drawing(
        name=ev.get("name") or f"Drawing {number}",
        candidates=expected,
        pick=ev["pick"],
        winner=ev["winner"],
        exclude_winners=ev["exclude_winners"],
        at=None if ev.get("at") is None else str(ev["at"]),
    )


def drawing_event(
    night: HostedNight,
    draw: Callable[[int], int],
    *,
    exclude_winners: bool = False,
    name: str | None = None,
) -> DrawingEvent:
    """The drawing event now: ``draw(n)`` picks a position from 0 to n - 1 among the
    candidates (the caller passes a cryptographic source such as ``secrets.randbelow``).

    Raises :class:`NotAllowedNow` when nobody may win, and never calls ``draw`` then.

    >>> from bunco.core.night import Night
    >>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea"]})
    >>> drawing_event(night, lambda n: n - 1)["winner"]
    'Bea'
    """
    candidates = drawing_candidates(night, exclude_winners=exclude_winners)
    if not candidates:
        raise NotAllowedNow(
            "nobody is present to win a drawing"
            + (" who has not won one already" if exclude_winners else ""),
            expected="a drawing once at least one such player is present",
        )
    pick = draw(len(candidates))
    if not 0 <= pick < len(candidates):
        raise ValueError(f"draw({len(candidates)}) gave {pick}, outside 0..{len(candidates) - 1}")
    event: DrawingEvent = {
        "type": "drawing",
        "candidates": list(candidates),
        "pick": pick,
        "winner": candidates[pick],
        "exclude_winners": exclude_winners,
    }
    if name:
        event["name"] = name
    return event


def host_report(night: HostedNight) -> HostReport:
    """The host's records for the report and the live view."""
    host = night.host
    current = break_on(night)
    return {
        "judged": [
            {"prize": key, "group": group, "ranking": list(ranking)}
            for (key, group), ranking in host.judged.items()
        ],
        "absent": [p for p in night.roster if p in host.absent],
        "must_be_present": presence_required(night),
        "break": None if current is None else current.as_dict(),
        "drawings": [d.as_dict() for d in host.drawings],
    }
