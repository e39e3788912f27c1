"""The RestrictedPython pool's worker process: ``python -m sandbox.restricted.worker``.

Started by the pool with an empty environment and an empty working directory; what every
worker shares (the pipe, host calls, hardening, the serve loop) is ``sandbox.worker``.

Requests: ``inspect`` (load a file: violations or the tools it declares) and ``call`` (run
``execute`` or ``on_error`` of one tool). Loaded modules are cached by (tenant, content hash),
so a tenant's module state never reaches another tenant's call.
"""

from __future__ import annotations

import hashlib
import sys
from collections import OrderedDict
from typing import Any

from sandbox import channel, toolcode, worker
from sandbox.hardening import limit_cpu_for_call
from sandbox.restricted import facades
from sandbox.restricted.facades import DEFAULT_MODULES, REVIEWED_EXTRA, reseed_random
from sandbox.restricted.guards import SandboxError
from sandbox.restricted.loader import load
from sandbox.toolcode import LoadedTool

MAX_CACHED_MODULES = 16_384  # a trivial tool's module holds ~6 KB here: ~100 MB at most
MAX_CACHED_SOURCE = 16 << 20  # and the sources of those kept, 16 MiB at most


class Worker:
    def __init__(self, restricted: bool) -> None:
        self.restricted = restricted
        # least recently used first: a full cache drops a cold module, not every module
        self.modules: OrderedDict[tuple[str, str, str], list[LoadedTool]] = OrderedDict()
        self.sizes: dict[tuple[str, str, str], int] = {}  # each module's source length
        self.held: dict[str, int] = {}  # by tenant: the source length of its modules kept
        self.size = 0
        self.loads = 0

    def tools(self, request: dict[str, Any]) -> list[LoadedTool] | None:
        """The request's loaded module, or ``None`` when it must be resent with its source.

        Cached by (tenant, content hash, granted modules): a tenant's module state never
        reaches another tenant's call, and a warm call carries no source at all.
        """
        modules = request.get("modules") or []
        key = (request.get("tenant", ""), request.get("hash") or "", ",".join(sorted(modules)))
        cached = self.modules.get(key)
        if cached is not None:
            self.modules.move_to_end(key)
        else:
            source = request.get("source")
            if source is None:
                return None
            if not request.get("hash"):
                key = (key[0], hashlib.sha256(source.encode()).hexdigest(), key[2])
            allowed = DEFAULT_MODULES | (frozenset(modules) & REVIEWED_EXTRA)
            self.loads += 1
            packages = request.get("packages") or ()
            cached = load(source, allowed, restricted=self.restricted, packages=packages)
            self._keep(key, cached, len(source) + 1)
        return cached

    def _keep(self, key: tuple[str, str, str], tools: list[LoadedTool], size: int) -> None:
        """Cache a loaded module. Full, the cache drops the least recently used module of the
        tenant holding the most source: a tenant cycling through thousands of tools evicts its
        own, never every other tenant's."""
        while self.modules and (
            len(self.modules) >= MAX_CACHED_MODULES or self.size + size > MAX_CACHED_SOURCE
        ):
            largest = max(self.held, key=self.held.__getitem__)
            victim = next(k for k in self.modules if k[0] == largest)
            del self.modules[victim]
            self._held(victim, -self.sizes.pop(victim))
        self.modules[key] = tools
        self.sizes[key] = size
        self._held(key, size)

    def _held(self, key: tuple[str, str, str], change: int) -> None:
        self.size += change
        left = self.held.get(key[0], 0) + change
        if left:
            self.held[key[0]] = left
        else:
            del self.held[key[0]]

    def inspect(self, request: dict[str, Any]) -> dict[str, Any]:
        return toolcode.inspect_reply(lambda: self.tools(request))

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        def before() -> None:
            reseed_random()
            limit_cpu_for_call(max(1, int(request.get("timeout_ms", 5000) / 1000) + 1))

        return toolcode.call_reply(
            lambda: self.tools(request),
            request,
            worker.host_call,
            channel.dumps,
            before,
            (SandboxError,),
        )


def main() -> None:
    config = worker.read_config()
    facades.prewarm()  # every module a tool may import, before hardening
    tools = Worker(restricted=config.get("restricted", True))
    worker.serve(
        worker.hardening(config),
        {
            "inspect": tools.inspect,
            "call": tools.call,
            "ping": lambda request: {"ok": True, "loads": tools.loads},
        },
    )


if __name__ == "__main__":
    sys.setrecursionlimit(400)
    main()
