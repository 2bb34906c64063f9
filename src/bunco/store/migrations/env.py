"""Alembic environment: migrations run on a connection handed in by bunco.store.db."""

from __future__ import annotations

from alembic import context

from bunco.store.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations() -> None:
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run the migrations through bunco.store.db.upgrade_database")
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run_migrations()
