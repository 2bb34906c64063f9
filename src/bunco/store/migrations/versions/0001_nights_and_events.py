"""The first schema: nights and their append-only event log.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nights",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("create_command_id", sa.String(100), nullable=True, unique=True),
    )
    op.create_table(
        "events",
        sa.Column(
            "night_id",
            sa.String(32),
            sa.ForeignKey("nights.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("table_no", sa.Integer, nullable=True),
        sa.Column("command_id", sa.String(100), nullable=True),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("night_id", "command_id", name="uq_events_night_command"),
    )


def downgrade() -> None:
    op.drop_table("events")
    op.drop_table("nights")
