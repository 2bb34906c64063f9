"""Erasing a club member's personal data, the standings kept.

The logs are append-only for play: nothing a night or a club does ever changes a
stored event. Erasing a person is the one exception, and it changes as little as it
can: in the club's log and in the log of every night the club names, each event that
names the member is rewritten **in place** (same seq, same type, same dice, same
order) with the member's name replaced by another (``Former member 1``, the first such
name the club and its nights do not use), and the member's email and street address
are taken out of every event that holds them (a planned night's address too, when it
was the member's). The name goes out of everything else that holds it: the tokens
claimed under it, the nights' server options (bots), the tables' phone reports, and any
text that names the member (a correction's reason, a payment's note, a night's name).
The member's personal link stops working (an ``unlink`` is appended to the club's log).

Because every event keeps its meaning, each night folds to the same results under the
new name: before anything is stored, every rewritten night is folded with the rules
and its players' score cards, set winners and prizes are checked against the night's
before, the name replaced (:func:`same_results`); if any differs, nothing changes. The
club's standings are folded from the same nights, so they keep the member's row, under
the new name. What changes: the logs no longer say who that was, an exported party
log differs from the printed sheets in that name, and a night's ``digest`` in the
club's log (the log as it was added from a file) no longer matches it.

>>> from bunco.store import ClubStore, EventStore
>>> store = EventStore("sqlite://")
>>> store.upgrade()
>>> store.create_night("n1", "Ann's birthday", {"type": "party", "rules": "classic",
...                    "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> _ = store.append("n1", 1, table=1, command_id="c1",
...                  event={"type": "roll", "table": 1, "dice": [1, 1, 1]})
>>> clubs = ClubStore(store.engine)
>>> _ = clubs.create("c1", "Club", {"type": "club", "name": "Club"}, "secret")
>>> _ = clubs.record("c1", [{"type": "member", "name": "Ann", "role": "regular",
...                          "email": "ann@example.org"}, {"type": "night", "night": "n1"}], 0)
>>> done = erase_member(store.engine, "c1", "ann")
>>> done.replacement, done.nights, done.events
('Former member 1', ['n1'], 1)
>>> clubs.events("c1")[1]
{'type': 'member', 'name': 'Former member 1', 'role': 'regular'}
>>> store.events("n1")[0].event["players"], store.night("n1").name
(['Former member 1', 'Bea', 'Cat', 'Dee'], "Former member 1's birthday")
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from sqlalchemy import Connection, Engine, text

from bunco.core.errors import BuncoError
from bunco.core.names import name_key
from bunco.core.night import Night
from bunco.store.deletion import DeletionError, announce, club_nights, lock_nights
from bunco.store.events import dump
from bunco.store.json_values import JsonObject, JsonValue

PSEUDONYM = "Former member {}"
CONTACT_KEYS = ("email", "address")
PERSON_KEYS = ("player", "host", "in", "out", "winner")
"""The keys whose value may be a person's name, as events write them (and ``name`` in a
club's ``member``, ``leave_club`` and ``rsvp``; elsewhere ``name`` names a night, a
drawing or a co-host's label)."""
NAMED_EVENTS = ("member", "leave_club", "rsvp")

ClubCheck = Callable[[list[JsonObject], list[JsonObject]], None]
"""Called with the club's log before and after the erasure (in its transaction):
raises to refuse it (the command line folds both with the club's rules)."""


@dataclass
class Erasure:
    """What :func:`erase_member` changed."""

    name: str
    replacement: str
    nights: list[str] = field(default_factory=list)
    events: int = 0
    club_events: int = 0
    appended: list[JsonObject] = field(default_factory=list)
    tokens: int = 0


