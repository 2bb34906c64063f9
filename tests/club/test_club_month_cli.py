"""`bunco club` for a club's month: planning, answers, who is coming, the calendar file,
ladder rules, links and reminders; add-night refusing what would corrupt the season; read
commands that create nothing; `show` without "None"; the season PDF's layout."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from email import message_from_bytes
from pathlib import Path
from typing import Any

import pytest

from bunco.core.night import Night
from night_helpers import random_roll, roll

pytestmark = pytest.mark.slow  # the bunco command as a process, many times over
FOUR = ["Ann", "Bea", "Cat", "Dee"]


class Cli:
    def __init__(self, tmp_path: Path) -> None:
        self.db = str(tmp_path / "club.sqlite3")
        self.env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "COLUMNS": "200"}

    def __call__(
        self, *args: str, ok: bool = True, db: bool = True
    ) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "bunco", "club", *args, *(["--db", self.db] if db else [])],
            capture_output=True,
            text=True,
            check=False,
            env=self.env,
        )
        assert (done.returncode == 0) == ok, done.stderr + done.stdout
        return done


def made(cli: Cli, *extra: str) -> dict[str, Any]:
    args = [
        "create",
        "Tuesday Club",
        "--dues",
        "5",
        "--sub",
        "Zoe",
        "--sub",
        "Yan",
        "--season",
        "2026",
        "--json",
        *extra,
    ]
    for name in FOUR:
        args += ["--regular", name]
    return dict(json.loads(cli(*args).stdout))


def night_log(tmp_path: Path, players: list[str], name: str = "night.jsonl") -> Path:
    """A night of ``players``: at one table of four, every round's first roller rolls a
    Bunco and then misses; at more tables, random dice (seeded) to the end."""
    night = Night.start({"type": "party", "players": players, "rules": "classic"})
    if len(players) == 4:
        for r in range(1, 7):
            night = roll(night, 1, r, r, r)
            night = roll(night, 1, *[f for f in range(1, 7) if f != r][:3])
    else:
        rng = random.Random(name)
        while night.phase != "over":
            night, _ = random_roll(night, rng)
    path = tmp_path / name
    path.write_text("\n".join([json.dumps(night.setup)] + [json.dumps(e) for e in night.events]))
    return path


def test_add_night_refuses_the_same_night_twice_and_strangers(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    made(cli)
    log = night_log(tmp_path, FOUR)
    cli("add-night", "Tuesday Club", str(log), "--date", "2026-01-13")
    twice = cli("add-night", "Tuesday Club", str(log), "--date", "2026-01-20", ok=False)
    assert "error: this night is already a night of the club (night" in twice.stderr
    assert "2026-01-13" in twice.stderr and "expected:" in twice.stderr
    strangers = night_log(tmp_path, ["Ann", "Kim", "Lea", "Mo"], "strangers.jsonl")
    bad = cli("add-night", "Tuesday Club", str(strangers), ok=False)
    assert "3 of the night's 4 players are not members of Tuesday Club: Kim, Lea, Mo" in bad.stderr
    assert "--guest NAME" in bad.stderr
    one = cli(
        "add-night", "Tuesday Club", str(strangers), "--guest", "Kim", "--guest", "Lea", ok=False
    )
    assert "1 of the night's 4 players is not members of Tuesday Club: Mo" in one.stderr
    cli(
        "add-night",
        "Tuesday Club",
        str(strangers),
        "--guest",
        "Kim",
        "--guest",
        "Lea",
        "--guest",
        "Mo",
    )
    shown = json.loads(cli("show", "Tuesday Club", "--json").stdout)
    assert len(shown["nights"]) == 2  # the refusals stored nothing
    rows = json.loads(cli("standings", "Tuesday Club", "--json").stdout)["standings"]
    assert {r["player"]: r["role"] for r in rows}["Kim"] == "guest"


def test_read_commands_create_nothing_and_show_names_every_night(tmp_path: Path) -> None:
    cli = Cli(tmp_path)
    data = tmp_path / "data"
    for args in (
        ("standings", "Tuesday Club"),
        ("ledger", "Tuesday Club"),
        ("show", "Tuesday Club"),
        ("coming", "Tuesday Club", "2026-02-10"),
    ):
        missing = cli(*args, ok=False, db=False)
        assert "error: there is no database at" in missing.stderr, missing.stderr
        assert "expected:" in missing.stderr
    assert not data.exists()  # not even the folder
    elsewhere = tmp_path / "other.sqlite3"
    gone = cli("standings", "Tuesday Club", "--db", str(elsewhere), ok=False, db=False)
    assert "there is no database" in gone.stderr and not elsewhere.exists()
    made(cli)
    before = Path(cli.db).stat().st_mtime_ns
    log = night_log(tmp_path, FOUR)
    cli("add-night", "Tuesday Club", str(log), "--date", "2026-01-13")
    unnamed = json.loads(log.read_text().splitlines()[0])
    assert "name" not in unnamed
    shown = cli("show", "Tuesday Club").stdout
    assert "None" not in shown and "2026-01-13  night " in shown and "(2026, under way)" in shown
    assert "Standings: wins" in shown
    after_write = Path(cli.db).stat().st_mtime_ns
    cli("standings", "Tuesday Club")
    cli("ledger", "Tuesday Club")
    assert Path(cli.db).stat().st_mtime_ns == after_write >= before


def test_a_month_on_the_command_line(tmp_path: Path) -> None:
    icalendar = pytest.importorskip("icalendar")
    cli = Cli(tmp_path)
    club = made(cli, "--sub-fee", "2")
    cli("member", "Tuesday Club", "Ann", "--address", "1 Elm St", "--email", "ann@example.org")
    cli("member", "Tuesday Club", "Bea", "--address", "2 Oak Ave")
    cli("plan", "Tuesday Club", "2026-02-10", "--time", "19:00")
    planned = cli("plan", "Tuesday Club", "2026-03-10", "--time", "19:30").stdout
    assert "host Bea, at 2 Oak Ave" in planned
    swapped = cli("swap-hosts", "Tuesday Club", "2026-02-10", "2026-03-10").stdout
    assert "2026-02-10 hosted by Bea, 2026-03-10 by Ann" in swapped
    cli("rsvp", "Tuesday Club", "2026-02-10", "Ann", "yes")
    cli("rsvp", "Tuesday Club", "2026-02-10", "Dee", "no")
    cli("rsvp", "Tuesday Club", "2026-02-10", "Yan", "yes")
    out = cli("rsvp", "Tuesday Club", "2026-02-10", "Zoe", "yes").stdout
    assert "waiting for a seat: Zoe" in out and "sub: Yan for Dee" in out
    board = json.loads(cli("coming", "Tuesday Club", "2026-02-10", "--json").stdout)
    assert board["roster"] == ["Ann", "Bea", "Cat", "Yan"] and board["coming"] == ["Ann", "Yan"]
    assert board["not_answered"] == ["Bea", "Cat"] and board["address"] == "2 Oak Ave"
    bad = cli("rsvp", "Tuesday Club", "2026-02-10", "Ann", "perhaps", ok=False)
    assert "error: answer 'perhaps'" in bad.stderr and "yes, no or maybe" in bad.stderr
    ledger = json.loads(cli("ledger", "Tuesday Club", "--json").stdout)
    # the sub fee is owed once the night is played, not for a seat on a night to come
    assert {m["player"]: m["sub_fees"] for m in ledger["members"]}["Yan"] == "0.00"

    ics = tmp_path / "club.ics"
    cli("calendar", "Tuesday Club", "--out", str(ics))
    raw = ics.read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n")  # every line ends in CRLF
    events = {str(e["UID"]): e for e in icalendar.Calendar.from_ical(raw).walk("VEVENT")}
    first = events[f"2026-02-10-{club['club']}@bunco-club"]
    assert str(first["LOCATION"]) == "2 Oak Ave" and "Host: Bea" in str(first["DESCRIPTION"])
    assert str(events[f"2026-03-10-{club['club']}@bunco-club"]["LOCATION"]) == "1 Elm St"
    wrong = cli("calendar", "Tuesday Club", "--out", str(tmp_path / "club.txt"), ok=False)
    assert "expected: a file ending in .ics" in wrong.stderr

    assert (
        "standings by average points per night, best 3 nights counted"
        in cli("ladder", "Tuesday Club", "--measure", "points", "--average", "--best", "3").stdout
    )
    refused = cli("ladder", "Tuesday Club", "--best", "2", "--drop", "1", ok=False)
    assert "best and drop both given" in refused.stderr

    needs = cli("links", "Tuesday Club", ok=False)
    assert "expected: --token TOKEN" in needs.stderr
    wrong_token = cli("links", "Tuesday Club", "--token", "guess", ok=False)
    assert "not the club's token" in wrong_token.stderr
    links = json.loads(
        cli(
            "links",
            "Tuesday Club",
            "--token",
            club["token"],
            "--base-url",
            "https://bunco.example",
            "--json",
        ).stdout
    )
    ann = next(m for m in links["members"] if m["name"] == "Ann")
    assert ann["url"].startswith(f"https://bunco.example/c/{club['club']}/me?token=")
    again = json.loads(
        cli(
            "links",
            "Tuesday Club",
            "--token",
            club["token"],
            "--base-url",
            "https://bunco.example",
            "--json",
        ).stdout
    )
    assert again == links  # the same links, shown again

    box_module = pytest.importorskip("smtp_box")
    with box_module.SmtpBox() as box:
        cli(
            "mail",
            "Tuesday Club",
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            str(box.port),
            "--sender",
            "club@example.org",
        )
        sent = cli(
            "remind",
            "Tuesday Club",
            "2026-02-10",
            "--token",
            club["token"],
            "--base-url",
            "https://bunco.example",
        ).stdout
        messages = list(box.messages)
    assert "reminded: nobody" in sent  # Ann answered; Bea and Cat have no email
    assert "no email address: Bea, Cat" in sent and messages == []
    cli("member", "Tuesday Club", "Cat", "--email", "cat@example.org")
    with box_module.SmtpBox() as box:
        cli(
            "mail",
            "Tuesday Club",
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            str(box.port),
            "--sender",
            "club@example.org",
        )
        sent = cli(
            "remind",
            "Tuesday Club",
            "2026-02-10",
            "--token",
            club["token"],
            "--base-url",
            "https://bunco.example",
        ).stdout
        messages = list(box.messages)
    assert "reminded: Cat" in sent and [m["rcpt"] for m in messages] == [["cat@example.org"]]
    body = message_from_bytes(messages[0]["data"]).get_payload()
    cat = next(m for m in links["members"] if m["name"] == "Cat")
    assert cat["url"] in body


def test_the_season_pdf_keeps_cells_on_one_line_and_the_chart_below(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    cli = Cli(tmp_path)
    made(cli)
    cli("member", "Tuesday Club", "Eve Longname-Whitfield")
    cli("member", "Tuesday Club", "Fay")
    players = [*FOUR, "Eve Longname-Whitfield", "Zoe", "Yan", "Fay"]
    for i in range(3):
        log = night_log(tmp_path, players, f"n{i}.jsonl")
        cli("add-night", "Tuesday Club", str(log), "--date", f"2026-0{i + 1}-13")
    pdf = tmp_path / "season.pdf"
    cli("report", "Tuesday Club", "--out", str(pdf))
    page = pypdf.PdfReader(pdf).pages[0]
    lines: list[tuple[float, str]] = []
    page.extract_text(
        visitor_text=lambda text, cm, tm, *_: (
            lines.append((tm[4] * cm[1] + tm[5] * cm[3] + cm[5], text)) if text.strip() else None
        )
    )
    texts = [t.strip() for _, t in lines]
    for whole in ("Eve Longname-Whitfield", "Buncos", "Prizes", "Nights"):
        assert whole in texts, whole  # each on one line, not wrapped
    every = {
        line.strip() for p in pypdf.PdfReader(pdf).pages for line in p.extract_text().splitlines()
    }
    for whole in ("2026-01-13", "2026-03-13", "Players", "Paid out", "Balance"):
        assert whole in every, whole
    last_row = min(y for y, t in lines if t.strip() in ("Zoe (sub)", "Yan (sub)"))
    images = _image_boxes(page)
    assert len(images) == 1
    bottom, height = images[0]
    assert bottom + height < last_row - 4  # the chart's top is below the table's last line


def _image_boxes(page: Any) -> list[tuple[float, float]]:
    """(bottom, height) of each image drawn on the page, from its content stream."""
    from pypdf.generic import ContentStream

    def times(m: list[float], n: list[float]) -> list[float]:  # m then n (PDF order)
        a, b, c, d, e, f = m
        a2, b2, c2, d2, e2, f2 = n
        return [
            a * a2 + b * c2,
            a * b2 + b * d2,
            c * a2 + d * c2,
            c * b2 + d * d2,
            e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2,
        ]

    boxes = []
    matrix, stack = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0], []
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"q":
            stack.append(matrix)
        elif operator == b"Q":
            matrix = stack.pop()
        elif operator == b"cm":
            matrix = times([float(x) for x in operands], matrix)
        elif operator == b"Do":
            boxes.append((matrix[5], matrix[3]))
    return boxes
