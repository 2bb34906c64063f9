"""Command ids scoped to the caller, with the request they stand for; recoverable creations.

- ``events.caller``: whose command id it is (the hash prefix of the token that sent it,
  ``bot`` for the server's bots, empty for rows written before this revision); the unique
  key becomes (night, caller, command id), so two phones numbering their commands 1, 2, 3
  never meet.
- ``events.request_hash``: SHA-256 of the request behind the command, so the same id with
  another request is refused instead of answered with another command's event.
- ``nights.create_salt`` and ``nights.create_request``: a creation retried with the same
  command id and request is answered with the same tokens (re-derived, never stored).

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("caller", sa.String(32), nullable=False, server_default=""))
        batch.add_column(sa.Column("request_hash", sa.String(64), nullable=True))
        batch.drop_constraint("uq_events_night_command", type_="unique")
        batch.create_unique_constraint(
            "uq_events_night_caller_command", ["night_id", "caller", "command_id"]
        )
    with op.batch_alter_table("nights") as batch:
        batch.add_column(sa.Column("create_salt", sa.String(64), nullable=True))
        batch.add_column(sa.Column("create_request", sa.String(64), nullable=True))


def downgrade() -> None:
    # SQLite drops these columns in place: copying the table would delete the nights'
    # events and tokens by their ON DELETE CASCADE
    with op.batch_alter_table("nights", recreate="never") as batch:
        batch.drop_column("create_request")
        batch.drop_column("create_salt")
    # the old key is (night, command id): keep two callers' equal ids apart
    op.execute(
        "UPDATE events SET command_id = substr(caller || ':' || command_id, 1, 100)"
        " WHERE caller <> '' AND command_id IS NOT NULL"
    )
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("uq_events_night_caller_command", type_="unique")
        batch.create_unique_constraint("uq_events_night_command", ["night_id", "command_id"])
        batch.drop_column("request_hash")
        batch.drop_column("caller")
