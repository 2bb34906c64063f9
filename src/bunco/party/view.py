"""The live view: everything a live page needs now, and one table as it stands.

Field names here are promises to the pages and to people who script against the API.

>>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
>>> night = night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]})
>>> view = live_view(night)
>>> view["phase"], view["tables"][0]["team_scores"], view["expects"]
('playing', [2, 0], [{'table': 1, 'player': 'Ann'}])
>>> [(s["rank"], s["player"]) for s in view["standings"]]  # the ranking of GET /standings
[(1, 'Ann'), (1, 'Bea'), (1, 'Cat'), (1, 'Dee')]
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from bunco.core.dice import Tally, score_checked, score_rolloff, tally_dice
from bunco.core.errors import BuncoError
from bunco.core.hosting import host_report
from bunco.core.night import Night
from bunco.core.round_results import roll_fields
from bunco.core.rules import RollKind, RuleSet
from bunco.core.seating_confirm import waiting_tables
from bunco.core.seating_layout import is_team_table
from bunco.core.table import Status, TableRound
from bunco.core.verification import verification_report
from bunco.party.entry_projection import entry_projection
from bunco.party.night_report import (
    ended_early,
    next_round,
    seat_partners,
    seat_scores,
    table_result_dict,
)
from bunco.party.payouts import money_part
from bunco.party.shapes import (
    Expect,
    LastRound,
    LiveView,
    Move,
    NextWithPartners,
    NightPart,
    Seat,
    TablePage,
    TableView,
    Tap,
)
from bunco.party.standings import standings_rows
from bunco.party.words import night_words, result_text, tie_break_text, tie_why_text


def tally_buttons(rules: RuleSet) -> list[str]:
    """The quick tallies a scorekeeper's phone offers under ``rules``, in button order.

    >>> from bunco.core.presets import get_rules
    >>> tally_buttons(get_rules("classic")), tally_buttons(get_rules("wm"))[-2:]
    (['miss', '+1', '+2', 'bunco', 'mini'], ['low', 'high'])
    """
    same = (
        rules.low_trips_kind == rules.high_trips_kind
        and rules.low_trips_points == rules.high_trips_points
    )
    trips = [Tally.MINI] if same else [Tally.LOW, Tally.HIGH]
    wipeout = [Tally.WIPEOUT] if rules.wipeout else []
    return [t.value for t in (Tally.MISS, Tally.ONE, Tally.TWO, Tally.BUNCO, *trips, *wipeout)]


def possible_tallies(table: TableRound, rules: RuleSet) -> list[str]:
    """The quick tallies the engine accepts at ``table`` now: none while it rolls for high
    (the faces matter) or is settled; otherwise every button that can happen this round
    (no Low Bunco in round 1)."""
    if not _tallying(table):
        return []
    return list(_possible_in_round(rules, table.round_no))


def _tallying(table: TableRound) -> bool:
    """True when quick tallies are taken at ``table`` now (someone rolls for points)."""
    return not (table.roller is None or table.status is Status.FIRST_ROLL or table.rolling_for_high)


@lru_cache(maxsize=512)
def _possible_in_round(rules: RuleSet, round_no: int) -> tuple[str, ...]:
    out = []
    for outcome in tally_buttons(rules):
        try:
            tally_dice(outcome, round_no, rules)
        except BuncoError:
            continue
        out.append(outcome)
    return tuple(out)


ON_A_CARD = frozenset(RollKind) - {RollKind.MISS, RollKind.POINTS}
"""The kinds of roll that go on the roller's score card, so a phone asks "who rolled it?"."""

_KIND_WORDS = {RollKind.LOW_BUNCO: "Low Bunco", RollKind.HIGH_BUNCO: "High Bunco"}


