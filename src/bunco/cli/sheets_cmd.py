"""``bunco sheets``, ``bunco report`` and ``bunco export``: the night on paper and as files.

- ``bunco sheets --rules P --players N [--names FILE] --out sheets.pdf``: blank sheets;
- ``bunco sheets --from night.jsonl --out filled.pdf``: a played night's sheets, filled in;
- ``bunco report night.jsonl --out report.html [--out report.pdf]``: the night report;
- ``bunco export night.jsonl [--out standings.csv]``: the standings as CSV.

The heavy libraries (ReportLab, matplotlib) are imported only when a command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, TypedDict

import typer

from bunco.cli.app import app, console, fail, parse_house_rules, print_json, refusals
from bunco.cli.checks import check_player_count, check_sets
from bunco.cli.replay_cmd import load_night
from bunco.cli.rules_cmd import HouseOption

JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
PaperOption = Annotated[str, typer.Option("--paper", help="Paper size: letter or a4.")]


def read_names(path: Path) -> list[str]:
    """Player names from a text file: one a line; blank lines and ``#`` comments skipped."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", expected="a text file with one name a line")
    except UnicodeDecodeError:
        fail(f"{path} is not UTF-8 text", expected="a text file with one name a line")
    names = [" ".join(line.split()) for line in text.splitlines()]
    return [n for n in names if n and not n.startswith("#")]


def read_groups(path: Path, names: list[str]) -> dict[str, list[str]]:
    """The prize groups of a text file, a line each ("Team 1: Ann, Bea"), checked against
    the names (each in one group)."""
    from bunco.core.errors import InvalidSetup
    from bunco.play.money_setup import parse_group_lines

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(
            f"cannot read {path}: {exc}",
            expected="a text file of groups, a line each: 'Team 1: Ann, Bea'",
        )
    try:
        return parse_group_lines(text, names)
    except InvalidSetup as exc:
        fail(f"{path}: {exc.message}", expected=exc.expected)


