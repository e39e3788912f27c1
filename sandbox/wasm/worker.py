"""The WASM pool's worker process: ``python -m sandbox.wasm.worker``.

It loads wasmtime, and the runners its pool was built with (the Python runner, QuickJS),
before hardening: the runtime's epoch ticker is a thread, which RLIMIT_NPROC forbids starting
later, and the runners' files are unreadable once hardened. What every worker shares is
``sandbox.worker``.

Requests: ``wasm_compile`` / ``wasm_call`` (WASI modules), ``py_inspect`` / ``py_call`` (Python
tool files in the runner), ``js_inspect`` / ``js_call`` (JavaScript tool files in QuickJS).
"""

from __future__ import annotations

import base64
import signal
import sys
from typing import Any

import orjson

from sandbox import worker
from sandbox.wasm.runtime import WasmLimits, WasmModuleError, WasmRuntime

THREADS = 64  # per uid: wasmtime's WASI thread pool, with room for workers sharing a uid
OUTPUT_FILE_BYTES = 1 << 20  # a WASI module's stdout or stderr, at most


def module_handlers(wasm: WasmRuntime) -> dict[str, worker.Handler]:
    """WASI modules: compile one, and call a compiled one."""

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
                timeout_ms=request["timeout"],
                fuel=request["fuel"],
                memory_bytes=request["memory_bytes"],
                output_bytes=request["output_bytes"],
            ),
            worker.host_call,  # http goes to the server, which applies the egress policy
        )
        reply: dict[str, Any] = {
            "ok": outcome.ok,
            "stderr": outcome.stderr,
            "compilations": wasm.compilations,
            "logs": list(outcome.logs),
            "updates": outcome.updates,
        }
        if outcome.ok:
            reply["value"] = orjson.loads(orjson.dumps(outcome.value))
        else:
            reply.update(code=outcome.code, message=outcome.message)
            # a flood stopped by RLIMIT_FSIZE can leave bytes in the process's stdout buffer
            # (wasmtime writes through Rust's): no later call, of any tenant, may receive them
            reply["recycle"] = outcome.code == "result_too_large"
        return reply

    return {"wasm_compile": compile_, "wasm_call": call}


def main() -> None:
    config = worker.read_config()
    # each call's stdout and stderr are fds 1 and 2 (memory files bounded by the
    # RLIMIT_FSIZE below; past it a write fails, nothing dies): replies leave fd 1
    worker.move_replies_off_stdout()
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    wasm = WasmRuntime(process_stdio=True)
    handlers = module_handlers(wasm)
    idle: list[Any] = []
    if config.get("python_runner"):
        from sandbox.wasm.python.host import PythonRunner

        python = PythonRunner(config["python_runner"], wasm)
        handlers["py_inspect"] = python.inspect
        handlers["py_call"] = lambda request: python.call(request, worker.host_call)
        idle.append(python)
    if config.get("js_runner"):
        from sandbox.wasm.javascript.host import JsRunner

        js = JsRunner(config["js_runner"], wasm)
        handlers["js_inspect"] = js.inspect
        handlers["js_call"] = lambda request: js.call(request, worker.host_call)
        idle.append(js)

    def after() -> None:
        for runner in idle:
            runner.idle()

    worker.serve(
        worker.hardening(
            config,
            threads=THREADS,
            file_bytes=max(config.get("result_cap", 0) + 1, OUTPUT_FILE_BYTES),
        ),
        handlers,
        after,
    )


if __name__ == "__main__":
    sys.setrecursionlimit(400)
    main()