class Scrubber:
    """Replaces a person's spellings in any JSON value: a string that is the name
    becomes the replacement, and the name as a word inside a longer text too; an
    event's ``type`` is never touched, nor the names of other people (``keep``), even
    where they hold the name as a word.

    >>> s = Scrubber({"Ann"}, "Former member 1", keep={"Ann Marie", "Bea"})
    >>> s.value({"type": "roll", "player": "Ann", "reason": "Ann's roll, not Anne's"})
    {'type': 'roll', 'player': 'Former member 1', 'reason': "Former member 1's roll, not Anne's"}
    >>> s.value({"scores": {"Ann": 3, "Ann Marie": 1}, "note": "Ann and Ann Marie"})
    {'scores': {'Former member 1': 3, 'Ann Marie': 1}, 'note': 'Former member 1 and Ann Marie'}
    """

    def __init__(
        self, spellings: Iterable[str], replacement: str, keep: Iterable[str] = ()
    ) -> None:
        self.spellings = frozenset(spellings)
        self.replacement = replacement
        self.keep = frozenset(keep) - self.spellings
        words = [re.compile(rf"(?<!\w){re.escape(s)}(?!\w)") for s in self.spellings]
        # another person's name that holds the name as a word is matched whole, and kept
        holding = {k for k in self.keep if any(w.search(k) for w in words)}
        alternatives = sorted(self.spellings | holding, key=len, reverse=True)
        self.pattern = re.compile(
            r"(?<!\w)(?:" + "|".join(re.escape(a) for a in alternatives) + r")(?!\w)"
        )

    def _word(self, match: re.Match[str]) -> str:
        return self.replacement if match.group(0) in self.spellings else match.group(0)

    def object(self, value: JsonObject) -> JsonObject:
        """The JSON object ``value`` with the name replaced (an event's ``type`` kept)."""
        return {
            (self.replacement if k in self.spellings else k): (v if k == "type" else self.value(v))
            for k, v in value.items()
        }

    def value(self, value: JsonValue) -> JsonValue:
        """The JSON value ``value`` with the name replaced."""
        if isinstance(value, str):
            if value in self.spellings:
                return self.replacement
            if value in self.keep or not self.spellings:
                return value
            return self.pattern.sub(self._word, value)
        if isinstance(value, list):
            return [self.value(v) for v in value]
        if isinstance(value, dict):
            return self.object(value)
        return value


def _strings(value: JsonValue) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)


def _people(events: Iterable[JsonObject]) -> set[str]:
    """Every name of a person ``events`` write: a night's players, members, and the
    values of a person's fields."""
    found: set[str] = set()
    for event in events:
        players = event.get("players")
        if event.get("type") == "party" and isinstance(players, list):
            found |= {p for p in players if isinstance(p, str)}
        found |= {v for k in PERSON_KEYS if isinstance(v := event.get(k), str)}
        if event.get("type") in NAMED_EVENTS and isinstance(named := event.get("name"), str):
            found.add(named)
        if event.get("type") == "link" and event.get("for") == "member":
            subject = event.get("subject", "")
            found.add(subject if isinstance(subject, str) else "")
    return found


def _results(night: Night) -> JsonValue:
    """What a night's standings are made of, as plain JSON values: the phase and round
    it is at, its number of events, every player's score card, the set winners and the
    prizes."""
    value = {
        "phase": night.phase,
        "at": [night.set_no, night.round_no],
        "events": len(night.events),
        "cards": {name: dataclasses.asdict(card) for name, card in night.cards.items()},
        "sets": [dataclasses.asdict(r) for r in night.set_results],
        "prizes": [dataclasses.asdict(p) for p in night.prizes],
    }
    parsed: JsonValue = json.loads(json.dumps(value, default=str))
    return parsed


def _fold(night_id: str, bodies: list[JsonObject]) -> Night:
    night = Night.start(bodies[0])
    for body in bodies[1:]:
        night = night.apply(body)
    return night


