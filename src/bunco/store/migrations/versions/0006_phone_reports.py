"""What each table's phone last said its outbox holds, shared by every server process.

- ``phone_reports``: one row per night and table: when its phone was last heard (UTC,
  ISO 8601) and its last report (JSON: entries waiting, the oldest one's time and age,
  the refused entries waiting for a person, the offline mode). Every process of
  ``bunco serve --workers N`` writes the reports its phones send and the host page's
  process reads them all (see :mod:`bunco.store.phone_reports`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "phone_reports",
        sa.Column(
            "night_id",
            sa.String(32),
            sa.ForeignKey("nights.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("table_no", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("heard", sa.String(40), nullable=False),
        sa.Column("report", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("phone_reports")
