"""Shared fixtures: every HTTP test runs on SQLite and on PostgreSQL.

PostgreSQL comes from ``QUIVER_TEST_PG_URL`` (default: the local server, trust auth). When it is
unreachable its tests are skipped with a reason, unless ``QUIVER_REQUIRE_POSTGRES=1`` (set by
``.ci/run``), which turns the skip into a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from server.api.app import create_app
from server.clock import MovableClock
from server.secretbox import generate_key
from server.settings import Settings
from server.storage import migrate
from server.storage.database import create_engine
from server.storage.tables import Base

pytest_plugins = ["tests.wasm_modules"]  # the `compiled` fixture: WASI modules built from C
PG_SERVER = os.environ.get(
    "QUIVER_TEST_PG_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
PG_DB = f"quiver_test_{os.getpid()}"
ADMIN_KEY = "test-admin-key-" + "a" * 40
# every table the models declare is emptied between tests (a table a change adds, too), but
# compiled WASM modules: keyed by their content's hash, they hold no test's state and are costly
# to build again. The schema's own bookkeeping (alembic_version) is not a model's.
KEPT = {"wasm_artefacts"}
TABLES = tuple(sorted(set(Base.metadata.tables) - KEPT))


def _pg_url(database: str) -> str:
    return PG_SERVER.rsplit("/", 1)[0] + "/" + database


async def _pg_admin(sql: str) -> None:
    engine = create_engine(PG_SERVER)
    try:
        async with engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


async def _migrate(url: str) -> None:
    engine = create_engine(url)
    try:
        await migrate.upgrade(engine)
    finally:
        await engine.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "quiver.db"
    asyncio.run(_migrate(f"sqlite+aiosqlite:///{path}"))
    return path


@pytest.fixture(scope="session")
def postgres_url() -> str:
    try:
        asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{PG_DB}"'))
        asyncio.run(_pg_admin(f'CREATE DATABASE "{PG_DB}"'))
    except Exception as exc:
        if os.environ.get("QUIVER_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required but unreachable: {exc}")
        pytest.skip(f"PostgreSQL unavailable ({type(exc).__name__}); PostgreSQL tests skipped")
    url = _pg_url(PG_DB)
    asyncio.run(_migrate(url))
    yield url
    asyncio.run(_pg_admin(f'DROP DATABASE IF EXISTS "{PG_DB}" WITH (FORCE)'))


async def _reset_postgres(url: str) -> None:
    engine = create_engine(url)
    try:
        async with engine.begin() as conn:
            await conn.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
            await conn.execute(
                text(
                    "INSERT INTO tenants (id, name, shared_tools, registry_version, created_at) VALUES ('*', 'global tools', '[]', 0, now())"
                )
            )
    finally:
        await engine.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A migrated, empty database of each kind."""
    if request.param == "sqlite":
        path = tmp_path / "quiver.db"
        shutil.copy(request.getfixturevalue("sqlite_template"), path)
        return f"sqlite+aiosqlite:///{path}"
    url = request.getfixturevalue("postgres_url")
    asyncio.run(_reset_postgres(url))
    return url


@pytest.fixture
def settings(request: pytest.FixtureRequest, database_url: str, tmp_path: Path) -> Settings:
    workers = request.node.get_closest_marker("workers")
    return Settings(
        _env_file=None,
        database_url=database_url,
        data_dir=tmp_path / "data",
        admin_key=ADMIN_KEY,
        secret_key=generate_key(),
        tools_dir=None,
        # each test app starts its own pool; one worker keeps the suite quick unless a test
        # needs more (@pytest.mark.workers(n))
        workers=workers.args[0] if workers else 1,
        # the start-up layer check has tests of its own (tests/api/test_isolation_check.py);
        # other test apps start their workers at their first call
        require_isolation=False,
        # a warm spare per pool doubles each test app's worker starts; the spares have tests
        # of their own (tests/sandbox/test_pool.py)
        worker_spares=0,
    )


@dataclass
class TenantKeys:
    id: str
    dev: httpx.AsyncClient
    agent: httpx.AsyncClient
    dev_key: str
    agent_key: str