def tap_label(outcome: str, rules: RuleSet) -> str:
    """The word on a tally button.

    >>> from bunco.core.presets import get_rules
    >>> [tap_label(t, get_rules("wm")) for t in tally_buttons(get_rules("wm"))]
    ['Miss', '+1', '+2', 'Bunco', 'Low Bunco', 'High Bunco']
    """
    if outcome == Tally.MINI:
        return rules.mini_label
    if outcome in (Tally.LOW, Tally.HIGH):
        kind = rules.low_trips_kind if outcome == Tally.LOW else rules.high_trips_kind
        return _KIND_WORDS.get(kind, rules.mini_label)
    return {Tally.MISS: "Miss", Tally.BUNCO: "Bunco", Tally.WIPEOUT: "Wipeout"}.get(
        Tally(outcome), outcome
    )


def tap_hint(outcome: str, round_no: int, rules: RuleSet) -> str:
    """The small words under a tally button in round ``round_no``: what the dice show and
    (for a three of a kind) the points it scores.

    >>> from bunco.core.presets import get_rules
    >>> tap_hint("bunco", 3, get_rules("classic")), tap_hint("miss", 3, get_rules("classic"))
    ('three 3s · 21', 'no 3s · dice pass')
    """
    r = round_no
    return {
        Tally.MISS: f"no {r}s · dice pass",
        Tally.ONE: f"one {r}",
        Tally.TWO: f"two {r}s",
        Tally.BUNCO: f"three {r}s · {rules.bunco_points}",
        Tally.MINI: f"3 of a kind · {rules.low_trips_points}",
        Tally.LOW: f"3 below {r} · {rules.low_trips_points}",
        Tally.HIGH: f"3 above {r} · {rules.high_trips_points}",
        Tally.WIPEOUT: "three 1s · team to 0",
    }[Tally(outcome)]


def taps(table: TableRound, rules: RuleSet) -> list[Tap]:
    """Every tally button of the night, as the phone draws it at ``table`` now:
    ``outcome``, ``label``, ``hint``, ``possible`` (the engine accepts it now) and
    ``asks_who`` (it goes on a score card: the phone asks who rolled it)."""
    return [tap.copy() for tap in _taps(rules, table.round_no, _tallying(table))]


@lru_cache(maxsize=512)
def _taps(rules: RuleSet, round_no: int, tallying: bool) -> tuple[Tap, ...]:
    """:func:`taps` of a table in round ``round_no`` (worked out once per rules, round and
    whether tallies are taken: the same for every table)."""
    possible = set(_possible_in_round(rules, round_no)) if tallying else set()
    out: list[Tap] = []
    for outcome in tally_buttons(rules):
        try:
            kind = score_checked(tally_dice(outcome, round_no, rules), round_no, rules).kind
        except BuncoError:
            kind = RollKind.MISS  # not possible this round (no Low Bunco in round 1)
        out.append(
            {
                "outcome": outcome,
                "label": tap_label(outcome, rules),
                "hint": tap_hint(outcome, round_no, rules),
                "possible": outcome in possible,
                "asks_who": kind in ON_A_CARD,
            }
        )
    return tuple(out)


def asks_who_faces(table: TableRound, rules: RuleSet) -> list[int]:
    """The faces whose three of a kind, typed in at ``table`` now, goes on a score card (so
    the phone asks who rolled it, as for the tally buttons): none while it rolls for high
    or is not playing; in a tie-break only the round's Bunco counts."""
    if not _tallying(table):
        return []
    return list(_asks_who(rules, table.round_no, table.status is Status.TIE_BREAK))


@lru_cache(maxsize=512)
def _asks_who(rules: RuleSet, round_no: int, tie_break: bool) -> tuple[int, ...]:
    score = score_rolloff if tie_break else score_checked
    return tuple(f for f in range(1, 7) if score((f, f, f), round_no, rules).kind in ON_A_CARD)


def rotation(table: TableRound) -> list[str]:
    """Who rolls, turn after turn, from the roller now (a ghost's partner rolls for it):
    the order a "who rolled it?" question catches the tally up through. Empty unless the
    table is playing its round."""
    if table.status is not Status.PLAYING:
        return []
    seats, seat = [], table.turn
    for _ in table.seats:
        seats.append(table.roller_name(seat))
        seat = table.next_seat(seat)
    return seats


