"""PostgreSQL advisory locks keyed by a night: one holder at a time across processes.

A transaction-level advisory lock (``pg_advisory_xact_lock(namespace, hashtext(night))``)
is held until its transaction ends, whatever ends it (commit, rollback, a lost
connection). Each use has its own namespace (the first key), so a night's writes and
its name claims do not wait for each other; nights never wait for each other except
when two night ids hash alike (then they only take turns). The locks of the two-key
form never meet the one-key migration lock (:data:`bunco.store.db.MIGRATION_LOCK`).
"""

from __future__ import annotations

from sqlalchemy import Connection, text

NIGHT_WRITES = 0x62756E63  # "bunc": storing a batch of a night's events
NIGHT_CLAIMS = 0x62756E6E  # "bunn": claiming a player's name at a night
NIGHT_NUMBERS = 0x62756E6F  # "buno": numbering a co-host's or a viewer link's token
NIGHT_REPORTS = 0x62756E70  # "bunp": a table's phone report


def take(conn: Connection, namespace: int, night_id: str) -> None:
    """Take the night's advisory lock of ``namespace`` in ``conn``'s transaction (held
    until it ends). PostgreSQL only. The store's connections wait for a lock at most
    15 s, and a transaction left idle holding one is ended after 15 s
    (:data:`bunco.store.db.POSTGRES_TIMEOUTS`)."""
    conn.execute(
        text("SELECT pg_advisory_xact_lock(:namespace, hashtext(:night))"),
        {"namespace": namespace, "night": night_id},
    )
