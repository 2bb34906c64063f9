"""The PostgreSQL test database: ``BUNCO_TEST_PG_URL`` names one the tests may wipe.

Tests that use it take an exclusive file lock first, so parallel test workers take turns
on the database; the lock's name comes from the URL, so runs on different databases do
not wait for each other.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bunco.store.db import wipe_postgres

PG_URL = os.environ.get("BUNCO_TEST_PG_URL")
SKIP_REASON = "set BUNCO_TEST_PG_URL to a PostgreSQL database the tests may wipe"


@contextmanager
def wiped_postgres() -> Iterator[str]:
    """The test database's URL, wiped, held alone until the block ends."""
    assert PG_URL is not None, SKIP_REASON
    name = "bunco-test-pg-" + hashlib.sha256(PG_URL.encode()).hexdigest()[:12] + ".lock"
    handle = os.open(Path(tempfile.gettempdir()) / name, os.O_CREAT | os.O_RDWR)
    fcntl.flock(handle, fcntl.LOCK_EX)
    try:
        wipe_postgres(PG_URL)
        yield PG_URL
    finally:
        os.close(handle)
