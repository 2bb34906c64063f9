"""Rate-limit counters shared by every server process (PostgreSQL).

- ``rate_counts``: one row per rate limit on failed attempts (wrong join codes, unknown
  tokens) and key (whose failures): the times of the failures in its moving window
  (an array of seconds since the epoch) and when the row may be deleted. Several
  ``bunco serve`` processes on one PostgreSQL database count together (see
  :mod:`bunco.store.rate_counts`); one process on SQLite keeps its counts in memory and
  leaves this table empty (its ``hits`` is plain text there).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_counts",
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column(
            "hits",
            sa.Text().with_variant(postgresql.ARRAY(sa.Double), "postgresql"),
            nullable=False,
        ),
        sa.Column("expires_at", sa.Double, nullable=False),
    )
    op.create_index("ix_rate_counts_expires_at", "rate_counts", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_rate_counts_expires_at", table_name="rate_counts")
    op.drop_table("rate_counts")
