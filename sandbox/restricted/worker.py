"""The worker process: ``python -m sandbox.restricted.worker``.

Started by the pool with an empty environment and an empty working directory. It reads one
configuration frame, imports everything it will need, hardens itself, says ``ready``, then serves
requests one at a time over fds 0 (in) and 1 (out) until the pool closes the pipe or kills it.

Requests: ``inspect`` (load a file: violations or the tools it declares) and ``call`` (run
``execute`` or ``on_error`` of one tool). Loaded modules are cached by (tenant, content hash),
so a tenant's module state never reaches another tenant's call.
"""

from __future__ import annotations

import hashlib
import os
import sys
import traceback
from typing import Any

from sandbox import channel
from sandbox.hardening import HardeningConfig, harden, limit_cpu_for_call
from sandbox.restricted import facades
from sandbox.restricted.facades import DEFAULT_MODULES, REVIEWED_EXTRA, reseed_random
from sandbox.restricted.guards import SandboxError
from sandbox.restricted.loader import Context, LoadedTool, Namespace, ToolLoadError, load

IN, OUT = 0, 1
WASM_THREADS = 64  # per uid: wasmtime's WASI thread pool, with room for workers sharing a uid
MAX_CACHED_MODULES = 256
MAX_LOG_LINES = 200


class Worker:
    def __init__(self, restricted: bool) -> None:
        self.restricted = restricted
        self.modules: dict[tuple[str, str, str], list[LoadedTool]] = {}
        self.loads = 0

    def tools(self, request: dict[str, Any]) -> list[LoadedTool] | None:
        """The request's loaded module, or ``None`` when it must be resent with its source.

        Cached by (tenant, content hash, granted modules): a tenant's module state never
        reaches another tenant's call, and a warm call carries no source at all.
        """
        modules = request.get("modules") or []
        key = (request.get("tenant", ""), request.get("hash") or "", ",".join(sorted(modules)))
        cached = self.modules.get(key)
        if cached is None:
            source = request.get("source")
            if source is None:
                return None
            if not request.get("hash"):
                key = (key[0], hashlib.sha256(source.encode()).hexdigest(), key[2])
            if len(self.modules) >= MAX_CACHED_MODULES:
                self.modules.clear()
            allowed = DEFAULT_MODULES | (frozenset(modules) & REVIEWED_EXTRA)
            self.loads += 1
            cached = self.modules[key] = load(source, allowed, restricted=self.restricted)
        return cached

    def inspect(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            loaded = self.tools(request)
            if loaded is None:
                return {"ok": False, "code": "need_source"}
        except ToolLoadError as exc:
            violations = getattr(exc, "violations", None)
            if violations:
                return {
                    "ok": False,
                    "violations": [
                        {"message": v.message, "line": v.line, "field": v.field} for v in violations
                    ],
                }
            return {
                "ok": False,
                "violations": [{"message": str(exc), "line": exc.line, "field": exc.field}],
            }
        except MemoryError:
            return {
                "ok": False,
                "code": "memory_limit",
                "violations": [
                    {"message": "loading the file ran out of memory", "field": "source"}
                ],
            }
        except BaseException as exc:  # the tool file's own top level failed
            return {
                "ok": False,
                "violations": [
                    {
                        "message": f"loading failed: {_describe(exc)}",
                        "line": _tool_line(exc),
                        "field": "source",
                    }
                ],
            }
        return {
            "ok": True,
            "tools": [{**t.spec, "has_on_error": t.on_error is not None} for t in loaded],
        }

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        logs: list[str] = []
        updates: dict[str, Any] = {}
        try:
            loaded = self.tools(request)
            if loaded is None:
                return {"ok": False, "code": "need_source"}
            tool = next((t for t in loaded if t.name == request["tool"]), None)
            if tool is None:
                return _failure("tool_error", f"the file does not declare {request['tool']!r}")
            func = tool.on_error if request.get("entry") == "on_error" else tool.execute
            if func is None:
                return _failure("tool_error", "the tool has no on_error")
            reseed_random()
            limit_cpu_for_call(max(1, int(request.get("timeout_ms", 5000) / 1000) + 1))
            context = _context(request.get("context", {}), logs, updates)
            args = (
                (request["error"], request["params"], context)
                if request.get("entry") == "on_error"
                else (request["params"], context)
            )
            value = func(*args)
        except MemoryError:
            return {
                "ok": False,
                "code": "memory_limit",
                "message": "the tool ran out of memory",
                "logs": logs[-MAX_LOG_LINES:],
                "recycle": True,
            }
        except RecursionError:
            return _failure("tool_error", "maximum recursion depth exceeded", logs)
        except (ToolLoadError, SandboxError) as exc:
            return _failure("tool_error", str(exc), logs)
        except BaseException as exc:  # the tool's own exception is its result
            return _failure("tool_error", _describe(exc), logs, line=_tool_line(exc))
        if not isinstance(value, dict):
            return _failure(
                "tool_error", f"execute must return a dict, not {type(value).__name__}", logs
            )
        cap = request.get("result_cap", 64 * 1024)
        if _at_least(value, cap + 1) > cap:
            return _failure("result_too_large", f"the result is over the {cap} byte cap", logs)
        try:
            body = channel.dumps(value)
        except (TypeError, ValueError) as exc:
            return _failure("malformed_output", f"the result is not JSON data: {exc}", logs)
        if len(body) > request.get("result_cap", 64 * 1024):
            return _failure(
                "result_too_large",
                f"the result is {len(body)} bytes, over the {request.get('result_cap')} byte cap",
                logs,
            )
        return {"ok": True, "value": value, "logs": logs[-MAX_LOG_LINES:], "updates": updates}


def _at_least(value: Any, limit: int, depth: int = 0) -> int:
    """A lower bound of the value's JSON size, computed without serialising and stopping at
    ``limit``: a 100 MB result is refused before anything copies it."""
    if depth > 64:
        return limit
    if isinstance(value, str | bytes):
        return len(value) + 2
    if isinstance(value, dict):
        total = 2
        for key, item in value.items():
            total += len(str(key)) + 4 + _at_least(item, limit - total, depth + 1)
            if total >= limit:
                return total
        return total
    if isinstance(value, list | tuple):
        total = 2
        for item in value:
            total += 1 + _at_least(item, limit - total, depth + 1)
            if total >= limit:
                return total
        return total
    return 8


def _failure(
    code: str, message: str, logs: list[str] | None = None, line: int | None = None
) -> dict[str, Any]:
    return {
        "ok": False,
        "code": code,
        "message": message[:2000],
        "line": line,
        "logs": (logs or [])[-MAX_LOG_LINES:],
    }


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:2000]