def same_results(
    night_id: str, before: list[JsonObject], after: list[JsonObject], scrub: Scrubber
) -> None:
    """Refuse (:class:`DeletionError`) a rewritten night that does not fold to the same
    results as before, the name replaced: score cards, set winners, prizes, phase."""
    try:
        old, new = _fold(night_id, before), _fold(night_id, after)
    except BuncoError as exc:
        raise DeletionError(
            f"night {night_id} does not fold with the name replaced ({exc.message})",
            expected="another name for the member: --as NAME",
        ) from None
    same = scrub.value(_results(old)) == _results(new)
    if not same:
        raise DeletionError(
            f"night {night_id} would not keep its results with the name replaced",
            expected="another name for the member: --as NAME",
        )


def erase_member(
    engine: Engine,
    club_id: str,
    name: str,
    *,
    replacement: str | None = None,
    check: ClubCheck | None = None,
) -> Erasure:
    """Erase the member ``name`` (any spelling the club would take for it) of the club:
    see the module. Raises :class:`DeletionError` (nothing changed) for no such club or
    member, a ``replacement`` the club or its nights already use, or a night whose
    results would change."""
    key = name_key(name)
    with engine.begin() as conn:
        # the club's row first: its writers wait (and a command decided on the log as it
        # was is refused if an ``unlink`` is added: the club's seq moves)
        conn.execute(text("UPDATE clubs SET seq = seq WHERE id = :club"), {"club": club_id})
        club_rows = _rows(conn, "SELECT seq, body FROM club_events WHERE club_id = :o", club_id)
        if not club_rows:
            raise DeletionError(
                f"there is no club {club_id!r}", expected="a club's id or name (bunco club show)"
            )
        club_log = [body for _, body in club_rows]
        spellings = {
            named
            for e in club_log
            if e.get("type") == "member"
            and isinstance(named := e.get("name"), str)
            and name_key(named) == key
        }
        if not spellings:
            raise DeletionError(
                f"{name!r} is not a member of this club, nor was one",
                expected="a member's name as bunco club show lists it",
            )
        nights = [n for n in club_nights(conn, club_id)]
        lock_nights(conn, nights)
        logs = {
            n: _rows(conn, "SELECT seq, body FROM events WHERE night_id = :o", n) for n in nights
        }
        taken = {name_key(s) for e in club_log for s in _strings(e)}
        for rows in logs.values():
            taken |= {name_key(s) for _, b in rows for s in _strings(b)}
        replacement = _replacement(replacement, taken - {key})
        done = Erasure(sorted(spellings)[0], replacement)
        _erase_club(conn, club_id, club_rows, spellings, replacement, done, check)
        for night_id, rows in logs.items():
            if rows:
                _erase_night(conn, night_id, rows, spellings, replacement, done)
        announce(conn, "t", done.nights)
        announce(conn, "r", done.nights)
    return done


def _rows(conn: Connection, query: str, owner: str) -> list[tuple[int, JsonObject]]:
    found = conn.execute(text(query + " ORDER BY seq"), {"o": owner}).all()
    return [(int(seq), _object(body)) for seq, body in found]


def _object(text: str | None) -> JsonObject:
    """A stored JSON object (a body, options, a report; ``None``: an empty one)."""
    parsed: JsonObject = json.loads(text or "{}")
    return parsed


def _replacement(wanted: str | None, taken: set[str]) -> str:
    if wanted is not None:
        if name_key(wanted) in taken:
            raise DeletionError(
                f"{wanted!r} is a name the club or its nights already use",
                expected="a name nobody of the club uses",
            )
        return wanted
    number = 1
    while name_key(PSEUDONYM.format(number)) in taken:
        number += 1
    return PSEUDONYM.format(number)


