"""Schema upgrades through Alembic.

On PostgreSQL the upgrade runs under a session advisory lock, so replicas starting together do
not race: the first migrates, the others wait and then find the schema at head.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

import migrations

MIGRATIONS_DIR = Path(migrations.__file__).resolve().parent
ADVISORY_LOCK_ID = 0x5175_6976  # "Quiv"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


@functools.cache
def head_revision() -> str | None:
    """The newest migration this code ships (read once: parsing the scripts is ~25 ms of CPU,
    and readiness probes ask on the event loop)."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())


def pending_between(current: str | None, target: str = "head") -> list[tuple[str, str]]:
    """The migrations an upgrade from ``current`` to ``target`` applies, oldest first: each
    revision and the first line of what it says it does."""
    script = ScriptDirectory.from_config(alembic_config())
    steps = list(script.iterate_revisions(target, current))
    return [(s.revision, " ".join((s.doc or "").split("\n\n")[0].split())) for s in reversed(steps)]


async def pending(engine: AsyncEngine) -> list[tuple[str, str]]:
    """What a start (``QUIVER_AUTO_MIGRATE``) or ``quiver db upgrade`` would apply now."""
    return pending_between(await current_revision(engine))


async def downgrade_one(engine: AsyncEngine) -> tuple[str, str | None]:
    """Undo the newest applied migration: (the revision undone, the revision now current)."""
    current = await current_revision(engine)
    if current is None:
        raise ValueError("the database has no schema to downgrade")
    script = ScriptDirectory.from_config(alembic_config())
    previous = script.get_revision(current).down_revision
    if previous is None:
        raise ValueError(
            f"{current} is the first migration: undoing it would drop every table (start over "
            "with an empty database instead)"
        )
    if current != head_revision():
        raise ValueError(
            f"the schema is at {current}, not at this release's head {head_revision()}: "
            "downgrade with the release that made it"
        )

    def _downgrade(sync_conn: Any) -> None:
        config = alembic_config()
        config.attributes["connection"] = sync_conn
        command.downgrade(config, str(previous))

    async with engine.connect() as conn:
        await conn.run_sync(_downgrade)
        await conn.commit()
    return current, str(previous)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Bring the schema to ``revision``. A schema already at head — every start but the first
    after a release — costs one read, not a run of Alembic's environment and scripts."""
    if revision == "head" and await current_revision(engine) == head_revision():
        return

    def _upgrade(sync_conn: Any) -> None:
        config = alembic_config()
        config.attributes["connection"] = sync_conn
        command.upgrade(config, revision)

    async with engine.connect() as conn:
        postgres = conn.dialect.name == "postgresql"
        if postgres:
            await conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": ADVISORY_LOCK_ID})
            await conn.commit()
        try:
            await conn.run_sync(_upgrade)
            await conn.commit()
        finally:
            if postgres:
                await conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": ADVISORY_LOCK_ID})
                await conn.commit()
