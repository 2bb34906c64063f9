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
keeps only their SHA-256 hashes. A bearer token is always a long token: a join code (or
the join token of a QR link) is only ever exchanged at ``POST /api/join``.

A night created with a ``command_id`` gets its host, viewer and table secrets derived
from that id (:func:`creation_key`, :func:`night_secrets`), so a retried creation is
answered with the same tokens while the database still holds only hashes.

>>> len(new_token()) >= 32 and len(new_code()) == 6
True
>>> normalize_code(" ab-c 2d3 ")
'ABC2D3'
>>> hash_code("abc2d3") == hash_code("ABC-2D3") != hash_token("ABC2D3")
True
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass

from bunco.store import EventStore, TokenRecord
from bunco.web.gate.principal import Principal

log = logging.getLogger("bunco.auth")

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
CACHE_LIMIT = 100_000
"""Records the token cache holds at most (it is emptied when it would hold more)."""
ROLES = ("host", "table", "player", "viewer", "join")


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


def is_code(text: str) -> bool:
    """Whether ``text`` is typed like a join code (short), not a long token."""
    return len(text.strip()) <= CODE_LENGTH + 4


def creation_key(command_id: str) -> bytes:
    """The secret a creation's ``command_id`` stands for (slow to compute, so a leaked
    database does not let anyone try command ids quickly)."""
    return hashlib.pbkdf2_hmac("sha256", command_id.encode(), b"bunco-creation-v1", 20_000)


def creation_lookup(key: bytes) -> str:
    """Under which the night made by a creation key is found (hex)."""
    return hashlib.sha256(b"lookup:" + key).hexdigest()


