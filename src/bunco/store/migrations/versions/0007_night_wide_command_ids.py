"""Command ids are one command of the night, whoever sends it.

- ``events.command_scope``: the space a command id belongs to: ``""`` for every token of
  the night (a table's phones, the host and co-hosts, players), or the server's own
  callers (``bot``, ``clock``, ``server``), whose ids are made by the server. The unique
  key becomes (night, scope, command id): a retry of a command under another token (a
  phone that joined the table again from its QR link, the host) finds the first event
  and is never stored twice, on every process and after a restart.
- Rows stored before this revision: an id that two tokens used alike (as revision 0003
  allowed) stands for its first event in the night's space; the later ones keep their
  own caller as their scope, so nothing stored is changed and the key holds.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(
            sa.Column("command_scope", sa.String(32), nullable=False, server_default="")
        )
    server = "('bot', 'clock', 'server')"
    op.execute(f"UPDATE events SET command_scope = caller WHERE caller IN {server}")
    # an id two tokens stored before: the first event keeps it for the night, the later
    # ones stay in their own caller's space (nothing stored is changed)
    op.execute(
        "UPDATE events SET command_scope = caller"
        f" WHERE command_id IS NOT NULL AND caller NOT IN {server} AND EXISTS ("
        " SELECT 1 FROM events AS earlier WHERE earlier.night_id = events.night_id"
        f" AND earlier.command_id = events.command_id AND earlier.caller NOT IN {server}"
        " AND earlier.seq < events.seq)"
    )
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("uq_events_night_caller_command", type_="unique")
        batch.create_unique_constraint(
            "uq_events_night_scope_command", ["night_id", "command_scope", "command_id"]
        )


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("uq_events_night_scope_command", type_="unique")
        batch.create_unique_constraint(
            "uq_events_night_caller_command", ["night_id", "caller", "command_id"]
        )
        batch.drop_column("command_scope")