def table_view(table: TableRound, rules: RuleSet | None = None) -> TableView:
    """One table now, for a live page (with ``rules``: the tallies possible now).
    ``rolling_side`` is the side of the roller (0 or 1, "Us" or "Them", at a team table;
    the seat at a table of individuals), None when nobody rolls."""
    last = table.rolls[-1] if table.rolls else None
    tb = table.tie_break
    return {
        "table": table.number,
        "players": list(table.seats),
        "team": table.team,
        "target": table.target,
        "status": table.status.value,
        **seat_scores(table.seats, table.team, table.side_scores),
        "points": list(table.points),
        "turn": table.turn,
        "roller": table.roller,
        "rolling_side": table.side_of(table.turn) if table.roller is not None else None,
        "in_turn": table.in_turn,
        "first_roll": list(table.contenders) if table.contenders else None,
        "rolling_for_high": table.rolling_for_high,
        "tie_break": None
        if tb is None
        else {
            "rule": tb.rule.value,
            "sides": list(tb.sides),
            "points": list(tb.points),
            "session": tb.session,
            "text": tie_break_text(
                tb.rule.value,
                table.round_no,
                tb.session,
                rules.roll_off_target if rules is not None else 5,
                table.rolling_for_high,
            ),
            # what the rules do next, in words (0–0 too): the same sentence on every page
            "why": tie_why_text(
                tb.rule.value,
                table.side_scores[tb.sides[0]] if tb.sides else 0,
                table.team,
                table.round_no,
                rules.roll_off_target if rules is not None else 5,
                table.rolling_for_high,
            ),
        },
        "winners": [w for w in table.winners if w is not None],
        "result": None
        if table.status is not Status.DONE
        else result_text(  # how it was won
            [w for w in table.winners if w is not None],
            table.team,
            list(table.side_scores),
            None if tb is None else tb.rule.value,
            now=True,
        ),
        "rolls": len(table.rolls),
        "tallies": possible_tallies(table, rules) if rules is not None else None,
        "rotation": rotation(table),
        "taps": taps(table, rules) if rules is not None else None,
        "asks_who": asks_who_faces(table, rules) if rules is not None else None,
        "partners": seat_partners(table.seats, table.team),
        "last_roll": None if last is None else roll_fields(last),
    }


def on_break(night: Night) -> bool:
    """True between rounds after a round the rules break after (``breaks_after_rounds``)."""
    if night.started or night.phase != "playing" or not night.history:
        return False
    return night.history[-1].round_no in night.rules.breaks_after_rounds


def live_view(night: Night) -> LiveView:
    """Everything a live page needs now."""
    return {
        **night_part(night),
        "tables": [table_view(t, night.rules) for t in night.tables],
        "expects": [{"table": t, "player": p} for t, p in night.expected_rollers()],
        "players": {name: night.cards[name].as_dict() for name in night.roster},
        "standings": standings_rows(night),
        "seated": list(night.seated),
        "traveler": night.traveler,
        "last_bunco": night.last_bunco,
        "last_round": last_round(night),
        "next": next_with_partners(night),
        "moves": moves(night),
        **host_report(night),  # judged, absent, break, drawings (bunco.core.hosting)
        "verification": verification_report(night),  # who verified which card, who is awaited
        **money_part(night),  # awards, money, payouts, prize_winners, payout_notes
    }


def last_round(night: Night) -> LastRound | None:
    """The round played last: its set, number, each table's result and the roll that
    ended it; None before the first round ends."""
    if not night.history:
        return None
    last = night.history[-1]
    return {
        "set": last.set_no,
        "round": last.round_no,
        "tables": [table_result_dict(t) for t in last.tables],
        "ended_by": last.ended_by.as_dict() if last.ended_by else None,
    }


def next_with_partners(night: Night) -> NextWithPartners | None:
    """:func:`next_round` with each table's ``teams`` (whether it plays as two teams, as
    ``team`` in :func:`table_view`) and ``partners``."""
    upcoming = next_round(night)
    if upcoming is None:
        return None
    n = len(upcoming["tables"])
    teams = [is_team_table(len(t), n, night.rules) for t in upcoming["tables"]]
    return {
        **upcoming,
        "teams": teams,
        "partners": [
            seat_partners(t, team) for t, team in zip(upcoming["tables"], teams, strict=True)
        ],
    }


