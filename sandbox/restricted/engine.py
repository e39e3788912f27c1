"""``RestrictedEngine``: RestrictedPython tool files, run in a pool of its own workers."""

from __future__ import annotations

from sandbox.engine import Capabilities
from sandbox.pool import PoolConfig, WorkerPool
from sandbox.pooled import PooledEngine


class RestrictedEngine(PooledEngine):
    name = "restricted"
    capabilities = Capabilities(imports=True, on_error=True)
    inspect_op = "inspect"
    call_op = "call"

    def __init__(self, config: PoolConfig | None = None, load_timeout_ms: int = 1_000) -> None:
        super().__init__(WorkerPool(config), load_timeout_ms)

    async def start(self) -> None:
        await self.pool.start()

    async def close(self) -> None:
        await self.pool.close()
