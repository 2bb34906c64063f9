"""Tokens, roles and who may do what.

Roles of a night:

- ``host``: the secret admin link made at creation; may do everything.
- ``table``: a phone that joined as table N's scorekeeper (by the table's join code or
  QR link); may enter rolls, tallies and undos at table N only.
- ``player``: a phone that claimed a player's name; sees everything a viewer sees and
  may roll for itself when it is that player's turn (online play).
- ``viewer``: the read-only link.
- ``join``: a table's join credential (short code or long QR token); it grants nothing
  but the exchange for a ``table`` token at ``POST /api/join``.

Tokens are ``secrets.token_urlsafe(24)`` (192 random bits); join codes are six
characters from an alphabet without look-alikes (31**6, about 887 million). The store
keeps only their SHA-256 hashes.

>>> len(new_token()) >= 32 and len(new_code()) == 6
True
>>> normalize_code(" ab-c 2d3 ")
'ABC2D3'
>>> hash_code("abc2d3") == hash_code("ABC-2D3") != hash_token("ABC2D3")
True
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import deque
from dataclasses import dataclass

from bunco.store import EventStore, TokenRecord

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
ROLES = ("host", "table", "player", "viewer", "join")
READ_ROLES = frozenset({"host", "table", "player", "viewer"})


def new_token() -> str:
    """An unguessable bearer token (192 bits)."""
    return secrets.token_urlsafe(24)


def new_code() -> str:
    """A short join code a person can type: six characters without look-alikes."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(code: str) -> str:
    """A typed join code in canonical form: upper case, no spaces or dashes."""
    return "".join(ch for ch in code.upper() if ch not in " -_\t")


def hash_token(token: str) -> str:
    """The SHA-256 hex digest under which a token is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def hash_code(code: str) -> str:
    """The stored hash of a join code (its own namespace, so it never equals a token's)."""
    return hash_token("code:" + normalize_code(code))


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is asking: the night and role a token grants."""

    night_id: str
    role: str
    table: int | None = None
    player: str | None = None

    @property
    def can_read(self) -> bool:
        return self.role in READ_ROLES

    def describe(self) -> str:
        """A short description for error messages."""
        if self.role == "table":
            return f"the scorekeeper of table {self.table}"
        if self.role == "player":
            return f"player {self.player}"
        return f"the {self.role}"


class TokenBook:
    """Resolve tokens to principals, with a small cache in front of the store.

    Only hashes are cached and stored. A revoked token is dropped from the cache.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._cache: dict[str, Principal | None] = {}

    def issue(
        self, night_id: str, role: str, *, table: int | None = None, player: str | None = None
    ) -> tuple[str, TokenRecord]:
        """A new token and the record to store for it (not stored yet)."""
        token = new_token()
        return token, TokenRecord(hash_token(token), night_id, role, table, player)

    def issue_code(self, night_id: str, table: int) -> tuple[str, TokenRecord]:
        """A new join code for ``table`` and the record to store for it."""
        code = new_code()
        return code, TokenRecord(hash_code(code), night_id, "join", table)

    def resolve(self, token: str | None) -> Principal | None:
        """The principal of a live token or join code, or ``None``."""
        if not token:
            return None
        token = token.strip()
        if not token or len(token) > 200:
            return None
        key = hash_token(token) if len(token) > CODE_LENGTH + 4 else hash_code(token)
        if key in self._cache:
            return self._cache[key]
        record = self.store.token(key)
        principal = None
        if record is not None and not record.revoked:
            principal = Principal(record.night_id, record.role, record.table, record.player)
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[key] = principal
        return principal

    def remember(self, records: list[TokenRecord]) -> None:
        """Put freshly stored records in the cache."""
        for r in records:
            self._cache[r.hash] = Principal(r.night_id, r.role, r.table, r.player)

    def forget(self) -> None:
        """Empty the cache (after a revocation)."""
        self._cache.clear()


class RateLimiter:
    """At most ``limit`` failures per ``window`` seconds per key (e.g. a client address).

    >>> rl = RateLimiter(limit=2, window=60)
    >>> rl.failed("a"), rl.failed("a"), rl.blocked("a"), rl.blocked("b")
    (None, None, True, False)
    """

    def __init__(self, limit: int = 20, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str) -> deque[float]:
        times = self._failures.setdefault(key, deque())
        cutoff = time.monotonic() - self.window
        while times and times[0] < cutoff:
            times.popleft()
        return times

    def blocked(self, key: str) -> bool:
        """Whether ``key`` has used up its failures."""
        return len(self._recent(key)) >= self.limit

    def failed(self, key: str) -> None:
        """Count one failure of ``key``."""
        self._recent(key).append(time.monotonic())
        if len(self._failures) > 10_000:
            self._failures.clear()
