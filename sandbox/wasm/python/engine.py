"""``PythonWasmEngine``: Python tool files run by CPython inside wasmtime, in the WASM workers.

The same tool-file shape, ``context`` and import table as the RestrictedPython tier, but the
file is plain Python: the boundary is WebAssembly (and, around it, the worker's OS hardening),
not a language subset. Runs only where the runner has been built (``build``); the server never
imports wasmtime.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from sandbox.engine import HostHandler, Inspection, Limits, RunResult, ToolSource, Violation
from sandbox.restricted.pool import WorkerPool

DEFAULT_FUEL = 2_000_000_000
LOAD_MEMORY = 64 << 20
MARGIN_MS = 1_000  # the epoch deadline fires first; the pool's kill is the backstop


class PythonWasmEngine:
    name = "wasm"

    def __init__(self, pool: WorkerPool, load_timeout_ms: int = 1_000) -> None:
        self.pool = pool
        self.load_timeout_ms = load_timeout_ms

    async def inspect(
        self, source: ToolSource, tenant: str = "", modules: tuple[str, ...] = ()
    ) -> Inspection:
        """Load the file in a fresh instance within the load-time limit (fuel and wall time)."""
        payload = {
            "op": "py_inspect", "tenant": tenant, "hash": source.content_hash,
            "source": source.text, "modules": list(modules), "memory_bytes": LOAD_MEMORY,
            "fuel": DEFAULT_FUEL, "load_timeout": self.load_timeout_ms,
        }  # fmt: skip
        reply = await self.pool.request(
            tenant or "_inspect", payload, self.load_timeout_ms + MARGIN_MS
        )
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
            "op": "py_call", "tenant": tenant, "hash": source.key, "tool": tool,
            "entry": entry, "params": dict(params), "context": dict(context),
            "error": dict(error or {}), "modules": list(modules),
            "memory_bytes": limits.memory_bytes, "fuel": limits.fuel or DEFAULT_FUEL,
            "timeout": limits.timeout_ms, "load_timeout": self.load_timeout_ms,
            "output_bytes": limits.output_bytes,
        }  # fmt: skip
        started = time.perf_counter()
        # a worker without a live instance of this file asks for the source and loads it first
        budget = limits.timeout_ms + self.load_timeout_ms + MARGIN_MS
        reply = await self.pool.request(tenant, payload, budget, host, source=source.text)
        took = (time.perf_counter() - started) * 1000
        return RunResult.from_worker(reply, took, tuple(reply.get("logs") or ()), "tool_error")