def write_file(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path``, or exit with a clear error."""
    try:
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_bytes(data)
    except OSError as exc:
        fail(
            f"cannot write {path}: {exc.strerror}",
            expected="a file path in an existing folder you may write to",
        )


def _player_list(players: int | None, names_file: Path | None) -> list[str]:
    names = read_names(names_file) if names_file is not None else None
    if names is not None:
        if players is not None and players != len(names):
            fail(
                f"{names_file} has {len(names)} names but --players is {players}",
                expected=f"{players} names in the file, or --players {len(names)}, or no --players",
            )
        return names
    if players is None:
        fail("no players given", expected="--players N (blank name lines) or --names FILE")
    return [""] * players


@app.command("sheets")
def sheets_command(
    out: Annotated[Path, typer.Option("--out", "-o", metavar="FILE", help="The PDF to write.")],
    rules_name: Annotated[
        str | None,
        typer.Option(
            "--rules",
            "-r",
            metavar="PRESET",
            help="Preset for blank sheets: winning-moves, classic, scil, tournament.",
        ),
    ] = None,
    players: Annotated[
        int | None,
        typer.Option("--players", "-n", metavar="N", help="Number of players (blank sheets)."),
    ] = None,
    names: Annotated[
        Path | None,
        typer.Option("--names", help="A text file of player names, one a line, in seating order."),
    ] = None,
    house: HouseOption = None,
    sets: Annotated[
        int, typer.Option("--sets", metavar="N", help="Sets of six rounds: 1 to 4.")
    ] = 1,
    qr: Annotated[
        str | None,
        typer.Option(
            "--qr",
            help="A URL for the QR code on the house-rules card, e.g. the night's page "
            "from `bunco serve`.",
        ),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", help="The night's name.")] = None,
    from_log: Annotated[
        Path | None, typer.Option("--from", help="A party log: print its sheets filled in.")
    ] = None,
    spares: Annotated[
        int | None,
        typer.Option(
            "--spares",
            help="At least this many spare score cards for late arrivals (the last "
            "page of cards is always filled with spares).",
        ),
    ] = None,
    name_tags: Annotated[
        bool, typer.Option("--name-tags", help="Add name tags, eight to a page.")
    ] = False,
    groups_file: Annotated[
        Path | None,
        typer.Option(
            "--groups",
            metavar="FILE",
            help="Prize groups (teams), a line each: 'Team 1: Ann, "
            "Bea, Cat'; their names go on the score cards (with --names).",
        ),
    ] = None,
    payouts: Annotated[
        bool,
        typer.Option(
            "--payouts", help="With --from: the prize and payout sheet, filled from the night."
        ),
    ] = False,
    paper: PaperOption = "letter",
    as_json: JsonOption = False,
) -> None:
    """Print-ready score cards, tallies, master sheet, table signs, round cards and
    house-rules card (and name tags with --name-tags)."""
    if out.suffix.lower() != ".pdf":
        fail(
            f"--out {out}: bunco sheets writes a PDF",
            expected="a file ending in .pdf, e.g. --out sheets.pdf",
        )
    check_sets(sets)
    if players is not None:
        check_player_count(players)
    from bunco.core.presets import get_rules
    from bunco.sheets.blank import MAX_SPARES, render_blank
    from bunco.sheets.filled import render_filled

    if from_log is not None:
        if (
            rules_name
            or players is not None
            or names
            or house
            or qr
            or spares is not None
            or name_tags
        ):
            fail(
                "--from prints a played night's sheets; --rules, --players, --names, "
                "--house, --qr, --spares and --name-tags are for blank sheets",
                expected="either --from LOG or --rules P --players N",
            )
        if groups_file is not None:
            fail(
                "--from prints the teams of the party log",
                expected="--groups FILE with blank sheets (--rules P --names FILE)",
            )
        night = load_night(from_log)
        with refusals():
            if payouts:
                from bunco.sheets.payout_pdf import render_payout_sheet

                rendered = render_payout_sheet(night, paper=paper)
            else:
                rendered = render_filled(night, paper=paper)
        kind = "payout" if payouts else "filled"
    else:
        if rules_name is None:
            fail(
                "no rules given",
                expected="--rules P for blank sheets, or --from LOG for a played night's sheets",
            )
        if spares is not None and not 0 <= spares <= MAX_SPARES:
            fail(
                f"--spares {spares} is out of range",
                expected=f"0 to {MAX_SPARES} spare score cards",
            )
        if payouts:
            fail("--payouts prints a played night's payout sheet", expected="--from LOG --payouts")
        player_list = _player_list(players, names)
        if groups_file is not None and not any(player_list):
            fail(
                "--groups puts each player's team on their card, and no names are given",
                expected="--names FILE --groups FILE",
            )
        groups = read_groups(groups_file, player_list) if groups_file is not None else None
        with refusals():
            rules = get_rules(rules_name, parse_house_rules(house))
            rendered = render_blank(
                rules,
                player_list,
                qr_url=qr,
                sets=sets,
                paper=paper,
                title=title,
                spares=spares or 0,
                name_tags=name_tags,
                groups=groups,
            )
        kind = "blank"
    write_file(out, rendered.data)
    if as_json:
        print_json(
            {"file": str(out), "kind": kind, "pages": rendered.pages, "bytes": len(rendered.data)}
        )
    else:
        console.print(f"wrote {out}: {rendered.pages} pages of {kind} sheets", highlight=False)


class _Pages(TypedDict, total=False):
    pages: int  # a PDF's


class WrittenFile(_Pages):
    """One file ``bunco report`` wrote, as ``--json`` lists it."""

    file: str
    format: str  # "pdf" or "html"
    bytes: int


@app.command("report")
def report_command(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="A party log (JSON Lines, see docs/party-log.md)."),
    ],
    out: Annotated[
        list[Path],
        typer.Option(
            "--out",
            "-o",
            help="report.html and/or report.pdf (repeatable); the suffix picks the format.",
        ),
    ],
    paper: PaperOption = "letter",
    as_json: JsonOption = False,
) -> None:
    """The night report: standings, prize winners, every round's tables and charts."""
    from bunco.sheets.night_report_page import night_report_html, render_report_pdf

    for path in out:
        if path.suffix.lower() not in (".html", ".htm", ".pdf"):
            fail(f"cannot tell the format of {path}", expected="a file ending in .html or .pdf")
    night = load_night(file)
    written: list[WrittenFile] = []
    for path in out:
        with refusals():
            if path.suffix.lower() == ".pdf":
                rendered = render_report_pdf(night, paper=paper)
                write_file(path, rendered.data)
                written.append(
                    {
                        "file": str(path),
                        "format": "pdf",
                        "pages": rendered.pages,
                        "bytes": len(rendered.data),
                    }
                )
            else:
                page = night_report_html(night)
                write_file(path, page)
                written.append(
                    {"file": str(path), "format": "html", "bytes": len(page.encode("utf-8"))}
                )
    if as_json:
        print_json({"files": written})
    else:
        for item in written:
            console.print(f"wrote {item['file']} ({item['format']})", highlight=False)


@app.command("export")
def export_command(
    file: Annotated[
        Path,
        typer.Argument(metavar="FILE", help="A party log (JSON Lines, see docs/party-log.md)."),
    ],
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="The CSV file to write (default: print it).")
    ] = None,
    as_json: JsonOption = False,
    payouts: Annotated[
        bool,
        typer.Option(
            "--payouts", help="The payouts instead: player, prize, group, amount, currency."
        ),
    ] = False,
) -> None:
    """The standings as CSV, one row a player: rank, player, wins, losses, buncos,
    mini_buncos, points, prizes_won, group (the CSV's header row)."""
    from bunco.party.standings import standings_rows
    from bunco.sheets.export import standings_csv

    night = load_night(file)
    if payouts:
        _export_payouts(night, out, as_json)
        return
    text = standings_csv(night)
    if out is not None:
        write_file(out, text)
    if as_json:
        print_json({"file": str(out) if out else None, "standings": standings_rows(night)})
    elif out is None:
        typer.echo(text, nl=False)
    else:
        console.print(f"wrote {out}: {text.count(chr(10)) - 1} players", highlight=False)


def _export_payouts(night: Any, out: Path | None, as_json: bool) -> None:
    """``bunco export --payouts``: who is paid how much for what (CSV)."""
    from bunco.core.money import money_setup
    from bunco.core.settlement import prize_money
    from bunco.sheets.payouts import payouts_csv

    if money_setup(night.setup) is None:
        fail(
            "this night has no prize money, so nobody is paid anything",
            expected="a party log whose party line sets the money (see docs/party.md), or "
            "bunco export FILE for the standings",
        )
    text = payouts_csv(night)
    if out is not None:
        write_file(out, text)
    if as_json:
        data = prize_money(night)
        print_json(
            {"file": str(out) if out else None, "money": data["money"], "payouts": data["payouts"]}
        )
    elif out is None:
        typer.echo(text, nl=False)
    else:
        console.print(f"wrote {out}: {text.count(chr(10)) - 1} payouts", highlight=False)
