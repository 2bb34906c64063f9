"""A night's tokens, and a change of them written in one transaction.

A token is kept by its hash only (:class:`TokenRecord`): what it lets its holder do at one
night (a role, a table, a player). What the server changes about a night's tokens, a
table's new join code (the old code and QR token revoked, the new ones stored, the card
kept for the hosts), a co-host removed with the big-screen links they made, a phone
signed out, a player's name claimed or released, a co-host or a viewer link added with
its number (:class:`Numbered`), is one :class:`TokenChange`, written all or nothing by
:meth:`EventStore.change_tokens <bunco.store.events.EventStore.change_tokens>`
(:func:`write_tokens` here).

A numbered token's number (``co-host 2``, ``viewer link 3``) is decided in that
transaction: one more than the highest of the night's tokens of its role, revoked ones
too; on PostgreSQL the transaction holds the night's numbering lock, so two processes
adding at once never hand out one number twice (on SQLite one writer thread writes).

>>> change = TokenChange(revoke=(Revoke("join", table=2),), add=(TokenRecord("h", "n1", "join", 2),))
>>> [r.role for r in change.revoke], [t.hash for t in change.add], change.claim
(['join'], ['h'], None)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TypedDict, cast

from sqlalchemy import Connection, Table, insert, select, update

from bunco.store import advisory
from bunco.store.models import TokenRow
from bunco.store.option_changes import ChangedOptions, OptionsChange

_TOKENS = cast(Table, TokenRow.__table__)


@dataclass(frozen=True, slots=True)
class TokenRecord:
    """What one token (by its hash) lets its holder do at one night."""

    hash: str
    night_id: str
    role: str
    table: int | None = None
    player: str | None = None
    created_at: datetime | None = None
    revoked: bool = False


@dataclass(frozen=True, slots=True)
class Revoke:
    """The night's live tokens of ``role`` revoked (only ``table``'s, ``player``'s, when
    given)."""

    role: str
    table: int | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Numbered:
    """A new token (``token``, its ``player`` column left to this) numbered in the change's
    transaction: one more than the highest number ``number_of`` reads in the labels of the
    night's tokens of its role (revoked ones too: a number is never given twice), labelled
    ``label(number)``. Refused (:class:`NumbersFull`) past number ``most_number`` or when
    the night holds ``most_tokens`` of that role already (``None``: no such cap)."""

    token: TokenRecord
    number_of: Callable[[str | None], int | None]
    label: Callable[[int], str]
    most_number: int | None = None
    most_tokens: int | None = None


class NumbersFull(Exception):
    """A :class:`Numbered` token refused: the night holds ``tokens`` tokens of its role
    already, the highest numbered ``highest``; nothing of the change was written."""

    def __init__(self, tokens: int, highest: int) -> None:
        super().__init__(f"{tokens} tokens of this role, the highest numbered {highest}")
        self.tokens = tokens
        self.highest = highest


@dataclass(frozen=True, slots=True)
class TokenChange:
    """One change of a night's tokens, in this order: the revocations, the new tokens,
    a ``numbered`` token (its number decided here), a player's ``claim`` (stored unless a
    live token follows that player, or ``shared``), and ``options``, a change of the
    night's options made with it (a new join code's card kept for the hosts)."""

    revoke: tuple[Revoke, ...] = ()
    add: tuple[TokenRecord, ...] = ()
    claim: TokenRecord | None = None
    shared: bool = False
    options: OptionsChange | None = None
    numbered: Numbered | None = None


@dataclass(frozen=True, slots=True)
class TokensChanged:
    """What a :class:`TokenChange` did: how many tokens each revocation revoked, whether
    the claim was stored (``None``: no claim), the ``numbered`` token as stored (with its
    label; ``number`` its number), and the options before and after (``None`` without a
    change of them)."""

    revoked: tuple[int, ...] = ()
    claimed: bool | None = None
    options: ChangedOptions | None = None
    numbered: TokenRecord | None = None
    number: int | None = None


class TokenValues(TypedDict):
    """A row of the ``tokens`` table, as inserted."""

    hash: str
    night_id: str
    role: str
    table_no: int | None
    player: str | None
    created_at: datetime
    revoked_at: datetime | None


def token_values(token: TokenRecord, created: datetime) -> TokenValues:
    """The row of ``token``, made at ``created`` unless it says when."""
    return {
        "hash": token.hash,
        "night_id": token.night_id,
        "role": token.role,
        "table_no": token.table,
        "player": token.player,
        "created_at": token.created_at or created,
        "revoked_at": None,
    }


def revoke(conn: Connection, night_id: str, what: Revoke, at: datetime) -> int:
    """Revoke the night's live tokens ``what`` names on ``conn``; how many."""
    query = update(_TOKENS).where(
        _TOKENS.c.night_id == night_id,
        _TOKENS.c.role == what.role,
        _TOKENS.c.revoked_at.is_(None),
    )
    if what.table is not None:
        query = query.where(_TOKENS.c.table_no == what.table)
    if what.player is not None:
        query = query.where(_TOKENS.c.player == what.player)
    return int(conn.execute(query.values(revoked_at=at)).rowcount)


