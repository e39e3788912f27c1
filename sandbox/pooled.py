"""``PooledEngine``: what the engines that run tool files in a pool's workers share — the
RestrictedPython tier and the WASM runners (CPython for WASI, QuickJS).

A file is loaded at save in a worker within the load-time limit (what it declares is what is
saved); each call goes to a worker of the tenant's, the source sent only when the worker has no
live copy of it. A worker that answers ``fault`` hit a bug of its own (not the tool's): the call
fails with its code and this logs it, since a worker's output goes nowhere.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from sandbox.engine import (
    PACKAGE,
    Capabilities,
    Inspection,
    Limits,
    PackageFiles,
    Run,
    RunResult,
    ToolSource,
    Violation,
    package_keys,
)
from sandbox.pool import WorkerPool

log = logging.getLogger("quiver.sandbox")


class PooledEngine:
    name: ClassVar[str]
    capabilities: ClassVar[Capabilities]
    inspect_op: ClassVar[str]
    call_op: ClassVar[str]
    language: ClassVar[str] = "python"  # the reviewed packages its files may import

    def __init__(self, pool: WorkerPool, load_timeout_ms: int = 1_000) -> None:
        self.pool = pool
        self.load_timeout_ms = load_timeout_ms
        self.packages: PackageFiles | None = None  # where granted packages' files are read

    async def granted(self, modules: tuple[str, ...]) -> list[Mapping[str, Any]] | str:
        """The files of the granted packages in this engine's language, or why not."""
        keys = package_keys(modules)
        if not keys:
            return []
        if self.packages is None:
            return "reviewed packages are not available on this node"
        specs = []
        for key in keys:
            spec = await self.packages.spec(key)
            if spec is None:
                return f"a granted reviewed package ({key[:12]}…) is no longer stored"
            if spec.get("language") == self.language:
                specs.append(spec)
        return specs

    def inspect_fields(self) -> dict[str, Any]:
        """What a worker of this engine needs beyond the file to load it."""
        return {}

    def call_fields(self, limits: Limits) -> dict[str, Any]:
        """What a worker of this engine needs beyond the run to call a tool."""
        return {}

    def load_budget_ms(self) -> int:
        """How long the pool waits for a load before it kills the worker."""
        return self.load_timeout_ms

    def call_budget_ms(self, limits: Limits) -> int:
        """How long the pool waits for a call before it kills the worker."""
        return limits.timeout_ms

    async def inspect(
        self,
        source: ToolSource,
        tenant: str = "",
        modules: tuple[str, ...] = (),
        trial: Sequence[Mapping[str, Any]] = (),
    ) -> Inspection:
        """Load the file for real, within the load-time limit (``trial``: packages' files to
        load it with beside the granted ones, an upload's trial import)."""
        specs = await self.granted(modules)
        if isinstance(specs, str):
            return Inspection([Violation(specs, field="source")])
        specs = [*specs, *trial]
        payload = {
            "op": self.inspect_op,
            "tenant": tenant,
            "hash": source.content_hash,
            "source": source.text,
            # a trial's packages are named too: what a worker keeps is keyed by them
            "modules": [*modules, *(PACKAGE + str(spec["key"]) for spec in trial)],
            **({"packages": specs} if specs else {}),
            **self.inspect_fields(),
        }
        reply = await self.pool.request(tenant or "_inspect", payload, self.load_budget_ms())
        _log_fault(reply)
        return Inspection.from_reply(reply, self.load_timeout_ms)

    async def run(self, source: ToolSource, run: Run) -> RunResult:
        specs = await self.granted(run.modules)
        if isinstance(specs, str):
            return RunResult.failure("tool_error", specs)
        payload = {
            "op": self.call_op,
            "hash": source.key,
            **run.payload(),
            **self.call_fields(run.limits),
        }
        started = time.perf_counter()
        # a worker without a live copy of this file asks for the source and loads it first
        reply = await self.pool.request(
            run.tenant,
            payload,
            self.call_budget_ms(run.limits),
            run.host,
            source={"source": source.text, "packages": specs} if specs else source.text,
        )
        _log_fault(reply)
        took = (time.perf_counter() - started) * 1000
        return RunResult.from_worker(reply, took, tuple(reply.get("logs") or ()), "tool_error")


def _log_fault(reply: dict[str, Any]) -> None:
    if reply.get("fault"):
        message = reply.get("message")
        log.warning("a sandbox runner failed on its own (not the tool's fault): %s", message)
