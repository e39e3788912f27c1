"""``RestrictedEngine``: the Engine interface over the worker pool."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from sandbox.engine import HostHandler, Inspection, Limits, RunResult, ToolSource, Violation
from sandbox.pool import PoolConfig, WorkerPool


class RestrictedEngine:
    name = "restricted"

    def __init__(self, config: PoolConfig | None = None, load_timeout_ms: int = 1_000) -> None:
        self.pool = WorkerPool(config)
        self.load_timeout_ms = load_timeout_ms

    async def start(self) -> None:
        await self.pool.start()

    async def close(self) -> None:
        await self.pool.close()

    async def inspect(
        self, source: ToolSource, tenant: str = "", modules: tuple[str, ...] = ()
    ) -> Inspection:
        """Compile and run the file's top level within the load-time limit."""
        payload = {
            "op": "inspect",
            "tenant": tenant,
            "hash": source.content_hash,
            "source": source.text,
            "modules": list(modules),
        }
        reply = await self.pool.request(tenant or "_inspect", payload, self.load_timeout_ms)
        return Inspection.from_reply(reply, self.load_timeout_ms)

    async def check(self, source: ToolSource) -> list[Violation]:
        return (await self.inspect(source)).violations

    async def run(
        self,
        source: ToolSource,
        tool: str,
        params: Mapping[str, Any],
        context: Mapping[str, Any],
        limits: Limits,
        host: HostHandler | None = None,
        *,
        entry: str = "execute",
        error: Mapping[str, Any] | None = None,
        modules: tuple[str, ...] = (),
    ) -> RunResult:
        tenant = str(context.get("tenant_id") or "")
        payload = {
            "op": "call", "tenant": tenant, "hash": source.key, "tool": tool, "entry": entry,
            "params": dict(params), "context": dict(context), "error": dict(error or {}), "modules": list(modules),
        }  # fmt: skip
        started = time.perf_counter()
        # Warm workers have the module cached: send the source only when one asks for it.
        reply = await self.pool.request(
            tenant, payload, limits.timeout_ms, host, source=source.text
        )
        took = (time.perf_counter() - started) * 1000
        return RunResult.from_worker(reply, took, tuple(reply.get("logs") or ()), "tool_error")
