"""Built-in tools: trusted files shipped with Quiver, run in the server process.

They use the same tool-file shape and the same ``context`` as tenant tools, but they are
reviewed code, so they run without the sandbox (DESIGN §4.5).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from sandbox.engine import HostHandler, Limits, RunResult, ToolSource
from sandbox.toolcode import Context, Namespace


class InProcessEngine:
    name = "builtin"

    def __init__(self) -> None:
        self._modules: dict[str, dict[str, Any]] = {}

    def _tools(self, source: ToolSource) -> dict[str, Any]:
        key = source.key
        if key not in self._modules:
            namespace: dict[str, Any] = {"__name__": "quiver_builtin"}
            exec(compile(source.text or "", "<builtin>", "exec"), namespace)
            declared = namespace.get("tools") or [namespace["tool"]]
            self._modules[key] = {t["name"]: t for t in declared}
        return self._modules[key]

    async def run(
        self,
        source: ToolSource,
        tool: str,
        params: Mapping[str, Any],
        context: Mapping[str, Any],
        limits: Limits,
        host: HostHandler | None = None,
    ) -> RunResult:
        started = time.perf_counter()
        updates: dict[str, Any] = {}
        logs: list[str] = []
        variables = dict(context.get("variables") or {})

        def update_context(values: dict[str, Any]) -> None:
            updates.update(values)
            variables.update(values)

        def log(level: str) -> Callable[..., None]:
            return lambda *parts: logs.append(f"{level}: " + " ".join(map(str, parts)))

        ctx = Context(
            {
                **context,
                "variables": variables,
                "update_context": update_context,
                "modules": Namespace(
                    logger=Namespace(
                        info=log("info"),
                        warning=log("warning"),
                        error=log("error"),
                        debug=log("debug"),
                    )
                ),
            }
        )
        try:
            value = self._tools(source)[tool]["execute"](dict(params), ctx)
        except Exception as exc:
            return RunResult.failure(
                "tool_error", f"{type(exc).__name__}: {exc}", (time.perf_counter() - started) * 1000
            )
        took = (time.perf_counter() - started) * 1000
        return RunResult(ok=True, value=value, duration_ms=took, logs=tuple(logs), updates=updates)