def _erase_club(
    conn: Connection,
    club_id: str,
    rows: list[tuple[int, JsonObject]],
    spellings: set[str],
    replacement: str,
    done: Erasure,
    check: ClubCheck | None,
) -> None:
    scrub = Scrubber(spellings, replacement, keep=_people(e for _, e in rows))
    addresses = {
        e["address"]
        for _, e in rows
        if e.get("type") == "member" and e.get("name") in spellings and e.get("address")
    }
    links: dict[tuple[str, str], str] = {}
    after = []
    for seq, event in rows:
        new = dict(event)
        if (event.get("type") == "member" and event.get("name") in spellings) or (
            event.get("type") == "plan" and event.get("address") in addresses
        ):
            for contact in CONTACT_KEYS if event.get("type") == "member" else ("address",):
                new.pop(contact, None)
        new = scrub.object(new)
        if event.get("type") == "link":
            kept = (str(event.get("for")), str(new.get("subject")))
            links = {k: h for k, h in links.items() if k != kept}
            links[kept] = str(event["hash"])
        elif event.get("type") == "unlink":
            links = {k: h for k, h in links.items() if h != event.get("hash")}
        after.append(new)
        if new != event:
            done.club_events += 1
            conn.execute(
                text("UPDATE club_events SET body = :body WHERE club_id = :club AND seq = :seq"),
                {"body": dump(new), "club": club_id, "seq": seq},
            )
    live = links.get(("member", replacement))
    if live is not None:
        done.appended.append({"type": "unlink", "hash": live})
    if check is not None:
        check([e for _, e in rows], after + done.appended)
    for number, event in enumerate(done.appended, rows[-1][0] + 1):
        conn.execute(
            text(
                "INSERT INTO club_events (club_id, seq, body, created_at) "
                "VALUES (:club, :seq, :body, CURRENT_TIMESTAMP)"
            ),
            {"club": club_id, "seq": number, "body": dump(event)},
        )
    if done.appended:
        conn.execute(
            text("UPDATE clubs SET seq = :seq WHERE id = :club"),
            {"club": club_id, "seq": rows[-1][0] + len(done.appended)},
        )


def _erase_night(
    conn: Connection,
    night_id: str,
    rows: list[tuple[int, JsonObject]],
    club_spellings: set[str],
    replacement: str,
    done: Erasure,
) -> None:
    bodies = [b for _, b in rows]
    key = name_key(next(iter(club_spellings)))
    people = _people(bodies)
    spellings = club_spellings | {p for p in people if name_key(p) == key}
    scrub = Scrubber(spellings, replacement, keep=people)
    after = [scrub.object(b) for b in bodies]
    changed = [(seq, new) for (seq, old), new in zip(rows, after, strict=True) if new != old]
    if not changed:
        return
    same_results(night_id, bodies, after, scrub)
    done.nights.append(night_id)
    done.events += len(changed)
    for seq, new in changed:
        conn.execute(
            text("UPDATE events SET body = :body WHERE night_id = :night AND seq = :seq"),
            {"body": dump(new), "night": night_id, "seq": seq},
        )
    night = conn.execute(
        text("SELECT name, options FROM nights WHERE id = :night"), {"night": night_id}
    ).first()
    if night is not None:
        options = dump(scrub.object(_object(night.options)))
        conn.execute(
            text("UPDATE nights SET name = :name, options = :options WHERE id = :night"),
            {"name": scrub.value(night.name), "options": options, "night": night_id},
        )
    done.tokens += int(
        conn.execute(
            text(
                "UPDATE tokens SET player = :new WHERE night_id = :night AND player IN "
                "(" + ", ".join(f":p{i}" for i in range(len(spellings))) + ")"
            ),
            {"new": replacement, "night": night_id}
            | {f"p{i}": s for i, s in enumerate(sorted(spellings))},
        ).rowcount
    )
    reports = conn.execute(
        text("SELECT table_no, report FROM phone_reports WHERE night_id = :night"),
        {"night": night_id},
    ).all()
    for table_no, report in reports:
        new_report = dump(scrub.object(_object(report)))
        if new_report != report:
            conn.execute(
                text(
                    "UPDATE phone_reports SET report = :report "
                    "WHERE night_id = :night AND table_no = :table"
                ),
                {"report": new_report, "night": night_id, "table": table_no},
            )
