"""The phones' reports kept in the database (:mod:`bunco.store.phone_reports`), written at
once by two engines (two server processes): no report is lost. Reports of different
tables are all kept, a table keeps its latest, and taking refused entries out of a report
(:meth:`PhoneReports.drop_refused`, when a person sends them to the host) never puts an
older report back over one the phone sent meanwhile. On SQLite and, with
``BUNCO_TEST_PG_URL``, on PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import Engine

from bunco.core.server_options import RefusedEntry
from bunco.store import EventStore
from bunco.store.db import make_engine
from bunco.store.phone_reports import PhoneReport, PhoneReports

START = datetime(2026, 12, 5, 20, 0, tzinfo=UTC)
ROUNDS = 120


def heard(n: int) -> str:
    """The ``n``-th moment a phone is heard (milliseconds apart, as the server writes)."""
    return (START + timedelta(milliseconds=n)).isoformat(timespec="milliseconds")


def refused(entry: str) -> RefusedEntry:
    return {"id": entry, "label": "1-1-4", "code": "stale", "message": "the table moved on"}


@pytest.fixture
def engines(store: EventStore, empty_url: str) -> Iterator[tuple[Engine, Engine]]:
    """Two engines on one database with a night ``n1``: two server processes."""
    store.create_night("n1", "Night", {"type": "party"})
    other = make_engine(empty_url)
    yield store.engine, other
    other.dispose()


def test_reports_of_two_processes_at_once_are_all_kept(engines):
    first, second = (PhoneReports(e) for e in engines)
    barrier = threading.Barrier(2)

    def phone(reports: PhoneReports, tables: range) -> None:
        barrier.wait()
        for n in range(ROUNDS):
            for table in tables:  # both processes hear table 1 too, in turn
                reports.save("n1", table, heard(2 * n + (table % 2)), {"waiting": n})

    threads = [
        threading.Thread(target=phone, args=(first, range(1, 6))),
        threading.Thread(target=phone, args=(second, range(1, 11, 2))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    stored = first.load("n1")
    assert sorted(stored) == [1, 2, 3, 4, 5, 7, 9]
    for table, report in stored.items():
        assert report.heard == heard(2 * (ROUNDS - 1) + (table % 2)), table
        assert report.report == {"waiting": ROUNDS - 1}


def test_refused_entries_taken_out_while_the_phone_reports_lose_no_report(engines):
    """One process takes entry ``x`` out of table 2's report, again and again, while the
    phone's reports arrive through the other: each report is the phone's newest one, with
    ``x`` taken out or not, never an older one put back."""
    host, phone = (PhoneReports(e) for e in engines)
    done = threading.Event()
    seen: list[PhoneReport] = []

    def send() -> None:
        for n in range(ROUNDS):
            report: PhoneReport = {"waiting": n, "refused": [refused("x"), refused(f"y{n}")]}
            phone.save("n1", 2, heard(n), report)
        done.set()

    def take_out() -> None:
        while not done.is_set():
            if host.drop_refused("n1", 2, {"x"}):  # once the phone reported
                seen.append(host.load("n1")[2].report)

    threads = [threading.Thread(target=send), threading.Thread(target=take_out)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    last = host.load("n1")[2]
    assert last.heard == heard(ROUNDS - 1)  # the phone's last report is the one kept
    assert last.report["waiting"] == ROUNDS - 1
    assert [r["id"] for r in last.report["refused"]][-1] == f"y{ROUNDS - 1}"
    assert seen, "the host took entries out at least once"
    for report in seen:  # what was taken out kept the report it was taken from whole
        n = report["waiting"]
        assert [r["id"] for r in report["refused"]] in (["x", f"y{n}"], [f"y{n}"])
    assert host.drop_refused("n1", 2, {"x"}) is True
    assert [r["id"] for r in host.load("n1")[2].report["refused"]] == [f"y{ROUNDS - 1}"]
    assert host.load("n1")[2].heard == heard(ROUNDS - 1)  # still when the phone was heard


def test_taking_out_of_no_report_stores_nothing(engines):
    reports = PhoneReports(engines[0])
    assert reports.drop_refused("n1", 4, {"x"}) is False
    assert reports.load("n1") == {}
