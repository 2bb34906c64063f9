"""``bunco sheets``, ``bunco report`` and ``bunco export`` through the Typer app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sheet_helpers import DATA, one_page, page_texts
from typer.testing import CliRunner

from bunco.cli import app

HAND = str(DATA / "classic8_hand.jsonl")
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_blank_sheets_with_names_file(tmp_path: Path) -> None:
    names = tmp_path / "names.txt"
    names.write_text("# tonight\nAnn\nBea\n\nCat\nDee\nEve\n", encoding="utf-8")
    out = tmp_path / "sheets.pdf"
    code, stdout, _ = run(
        "sheets",
        "--rules",
        "wm",
        "--names",
        str(names),
        "--out",
        str(out),
        "--qr",
        "http://10.0.0.2:8000/n/x",
        "--json",
    )
    assert code == 0
    doc = json.loads(stdout)
    texts = page_texts(out.read_bytes())
    assert doc == {
        "file": str(out),
        "kind": "blank",
        "pages": len(texts),
        "bytes": out.stat().st_size,
    }
    for name in ("Ann", "Bea", "Cat", "Dee", "Eve"):
        assert f"Name: {name}" in texts[0]
    # 5 players, winning-moves: tables of 3 and 2 (RULES.md §6)
    assert "3 players, each for themselves" in one_page(texts, "TABLE 1")
    assert "Scan to follow the night" in one_page(texts, "House rules: winning-moves")


def test_blank_sheets_players_only(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    code, stdout, _ = run(
        "sheets",
        "--rules",
        "scil",
        "--players",
        "6",
        "--sets",
        "2",
        "--house",
        "wipeout=true",
        "--paper",
        "a4",
        "-o",
        str(out),
    )
    assert code == 0 and "pages of blank sheets" in stdout
    texts = page_texts(out.read_bytes())
    assert "end the turn: yes." in one_page(texts, "House rules: scil")


def test_blank_sheets_spares_and_name_tags(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    code, stdout, _ = run(
        "sheets",
        "--rules",
        "classic",
        "--players",
        "12",
        "--spares",
        "2",
        "--name-tags",
        "-o",
        str(out),
        "--json",
    )
    assert code == 0
    texts = page_texts(out.read_bytes())
    assert json.loads(stdout)["pages"] == len(texts)
    cards = [t for t in texts if "BUNCO SCORE CARD" in t]
    # 12 cards and at least 2 spares: three full pages of six
    assert [t.count("BUNCO SCORE CARD") for t in cards] == [6, 6, 6]
    assert sum(t.count("Spare card for a late arrival") for t in cards) == 6
    tags = [t for t in texts if "HELLO my name is" in t]
    assert [t.count("HELLO my name is") for t in tags] == [8, 8]


def test_filled_sheets_from_log(tmp_path: Path) -> None:
    out = tmp_path / "filled.pdf"
    code, stdout, _ = run("sheets", "--from", HAND, "--out", str(out), "--json")
    assert code == 0 and json.loads(stdout)["kind"] == "filled"
    assert "1 Eve 4 2 2 1 51" in one_page(page_texts(out.read_bytes()), "Standings")


def test_report_html_and_pdf(tmp_path: Path) -> None:
    html, pdf = tmp_path / "report.html", tmp_path / "report.pdf"
    code, stdout, _ = run("report", HAND, "--out", str(html), "--out", str(pdf), "--json")
    assert code == 0
    files = json.loads(stdout)["files"]
    assert [f["format"] for f in files] == ["html", "pdf"]
    assert "<td>Eve</td>" in html.read_text(encoding="utf-8")
    assert pdf.read_bytes().startswith(b"%PDF-")


def test_export_csv(tmp_path: Path) -> None:
    code, stdout, _ = run("export", HAND)
    assert code == 0
    assert stdout.splitlines()[:2] == [
        "rank,player,wins,losses,buncos,mini_buncos,points,prizes_won,group",
        "1,Eve,4,2,2,1,51,Most Buncos (shared); Most Wins (shared),",
    ]
    out = tmp_path / "standings.csv"
    code, stdout, _ = run("export", HAND, "--out", str(out), "--json")
    assert code == 0
    doc = json.loads(stdout)
    assert doc["file"] == str(out) and out.read_text(encoding="utf-8").count("\n") == 9
    assert doc["standings"][-1] == {
        "rank": 8,
        "player": "Bea",
        "wins": 2,
        "losses": 4,
        "buncos": 0,
        "mini_buncos": 1,
        "points": 5,
        "sets_won": 0,
        "prizes_won": ["Most Losses (shared)"],
        "group": None,
    }


@pytest.mark.parametrize(
    ("args", "message", "expected"),
    [
        (["sheets", "--players", "4", "-o", "{tmp}/x.pdf"], "no rules given", "--rules P"),
        (["sheets", "--rules", "classic", "-o", "{tmp}/x.pdf"], "no players given", "--players N"),
        (
            ["sheets", "--rules", "nope", "--players", "4", "-o", "{tmp}/x.pdf"],
            "unknown preset 'nope'",
            "one of winning-moves",
        ),
        (
            ["sheets", "--rules", "wm", "--players", "4", "--paper", "a5", "-o", "{tmp}/x.pdf"],
            "unknown paper size 'a5'",
            "letter or a4",
        ),
        (
            [
                "sheets",
                "--rules",
                "wm",
                "--players",
                "3",
                "--names",
                "{tmp}/names.txt",
                "-o",
                "{tmp}/x.pdf",
            ],
            "has 2 names but --players is 3",
            "3 names in the file",
        ),
        (
            ["sheets", "--from", HAND, "--rules", "wm", "-o", "{tmp}/x.pdf"],
            "--from prints a played night's sheets",
            "either --from LOG",
        ),
        (
            ["sheets", "--from", "{tmp}/missing.jsonl", "-o", "{tmp}/x.pdf"],
            "cannot read",
            "party log",
        ),
        (
            ["sheets", "--rules", "wm", "--players", "4", "-o", "{tmp}/no/such/dir/x.pdf"],
            "cannot write",
            "existing folder",
        ),
        (
            ["sheets", "--rules", "wm", "--players", "4", "--spares", "49", "-o", "{tmp}/x.pdf"],
            "--spares 49 is out of range",
            "0 to 48 spare score cards",
        ),
        (
            ["sheets", "--rules", "wm", "--players", "4", "--spares", "-1", "-o", "{tmp}/x.pdf"],
            "--spares -1 is out of range",
            "0 to 48 spare score cards",
        ),
        (
            ["sheets", "--from", HAND, "--spares", "2", "-o", "{tmp}/x.pdf"],
            "--spares and --name-tags are for blank sheets",
            "either --from LOG",
        ),
        (
            ["sheets", "--from", HAND, "--name-tags", "-o", "{tmp}/x.pdf"],
            "--spares and --name-tags are for blank sheets",
            "either --from LOG",
        ),
        (["report", HAND, "-o", "{tmp}/r.txt"], "cannot tell the format", ".html or .pdf"),
        (["export", "{tmp}/bad.jsonl"], "line 2", "a roll by"),
    ],
)
def test_refusals(tmp_path: Path, args: list[str], message: str, expected: str) -> None:
    (tmp_path / "names.txt").write_text("Ann\nBea\n", encoding="utf-8")
    (tmp_path / "bad.jsonl").write_text(
        '{"type": "party", "rules": "classic", "players": ["Ann", "Bea"]}\n'
        '{"type": "roll", "table": 1, "dice": [1, 2, 3], "player": "Bea"}\n',
        encoding="utf-8",
    )
    code, stdout, stderr = run(*(a.replace("{tmp}", str(tmp_path)) for a in args))
    assert code == 2 and stdout == ""
    text = " ".join(stderr.split())
    assert message in text.split("expected:")[0] and expected in text.split("expected:")[1]
    assert not (tmp_path / "x.pdf").exists()


def test_docs_example_prints_what_the_page_shows(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    from sheet_helpers import ROOT

    text = (ROOT / "docs" / "sheets.md").read_text(encoding="utf-8")
    (block,) = [
        b
        for b in re.findall(r"^```console\n(.*?)^```", text, flags=re.S | re.M)
        if b.startswith("$ bunco export")
    ]
    command, *shown = block.splitlines()
    monkeypatch.chdir(ROOT)
    code, stdout, _ = run(*command.split()[2:])
    assert code == 0 and stdout.splitlines() == shown
