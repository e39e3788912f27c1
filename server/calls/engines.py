"""The node's engines, and the one place a tool's kind, sandbox and origin choose its engine.

Adding an engine: a folder under ``sandbox/`` with a class that implements ``sandbox.engine.
Engine`` (and ``Loader`` if its files are loaded at save), a field here, a line in ``for_tool``
and ``loader_for``, and its construction in ``server.bootstrap``. What it can do is its
``capabilities``: the pipeline asks those, never its name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sandbox.engine import Engine, Loader
from sandbox.pool import WorkerPool
from sandbox.restricted.engine import RestrictedEngine
from sandbox.wasm.engine import WasmEngine
from sandbox.wasm.javascript.engine import JavaScriptEngine
from sandbox.wasm.python.engine import PythonWasmEngine
from server.calls.inprocess import InProcessEngine
from server.calls.mcp_remote import McpEngine
from server.calls.webhook import WebhookEngine


@dataclass(frozen=True, slots=True)
class Engines:
    restricted: RestrictedEngine
    wasm: WasmEngine
    javascript: JavaScriptEngine
    python_wasm: PythonWasmEngine | None  # None where the Python runner is not built
    webhook: WebhookEngine
    builtin: InProcessEngine = field(default_factory=InProcessEngine)
    mcp: McpEngine | None = None  # federated MCP servers' tools (through the egress guard)

    def for_tool(self, kind: str, sandbox: str | None, origin: str) -> Engine[Any] | None:
        """What runs a tool of this kind; ``None``: nothing on this node can (yet)."""
        if kind == "webhook":
            return self.webhook
        if kind == "mcp":
            return self.mcp
        if kind == "wasm":
            return self.wasm
        if kind == "javascript":
            return self.javascript
        if kind != "python":
            return None
        if sandbox == "wasm":  # unavailable until the runner is built on this node
            return self.python_wasm
        if sandbox in ("restricted", "builtin"):
            return self.builtin if origin == "builtin" else self.restricted
        return None

    def loader_for(self, kind: str, sandbox: str | None) -> Loader | None:
        """What loads a tool file of this kind at save; ``None``: checked statically only."""
        if kind == "wasm":
            return self.wasm
        if kind == "javascript":
            return self.javascript
        if kind != "python":
            return None
        return self.python_wasm if sandbox == "wasm" else self.restricted

    @property
    def pools(self) -> list[WorkerPool]:
        """The worker pools behind the engines, each once (the WASM engines share one)."""
        engines = (self.restricted, self.wasm, self.javascript, self.python_wasm)
        pools = {id(e.pool): e.pool for e in engines if e is not None}
        return list(pools.values())

    async def close(self) -> None:
        for pool in self.pools:
            await pool.close()
        if self.mcp is not None:
            await self.mcp.close()
