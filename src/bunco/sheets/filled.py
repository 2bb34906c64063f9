"""The sheets of a played night, filled in as the players and the host would by hand.

:func:`filled_sheets_pdf` prints, from a folded night: the master score sheet of every
set (``W`` per round won and a ``B`` per Bunco, with the set's winner) or, where the
rules name no set winner, the host's sheet (``W``/``L`` per round and the set's counts);
the night's standings with the prizes; every player's score card; and every table's
tally, round by round (points of each scoring turn, totals, winners).

>>> from bunco.core.party_log import read_log
>>> night = read_log(['{"type": "party", "rules": "wm", "players": ["Ann", "Bea"]}',
...                   '{"type": "roll", "table": 1, "dice": [1, 1, 1]}'])
>>> filled_sheets_pdf(night)[:5]
b'%PDF-'
"""

from __future__ import annotations

from collections.abc import Sequence

from bunco.core.night import Night
from bunco.core.round_results import RoundResult, TableResult
from bunco.core.rules import RuleSet
from bunco.core.seating_partners import PARTNER_RULE, kept_words, partners_kept
from bunco.core.verification import card_final
from bunco.party.night_report import night_title, progress
from bunco.party.sheets import RoundLine, master_sheet, round_buncos, round_lines, table_tally
from bunco.party.standings import standings
from bunco.sheets.cards import (
    CardData,
    CardSet,
    blank_set,
    cards_per_page,
    draw_cards,
    per_page,
    spare_card,
)
from bunco.sheets.master import (
    SheetTable,
    draw_sheet_tables,
    has_set_winner,
    master_groups,
    master_headers,
    master_title,
    standings_headers,
)
from bunco.sheets.pdfkit import Doc, Rendered
from bunco.sheets.tallies import TallyBlock, TallyColumn, TallyPage, draw_tally_pages
from bunco.sheets.wording import (
    LOSS,
    THEM,
    US,
    WIN,
    head_table_text,
    minis_header,
    tie_broken_text,
)

SETTLED = {
    "wins": "most W's",
    "buncos": "most B's among those tied on W's",
    "roll_off": "a roll-off",
    "pending_roll_off": "a roll-off still to be rolled",
}


def _names(names: Sequence[str | None]) -> str:
    return " & ".join(n if n is not None else "ghost" for n in names)


def _kept(night: Night, name: str) -> dict[tuple[int, int], str]:
    """(set, round) → the partner ``name`` kept for that round by a host's seating that
    overrode the partner rule (``"overrides": ["no_repeat_partners"]``)."""
    out: dict[tuple[int, int], str] = {}
    for when, pairs in partners_kept(night.changes).items():
        for a, b in pairs:
            if name in (a, b):
                out[when] = b if a == name else a
    return out


def kept_note(kept: dict[int, str]) -> str:
    """A set's note on a card: round → partner kept by the host.

    >>> kept_note({2: "Cat"})
    '* Round 2: partner Cat kept by the host (overriding no_repeat_partners)'
    """
    if not kept:
        return ""
    if len(kept) == 1:
        ((r, partner),) = kept.items()
        return f"* Round {r}: partner {partner} kept by the host (overriding {PARTNER_RULE})"
    rounds = ", ".join(f"round {r} ({kept[r]})" for r in sorted(kept))
    return f"* Partners kept by the host (overriding {PARTNER_RULE}): {rounds}"


