"""Reading who is paid how much off every surface of a night with money, for the browser
tests that insist they all agree: the handed-out list of the big screen and the end page,
the end page's payout table, the night report (HTML and PDF), the payouts and standings
CSV files and the prize and payout sheet PDF (text by pdftotext).

A payment is ``(player, prize, amount)``: ``prize`` the key (``most_buncos``) where the
surface names the prize by key, else its printed name with the group (``Most Buncos
(Team 1)``); ``amount`` without the currency sign (``16.66``).
"""

from __future__ import annotations

import csv
import html
import io
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from .conftest import Server

Payment = tuple[str, str, str]
NOBODY = ("nobody to hand it to", "roll-off due", "to be judged")

READ_HANDED = """() => [...document.querySelectorAll("#handed-list article[data-prize]")].map((a) => {
  const text = (sel) => { const el = a.querySelector(sel); return el ? el.textContent.trim() : ""; };
  return { prize: a.dataset.prize, group: a.dataset.group || null, name: text("h3"),
           who: text(".winners"), amount: text(".amount"), paid: text(".paid"),
           passed: text(".passed") };
})"""


def printed(label: str, group: str | None) -> str:
    return label + (f" ({group})" if group else "")


def truth(payouts: Iterable[Mapping[str, Any]]) -> tuple[set[Payment], set[Payment]]:
    """The night's payouts (``GET /payouts``) by prize key and by printed name."""
    by_key = {(p["player"], p["prize"], p["amount"]) for p in payouts}
    by_name = {(p["player"], printed(p["label"], p["group"]), p["amount"]) for p in payouts}
    return by_key, by_name


def _money(text: str, currency: str) -> str:
    assert text.startswith(currency), text
    return text[len(currency) :]


def paid_on_row(row: Mapping[str, str], currency: str) -> set[Payment]:
    """The payments a handed-out row announces: a group prize's "Paid: Ann, Cat $16.66
    each; Ivy $12.50" line, else the people named and the amount (each one's part when
    shared)."""
    out: set[Payment] = set()
    if row["paid"]:
        assert row["paid"].startswith("Paid: "), row
        for part in row["paid"][len("Paid: ") :].split("; "):
            found = re.fullmatch(r"(.+) (\S*\d)( each)?", part)
            assert found, part
            for name in found.group(1).split(", "):
                out.add((name, row["prize"], _money(found.group(2), currency)))
        return out
    if not row["amount"] or row["who"] in NOBODY:
        return out
    names = re.sub(r" \([^)]*\)$", "", row["who"]).split(", ")
    each = re.search(r"\((\S+) each\)", row["amount"])
    amount = _money(each.group(1) if each else row["amount"], currency)
    return {(name, row["prize"], amount) for name in names}


def handed_rows(page: Page) -> list[dict[str, str]]:
    """The handed-out list as a page shows it."""
    rows: list[dict[str, str]] = page.evaluate(READ_HANDED)
    return rows


def expected_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A ``prize_winners`` row as the handed-out list prints it."""
    passed = "; ".join(f"{p['name']} ({p['reason']})" for p in row["passed_over"])
    return {
        "prize": row["prize"],
        "group": row["group"],
        "name": row["name"],
        "who": row["who"],
        "amount": row["amount"],
        "paid": f"Paid: {row['paid_text']}" if row["paid_text"] else "",
        "passed": f"Passed over: {passed}" if passed else "",
    }


def page_payout_table(page: Page) -> set[Payment]:
    """The end page's payout table: (player, prize as printed, amount)."""
    cells: list[list[str]] = page.evaluate("""() => [...document.querySelectorAll(
        "#payouts-table tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent.trim()))""")
    return {(player, prize, amount.lstrip("$")) for player, prize, amount in cells}


# -- files -----------------------------------------------------------------------------------
def download(server: Server, night: str, token: str, tail: str) -> bytes:
    reply = httpx.get(
        f"{server.base}/api/nights/{night}/{tail}",
        timeout=120,
        headers={"authorization": f"Bearer {token}"},
    )
    assert reply.status_code == 200, (tail, reply.text[:300])
    return reply.content