def _tool_line(exc: BaseException) -> int | None:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == "<tool>"]
    return frames[-1].lineno if frames else None


def _context(data: dict[str, Any], logs: list[str], updates: dict[str, Any]) -> Context:
    variables = dict(data.get("variables") or {})

    def update_context(values: Any) -> None:
        if not isinstance(values, dict) or not all(isinstance(k, str) for k in values):
            raise TypeError("update_context takes a dict with string keys")
        channel.dumps(values)  # must be JSON data
        updates.update(values)
        variables.update(values)

    def log(level: str):
        def write(*parts: Any) -> None:
            if len(logs) < MAX_LOG_LINES:
                logs.append(f"{level}: " + " ".join(str(p) for p in parts)[:2000])

        return write

    def http(method: str):
        def send(url: str, **kwargs: Any) -> Any:
            return host_call("http", method, {"url": url, **kwargs})

        return send

    logger = Namespace(
        debug=log("debug"), info=log("info"), warning=log("warning"), error=log("error")
    )
    http_ns = Namespace(
        get=http("GET"),
        post=http("POST"),
        put=http("PUT"),
        patch=http("PATCH"),
        delete=http("DELETE"),
        request=lambda method, url, **kw: host_call(
            "http", str(method).upper(), {"url": url, **kw}
        ),
    )
    return Context(
        session_id=data.get("session_id"),
        tenant_id=data.get("tenant_id"),
        bot_id=data.get("bot_id"),
        test_mode=bool(data.get("test_mode")),
        variables=variables,
        update_context=update_context,
        modules=Namespace(http=http_ns, logger=logger),
    )