def _card(night: Night, name: str, lines: list[RoundLine]) -> CardData:
    sets = []
    kept = _kept(night, name)
    for set_no in range(1, night.sets + 1):
        mine = {line.round_no: line for line in lines if line.set_no == set_no}
        if not mine:
            sets.append(blank_set(set_no))
            continue
        rows: list[tuple[str, ...]] = []
        for r in range(1, 7):
            line = mine.get(r)
            if line is None:
                rows.append((str(r), "", "", "", "", ""))
                continue
            rows.append(
                (
                    f"{r}*" if (set_no, r) in kept else str(r),
                    str(line.table),
                    WIN if line.won else LOSS,
                    str(line.buncos) if line.buncos else "",
                    str(line.minis) if line.minis else "",
                    str(line.points),
                )
            )
        won = sum(line.won for line in mine.values())
        total = (
            "Total",
            "",
            f"{won} / {len(mine) - won}",
            str(sum(line.buncos for line in mine.values())),
            str(sum(line.minis for line in mine.values())),
            str(sum(line.points for line in mine.values())),
        )
        note = kept_note({r: who for (k, r), who in kept.items() if k == set_no})
        sets.append(CardSet(set_no, rows, total, note))
    card = night.cards[name]
    summary = (
        f"Night: {card.wins} {WIN} · {card.losses} {LOSS} · {card.buncos} Buncos · "
        f"{card.minis} {minis_header(night.rules)} · {card.points} points"
    )
    holds = night.rules.traveling != "off" and night.traveler == name
    group = next((g for g, members in night.groups.items() if name in members), "")
    seen = night.verifications.get(name)
    checked = "" if seen is None or not card_final(night, name) else (seen.checker or "✓")
    return CardData(
        player=name,
        sets=sets,
        night=summary,
        traveler="✓" if holds else "",
        group=group,
        verified=checked,
    )


def _block(result: TableResult, round_no: int, rules: RuleSet) -> TallyBlock:
    tally = table_tally(result)
    totals = [str(t) for t in tally["totals"]]
    tb = result.tie_break
    tied = {s for seats in tb["tied"] for s in seats} if tb else set()

    def tie(side: int, seats: Sequence[int]) -> str:
        return str(tb["points"][side]) if tb and tied & set(seats) else ""

    if tally["team"]:
        seats = result.seats
        columns = [
            TallyColumn(
                US,
                _names([seats[0], seats[2]]),
                tuple(str(p) for p in tally["us"] if p),
                totals[0],
                tie(0, (0, 2)),
            ),
            TallyColumn(
                THEM,
                _names([seats[1], seats[3]]),
                tuple(str(p) for p in tally["them"] if p),
                totals[1],
                tie(1, (1, 3)),
            ),
        ]
    else:
        columns = [
            TallyColumn(
                col,
                f"seat {i + 1}",
                tuple(str(p) for p in tally["turns"][col] if p),
                totals[i],
                tie(i, (i,)),
            )
            for i, col in enumerate(tally["columns"])
        ]
    winners = [w for w in result.winners if w is not None]
    word = "Winners" if len(winners) != 1 else "Winner"
    footer = f"{word}: {_names(winners)}"
    if tb:
        footer += f" ({tie_broken_text(rules, tb['rule'])})"
    return TallyBlock(f"Round {round_no}: roll {round_no}s", columns, footer=footer, lines=12)


def _tally_pages(night: Night, title: str) -> list[TallyPage]:
    by_set: dict[int, list[RoundResult]] = {}
    for rnd in night.history:
        by_set.setdefault(rnd.set_no, []).append(rnd)
    pages = []
    for set_no, rounds in by_set.items():
        n_tables = max(len(x.tables) for x in rounds)
        by_round = {x.round_no: x for x in rounds}
        for k in range(1, n_tables + 1):
            blocks = []
            for r in range(1, 7):
                played = by_round.get(r)
                if played is None or k > len(played.tables):
                    blocks.append(TallyBlock(f"Round {r}", [], footer="not played"))
                else:
                    blocks.append(_block(played.tables[k - 1], r, night.rules))
            head = ""
            if k == 1 and n_tables > 1:
                team = rounds[0].tables[0].team
                target = night.rules.target(team=team, single_table=False)
                head = head_table_text(night.rules, target, team)
            pages.append(TallyPage(f"Table {k} tally", f"{title} · set {set_no}", blocks, head))
    return pages


def _set_numbers(night: Night) -> list[int]:
    played = sorted({r.set_no for r in night.history})
    return played or [1]


