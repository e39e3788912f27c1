"""``JavaScriptEngine``: JavaScript tool files run by QuickJS-NG inside wasmtime, in the WASM
workers (``host``). The same contract as the Python tiers: the tool file is loaded at save within
the load-time limit (what it declares is what is saved), and each call runs under fuel, an epoch
deadline, a memory cap and the result cap, with host calls (http, llm, knowledge_base) answered by
the server's policy. The server never imports wasmtime.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from sandbox.engine import HostHandler, Inspection, Limits, RunResult, ToolSource, Violation
from sandbox.restricted.pool import WorkerPool

DEFAULT_FUEL = 2_000_000_000
LOAD_MEMORY = 32 << 20
MARGIN_MS = 1_000  # the epoch deadline fires first; the pool's kill is the backstop


class JavaScriptEngine:
    name = "javascript"

    def __init__(self, pool: WorkerPool, load_timeout_ms: int = 1_000) -> None:
        self.pool = pool
        self.load_timeout_ms = load_timeout_ms

    async def inspect(self, source: ToolSource, tenant: str = "", modules: tuple[str, ...] = ()) -> Inspection:  # fmt: skip
        """Load the file in a fresh instance within the load-time limit (fuel and wall time)."""
        payload = {
            "op": "js_inspect", "tenant": tenant, "hash": source.content_hash,
            "source": source.text, "memory_bytes": LOAD_MEMORY, "fuel": DEFAULT_FUEL,
            "load_timeout": self.load_timeout_ms,
        }  # fmt: skip
        reply = await self.pool.request(tenant or "_inspect", payload, self.load_timeout_ms + MARGIN_MS)  # fmt: skip
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
    ) -> RunResult:
        tenant = str(context.get("tenant_id") or "")
        payload = {
            "op": "js_call", "tenant": tenant, "hash": source.key, "tool": tool, "entry": entry,
            "params": dict(params), "context": dict(context), "error": dict(error or {}),
            "memory_bytes": limits.memory_bytes, "fuel": limits.fuel or DEFAULT_FUEL,
            "timeout": limits.timeout_ms, "load_timeout": self.load_timeout_ms,
            "output_bytes": limits.output_bytes,
        }  # fmt: skip
        started = time.perf_counter()
        budget = limits.timeout_ms + self.load_timeout_ms + MARGIN_MS
        reply = await self.pool.request(tenant, payload, budget, host, source=source.text)
        took = (time.perf_counter() - started) * 1000
        return RunResult.from_worker(reply, took, tuple(reply.get("logs") or ()), "tool_error")
