"""Upgrades keep data: a database left at each earlier migration head (0001 … the one before
today's), holding what a user had stored by then, is upgraded to head on SQLite and PostgreSQL
and then used through HTTP — the keys authenticate, the tools answer with their versions, the
old session takes calls, the call log, data sets and secrets are there.

The data is made once at head through the API (so it is what the product writes), then each
earlier schema gets the rows of its own tables, in its own columns (migrations only add tables
and columns on the way up, never drop or rename one). Also: `quiver migrate --check` and the
downgrade of the newest migration."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import MetaData, Table, insert, select, text
from sqlalchemy.ext.asyncio import AsyncEngine

from server.secretbox import generate_key
from server.settings import Settings
from server.storage import migrate
from server.storage.database import create_engine
from tests.api.test_calls import call, python, session_for
from tests.conftest import ADMIN_KEY, TenantKeys, _pg_admin, _pg_url, api_for

REVISIONS = [revision for revision, _ in migrate.pending_between(None)]
EARLIER = REVISIONS[:-1]
SECRET_KEY = generate_key()

GREET = """
def execute(params, context):
    return {"hello": params.get("who", "you"), "version": VERSION}

VERSION = %d
tool = {"name": "greet", "description": "Greets", "execute": execute,
        "parameters": {"who": {"type": "string"}}}
"""
PROBE = """
def execute(params, context):
    return {"token_ends_with": context.secrets["CRM_TOKEN"][-4:]}

tool = {"name": "probe", "description": "Reads a secret", "execute": execute,
        "metadata": {"secrets": ["CRM_TOKEN"]}}