def html_tables(page: str, section: str) -> list[list[list[str]]]:
    """The tables of the report's ``<section id=…>``: rows of cell texts (head row first)."""
    found = re.search(rf'<section id="{section}">(.*?)</section>', page, re.S)
    assert found, f"no {section} section in the report"
    tables = []
    for table in re.findall(r"<table.*?</table>", found.group(1), re.S):
        rows = [
            [
                html.unescape(re.sub(r"<[^>]+>", "", c)).strip()
                for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", tr, re.S)
            ]
            for tr in re.findall(r"<tr[^>]*>(.*?)</tr>", table, re.S)
        ]
        tables.append(rows)
    return tables


def html_notes(page: str, section: str) -> list[str]:
    found = re.search(rf'<section id="{section}">(.*?)</section>', page, re.S)
    assert found
    return [html.unescape(n) for n in re.findall(r'<p class="meta">(.*?)</p>', found.group(1))]


def csv_payouts(text: str) -> set[Payment]:
    """payouts.csv: (player, prize as printed, amount)."""
    rows = list(csv.DictReader(io.StringIO(text)))
    assert all(r["currency"] == "$" for r in rows)
    labels = {
        "most_buncos": "Most Buncos",
        "most_wins": "Most Wins",
        "most_mini_buncos": "Most Mini Buncos",
        "best_costume": "Best Costume",
        "group_most_buncos": "Group with the most Buncos",
        "group_best_costume": "Group with the Best Costume",
        "most_losses": "Most Losses",
        "last_bunco": "Last Bunco",
    }
    return {
        (r["player"], printed(labels[r["prize"]], r["group"] or None), r["amount"]) for r in rows
    }


def csv_prizes_won(text: str) -> dict[str, set[str]]:
    """standings.csv: each player's prizes as printed (without "(shared)")."""
    out = {}
    for row in csv.DictReader(io.StringIO(text)):
        won = [p.removesuffix(" (shared)") for p in row["prizes_won"].split("; ") if p]
        out[row["player"]] = set(won)
    return out


def pdf_text(data: bytes, folder: Path, name: str, *, layout: bool) -> str:
    """The text of a PDF, by pdftotext (``layout``: columns kept apart by spaces)."""
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext (poppler-utils) is not installed")
    path = folder / f"{name}.pdf"
    path.write_bytes(data)
    args = ["pdftotext", *(["-layout"] if layout else []), str(path), "-"]
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def pdf_payouts(text: str) -> tuple[set[Payment], dict[str, str]]:
    """The payout lines and the totals to hand over of a PDF's payout sheet (layout text):
    ({(player, prize as printed, amount)}, {player: total}). The sheet gives each
    person's total first ("To hand over"), then each prize paid."""
    start = text.index("Payout sheet")
    signed = text.index("To hand over", start)
    each = text.index("Each prize paid", signed)
    lines: set[Payment] = set()
    for line in text[each:].splitlines():
        found = re.fullmatch(r"\s*(\S+)\s{2,}(\S.*?)\s{2,}\$(\d+\.\d\d)\s*", line)
        if found and found.group(1) != "Player":
            lines.add((found.group(1), found.group(2), found.group(3)))
    totals = {}
    for line in text[signed:each].splitlines():
        found = re.fullmatch(r"\s*(\S+)\s{2,}\$(\d+\.\d\d)\s+_+\s*", line)
        if found:
            totals[found.group(1)] = found.group(2)
    return lines, totals


def flat(text: str) -> str:
    """Text with every run of white space one space (a wrapped line joined again)."""
    return re.sub(r"\s+", " ", text)


def per_player(payments: Iterable[Payment]) -> dict[str, str]:
    totals: dict[str, Decimal] = {}
    for player, _, amount in payments:
        totals[player] = totals.get(player, Decimal(0)) + Decimal(amount)
    return {p: f"{t:.2f}" for p, t in totals.items()}
