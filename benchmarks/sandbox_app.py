"""The floor for the HTTP benchmark: the bare endpoint plus the sandbox's round trip alone.

The same FastAPI endpoint as ``bare_app``, which runs the benchmark's tool in the server's
worker pool (same size, same hardening, same per-tenant cap) before it answers. What a tool
call costs above this row is the platform's own work: authentication, rates, the session and
its gate, arguments, breakers, quotas, the call log, metrics.
"""

import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from benchmarks.restricted import TOOL
from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import PoolConfig
from sandbox.restricted.engine import RestrictedEngine

SOURCE = ToolSource("python", "restricted", TOOL)
engines: dict[str, RestrictedEngine] = {}


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    engine = engines["pool"] = RestrictedEngine(
        PoolConfig(size=int(os.environ.get("QUIVER_WORKERS", "4")))
    )
    try:
        yield
    finally:
        await engine.close()


app = FastAPI(lifespan=lifespan)


@app.post("/v1/sessions/{sid}/calls")
async def call(sid: str) -> dict[str, Any]:
    outcome = await engines["pool"].run(
        SOURCE, Run("b", "echo", {"x": "1"}, {"tenant_id": "b"}, Limits())
    )
    return {"success": True, "toolName": "echo", "executionTime": 0.1, "result": outcome.value}
