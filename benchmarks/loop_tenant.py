"""One node on loopback with one tenant whose bots talk to the fake model server: what the agent
loop's benchmarks (``benchmarks.tool_search``, ``benchmarks.code_mode``) start from."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from server.api.app import create_app
from server.secretbox import generate_key
from server.settings import Settings
from tests.fake_models import FakeModel, fake_model_server
from tests.servers import served

ADMIN = "bench-admin-key-" + "l" * 40


@dataclass
class LoopTenant:
    app: Any
    fake: FakeModel
    dev: httpx.AsyncClient  # a developer key of the tenant
    agent: httpx.AsyncClient  # an agent key of the tenant


@asynccontextmanager
async def loop_tenant(workers: int = 1) -> AsyncIterator[LoopTenant]:
    """The node (SQLite, ``workers`` sandbox workers), the tenant ``bench`` allowed to reach the
    fake model server, and its provider ``fake`` (an OpenAI one) — bots name ``fake/m``."""
    data = Path(tempfile.mkdtemp(prefix="quiver-bench-loop-"))
    settings = Settings(
        _env_file=None, data_dir=data, admin_key=ADMIN, secret_key=generate_key(), workers=workers,
        require_isolation=False, log_level="warning", tenant_requests=None, key_requests=None,
    )  # fmt: skip
    app = create_app(settings)
    async with app.router.lifespan_context(app), fake_model_server() as fake, served(app) as base:

        def client(key: str) -> httpx.AsyncClient:
            return httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=120)  # fmt: skip

        async with client(ADMIN) as admin:
            await admin.post("/v1/tenants", json={"id": "bench"})
            await admin.put("/v1/tenants/bench/egress", json={"allow": [fake.host]})
            keys = {r: (await admin.post("/v1/tenants/bench/keys", json={"role": r})).json()["key"] for r in ("developer", "agent")}  # fmt: skip
        async with client(keys["developer"]) as dev, client(keys["agent"]) as agent:
            provider = {"kind": "openai", "base_url": fake.base + "/v1", "api_key": "sk-bench"}
            assert (await dev.put("/v1/providers/fake", json=provider)).status_code == 201
            yield LoopTenant(app, fake, dev, agent)