def moves(night: Night) -> list[Move]:
    """Who goes where after the last round: ``player``, ``result`` (W, L, or None for a
    player new tonight), ``from`` and ``to`` (``{table, seat}``; ``to`` is None for
    someone not seated next), in the order of the last round's tables; then late
    arrivals and substitutes seated now."""
    if not night.history:
        return []
    upcoming = next_round(night)
    seating = upcoming["tables"] if upcoming else [list(t.seats) for t in night.tables]
    now: dict[str, Seat] = {
        name: {"table": i, "seat": s}
        for i, players in enumerate(seating, start=1)
        for s, name in enumerate(players, start=1)
        if name is not None
    }
    out: list[Move] = []
    played = set()
    for res in night.history[-1].tables:
        for s, name in enumerate(res.seats, start=1):
            if name is None:
                continue
            played.add(name)
            out.append(
                {
                    "player": name,
                    "result": "W" if name in res.winners else "L",
                    "from": {"table": res.table, "seat": s},
                    "to": now.get(name),
                }
            )
    arrivals = sorted(
        (where["table"], where["seat"], name) for name, where in now.items() if name not in played
    )
    out += [
        {"player": name, "result": None, "from": None, "to": now[name]} for _, _, name in arrivals
    ]
    return out


def table_pages(night: Night, numbers: Iterable[int] | None = None) -> dict[int, TablePage]:
    """What the phones of each table draw now (see :func:`table_page`), by table number:
    every table in play, or those of ``numbers``. What the tables share (the night's part,
    the moves, the last round, who may roll) is worked out once for all of them.

    >>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
    >>> {n: page["table"]["players"] for n, page in table_pages(night).items()}
    {1: ['Ann', 'Bea', 'Cat', 'Dee']}
    """
    common = night_part(night)
    waits, confirmed = set(common["seating_waits"]), set(common["seating_confirmed"])
    here: dict[int, list[Move]] = {}
    for move in moves(night):  # each move under the table it leaves and the one it joins
        ends = {seat["table"] for seat in (move["from"], move["to"]) if seat is not None}
        for number in ends:
            here.setdefault(number, []).append(move)
    expects: dict[int | None, list[Expect]] = {}
    for t, p in night.expected_rollers():
        expects.setdefault(t, []).append({"table": t, "player": p})
    last = last_round(night)
    results = {r["table"]: r for r in last["tables"]} if last else {}
    pages: dict[int, TablePage] = {}
    for number in range(1, len(night.tables) + 1) if numbers is None else numbers:
        table = night.tables[number - 1] if 0 < number <= len(night.tables) else None
        went = here.get(number, [])
        names = {m["player"] for m in went} | {p for p in (table.seats if table else ()) if p}
        pages[number] = {
            **common,
            # this table's own seating only: one table's confirmation changes its page alone
            "seating_waits": [number] if number in waits else [],
            "seating_confirmed": [number] if number in confirmed else [],
            "table": table_view(table, night.rules) if table is not None else None,
            # what each entry does in the table's round: the page counts its entries not
            # sent yet with it (sent with the page, so once a round, not with every roll)
            "projection": None
            if table is None
            else entry_projection(
                night.rules, table.round_no, _possible_in_round(night.rules, table.round_no)
            ),
            "expects": [*expects.get(None, []), *expects.get(number, [])],
            "last_round": None
            if last is None
            else {**last, "tables": [results[number]] if number in results else []},
            "moves": went,
            "cards": {
                name: night.cards[name].as_dict() for name in sorted(names) if name in night.cards
            },
        }
    return pages


_PAGE_OBJECTS = (
    "seating",
    "tables",
    "bell_roll",
    "history",
    "cards",
    "set_results",
    "rolloff",
    "rolloff_for",
    "prizes",
    "changes",
)


