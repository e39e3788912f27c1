"""Migrations on both databases: upgrade, readiness, and replicas that start together."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from alembic.script import ScriptDirectory
from sqlalchemy import text

from server.api.app import create_app
from server.storage import migrate
from server.storage.database import create_engine
from tests.conftest import _pg_admin, _pg_url


async def test_schema_is_at_head_and_readyz_says_so(api) -> None:
    async with api.client(None) as client:
        ready = await client.get("/readyz")
        healthy = await client.get("/healthz")

    assert await migrate.current_revision(api.runtime.engine) == migrate.head_revision()
    assert ready.status_code == 200 and ready.json()["checks"] == {
        "call_log": "ok",
        "database": "ok",
        "migrations": "ok",
    }
    assert healthy.json() == {"status": "ok"}


async def test_readyz_is_503_when_the_schema_is_behind(settings, tmp_path: Path) -> None:
    empty = settings.model_copy(
        update={
            "database_url": f"sqlite+aiosqlite:///{tmp_path / 'empty.db'}",
            "auto_migrate": False,
        }
    )
    engine = create_engine(empty.effective_database_url)
    await migrate.upgrade(engine)
    async with engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    await engine.dispose()
    app = create_app(empty)

    async with (
        app.router.lifespan_context(app),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client,
    ):
        response = await client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["status"] == "not_ready"


async def test_upgrade_is_idempotent_on_sqlite(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}")

    await migrate.upgrade(engine)
    await migrate.upgrade(engine)

    assert await migrate.current_revision(engine) == migrate.head_revision()
    await engine.dispose()


async def test_a_schema_at_head_starts_without_running_alembic(tmp_path: Path, monkeypatch) -> None:
    engine = create_engine(f"sqlite+aiosqlite:///{tmp_path / 'q.db'}")
    scripts = ScriptDirectory.from_config(migrate.alembic_config())
    previous = scripts.get_revision(migrate.head_revision()).down_revision
    await migrate.upgrade(engine, str(previous))  # a schema one release behind
    runs: list[str] = []
    real_upgrade = migrate.command.upgrade
    monkeypatch.setattr(
        migrate.command,
        "upgrade",
        lambda config, rev: runs.append(rev) or real_upgrade(config, rev),
    )

    await migrate.upgrade(engine)  # behind: Alembic runs
    await migrate.upgrade(engine)  # every later start: one read, not Alembic's scripts

    assert runs == ["head"]
    assert await migrate.current_revision(engine) == migrate.head_revision()
    await engine.dispose()


async def test_replicas_upgrading_together_on_postgres_do_not_race(postgres_url: str) -> None:
    name = postgres_url.rsplit("/", 1)[1] + "_race"
    await _pg_admin(f'DROP DATABASE IF EXISTS "{name}"')
    await _pg_admin(f'CREATE DATABASE "{name}"')
    engines = [create_engine(_pg_url(name)) for _ in range(4)]
    try:
        await asyncio.gather(*(migrate.upgrade(e) for e in engines))

        async with engines[0].connect() as conn:
            versions = (
                (await conn.execute(text("SELECT version_num FROM alembic_version")))
                .scalars()
                .all()
            )
            global_rows = (
                await conn.execute(text("SELECT count(*) FROM tenants WHERE id = '*'"))
            ).scalar()
        assert versions == [migrate.head_revision()]
        assert global_rows == 1
    finally:
        for engine in engines:
            await engine.dispose()
        await _pg_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


async def test_json_columns_use_jsonb_on_postgres(postgres_url: str) -> None:
    engine = create_engine(postgres_url)
    async with engine.connect() as conn:
        types = dict(
            (
                await conn.execute(
                    text(
                        "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'tool_versions'"
                    )
                )
            ).all()
        )
    await engine.dispose()

    assert types["parameters"] == "jsonb"
    assert types["module"] == "bytea"