"""


def introduced(table: str) -> str:
    """The revision whose upgrade created ``table``."""
    for revision in REVISIONS:
        source = next((Path(migrate.MIGRATIONS_DIR) / "versions").glob(f"{revision}_*.py"))
        if f'create_table(\n        "{table}"' in source.read_text():
            return revision
    raise AssertionError(f"no migration creates {table}")


def settings_for(url: str, data_dir: Path) -> Settings:
    return Settings(
        _env_file=None, database_url=url, data_dir=data_dir, admin_key=ADMIN_KEY,
        secret_key=SECRET_KEY, tools_dir=None, workers=1, require_isolation=False,
        worker_spares=0,
    )  # fmt: skip


async def _make_data(settings: Settings) -> tuple[dict[str, Any], dict[str, list[dict]]]:
    """What a user stores, through the API; then every row of every table."""
    async with api_for(settings) as api:
        acme: TenantKeys = await api.tenant("acme")
        sid = await session_for(acme, [python(GREET % 1), python(PROBE)])
        saved = await acme.dev.put("/v1/tools/greet", json=python(GREET % 2))
        assert saved.status_code == 200, saved.text
        secret = await acme.dev.put("/v1/secrets/CRM_TOKEN", json={"value": "crm-token-7890"})
        assert secret.status_code in (200, 201), secret.text
        faq = b'{"id": "hours", "question": "When are you open?", "answer": "9 to 5"}\n'
        uploaded = await acme.dev.put(
            "/v1/datasets/faq?kind=faq", content=faq,
            headers={"Content-Type": "application/x-ndjson"},
        )  # fmt: skip
        assert uploaded.status_code in (200, 201), uploaded.text
        greeted = await call(acme, sid, "greet", {"who": "ada"})
        assert greeted["result"] == {"hello": "ada", "version": 2}
        await api.runtime.call_log.flush()
        engine = api.runtime.engine
        rows = await _dump(engine)
    facts = {"sid": sid, "dev_key": acme.dev_key, "agent_key": acme.agent_key}
    return facts, rows


async def _dump(engine: AsyncEngine) -> dict[str, list[dict]]:
    metadata = MetaData()
    async with engine.connect() as conn:
        await conn.run_sync(metadata.reflect)
        dumped = {}
        for table in metadata.sorted_tables:
            if table.name == "alembic_version":
                continue
            dumped[table.name] = [dict(r._mapping) for r in await conn.execute(select(table))]
    return dumped


async def _load(engine: AsyncEngine, rows: dict[str, list[dict]]) -> None:
    """Each table this schema has gets its rows, in the columns it has."""
    metadata = MetaData()
    async with engine.begin() as conn:
        await conn.run_sync(metadata.reflect)
        tables: list[Table] = [t for t in metadata.sorted_tables if t.name in rows]
        for table in reversed(tables):
            await conn.execute(table.delete())  # rows the migrations seed (the global tenant)
        for table in tables:
            columns = set(table.columns.keys())
            projected = [{k: v for k, v in row.items() if k in columns} for row in rows[table.name]]
            if projected:
                await conn.execute(insert(table), projected)
        if conn.dialect.name == "postgresql":  # the serial ids go on after the copied ones
            for table in tables:
                if "id" in table.columns and table.columns["id"].autoincrement is True and rows[table.name]:  # fmt: skip
                    await conn.execute(text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                        f"(SELECT max(id) FROM {table.name}))"
                    ))  # fmt: skip


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def kind(request: pytest.FixtureRequest) -> str:
    if request.param == "postgresql":
        request.getfixturevalue("postgres_url")  # skips, or fails under CI, without a server
    return request.param


@pytest.fixture(scope="module")
def made(kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[dict, dict]]:
    """The data, made once per database kind."""
    folder = tmp_path_factory.mktemp(f"made-{kind}")
    with _database(kind, folder, "made") as url:
        yield asyncio.run(_make_data(settings_for(url, folder / "data")))


class _database:
    """A fresh, empty database of ``kind`` (dropped afterwards on PostgreSQL)."""

    def __init__(self, kind: str, folder: Path, name: str) -> None:
        self.kind, self.folder, self.name = kind, folder, name
        self.pg_name = f"quiver_upgrade_{os.getpid()}_{name}"

    def __enter__(self) -> str:
        if self.kind == "sqlite":
            return f"sqlite+aiosqlite:///{self.folder / (self.name + '.db')}"
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{self.pg_name}"'))
        asyncio.run(_pg_admin(f'CREATE DATABASE "{self.pg_name}"'))
        return _pg_url(self.pg_name)

    def __exit__(self, *exc: object) -> None:
        if self.kind == "postgresql":
            asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{self.pg_name}" WITH (FORCE)'))


async def _at(url: str, revision: str, rows: dict[str, list[dict]]) -> None:
    engine = create_engine(url)
    try:
        await migrate.upgrade(engine, revision)
        await _load(engine, rows)
        assert await migrate.current_revision(engine) == revision
    finally:
        await engine.dispose()


async def _use(settings: Settings, facts: dict, revision: str) -> dict[str, Any]:
    """Everything a user does with what they had stored, after the upgrade (the app's start
    upgrades: QUIVER_AUTO_MIGRATE is on by default)."""
    async with api_for(settings) as api:
        dev = api.client(facts["dev_key"])
        agent = api.client(facts["agent_key"])
        seen: dict[str, Any] = {
            "revision": await migrate.current_revision(api.runtime.engine),
            "tenants": (await api.admin.get("/v1/tenants")).status_code,
            "versions": [
                v["version"] for v in (await dev.get("/v1/tools/greet/versions")).json()["versions"]
            ],  # fmt: skip
            "snapshot": (await agent.get("/v1/bots/b/snapshot")).status_code,
        }
        if revision >= introduced("sessions"):
            answer = await agent.post(
                f"/v1/sessions/{facts['sid']}/calls", json={"tool": "greet", "arguments": {"who": "bo"}}
            )  # fmt: skip
            seen["old_session_call"] = answer.json().get("result")
        fresh = (await agent.post("/v1/sessions", json={"bot": "b"})).json()["id"]
        answer = await agent.post(f"/v1/sessions/{fresh}/calls", json={"tool": "greet", "arguments": {}})  # fmt: skip
        seen["new_session_call"] = answer.json().get("result")
        await api.runtime.call_log.flush()
        seen["calls"] = len((await dev.get("/v1/calls", params={"tool": "greet"})).json()["calls"])
        if revision >= introduced("secrets"):
            probe = await agent.post(f"/v1/sessions/{fresh}/calls", json={"tool": "probe", "arguments": {}})  # fmt: skip
            seen["secret"] = probe.json().get("result")
        if revision >= introduced("datasets"):
            listed = (await dev.get("/v1/datasets")).json()["datasets"]
            seen["datasets"] = [(d["name"], d["items"]) for d in listed]
    return seen


@pytest.mark.parametrize("revision", EARLIER)
def test_a_database_at_an_earlier_head_upgrades_with_its_data(
    kind: str, made: tuple[dict, dict], revision: str, tmp_path: Path
) -> None:
    facts, rows = made
    with _database(kind, tmp_path, f"at_{revision}") as url:
        asyncio.run(_at(url, revision, rows))
        seen = asyncio.run(_use(settings_for(url, tmp_path / "data"), facts, revision))

    had_sessions = revision >= introduced("tool_calls")
    expected: dict[str, Any] = {
        "revision": REVISIONS[-1],
        "tenants": 200,
        "versions": [2, 1],
        "snapshot": 200,
        "new_session_call": {"hello": "you", "version": 2},
        # the call made before (if the schema could hold it) and the one just made
        "calls": (2 if had_sessions else 1) + (1 if revision >= introduced("sessions") else 0),
    }
    if revision >= introduced("sessions"):
        expected["old_session_call"] = {"hello": "bo", "version": 2}
    if revision >= introduced("secrets"):
        expected["secret"] = {"token_ends_with": "7890"}
    if revision >= introduced("datasets"):
        expected["datasets"] = [("faq", 1)]
    assert seen == expected


def _quiver(*args: str, url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("QUIVER_")}
    env.update(QUIVER_DATABASE_URL=url, QUIVER_DATA_DIR=str(cwd / "data"))
    return subprocess.run([sys.executable, "-m", "server.cli", *args], env=env, cwd=cwd,
                          capture_output=True, text=True)  # fmt: skip


def test_migrate_check_says_what_a_start_would_apply_and_the_newest_can_be_undone(
    kind: str, made: tuple[dict, dict], tmp_path: Path
) -> None:
    _, rows = made
    previous, head = REVISIONS[-2], REVISIONS[-1]
    with _database(kind, tmp_path, "check") as url:
        asyncio.run(_at(url, previous, rows))
        behind = _quiver("migrate", "--check", url=url, cwd=tmp_path)
        upgraded = _quiver("migrate", url=url, cwd=tmp_path)
        current = _quiver("migrate", "--check", url=url, cwd=tmp_path)
        undone = _quiver("migrate", "--downgrade", "--yes", url=url, cwd=tmp_path)
        again = _quiver("migrate", "--downgrade", "--yes", url=url, cwd=tmp_path)
        redone = _quiver("migrate", url=url, cwd=tmp_path)

    assert behind.returncode == 1 and f"would apply {head}:" in behind.stdout
    assert "1 migration(s) pending" in behind.stderr
    assert upgraded.returncode == 0 and f"applied {head}:" in upgraded.stdout
    assert current.returncode == 0 and "would apply" not in current.stdout
    assert undone.returncode == 0 and f"undid {head}; schema at {previous}" in undone.stdout
    assert again.returncode == 1 and "downgrade with the release that made it" in again.stderr
    assert redone.returncode == 0 and f"schema at {head}" in redone.stdout