def host_call(module: str, method: str, args: dict[str, Any]) -> Any:
    """Ask the server to do something on the tool's behalf; policy is enforced there."""
    channel.write_frame(OUT, {"op": "host", "module": module, "method": method, "args": args})
    reply = channel.read_frame(IN)
    if not reply.get("ok"):
        raise RuntimeError(reply.get("error", "host call failed"))
    return reply.get("value")


def wasm_handlers(wasm: Any) -> dict[str, Any]:
    """Requests for WASI modules (``sandbox.wasm``): compile, and call a compiled one."""
    import base64

    import orjson

    from sandbox.wasm.runtime import WasmLimits, WasmModuleError

    def compile_(request: dict[str, Any]) -> dict[str, Any]:
        try:
            artefact = wasm.compile(base64.b64decode(request["module"]))
        except WasmModuleError as exc:
            return {"ok": False, "code": "invalid_module", "message": str(exc)}
        return {"ok": True, "artefact": base64.b64encode(artefact).decode()}

    def call(request: dict[str, Any]) -> dict[str, Any]:
        key = request["key"]
        if not wasm.has(key):
            if "source" not in request:
                return {"ok": False, "code": "need_source"}
            wasm.load(key, base64.b64decode(request["source"]))
        outcome = wasm.run(
            key,
            request["request"].encode(),
            WasmLimits(
                timeout_ms=request["timeout"], fuel=request["fuel"],
                memory_bytes=request["memory_bytes"], output_bytes=request["output_bytes"],
            ),
            host_call,  # http goes to the server, which applies the egress policy
        )  # fmt: skip
        reply = {
            "ok": outcome.ok, "stderr": outcome.stderr, "compilations": wasm.compilations,
            "logs": list(outcome.logs), "updates": outcome.updates,
        }  # fmt: skip
        if outcome.ok:
            reply["value"] = orjson.loads(orjson.dumps(outcome.value))
        else:
            reply.update(code=outcome.code, message=outcome.message)
        return reply

    return {"wasm_compile": compile_, "wasm_call": call}


def main() -> None:
    config = channel.read_frame(IN)
    facades.prewarm()
    wasm = None
    if config.get("wasm", False):
        # before hardening: the runtime's epoch ticker is a thread, and RLIMIT_NPROC 0 forbids
        # starting one later
        from sandbox.wasm.runtime import WasmRuntime

        wasm = WasmRuntime()
    layers = harden(
        HardeningConfig(
            uid=config.get("uid"),
            memory_bytes=config.get("memory_bytes", 512 * 1024 * 1024),
            network_namespace=config.get("network_namespace", True),
            seccomp=config.get("seccomp", True),
            threads=WASM_THREADS if wasm is not None else 0,
        )
    )
    worker = Worker(restricted=config.get("restricted", True))
    channel.write_frame(OUT, {"op": "ready", "layers": layers, "pid": os.getpid()})
    handlers = {
        "inspect": worker.inspect,
        "call": worker.call,
        "ping": lambda r: {"ok": True, "loads": worker.loads},
        **(wasm_handlers(wasm) if wasm is not None else {}),
    }
    while True:
        try:
            request = channel.read_frame(IN)
        except EOFError:
            return
        reply = handlers[request["op"]](request)
        reply["op"] = "result"
        channel.write_frame(OUT, reply)


if __name__ == "__main__":
    sys.setrecursionlimit(400)
    main()