def same_pages(before: Night, after: Night) -> bool:
    """True when no table's page can differ between ``before`` and ``after``: the parts of
    the night the pages show are the very same objects (the engine shares what an event
    leaves alone), as after a card verification or a player marked absent.

    >>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
    >>> same_pages(night, night.apply({"type": "present", "player": "Ann", "present": False}))
    True
    >>> same_pages(night, night.apply({"type": "roll", "table": 1, "dice": [1, 1, 4]}))
    False
    """
    scalars = (
        "set_no",
        "round_no",
        "phase",
        "bell",
        "started",
        "sets",
        "rung_in",
        "seated_tables",
        "unseated",
    )
    return all(getattr(before, f) == getattr(after, f) for f in scalars) and all(
        getattr(before, f) is getattr(after, f) for f in _PAGE_OBJECTS
    )


def table_page(night: Night, number: int) -> TablePage:
    """What a table's phone (and the phone of a player at that table) draws now: the
    night's phase, set, round, bell and roll-off as in :func:`live_view`; ``table``, the
    :func:`table_view` of table ``number`` (None when it is not in play); ``projection``,
    what each entry does in its round there
    (:func:`~bunco.party.entry_projection.entry_projection`, None when it is not in play);
    ``expects``, who may roll there (or in a roll-off); ``last_round`` with this table's
    result only;
    ``moves``, where the players who were here go and who comes here; ``cards``, the score
    cards of everyone in ``moves`` and at the table now; and ``prizes`` and
    ``set_winners``. A few kilobytes, where :func:`live_view` grows with the night.

    >>> night = Night.start({"rules": "classic", "players": ["Ann", "Bea", "Cat", "Dee"]})
    >>> page = table_page(night.apply({"type": "roll", "table": 1, "dice": [1, 1, 1]}), 1)
    >>> page["table"]["team_scores"], page["expects"], sorted(page["cards"])
    ([21, 0], [{'table': 1, 'player': 'Ann'}], ['Ann', 'Bea', 'Cat', 'Dee'])
    """
    return table_pages(night, [number])[number]


def player_tables(night: Night) -> dict[str, int]:
    """The table whose page each player's phone shows, by player: where the player sits
    in the round in play, else (between sets, before the next set's tables are in play)
    where they sit next. Players sitting out are missing, and so is everyone once the
    night is over (their phones show the whole night).

    >>> night = Night.start({"rules": "classic", "players": [f"P{i}" for i in range(1, 9)]})
    >>> tables = player_tables(night)
    >>> sorted(set(tables.values())), len(tables)
    ([1, 2], 8)
    """
    if night.phase == "over":
        return {}
    seating = [t.seats for t in night.tables] if night.tables else night.seating
    return {
        name: number
        for number, seats in enumerate(seating, start=1)
        for name in seats
        if name is not None
    }


def night_part(night: Night) -> NightPart:
    """The members of :func:`live_view` that every page shows alike: phase, set, round,
    bell, roll-off, prizes, set winners."""
    part: NightPart = {
        "phase": night.phase,
        "set": night.set_no,
        "round": night.round_no,
        "sets": night.sets,
        "rules": night.setup["rules"],
        "words": night_words(night.rules),
        "bell": night.bell,
        "bell_roll": night.bell_roll.as_dict() if night.bell_roll else None,
        "started": night.started,
        # the tables where the round has not begun (their players moving: each confirms its
        # new seating, or the head table's bell begins it everywhere), and those confirmed
        "seating_waits": list(waiting_tables(night)),
        "seating_confirmed": sorted(night.seated_tables),
        "on_break": on_break(night),
        "rolloff": night.rolloff.as_dict() if night.rolloff else None,
        "prizes": [p.as_dict() for p in night.prizes],
        "set_winners": [
            {"set": s.set_no, "winner": s.winner, "settled_by": s.settled_by}
            for s in night.set_results
        ],
        "ended_early": ended_early(night),
        "closed": night.closed,  # the host closed the night: results final, else provisional
        "corrections": len(night.corrections),  # how many (the audit list: GET .../corrections)
    }
    # timed rounds (house rule ``round_minutes``): the round's clock (None until it starts)
    if night.rules.round_minutes:
        part["clock"] = night.clock.as_dict() if night.clock else None
    return part
