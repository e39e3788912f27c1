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

MAX_CACHED_MODULES = 256


class Worker:
    def __init__(self, restricted: bool) -> None:
        self.restricted = restricted
        # least recently used first: a full cache drops its coldest module, not every module
        self.modules: OrderedDict[tuple[str, str, str], list[LoadedTool]] = OrderedDict()
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
            while len(self.modules) >= MAX_CACHED_MODULES:
                self.modules.popitem(last=False)
            allowed = DEFAULT_MODULES | (frozenset(modules) & REVIEWED_EXTRA)
            self.loads += 1
            cached = self.modules[key] = load(source, allowed, restricted=self.restricted)
        return cached

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
