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
LOCK_WAIT = "15s"
"""The longest a transaction waits for a lock (then it fails: 503 to the client)."""
IDLE_LIMIT = "15s"
"""How long a transaction holding a lock may sit idle before PostgreSQL ends it."""


def take(conn: Connection, namespace: int, night_id: str) -> None:
    """Take the night's advisory lock of ``namespace`` in ``conn``'s transaction (held
    until it ends), waiting at most :data:`LOCK_WAIT`. PostgreSQL only."""
    conn.execute(text("SELECT set_config('lock_timeout', :wait, true), "
                      "set_config('idle_in_transaction_session_timeout', :idle, true)"),
                 {"wait": LOCK_WAIT, "idle": IDLE_LIMIT})
    conn.execute(text("SELECT pg_advisory_xact_lock(:namespace, hashtext(:night))"),
                 {"namespace": namespace, "night": night_id})
