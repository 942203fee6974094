"""Alembic environment: run migrations on the connection handed over by study.db.upgrade."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from study.learn.db import metadata

config = context.config
connection = config.attributes.get("connection")

if connection is not None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
else:  # `alembic -x url=... upgrade head` from the command line
    engine = create_engine(config.get_main_option("sqlalchemy.url"))
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
