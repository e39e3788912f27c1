"""``WasmEngine``: WASI modules run by wasmtime inside the hardened worker processes.

The server process never imports wasmtime: compiling happens in a worker (at save; at a call only
for a version stored without an artefact for this wasmtime), and every call runs in a worker, so a
wasmtime bug is still contained by the OS layers. Artefacts (``Module.serialize()``) are kept per
node, keyed by tenant + content hash + wasmtime version + engine configuration, and stored with the
tool version (the server does that: ``adopt`` / ``artefact``); a worker that has not loaded one asks
for it and deserialises it (~0.1 ms) — a call never compiles. Tenants never share an artefact key,
so one tenant's upload cannot plant code that another's calls deserialise.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import time
from collections import OrderedDict

import orjson

from sandbox.engine import Capabilities, Inspection, Run, RunResult, ToolSource, Violation
from sandbox.pool import WorkerPool

ENGINE_CONFIG = "fuel+epoch;reserve=67108864;guard=65536;cow=off"  # must match the runtime's
MAX_ARTEFACTS = 1024
DEADLINE_MARGIN_MS = 1_000  # the epoch deadline fires first; the pool's kill is the backstop


class WasmEngine:
    name = "wasm"
    capabilities = Capabilities(metered=True)

    def __init__(self, pool: WorkerPool) -> None:
        self.pool = pool
        self.version = importlib.metadata.version("wasmtime")
        self.engine_id = f"wasmtime {self.version};{ENGINE_CONFIG}"  # what an artefact needs
        self.compilations = 0  # on this node, at save or on an artefact miss
        self._artefacts: OrderedDict[str, str] = OrderedDict()

    def key(self, tenant: str, source: ToolSource) -> str:
        raw = f"{tenant}\0{source.key}\0{self.engine_id}"
        return hashlib.sha256(raw.encode()).hexdigest()

    def has(self, tenant: str, source: ToolSource) -> bool:
        return self.key(tenant, source) in self._artefacts

    def artefact(self, tenant: str, source: ToolSource) -> bytes | None:
        """The compiled module this node holds (to be stored with the tool version)."""
        encoded = self._artefacts.get(self.key(tenant, source))
        return None if encoded is None else base64.b64decode(encoded)

    def adopt(self, tenant: str, source: ToolSource, artefact: bytes) -> None:
        """Use an artefact compiled earlier — on any node, by this ``engine_id`` — and kept
        with the tool version; the caller has checked its MAC."""
        self._remember(self.key(tenant, source), base64.b64encode(artefact).decode())

    async def compile(self, tenant: str, source: ToolSource) -> list[Violation]:
        """Compile in a worker and keep the artefact; the reasons it cannot, if any."""
        reply = await self.pool.request(
            tenant or "_compile",
            {"op": "wasm_compile", "module": base64.b64encode(source.module or b"").decode()},
            30_000,
        )
        if not reply.get("ok"):
            return [
                Violation(reply.get("message") or "the module cannot be compiled", field="module")
            ]
        self.compilations += 1
        self._remember(self.key(tenant, source), reply["artefact"])
        return []

    async def inspect(
        self, source: ToolSource, tenant: str = "", modules: tuple[str, ...] = ()
    ) -> Inspection:
        """Compile the module at save (a call then never compiles); a module declares no
        tools of its own (its definition says what it is)."""
        return Inspection(await self.compile(tenant, source))

    def _remember(self, key: str, artefact: str) -> None:
        self._artefacts[key] = artefact
        self._artefacts.move_to_end(key)
        while len(self._artefacts) > MAX_ARTEFACTS:
            self._artefacts.popitem(last=False)

    async def run(self, source: ToolSource, run: Run) -> RunResult:
        key = self.key(run.tenant, source)
        started = time.perf_counter()
        if key not in self._artefacts:  # a node that did not see the save: compile once
            problems = await self.compile(run.tenant, source)
            if problems:
                return RunResult.failure("trap", problems[0].message)
        limits = run.limits
        request = orjson.dumps({"params": dict(run.params), "context": dict(run.context)})
        payload = {
            "op": "wasm_call",
            "key": key,
            "request": request.decode(),
            "timeout": limits.timeout_ms,
            "fuel": limits.fuel,
            "memory_bytes": limits.memory_bytes,
            "output_bytes": limits.output_bytes,
        }
        reply = await self.pool.request(
            run.tenant,
            payload,
            limits.timeout_ms + DEADLINE_MARGIN_MS,
            run.host,
            source=self._artefacts[key],
        )
        took = (time.perf_counter() - started) * 1000
        stderr = [f"stderr: {line}" for line in (reply.get("stderr") or "").splitlines() if line]
        logs = (*(reply.get("logs") or ()), *stderr)
        if reply.get("ok") and not isinstance(reply["value"], dict):
            reply = {**reply, "value": {"success": True, "result": reply["value"]}}
        return RunResult.from_worker(reply, took, logs, "trap")
