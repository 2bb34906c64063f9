"""Access tokens, night options (bots) and an index for per-table catch-up.

Revision ID: 0002
Revises: 0001
Create Date: 2024-06-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("nights") as batch:
        batch.add_column(sa.Column("options", sa.Text, nullable=False, server_default="{}"))
    op.create_index("ix_events_night_table_seq", "events", ["night_id", "table_no", "seq"])
    op.create_table(
        "tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column(
            "night_id",
            sa.String(32),
            sa.ForeignKey("nights.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("table_no", sa.Integer, nullable=True),
        sa.Column("player", sa.String(100), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tokens_night", "tokens", ["night_id"])


def downgrade() -> None:
    op.drop_index("ix_tokens_night", table_name="tokens")
    op.drop_table("tokens")
    op.drop_index("ix_events_night_table_seq", table_name="events")
    with op.batch_alter_table("nights") as batch:
        batch.drop_column("options")
