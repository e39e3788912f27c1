"""Built-in tools: trusted files shipped with Quiver, run in the server process.

They use the same tool-file shape and the same ``context`` as tenant tools, but they are
reviewed code, so they run without the sandbox (DESIGN §4.5). ``execute`` may be a coroutine
function (the skills are: they await the server's use cases through the host call ``skills``);
the call's timeout holds either way. A ``ToolFailure`` raised by the tool fails the call with
its code.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
import traceback
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from sandbox.engine import Capabilities, HostHandler, Run, RunResult, ToolFailure, ToolSource
from sandbox.toolcode import Context, Namespace
from server.ratelimit import RateLimitedLog

builtin_bugs = RateLimitedLog(logging.getLogger("quiver.builtin"), every_s=10.0)


class HostModule:
    """``context.modules.<module>.<method>(**args)``: an awaitable host call."""

    def __init__(self, host: HostHandler | None, module: str) -> None:
        self._host = host
        self._module = module

    def __getattr__(self, method: str) -> Callable[..., Awaitable[Any]]:
        if method.startswith("_"):
            raise AttributeError(method)

        async def call(args: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
            if self._host is None:
                raise ToolFailure(
                    "host_call_error", f"{self._module}.{method} is not available here"
                )
            return await self._host(self._module, method, {**(args or {}), **kwargs})

        return call


class InProcessEngine:
    name = "builtin"
    # reviewed code, run in the server process: no sandbox, no quota of CPU time
    capabilities = Capabilities(counts_cpu=False)

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

    async def run(self, source: ToolSource, run: Run) -> RunResult:
        tool, params, context, limits, host = (
            run.tool,
            run.params,
            run.context,
            run.limits,
            run.host,
        )
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
                "emit": lambda partial: HostModule(host, "context").emit(partial=partial),
                "progress": lambda progress=None, message=None: HostModule(
                    host, "context"
                ).progress(progress=progress, message=message),
                "modules": Namespace(
                    logger=Namespace(
                        info=log("info"),
                        warning=log("warning"),
                        error=log("error"),
                        debug=log("debug"),
                    ),
                    skills=HostModule(host, "skills"),
                    knowledge_base=HostModule(host, "knowledge_base"),
                ),
            }
        )

        def took() -> float:
            return (time.perf_counter() - started) * 1000

        try:
            value = self._tools(source)[tool]["execute"](dict(params), ctx)
            if inspect.isawaitable(value):
                value = await asyncio.wait_for(value, limits.timeout_ms / 1000)
        except ToolFailure as exc:
            return RunResult.failure(exc.code, exc.message, took())
        except TimeoutError:
            return RunResult.failure("timeout", f"no answer within {limits.timeout_ms} ms", took())
        except Exception as exc:  # a built-in's own bug: the call fails (tool_error), the node
            # carries on, and the bug is logged with its traceback (it is ours, not a tenant's)
            builtin_bugs.warning(
                "built-in tool %s failed: %s\n%s", tool, exc, traceback.format_exc()
            )
            return RunResult.failure("tool_error", f"{type(exc).__name__}: {exc}", took())
        return RunResult(
            ok=True, value=value, duration_ms=took(), logs=tuple(logs), updates=updates
        )
