"""Alembic environment. ``quiver db upgrade`` passes a live connection in ``config.attributes``;
plain ``alembic -c migrations/alembic.ini`` uses ``sqlalchemy.url`` (or ``QUIVER_DATABASE_URL``)."""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from server.storage.tables import Base

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_with_own_engine(url: str) -> None:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(_run)
    await engine.dispose()


connection = context.config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    from server.settings import Settings

    url = context.config.get_main_option("sqlalchemy.url") or Settings().effective_database_url
    asyncio.run(_run_with_own_engine(url))
