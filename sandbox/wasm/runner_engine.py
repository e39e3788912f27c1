"""``RunnerEngine``: tool files run by a runner in the WASM workers — the Python runner
(CPython for WASI) or QuickJS. Each call runs under fuel, an epoch deadline, a memory cap and
the result cap; the server never imports wasmtime.
"""

from __future__ import annotations

from typing import Any, ClassVar

from sandbox.engine import Limits
from sandbox.pooled import PooledEngine

DEFAULT_FUEL = 2_000_000_000
MARGIN_MS = 1_000  # the epoch deadline fires first; the pool's kill is the backstop


class RunnerEngine(PooledEngine):
    load_memory: ClassVar[int]

    def inspect_fields(self) -> dict[str, Any]:
        return {
            "memory_bytes": self.load_memory,
            "fuel": DEFAULT_FUEL,
            "load_timeout": self.load_timeout_ms,
        }

    def call_fields(self, limits: Limits) -> dict[str, Any]:
        return {
            "memory_bytes": limits.memory_bytes,
            "fuel": limits.fuel or DEFAULT_FUEL,
            "timeout": limits.timeout_ms,
            "load_timeout": self.load_timeout_ms,
            "output_bytes": limits.output_bytes,
        }

    def load_budget_ms(self) -> int:
        return self.load_timeout_ms + MARGIN_MS

    def call_budget_ms(self, limits: Limits) -> int:
        # a worker without a live instance of the file loads it first
        return limits.timeout_ms + self.load_timeout_ms + MARGIN_MS
