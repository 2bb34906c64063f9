"""A club's log written as a night's: the club's seq, and the commands it took.

- ``clubs.seq``: how many events follow the club's set-up line (its log's last seq),
  filled in from the log. A command's events are stored only if the club is still at
  the seq the command was decided on (a compare-and-set on this column), all in one
  transaction (``bunco.store.clubs.ClubStore.record``).
- ``club_commands``: one row per command a club took, by its id (a client's
  ``Idempotency-Key`` and the command's number in its request): the seq it was decided
  on and the seq after its events. A retried command finds it and is not stored again.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("clubs") as batch:
        batch.add_column(sa.Column("seq", sa.Integer, nullable=False, server_default="0"))
    op.execute(
        "UPDATE clubs SET seq = (SELECT COALESCE(MAX(club_events.seq), 0) FROM club_events"
        " WHERE club_events.club_id = clubs.id)"
    )
    op.create_table(
        "club_commands",
        sa.Column(
            "club_id",
            sa.String(32),
            sa.ForeignKey("clubs.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("command_id", sa.String(120), primary_key=True),
        sa.Column("based_on", sa.Integer, nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("club_commands")
    with op.batch_alter_table("clubs") as batch:
        batch.drop_column("seq")
