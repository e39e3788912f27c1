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
import signal
import sys
from typing import Any

from sandbox import channel, toolcode
from sandbox.hardening import HardeningConfig, harden, limit_cpu_for_call
from sandbox.restricted import facades
from sandbox.restricted.facades import DEFAULT_MODULES, REVIEWED_EXTRA, reseed_random
from sandbox.restricted.guards import SandboxError
from sandbox.restricted.loader import load
from sandbox.toolcode import LoadedTool

IN, OUT = 0, 1
WASM_THREADS = 64  # per uid: wasmtime's WASI thread pool, with room for workers sharing a uid
MAX_CACHED_MODULES = 256
WASM_OUTPUT_FILE_BYTES = 1 << 20  # a WASI module's stdout or stderr, at most


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
        return toolcode.inspect_reply(lambda: self.tools(request))

    def call(self, request: dict[str, Any]) -> dict[str, Any]:
        def before() -> None:
            reseed_random()
            limit_cpu_for_call(max(1, int(request.get("timeout_ms", 5000) / 1000) + 1))

        return toolcode.call_reply(
            lambda: self.tools(request), request, host_call, channel.dumps, before, (SandboxError,)
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
            # a flood stopped by RLIMIT_FSIZE can leave bytes in the process's stdout buffer
            # (wasmtime writes through Rust's): no later call, of any tenant, may receive them
            reply["recycle"] = outcome.code == "result_too_large"
        return reply

    return {"wasm_compile": compile_, "wasm_call": call}


def python_handlers(runner: Any) -> dict[str, Any]:
    """Requests for Python tools in WASM (``sandbox.wasm.python``): load a file, call a tool."""
    return {
        "py_inspect": runner.inspect,
        "py_call": lambda request: runner.call(request, host_call),
    }


def javascript_handlers(runner: Any) -> dict[str, Any]:
    """Requests for JavaScript tools (``sandbox.wasm.javascript``): load a file, call a tool."""
    return {
        "js_inspect": runner.inspect,
        "js_call": lambda request: runner.call(request, host_call),
    }


def main() -> None:
    config = channel.read_frame(IN)
    facades.prewarm()
    wasm = runner = js = None
    if config.get("wasm", False):
        # before hardening: the runtime's epoch ticker is a thread, and RLIMIT_NPROC 0 forbids
        # starting one later
        from sandbox.wasm.runtime import WasmRuntime

        # each call's stdout and stderr become fds 1 and 2 (memory files bounded by the
        # RLIMIT_FSIZE below; past it a write fails, nothing dies): the channel leaves fd 1
        global OUT
        OUT = os.dup(1)
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.close(null)
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        wasm = WasmRuntime(process_stdio=True)
        if config.get("python_runner"):  # loaded now: the file is unreadable once hardened
            from sandbox.wasm.python.host import PythonRunner

            runner = PythonRunner(config["python_runner"], wasm)
        if config.get("js_runner"):  # likewise
            from sandbox.wasm.javascript.host import JsRunner

            js = JsRunner(config["js_runner"], wasm)
    layers = harden(
        HardeningConfig(
            uid=config.get("uid"),
            memory_bytes=config.get("memory_bytes", 512 * 1024 * 1024),
            network_namespace=config.get("network_namespace", True),
            seccomp=config.get("seccomp", True),
            threads=WASM_THREADS if wasm is not None else 0,
            file_bytes=max(config.get("result_cap", 0) + 1, WASM_OUTPUT_FILE_BYTES) if wasm else 0,
        )
    )
    worker = Worker(restricted=config.get("restricted", True))
    channel.write_frame(OUT, {"op": "ready", "layers": layers, "pid": os.getpid()})
    handlers = {
        "inspect": worker.inspect,
        "call": worker.call,
        "ping": lambda r: {"ok": True, "loads": worker.loads},
        **(wasm_handlers(wasm) if wasm is not None else {}),
        **(python_handlers(runner) if runner is not None else {}),
        **(javascript_handlers(js) if js is not None else {}),
    }
    while True:
        try:
            request = channel.read_frame(IN)
        except EOFError:
            return
        reply = handlers[request["op"]](request)
        reply["op"] = "result"
        channel.write_frame(OUT, reply)
        if runner is not None:
            runner.idle()
        if js is not None:
            js.idle()


if __name__ == "__main__":
    sys.setrecursionlimit(400)
    main()