def _master_tables(night: Night) -> list[SheetTable]:
    rules = night.rules
    heads, widths = master_headers(rules)
    out = []
    buncos = round_buncos(night)
    lines = round_lines(night)
    for set_no in _set_numbers(night):
        after: list[str] = []
        if has_set_winner(rules):
            rows = [
                (row["player"], *row["rounds"], str(row["wins"]), str(row["buncos"]))
                for row in master_sheet(night, set_no)
            ]
            result = next((s for s in night.set_results if s.set_no == set_no), None)
            if result is not None:
                who = result.winner or "to be decided"
                after.append(f"Winner of set {set_no}: {who} (by {SETTLED[result.settled_by]})")
                if result.settled_by != "wins":
                    after.append("Tied on W's: " + ", ".join(result.tied_on_wins))
        else:
            rows = []
            for name in night.seated_in_set(set_no) or night.roster:
                mine = [line for line in lines[name] if line.set_no == set_no]
                marks = {
                    line.round_no: (
                        str(line.table),
                        (WIN if line.won else LOSS)
                        + "B" * buncos.get((set_no, line.round_no, name), 0),
                    )
                    for line in mine
                }
                won = sum(line.won for line in mine)
                rows.append(
                    (
                        name,
                        *(cell for r in range(1, 7) for cell in marks.get(r, ("", ""))),
                        str(won),
                        str(len(mine) - won),
                        str(sum(line.buncos for line in mine)),
                        str(sum(line.minis for line in mine)),
                    )
                )
        after += [
            f"* Round {r}: {kept_words(pairs)}"  # a host's seating that broke the rule
            for (k, r), pairs in sorted(partners_kept(night.changes).items())
            if k == set_no
        ]
        out.append(
            SheetTable(
                master_title(rules, set_no),
                night_title(night),
                heads,
                widths,
                rows,
                after,
                groups=master_groups(rules),
                landscape=not has_set_winner(rules),
            )
        )
    return out


def _prize_lines(night: Night) -> list[str]:
    out = []
    for prize in night.prizes:
        label = prize.label + (f" ({prize.group})" if prize.group else "")
        figure = f" [{prize.value}]" if prize.value else ""
        if prize.winners:
            how = (
                " (shared)"
                if prize.settled_by == "shared"
                else (" (after a roll-off)" if prize.settled_by == "roll_off" else "")
            )
            out.append(f"{label}{figure}: {', '.join(prize.winners)}{how}")
        elif prize.candidates:
            out.append(f"{label}{figure}: roll-off due between {', '.join(prize.candidates)}")
        else:
            out.append(f"{label}: nobody")
    if night.phase != "over":
        out.append(f"Where the night stands: {progress(night)}.")
    return out


def standing_rows(night: Night) -> list[tuple[str, ...]]:
    """The standings as printed, one row of text per player: rank, player, W, L, Buncos,
    the round's minis, points and prizes (the filled sheet's and the night report's)."""
    return [
        (
            str(s.rank),
            s.player,
            str(s.wins),
            str(s.losses),
            str(s.buncos),
            str(s.minis),
            str(s.points),
            "; ".join(s.prizes),
        )
        for s in standings(night)
    ]


def standings_table(night: Night) -> SheetTable:
    heads, widths = standings_headers(night.rules)
    rows = standing_rows(night)
    align = ("center", "left", "center", "center", "center", "center", "center", "left")
    return SheetTable(
        "Standings", night_title(night), heads, widths, rows, _prize_lines(night), align
    )


def render_filled(night: Night, *, paper: str = "letter") -> Rendered:
    """The filled sheets and their page count (see :func:`filled_sheets_pdf`)."""
    title = night_title(night)
    doc = Doc(paper, title=f"{title}: sheets")
    draw_sheet_tables(doc, [*_master_tables(night), standings_table(night)])
    lines = round_lines(night)
    cards = [_card(night, name, lines[name]) for name in night.roster]
    if 1 in cards_per_page(len(cards), per_page(night.sets)):
        cards.append(spare_card(night.sets))  # never a page holding one card
    draw_cards(doc, cards, night.rules, f"{title} · {night.rules.name}")
    draw_tally_pages(doc, _tally_pages(night, title), title)
    pages = doc.pages
    return Rendered(doc.finish(), pages)


def filled_sheets_pdf(night: Night, *, paper: str = "letter") -> bytes:
    """Every sheet of ``night`` filled in: master/host sheets, standings, cards, tallies."""
    return render_filled(night, paper=paper).data
