"""``RunnerEngine``: tool files run by a runner in the WASM workers — the Python runner
(CPython for WASI) or QuickJS. The server side of both is the same: the file is loaded at save
in a fresh instance within the load-time limit (what it declares is what is saved), and each call
goes to a worker with its limits, the source sent only when the worker has no live instance of it.
The server never imports wasmtime. A runner that answers ``fault`` hit a bug of its own (not the
tool's): the call fails with its code and this logs it, since a worker's output goes nowhere.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any

from sandbox.engine import HostHandler, Inspection, Limits, RunResult, ToolSource, Violation
from sandbox.pool import WorkerPool

DEFAULT_FUEL = 2_000_000_000
MARGIN_MS = 1_000  # the epoch deadline fires first; the pool's kill is the backstop
log = logging.getLogger("quiver.sandbox")


class RunnerEngine:
    name = "wasm"
    inspect_op = "py_inspect"
    call_op = "py_call"
    load_memory = 64 << 20

    def __init__(self, pool: WorkerPool, load_timeout_ms: int = 1_000) -> None:
        self.pool = pool
        self.load_timeout_ms = load_timeout_ms

    async def inspect(
        self, source: ToolSource, tenant: str = "", modules: tuple[str, ...] = ()
    ) -> Inspection:
        """Load the file in a fresh instance within the load-time limit (fuel and wall time)."""
        payload = {
            "op": self.inspect_op, "tenant": tenant, "hash": source.content_hash,
            "source": source.text, "modules": list(modules), "memory_bytes": self.load_memory,
            "fuel": DEFAULT_FUEL, "load_timeout": self.load_timeout_ms,
        }  # fmt: skip
        reply = await self.pool.request(
            tenant or "_inspect", payload, self.load_timeout_ms + MARGIN_MS
        )
        _log_fault(reply)
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
            "op": self.call_op, "tenant": tenant, "hash": source.key, "tool": tool,
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
        _log_fault(reply)
        took = (time.perf_counter() - started) * 1000
        return RunResult.from_worker(reply, took, tuple(reply.get("logs") or ()), "tool_error")


def _log_fault(reply: Mapping[str, Any]) -> None:
    if reply.get("fault"):
        log.warning("a WASM runner failed on its own (not the tool's fault): %s", reply.get("message"))  # fmt: skip