def followed(conn: Connection, token: TokenRecord) -> bool:
    """Whether a live token of ``token``'s role follows its player at its night."""
    taken = conn.execute(
        select(_TOKENS.c.hash)
        .where(
            _TOKENS.c.night_id == token.night_id,
            _TOKENS.c.role == token.role,
            _TOKENS.c.player == token.player,
            _TOKENS.c.revoked_at.is_(None),
        )
        .limit(1)
    ).first()
    return taken is not None


def write_tokens(
    conn: Connection, night_id: str, dialect: str, change: TokenChange, at: datetime
) -> TokensChanged:
    """The tokens of ``change`` (not its options) written on ``conn``, in its transaction;
    raises SQLAlchemy's ``IntegrityError`` for a hash already stored."""
    revoked = tuple(revoke(conn, night_id, what, at) for what in change.revoke)
    if change.add:
        conn.execute(insert(_TOKENS), [token_values(t, at) for t in change.add])
    numbered, number = None, None
    if change.numbered is not None:
        numbered, number = _numbered(conn, night_id, dialect, change.numbered, at)
    claimed = None
    if change.claim is not None:
        if dialect == "postgresql":
            advisory.take(conn, advisory.NIGHT_CLAIMS, night_id)
        claimed = change.shared or not followed(conn, change.claim)
        if claimed:
            conn.execute(insert(_TOKENS), token_values(change.claim, at))
    return TokensChanged(revoked, claimed, numbered=numbered, number=number)


def _numbered(
    conn: Connection, night_id: str, dialect: str, numbered: Numbered, at: datetime
) -> tuple[TokenRecord, int]:
    """The token of ``numbered`` stored on ``conn`` with the next number, and the number;
    raises :class:`NumbersFull` past its caps. On PostgreSQL the night's numbering lock is
    held to the transaction's end: the next one reads this one's number."""
    if dialect == "postgresql":
        advisory.take(conn, advisory.NIGHT_NUMBERS, night_id)
    role = numbered.token.role
    labels = conn.execute(
        select(_TOKENS.c.player).where(_TOKENS.c.night_id == night_id, _TOKENS.c.role == role)
    ).scalars()
    held = list(labels)
    highest = max((n for n in map(numbered.number_of, held) if n is not None), default=0)
    over_number = numbered.most_number is not None and highest >= numbered.most_number
    over_count = numbered.most_tokens is not None and len(held) >= numbered.most_tokens
    if over_number or over_count:
        raise NumbersFull(len(held), highest)
    token = replace(numbered.token, player=numbered.label(highest + 1))
    conn.execute(insert(_TOKENS), token_values(token, at))
    return token, highest + 1