class Api:
    """HTTP clients over the ASGI app, and factories for what tests need."""

    def __init__(self, app, admin: httpx.AsyncClient) -> None:
        self.app = app
        self.admin = admin
        self._clients: list[httpx.AsyncClient] = []

    @property
    def runtime(self):
        return self.app.state.runtime

    @property
    def clock(self) -> MovableClock:
        return self.app.state.runtime.clock

    def client(self, key: str | None) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self.app),
            base_url="http://quiver.test",
            headers=headers,
        )
        self._clients.append(client)
        return client

    async def key(self, tenant: str, role: str) -> str:
        response = await self.admin.post(f"/v1/tenants/{tenant}/keys", json={"role": role})
        assert response.status_code == 201, response.text
        return response.json()["key"]

    async def tenant(self, tenant_id: str, shared: list[str] | None = None) -> TenantKeys:
        response = await self.admin.post(
            "/v1/tenants", json={"id": tenant_id, "name": tenant_id.title()}
        )
        assert response.status_code == 201, response.text
        if shared is not None:
            assert (
                await self.admin.put(
                    f"/v1/tenants/{tenant_id}/shared-tools", json={"tools": shared}
                )
            ).status_code == 200
        dev_key, agent_key = (
            await self.key(tenant_id, "developer"),
            await self.key(tenant_id, "agent"),
        )
        return TenantKeys(
            tenant_id, self.client(dev_key), self.client(agent_key), dev_key, agent_key
        )

    async def close(self) -> None:
        for client in self._clients:
            await client.aclose()


@contextlib.asynccontextmanager
async def api_for(settings: Settings, span_exporter: Any = None) -> AsyncIterator[Api]:
    """A started app for these settings, with the admin client (for tests that vary them). Its
    clock is the test's: ``api.clock.advance(s)`` moves the node's time (breakers, caches,
    hooks, the sweeper) without sleeping. ``span_exporter``: where its traces go."""
    app = create_app(settings, MovableClock(), span_exporter)
    async with app.router.lifespan_context(app):
        api = Api(app, None)  # type: ignore[arg-type]
        api.admin = api.client(ADMIN_KEY)
        try:
            yield api
        finally:
            await api.close()


@pytest.fixture
async def api(settings: Settings) -> AsyncIterator[Api]:
    async with api_for(settings) as api:
        yield api


@pytest.fixture(scope="session")
def canary_http():
    """A loopback HTTP server on 127.0.0.1 that egress tests must never reach."""
    from tests.loopback import LoopbackServer

    server = LoopbackServer("127.0.0.1")
    yield server
    server.close()


@pytest.fixture(scope="session")
def upstream_http():
    """A loopback HTTP server on 127.0.0.2, admitted by the tests' allowlists."""
    from tests.loopback import LoopbackServer

    server = LoopbackServer("127.0.0.2")
    yield server
    server.close()


# each pytest-xdist worker flushes a Redis database of its own (9, 10, …)
_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
REDIS_URL = os.environ.get("QUIVER_TEST_REDIS_URL", f"redis://127.0.0.1:6379/{9 + _WORKER}")


@pytest.fixture
def redis_url() -> str:
    """A flushed Redis database for the shared tier. Skipped when Redis is unreachable, unless
    ``QUIVER_REQUIRE_REDIS=1`` (set by ``.ci/run``), which makes that a failure."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
    try:
        client.flushdb()
    except redis.RedisError as exc:
        if os.environ.get("QUIVER_REQUIRE_REDIS") == "1":
            raise
        pytest.skip(f"Redis unavailable ({type(exc).__name__}); Redis tests skipped")
    finally:
        client.close()
    return REDIS_URL


@pytest.fixture
async def fake() -> AsyncIterator[Any]:
    """A fake model server on loopback (tests/fake_models.py)."""
    from tests.fake_models import fake_model_server

    async with fake_model_server() as server:
        yield server


@pytest.fixture
async def agents(settings: Settings) -> AsyncIterator[Api]:
    """An app for agent-loop tests: a provider's failure fails at once (no retries). The
    timeout is generous, so a busy machine never reads as a silent provider; the test of the
    timeout itself builds its own impatient app."""
    quick = settings.model_copy(update={"provider_retries": 0, "provider_timeout_s": 60.0})
    async with api_for(quick) as api:
        yield api