def night_root(key: bytes | None, salt: str, night_id: str) -> bytes:
    """The root of a night's secrets: drawn at random, or (for a creation with a command
    id) from its creation key, the night's salt and id, so that a retry finds them again."""
    if key is None:
        return secrets.token_bytes(32)
    return hmac.new(key, f"{salt}:{night_id}".encode(), hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class NightSecrets:
    """The secrets of a new night: host and viewer tokens, each table's code and QR token."""

    host: str
    viewer: str
    tables: tuple[tuple[str, str], ...]

    def records(self, night_id: str) -> list[TokenRecord]:
        """What the store keeps of them: hashes, roles and tables."""
        out = [
            TokenRecord(hash_token(self.host), night_id, "host"),
            TokenRecord(hash_token(self.viewer), night_id, "viewer"),
        ]
        for n, (code, token) in enumerate(self.tables, 1):
            out += [
                TokenRecord(hash_code(code), night_id, "join", n),
                TokenRecord(hash_token(token), night_id, "join", n),
            ]
        return out


def night_secrets(root: bytes, tables: int) -> NightSecrets:
    """The secrets drawn from ``root`` (32 random bytes, or a creation key and salt).

    >>> a, b = night_secrets(b"k" * 32, 2), night_secrets(b"k" * 32, 2)
    >>> a == b and len(a.host) == 32 and len(a.tables[1][0]) == 6
    True
    """

    def part(label: str) -> bytes:
        return hmac.new(root, label.encode(), hashlib.sha256).digest()

    def token(label: str) -> str:
        return base64.urlsafe_b64encode(part(label)[:24]).decode()

    def code(label: str) -> str:
        number = int.from_bytes(part(label)) % len(CODE_ALPHABET) ** CODE_LENGTH
        chars = []
        for _ in range(CODE_LENGTH):
            number, digit = divmod(number, len(CODE_ALPHABET))
            chars.append(CODE_ALPHABET[digit])
        return "".join(chars)

    return NightSecrets(
        token("host"),
        token("viewer"),
        tuple((code(f"table {n} code"), token(f"table {n} token")) for n in range(1, tables + 1)),
    )


def principal_of(record: TokenRecord) -> Principal:
    """Who a token's holder is. A viewer is nobody in particular: the label a host-made
    viewer link carries in the ``player`` column (who made it) is not the holder's."""
    player = None if record.role == "viewer" else record.player
    return Principal(record.night_id, record.role, record.table, player, record.hash[:32])


class TokenBook:
    """Resolve tokens to principals, with a small cache in front of the store.

    Only hashes are cached and stored. :meth:`forget` empties the cache when tokens
    change (a revocation here, or another process's notice); a look-up that read the
    store before that does not put what it read in the cache, so a revoked token is
    never brought back. The look-ups (:meth:`lookup`, :meth:`resolve`,
    :meth:`resolve_join`) may read the store: they are blocking calls, made on a worker
    thread by the web layer; :meth:`cached_record` never reads it.
    """

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._cache: dict[str, TokenRecord | None] = {}
        self._generation = 0
        self._forgetting = threading.Lock()
        self._refilling: dict[str, asyncio.Task[None]] = {}
        self._refill_again: set[str] = set()
        self.on_revoked: list[Callable[[str], None]] = []
        """Called with a night's id when this process revoked some of its tokens
        (:meth:`revoked`): the open WebSockets check theirs."""

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

    def record(self, key: str) -> TokenRecord | None:
        """The stored record under hash ``key`` (revoked ones too), through the cache."""
        if key in self._cache:
            return self._cache[key]
        generation = self._generation
        record = self.store.token(key)
        self._keep({key: record}, generation)
        return record

    def _keep(self, entries: dict[str, TokenRecord | None], generation: int | None) -> None:
        """Put ``entries`` in the cache, unless :meth:`forget` ran since ``generation``
        was read (``None``: keep them in any case); the cache is emptied first when it
        would grow past :data:`CACHE_LIMIT`."""
        with self._forgetting:
            if generation is not None and generation != self._generation:
                return  # read before a forget(): it may be stale
            if len(self._cache) + len(entries) > CACHE_LIMIT:
                self._cache.clear()
            self._cache.update(entries)

    def cached_record(self, token: str) -> TokenRecord | None:
        """The record of a long token if the cache holds one (no database look-up)."""
        return self._cache.get(hash_token(token.strip()))

    def resolve(self, token: str | None) -> Principal | None:
        """The principal of a live bearer token, or ``None``: join codes and join tokens
        are no bearer tokens (they are exchanged at ``POST /api/join``)."""
        record = self.lookup(token)
        if record is None or record.revoked or record.role == "join":
            return None
        return principal_of(record)

    def lookup(self, token: str | None) -> TokenRecord | None:
        """The record of a long token (live, revoked or a join token), or ``None``."""
        token = (token or "").strip()
        if is_code(token) or len(token) > 200:
            return None
        return self.record(hash_token(token))

    def resolve_join(self, code: str | None, token: str | None) -> Principal | None:
        """The table a live join code (typed) or join token (QR link) lets one score."""
        if code is not None:
            typed = normalize_code(code)
            record = self.record(hash_code(typed)) if len(typed) == CODE_LENGTH else None
        else:
            record = self.lookup(token)
        if record is None or record.revoked or record.role != "join":
            return None
        return principal_of(record)

    def remember(self, records: list[TokenRecord]) -> None:
        """Put freshly stored records in the cache."""
        self._keep({r.hash: r for r in records}, None)

    def forget(self) -> None:
        """Empty the cache (after a revocation)."""
        with self._forgetting:
            self._generation += 1
            self._cache.clear()

    def revoked(self, night_id: str) -> None:
        """This process revoked tokens of ``night_id``: :meth:`forget`, and tell
        :attr:`on_revoked` (call on the event loop)."""
        self.forget()
        for hook in self.on_revoked:
            hook(night_id)

    def refill(self, night_id: str) -> None:
        """Read every token of ``night_id`` (revoked ones too) into the cache in one query,
        unless :meth:`forget` ran while it was read (a blocking call, for a worker thread).
        """
        generation = self._generation
        records = self.store.tokens(night_id)
        self._keep({record.hash: record for record in records}, generation)

    def changed_elsewhere(self, night_id: str) -> None:
        """Another process changed the night's tokens (its notice): :meth:`forget` now,
        then :meth:`refill` the night in the background (once at a time per night, and
        once more if told again meanwhile), so the night's phones are not each looked
        up again (at a 250-table night, 250 look-ups at their next rolls). Call on the
        event loop."""
        self.forget()
        if night_id in self._refilling:
            self._refill_again.add(night_id)
            return
        task = asyncio.get_running_loop().create_task(self._refill(night_id))
        self._refilling[night_id] = task

    async def _refill(self, night_id: str) -> None:
        try:
            while True:
                self._refill_again.discard(night_id)
                await asyncio.to_thread(self.refill, night_id)
                if night_id not in self._refill_again:
                    break
        except Exception:  # the database went away: tokens are looked up one by one
            log.warning("reading the tokens of night %s failed", night_id, exc_info=True)
        finally:
            del self._refilling[night_id]

    async def close(self) -> None:
        """Stop the refills under way."""
        tasks = list(self._refilling.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
